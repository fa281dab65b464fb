//! Names a tool prepends to a template. ytt gives a file no global but what its own text binds
//! and its `load()`s bring, so `undefined: NAME` is normally certain from the text alone: a
//! misspelt name, a missing `load("@ytt:yaml", "yaml")`, an unquoted string. One idiom defeats
//! that: a tool writes `#@ NAME = "…"` lines and the file after them into a new file, and ytt
//! renders that (`{ printf '#@ ns = "%s"\n' "$ns"; cat "$f"; } > "$out/$f"`). The file alone
//! fails; the tool's render does not.
//!
//! The rule: an undefined name in a root whose command is only inferred from the layout (no
//! script, Makefile, CI job, Package or document of the repository runs that directory as it
//! is), where the repository itself writes a definition of that name as text (`#@ NAME =`
//! inside a quoted string, `'#@ ns = "%s"'`, or at the start of a line of a script's
//! here-document), rests on the assumption that the file is rendered alone: the finding says
//! which file writes the name and is a note, as for any input another tool gives
//! ([`crate::report::AssumptionKind::PrependedText`]). Without such text, or where a command
//! of the repository renders the directory as committed, the error stays: nothing gives the
//! name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::lint::job::{Job, JobKind};
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::{Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Rule, Source};

/// Files larger than this are not searched for prepended definitions.
const MAX_BYTES: u64 = 1 << 20;

/// `found` with each undefined name that a prepended definition explains marked as resting on
/// that assumption. `repo` is the repository's directory, `files` what the walk found.
pub fn settle(
    repo: &Path,
    files: &[RepoFile],
    jobs: &[Job],
    mut found: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let inferred = inferred_roots(jobs);
    let wanted: BTreeSet<String> = found
        .iter()
        .filter(|d| candidate_root(d, &inferred).is_some())
        .filter_map(|d| undefined_name(&d.message).map(str::to_string))
        .collect();
    if wanted.is_empty() {
        return found;
    }
    let written = written_definitions(repo, files, &wanted);
    assume_prepended(&mut found, &inferred, |_, name| {
        let place = written.get(name)?;
        Some(format!(
            "the file is rendered alone, as committed; {place} writes `#@ {name} = …` \
             as text, for a tool to put before the files it renders, which defines `{name}`"
        ))
    });
    found
}

/// The provenance of each root whose every scenario's command was inferred from the layout.
fn inferred_roots(jobs: &[Job]) -> BTreeMap<&str, &Provenance> {
    let mut out: BTreeMap<&str, Option<&Provenance>> = BTreeMap::new();
    for j in jobs.iter().filter(|j| j.kind == JobKind::Root) {
        let layout = j.provenance.as_ref().filter(|p| p.source == Source::Layout);
        let e = out.entry(j.root.as_str()).or_insert(layout);
        if layout.is_none() {
            *e = None;
        }
    }
    out.into_iter().filter_map(|(r, p)| Some((r, p?))).collect()
}

/// The files of the findings in `found` that [`candidate_root`] takes: an undefined name in
/// a root inferred from the layout.
pub(super) fn candidate_files(
    found: &[Diagnostic],
    inferred: &BTreeMap<&str, &Provenance>,
) -> BTreeSet<String> {
    found
        .iter()
        .filter(|d| candidate_root(d, inferred).is_some())
        .filter_map(|d| d.span.as_ref().map(|s| s.file.clone()))
        .collect()
}

/// The provenance of the root of `d` when `d` is an undefined name's error in a root whose
/// command is only inferred.
pub(super) fn candidate_root<'a>(
    d: &Diagnostic,
    inferred: &BTreeMap<&str, &'a Provenance>,
) -> Option<&'a Provenance> {
    if d.rule != Rule::TemplateError || undefined_name(&d.message).is_none() {
        return None;
    }
    inferred.get(d.root.as_deref()?).copied()
}

/// Marks each finding of `found` that [`candidate_root`] takes as resting on the file being
/// rendered alone, a [`AssumptionKind::PrependedText`] assumption that `explain` words from
/// the finding and its undefined name; a finding it words nothing for is left as it is.
pub(super) fn assume_prepended(
    found: &mut [Diagnostic],
    inferred: &BTreeMap<&str, &Provenance>,
    mut explain: impl FnMut(&Diagnostic, &str) -> Option<String>,
) {
    for d in found {
        let Some(p) = candidate_root(d, inferred) else {
            continue;
        };
        let Some(text) = undefined_name(&d.message).and_then(|name| explain(d, name)) else {
            continue;
        };
        let mut p = p.clone();
        p.assume(Assumption::new(AssumptionKind::PrependedText, text));
        d.basis = Some(Basis::Command);
        d.certainty = Some(p.certainty(Basis::Command));
    }
}

