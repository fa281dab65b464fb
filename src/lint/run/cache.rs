//! The result cache: a job's outcome (its findings and status) stored under a key made of
//! everything that decides it: yttlint's version and the identity of its executable, the job
//! itself (root, scenario, flags, configuration that reaches the job), the environment values
//! its allowed `--data-values-env` prefixes read, and the content hash of every file under the
//! job's inputs. A changed file changes the key of exactly the jobs whose inputs hold it.
//!
//! Layout of the cache directory (`.yttlint-cache/` in the repository unless `--cache-dir`):
//! - `jobs/<key>.json`: one job's outcome, written to a temporary file and renamed, so
//!   concurrent runs never see half an entry;
//! - `runs/<key>.json`: the report of a whole run (see [`crate::lint::run::run_cache`]);
//! - `files.tsv`: the content hash of each input file with its size and modification time, so
//!   an unchanged file is not read again;
//! - `.gitignore` holding `*`, so the cache is never committed; `CACHEDIR.TAG`.
//!
//! The cache never makes a finding appear or disappear: an entry that cannot be read, parsed
//! or written is a miss. Entries beyond [`MAX_ENTRIES`] are removed oldest first.
//!
//! A repository could commit a directory named `.yttlint-cache` with forged entries: every
//! entry and the index are sealed with HMAC-SHA256 under the user's own random key
//! ([`crate::lint::run::cache_auth`]), and one whose tag does not verify is a miss.

use crate::report::Rule;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::cache_auth::Key;
use crate::lint::job::{Job, JobKind, JobOutcome};

/// The file index's name in the cache directory (and as a sealed entry).
const INDEX: &str = "files.tsv";

/// Entries kept at most; older ones are removed at the end of a run.
pub const MAX_ENTRIES: usize = 20_000;

/// The cache directory's default name, inside the repository.
pub const DIR_NAME: &str = crate::files::LINT_CACHE_DIR;

/// Format of the entries: bump when [`JobOutcome`] or the key changes meaning.
const FORMAT: &str = "yttlint-cache-3";

/// Files modified this recently before the index was written may have changed again within the
/// same timestamp: their hash is not trusted from the index.
const RACY: Duration = Duration::from_secs(2);

/// A file's hash as the index records it.
#[derive(Clone, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    mtime_ns: u128,
    hash: String,
}

/// An open cache for one run.
pub struct Cache {
    dir: PathBuf,
    repo: PathBuf,
    /// The version and executable identity, the start of every key.
    salt: String,
    /// Signs and checks every entry.
    auth: Key,
    /// Hashes of files from the previous run's index, and when that index was written.
    previous: HashMap<PathBuf, FileStamp>,
    previous_written: Option<SystemTime>,
    /// Hashes computed or confirmed in this run.
    current: Mutex<HashMap<PathBuf, FileStamp>>,
    /// The files under each input path of this run's jobs, listed once: the jobs of one root
    /// share their inputs (`None`: the path could not be listed).
    listed: Mutex<HashMap<PathBuf, Option<Arc<Vec<PathBuf>>>>>,
    hits: AtomicUsize,
    misses: AtomicUsize,
}

impl Cache {
    /// Opens (creating it if needed) the cache at `dir` for the repository `repo`. Errors say
    /// why the directory cannot be used.
    pub fn open(dir: &Path, repo: &Path) -> Result<Cache, String> {
        prepare(dir)?;
        let auth = Key::load()?;
        let index = dir.join("files.tsv");
        let previous_written = std::fs::symlink_metadata(&index)
            .and_then(|m| m.modified())
            .ok();
        let previous = read_regular(&index)
            .and_then(|b| auth.open(INDEX, &b).map(<[u8]>::to_vec))
            .and_then(|b| String::from_utf8(b).ok())
            .map(|text| parse_index(&text))
            .unwrap_or_default();
        Ok(Cache {
            dir: dir.to_path_buf(),
            repo: repo.to_path_buf(),
            salt: salt(),
            auth,
            previous,
            previous_written,
            current: Mutex::new(HashMap::new()),
            listed: Mutex::new(HashMap::new()),
            hits: Default::default(),
            misses: Default::default(),
        })
    }

