//! Rule levels from the configuration (`rules:` in `.yttlint.yaml`, `--select`, `--ignore`),
//! and the status of each root once its findings are final.

use crate::lint::config::{Config, RuleLevel};
use crate::report::{Diagnostic, Report, RootOutcome};

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

/// Marks roots whose findings were all dropped or suppressed as `ok` again.
pub fn settle_statuses(report: &mut Report) {
    for root in &mut report.roots {
        if root.status != RootOutcome::Findings {
            continue;
        }
        let any = report.diagnostics.iter().any(|d| {
            // A finding about a file's text belongs to every scenario of its root.
            let scenario = d.scenario.is_none() || d.scenario == root.scenario;
            d.root.as_deref() == Some(&root.path) && scenario
        });
        if !any {
            root.status = RootOutcome::Ok;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Rule, Severity};

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
