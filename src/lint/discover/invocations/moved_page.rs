//! A page's command whose inputs moved, and how sure its `input-missing` is.
//!
//! A page's command names its inputs by the paths they had when the page was written. Two
//! moves show that the page is this repository's, not one copied from elsewhere:
//!
//! - the missing path, from where the command runs, is now the page's own folder or a file in
//!   it (`ytt -f ./guides/lib-demo` on `guides/basics/lib-demo/README.md`: the folder moved
//!   one level down, and the page with it; round seventeen's LR17B-1);
//! - the missing file's directory is gone and a file of the same name lies in the directory
//!   above it (`deploy/old-place/roles.yaml` now `deploy/roles.yaml`; round sixteen's
//!   LR16B-1).
//!
//! Such a command is reported at its line, and claims nothing it did not read: the files the
//! hint names are not made inputs of anything (a folder of stale copies beside them stays
//! what it was).
//!
//! A page's own command is its reader's whole procedure, whose earlier steps the linter reads:
//! when its working directory is certain, ytt fails for certain and the finding is an error.
//! The working directory is certain when another input of the command exists from there, when
//! the page is at the top of the repository (its directory and the repository's are the one
//! place its reader stands), or when the missing path exists from no directory of the
//! repository (wherever the reader stands, ytt fails). Otherwise the finding assumes the
//! directory (`working-directory`) and is a warning.

use super::index::Index;
use super::word::Word;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// How many repository paths [`exists_elsewhere`] compares before it answers "maybe" (the
/// directory is then not certain).
pub const MAX_COMPARED: usize = 200_000;

/// The file of the same name in the directory above the missing directory of `path`, when
/// exactly that one directory of it is gone (`deploy/old-place/roles.yaml` for
/// `deploy/roles.yaml`).
pub fn moved_up(path: &str, index: &Index) -> Option<String> {
    let name = path.rsplit('/').next()?;
    if !names_yaml(name) {
        return None;
    }
    let gone = paths::parent(path);
    if gone == "." || index.is_dir(gone) {
        return None;
    }
    let above = paths::parent(gone);
    if above != "." && !index.is_dir(above) {
        return None;
    }
    let up = paths::join(above, name);
    index.is_file(&up).then_some(up)
}

/// Whether `hint`, what a missing path of a page's command now is, is the page's own folder
/// or a file in it (a page below the top only: at the top every path is in its folder).
pub fn into_own_folder(hint: &str, page_dir: &str) -> bool {
    page_dir != "." && (hint == page_dir || paths::is_within(hint, page_dir))
}

/// Whether the path `written` (as the command writes it) may exist from another directory of
/// the repository than the one the command was placed in: it is not a plain relative path
/// (`..`, absolute, unknown parts), or some path of the repository ends with it.
pub fn exists_elsewhere(written: &Word, index: &Index) -> bool {
    let Some(text) = written.normalized().literal() else {
        return true;
    };
    let rel = text.trim_end_matches('/');
    if rel.is_empty()
        || rel == "."
        || rel.starts_with('/')
        || rel.split('/').any(|s| s == ".." || s.is_empty())
    {
        return true;
    }
    let tail = format!("/{rel}");
    let mut compared = 0usize;
    index.exists(rel)
        || index.entries_under(".").any(|p| {
            compared += 1;
            compared > MAX_COMPARED || p.ends_with(&tail)
        })
}

/// What reporting a page's missing input from `cwd` assumes: nothing when the directory is
/// certain (see the module's documentation), else the directory.
pub fn directory_assumed(
    page_dir: &str,
    cwd: &Word,
    found: usize,
    elsewhere: bool,
) -> Option<Assumption> {
    if found > 0 || page_dir == "." || !elsewhere {
        return None;
    }
    let from = cwd.repo_path().unwrap_or_else(|| cwd.to_string());
    Some(Assumption::new(
        AssumptionKind::WorkingDirectory,
        format!(
            "the reader runs the page's command from {}: the page does not say where, and \
             another directory of the repository may hold the path",
            if from == "." {
                "the top of the repository".to_string()
            } else {
                from
            }
        ),
    ))
}

/// Whether a file name is a YAML or Starlark file's.
fn names_yaml(name: &str) -> bool {
    [".yml", ".yaml", ".star"]
        .iter()
        .any(|ext| name.len() > ext.len() && name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_whose_directory_is_gone_is_found_one_level_up() {
        let i = Index::new(["deploy/roles.yaml", "deploy/tmp/pipeline.yaml", "a/b/c.yml"]);
        assert_eq!(
            moved_up("deploy/old-place/roles.yaml", &i).as_deref(),
            Some("deploy/roles.yaml")
        );
        // Only the file of the same name one level up, not a copy further down.
        assert_eq!(moved_up("deploy/old-place/pipeline.yaml", &i), None);
        // The directory exists: not a move.
        assert_eq!(moved_up("deploy/tmp/roles.yaml", &i), None);
        // Two directories gone: not this move.
        assert_eq!(moved_up("deploy/x/y/roles.yaml", &i), None);
        assert_eq!(moved_up("deploy/old-place/README.md", &i), None);
    }

    #[test]
    fn the_page_s_own_folder_named_by_an_old_path() {
        assert!(into_own_folder("guides/basics/demo", "guides/basics/demo"));
        assert!(into_own_folder(
            "guides/basics/demo/a.yml",
            "guides/basics/demo"
        ));
        assert!(!into_own_folder("guides/other", "guides/basics/demo"));
        assert!(!into_own_folder("config", "."));
    }

    #[test]
    fn a_path_from_no_directory_of_the_repository_fails_wherever_the_reader_stands() {
        let i = Index::new(["guides/basics/lib-demo/config.yml", "x/demo/config.yml"]);
        assert!(!exists_elsewhere(&Word::lit("./guides/lib-demo"), &i));
        assert!(exists_elsewhere(&Word::lit("demo/config.yml"), &i));
        assert!(exists_elsewhere(&Word::lit("../guides/lib-demo"), &i));
        assert!(exists_elsewhere(&Word::unknown("$1"), &i));
        let cwd = Word::lit(format!("{}/docs", super::super::word::REPO));
        assert!(directory_assumed("docs", &cwd, 0, true).is_some());
        assert!(directory_assumed("docs", &cwd, 1, true).is_none());
        assert!(directory_assumed(".", &cwd, 0, true).is_none());
        assert!(directory_assumed("docs", &cwd, 0, false).is_none());
    }
}
