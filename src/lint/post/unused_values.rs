//! `data-value-unused` once every reader is in sight. A job reports the values its library
//! declares but does not read, with what it reads (see `lint/job/usage.rs`); a value is
//! unused only when:
//!
//! - no job whose library includes the declaring file reads it: another root, or a scenario
//!   with files of its own, may read half of a values file that one root reads the other
//!   half of (a root inferred from the layout counts only for a declaring root nobody
//!   declared either: how it combines files is a guess);
//! - the declaration is not in a folder that only supplements files elsewhere (its readers
//!   are there);
//! - when the declaring root is one nobody declared (found by discovery: what is rendered
//!   with it is a guess), no job with a file next to the declaration reads it (a Package or
//!   a command renders the neighbours with the schema);
//!   the same for a root only pages' commands render (they name some files of a directory;
//!   another command may render the others beside them);
//! - in a root nobody runs (found by discovery, its inputs unknown), what remains is info,
//!   not a warning: the values file that feeds it may be shared with another tool or App
//!   that reads the rest (tanzu-sync's schema declares the `tap_install` values of the
//!   App next to it);
//! - in a directory a tool writes and manages (`.tanzu-managed/`), it is info: the author
//!   does not edit those files, and their readers are the tool's;
//! - no library hands the declaring library its data values whole
//!   (`library.get("child").with_data_values(data.values)`, or an object whose keys the call
//!   does not write), nor does any committed file no root gives (`discover/handed_values.rs`):
//!   the child's schema declares what the parent passes, whether or not the child reads it;
//! - no command of the repository prints it: `ytt -f lib/ --data-values-inspect` (or
//!   `--data-values-schema-inspect`) shows every value of the library to whoever runs it
//!   (round thirteen's jtigger/ytt-ordering);
//! - no script of the repository reads it with another tool (`yq eval '.a.b' values.yml`,
//!   `discover/tool_reads.rs`): the file is the scripts' configuration too.
//!
//! ```text
//! app/values.yml     #@data/values / workload: demo / registry: r.example.com
//! setup.sh           ytt -f shared -f app/values.yml    # shared/ reads registry
//!                    ytt -f app                         # app/ reads workload
//! ```
//!
//! Neither value is unused. What remains is reported once per declaration (see `merge.rs`).
//!
//! A root one of whose files uses `data` without loading it (`undefined: data`) reads its
//! values through a name the analysis cannot follow: nothing of it is reported unused (the
//! error says what to fix; round nine's pivotaljohn/k8s-ytt-templating-guide).

use std::collections::{HashMap, HashSet};

use crate::analysis::value_reads::{covers, ReadPath};
use crate::files::paths::{is_within, parent};
use crate::lint::discover::Discovery;
use crate::lint::job::usage::Usage;
use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule};

/// A declaration: file, line and column.
type Place = (String, u32, u32);

