//! Input files as ytt sees them: `-f` paths (files, directories, `-` for stdin, `name=path`;
//! the linter's own explicit form, see [`input`]),
//! each with the relative path ytt gives it, its type by extension, and ytt's order (inputs in
//! the order given, each directory's files sorted by relative path). Which files may be read is
//! a [`ReadPolicy`]: ytt's (symlinks only to allowed destinations) or the linter's (nothing that
//! resolves outside the repository, no special files; those are skipped and reported).

pub mod input;
pub mod listed;
pub mod open;
pub mod overlay;
pub mod paths;
pub mod repo_policy;
pub mod repo_text;
mod symlink;
pub mod write;

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Yaml,
    Text,
    Starlark,
    Unknown,
}

/// One input file.
#[derive(Clone, Debug)]
pub struct InputFile {
    /// Path relative to its input (forward slashes).
    pub rel_path: String,
    /// The path before any `--file-mark path=` renamed it (what marks match against).
    pub orig_path: String,
    pub data: Arc<str>,
    /// The bytes as read, when they are not UTF-8 (`data` then holds them with U+FFFD in
    /// place of each invalid sequence): parsing refuses them as ytt does, `data.read` keeps them.
    pub raw: Option<Arc<[u8]>>,
    /// Why the file cannot be read, in Go's words (`read config/x.yml: is a directory`), when
    /// reading it failed (`data` is then empty). ytt lists such a file and fails only where it
    /// reads it: evaluating it, loading it, `data.read`.
    pub unreadable: Option<Arc<str>>,
    pub marked_type: Option<FileType>,
    pub marked_template: Option<bool>,
    pub marked_for_output: Option<bool>,
}

impl InputFile {
    pub fn new(rel_path: &str, data: &str) -> InputFile {
        InputFile {
            rel_path: rel_path.to_string(),
            orig_path: rel_path.to_string(),
            data: Arc::from(data),
            raw: None,
            unreadable: None,
            marked_type: None,
            marked_template: None,
            marked_for_output: None,
        }
    }

    /// A file from the bytes read: text, or text with its bytes kept when they are not UTF-8.
    pub fn from_bytes(rel_path: &str, bytes: Vec<u8>) -> InputFile {
        match String::from_utf8(bytes) {
            Ok(text) => InputFile::new(rel_path, &text),
            Err(e) => {
                let bytes = e.into_bytes();
                let mut f = InputFile::new(rel_path, &String::from_utf8_lossy(&bytes));
                f.raw = Some(Arc::from(bytes));
                f
            }
        }
    }

    /// A file listed but not read: `message` says why reading it fails.
    pub fn failed(rel_path: &str, message: String) -> InputFile {
        let mut f = InputFile::new(rel_path, "");
        f.unreadable = Some(Arc::from(message));
        f
    }

    fn base_name(&self) -> &str {
        self.rel_path.rsplit('/').next().unwrap_or(&self.rel_path)
    }

    pub fn file_type(&self) -> FileType {
        if let Some(t) = self.marked_type {
            return t;
        }
        let base = self.base_name();
        if base.ends_with(".yml") || base.ends_with(".yaml") {
            FileType::Yaml
        } else if base.ends_with(".star") {
            FileType::Starlark
        } else if base.ends_with(".txt") {
            FileType::Text
        } else {
            FileType::Unknown
        }
    }

    /// `x.lib.yml`, `x.lib.txt` and Starlark files are libraries (loaded, not output).
    pub fn is_library(&self) -> bool {
        let parts: Vec<&str> = self.base_name().split('.').collect();
        (parts.len() > 2 && parts[parts.len() - 2] == "lib")
            || self.file_type() == FileType::Starlark
    }

    pub fn is_template(&self) -> bool {
        if let Some(t) = self.marked_template {
            return t;
        }
        !self.is_library() && matches!(self.file_type(), FileType::Yaml | FileType::Text)
    }

