//! The directory tree of a run's files, seen as ytt sees it: every directory is a library,
//! `_ytt_lib` directories hold private libraries reached only through `load("@name:...")` or
//! `library.get("name")`. Directories are written without a trailing slash; `""` is the root.

use crate::files::InputFile;

/// Name of the directory that holds private libraries.
pub const PRIVATE_DIR: &str = "_ytt_lib";

/// `dir/name`, or `name` at the root.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else if name.is_empty() {
        dir.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The directory part of a path (`""` for a top-level file).
pub fn dir_of(path: &str) -> &str {
    path.rfind('/').map(|i| &path[..i]).unwrap_or("")
}

/// The file name of a path.
pub fn base_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `path` relative to `dir`, if it lies inside.
pub fn strip_dir<'p>(dir: &str, path: &'p str) -> Option<&'p str> {
    if dir.is_empty() {
        return Some(path);
    }
    path.strip_prefix(dir)?.strip_prefix('/')
}

/// The files of a run, addressed by directory.
pub struct Tree<'a> {
    pub files: &'a [InputFile],
}

impl<'a> Tree<'a> {
    /// Whether some file lives in `dir` or below it.
    pub fn dir_exists(&self, dir: &str) -> bool {
        dir.is_empty()
            || self
                .files
                .iter()
                .any(|f| strip_dir(dir, &f.rel_path).is_some())
    }

    /// Sub-directories of `dir`, in the order their first file appears.
    fn children(&self, dir: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in self.files {
            if let Some(rest) = strip_dir(dir, &f.rel_path) {
                if let Some(i) = rest.find('/') {
                    let child = join(dir, &rest[..i]);
                    if !out.contains(&child) {
                        out.push(child);
                    }
                }
            }
        }
        out
    }

    /// Files directly in `dir`, in run order.
    fn own_files(&self, dir: &str) -> impl Iterator<Item = &'a InputFile> + '_ {
        let dir = dir.to_string();
        self.files
            .iter()
            .filter(move |f| dir_of(&f.rel_path) == dir)
    }

