//! Rule levels from the configuration (`rules:` in `.yttlint.yaml`, `--select`, `--ignore`),
//! and the status of each root once its findings are final.

use crate::lint::config::{Config, RuleLevel};
use crate::report::{Diagnostic, Report, RootOutcome, Severity};

/// Applies `rules:` from the configuration: `off` drops a rule's findings, a severity replaces
/// the rule's default.
pub fn apply(config: &Config, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .filter_map(|mut d| match config.level(d.rule) {
            Some(RuleLevel::Off) => None,
            Some(RuleLevel::Severity(s)) => {
                d.severity = s;
                Some(d)
            }
            None => Some(d),
        })
        .collect()
}

/// Settles each root's status on its final findings: a root with findings whose findings were
/// all dropped or suppressed is `ok` again, and one whose evaluation failed is `error` only
/// while an error of the evaluation's is left among them (the job decides `error` the same
/// way, `lint::job::root`): a failure lowered to a warning because it rests on a guess
/// (`post::certainty`), or by `rules:`, leaves the root with `findings`. A failure suppressed
/// or turned off still stopped the evaluation: that root stays `error`.
pub fn settle_statuses(report: &mut Report) {
    for root in &mut report.roots {
        if root.status == RootOutcome::Ok {
            continue;
        }
        let mut own = report.diagnostics.iter().filter(|d| {
            // A finding about a file's text belongs to every scenario of its root.
            let scenario = d.scenario.is_none() || d.scenario == root.scenario;
            d.root.as_deref() == Some(&root.path) && scenario
        });
        let stopped = |d: &&Diagnostic| d.severity == Severity::Error && !d.rule.is_static();
        let any = own.clone().next().is_some();
        root.status = match root.status {
            RootOutcome::Error if own.any(|d| stopped(&d)) || !any => RootOutcome::Error,
            _ if any => RootOutcome::Findings,
            _ => RootOutcome::Ok,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{RootStatus, Rule};

    fn root(status: RootOutcome) -> RootStatus {
        RootStatus {
            path: "config".into(),
            scenario: None,
            status,
            duration_ms: 0,
            provenance: None,
            unchecked: Vec::new(),
        }
    }

    /// colrich/pks-pipelines-v3 (round eleven): a root whose one failure rests on a bound
    /// argument read `error` beside its only finding, a warning.
    #[test]
    fn a_root_s_status_follows_its_findings_after_they_are_lowered() {
        let mut failure = Diagnostic::new(Rule::TemplateError, "boom");
        failure.root = Some("config".into());
        let mut report = Report {
            roots: vec![root(RootOutcome::Error)],
            diagnostics: vec![failure.clone()],
        };
        settle_statuses(&mut report);
        assert_eq!(report.roots[0].status, RootOutcome::Error);

        failure.severity = Severity::Warning;
        report.roots = vec![root(RootOutcome::Error)];
        report.diagnostics = vec![failure];
        settle_statuses(&mut report);
        assert_eq!(report.roots[0].status, RootOutcome::Findings);

        // Suppressed or turned off, the failure still stopped the evaluation.
        report.roots = vec![root(RootOutcome::Error), root(RootOutcome::Findings)];
        report.diagnostics = Vec::new();
        settle_statuses(&mut report);
        let statuses: Vec<RootOutcome> = report.roots.iter().map(|r| r.status).collect();
        assert_eq!(statuses, [RootOutcome::Error, RootOutcome::Ok]);
    }

    #[test]
    fn levels_drop_or_change_severity() {
        let mut config = Config::default_for(std::path::Path::new("/repo"));
        config.rules.insert(Rule::TemplateError, RuleLevel::Off);
        config.rules.insert(
            Rule::UnknownAnnotation,
            RuleLevel::Severity(Severity::Error),
        );
        let diags = vec![
            Diagnostic::new(Rule::TemplateError, "x"),
            Diagnostic::new(Rule::UnknownAnnotation, "y"),
        ];
        let out = apply(&config, diags);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Error);
    }
}