    pub fn is_for_output(&self) -> bool {
        if let Some(o) = self.marked_for_output {
            return o;
        }
        if self.marked_template == Some(true) {
            return true;
        }
        !self.is_library() && matches!(self.file_type(), FileType::Yaml | FileType::Text)
    }
}

/// The name of the linter's result cache directory (see `lint::cache`), skipped by the
/// linter's directory walks.
pub const LINT_CACHE_DIR: &str = ".yttlint-cache";

/// Which files may be read: ytt's rules for symlinks (refused unless their destination is
/// allowed), or the linter's (every file, through symlinks, inside the repository).
#[derive(Clone, Debug, Default)]
pub struct ReadPolicy {
    /// `--dangerous-allow-all-symlink-destinations`.
    pub allow_all_symlinks: bool,
    /// `--allow-symlink-destination` paths.
    pub allowed_destinations: Vec<String>,
    /// The linter's repository (as given and canonical): a file that resolves outside it, or
    /// that is not a regular file, is refused (not read, not opened) instead of failing.
    pub repository: Option<(PathBuf, PathBuf)>,
}

impl ReadPolicy {
    /// The linter's policy for the repository at `dir`.
    pub fn repository(dir: &Path) -> ReadPolicy {
        let canonical = real_dir(dir).unwrap_or_else(|_| dir.to_path_buf());
        ReadPolicy {
            repository: Some((dir.to_path_buf(), canonical)),
            ..ReadPolicy::default()
        }
    }
}

/// Why a file was not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// It resolves (through symlinks) outside the repository.
    Outside,
    /// It is not a regular file (a FIFO, a device, a socket): reading could block or never end.
    NotRegular(&'static str),
}

/// A file the linter did not read: its path as named or walked, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub path: PathBuf,
    pub why: Refusal,
}

/// Reads the files named by `-f` arguments with ytt's default rules. `stdin` supplies the
/// content of `-`.
pub fn collect(
    paths: &[String],
    stdin: &mut dyn FnMut() -> Result<String, String>,
) -> Result<Vec<InputFile>, String> {
    collect_with(paths, stdin, &ReadPolicy::default(), &mut Vec::new())
}

/// Reads the files named by `-f` arguments under `policy`; files the linter refuses are added
/// to `refused` and skipped.
pub fn collect_with(
    paths: &[String],
    stdin: &mut dyn FnMut() -> Result<String, String>,
    policy: &ReadPolicy,
    refused: &mut Vec<Refused>,
) -> Result<Vec<InputFile>, String> {
    let mut all = Vec::new();
    for arg in paths {
        let parsed = input::parse(arg)?;
        let (name, path) = (parsed.name.map(str::to_string), parsed.path.to_string());
        let mut group = Vec::new();
        if path == "-" {
            let data = stdin()?;
            group.push(InputFile::new(
                name.as_deref().unwrap_or("stdin.yml"),
                &data,
            ));
        } else {
            let p = Path::new(&path);
            let meta = std::fs::symlink_metadata(p)
                .map_err(|e| format!("Checking file '{path}': lstat {path}: {}", go_errno(&e)))?;
            let outside_dir = meta.is_dir()
                && policy
                    .repository
                    .as_ref()
                    .is_some_and(|(given, canonical)| {
                        // A directory named through a symlinked parent: refused as a whole.
                        real_dir(p).is_ok_and(|real| !open::inside(given, canonical, &real))
                    });
            if outside_dir {
                refused.push(Refused {
                    path: p.to_path_buf(),
                    why: Refusal::Outside,
                });
            } else if meta.is_dir() {
                let mut walker = Walker {
                    policy,
                    refused: &mut *refused,
                    out: &mut group,
                };
                walker
                    .walk(p, p)
                    .map_err(|e| format!("Listing files '{path}': {e}"))?;
            } else {
                let rel = match &name {
                    Some(n) => n.clone(),
                    None => p
                        .file_name()
                        .map(|f| f.to_string_lossy().to_string())
                        .unwrap_or_else(|| path.clone()),
                };
                match read_entry(p, &meta, policy)? {
                    Read::Bytes(bytes) => group.push(InputFile::from_bytes(&rel, bytes)),
                    // ytt takes an input that is a symlink to a directory for a file, and
                    // reads nothing from it: the linter says so rather than lint nothing.
                    Read::Failed(e)
                        if policy.repository.is_some()
                            && e.kind() == std::io::ErrorKind::IsADirectory =>
                    {
                        return Err(format!(
                            "Checking file '{path}': a symlink to a directory, which ytt takes for a file and reads nothing from (name the directory it leads to)"
                        ));
                    }
                    Read::Failed(e) => {
                        group.push(InputFile::failed(&rel, failure(p, &e, policy)));
                    }
                    Read::Refused(why) => {
                        refused.push(Refused {
                            path: p.to_path_buf(),
                            why,
                        });
                        continue;
                    }
                }
            }
        }
        group.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        all.extend(group);
    }
    Ok(all)
}