    /// The files a library rooted at `dir` can see (ytt's `ListAccessibleFiles`): its own files,
    /// then those of each non-private sub-directory, depth first.
    pub fn accessible(&self, dir: &str) -> Vec<&'a InputFile> {
        let files = self.files;
        self.accessible_indices(dir)
            .into_iter()
            .filter_map(|i| files.get(i))
            .collect()
    }

    /// [`Tree::accessible`] as indices into the run's files.
    pub fn accessible_indices(&self, dir: &str) -> Vec<usize> {
        let mut out = Vec::new();
        self.collect_accessible(dir, &mut out);
        out
    }

    fn collect_accessible(&self, dir: &str, out: &mut Vec<usize>) {
        // The files directly in `dir`, in run order.
        out.extend(
            self.files
                .iter()
                .enumerate()
                .filter(|(_, f)| dir_of(&f.rel_path) == dir)
                .map(|(i, _)| i),
        );
        for child in self.children(dir) {
            if base_of(&child) != PRIVATE_DIR {
                self.collect_accessible(&child, out);
            }
        }
    }

    /// The private library `path` (e.g. `github.com/org/lib`) as seen from `current`.
    pub fn find_private(&self, current: &str, path: &str) -> Result<String, String> {
        let private = join(current, PRIVATE_DIR);
        if !self.dir_exists(&private) {
            return Err(format!(
                "Could not find private library (directory '{PRIVATE_DIR}' missing?)"
            ));
        }
        let pieces: Vec<&str> = path.split('/').collect();
        let mut dir = private;
        for (i, piece) in pieces.iter().enumerate() {
            let next = join(&dir, piece);
            if piece.is_empty() || !self.dir_exists(&next) {
                return Err(format!(
                    "Expected to find library '{path}', but did not find '{}'",
                    pieces[..i].join("/")
                ));
            }
            if *piece == PRIVATE_DIR {
                return Err(format!(
                    "Could not load private library '{}'",
                    pieces[..i].join("/")
                ));
            }
            dir = next;
        }
        Ok(dir)
    }

    /// The non-private sub-library `path` of `dir`.
    pub fn find_library(&self, dir: &str, path: &str) -> Result<String, String> {
        let pieces: Vec<&str> = path.split('/').collect();
        let mut cur = dir.to_string();
        for (i, piece) in pieces.iter().enumerate() {
            let next = join(&cur, piece);
            if piece.is_empty() || !self.dir_exists(&next) || *piece == "." || *piece == ".." {
                return Err(format!("Did not find '{}'", pieces[..i].join("/")));
            }
            if *piece == PRIVATE_DIR {
                return Err(format!("Encountered private library '{PRIVATE_DIR}'"));
            }
            cur = next;
        }
        Ok(cur)
    }

    /// The file `path` of the library at `dir` (sub-directories allowed, private ones not).
    pub fn find_file(&self, dir: &str, path: &str) -> Result<&'a InputFile, String> {
        let (sub, name) = match path.rfind('/') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path),
        };
        let lib = if sub.is_empty() {
            dir.to_string()
        } else {
            self.find_library(dir, sub)
                .map_err(|e| format!("Expected to find file '{path}', but did not: {e}"))?
        };
        self.own_files(&lib)
            .find(|f| base_of(&f.rel_path) == name)
            .ok_or_else(|| {
                format!(
                    "Expected to find file '{path}' (hint: only files included via -f flag are available)"
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[&str]) -> Vec<InputFile> {
        paths.iter().map(|p| InputFile::new(p, "")).collect()
    }

    #[test]
    fn accessible_lists_own_files_first_and_skips_private_dirs() {
        let fs = files(&[
            "a.yml",
            "dir/b.yml",
            "_ytt_lib/lib/c.yml",
            "z.yml",
            "dir/sub/d.yml",
        ]);
        let tree = Tree { files: &fs };
        let names: Vec<&str> = tree
            .accessible("")
            .iter()
            .map(|f| f.rel_path.as_str())
            .collect();
        assert_eq!(names, ["a.yml", "z.yml", "dir/b.yml", "dir/sub/d.yml"]);
        let lib: Vec<&str> = tree
            .accessible("_ytt_lib/lib")
            .iter()
            .map(|f| f.rel_path.as_str())
            .collect();
        assert_eq!(lib, ["_ytt_lib/lib/c.yml"]);
    }

    #[test]
    fn the_workspace_answers_each_directory_as_the_tree_does_and_again_the_same() {
        let ws = crate::library::Workspace::new(
            files(&[
                "a.yml",
                "dir/b.yml",
                "_ytt_lib/lib/c.yml",
                "z.yml",
                "dir/sub/d.yml",
                "_ytt_lib/lib/sub/e.yml",
            ]),
            crate::library::EvalOpts::default(),
        );
        let names = |fs: Vec<&InputFile>| -> Vec<String> {
            fs.iter().map(|f| f.rel_path.clone()).collect()
        };
        let tree = Tree { files: &ws.files };
        for dir in [
            "",
            "dir",
            "_ytt_lib/lib",
            "dir/sub",
            "none",
            "",
            "_ytt_lib/lib",
        ] {
            assert_eq!(
                names(ws.accessible(dir)),
                names(tree.accessible(dir)),
                "{dir}"
            );
        }
        assert_eq!(
            names(ws.accessible("_ytt_lib/lib")),
            ["_ytt_lib/lib/c.yml", "_ytt_lib/lib/sub/e.yml"]
        );
        assert_eq!(names(ws.accessible("dir")), ["dir/b.yml", "dir/sub/d.yml"]);
    }

    #[test]
    fn finds_private_libraries_from_the_current_directory() {
        let fs = files(&["x.yml", "_ytt_lib/github.com/org/lib/c.yml"]);
        let tree = Tree { files: &fs };
        assert_eq!(
            tree.find_private("", "github.com/org/lib").as_deref(),
            Ok("_ytt_lib/github.com/org/lib")
        );
        assert_eq!(
            tree.find_private("", "github.com/other"),
            Err(
                "Expected to find library 'github.com/other', but did not find 'github.com'".into()
            )
        );
        assert!(tree.find_private("sub", "lib").is_err());
    }

    #[test]
    fn file_lookup_refuses_private_directories() {
        let fs = files(&["_ytt_lib/data.lib.star", "d/f.star"]);
        let tree = Tree { files: &fs };
        assert!(tree.find_file("", "d/f.star").is_ok());
        assert_eq!(
            tree.find_file("", "_ytt_lib/data.lib.star").err().as_deref(),
            Some("Expected to find file '_ytt_lib/data.lib.star', but did not: Encountered private library '_ytt_lib'")
        );
    }
}