/// NAME of `undefined: NAME` (with or without ytt's `(did you mean …?)` hint).
pub(super) fn undefined_name(message: &str) -> Option<&str> {
    let first = message.trim_start().lines().next()?.trim();
    let rest = first
        .strip_prefix("- ")
        .unwrap_or(first)
        .strip_prefix("undefined: ")?;
    let name = rest.split(' ').next()?;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    (!name.is_empty() && name.chars().all(ident)).then_some(name)
}

/// For each wanted name that some file writes as text, the first place that does
/// (`file:line`), in walk order.
fn written_definitions(
    repo: &Path,
    files: &[RepoFile],
    wanted: &BTreeSet<String>,
) -> BTreeMap<String, String> {
    let policy = crate::files::ReadPolicy::repository(repo);
    let mut out = BTreeMap::new();
    for f in files {
        if out.len() == wanted.len() {
            break;
        }
        let path = repo.join(&f.path);
        let small = std::fs::symlink_metadata(&path).is_ok_and(|m| m.len() <= MAX_BYTES);
        if !small {
            continue;
        }
        let Some(bytes) = crate::files::read_allowed(&path, &policy) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let heredoc = here_documents_allowed(f);
        for (i, line) in text.lines().enumerate() {
            for name in defined_as_text(line, heredoc) {
                if wanted.contains(name) && !out.contains_key(name) {
                    out.insert(name.to_string(), format!("{}:{}", f.path, i + 1));
                }
            }
        }
    }
    out
}

/// Whether a line of `f` that starts with `#@` may be text a script writes (a here-document):
/// a file that is neither a ytt file, plain YAML, nor a document.
fn here_documents_allowed(f: &RepoFile) -> bool {
    let doc = [".md", ".markdown", ".rst", ".adoc", ".txt", ".html"]
        .iter()
        .any(|e| f.path.to_ascii_lowercase().ends_with(e));
    f.kind == Kind::Other && !doc
}

/// The names a line writes a definition of as text: `'#@ NAME =` or `"#@ NAME =` (a quoted
/// string; also after a `\n` inside it), or, where `heredoc`, `#@ NAME =` at the start of the line.
fn defined_as_text(line: &str, heredoc: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("#@").map(|i| i + from) {
        from = at + 2;
        let before = line[..at].trim_end_matches(' ');
        // In a quoted string: right after its quote, or after a `\n` written in it.
        let quoted = before.ends_with('\'') || before.ends_with('"') || before.ends_with("\\n");
        let starts = line[..at].trim().is_empty();
        if !(quoted || (heredoc && starts)) {
            continue;
        }
        let rest = line[at + 2..].trim_start();
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        let after = after.trim_start();
        let assigns = after.starts_with('=') && !after.starts_with("==");
        let ident = name.chars().next().is_some_and(|c| !c.is_ascii_digit());
        if assigns && ident {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_written_as_text_are_found() {
        assert_eq!(
            defined_as_text(r##"  printf '#@ ns = "%s"\n' "$ns""##, false),
            ["ns"]
        );
        assert_eq!(
            defined_as_text(r##"printf '#@ a = 1\n#@ b = 2\n'"##, false),
            ["a", "b"]
        );
        assert_eq!(
            defined_as_text(r##"echo "#@ cluster=\"$c\"" >> out.yml"##, false),
            ["cluster"]
        );
        assert_eq!(defined_as_text(r##"#@ region = "eu""##, true), ["region"]);
        // A ytt line of a template, a comparison, a key's value: no definition as text.
        assert!(defined_as_text(r##"#@ region = "eu""##, false).is_empty());
        assert!(defined_as_text(r##"echo '#@ if ns == "x":'"##, false).is_empty());
        assert!(defined_as_text(r##"echo '#@ ns == "x"'"##, false).is_empty());
        assert!(defined_as_text("name: #@ cluster", true).is_empty());
    }

    #[test]
    fn the_name_of_an_undefined_message() {
        assert_eq!(undefined_name("undefined: cluster"), Some("cluster"));
        assert_eq!(
            undefined_name("undefined: nmes (did you mean names?)"),
            Some("nmes")
        );
        assert_eq!(undefined_name("struct has no .x field or method"), None);
    }
}