/// Whether a file (not a directory) may be read: `Ok(None)` to read it, `Ok(Some(why))` when
/// the linter skips it, an error (ytt's message) when ytt refuses it.
pub fn check(
    p: &Path,
    meta: &std::fs::Metadata,
    policy: &ReadPolicy,
) -> Result<Option<Refusal>, String> {
    let ft = meta.file_type();
    let special = open::special_kind(ft);
    if let Some((given, canonical)) = &policy.repository {
        if let Some(kind) = special {
            return Ok(Some(Refusal::NotRegular(kind)));
        }
        if !ft.is_symlink() {
            // Not a symlink itself: only its directories can lead elsewhere.
            return Ok(match real_path(p) {
                Ok(dst) if open::inside(given, canonical, &dst) => None,
                Ok(_) => Some(Refusal::Outside),
                Err(_) => None,
            });
        }
        return Ok(match std::fs::canonicalize(p) {
            Ok(dst) if open::inside(given, canonical, &dst) => {
                // A symlink to a special file inside the repository is refused too.
                match std::fs::metadata(&dst) {
                    Ok(m) if m.is_file() || m.is_dir() => None,
                    Ok(_) => Some(Refusal::NotRegular("a symlink to a special file")),
                    Err(_) => None,
                }
            }
            Ok(_) => Some(Refusal::Outside),
            // A dangling symlink: reading it reports the missing file.
            Err(_) => None,
        });
    }
    // ytt reads named pipes (`ytt -f <(echo ---)`) and refuses other special files.
    if special.is_some_and(|kind| kind != crate::platform::fs::NAMED_PIPE) {
        return Err(format!(
            "Expected file '{}' to be a regular file, but was not",
            p.display()
        ));
    }
    if ft.is_symlink() {
        symlink::allowed(p, policy)
            .map_err(|e| format!("Checking symlink file '{}': {e}", p.display()))?;
    }
    Ok(None)
}

/// `path` made absolute against `cwd`, `.` and `..` resolved without the disk (Go's `Abs`).
pub fn lexical_absolute(cwd: &Path, path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The real path of `p`, which is not a symlink: its directory's real path and its name.
fn real_path(p: &Path) -> std::io::Result<PathBuf> {
    let (Some(dir), Some(name)) = (p.parent(), p.file_name()) else {
        return std::fs::canonicalize(p);
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    Ok(real_dir(dir)?.join(name))
}

/// The real path of directory `dir`, kept per thread (a job reads many files of few
/// directories). A directory that is not a symlink is its parent's real path and its name:
/// one `lstat` instead of resolving every component again.
fn real_dir(dir: &Path) -> std::io::Result<PathBuf> {
    thread_local! {
        static DIRS: RefCell<HashMap<PathBuf, PathBuf>> = RefCell::new(HashMap::new());
    }
    if let Some(real) = DIRS.with(|d| d.borrow().get(dir).cloned()) {
        return Ok(real);
    }
    let by_parent = match (dir.parent(), dir.components().next_back()) {
        (Some(parent), Some(std::path::Component::Normal(name)))
            if !parent.as_os_str().is_empty() =>
        {
            let plain = !std::fs::symlink_metadata(dir)?.file_type().is_symlink();
            plain
                .then(|| real_dir(parent).map(|real| real.join(name)))
                .transpose()?
        }
        _ => None,
    };
    let real = match by_parent {
        Some(real) => real,
        None => std::fs::canonicalize(dir)?,
    };
    DIRS.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() > 4096 {
            d.clear();
        }
        d.insert(dir.to_path_buf(), real.clone());
    });
    Ok(real)
}

