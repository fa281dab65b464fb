//! A cheap fingerprint of everything a run can read: one walk of the repository that records,
//! for every entry, its path, type, size, inode, modification and change times (to the
//! nanosecond) and, for a symbolic link, its target; no file is opened. Two equal fingerprints
//! mean no file was created, removed, renamed, written or touched in between, so a run's
//! outcome can be reused (see the whole-run cache).
//!
//! Left out: the result cache itself (any `.yttlint-cache` directory, and `--cache-dir` when it
//! lies inside the repository) and git's own directories (`.git`), which change on every git
//! command; of those, only `.git/info/exclude` and `.git/index` (which files git tracks, for
//! the ignore patterns) are read by the linter's walk, and they are part of the fingerprint, as
//! are git's global configuration and excludes file, which the walk honours too. Symbolic links
//! are never followed.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

/// Entries modified this recently may change again within the same timestamp: a listing that
/// holds one is not trusted to describe the files later (see [`Listing::racy`]).
const RACY: Duration = Duration::from_secs(2);

/// The fingerprint of a repository.
pub struct Listing {
    /// SHA-256 of every entry's description, in path order.
    pub digest: String,
    /// Whether some entry was modified or changed less than [`RACY`] before the walk.
    pub racy: bool,
    /// Entries described.
    pub entries: usize,
}

/// Walks `repo` (skipping `skip`, the cache directory, wherever it is) and fingerprints it.
/// `None` when a directory cannot be read: the run is then not reusable.
pub fn list(repo: &Path, skip: Option<&Path>) -> Option<Listing> {
    let now = SystemTime::now();
    let mut walk = Walk {
        hasher: Sha256::new(),
        skip: skip.map(Path::to_path_buf),
        newest: 0,
        entries: 0,
    };
    walk.dir(repo, "")?;
    for file in git_global_files() {
        walk.outside(&file);
    }
    let limit = now
        .checked_sub(RACY)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Some(Listing {
        digest: walk
            .hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        racy: walk.newest >= limit,
        entries: walk.entries,
    })
}

struct Walk {
    hasher: Sha256,
    skip: Option<PathBuf>,
    /// The latest modification or change time seen (ns since the epoch).
    newest: u128,
    entries: usize,
}

impl Walk {
    /// Describes the entries of directory `abs` (repository path `rel`), recursively.
    fn dir(&mut self, abs: &Path, rel: &str) -> Option<()> {
        let mut names: Vec<std::ffi::OsString> = std::fs::read_dir(abs)
            .ok()?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<Result<_, _>>()
            .ok()?;
        names.sort();
        for name in names {
            let path = abs.join(&name);
            let name = name.to_string_lossy();
            let rel = if rel.is_empty() {
                name.into_owned()
            } else {
                format!("{rel}/{name}")
            };
            if name_is_skipped(&rel) || self.skip.as_deref() == Some(path.as_path()) {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).ok()?;
            if rel.rsplit('/').next() == Some(".git") {
                // git's own files: only what the walk reads of them.
                self.entry(&rel, &meta, &path);
                if meta.is_dir() {
                    self.outside(&path.join("info/exclude"));
                    self.outside(&path.join("index"));
                }
                continue;
            }
            self.entry(&rel, &meta, &path);
            if meta.is_dir() {
                self.dir(&path, &rel)?;
            }
        }
        Some(())
    }

    /// Describes a file outside the walk (absent files are described as absent).
    fn outside(&mut self, path: &Path) {
        let shown = path.to_string_lossy().into_owned();
        match std::fs::symlink_metadata(path) {
            Ok(meta) => self.entry(&shown, &meta, path),
            Err(_) => {
                self.hasher.update(shown.as_bytes());
                self.hasher.update(b"\0absent\0");
            }
        }
    }

    fn entry(&mut self, rel: &str, meta: &std::fs::Metadata, path: &Path) {
        self.entries += 1;
        let ft = meta.file_type();
        let kind = if ft.is_dir() {
            "d"
        } else if ft.is_file() {
            "f"
        } else if ft.is_symlink() {
            "l"
        } else {
            "o"
        };
        let stamp = crate::platform::fs::stamp(meta);
        let (mtime, ctime) = (stamp.modified_ns, stamp.changed_ns);
        if !ft.is_dir() {
            self.newest = self.newest.max(mtime).max(ctime);
        }
        // A directory's own times change with its entries, which are described anyway.
        let line = if ft.is_dir() {
            format!("{rel}\0d\0{}\0{:o}\n", stamp.id, stamp.mode)
        } else {
            format!(
                "{rel}\0{kind}\0{}\0{}\0{mtime}\0{ctime}\0{:o}\0",
                meta.len(),
                stamp.id,
                stamp.mode
            )
        };
        self.hasher.update(line.as_bytes());
        if ft.is_symlink() {
            if let Ok(target) = std::fs::read_link(path) {
                self.hasher.update(target.as_os_str().as_encoded_bytes());
            }
        }
        self.hasher.update(b"\n");
    }
}

/// Entries no run reads: result caches.
fn name_is_skipped(rel: &str) -> bool {
    rel.rsplit('/').next() == Some(crate::files::LINT_CACHE_DIR)
}

/// git's global configuration and excludes files, which the repository walk honours: the
/// configuration files, the default excludes file, and the one `core.excludesFile` names.
fn git_global_files() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let mut files = Vec::new();
    if let Some(x) = &xdg {
        files.push(x.join("git/config"));
        files.push(x.join("git/ignore"));
    }
    if let Some(h) = &home {
        files.push(h.join(".gitconfig"));
    }
    let named: Vec<PathBuf> = files
        .iter()
        .filter_map(|f| excludes_file(f, home.as_deref()))
        .collect();
    files.extend(named);
    files
}

/// The `excludesFile` a git configuration file names, if any (`~/` expanded).
fn excludes_file(config: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(config).ok()?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return None;
    }
    let text = std::fs::read_to_string(config).ok()?;
    let value = text.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("excludesfile")
            .then(|| value.trim().trim_matches('"').to_string())
    })?;
    match value.strip_prefix("~/") {
        Some(rest) => Some(home?.join(rest)),
        None => Some(PathBuf::from(value)),
    }
}
