//! Warnings of static analysis in a directory a tool writes and manages: a hidden directory
//! named for it (`.tanzu-managed/`, which TAP's GitOps reference implementation ships for
//! tanzu-sync and its scripts write again, or `.managed/`), or a version of a tool in the
//! hidden catalog that implementation ships (`.catalog/tanzu-sync/0.1.0/`). The author did not write those
//! files and the next run of the tool overwrites an edit, so an `unused-load` there is info,
//! without the fix. Errors stay errors: a root that renders the file fails with it.
//!
//! ```text
//! tanzu-sync/app/config/.tanzu-managed/version.yaml   #@ load("@ytt:data", "data")  (unused)
//! ```
//!
//! is info ("in tanzu-sync/app/config/.tanzu-managed/, which a tool writes and manages").

use crate::report::Diagnostic;

/// `found` with the static warnings in tool-managed directories lowered to info.
pub fn settle(found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    super::vendored::lower_static_warnings(found, |file| {
        let dir = managed_dir(file)?;
        Some(format!(
            " (in {dir}/, which a tool writes and manages: an edit here is overwritten, fix it where it comes from)"
        ))
    })
}

/// The tool-managed directory a file lies in: a hidden directory named for what manages it
/// (`.tanzu-managed/`, or `.managed/`), or one version of a tool in a hidden catalog of them
/// (`.catalog/tanzu-sync/0.1.0/`, the copies TAP's GitOps reference implementation ships and
/// its setup script copies from).
pub fn managed_dir(file: &str) -> Option<&str> {
    let segments: Vec<&str> = file.split('/').collect();
    let mut end = 0;
    for (i, segment) in segments.iter().enumerate() {
        end += segment.len() + 1;
        if segment.starts_with('.') && segment.ends_with("managed") {
            return Some(&file[..end - 1]);
        }
        let versioned = |s: &&str| s.starts_with(|c: char| c.is_ascii_digit()) && s.contains('.');
        if *segment == ".catalog" && i + 3 < segments.len() && versioned(&segments[i + 2]) {
            let dir = end + segments[i + 1].len() + 1 + segments[i + 2].len();
            return Some(&file[..dir]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Rule, Severity, Span};

    fn finding(rule: Rule, severity: Severity, file: &str) -> Diagnostic {
        let mut d = Diagnostic::new(rule, "m").at(Span::point(file, 1, 1));
        d.severity = severity;
        d
    }

    #[test]
    fn static_warnings_in_a_managed_directory_are_info_and_the_rest_stays() {
        let managed = "sync/app/config/.tanzu-managed/version.yaml";
        let mut found = vec![
            finding(Rule::UnusedLoad, Severity::Warning, managed),
            finding(
                Rule::UnusedLoad,
                Severity::Warning,
                "sync/app/config/values.yaml",
            ),
            finding(Rule::TemplateError, Severity::Error, managed),
            finding(Rule::UnknownModuleAttribute, Severity::Error, managed),
            finding(
                Rule::UnusedLoad,
                Severity::Warning,
                "a/.unmanaged-not/x.yml",
            ),
        ];
        let edit = crate::fix::Edit::new(managed, "x\n", 0, 1, "");
        found[0].fix = edit.map(|e| crate::fix::Fix::safe("Remove", e));
        assert!(found[0].fix.is_some());
        let out = settle(found);
        assert!(out[0].fix.is_none());
        let levels: Vec<Severity> = out.iter().map(|d| d.severity).collect();
        assert_eq!(
            levels,
            [
                Severity::Info,
                Severity::Warning,
                Severity::Error,
                Severity::Error,
                Severity::Warning
            ]
        );
        assert_eq!(
            out[0].message,
            "m (in sync/app/config/.tanzu-managed/, which a tool writes and manages: an edit here is overwritten, fix it where it comes from)"
        );
    }

    #[test]
    fn the_managed_directory_is_the_first_hidden_one_named_for_it() {
        assert_eq!(
            managed_dir("a/.tanzu-managed/b/c.yml"),
            Some("a/.tanzu-managed")
        );
        assert_eq!(managed_dir(".managed/c.yml"), Some(".managed"));
        assert_eq!(managed_dir("a/tanzu-managed/c.yml"), None);
        assert_eq!(managed_dir("a/unmanaged/b.yml"), None);
        assert_eq!(
            managed_dir(".catalog/tanzu-sync/0.1.0/eso/config/sync.yaml"),
            Some(".catalog/tanzu-sync/0.1.0")
        );
        assert_eq!(
            managed_dir("g/.catalog/tap-install/1.5.0/x.yaml"),
            Some("g/.catalog/tap-install/1.5.0")
        );
        assert_eq!(managed_dir(".catalog/notes/readme.yaml"), None);
        assert_eq!(managed_dir(".catalog/tool/1.0"), None);
    }
}
