//! A page's command skipped because an input it names is not in the repository from any
//! folder its reader may run it in (`ytt -f ./wf.yml -f helpers.star`, where the page tells
//! its reader to download `helpers.star` first) is said in the report, a `needs-input` note at
//! the page's line naming the input, not only in `--list-roots`: a documented command is the
//! reader's procedure and is never dropped without a trace (round fifty-three's N53-2).

use crate::lint::discover::ignored_skip::skip_notes;
use crate::lint::discover::invocations::resolve::{Skipped, UNPLACED_SKIP};
use crate::lint::discover::provenance::source_of;
use crate::report::{Diagnostic, Source};

/// The notes of the page commands of `skipped` left out for an input no folder holds.
pub fn notes(skipped: &[Skipped]) -> Vec<Diagnostic> {
    let pages = skipped
        .iter()
        .filter(|s| source_of(&s.origin.file) == Source::Document);
    skip_notes(pages, UNPLACED_SKIP, |inputs| {
        (
            format!(
                "the page's ytt command is not linted: {inputs} is not in the repository, \
                 and no folder its reader may run it from holds every input (the reader \
                 gives what is missing, or the page is out of date)"
            ),
            "list the command in .yttlint.yaml with a stand-in for the input, or commit it"
                .to_string(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn skipped(file: &str, reason: String) -> Skipped {
        Skipped {
            origin: Origin {
                file: file.to_string(),
                line: 5,
            },
            reason,
            claims: Vec::new(),
            placeholder: None,
            left_out: Vec::new(),
            got: None,
        }
    }

    #[test]
    fn only_a_page_s_command_skipped_for_an_input_no_folder_holds_is_noted() {
        let notes = notes(&[
            skipped(
                ".github/tmpl/README.md",
                format!(".github/tmpl/helpers.star{UNPLACED_SKIP}"),
            ),
            skipped("deploy.sh", format!("x.yml{UNPLACED_SKIP}")),
            skipped(
                "README.md",
                "it renders templates from standard input".into(),
            ),
        ]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].rule, crate::report::Rule::NeedsInput);
        assert!(notes[0]
            .message
            .contains(".github/tmpl/helpers.star is not"));
        assert_eq!(notes[0].span.as_ref().map(|s| s.line), Some(5));
    }
}
