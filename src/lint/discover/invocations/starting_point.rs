//! A values file a page tells its reader to create from one of the repository's examples, in
//! prose: "Create a file called `/tmp/values.yml`. You can use `sample-values.yml` in this
//! directory as a starting point", then `./bin/install.sh /tmp/values.yml`. The command reads
//! the reader's file; the repository holds only its starting point. The page's step is taken
//! as a copy of the example (see [`super::made`]): the command is linted with the example in
//! the file's place, assuming `example-values` (a failure with it is a warning that names the
//! example, never an error).
//!
//! The rule: a line of a page that says to create a YAML file (create, write, make, save) and,
//! on that line or the next, names another YAML file of the repository as where to start
//! ("as a starting point", "start from", "based on", "as a template", "copy of"). The example
//! is found from the page's directory, then from the repository's top.

use super::index::Index;
use super::outputs::Made;
use super::snippet::CALLER;
use super::word::{Word, REPO};
use crate::files::paths;

/// Words that say a file starts from another.
const STARTS_FROM: [&str; 6] = [
    "starting point",
    "start from",
    "based on",
    "as a template",
    "copy of",
    "as a base",
];

/// Verbs that say to create a file.
const CREATE: [&str; 4] = ["create", "write", "make", "save"];

/// The files the page at `page` says to create from an example of the repository.
pub fn made(page: &str, text: &str, index: &Index) -> Vec<Made> {
    let lines: Vec<&str> = text.lines().collect();
    let dir = paths::parent(page);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let lower = line.to_ascii_lowercase();
        if !CREATE.iter().any(|v| lower.contains(v)) {
            continue;
        }
        let Some(created) = yaml_names(line).into_iter().next() else {
            continue;
        };
        let near = [Some(*line), lines.get(i + 1).copied()];
        let example = near.into_iter().flatten().find_map(|l| {
            let lower = l.to_ascii_lowercase();
            if !STARTS_FROM.iter().any(|s| lower.contains(s)) {
                return None;
            }
            yaml_names(l)
                .into_iter()
                .filter(|n| *n != created)
                .find_map(|n| in_repository(n, dir, index))
        });
        let Some(example) = example else {
            continue;
        };
        let path = if created.starts_with('/') {
            Word::lit(created)
        } else {
            Word::lit(format!("{CALLER}/{}", created.trim_start_matches("./")))
        };
        out.push(Made {
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            by: "a step of the page".to_string(),
            path,
            from: Some(Word::lit(format!("{REPO}/{example}"))),
            text: None,
            rendered: None,
            stdout: None,
        });
    }
    out
}

/// The YAML file names a line of prose holds, in order (`/tmp/values.yml`, `values.yaml`).
fn yaml_names(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | ','))
        .map(|w| w.trim_end_matches([':', '.', ';']))
        .filter(|w| (w.ends_with(".yml") || w.ends_with(".yaml")) && !w.contains("://"))
        .filter(|w| !w.contains("..") && !w.contains('$') && !w.starts_with('~'))
        .collect()
}

/// The repository path of a file a page names, from its directory or the top.
fn in_repository(name: &str, dir: &str, index: &Index) -> Option<String> {
    if name.starts_with('/') {
        return None;
    }
    let name = name.trim_start_matches("./");
    [paths::join(dir, name), name.to_string()]
        .into_iter()
        .find(|p| index.is_file(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_to_create_from_an_example_is_a_copy_of_it() {
        let index = Index::new([
            "sample-install-values.yml",
            "docs/install.md",
            "config/a.yml",
        ]);
        let page = "## Values\n\
                    1. Create a file called `/tmp/my-values.yml`. You can use `sample-install-values.yml` as a starting point\n\
                    1. Run `./install.sh /tmp/my-values.yml`\n";
        let m = made("docs/install.md", page, &index);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].path, Word::lit("/tmp/my-values.yml"));
        assert_eq!(
            m[0].from,
            Some(Word::lit(format!("{REPO}/sample-install-values.yml")))
        );
        assert_eq!(m[0].line, 2);
        // On the next line, relative to the reader.
        let page = "Create `values.yml`.\nStart from config/a.yml and change the domain.\n";
        let m = made("docs/install.md", page, &index);
        assert_eq!(m[0].path, Word::lit(format!("{CALLER}/values.yml")));
        assert_eq!(m[0].from, Some(Word::lit(format!("{REPO}/config/a.yml"))));
        // No example of the repository named, or no file to create: nothing.
        assert!(made("README.md", "Create values.yml from scratch.\n", &index).is_empty());
        assert!(made(
            "README.md",
            "Use sample-install-values.yml as a starting point.\n",
            &index
        )
        .is_empty());
        assert!(made("README.md", "Create x.yml based on missing.yml.\n", &index).is_empty());
    }
}
