//! `-f -` fed by a program of a pipeline that the linter cannot run and whose output it cannot
//! name (`make-cluster --dry-run | ytt -f assist -f- > cluster.yaml`, round thirty-three's
//! R33-1). ytt compiles every file the command names before it reads the pipe, so whatever
//! the program prints, what those files show on their own with the command's own flags
//! (syntax, a plain `# comment` without `--ignore-unknown-comments`, annotations, static
//! analysis, loads between them) is certain. The piped document may be anything (data values,
//! templates, overlays, manifests): the command is linted without it, any data value may come
//! from there (a failure for want of one is `needs-input`), and what rests on the other inputs
//! (an evaluation failure, an overlay's matches, the rendered objects) assumes it, as for a
//! `-f $FILE` given at run time.
//!
//! The command stays skipped where too little of it is the repository's: nothing but the pipe,
//! or a `-f` input outside the repository or not in it besides it (a page that tells its
//! reader to run it in another project's checkout, `… | ytt -f ../other/overlay.yaml -f ./
//! -f-`). One that stops for another reason (a missing input, a path no command makes) is
//! judged as any command reading standard input is (`instance.rs`): only a command the linter
//! would otherwise run is run without the pipe.

use super::resolve::{Invocation, NOT_IN_REPOSITORY};
use crate::report::{Assumption, AssumptionKind, Subject};

/// Whether a command that reads a program's output on `-f -` is too little the repository's
/// to judge: no input of the repository, or an input outside it or not in it.
pub fn too_little(inv: &Invocation) -> bool {
    inv.inputs.is_empty()
        || inv.unknown.iter().any(|u| u.ends_with(NOT_IN_REPOSITORY))
        || inv
            .assumptions
            .iter()
            .any(|a| a.kind == AssumptionKind::OutsideInput)
}

/// What the command leaves unknown, as the scenario lists it (`more inputs given at run time`).
pub fn unknown(producer: &str) -> String {
    format!("-f - (what `{producer}` prints)")
}

/// What a finding that rests on the command's inputs assumes.
pub fn assumption(producer: &str) -> Assumption {
    Assumption::new(
        AssumptionKind::MissingInput,
        format!(
            "`-f -` reads what `{producer}` prints at run time, which the linter cannot know; \
             linted without it, so what it may give (data values, templates) and what the other \
             inputs do to it (an overlay's matches) is not judged"
        ),
    )
    .about(piped(producer))
}

/// What an assumption that leaves out what `producer` prints on the pipe is about.
pub fn piped(producer: &str) -> Subject {
    Subject::Piped {
        input: format!("-f - (what `{producer}` prints)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assumption_names_the_program_and_what_is_not_judged() {
        let a = assumption("make-cluster --dry-run");
        assert_eq!(a.kind, AssumptionKind::MissingInput);
        assert!(a.message.contains("`make-cluster --dry-run` prints"), "{a}");
        assert!(a.message.contains("not judged"), "{a}");
        assert_eq!(unknown("x y"), "-f - (what `x y` prints)");
        assert!(matches!(a.subject, Some(Subject::Piped { .. })));
    }
}