/// `found` without the `data-value-unused` findings that some reader in sight contradicts.
pub fn settle(
    d: &Discovery,
    jobs: &[Job],
    usage: &[Option<Usage>],
    found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let all: Vec<&Usage> = usage.iter().flatten().collect();
    let mut paths: HashMap<Place, &[String]> = HashMap::new();
    let mut readers: HashMap<&str, Vec<&ReadPath>> = HashMap::new();
    // Reads of a root inferred from the layout: how it combines its files is a guess (it may
    // borrow a values file a command gives with other templates, `discover/folder_values.rs`),
    // so they contradict only a declaration of a root nobody declared either.
    let mut laid_out: HashMap<&str, Vec<&ReadPath>> = HashMap::new();
    let mut neighbours: HashMap<&str, Vec<&ReadPath>> = HashMap::new();
    let layout = |i: usize| {
        jobs.get(i)
            .and_then(|j| j.provenance.as_ref())
            .is_some_and(|p| p.source == crate::report::Source::Layout)
    };
    for (i, u) in usage.iter().enumerate() {
        let Some(u) = u else { continue };
        for (span, path) in &u.unused {
            paths.insert((span.file.clone(), span.line, span.column), path);
        }
        let by = if layout(i) {
            &mut laid_out
        } else {
            &mut readers
        };
        for file in &u.declares {
            by.entry(file).or_default().extend(&u.reads);
        }
        for dir in &u.dirs {
            neighbours.entry(dir).or_default().extend(&u.reads);
        }
    }
    let guessed: HashSet<&str> = jobs
        .iter()
        .filter(|j| j.needs_input)
        .map(|j| j.root.as_str())
        .collect();
    // Roots a page's command renders: it names some files of a directory, and the others
    // beside them (rendered by another command) may read the rest.
    let by_page = |j: &Job| {
        j.provenance
            .as_ref()
            .is_some_and(|p| p.source == crate::report::Source::Document)
    };
    let documented: HashSet<&str> = jobs
        .iter()
        .filter(|j| by_page(j))
        .map(|j| j.root.as_str())
        .filter(|r| !jobs.iter().any(|j| j.root == *r && !by_page(j)))
        .collect();
    // Example files standing in for the user's own copy (`values.yaml.example` for
    // `values.yaml`), which other commands and tools read too.
    let standing_in: Vec<&str> = jobs
        .iter()
        .filter_map(|j| j.provenance.as_ref())
        .flat_map(|p| &p.assumptions)
        .filter_map(crate::report::Assumption::stand_in)
        .collect();
    let stands_in = |file: &str| standing_in.contains(&file);
    // Handed over by a job's files, or by a committed file no root gives (`handed_values`).
    let handed: Vec<&str> = all
        .iter()
        .flat_map(|u| u.handed_over.iter().map(String::as_str))
        .chain(d.handed_over.iter().map(String::as_str))
        .collect();
    let supplements: HashSet<&str> = d
        .libraries
        .iter()
        .filter(|l| l.partial.is_some())
        .map(|l| l.path.as_str())
        .collect();
    // Roots that read `data.values` through a `data` they never load.
    let unloaded: HashSet<String> = found
        .iter()
        .filter(|d| d.message == "undefined: data" || d.message.starts_with("undefined: data ("))
        .filter_map(|d| d.root.clone())
        .collect();
    let unused = |diag: &Diagnostic| -> bool {
        if supplements.contains(diag.root.as_deref().unwrap_or_default()) {
            return false;
        }
        if unloaded.contains(diag.root.as_deref().unwrap_or_default()) {
            return false;
        }
        let Some(span) = &diag.span else {
            return true;
        };
        if handed.iter().any(|h| is_within(&span.file, h)) {
            return false;
        }
        if inspected(&d.inspected, &span.file) {
            return false;
        }
        let Some(path) = paths.get(&(span.file.clone(), span.line, span.column)) else {
            return true;
        };
        let reads = |by: &HashMap<&str, Vec<&ReadPath>>, key: &str| {
            by.get(key)
                .is_some_and(|rs| rs.iter().any(|r| covers(r, path)))
        };
        if crate::lint::discover::tool_reads::covers(&d.tool_reads, &span.file, path) {
            return false;
        }
        let root = diag.root.as_deref().unwrap_or_default();
        let beside = (guessed.contains(root) || documented.contains(root))
            && reads(&neighbours, parent(&span.file));
        let guessed_reader = guessed.contains(root) && reads(&laid_out, &span.file);
        !reads(&readers, &span.file) && !beside && !guessed_reader
    };
    found
        .into_iter()
        .filter(|diag| diag.rule != Rule::DataValueUnused || unused(diag))
        .map(|mut diag| {
            let root = diag.root.as_deref().unwrap_or_default();
            if diag.rule != Rule::DataValueUnused {
                return diag;
            }
            let file = diag.span.as_ref().map(|s| s.file.as_str()).unwrap_or("");
            if let Some(dir) = super::managed::managed_dir(file) {
                diag.severity = crate::report::Severity::Info;
                diag.message.push_str(&format!(
                    " (in {dir}/, which a tool writes and manages: what reads it is the tool's business)"
                ));
            } else if guessed.contains(root) {
                diag.severity = crate::report::Severity::Info;
                diag.message.push_str(
                    " (nothing here says all this root is given: a values file shared with another App or tool may be what sets it)",
                );
            } else if stands_in(file) {
                diag.severity = crate::report::Severity::Info;
                diag.message.push_str(
                    " (the example stands in for the user's own copy, which other commands and tools may read)",
                );
            }
            diag
        })
        .collect()
}