    /// The stored outcome under `key`, if there is a readable one.
    pub fn get(&self, key: &str) -> Option<JobOutcome> {
        let path = self.entry(key);
        let name = format!("jobs/{key}");
        let stored = read_regular(&path).and_then(|b| {
            let body = self.auth.open(&name, &b)?;
            serde_json::from_slice::<JobOutcome>(body).ok()
        });
        let Some(stored) = stored else {
            self.misses.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        self.hits.fetch_add(1, Ordering::Relaxed);
        // A used entry is young again, so trimming removes the unused ones first.
        let _ = std::fs::File::options()
            .append(true)
            .open(&path)
            .and_then(|f| f.set_modified(SystemTime::now()));
        Some(JobOutcome {
            duration_ms: 0,
            ..stored
        })
    }

    /// Stores a job's outcome under `key`. Outcomes that depend on the machine rather than on
    /// the files (a limit, an internal error) are not stored.
    pub fn put(&self, key: &str, outcome: &JobOutcome) {
        if outcome
            .diagnostics
            .iter()
            .any(|d| matches!(d.rule, Rule::InternalError | Rule::LimitExceeded))
        {
            return;
        }
        let stored = JobOutcome {
            duration_ms: 0,
            ..outcome.clone()
        };
        if let Ok(bytes) = serde_json::to_vec(&stored) {
            let sealed = self.auth.seal(&format!("jobs/{key}"), &bytes);
            let _ = write_atomic(&self.entry(key), &sealed);
        }
    }

    fn entry(&self, key: &str) -> PathBuf {
        self.dir.join("jobs").join(format!("{key}.json"))
    }

    /// How many jobs came from the cache and how many ran.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    /// Writes the file index and trims old entries. Failures only cost the next run time.
    pub fn finish(&self) {
        let current = match self.current.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut sorted: Vec<(&PathBuf, &FileStamp)> = current.iter().collect();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut text = String::new();
        for (path, s) in sorted {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                s.hash,
                s.len,
                s.mtime_ns,
                path.display()
            ));
        }
        let sealed = self.auth.seal(INDEX, text.as_bytes());
        let _ = write_atomic(&self.dir.join(INDEX), &sealed);
        trim(&self.dir.join("jobs"), MAX_ENTRIES);
    }

    /// The key of a job, or `None` when it must run (a notice, or an input that cannot be read).
    pub fn key(&self, job: &Job) -> Option<String> {
        if job.kind == JobKind::Notice {
            return None;
        }
        let mut h = Sha256::new();
        h.update(FORMAT);
        h.update([0]);
        h.update(&self.salt);
        h.update([0]);
        h.update(format!("{job:?}"));
        h.update([0]);
        for (name, value) in allowed_env(job) {
            h.update(name);
            h.update([0]);
            h.update(value);
            h.update([0]);
        }
        for file in self.inputs(job)? {
            let hash = self.file_hash(&file)?;
            h.update(file.to_string_lossy().as_bytes());
            h.update([0]);
            h.update(hash);
            h.update([0]);
        }
        Some(hex(&h.finalize()))
    }

    /// Every file under the job's inputs, sorted (symbolic links as themselves).
    fn inputs(&self, job: &Job) -> Option<Vec<PathBuf>> {
        let mut roots: Vec<PathBuf> = job.plain_files.iter().map(|f| self.repo.join(f)).collect();
        if let Ok(flags) = &job.flags {
            // `-f` inputs and values files (`[@lib:][+:]` and a path, in the explicit form of
            // `files::input` or ytt's `name=path`), `--data-value-file key=path`.
            let values_files = flags.dv_files.iter().map(|a| {
                let rest = crate::lint::config::parse::split_lib_ref(a).1;
                rest.strip_prefix("+:").unwrap_or(rest)
            });
            let inputs = flags.files.iter().map(String::as_str).chain(values_files);
            let mut named: Vec<Vec<&str>> = inputs
                .map(|a| vec![a, crate::files::input::path_of(a)])
                .collect();
            for kv in &flags.dv_file {
                named.push(vec![kv, kv.split_once('=').map_or(kv.as_str(), |(_, p)| p)]);
            }
            for candidates in named {
                for c in candidates {
                    // Only paths inside the repository (the configuration refuses others; a
                    // path that is not an input is no concern of the key either).
                    let p = crate::files::lexical_absolute(&job.repo, Path::new(c));
                    if p.starts_with(&job.repo) && std::fs::symlink_metadata(&p).is_ok() {
                        roots.push(p);
                    }
                }
            }
        }
        let mut files = Vec::new();
        for root in roots {
            files.extend(self.listed(root)?.iter().cloned());
        }
        files.sort();
        files.dedup();
        Some(files)
    }

    /// The files under `root` (see [`collect`]), listed once per run.
    fn listed(&self, root: PathBuf) -> Option<Arc<Vec<PathBuf>>> {
        if let Some(known) = self.listed.lock().ok()?.get(&root) {
            return known.clone();
        }
        let mut files = Vec::new();
        let found = collect(&root, &mut files).ok().map(|()| Arc::new(files));
        self.listed.lock().ok()?.insert(root, found.clone());
        found
    }

    /// The content hash of a file (of a symbolic link: of its target path), from the index when
    /// its size and modification time did not change; once per run.
    fn file_hash(&self, path: &Path) -> Option<String> {
        if let Some(known) = self.current.lock().ok()?.get(path) {
            return Some(known.hash.clone());
        }
        let meta = std::fs::symlink_metadata(path).ok()?;
        let mtime = meta.modified().ok()?;
        let stamp = |hash: String| FileStamp {
            len: meta.len(),
            mtime_ns: mtime
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
            hash,
        };
        let trusted = self.previous_written.is_some_and(|w| mtime + RACY < w);
        if let Some(prev) = self.previous.get(path).filter(|_| trusted) {
            if *prev == stamp(prev.hash.clone()) {
                self.current.lock().ok()?.insert(path.into(), prev.clone());
                return Some(prev.hash.clone());
            }
        }
        let bytes = if meta.file_type().is_symlink() {
            std::fs::read_link(path)
                .ok()?
                .to_string_lossy()
                .into_owned()
                .into_bytes()
        } else if meta.is_file() {
            std::fs::read(path).ok()?
        } else {
            // A FIFO or device is never read: its name is its content.
            Vec::new()
        };
        let hash = hex(&Sha256::digest(&bytes));
        self.current
            .lock()
            .ok()?
            .insert(path.into(), stamp(hash.clone()));
        Some(hash)
    }
}

