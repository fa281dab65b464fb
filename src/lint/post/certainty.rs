//! An error means certain. A finding that rests on a command or inputs the linter had to
//! guess (its [`crate::report::Certainty`] names what it assumes) is reported as a warning that
//! says so, after the configured rule levels: a rule set to `error` in `.yttlint.yaml` gives
//! an error where the command and its inputs are known, a warning elsewhere. Where a tool
//! renders the files with inputs of its own that the linter lacks (a wrapper of ytt, another
//! tool's tree the files are copied into), the finding is a note (info): the linter knows it
//! does not see what that tool gives.

use crate::report::{AssumptionKind, Diagnostic, Severity, Subject};

/// `found` with every error that assumes something lowered to a warning, and every error or
/// warning that lacks another tool's inputs to info.
pub fn apply(found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    found
        .into_iter()
        .map(|mut d| {
            let Some(c) = d.certainty.as_ref().filter(|c| !c.certain()) else {
                return d;
            };
            // An input another tool makes at run time (`helm template > chart.yaml`) that the
            // command is linted without: what rests on the command's files lacks it too.
            // So is a file outside the repository (`-f ~/.tanzu/config.yaml`). Not the
            // `input-missing` finding itself, which assumes only that a maker whose output path
            // is a guess does not make it.
            // A directory whose files only supplement others, checked on its own: no command
            // gives its files alone, so what rests on the command lacks the files it
            // supplements (round eleven's micropets: an old version's values and schema
            // overlaid in the order of their names).
            let made_elsewhere = d.basis() == crate::report::Basis::Command
                && d.rule != crate::report::Rule::InputMissing
                && c.assumed.iter().any(|a| {
                    matches!(
                        a.kind,
                        AssumptionKind::MissingInput | AssumptionKind::OutsideInput
                    ) || a.subject == Some(Subject::Supplements)
                });
            // A blank of an example the user fills in (`certData:` left empty), text a
            // command's own values replace: it says nothing of the repository.
            let blank = c.assumed.iter().any(crate::report::Assumption::only_a_note);
            let elsewhere = made_elsewhere || blank || c.assumed.iter().any(|a| a.kind.elsewhere());
            d.severity = match (d.severity, elsewhere) {
                (Severity::Error | Severity::Warning, true) => Severity::Info,
                (Severity::Error, false) => Severity::Warning,
                (s, _) => s,
            };
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Assumption, AssumptionKind, Basis, Provenance, Rule, Source};

    /// Every rule (and a policy of the repository), as an error of a root whose command was
    /// inferred from the layout, in a directory a tool wrapping ytt renders, or with a
    /// placeholder among its values: the run reports it lowered exactly when it rests on
    /// more than its text. A rule added without thinking of its certainty fails here.
    #[test]
    fn an_uncertain_root_lowers_every_finding_that_rests_on_its_command_or_inputs() {
        use crate::lint::job::certainty::attach;
        use crate::lint::job::Job;
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let job = Job::new(&config, "config", Err("unused".to_string()));
        let mut rules: Vec<Rule> = Rule::ALL.to_vec();
        rules.extend(Rule::from_id("policy/team"));
        let cases = [
            (AssumptionKind::InferredCommand, Severity::Warning),
            (AssumptionKind::WrapperTool, Severity::Info),
            (AssumptionKind::Placeholder, Severity::Warning),
        ];
        for (kind, lowered) in cases {
            let mut p = Provenance::of(Source::Layout, None);
            p.assume(Assumption::new(kind, "assumed"));
            for &r in &rules {
                let mut d = Diagnostic::new(r, "boom");
                d.severity = Severity::Error;
                attach(&job, &p, &mut d);
                let out = apply(vec![d]);
                let rests = match r.basis() {
                    Basis::Text => false,
                    Basis::Inputs => true,
                    Basis::Command => kind.about_command(),
                    Basis::Schema => kind.elsewhere(),
                };
                let want = if rests { lowered } else { Severity::Error };
                assert_eq!(out[0].severity, want, "{} under {}", r.id(), kind.id());
                assert_eq!(
                    out[0].assumes(),
                    rests,
                    "{} under {}: its certainty names the assumption",
                    r.id(),
                    kind.id()
                );
            }
        }
        // The myks prototype of round nine (FE9-1): a schema that does not overlay rests on
        // the schema documents the command and the wrapper give.
        assert_eq!(Rule::SchemaInvalid.basis(), Basis::Command);
    }

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
        let mut wrapped = Provenance::of(Source::Layout, None);
        wrapped.assume(Assumption::new(
            AssumptionKind::WrapperTool,
            "myks renders it",
        ));
        let mut e = Diagnostic::new(Rule::DataValueUnused, "unused");
        e.certainty = Some(wrapped.certainty(Basis::Command));
        let out = apply(vec![a, b, c, e]);
        let severities: Vec<Severity> = out.iter().map(|d| d.severity).collect();
        assert_eq!(
            severities,
            [
                Severity::Warning,
                Severity::Error,
                Severity::Error,
                Severity::Info
            ]
        );
    }
}
