//! The repository's ignore files, read by the linter itself rather than by the `ignore`
//! walker: `.ignore` and `.gitignore` in each directory walked, git's `.git/info/exclude` at
//! the top, and the user's global git excludes. The repository may come from a fork's pull
//! request: an ignore file is read under the repository's read policy (a symlink that leads
//! outside the repository, or to anything but a regular file, is not read), and each one not
//! read is said in a note naming it and why, never its content. Precedence is the walker's:
//! the deepest directory first, in it `.ignore` before `.gitignore`, then git's excludes.
//! As in git, a pattern keeps out only what git does not track: a file `.git/index` lists,
//! and a directory holding one, are walked whatever the patterns say (what else an ignored
//! directory holds stays out). And as ripgrep does by default, git's rules (`.gitignore`,
//! `info/exclude`, the global excludes) apply only inside a git work tree (a `.git` at the
//! repository's top or above): a tree without one is an export (`git archive`, a tarball, a
//! copy without `.git`) whose every file the repository commits, which git itself would never
//! ignore (round thirty's R30-1). `.ignore` files, the searchers' own, apply everywhere.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use super::git_index::Tracked;
use crate::files::paths;

/// The names of the ignore files of a directory, the first the stronger.
const NAMES: [&str; 2] = [".ignore", ".gitignore"];

/// The largest ignore file read.
const MAX_BYTES: u64 = 4 << 20;

/// The ignore files of one directory, the stronger first.
type Files = Arc<Vec<Gitignore>>;

/// The ignore files met so far, by directory, and what could not be read.
pub struct Ignores {
    base: PathBuf,
    /// By directory (its path's bytes), the ignore files that decide for its entries: its own
    /// and those of the directories above it in the repository, the deepest first (only
    /// directories that have some). Each directory's files are read once, when the first of
    /// its entries is asked about.
    chains: Mutex<HashMap<Vec<u8>, Arc<Vec<Files>>, foldhash::fast::RandomState>>,
    /// `.git/info/exclude` of the top, then the user's global excludes.
    last: Vec<Gitignore>,
    notes: Mutex<Vec<String>>,
    /// What git tracks, read the first time a pattern matches.
    tracked: OnceLock<Tracked>,
    /// Ignored directories walked because git tracks something in them.
    entered: Mutex<HashSet<PathBuf>>,
    /// Whether the repository lies in a git work tree, so that git's rules apply.
    in_git: bool,
}

impl Ignores {
    /// The ignore files of the repository at `base` (read as the walk enters directories).
    pub fn new(base: &Path) -> Ignores {
        let ignores = Ignores {
            base: base.to_path_buf(),
            chains: Mutex::new(HashMap::default()),
            last: Vec::new(),
            notes: Mutex::new(Vec::new()),
            tracked: OnceLock::new(),
            entered: Mutex::new(HashSet::new()),
            in_git: in_git_work_tree(base),
        };
        if !ignores.in_git {
            return ignores;
        }
        let mut last = Vec::new();
        last.extend(ignores.read_exclude());
        // The user's own file (`core.excludesFile`), not the repository's.
        let (global, _) = Gitignore::global();
        last.push(global);
        Ignores { last, ..ignores }
    }

    /// Whether the entry at `path` (a directory when `is_dir`) is ignored: a pattern matches
    /// it, or it lies in an ignored directory walked for its tracked files, and git does not
    /// track it.
    pub fn ignored(&self, path: &Path, is_dir: bool) -> bool {
        let in_entered = self.entered.lock().is_ok_and(|entered| {
            !entered.is_empty() && path.ancestors().skip(1).any(|a| entered.contains(a))
        });
        if !in_entered && !self.matched(path, is_dir) {
            return false;
        }
        let tracked = self.tracked.get_or_init(|| Tracked::of(&self.base));
        let rel = paths::relative(&self.base, path);
        if !rel.is_some_and(|rel| tracked.holds(&rel, is_dir)) {
            return true;
        }
        if is_dir {
            if let Ok(mut entered) = self.entered.lock() {
                entered.insert(path.to_path_buf());
            }
        }
        false
    }

    /// Whether a pattern of the ignore files ignores the entry at `path`.
    fn matched(&self, path: &Path, is_dir: bool) -> bool {
        let chain = path.parent().map(|d| self.chain(d)).unwrap_or_default();
        for g in chain.iter().flat_map(|files| files.iter()) {
            match g.matched(path, is_dir) {
                Match::None => {}
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
            }
        }
        // The walk enters no ignored directory: the entry's own match decides.
        self.last
            .iter()
            .map(|g| g.matched(path, is_dir))
            .find(|m| !m.is_none())
            .is_some_and(|m| m.is_ignore())
    }

