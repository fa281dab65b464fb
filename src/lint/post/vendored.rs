//! Warnings of static analysis in files `vendir sync` wrote: another project's files, copied
//! into a directory a `vendir.yml` of the repository fills. The author cannot fix them there
//! (the next sync writes them again), so they are info, saying where to fix them, without the
//! fix (`--fix` would edit a copy the next sync overwrites). Errors stay
//! errors: a root of this repository that renders the copy fails with it.

use crate::files::paths::is_within;
use crate::lint::discover::vendir::Target;
use crate::report::{Diagnostic, Severity};

/// `found` with the static warnings in directories vendir fills lowered to info.
pub fn settle(targets: &[Target], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let synced: Vec<&Target> = targets.iter().filter(|t| t.synced).collect();
    if synced.is_empty() {
        return found;
    }
    lower_static_warnings(found, |file| {
        let t = synced.iter().find(|t| is_within(file, &t.dir))?;
        Some(format!(
            " (in {}, which `vendir sync` writes ({}:{}): fix it where it comes from)",
            t.dir, t.file, t.line
        ))
    })
}

/// `found` with each static warning whose file `note` says something about lowered to info,
/// without its fix, and the note added to its message: a file someone else writes.
pub(super) fn lower_static_warnings(
    found: Vec<Diagnostic>,
    note: impl Fn(&str) -> Option<String>,
) -> Vec<Diagnostic> {
    found
        .into_iter()
        .map(|mut d| {
            if !(d.rule.is_static() && d.severity == Severity::Warning) {
                return d;
            }
            let file = d.span.as_ref().map_or("", |s| s.file.as_str());
            if let Some(note) = note(file) {
                d.severity = Severity::Info;
                d.fix = None;
                d.message.push_str(&note);
            }
            d
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Rule, Span};

    fn target(dir: &str, synced: bool) -> Target {
        Target {
            file: "vendir.yml".to_string(),
            line: 6,
            dir: dir.to_string(),
            synced,
            third_party: true,
        }
    }

    fn finding(rule: Rule, severity: Severity, file: &str) -> Diagnostic {
        let mut d = Diagnostic::new(rule, "m").at(Span::point(file, 1, 1));
        d.severity = severity;
        d
    }

    #[test]
    fn static_warnings_in_a_synced_copy_are_info_and_the_rest_stays() {
        let targets = [target("vendor/up", true), target("vendor/later", false)];
        let found = vec![
            finding(
                Rule::UnusedLoad,
                Severity::Warning,
                "vendor/up/config/a.yml",
            ),
            finding(Rule::UnusedLoad, Severity::Warning, "vendor/later/a.yml"),
            finding(Rule::UnusedLoad, Severity::Warning, "app/a.yml"),
            finding(
                Rule::TemplateError,
                Severity::Error,
                "vendor/up/config/a.yml",
            ),
            finding(
                Rule::UnknownModuleAttribute,
                Severity::Error,
                "vendor/up/b.star",
            ),
        ];
        let mut found = found;
        let edit = crate::fix::Edit::new("vendor/up/config/a.yml", "x\n", 0, 1, "");
        found[0].fix = edit.map(|e| crate::fix::Fix::safe("Remove", e));
        assert!(found[0].fix.is_some());
        let out = settle(&targets, found);
        assert!(out[0].fix.is_none());
        let levels: Vec<Severity> = out.iter().map(|d| d.severity).collect();
        assert_eq!(
            levels,
            [
                Severity::Info,
                Severity::Warning,
                Severity::Warning,
                Severity::Error,
                Severity::Error
            ]
        );
        assert_eq!(
            out[0].message,
            "m (in vendor/up, which `vendir sync` writes (vendir.yml:6): fix it where it comes from)"
        );
    }
}
