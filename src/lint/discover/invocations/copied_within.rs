//! Files a command copies to another committed place in the repository, to be rendered there:
//! `cp ./templates/acs.yaml ./clusters/full/config/acs.yaml` in a setup script, where the copy
//! is committed and a command (or the layout) renders it with that folder's values. The
//! source is a template of the copy, not a root of its own: what the layout would render it
//! with (an example values file beside it, made for the script's other templates) was never
//! its input (round twenty-three's R23-1). Its static checks still apply; the committed copy
//! is checked where it lies.
//!
//! Only copies into another directory whose destination the repository holds count: a copy
//! beside its source (`cp values-example.yml values.yml`) makes an input of the same folder,
//! and a copy into a place not committed leaves nothing else to check.

use super::index::Index;
use super::made::MadeAt;
use super::resolve::caller_bases;
use super::snippet::CALLER;
use super::word::Word;
use crate::files::paths::{self, is_within};
use crate::lint::discover::copied::Copied;

/// The commands' copies of repository paths to other committed places of it.
pub fn all(made: &[MadeAt], index: &Index) -> Vec<Copied> {
    let mut out: Vec<Copied> = Vec::new();
    for m in made {
        if !matches!(m.made.by.as_str(), "cp" | "install" | "rsync" | "mv") {
            continue;
        }
        let Some(from) = &m.made.from else {
            continue;
        };
        let (Some(src), Some(to)) = (
            resolve(from, &m.file, index),
            resolve(&m.made.path, &m.file, index),
        ) else {
            continue;
        };
        if src == "." || to == "." || is_within(&to, paths::parent(&src)) || is_within(&src, &to) {
            continue;
        }
        let copy = Copied {
            path: src,
            to,
            origin: m.origin(),
        };
        if !out.contains(&copy) {
            out.push(copy);
        }
    }
    out
}

/// The repository path a word of a command names, when the repository holds it: from the
/// top, or from the script's folder or one above it for a path relative to where it runs.
fn resolve(w: &Word, file: &str, index: &Index) -> Option<String> {
    match w.strip_prefix(CALLER) {
        Some(rest) => caller_bases(paths::parent(file))
            .into_iter()
            .filter_map(|mut base| {
                base.extend(&rest);
                base.repo_path()
            })
            .find(|p| index.exists(p)),
        None => w.repo_path().filter(|p| index.exists(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::outputs::Made;
    use crate::lint::discover::invocations::word::REPO;

    fn made(by: &str, from: &str, to: &str) -> MadeAt {
        MadeAt {
            file: "setup.sh".to_string(),
            made: Made {
                line: 4,
                by: by.to_string(),
                path: Word::lit(format!("{REPO}/{to}")),
                from: Some(Word::lit(format!("{REPO}/{from}"))),
                text: None,
                rendered: None,
                stdout: None,
            },
        }
    }

    #[test]
    fn a_copy_to_another_committed_folder_is_found_and_one_beside_its_source_is_not() {
        let index = Index::new([
            "templates/feature.yml",
            "templates/values-example.yml",
            "templates/values.yml",
            "config/feature.yml",
            "setup.sh",
        ]);
        let all = all(
            &[
                made("cp", "templates/feature.yml", "config/feature.yml"),
                made("cp", "templates/values-example.yml", "templates/values.yml"),
                made("cp", "templates/feature.yml", "gone/feature.yml"),
                made("ln", "templates/feature.yml", "config/feature.yml"),
            ],
            &index,
        );
        let got: Vec<(&str, &str, &str)> = all
            .iter()
            .map(|c| (c.path.as_str(), c.to.as_str(), c.origin.as_str()))
            .collect();
        assert_eq!(
            got,
            [("templates/feature.yml", "config/feature.yml", "setup.sh:4")]
        );
    }
}
