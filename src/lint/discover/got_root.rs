//! The root a discovery finding about a file is reported under. Some findings of discovery
//! are made where no root is known yet, and name the file they are about as their root: an
//! overlay error of a skipped command, made from what it reads (`invocations/kubectl_got.rs`);
//! a page's `-f FILE` placeholder that fails for every file (`invocations/placeholder_file.rs`);
//! an input beyond a link out of the repository (`invocations/through_links.rs`); a script
//! that could not be read (`invocations/unread.rs`). Under the file's path, each made a root
//! of its own, one more than the roots linted in the summary's "in N roots". Once the roots
//! are known, each goes under the root that reads the file (the one whose input holds it most
//! closely; the first by name among equals), as any other finding in that file would; when no
//! root reads the file it stays under the file's path, which the summary does not count as a
//! root ([`unplaced`]) and no report names as its root (`lint::job::model::place`).

use super::{Library, Root};
use crate::files::paths::is_within;
use crate::report::{AssumptionKind, Diagnostic, Rule};

/// Whether `d` is a finding of discovery that names the file it is about as its root.
fn about_a_file(d: &Diagnostic) -> bool {
    match d.rule {
        Rule::OverlayError => d.certainty.as_ref().is_some_and(|c| {
            c.assumed
                .iter()
                .any(|a| a.kind == AssumptionKind::CommandOutput)
        }),
        Rule::LoadError | Rule::FileOutsideRepository | Rule::ScriptUnread => true,
        _ => false,
    }
}

/// What a finding may be reported under: a root's name and inputs, or a directory checked
/// on its own (a library, or files that only supplement others) and the files it checks.
fn readers<'a>(roots: &'a [Root], libraries: &'a [Library]) -> Vec<(&'a str, Vec<&'a str>)> {
    let roots = roots.iter().map(|r| {
        (
            r.name.as_str(),
            r.inputs.iter().map(String::as_str).collect(),
        )
    });
    let libraries = libraries.iter().map(|l| {
        let files: Vec<&str> = if l.files.is_empty() {
            vec![l.path.as_str()]
        } else {
            l.files.iter().map(String::as_str).collect()
        };
        (l.path.as_str(), files)
    });
    roots.chain(libraries).collect()
}

/// Puts each finding of discovery about a file under the root (or directory checked on its
/// own) that reads the file.
pub fn settle(findings: &mut [Diagnostic], roots: &[Root], libraries: &[Library]) {
    let readers = readers(roots, libraries);
    for d in findings.iter_mut().filter(|d| about_a_file(d)) {
        let Some(file) = d.root.clone() else {
            continue;
        };
        if readers.iter().any(|(name, _)| *name == file) {
            continue;
        }
        // The reader whose input holds the file most closely: the longest such input.
        let mut best: Option<(&str, usize)> = None;
        for (name, inputs) in &readers {
            let closest = inputs
                .iter()
                .filter(|i| is_within(&file, i))
                .map(|i| i.len())
                .max();
            if let Some(len) = closest {
                if best.is_none_or(|(_, l)| len > l) {
                    best = Some((name, len));
                }
            }
        }
        if let Some((name, _)) = best {
            d.root = Some(name.to_string());
        }
    }
}

/// Whether the findings discovery reports under `name` are all about a file no root or
/// directory checked on its own reads, kept under the file's path ([`settle`]): that path is
/// no root.
pub fn unplaced(
    name: &str,
    findings: &[Diagnostic],
    roots: &[Root],
    libraries: &[Library],
) -> bool {
    !readers(roots, libraries).iter().any(|(n, _)| *n == name)
        && !findings.is_empty()
        && findings.iter().all(about_a_file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::Reason;
    use crate::report::{Assumption, Certainty, Source};

    fn overlay_error(file: &str) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::OverlayError, "Expected number of matched nodes");
        let mut c = Certainty::from(Source::Script, None);
        c.assumed
            .push(Assumption::new(AssumptionKind::CommandOutput, "kubectl"));
        d.certainty = Some(c);
        d.root = Some(file.to_string());
        d
    }

    #[test]
    fn goes_under_the_directory_checked_on_its_own_that_holds_it() {
        let supplements = Library {
            path: ".".into(),
            parent: ".".into(),
            partial: Some("read only together with other files".into()),
            flags: Vec::new(),
            files: Vec::new(),
        };
        let mut found = vec![overlay_error("drop.yaml")];
        settle(&mut found, &[], &[supplements]);
        assert_eq!(found[0].root.as_deref(), Some("."));
    }

    #[test]
    fn goes_under_the_root_that_reads_its_file() {
        let roots = [
            Root::found(".", Reason::Topmost),
            Root::found("ops", Reason::Topmost),
        ];
        let mut found = vec![overlay_error("ops/drop.yaml"), overlay_error("x.yaml")];
        settle(&mut found, &roots, &[]);
        assert_eq!(found[0].root.as_deref(), Some("ops"));
        assert_eq!(found[1].root.as_deref(), Some("."));
        // A root named after the file keeps it; no root that reads it: the file's path.
        let mut found = vec![overlay_error("ops/drop.yaml")];
        settle(
            &mut found,
            &[Root::found("ops/drop.yaml", Reason::Topmost)],
            &[],
        );
        assert_eq!(found[0].root.as_deref(), Some("ops/drop.yaml"));
        settle(&mut found, &[], &[]);
        assert_eq!(found[0].root.as_deref(), Some("ops/drop.yaml"));
        // Another finding is not moved.
        let mut other = Diagnostic::new(Rule::OverlayError, "x");
        other.root = Some("ops/drop.yaml".into());
        let mut found = vec![other];
        settle(&mut found, &roots, &[]);
        assert_eq!(found[0].root.as_deref(), Some("ops/drop.yaml"));
    }

    #[test]
    fn a_finding_about_a_file_no_root_reads_stays_there_and_is_no_root() {
        let roots = [Root::found("config", Reason::Topmost)];
        let unread = crate::lint::discover::invocations::unread::finding("hack/nul.sh", "x");
        let mut beyond = Diagnostic::new(Rule::FileOutsideRepository, "beyond a link");
        beyond.root = Some("config/shared/a.yaml".into());
        let mut found = vec![unread, beyond];
        settle(&mut found, &roots, &[]);
        assert_eq!(found[0].root.as_deref(), Some("hack/nul.sh"));
        assert_eq!(found[1].root.as_deref(), Some("config"));
        assert!(unplaced("hack/nul.sh", &found[..1], &roots, &[]));
        // A root's own name, or a finding of another kind among them, is counted as before.
        assert!(!unplaced("config", &found[1..], &roots, &[]));
        let other = Diagnostic::new(Rule::InputMissing, "x");
        assert!(!unplaced(
            "hack/nul.sh",
            &[found[0].clone(), other],
            &roots,
            &[]
        ));
        assert!(!unplaced("hack/nul.sh", &[], &roots, &[]));
    }
}
