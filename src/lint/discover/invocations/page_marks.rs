//! A page's command whose `--file-mark` matches no file from the directory the linter placed
//! it in: ytt stops there (`Expected file mark '…' to match at least one file by path`), but a
//! page does not say where its reader is, and a mark that matches nothing says the reader
//! runs the command elsewhere (the docs' `ytt -f . --file-mark 'example**/*:type=data'`,
//! written for the site's own folder). The command is not placed there, as an input missing
//! from there would not place it; from no directory at all, it is skipped with the reason,
//! claiming nothing. A script's or a CI job's command runs where its file says: a mark that
//! matches nothing stays ytt's error.

use super::index::Index;
use super::resolve::Invocation;
use crate::files::paths;
use crate::ytt_flags::file_marks;

/// The first file mark of `inv` that matches no file of its inputs, or `None` (also when the
/// inputs are not all known repository paths, or a mark renames files).
pub fn unmatched(inv: &Invocation, index: &Index) -> Option<String> {
    if inv.file_marks.is_empty()
        || inv.inputs.is_empty()
        || !inv.unknown.is_empty()
        || inv.file_marks.iter().any(|m| m.contains(":path="))
    {
        return None;
    }
    let mut rel: Vec<String> = Vec::new();
    for input in &inv.inputs {
        if input.contains('=') {
            return None;
        }
        if index.is_dir(input) {
            rel.extend(index.files_under(input).map(|f| paths::between(input, f)));
        } else if index.is_file(input) {
            rel.push(input.rsplit('/').next().unwrap_or(input).to_string());
        } else {
            return None;
        }
    }
    inv.file_marks
        .iter()
        .find(|m| {
            let pattern = m.split_once(':').map_or(m.as_str(), |(p, _)| p);
            !rel.iter().any(|r| file_marks::matches(pattern, r))
        })
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::super::resolve::Origin;
    use super::*;

    fn invocation(inputs: &[&str], marks: &[&str]) -> Invocation {
        Invocation {
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            file_marks: marks.iter().map(|s| s.to_string()).collect(),
            ..Invocation::new(Origin {
                file: "docs/marks.md".into(),
                line: 3,
            })
        }
    }

    #[test]
    fn a_mark_that_matches_no_file_of_the_inputs_is_named() {
        let index = Index::new(["docs/marks.md", "site/index.yml", "site/example-a/c.yml"]);
        let docs = invocation(&["docs"], &["example**/*:type=data"]);
        assert_eq!(
            unmatched(&docs, &index).as_deref(),
            Some("example**/*:type=data")
        );
        let site = invocation(&["site"], &["example**/*:type=data", "index.yml:type=data"]);
        assert_eq!(unmatched(&site, &index), None);
        let file = invocation(&["site/index.yml"], &["index.yml:type=data"]);
        assert_eq!(unmatched(&file, &index), None);
    }
}