/// The bytes of `path` when `policy` lets the linter read it (a regular file that resolves
/// inside the repository); `None` otherwise (a special file is not opened).
pub fn read_allowed(path: &Path, policy: &ReadPolicy) -> Option<Vec<u8>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.is_dir() {
        return None;
    }
    read_with(path, &meta, policy).ok()?.ok()
}

/// The bytes `range` of what [`read_allowed`] gives for `path`, `None` also when it gives
/// fewer. Under the linter's policy only those bytes are read (one CRD document of a bundle of
/// many megabytes); with editor buffers in place, or under ytt's policy, the file is read whole
/// as [`read_allowed`] reads it.
pub fn read_allowed_range(
    path: &Path,
    policy: &ReadPolicy,
    range: std::ops::Range<usize>,
) -> Option<Vec<u8>> {
    let whole = || {
        read_allowed(path, policy)?
            .get(range.clone())
            .map(<[u8]>::to_vec)
    };
    let Some((given, canonical)) = &policy.repository else {
        return whole();
    };
    if overlay::current().is_some() {
        return whole();
    }
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.is_dir() {
        return None;
    }
    let range = range.start as u64..range.end as u64;
    open::read_checked_range(path, &meta, given, canonical, range)
        .ok()?
        .ok()?
}

/// Reads the file `p` (`meta` its own metadata) under `policy`: its bytes, why the linter
/// refuses it, or an error (ytt's message). The linter's policy opens it once and checks the
/// open handle ([`open::read_checked`]); ytt's checks the path, then reads.
pub fn read_with(
    p: &Path,
    meta: &std::fs::Metadata,
    policy: &ReadPolicy,
) -> Result<Result<Vec<u8>, Refusal>, String> {
    match read_entry(p, meta, policy)? {
        Read::Bytes(bytes) => Ok(Ok(bytes)),
        Read::Refused(why) => Ok(Err(why)),
        Read::Failed(e) => Err(format!("Reading file '{}': {e}", p.display())),
    }
}

/// What reading a listed file gave.
enum Read {
    Bytes(Vec<u8>),
    /// The linter does not read it (see [`Refusal`]).
    Refused(Refusal),
    /// Opening or reading it failed: a directory behind a symlink, a symlink loop, a dangling
    /// symlink. ytt fails only when it reads such a file, not when it lists it.
    Failed(std::io::Error),
}

/// [`read_with`], with a failed read kept apart from ytt's refusals (an error, its message).
fn read_entry(p: &Path, meta: &std::fs::Metadata, policy: &ReadPolicy) -> Result<Read, String> {
    match &policy.repository {
        Some((given, canonical)) => Ok(
            match open::read_checked_from(p, meta, given, canonical, u64::MAX) {
                Ok(Ok(bytes)) => Read::Bytes(overlay::substitute(p, bytes)),
                Ok(Err(why)) => Read::Refused(why),
                Err(e) => Read::Failed(e),
            },
        ),
        None => Ok(match check(p, meta, policy)? {
            Some(why) => Read::Refused(why),
            None => match std::fs::read(p) {
                Ok(bytes) => Read::Bytes(bytes),
                Err(e) => Read::Failed(e),
            },
        }),
    }
}

