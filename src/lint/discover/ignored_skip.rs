//! A command discovery skips because `.gitignore` hides an input the repository does not hold
//! (`ytt -f build/app.yml` where `build/` is ignored: something makes it at run time) is said
//! in the report, a `needs-input` note at the command naming the input and the assumption,
//! not only in `--list-roots` (round thirty's R30-1: a skipped command is never silent).

use crate::lint::discover::invocations::missing::IGNORED_SKIP;
use crate::lint::discover::invocations::resolve::Skipped;
use crate::report::{Diagnostic, Rule, Span};

/// The notes of the commands of `skipped` left out because `.gitignore` hides their input.
pub fn notes(skipped: &[Skipped]) -> Vec<Diagnostic> {
    let mut notes: Vec<Diagnostic> = skipped
        .iter()
        .filter_map(|s| {
            let path = s.reason.strip_suffix(IGNORED_SKIP)?;
            let d = Diagnostic::new(
                Rule::NeedsInput,
                format!(
                    "the ytt command is not linted: its input {path} is not in the repository, and .gitignore ignores it, so the linter assumes something makes it at run time"
                ),
            )
            .at(Span::point(&s.origin.file, s.origin.line, 1))
            .with_help(format!(
                "commit {path}, or list the command in .yttlint.yaml with the files it reads"
            ));
            Some(d)
        })
        .collect();
    notes.dedup();
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn skipped(reason: String) -> Skipped {
        Skipped {
            origin: Origin {
                file: "Makefile".to_string(),
                line: 3,
            },
            reason,
            claims: Vec::new(),
            placeholder: None,
            left_out: Vec::new(),
            got: None,
        }
    }

    #[test]
    fn only_commands_skipped_for_an_ignore_pattern_are_noted() {
        let notes = notes(&[
            skipped(format!("build/app.yml{IGNORED_SKIP}")),
            skipped("input x.yml is outside the repository".to_string()),
        ]);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].rule, Rule::NeedsInput);
        assert!(notes[0].message.contains("its input build/app.yml"));
        assert_eq!(notes[0].span.as_ref().map(|s| s.line), Some(3));
    }
}
