//! The `input-read-as-data` finding: a `-f <(…)` input without a name. The shell hands ytt a
//! path like `/dev/fd/63`, which has no YAML, Starlark or text extension, so ytt reads the
//! file as data: no template of it is rendered, no overlay applied, no data values taken
//! (`ytt -f config/ -f <(cat <<EOF` … an overlay … `EOF)` renders `config/` alone). Reported
//! at the command's line, naming the here-document or the command that gives the text.
//! `-f name.yml=<(…)` names the file, and `--data-values-file <(…)` is read as values: neither
//! is reported.

use super::shell::Call;
use super::word::{Piece, Word};
use super::ytt_args::{self, Command};
use crate::lint::discover::provenance::source_of;
use crate::report::{Basis, Diagnostic, Provenance, Rule, Span};

/// The longest text of a substitution quoted in a finding.
const MAX_QUOTED: usize = 60;

/// The findings of the command `call` of `file`: one per unnamed `-f <(…)` input.
pub fn findings(call: &Call, file: &str) -> Vec<Diagnostic> {
    if !matches!(ytt_args::parse(&call.args), Command::Render(_)) {
        return Vec::new();
    }
    let (at_file, at_line) = match &call.written {
        Some((f, l)) => (f.as_str(), *l),
        None => (file, call.line),
    };
    let origin = format!("{file}:{}", call.line);
    substitutions(&call.args)
        .into_iter()
        .map(|text| {
            let given = given(&text);
            let mut d = Diagnostic::new(
                Rule::InputReadAsData,
                format!(
                    "ytt reads `-f {}` as a data file: the shell names it like /dev/fd/63, \
                     which has no YAML extension, so nothing of {given} is rendered or applied \
                     (no template, overlay or data values)",
                    shown(&text)
                ),
            )
            .at(Span::point(at_file, at_line, 1))
            .with_help(
                "name it so ytt reads it as YAML, `-f overlay.yml=<(…)`, or write the text to \
                 a `.yml` file and give that",
            );
            let p = Provenance::of(source_of(&origin), Some(origin.clone()));
            d.certainty = Some(p.certainty(Basis::Command));
            d
        })
        .collect()
}

/// The texts of the unnamed process substitutions that `-f` takes.
fn substitutions(args: &[Word]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = match a.literal().as_deref() {
            Some("-f" | "--file") => it.next(),
            _ => None,
        };
        if let Some(text) = value.and_then(substitution) {
            out.push(text);
        }
    }
    out
}

/// The text of a word that is one process substitution, `<(…)`, and nothing else.
fn substitution(w: &Word) -> Option<String> {
    match w.0.as_slice() {
        [Piece::Unknown(text)] if text.starts_with("<(") => Some(text.clone()),
        _ => None,
    }
}

/// What the substitution gives: its here-document, or the output of its first command.
fn given(text: &str) -> String {
    if text.contains("<<") {
        return "the here-document".to_string();
    }
    let inner = text.trim_start_matches("<(").trim_end_matches(')');
    format!("the output of `{}`", shown(inner))
}

/// A substitution's first line, cut to [`MAX_QUOTED`] characters.
fn shown(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    let cut: String = first.chars().take(MAX_QUOTED).collect();
    if cut.len() < text.trim().len() {
        format!("{cut} …")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(args: Vec<Word>) -> Call {
        Call::new(3, args, None)
    }

    #[test]
    fn an_unnamed_substitution_is_read_as_data() {
        let heredoc = "<(cat <<EOF\n#@overlay/match by=overlay.all\n---\na: 1\nEOF\n)";
        let found = findings(
            &call(vec![
                Word::lit("-f"),
                Word::lit("config/"),
                Word::lit("-f"),
                Word::unknown(heredoc),
            ]),
            "render.sh",
        );
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("`-f <(cat <<EOF …`"),
            "{}",
            found[0].message
        );
        assert!(found[0].message.contains("the here-document"));
        let piped = findings(
            &call(vec![Word::lit("-f"), Word::unknown("<(helm template x)")]),
            "render.sh",
        );
        assert!(piped[0].message.contains("the output of `helm template x`"));
    }

    #[test]
    fn a_named_substitution_or_a_values_file_is_not() {
        let mut named = Word::lit("overlay.yml=");
        named
            .0
            .push(Piece::Unknown("<(cat <<EOF\na: 1\nEOF\n)".into()));
        let args = vec![
            Word::lit("-f"),
            named,
            Word::lit("--data-values-file"),
            Word::unknown("<(cat v.yml)"),
        ];
        assert!(findings(&call(args), "render.sh").is_empty());
    }
}
