//! The CustomResourceDefinitions a repository's YAML holds, found in the text the walk reads
//! anyway: each CRD document's group and kind, where it is in its file, and a hash of its
//! text. The Kubernetes schema check of a job reads and parses one of them only when a
//! rendered object needs it, and tells identical copies from different definitions by the
//! hash without parsing.

use serde::{Deserialize, Serialize};

/// One CustomResourceDefinition document of a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CrdDoc {
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// Byte range of the document in its file.
    pub start: usize,
    pub end: usize,
    /// A hash of the document's text (without its `---` line and trailing white space).
    pub hash: u64,
    /// A Crossplane `CompositeResourceDefinition` that gives the kind (as its composite's
    /// `names` or its claim's `claimNames`), not a CustomResourceDefinition: no schema the
    /// linter reads, but another definition of the kind (`crate::lint::job::crd_source`).
    #[serde(default)]
    pub xrd: bool,
}

/// The CRD documents of `text` (a YAML file), in order, then its Crossplane XRDs' kinds.
pub fn find(text: &str) -> Vec<CrdDoc> {
    let mut out = crds(text);
    out.extend(crate::lint::repo::xrds::find(text));
    out
}

/// The CustomResourceDefinition documents of `text`.
fn crds(text: &str) -> Vec<CrdDoc> {
    // Where the word is: a document without it is passed over without another search.
    let words: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), WORD).collect();
    if words.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (start, end) in documents(text) {
        let first = words.partition_point(|&w| w < start);
        if words.get(first).is_none_or(|&w| w + WORD.len() > end) {
            continue;
        }
        let doc = &text[start..end];
        let found = match (indented_value(doc, "group"), names_kind(doc)) {
            (Some(group), Some(kind)) => Some((group.to_string(), kind.to_string())),
            // Flow style (`names: {kind: W}`) or anything else the scan misses: parsed.
            _ => parsed_group_kind(doc),
        };
        let Some((group, kind)) = found else {
            continue;
        };
        out.push(CrdDoc {
            group,
            kind,
            start,
            end,
            hash: hash_of(doc),
            xrd: false,
        });
    }
    out
}

/// The word every CRD document holds.
const WORD: &str = "CustomResourceDefinition";

/// A hash of a document's text, without its `---` line and trailing white space, that tells
/// copies apart within one run (the main process and its workers run the same executable):
/// foldhash with a fixed seed, several times faster than the standard library's SipHash on the
/// megabytes of CRDs a repository may vendor.
pub(super) fn hash_of(doc: &str) -> u64 {
    use std::hash::BuildHasher;
    let body = match doc.strip_prefix("---") {
        Some(rest) => rest.split_once('\n').map_or("", |(_, body)| body),
        None => doc,
    };
    foldhash::fast::FixedState::with_seed(0x5954_544c_494e_5400).hash_one(body.trim_end())
}

/// The CRD documents of the YAML files under `dir` (repository-relative) of the repository at
/// `repo`, by file; files that resolve outside the repository are not read.
pub fn find_under(repo: &std::path::Path, dir: &str) -> Vec<(String, Vec<CrdDoc>)> {
    let policy = crate::files::ReadPolicy::repository(repo);
    let mut out = Vec::new();
    let mut todo = vec![dir.to_string()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(repo.join(&d)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        names.sort();
        for name in names {
            let rel = crate::files::paths::join(&d, &name);
            let abs = repo.join(&rel);
            let Ok(meta) = std::fs::symlink_metadata(&abs) else {
                continue;
            };
            if meta.is_dir() {
                todo.push(rel);
            } else if name.ends_with(".yml") || name.ends_with(".yaml") {
                if let Some(bytes) = crate::files::read_allowed(&abs, &policy) {
                    let found = find(&String::from_utf8_lossy(&bytes));
                    if !found.is_empty() {
                        out.push((rel, found));
                    }
                }
            }
        }
    }
    out
}

/// The byte ranges of the YAML documents of `text`, split at its `---` lines.
pub(super) fn documents(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for at in memchr::memmem::find_iter(text.as_bytes(), "\n---") {
        let end = at + 1;
        let rest = &text[end + 3..];
        if rest.is_empty() || rest.starts_with(['\n', '\r', ' ', '\t']) {
            out.push((start, end));
            start = end;
        }
    }
    out.push((start, text.len()));
    out
}

/// The value of the first indented `key: value` line of `doc` (quotes removed).
fn indented_value<'a>(doc: &'a str, key: &str) -> Option<&'a str> {
    doc.lines().find_map(|line| {
        let t = line.trim_start();
        if line.len() == t.len() {
            return None;
        }
        let v = t.strip_prefix(key)?.strip_prefix(':')?.trim();
        let v = v
            .split(" #")
            .next()
            .unwrap_or(v)
            .trim()
            .trim_matches(['"', '\'']);
        (!v.is_empty()).then_some(v)
    })
}

/// The `kind:` under `names:` (the first indented `kind:` after the `names:` line).
fn names_kind(doc: &str) -> Option<&str> {
    let at = doc.find("names:")?;
    indented_value(&doc[at..], "kind")
}

/// `spec.group` and `spec.names.kind` of a CustomResourceDefinition document, parsed.
fn parsed_group_kind(doc: &str) -> Option<(String, String)> {
    let set = crate::yaml::parse::parse(doc, &"crd".into(), &Default::default()).ok()?;
    let doc = set.items.first()?;
    if doc.value.field("kind")?.as_str() != Some("CustomResourceDefinition") {
        return None;
    }
    let spec = doc.value.field("spec")?;
    let group = spec.field("group")?.as_str()?;
    let kind = spec.field("names")?.field("kind")?.as_str()?;
    Some((group.to_string(), kind.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: \"example.com\"\n  names:\n    kind: Backup\n    listKind: BackupList\n";

    #[test]
    fn crd_documents_are_found_with_their_group_and_kind() {
        let text = format!("a: 1\n---\n{CRD}--- \n{CRD}");
        let found = find(&text);
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].group.as_str(), found[0].kind.as_str()),
            ("example.com", "Backup")
        );
        assert_eq!(found[0].hash, found[1].hash, "the same text");
        assert!(text[found[0].start..found[0].end].contains("kind: Backup"));
        assert!(find("kind: Deployment\n").is_empty());
    }

    #[test]
    fn a_crd_in_flow_style_is_found_too() {
        let text = "kind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\n\
            spec: {group: example.com, names: {kind: Widget, plural: widgets}}\n";
        let found = find(text);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].group.as_str(), found[0].kind.as_str()),
            ("example.com", "Widget")
        );
        assert!(find("kind: CustomResourceDefinition\nspec: {}\n").is_empty());
    }
}