/// Go's error for reading the file `p` that failed with `e` (`os.ReadFile`): `read P: is a
/// directory` when it opened, `open P: ...` when it did not. Under the linter's policy `P` is
/// the path in the repository.
fn failure(p: &Path, e: &std::io::Error, policy: &ReadPolicy) -> String {
    let shown = match &policy.repository {
        Some((given, _)) => paths::relative(given, p).map(PathBuf::from),
        None => None,
    };
    let shown = shown.as_deref().unwrap_or(p).display();
    match e.kind() {
        std::io::ErrorKind::IsADirectory => format!("read {shown}: is a directory"),
        _ => format!("open {shown}: {}", go_errno(e)),
    }
}

/// Go's text of an I/O error's cause (`no such file or directory`): Rust's own text without its
/// ` (os error N)` suffix.
pub fn go_errno(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::NotADirectory => "not a directory".to_string(),
        _ => {
            let text = e.to_string();
            let plain = text.split(" (os error").next().unwrap_or(&text);
            let mut chars = plain.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => plain.to_string(),
            }
        }
    }
}

/// A directory walk in ytt's way (symlinked directories are not entered).
struct Walker<'a> {
    policy: &'a ReadPolicy,
    refused: &'a mut Vec<Refused>,
    out: &'a mut Vec<InputFile>,
}

impl Walker<'_> {
    fn walk(&mut self, root: &Path, dir: &Path) -> Result<(), String> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            // The entry's type as the directory listing gives it (no `lstat` when it does).
            let kind = e.file_type().map_err(|e| e.to_string())?;
            if kind.is_dir() {
                // The linter's own result cache is never an input of the repository it lints,
                // nor are version control directories (credentials, history).
                if self.policy.repository.is_some()
                    && (e.file_name() == LINT_CACHE_DIR || open::is_vcs_dir(&e.file_name()))
                {
                    continue;
                }
                self.walk(root, &p)?;
                continue;
            }
            let rel = p
                .strip_prefix(root)
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| p.to_string_lossy().to_string());
            let read = match (self.policy.repository.is_some(), kind.is_file()) {
                // ytt's policy: a regular file (not a link) of a directory already checked is
                // where it seems.
                (false, true) => match std::fs::read(&p) {
                    Ok(bytes) => Read::Bytes(bytes),
                    Err(e) => Read::Failed(e),
                },
                // The linter's policy: a regular file is opened at once (`files::listed`).
                (true, true) => match listed::listed_entry(&p, self.policy) {
                    Some(read) => read,
                    None => {
                        let meta = std::fs::symlink_metadata(&p).map_err(|e| e.to_string())?;
                        read_entry(&p, &meta, self.policy)?
                    }
                },
                _ => {
                    let meta = std::fs::symlink_metadata(&p).map_err(|e| e.to_string())?;
                    read_entry(&p, &meta, self.policy)?
                }
            };
            let bytes = match read {
                Read::Bytes(bytes) => bytes,
                // ytt lists it (a symlink to a directory is not entered) and fails where it
                // reads it.
                Read::Failed(e) => {
                    let message = failure(&p, &e, self.policy);
                    self.out.push(InputFile::failed(&rel, message));
                    continue;
                }
                Read::Refused(why) => {
                    self.refused.push(Refused { path: p, why });
                    continue;
                }
            };
            self.out.push(InputFile::from_bytes(&rel, bytes));
        }
        Ok(())
    }
}