/// Creates the cache directory `dir` if needed and checks it can be used: plain directories
/// only (a repository may hold a `.yttlint-cache` of its own making). Errors say why not.
pub fn prepare(dir: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "cache directory {} is a symbolic link; not using it",
            dir.display()
        ));
    }
    for sub in ["jobs", "runs"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|e| format!("cannot create cache directory {}: {e}", dir.display()))?;
    }
    // A repository may hold a `.yttlint-cache` of its own making: its parts must be plain
    // directories, or entries would be written wherever a symbolic link points.
    for part in [dir.to_path_buf(), dir.join("jobs"), dir.join("runs")] {
        if !std::fs::symlink_metadata(&part).is_ok_and(|m| m.is_dir()) {
            return Err(format!(
                "cache directory {} is not a plain directory; not using it",
                part.display()
            ));
        }
    }
    let _ = write_if_missing(&dir.join(".gitignore"), "# Created by yttlint.\n*\n");
    let _ = write_if_missing(
        &dir.join("CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n# yttlint's result cache.\n",
    );
    Ok(())
}

/// The version and the running executable's size and modification time.
pub(super) fn salt() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            format!("{}:{mtime}", m.len())
        })
        .unwrap_or_default();
    format!("{} {exe}", env!("CARGO_PKG_VERSION"))
}

/// The environment variables the job's `--data-values-env*` prefixes read, sorted.
fn allowed_env(job: &Job) -> Vec<(String, String)> {
    let Ok(flags) = &job.flags else {
        return Vec::new();
    };
    let prefixes: Vec<String> = flags
        .dv_env
        .iter()
        .chain(&flags.dv_env_yaml)
        .map(|p| format!("{p}_"))
        .collect();
    if prefixes.is_empty() {
        return Vec::new();
    }
    let mut vars: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| prefixes.iter().any(|p| k.starts_with(p.as_str())))
        .collect();
    vars.sort();
    vars
}

/// Adds `path` (a file, a symbolic link or a directory walked recursively) to `out`.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        if entry.file_name() == DIR_NAME {
            continue;
        }
        collect(&entry.path(), out)?;
    }
    Ok(())
}

fn parse_index(text: &str) -> HashMap<PathBuf, FileStamp> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, '\t');
            let hash = parts.next()?.to_string();
            let len = parts.next()?.parse().ok()?;
            let mtime_ns = parts.next()?.parse().ok()?;
            let path = PathBuf::from(parts.next()?);
            Some((
                path,
                FileStamp {
                    len,
                    mtime_ns,
                    hash,
                },
            ))
        })
        .collect()
}

/// The bytes of `path` if it is a regular file (never a FIFO, a device or a symbolic link).
pub(super) fn read_regular(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    std::fs::read(path).ok()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn write_if_missing(path: &Path, text: &str) -> std::io::Result<()> {
    if path.exists() {
        return Ok(());
    }
    write_atomic(path, text.as_bytes())
}

/// Writes through a temporary file in the same directory and renames it into place.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".tmp-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    // `create_new`: a file or symbolic link already at the temporary name is never followed.
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    f.write_all(bytes)?;
    drop(f);
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Removes the oldest entries beyond `keep`.
pub(super) fn trim(jobs: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(jobs) else {
        return;
    };
    let mut all: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let t = e.metadata().ok()?.modified().ok()?;
            Some((t, e.path()))
        })
        .collect();
    if all.len() <= keep {
        return;
    }
    all.sort();
    let excess = all.len() - keep;
    for (_, path) in all.into_iter().take(excess) {
        let _ = std::fs::remove_file(path);
    }
}
