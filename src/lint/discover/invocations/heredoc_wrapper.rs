//! A committed template a script renders by wrapping it in a here-document and running the
//! result (round twenty-seven's R27-2):
//!
//! ```sh
//! ( echo "cat <<EOF >config/${ENV}-values.yaml"; cat template/values-template.yaml; echo "EOF" ) > temp.yml
//! . temp.yml
//! ```
//!
//! The shell that runs `temp.yml` expands the template's variables and commands and writes the
//! result to the file the first line names. That file is made by a rendering of the template,
//! as `envsubst < template > file` makes it (see `rendered.rs`): a command that reads it is
//! linted with the template in its place, under the assumption that names the rendering. A
//! quoted delimiter (`cat <<'EOF' >FILE`) expands nothing: the file is a copy of the template.

use tree_sitter::Node;

use super::env::Env;
use super::shell::Interp;
use super::word::Word;

/// The tool a wrapped here-document's rendering is named by.
pub const TOOL: &str = "here-document";

impl<'t> Interp<'t> {
    /// For a subshell that prints a here-document around a file (`( echo "cat <<EOF >OUT";
    /// cat T; echo "EOF" ) > script`), the file the here-document writes and the template,
    /// both as written (from the working directory), and whether the shell expands the
    /// template (its delimiter is not quoted); `None` for any other subshell.
    pub(super) fn wrapped_heredoc(
        &mut self,
        body: Node<'t>,
        env: &mut Env,
    ) -> Option<(Word, Word, bool)> {
        if body.kind() != "subshell" {
            return None;
        }
        let mut c = body.walk();
        let commands: Vec<Node> = body
            .named_children(&mut c)
            .filter(|n| n.kind() == "command")
            .collect();
        let mut out: Option<(Word, bool)> = None;
        let mut template: Option<Word> = None;
        for cmd in commands {
            let name = cmd
                .child_by_field_name("name")
                .map(|n| self.text(n).to_string())
                .unwrap_or_default();
            let mut c2 = cmd.walk();
            let args: Vec<Node> = cmd.children_by_field_name("argument", &mut c2).collect();
            let [arg] = args.as_slice() else {
                continue;
            };
            let expanded = self.expand(*arg, env, true);
            let [one] = expanded.as_slice() else {
                continue;
            };
            let word = one.joined();
            match name.as_str() {
                "echo" if out.is_none() => out = heredoc_target(&word),
                "cat" if out.is_some() && template.is_none() => template = Some(word),
                _ => {}
            }
        }
        let (out, expands) = out?;
        Some((out, template?, expands))
    }
}

/// The file `cat <<EOF >FILE` (as an `echo` prints it) writes, and whether the here-document
/// is expanded (`<<EOF`, not `<<'EOF'`, `<<"EOF"` or `<<\EOF`): `None` for other text.
fn heredoc_target(line: &Word) -> Option<(Word, bool)> {
    let (head, file) = line.split_once('>')?;
    let head = head.literal()?;
    let head = head.trim();
    let delimiter = head.strip_prefix("cat")?.trim_start().strip_prefix("<<")?;
    let delimiter = delimiter
        .strip_prefix('-')
        .unwrap_or(delimiter)
        .trim_start();
    let expands = !(delimiter.starts_with(['\'', '"']) || delimiter.contains('\\'));
    let mut file = file;
    while let Some(rest) = file.strip_prefix(" ") {
        file = rest;
    }
    file.names_file().then_some((file, expands))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_an_echoed_here_document_writes() {
        let line = Word::lit("cat <<EOF >config/values.yaml");
        assert_eq!(
            heredoc_target(&line),
            Some((Word::lit("config/values.yaml"), true))
        );
        let spaced = Word::lit("cat << 'EOF' > out.yml");
        assert_eq!(heredoc_target(&spaced), Some((Word::lit("out.yml"), false)));
        for quoted in ["cat <<\"EOF\" >o.yml", "cat <<-\\EOF >o.yml"] {
            assert_eq!(heredoc_target(&Word::lit(quoted)).map(|t| t.1), Some(false));
        }
        assert_eq!(
            heredoc_target(&Word::lit("cat <<-EOF >o.yml")).map(|t| t.1),
            Some(true)
        );
        assert_eq!(heredoc_target(&Word::lit("echo a > b.yml")), None);
        assert_eq!(heredoc_target(&Word::lit("cat a.yml > b.yml")), None);
    }
}