    /// The notes of the ignore files not read, and of their lines not understood.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = self.notes.lock().map(|n| n.clone()).unwrap_or_default();
        notes.sort();
        notes.dedup();
        notes
    }

    /// The ignore files that decide for the entries of directory `dir`, the deepest first:
    /// those of `dir` and of each directory above it up to the repository's top (none above
    /// the top). Kept by directory.
    fn chain(&self, dir: &Path) -> Arc<Vec<Files>> {
        let key = dir.as_os_str().as_encoded_bytes();
        if let Some(known) = self.chains.lock().ok().and_then(|c| c.get(key).cloned()) {
            return known;
        }
        // Only directories of the repository are kept.
        if !dir.starts_with(&self.base) {
            return Arc::default();
        }
        let own = self.of(dir);
        let above = dir.parent().map(|d| self.chain(d)).unwrap_or_default();
        let chain = if own.is_empty() {
            above
        } else {
            let mut chain = Vec::with_capacity(above.len() + 1);
            chain.push(own);
            chain.extend(above.iter().cloned());
            Arc::new(chain)
        };
        if let Ok(mut chains) = self.chains.lock() {
            chains.insert(key.to_vec(), chain.clone());
        }
        chain
    }

    /// The ignore files of directory `dir` (read once: see [`Ignores::chain`]).
    fn of(&self, dir: &Path) -> Files {
        let found: Vec<Gitignore> = NAMES
            .iter()
            .filter(|n| self.in_git || **n != ".gitignore")
            .filter_map(|n| self.read(dir, &dir.join(n)))
            .collect();
        Arc::new(found)
    }

    /// git's `.git/info/exclude`. Version control's directory is outside the repository for
    /// the read policy (`.git/config` holds a CI job's token), so this one file is read on its
    /// own terms: `.git` and `.git/info` real directories (not links), the file a regular
    /// file opened without following a link. A `.git` file (a work tree of another
    /// repository) has none.
    fn read_exclude(&self) -> Option<Gitignore> {
        let git = self.base.join(".git");
        if !std::fs::symlink_metadata(&git).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        let rel = ".git/info/exclude";
        let file = git.join("info").join("exclude");
        let info = std::fs::symlink_metadata(git.join("info")).ok()?;
        let meta = std::fs::symlink_metadata(&file).ok()?;
        let why = if !info.is_dir() {
            "it lies under a symlink"
        } else if crate::platform::fs::is_link(&meta) {
            "it is a symlink"
        } else if !meta.is_file() {
            "it is not a regular file"
        } else if meta.len() > MAX_BYTES {
            "it is larger than 4 MiB"
        } else {
            let bytes = crate::platform::fs::open_read_nofollow(&file).and_then(|f| {
                let mut bytes = Vec::new();
                f.take(MAX_BYTES).read_to_end(&mut bytes).map(|_| bytes)
            });
            match bytes {
                Ok(bytes) => return Some(self.build(&self.base, &file, rel, &bytes)),
                Err(_) => "it cannot be read",
            }
        };
        self.note(format!(
            "{rel} was not read ({why}): the paths it would ignore are linted"
        ));
        None
    }

    /// The ignore file `file`, whose patterns are relative to `dir`; `None` when there is
    /// none, or it is not read (then a note says why).
    fn read(&self, dir: &Path, file: &Path) -> Option<Gitignore> {
        let meta = std::fs::symlink_metadata(file).ok()?;
        let rel = paths::relative(&self.base, file).unwrap_or_else(|| file.display().to_string());
        if std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() > MAX_BYTES) {
            self.note(format!(
                "{rel} was not read (it is larger than 4 MiB): the paths it would ignore are linted"
            ));
            return None;
        }
        let policy = crate::files::ReadPolicy::repository(&self.base);
        let why = match crate::files::read_with(file, &meta, &policy) {
            Ok(Ok(bytes)) => return Some(self.build(dir, file, &rel, &bytes)),
            Ok(Err(crate::files::Refusal::Outside)) => {
                "it is a symlink that leads outside the repository".to_string()
            }
            Ok(Err(crate::files::Refusal::NotRegular(kind))) => format!("it is {kind}"),
            Err(_) if meta.is_dir() => "it is a directory".to_string(),
            Err(_) if crate::platform::fs::is_link(&meta) => {
                "it is a symlink that leads nowhere".to_string()
            }
            Err(_) => "it cannot be read".to_string(),
        };
        self.note(format!(
            "{rel} was not read ({why}): the paths it would ignore are linted"
        ));
        None
    }

    /// The patterns of the ignore file `file` (`rel` in the repository) with text `bytes`.
    fn build(&self, dir: &Path, file: &Path, rel: &str, bytes: &[u8]) -> Gitignore {
        let text = String::from_utf8_lossy(bytes);
        let mut builder = GitignoreBuilder::new(dir);
        for (n, line) in text.lines().enumerate() {
            if let Err(e) = builder.add_line(Some(file.to_path_buf()), line) {
                let e = e.to_string();
                let e = e.rsplit_once(": ").map_or(e.as_str(), |(_, m)| m);
                self.note(format!("{rel}: line {}: {e}", n + 1));
            }
        }
        builder.build().unwrap_or_else(|_| Gitignore::empty())
    }

    /// Whether git's rules apply (see the module's doc).
    pub fn in_git(&self) -> bool {
        self.in_git
    }

    fn note(&self, note: String) {
        if let Ok(mut notes) = self.notes.lock() {
            notes.push(note);
        }
    }
}

