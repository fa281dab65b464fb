//! The files of the policy directories: which `.star` files are policies (those directly in
//! a directory listed under `policies:`; the ones in its subdirectories are only for
//! `load()`), and their text, read once per run under the repository's read policy (a file a
//! symlink leads outside the repository is not read). Policies come with the repository, so
//! they are untrusted input: at most [`MAX_FILES`] files of at most [`MAX_BYTES`] each, at
//! most [`MAX_DEPTH`] directories deep.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::files::paths;
use crate::files::ReadPolicy;

/// The most `.star` files the policy directories may hold together.
pub const MAX_FILES: usize = 1000;
/// The largest policy file read.
pub const MAX_BYTES: u64 = 1 << 20;
/// How deep under a policy directory `.star` files are looked for.
pub const MAX_DEPTH: usize = 8;

/// One `.star` file under a policy directory.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Source {
    /// Repository-relative, with `/`.
    pub path: String,
    /// The text, or why it was not read.
    pub text: Result<String, String>,
}

/// A policy: a `.star` file directly in a policy directory, named after the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Listed {
    /// The file name without `.star`: the rule is `policy/NAME`.
    pub name: String,
    pub path: String,
}

/// The policies of the directories `dirs` (repository-relative) of the repository `repo`,
/// sorted by name; an error names a file that cannot name a policy or two of one name.
pub fn policies(repo: &Path, dirs: &[String]) -> Result<Vec<Listed>, String> {
    let mut out: Vec<Listed> = Vec::new();
    for dir in dirs {
        for path in star_files(repo, dir, 0) {
            let file = path.rsplit('/').next().unwrap_or(&path);
            let Some(name) = file.strip_suffix(".star") else {
                continue;
            };
            crate::report::policy_name::check_name(name).map_err(|e| format!("{path}: {e}"))?;
            if let Some(other) = out.iter().find(|l| l.name == name) {
                return Err(format!(
                    "{path} and {} are both policy/{name}: rename one of them",
                    other.path
                ));
            }
            out.push(Listed {
                name: name.to_string(),
                path,
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Every `.star` file under the directories `dirs`, with its text, in path order (at most
/// [`MAX_FILES`]; the rest are left out, with a note in the first left out's place).
pub fn read(repo: &Path, dirs: &[String]) -> Vec<Source> {
    let policy = ReadPolicy::repository(repo);
    let mut paths: Vec<String> = dirs
        .iter()
        .flat_map(|d| star_files(repo, d, MAX_DEPTH))
        .collect();
    paths.sort();
    paths.dedup();
    let over = paths.len() > MAX_FILES;
    paths.truncate(MAX_FILES);
    let mut out: Vec<Source> = paths
        .into_iter()
        .map(|path| {
            let text = read_one(repo, &path, &policy);
            Source { path, text }
        })
        .collect();
    if over {
        if let Some(last) = out.last_mut() {
            last.text = Err(format!(
                "the policy directories hold more than {MAX_FILES} .star files: the rest are not read"
            ));
        }
    }
    out
}

fn read_one(repo: &Path, path: &str, policy: &ReadPolicy) -> Result<String, String> {
    let abs = repo.join(path);
    let meta = std::fs::metadata(&abs).map_err(|e| format!("cannot read {path}: {e}"))?;
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{path} is larger than {} KiB: it is not read",
            MAX_BYTES >> 10
        ));
    }
    let bytes = crate::files::read_allowed(&abs, policy).ok_or_else(|| {
        format!("{path} is not a regular file inside the repository (a symlink to elsewhere?): it is not read")
    })?;
    String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text"))
}

/// The `.star` files under `dir`, `depth` directories deep at most (0: the directory's own),
/// sorted; symlinked directories are not followed.
fn star_files(repo: &Path, dir: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(repo.join(dir)) else {
        return out;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let rel = paths::join(dir, &name);
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() && depth > 0 {
            out.extend(star_files(repo, &rel, depth - 1));
        } else if !kind.is_dir() && name.ends_with(".star") {
            out.push(rel);
        }
        if out.len() > MAX_FILES {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_are_the_files_directly_in_a_directory() {
        let dir = std::env::temp_dir().join(format!("yttlint-policies-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("p/lib")).unwrap();
        std::fs::write(
            dir.join("p/team.star"),
            "def check(obj):\n  return []\nend\n",
        )
        .unwrap();
        std::fs::write(dir.join("p/lib/helpers.star"), "x = 1\n").unwrap();
        std::fs::write(dir.join("p/README.md"), "policies\n").unwrap();
        let listed = policies(&dir, &["p".to_string()]).unwrap();
        assert_eq!(
            listed,
            vec![Listed {
                name: "team".into(),
                path: "p/team.star".into()
            }]
        );
        let read = read(&dir, &["p".to_string()]);
        let paths: Vec<&str> = read.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(paths, vec!["p/lib/helpers.star", "p/team.star"]);
        assert!(read.iter().all(|s| s.text.is_ok()));
        std::fs::write(dir.join("p/bad name.star"), "").unwrap();
        assert!(policies(&dir, &["p".to_string()])
            .unwrap_err()
            .contains("bad name"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