/// Whether a command prints the data values (or their schema) of the library `file` declares
/// them in: `file` is one of its inputs, or in one, outside that input's private libraries.
fn inspected(inputs: &[String], file: &str) -> bool {
    inputs
        .iter()
        .any(|i| is_within(file, i) && !crate::files::paths::between(i, file).contains("_ytt_lib/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::Library;
    use crate::report::Span;

    fn unused(root: &str, file: &str, line: u32) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::DataValueUnused, "x").at(Span::point(file, line, 1));
        d.root = Some(root.to_string());
        d
    }

    fn usage(declares: &[&str], reads: &[&[&str]], unused: &[(&str, u32, &[&str])]) -> Usage {
        let strings = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Usage {
            declares: strings(declares),
            reads: reads
                .iter()
                .map(|r| r.iter().map(|k| Some(k.to_string())).collect())
                .collect(),
            unused: unused
                .iter()
                .map(|(f, l, p)| (Span::point(*f, *l, 1), strings(p)))
                .collect(),
            ..Usage::default()
        }
    }

    #[test]
    fn a_value_another_root_reads_is_not_unused() {
        let found = vec![
            unused("app", "app/values.yml", 3),
            unused("shared", "app/values.yml", 4),
            unused("shared", "app/values.yml", 5),
        ];
        let usage = vec![
            Some(usage(
                &["app/values.yml"],
                &[&["workload"]],
                &[
                    ("app/values.yml", 4, &["registry"]),
                    ("app/values.yml", 5, &["unread"]),
                ],
            )),
            Some(usage(
                &["app/values.yml"],
                &[&["registry"]],
                &[
                    ("app/values.yml", 3, &["workload"]),
                    ("app/values.yml", 5, &["unread"]),
                ],
            )),
            // A root that does not include the file reads nothing of it.
            Some(usage(&["other/values.yml"], &[&["unread"]], &[])),
        ];
        let kept = settle(&Discovery::default(), &[], &usage, found);
        let lines: Vec<u32> = kept.iter().map(|d| d.span.as_ref().unwrap().line).collect();
        assert_eq!(lines, [5]);
    }

    #[test]
    fn a_declaration_in_a_tool_managed_directory_is_info() {
        let file = "clusters/a/tanzu-sync/app/config/.tanzu-managed/schema.yaml";
        let found = vec![
            unused("clusters/a/tanzu-sync/app/config", file, 29),
            unused("app", "app/values.yml", 3),
        ];
        let usage = vec![
            Some(usage(&[file], &[], &[(file, 29, &["secrets"])])),
            Some(usage(
                &["app/values.yml"],
                &[],
                &[("app/values.yml", 3, &["x"])],
            )),
        ];
        let kept = settle(&Discovery::default(), &[], &usage, found);
        let severities: Vec<_> = kept.iter().map(|d| d.severity).collect();
        assert_eq!(
            severities,
            [
                crate::report::Severity::Info,
                Rule::DataValueUnused.default_severity()
            ]
        );
        assert!(kept[0]
            .message
            .contains("in clusters/a/tanzu-sync/app/config/.tanzu-managed/,"));
    }

    #[test]
    fn supplementing_folders_and_libraries_given_values_whole_report_nothing() {
        let found = vec![
            unused("config", "config/schema.yml", 3),
            unused("t/_ytt_lib/child", "t/_ytt_lib/child/schema.yml", 3),
            unused("t/_ytt_lib/other", "t/_ytt_lib/other/schema.yml", 3),
        ];
        let d = Discovery {
            libraries: vec![Library {
                path: "config".into(),
                partial: Some("only supplements".into()),
                ..Library::default()
            }],
            ..Discovery::default()
        };
        let mut parent = usage(&[], &[], &[]);
        parent.handed_over = vec!["t/_ytt_lib/child".into()];
        let kept = settle(&d, &[], &[Some(parent)], found);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].root.as_deref(), Some("t/_ytt_lib/other"));
    }

    #[test]
    fn a_guessed_root_counts_the_readers_beside_its_declaration() {
        let found = vec![
            unused("config", "config/values.yml", 3),
            unused("config", "config/values.yml", 4),
            unused("declared", "declared/values.yml", 3),
        ];
        // Another job (a Package, a command) renders files of config/ without the values file.
        let mut beside = usage(&[], &[&["host"], &["port"]], &[]);
        beside.dirs = vec!["config".into(), "declared".into()];
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let job = |root: &str, needs_input: bool| Job {
            needs_input,
            ..Job::new(&config, root, Ok(Default::default()))
        };
        let paths = |p: &str| vec![p.to_string()];
        let mut own = usage(&[], &[], &[]);
        own.unused = vec![
            (Span::point("config/values.yml", 3, 1), paths("host")),
            (Span::point("config/values.yml", 4, 1), paths("unread")),
            (Span::point("declared/values.yml", 3, 1), paths("port")),
        ];
        let jobs = [
            job("config", true),
            job("declared", false),
            job("other", false),
        ];
        let usage = [Some(own), None, Some(beside)];
        let kept = settle(&Discovery::default(), &jobs, &usage, found);
        let kept: Vec<(&str, u32)> = kept
            .iter()
            .map(|d| (d.root.as_deref().unwrap(), d.span.as_ref().unwrap().line))
            .collect();
        // Only the guessed root's value that nothing beside it reads, and the declared root's.
        assert_eq!(kept, [("config", 4), ("declared", 3)]);
    }

    #[test]
    fn a_root_inferred_from_the_layout_reads_only_for_a_guessed_declaration() {
        // A script gives `helm/values.yml` with templates that read none of `namespace`; the
        // layout root of the folder's other template borrows the file and reads it.
        let found = vec![
            unused("helm/values.yml + helm/config.yml", "helm/values.yml", 3),
            unused("helm", "helm/values.yml", 4),
        ];
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let job = |root: &str, needs_input: bool, source: crate::report::Source| Job {
            needs_input,
            provenance: Some(crate::report::Provenance::of(source, None)),
            ..Job::new(&config, root, Ok(Default::default()))
        };
        let jobs = [
            job(
                "helm/values.yml + helm/config.yml",
                false,
                crate::report::Source::Script,
            ),
            job("helm", true, crate::report::Source::Layout),
        ];
        let usage = [
            Some(usage(
                &["helm/values.yml"],
                &[&["image"]],
                &[("helm/values.yml", 3, &["namespace"])],
            )),
            Some(usage(
                &["helm/values.yml"],
                &[&["namespace"]],
                &[("helm/values.yml", 4, &["image"])],
            )),
        ];
        let kept = settle(&Discovery::default(), &jobs, &usage, found);
        let kept: Vec<(&str, u32)> = kept
            .iter()
            .map(|d| (d.root.as_deref().unwrap(), d.span.as_ref().unwrap().line))
            .collect();
        // The script's unread `namespace` stays; the layout root's `image`, which the script
        // reads, does not.
        assert_eq!(kept, [("helm/values.yml + helm/config.yml", 3)]);
    }
}