/// Whether `base` or a directory above it holds a `.git` (a directory, or the file of a linked
/// work tree or a submodule): ripgrep's test for a git repository.
pub fn in_git_work_tree(base: &Path) -> bool {
    base.ancestors()
        .any(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("yttlint-ignores-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        dir
    }

    #[test]
    fn outside_a_git_work_tree_only_dot_ignore_applies() {
        let r = &scratch("export");
        std::fs::remove_dir_all(r.join(".git")).unwrap();
        std::fs::write(r.join(".gitignore"), "manifest.yaml\n").unwrap();
        std::fs::write(r.join(".ignore"), "*.tmp\n").unwrap();
        let ig = Ignores::new(r);
        assert!(!ig.in_git());
        assert!(!ig.ignored(&r.join("deploy/manifest.yaml"), false));
        assert!(ig.ignored(&r.join("x.tmp"), false));
        // A linked work tree's `.git` is a file.
        std::fs::write(r.join(".git"), "gitdir: elsewhere\n").unwrap();
        let ig = Ignores::new(r);
        assert!(ig.in_git());
        assert!(ig.ignored(&r.join("deploy/manifest.yaml"), false));
    }

    #[test]
    fn deeper_files_and_dot_ignore_come_first() {
        let r = &scratch("order");
        std::fs::create_dir_all(r.join("a/b")).unwrap();
        std::fs::write(r.join(".gitignore"), "*.log\nbuild/\n").unwrap();
        std::fs::write(r.join("a/.gitignore"), "!keep.log\n").unwrap();
        std::fs::write(r.join("a/.ignore"), "keep.log\n").unwrap();
        std::fs::write(r.join("a/b/.gitignore"), "!keep.log\n").unwrap();
        let ig = Ignores::new(r);
        assert!(ig.ignored(&r.join("x.log"), false));
        assert!(ig.ignored(&r.join("build"), true));
        assert!(!ig.ignored(&r.join("build"), false), "a directory pattern");
        assert!(ig.ignored(&r.join("a/keep.log"), false), ".ignore first");
        assert!(
            !ig.ignored(&r.join("a/b/keep.log"), false),
            "the deepest first"
        );
        assert!(!ig.ignored(&r.join("a/x.yml"), false));
        assert!(ig.notes().is_empty());
    }

    #[test]
    fn directories_without_ignore_files_pass_on_those_above() {
        let r = &scratch("chain");
        std::fs::create_dir_all(r.join("a/b/c")).unwrap();
        std::fs::create_dir_all(r.join("d/e")).unwrap();
        std::fs::write(r.join(".gitignore"), "*.ylog\n").unwrap();
        std::fs::write(r.join("a/.gitignore"), "!keep.ylog\n").unwrap();
        let ig = Ignores::new(r);
        // Asked in an order that fills the kept chains from below and from above.
        assert!(!ig.ignored(&r.join("a/b/c/keep.ylog"), false));
        assert!(ig.ignored(&r.join("a/b/c/x.ylog"), false));
        assert!(ig.ignored(&r.join("d/e/keep.ylog"), false));
        assert!(ig.ignored(&r.join("d/x.ylog"), false));
        assert!(!ig.ignored(&r.join("a/b/keep.ylog"), false));
        assert!(!ig.ignored(&r.join("d/e/x.yml"), false));
        // Outside the repository no ignore file decides.
        let outside = r.parent().unwrap().join("x.ylog");
        assert!(!ig.ignored(&outside, false));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_out_of_the_repository_is_not_read() {
        let outside = scratch("outside");
        std::fs::write(outside.join("secret"), "config/\n").unwrap();
        let r = &scratch("link");
        std::fs::create_dir_all(r.join("config")).unwrap();
        std::fs::create_dir_all(r.join("sub")).unwrap();
        crate::platform::fs::symlink(&outside.join("secret"), &r.join(".gitignore")).unwrap();
        // A link to a file of the repository is read.
        std::fs::write(r.join("rules"), "*.tmp\n").unwrap();
        crate::platform::fs::symlink(Path::new("../rules"), &r.join("sub/.gitignore")).unwrap();
        // git's own excludes are read, though `.git` is outside for every other read.
        std::fs::create_dir_all(r.join(".git/info")).unwrap();
        std::fs::write(r.join(".git/info/exclude"), "*.bak\n").unwrap();
        let ig = Ignores::new(r);
        assert!(ig.ignored(&r.join("config/x.bak"), false));
        assert!(!ig.ignored(&r.join("config"), true));
        assert!(ig.ignored(&r.join("sub/x.tmp"), false));
        assert_eq!(
            ig.notes(),
            [".gitignore was not read (it is a symlink that leads outside the repository): the paths it would ignore are linted"]
        );
    }
}