// Symbolic links made without privilege: Unix.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn real_paths_follow_symlinked_directories_anywhere_in_the_path() {
        let base = std::env::temp_dir().join(format!("yttlint-real-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("out/deep/er")).unwrap();
        std::fs::create_dir_all(base.join("repo/a")).unwrap();
        std::fs::write(base.join("out/deep/er/x.yml"), "x: 1\n").unwrap();
        std::fs::write(base.join("repo/a/y.yml"), "y: 1\n").unwrap();
        crate::platform::fs::symlink(&base.join("out"), &base.join("repo/a/link")).unwrap();
        let base = std::fs::canonicalize(&base).unwrap();
        for _ in 0..2 {
            // The second time from the per-thread cache.
            let x = real_path(&base.join("repo/a/link/deep/er/x.yml")).unwrap();
            assert_eq!(x, base.join("out/deep/er/x.yml"));
            let y = real_path(&base.join("repo/a/./y.yml")).unwrap();
            assert_eq!(y, base.join("repo/a/y.yml"));
            let up = real_path(&base.join("repo/a/link/deep/../deep/er/x.yml")).unwrap();
            assert_eq!(up, base.join("out/deep/er/x.yml"));
        }
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_repository_policy_refuses_what_leads_outside() {
        let base = std::env::temp_dir().join(format!("yttlint-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (repo, out) = (base.join("repo"), base.join("out"));
        std::fs::create_dir_all(repo.join("root")).unwrap();
        std::fs::create_dir_all(out.join("sub")).unwrap();
        std::fs::write(out.join("sub/secret.yml"), "s: 1\n").unwrap();
        std::fs::write(repo.join("root/a.yml"), "a: 1\n").unwrap();
        crate::platform::fs::symlink(&out, &repo.join("root/link")).unwrap();
        crate::platform::fs::symlink(&repo.join("root/a.yml"), &repo.join("root/b.yml")).unwrap();
        let policy = ReadPolicy::repository(&repo);
        let mut refused = Vec::new();
        let arg = |p: &Path| p.to_string_lossy().into_owned();
        let files = collect_with(
            &[arg(&repo.join("root")), arg(&repo.join("root/link/sub"))],
            &mut || Err(String::new()),
            &policy,
            &mut refused,
        )
        .unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.rel_path.as_str()).collect();
        assert_eq!(names, vec!["a.yml", "b.yml"]);
        assert_eq!(
            refused,
            vec![
                Refused {
                    path: repo.join("root/link"),
                    why: Refusal::Outside
                },
                Refused {
                    path: repo.join("root/link/sub"),
                    why: Refusal::Outside
                },
            ]
        );
        // ytt's policy refuses the link in the directory.
        let err = collect(&[arg(&repo.join("root"))], &mut || Err(String::new())).unwrap_err();
        assert!(err.contains("Expected symlink file"), "{err}");
        // A regular file is refused when one of its directories leads outside, also once its
        // directory's real path is known.
        assert!(read_allowed(&repo.join("root/a.yml"), &policy).is_some());
        for _ in 0..2 {
            assert!(read_allowed(&repo.join("root/link/sub/secret.yml"), &policy).is_none());
        }
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_range_is_read_under_the_same_policy_as_the_whole_file() {
        let base = std::env::temp_dir().join(format!("yttlint-range-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (repo, out) = (base.join("repo"), base.join("out"));
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(repo.join("a.yml"), "a: 1\n---\nb: 2\n").unwrap();
        std::fs::write(out.join("s.yml"), "s: 1\n").unwrap();
        crate::platform::fs::symlink(&repo.join("a.yml"), &repo.join("in.yml")).unwrap();
        crate::platform::fs::symlink(&out.join("s.yml"), &repo.join("out.yml")).unwrap();
        let policy = ReadPolicy::repository(&repo);
        for name in ["a.yml", "in.yml"] {
            let path = repo.join(name);
            let range = |r: std::ops::Range<usize>| read_allowed_range(&path, &policy, r);
            assert_eq!(range(9..14).as_deref(), Some(&b"b: 2\n"[..]), "{name}");
            assert_eq!(range(0..0).as_deref(), Some(&b""[..]));
            assert_eq!(range(9..15), None, "past the end");
            assert_eq!(range(0..14).unwrap(), read_allowed(&path, &policy).unwrap());
        }
        assert_eq!(
            read_allowed_range(&repo.join("out.yml"), &policy, 0..2),
            None
        );
        assert_eq!(
            read_allowed_range(&repo, &policy, 0..0),
            None,
            "a directory"
        );
        assert_eq!(
            read_allowed_range(&repo.join("no.yml"), &policy, 0..0),
            None
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
