//! A piece of shell a repository runs (a script, a Makefile recipe line, a workflow step, a
//! Taskfile command, a kuttl or Concourse command), with where it is, the directory it runs
//! in and the variables its runner defines. Values the runner fills in at run time (`$(VAR)`
//! of make, `{{.VAR}}` of Task, `${{ ... }}` of GitHub) stand in the text as variables the
//! shell walk knows as unknown.

use super::env::{Alt, Env};
use super::word::Word;

/// The first segment of a path relative to wherever a script is started from: the
/// repository root, the script's directory, or a CI build directory holding the repository.
pub const CALLER: &str = "\u{3}";

/// Shell text and how it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Snippet {
    /// Repository-relative file the text is in.
    pub file: String,
    /// Added to the text's line numbers to give the file's.
    pub line_offset: u32,
    pub text: String,
    /// The directory it runs in (a repository word, or one starting with [`CALLER`]).
    pub cwd: Word,
    /// Variables the runner defines.
    pub vars: Vec<(String, Word)>,
    /// A Concourse task's inputs that git resources fill (see `concourse_inputs.rs`).
    pub checkouts: Vec<super::concourse_inputs::Checkout>,
    /// What was assumed about how it runs (a page's working directory, see `prose_dir.rs`):
    /// every command found in it assumes it too.
    pub assumed: Vec<crate::report::Assumption>,
    /// The directory an earlier block of the same page left the reader in, and the line of
    /// its `cd` (see `page_cd.rs`): tried only when the command's inputs exist from nowhere
    /// else.
    pub reader_cd: Option<(String, u32)>,
}

impl Snippet {
    pub fn new(file: &str, line_offset: u32, text: String, cwd: Word) -> Snippet {
        Snippet {
            file: file.to_string(),
            line_offset,
            text,
            cwd,
            vars: Vec::new(),
            checkouts: Vec::new(),
            assumed: Vec::new(),
            reader_cd: None,
        }
    }

    /// The shell state it starts in.
    pub fn env(&self) -> Env {
        let mut env = Env::at(self.cwd.clone());
        for (name, value) in &self.vars {
            env.set(name, vec![Alt::plain(value.clone())]);
        }
        env
    }
}

/// Builds shell text in which some values are unknown: each becomes `${__yttlint_N}`, a
/// variable set to an unknown word named as the source spells it.
#[derive(Default)]
pub struct Marked {
    pub text: String,
    pub vars: Vec<(String, Word)>,
}

impl Marked {
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Appends a value known only at run time, shown as `spelled`.
    pub fn unknown(&mut self, spelled: &str) {
        let name = format!("__yttlint_{}", self.vars.len());
        self.text.push_str(&format!("${{{name}}}"));
        self.vars.push((name, Word::unknown(spelled)));
    }

    /// Appends a value the linter knows as a word (a directory: `$(CURDIR)`).
    pub fn known(&mut self, word: Word) {
        let name = format!("__yttlint_{}", self.vars.len());
        self.text.push_str(&format!("${{{name}}}"));
        self.vars.push((name, word));
    }

    pub fn into_snippet(self, file: &str, line_offset: u32, cwd: Word) -> Snippet {
        let mut s = Snippet::new(file, line_offset, self.text, cwd);
        s.vars = self.vars;
        s
    }
}

/// Replaces each `open ... close` region of `text` by what `value` says: known text, or an
/// unknown value (`None`). Used for `{{ }}` templates and `${{ }}` expressions.
pub fn substitute(
    text: &str,
    open: &str,
    close: &str,
    value: &dyn Fn(&str) -> Option<String>,
) -> Marked {
    let mut out = Marked::default();
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        let Some(len) = rest[start + open.len()..].find(close) else {
            break;
        };
        out.push(&rest[..start]);
        let whole = &rest[start..start + open.len() + len + close.len()];
        let inner = rest[start + open.len()..start + open.len() + len].trim();
        match value(inner) {
            Some(v) => out.push(&v),
            None => out.unknown(whole),
        }
        rest = &rest[start + whole.len()..];
    }
    out.push(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_become_known_text_or_unknown_variables() {
        let m = substitute(
            "kind create --name {{.CLUSTER}} --image {{.IMG | upper}}",
            "{{",
            "}}",
            &|e| (e == ".CLUSTER").then(|| "dev".to_string()),
        );
        assert_eq!(m.text, "kind create --name dev --image ${__yttlint_0}");
        assert_eq!(m.vars[0].1.to_string(), "{{.IMG | upper}}");
    }
}
