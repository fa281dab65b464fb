//! Fragments a script appends to another file. `cat iaas-overlay.yaml >> provider-overlay.yaml`
//! puts the text of the file it appends to before the fragment's, and ytt renders the two as
//! one file: the fragment may use what that text binds (`overlay`, from its
//! `load("@ytt:overlay", "overlay")`) without a `load()` of its own. The fragment alone fails;
//! the render the script prepares does not.
//!
//! The rule: an undefined name in a root whose command is only inferred from the layout (see
//! [`super::preamble`]), in a file that a script of the repository appends to another file
//! (`cat FILE >> TARGET`, `cat FILE | tee -a TARGET`), rests on the assumption that the file
//! is rendered alone: the finding names the script's line and the file appended to, and is a
//! note, as for any text another step puts before the file
//! ([`crate::report::AssumptionKind::PrependedText`]). Where nothing appends the file, or a
//! command of the repository renders its directory as committed, the error stays.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::files::paths::{join, parent};
use crate::lint::job::{Job, JobKind};
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::{Diagnostic, Provenance, Source};

use super::preamble::{assume_prepended, candidate_files};

/// Files larger than this are not searched for appending commands.
const MAX_BYTES: u64 = 1 << 20;

/// Where a file is appended to another: the script's `file:line` and the target as written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Appended {
    at: String,
    target: String,
}

/// `found` with each undefined name in a fragment a script appends to another file marked as
/// resting on that assumption. `repo` is the repository's directory, `files` what the walk
/// found.
pub fn settle(
    repo: &Path,
    files: &[RepoFile],
    jobs: &[Job],
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let inferred = inferred_roots(jobs);
    let wanted = candidate_files(&found, &inferred);
    if wanted.is_empty() {
        return found;
    }
    let appended = appended_files(repo, files, &wanted);
    assume_prepended(&mut found, &inferred, |d, name| {
        let a = appended.get(&d.span.as_ref()?.file)?;
        Some(format!(
            "the file is rendered alone, as committed; {} appends it to {} \
             (`cat … >>`), whose text comes before it and may define `{name}`",
            a.at, a.target
        ))
    });
    found
}

/// The provenance of each root, or directory checked on its own (its files only supplement
/// others), whose every job's command was inferred from the layout.
pub(super) fn inferred_roots(jobs: &[Job]) -> BTreeMap<&str, &Provenance> {
    let mut out: BTreeMap<&str, Option<&Provenance>> = BTreeMap::new();
    for j in jobs
        .iter()
        .filter(|j| matches!(j.kind, JobKind::Root | JobKind::Library))
    {
        let layout = j.provenance.as_ref().filter(|p| p.source == Source::Layout);
        let e = out.entry(j.root.as_str()).or_insert(layout);
        if layout.is_none() {
            *e = None;
        }
    }
    out.into_iter().filter_map(|(r, p)| Some((r, p?))).collect()
}

/// For each wanted file that a script appends to another, the first place that does, in walk
/// order.
fn appended_files(
    repo: &Path,
    files: &[RepoFile],
    wanted: &BTreeSet<String>,
) -> BTreeMap<String, Appended> {
    let mut out = BTreeMap::new();
    for f in files.iter().filter(|f| scripted(f)) {
        if out.len() == wanted.len() {
            break;
        }
        let Some(text) = read_small(repo, &f.path) else {
            continue;
        };
        let dir = parent(&f.path);
        for (i, line) in text.lines().enumerate() {
            let Some((sources, target)) = appends(line) else {
                continue;
            };
            for s in sources {
                for w in wanted.iter().filter(|w| names(s, dir, w)) {
                    out.entry(w.clone()).or_insert_with(|| Appended {
                        at: format!("{}:{}", f.path, i + 1),
                        target: target.trim_matches(['"', '\'']).to_string(),
                    });
                }
            }
        }
    }
    out
}

/// The text of the repository file `path` under the read policy, when it is UTF-8 and at most
/// [`MAX_BYTES`] long.
pub(super) fn read_small(repo: &Path, path: &str) -> Option<String> {
    let policy = crate::files::ReadPolicy::repository(repo);
    let full = repo.join(path);
    let small = std::fs::symlink_metadata(&full).is_ok_and(|m| m.len() <= MAX_BYTES);
    if !small {
        return None;
    }
    let bytes = crate::files::read_allowed(&full, &policy)?;
    String::from_utf8(bytes).ok()
}

