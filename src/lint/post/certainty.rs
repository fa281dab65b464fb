//! An error means certain. A finding that rests on a command or inputs the linter had to
//! guess (its [`crate::report::Certainty`] names what it assumes) is reported as a warning that
//! says so, after the configured rule levels: a rule set to `error` in `.yttlint.yaml` gives
//! an error where the command and its inputs are known, a warning elsewhere.

use crate::report::{Diagnostic, Severity};

/// `found` with every error that assumes something lowered to a warning.
pub fn apply(found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    found
        .into_iter()
        .map(|mut d| {
            if d.severity == Severity::Error && d.assumes() {
                d.severity = Severity::Warning;
            }
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Assumption, AssumptionKind, Basis, Provenance, Rule, Source};

    #[test]
    fn only_errors_that_assume_something_are_lowered() {
        let mut guessed = Provenance::of(Source::Layout, None);
        guessed.assume(Assumption::new(AssumptionKind::InferredCommand, "ytt -f x"));
        let known = Provenance::of(Source::Script, Some("build.sh:2".into()));
        let mut a = Diagnostic::new(Rule::TemplateError, "boom");
        a.certainty = Some(guessed.certainty(Basis::Inputs));
        let mut b = Diagnostic::new(Rule::TemplateError, "boom");
        b.certainty = Some(known.certainty(Basis::Inputs));
        let c = Diagnostic::new(Rule::YamlSyntax, "bad");
        let out = apply(vec![a, b, c]);
        let severities: Vec<Severity> = out.iter().map(|d| d.severity).collect();
        assert_eq!(
            severities,
            [Severity::Warning, Severity::Error, Severity::Error]
        );
    }
}
