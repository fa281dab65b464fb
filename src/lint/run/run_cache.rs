//! The whole-run cache: the report of a run (findings with levels and suppressions applied,
//! and the status of every job) stored under a key made of yttlint's version and executable,
//! what the run was asked (configuration, paths, shard, limits, allowed environment values)
//! and the fingerprint of the repository ([`crate::lint::repo::listing`]). A second run on an unchanged
//! repository takes its report from here without discovering the repository or reading a file;
//! when anything changed, the run discovers again and takes the unchanged jobs from the job
//! cache ([`crate::lint::run::cache`]).
//!
//! Entries live in `runs/<key>.json` of the cache directory, written atomically; only
//! [`MAX_RUNS`] are kept. A run whose repository had files modified in the last seconds before
//! it started is not stored (they could change again within the same timestamp), nor is one
//! with a finding that depends on the machine (an internal error, a limit).

use crate::report::Rule;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::lint::repo::listing;
use crate::lint::run::cache;
use crate::report::coverage::RootCoverage;
use crate::report::{Diagnostic, Report, RootStatus};

/// Run reports kept at most; older ones are removed when one is stored.
pub const MAX_RUNS: usize = 64;

/// Format of the entries: bump when [`Stored`] or the key changes meaning.
const FORMAT: &str = "yttlint-run-3";

#[derive(Serialize, Deserialize)]
struct Stored {
    roots: Vec<RootStatus>,
    diagnostics: Vec<Diagnostic>,
    coverage: Vec<RootCoverage>,
    #[serde(default)]
    unchecked_kinds: Vec<String>,
    /// The ytt documents written as strings in other files that the run checked.
    #[serde(default)]
    strings: usize,
}

/// What a run stored in the cache, beside its report.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    pub coverage: Vec<RootCoverage>,
    pub unchecked_kinds: Vec<String>,
    /// The ytt documents written as strings in other files that the run checked.
    pub strings: usize,
}

/// The run's place in the cache.
pub struct RunCache {
    runs: PathBuf,
    key: String,
    /// Whether the run may be stored (no file was modified too recently).
    storable: bool,
    /// Signs and checks the entry.
    auth: super::cache_auth::Key,
}

impl RunCache {
    /// The entry of a run of the repository `repo` asked `asked` (a description of everything
    /// besides the repository's files that decides the report), in the cache directory `dir`.
    /// `None` when the cache or the repository cannot be used (the run then just runs).
    pub fn open(dir: &Path, repo: &Path, asked: &str) -> Option<RunCache> {
        let runs = dir.join("runs");
        // Made plain directories by [`cache::prepare`]; checked again in case they changed.
        let plain = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
        if !plain(dir) || !plain(&runs) {
            return None;
        }
        let auth = super::cache_auth::Key::load().ok()?;
        let listing = listing::list(repo, Some(dir))?;
        let mut h = Sha256::new();
        for part in [FORMAT, &cache::salt(), asked, &listing.digest] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        Some(RunCache {
            runs,
            key: cache::hex(&h.finalize()),
            storable: !listing.racy,
            auth,
        })
    }

    fn entry(&self) -> PathBuf {
        self.runs.join(format!("{}.json", self.key))
    }

    /// The stored report and what came with it, if there is a readable one. Jobs taken from
    /// it took no time.
    pub fn get(&self) -> Option<(Report, Extras)> {
        let path = self.entry();
        let bytes = cache::read_regular(&path)?;
        let body = self.auth.open(&format!("runs/{}", self.key), &bytes)?;
        let stored: Stored = serde_json::from_slice(body).ok()?;
        // A used entry is young again, so trimming removes the unused ones first.
        let _ = std::fs::File::options()
            .append(true)
            .open(&path)
            .and_then(|f| f.set_modified(std::time::SystemTime::now()));
        let mut roots = stored.roots;
        for r in &mut roots {
            r.duration_ms = 0;
        }
        let report = Report {
            roots,
            diagnostics: stored.diagnostics,
        };
        let extras = Extras {
            coverage: stored.coverage,
            unchecked_kinds: stored.unchecked_kinds,
            strings: stored.strings,
        };
        Some((report, extras))
    }

    /// Stores the report and coverage of the run (and how many ytt strings it checked),
    /// unless they must not be reused.
    pub fn put(
        &self,
        report: &Report,
        coverage: &[RootCoverage],
        unchecked_kinds: &[String],
        strings: usize,
    ) {
        let machine = report
            .diagnostics
            .iter()
            .any(|d| matches!(d.rule, Rule::InternalError | Rule::LimitExceeded));
        if !self.storable || machine {
            return;
        }
        let stored = Stored {
            roots: report.roots.clone(),
            diagnostics: report.diagnostics.clone(),
            coverage: coverage.to_vec(),
            unchecked_kinds: unchecked_kinds.to_vec(),
            strings,
        };
        if let Ok(bytes) = serde_json::to_vec(&stored) {
            let sealed = self.auth.seal(&format!("runs/{}", self.key), &bytes);
            let _ = cache::write_atomic(&self.entry(), &sealed);
        }
        cache::trim(&self.runs, MAX_RUNS);
    }
}
