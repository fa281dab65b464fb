//! Data values that the repository's scripts read with `grep`: `URL=$(grep harbor_url
//! values.yaml | awk '{print $2}')`, `cat values.yaml | grep '^harbor_url:'`. The script reads
//! the key's line out of the values file it also gives ytt; the schema must keep declaring the
//! key, or the user's values file would no longer validate. So the key is read (by the
//! script), in the file grepped and in every file the script's own ytt commands give together
//! with it (the schema that declares it: `ytt -f t.yaml -f values.yaml -f values-schema.yaml`).
//!
//! Only a pattern that is one plain key name (`harbor_url`, `'^harbor_url:'`) counts, as a
//! key at the top of the file: a regular expression says nothing of a key path.

use crate::files::paths;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::tool_reads::ToolRead;

/// The reads of `grep KEY FILE` (or `cat FILE | grep KEY`) in the text of the script at
/// `file`, whose files exist in `index`, with the files its ytt commands give beside them.
pub fn in_text(file: &str, text: &str, index: &Index) -> Vec<ToolRead> {
    let dir = paths::parent(file);
    let mut out: Vec<ToolRead> = Vec::new();
    for line in text.lines().filter(|l| l.contains("grep")) {
        for (key, grepped) in greps(line) {
            let Some(f) = located(grepped, dir, index) else {
                continue;
            };
            out.push((f.clone(), vec![key.to_string()]));
            for beside in given_with(text, &f, dir, index) {
                out.push((beside, vec![key.to_string()]));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The (key, file) pairs of a line's `grep KEY FILE` and `cat FILE | grep KEY`.
fn greps(line: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut piped: Option<&str> = None;
    for command in line.split(['|', ';', '&', '`', '(', ')']) {
        let words: Vec<&str> = command.split_whitespace().collect();
        let name = words.first().map(|w| w.rsplit('/').next().unwrap_or(w));
        match name {
            Some("cat") if words.len() == 2 => piped = Some(words[1]),
            Some("grep") => {
                let args: Vec<&str> = words[1..]
                    .iter()
                    .copied()
                    .filter(|w| !w.starts_with('-'))
                    .collect();
                let key = args.first().and_then(|p| key_of(p));
                let file = args.get(1).copied().or(piped);
                if let (Some(k), Some(f)) = (key, file) {
                    out.push((k, f));
                }
                piped = None;
            }
            _ => piped = None,
        }
    }
    out
}

/// The key a grep pattern names: `harbor_url`, `'^harbor_url:'`, `"harbor_url"`.
fn key_of(pattern: &str) -> Option<&str> {
    let p = pattern.trim_matches(['\'', '"']);
    let p = p.strip_prefix('^').unwrap_or(p);
    let p = p.strip_suffix(':').unwrap_or(p);
    let plain = p.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    plain.then_some(p)
}

/// The repository path a file argument names, from the script's directory (or, failing
/// that, the repository's top).
fn located(word: &str, dir: &str, index: &Index) -> Option<String> {
    let w = word.trim_matches(['\'', '"']);
    if w.is_empty() || w.contains('$') || w.starts_with('/') {
        return None;
    }
    let w = w.strip_prefix("./").unwrap_or(w);
    [paths::join(dir, w), w.to_string()]
        .into_iter()
        .find(|p| index.is_file(p))
}

/// The other files of the script's ytt commands that give `values` (from the script's
/// directory or the top), each line read alone.
fn given_with(text: &str, values: &str, dir: &str, index: &Index) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !words.iter().any(|w| w.rsplit('/').next() == Some("ytt")) {
            continue;
        }
        let given: Vec<String> = words
            .windows(2)
            .filter(|w| matches!(w[0], "-f" | "--file" | "--data-values-file"))
            .filter_map(|w| located(w[1], dir, index))
            .collect();
        if given.iter().any(|g| g == values) {
            out.extend(given.into_iter().filter(|g| g != values));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_grepped_from_the_values_file_is_read_beside_its_schema() {
        let index = Index::new([
            "tekton/values.yaml",
            "tekton/values-schema.yaml",
            "tekton/t.yaml",
            "tekton/prepare.sh",
        ]);
        let script = "URL=$(cat values.yaml | grep harbor_url | awk '{print $2}')\n\
                      H=$(grep '^host:' ./values.yaml)\n\
                      X=$(grep -E 'a|b' values.yaml)\n\
                      ytt -f t.yaml -f values.yaml -f values-schema.yaml\n";
        let reads = in_text("tekton/prepare.sh", script, &index);
        let has = |f: &str, k: &str| reads.iter().any(|(rf, rk)| rf == f && rk == &[k]);
        assert!(has("tekton/values.yaml", "harbor_url"), "{reads:?}");
        assert!(has("tekton/values-schema.yaml", "harbor_url"), "{reads:?}");
        assert!(has("tekton/values-schema.yaml", "host"), "{reads:?}");
        assert!(!reads.iter().any(|(_, k)| k[0] == "a" || k[0] == "b"));
        // A file the script does not grep: nothing read.
        assert!(in_text("tekton/prepare.sh", "grep x other.yaml\n", &index).is_empty());
    }
}