/// Whether a file may hold shell that appends: a script, a Makefile, a CI or Ansible YAML file
/// (not a ytt file, not a document).
pub(super) fn scripted(f: &RepoFile) -> bool {
    let lower = f.path.to_ascii_lowercase();
    let doc = [".md", ".markdown", ".rst", ".adoc", ".txt", ".html"]
        .iter()
        .any(|e| lower.ends_with(e));
    matches!(f.kind, Kind::Other | Kind::PlainYaml) && !doc
}

/// The files a line's `cat` appends and what it appends them to: `cat A B >> T`,
/// `cat A | tee -a T`.
fn appends(line: &str) -> Option<(Vec<&str>, &str)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let cat = words.iter().position(|w| *w == "cat")?;
    let rest = &words[cat + 1..];
    let (sources, target) = if let Some(at) = rest.iter().position(|w| w.starts_with(">>")) {
        let target = match rest[at].strip_prefix(">>").filter(|t| !t.is_empty()) {
            Some(t) => t,
            None => rest.get(at + 1)?,
        };
        (&rest[..at], target)
    } else {
        let pipe = rest.iter().position(|w| *w == "|")?;
        let tee = &rest[pipe + 1..];
        let appending =
            tee.first() == Some(&"tee") && tee.iter().any(|w| matches!(*w, "-a" | "--append"));
        if !appending {
            return None;
        }
        let target = tee.iter().skip(1).find(|w| !w.starts_with('-'))?;
        (&rest[..pipe], *target)
    };
    let sources: Vec<&str> = sources
        .iter()
        .map(|s| s.trim_matches(['"', '\'']))
        .filter(|s| !s.starts_with('-') && !s.is_empty())
        .collect();
    (!sources.is_empty()).then_some((sources, target))
}

/// Whether `source`, written in a script of directory `dir`, names the repository file
/// `file`: from the script's directory or the repository's top, or, when a variable leads it
/// (`$DIR/x.yaml`), by its name in the script's directory tree.
fn names(source: &str, dir: &str, file: &str) -> bool {
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    if base(source) != base(file) {
        return false;
    }
    if source.contains('$') {
        return crate::files::paths::is_within(file, dir);
    }
    let clean = |p: &str| {
        let mut segs: Vec<&str> = Vec::new();
        for s in p.split('/') {
            match s {
                "" | "." => {}
                ".." => {
                    segs.pop()?;
                }
                s => segs.push(s),
            }
        }
        Some(segs.join("/"))
    };
    let from_dir = clean(&join(dir, source));
    let from_top = clean(source);
    from_dir.as_deref() == Some(file) || from_top.as_deref() == Some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cat_appending_a_file_is_found() {
        assert_eq!(
            appends("cat iaas-overlay.yaml >>  ~/.config/p/ytt/p-overlay.yaml"),
            Some((vec!["iaas-overlay.yaml"], "~/.config/p/ytt/p-overlay.yaml"))
        );
        assert_eq!(
            appends("  cat \"$D/a.yml\" b.yml >>out.yml"),
            Some((vec!["$D/a.yml", "b.yml"], "out.yml"))
        );
        assert_eq!(
            appends("cat frag.yml | tee -a out/p.yml > /dev/null"),
            Some((vec!["frag.yml"], "out/p.yml"))
        );
        // Writing (not appending), or no `cat`: nothing appended.
        assert_eq!(appends("cat frag.yml > out.yml"), None);
        assert_eq!(appends("cat frag.yml | tee out.yml"), None);
        assert_eq!(appends("echo x >> out.yml"), None);
    }

    #[test]
    fn a_source_names_a_file_from_the_script_s_place() {
        assert!(names("iaas-overlay.yaml", "air", "air/iaas-overlay.yaml"));
        assert!(names(
            "./air/iaas-overlay.yaml",
            ".",
            "air/iaas-overlay.yaml"
        ));
        assert!(names("../air/f.yml", "bin", "air/f.yml"));
        assert!(names("$DIR/f.yml", "air", "air/sub/f.yml"));
        assert!(!names("$DIR/f.yml", "other", "air/f.yml"));
        assert!(!names("f.yml", "other", "air/f.yml"));
        assert!(!names("g.yml", "air", "air/f.yml"));
    }
}
