//! The background linter: it waits until edits pause (a short debounce), lints the roots that
//! read the edited files with the buffers in place of the files, and publishes what it found
//! per file. Each edited file's roots are one run (a unit, see [`super::schedule`]); runs go on
//! side by side on the job threads, the last edited file's first, and each publishes as it
//! ends. A newer edit supersedes the runs that read the edited file: it cancels them (their
//! evaluation stops at the next budget check, see [`crate::eval::cancel`]), they publish
//! nothing (never from stale text), and their files are linted again with the newer text; the
//! other runs go on. Files that no longer have findings get an empty list. Each run starts
//! and ends with a line in the editor's log (`window/logMessage`): the files it lints, then
//! how long it took, or that it was cancelled.
//!
//! The jobs run with the command line's limits ([`Bounds`]): the evaluation's steps, depth,
//! heap and time, and a memory budget of each job's thread (a runaway root is that root's
//! `limit-exceeded` finding, not the end of the server).

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::schedule::{Schedule, Unit, PREEMPT_AFTER};
use crate::lint::discover::select::Selection;

use lsp_server::{Message, Notification};
use lsp_types::notification::{LogMessage, Notification as _, PublishDiagnostics};
use lsp_types::{LogMessageParams, MessageType, PublishDiagnosticsParams};

use super::diagnostics::convert;
use super::documents::Documents;
use super::project::Project;
use crate::eval::cancel::Flag;
use crate::lint::session;

/// How long edits must pause before a run starts: short, as a newer edit cancels a run.
pub const DEBOUNCE: Duration = Duration::from_millis(10);

/// What the server shares with the linter thread.
#[derive(Default)]
pub struct State {
    pub docs: Documents,
    pub project: Option<Arc<Project>>,
}

pub type SharedState = Arc<Mutex<State>>;

/// Where messages to the editor go.
pub type Send = Box<dyn Fn(Message) -> bool + std::marker::Send>;

enum Work {
    Files(Vec<PathBuf>),
    /// Forget what was published and lint everything open again (a reloaded project).
    All(Vec<PathBuf>),
    /// A run ended: its unit's id, and what it found (`None`: it panicked).
    Done(u64, Option<Found>, u128),
    Stop,
}

/// The handle of the linter thread.
pub struct Linter {
    tx: mpsc::Sender<Work>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The findings published, by the root (or library) that produced them, then by file.
type Published = HashMap<String, HashMap<PathBuf, Vec<lsp_types::Diagnostic>>>;

/// What bounds the jobs of the server's runs, as the command line bounds a worker's: the
/// memory of the default `--memory-limit` less the main process's part, shared by the job
/// threads (the evaluation's heap limit at three quarters of a share, each job thread's
/// allocations refused past its share), and the engine's time limit of the default
/// `--job-timeout` (four fifths of it).
pub struct Bounds {
    pub soft: usize,
    pub hard: usize,
}

/// The memory of the server's jobs (`yttlint server --memory-limit`).
static MEMORY: AtomicU64 = AtomicU64::new(crate::lint::run::budget::DEFAULT_MEMORY);

impl Bounds {
    /// Sets the memory of the server's jobs (before they start).
    pub fn set_memory(bytes: u64) {
        MEMORY.store(bytes, Ordering::Relaxed);
    }

    /// The bounds of each of the job threads of this process.
    pub fn current() -> Bounds {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Bounds::for_threads(threads, MEMORY.load(Ordering::Relaxed))
    }

    fn for_threads(threads: usize, memory: u64) -> Bounds {
        let share = (memory - crate::lint::run::budget::main_part(memory)) / threads.max(1) as u64;
        let share = usize::try_from(share).unwrap_or(usize::MAX);
        Bounds {
            soft: share / 4 * 3,
            hard: share,
        }
    }
}

impl Linter {
    /// Starts the thread; it publishes through `send`.
    pub fn start(state: SharedState, send: Send) -> Linter {
        let (tx, rx) = mpsc::channel();
        let done = tx.clone();
        let thread = std::thread::Builder::new()
            .name("yttlint-lsp-lint".into())
            .spawn(move || run(&rx, &done, &state, &send))
            .ok();
        Linter { tx, thread }
    }

    /// Lints the roots that read `files` (absolute paths) once edits pause, the first file's
    /// first; the runs going on that read them are cancelled (called after the documents
    /// changed).
    pub fn lint(&self, files: Vec<PathBuf>) {
        let _ = self.tx.send(Work::Files(files));
    }

    /// Lints `files` again from scratch (after the configuration changed).
    pub fn relint(&self, files: Vec<PathBuf>) {
        let _ = self.tx.send(Work::All(files));
    }

    /// Stops the thread (the runs going on are cancelled first).
    pub fn stop(mut self) {
        let _ = self.tx.send(Work::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The linter thread: takes edits and ended runs, starts runs when edits pause.
fn run(rx: &mpsc::Receiver<Work>, done: &mpsc::Sender<Work>, state: &SharedState, send: &Send) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bounds = Bounds::current();
    let runners = threads.max(2);
    let mut published: Published = HashMap::new();
    let mut schedule = Schedule::default();
    // Versions of the open documents when each run started.
    let mut versions: HashMap<u64, HashMap<PathBuf, i32>> = HashMap::new();
    let mut last_edit = Instant::now();
    loop {
        let now = Instant::now();
        let quiet = last_edit + DEBOUNCE;
        let work = if schedule.queue.is_empty() || schedule.running.len() >= runners {
            rx.recv_timeout(if schedule.running.is_empty() {
                Duration::from_secs(3600)
            } else {
                PREEMPT_AFTER
            })
        } else {
            rx.recv_timeout(quiet.saturating_duration_since(now))
        };
        match work {
            Ok(Work::Stop) | Err(RecvTimeoutError::Disconnected) => {
                schedule.cancel_all();
                return;
            }
            Ok(Work::Files(files)) => {
                last_edit = Instant::now();
                edited(&files, state, &mut schedule);
            }
            Ok(Work::All(files)) => {
                last_edit = Instant::now();
                schedule.cancel_all();
                let mut all: Vec<PathBuf> = files;
                for by_file in published.values() {
                    all.extend(by_file.keys().cloned());
                }
                all.sort();
                all.dedup();
                edited(&all, state, &mut schedule);
            }
            Ok(Work::Done(id, found, took)) => {
                let run_versions = versions.remove(&id);
                let Some(ended) = schedule.finished(id) else {
                    // Cancelled meanwhile: its files are queued again.
                    log(
                        send,
                        format!("yttlint: run cancelled by a newer edit after {took} ms"),
                    );
                    continue;
                };
                if let (Some(found), Some(v)) = (found, run_versions) {
                    let Ok(s) = state.lock() else { return };
                    let roots = found.roots;
                    publish(found, &ended.unit.files, &s.docs, &v, &mut published, send);
                    drop(s);
                    log(send, format!("yttlint: {roots} job(s) linted in {took} ms"));
                }
                crate::malloc::give_back();
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if Instant::now() < last_edit + DEBOUNCE {
            continue;
        }
        schedule.preempt(runners, Instant::now());
        while let Some(started) = schedule.start_next(runners, || {
            Flag::new().with_memory(bounds.soft, bounds.hard)
        }) {
            let (project, snapshot) = match state.lock() {
                Ok(s) => (s.project.clone(), s.docs.versions()),
                Err(_) => return,
            };
            let Some(project) = project else {
                continue;
            };
            let id = started.id;
            let unit = started.unit.clone();
            let flag = started.flag.clone();
            versions.insert(id, snapshot);
            log(send, started_line(&unit.files));
            schedule.running.push(started);
            let done = done.clone();
            let spawned = std::thread::Builder::new()
                .name("yttlint-lsp-run".into())
                .stack_size(1 << 26)
                .spawn(move || {
                    let began = Instant::now();
                    // A run that panics (it never should: jobs are guarded) publishes nothing.
                    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        lint(&project, &unit, &flag)
                    }))
                    .ok();
                    let _ = done.send(Work::Done(id, found, began.elapsed().as_millis()));
                });
            if spawned.is_err() {
                schedule.finished(id);
                versions.remove(&id);
            }
        }
    }
}

/// Queues the units of the edited `files` (the first file's last, so that it runs first) and
/// cancels the runs they make stale.
fn edited(files: &[PathBuf], state: &SharedState, schedule: &mut Schedule) {
    let project = match state.lock() {
        Ok(s) => s.project.clone(),
        Err(_) => return,
    };
    for file in files.iter().rev() {
        let selection = match &project {
            Some(p) => p.select(std::slice::from_ref(file)),
            None => Selection::default(),
        };
        schedule.cancel_overlapping(&selection);
        let unit = Unit {
            selection,
            files: vec![file.clone()],
            edited: true,
        };
        schedule.queue(unit, true);
    }
}

/// The log line of a run that starts (read by the tests: a run that has started is one an
/// edit cancels, never one it merges with).
fn started_line(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    format!("yttlint: run started for {}", names.join(", "))
}

/// A line in the editor's log.
fn log(send: &Send, message: String) {
    let params = LogMessageParams {
        typ: MessageType::LOG,
        message,
    };
    send(Message::Notification(Notification::new(
        LogMessage::METHOD.to_string(),
        params,
    )));
}

/// What one run found: the keys (roots, libraries) it linted and their findings by file.
pub struct Found {
    keys: Vec<String>,
    by_key: Published,
    /// How many jobs ran.
    roots: usize,
}

fn lint(project: &Project, unit: &Unit, flag: &Flag) -> Found {
    let selection = unit.selection.clone();
    let mut keys: Vec<String> = Vec::new();
    let planned = project.planned(selection);
    for &i in &planned.selection.roots {
        if let Some(r) = planned.discovery.roots.get(i) {
            keys.push(r.name.clone());
            keys.push(r.path.clone());
        }
    }
    for &i in &planned.selection.libraries {
        if let Some(l) = planned.discovery.libraries.get(i) {
            keys.push(l.path.clone());
        }
    }
    let mut by_key: Published = HashMap::new();
    let nothing = planned.selection.roots.is_empty()
        && planned.selection.libraries.is_empty()
        && planned.selection.plain.is_empty();
    if nothing {
        return Found {
            keys,
            by_key,
            roots: 0,
        };
    }
    let settings = session::Settings {
        cancel: Some(flag.clone()),
        ..project.settings.clone()
    };
    let linted = match session::lint(&settings, &planned) {
        Ok(mut l) => {
            crate::lint::post::finish(&mut l.report, &l.sources, None);
            l
        }
        Err(_) => {
            return Found {
                keys,
                by_key,
                roots: 0,
            }
        }
    };
    let roots = linted.report.roots.len();
    for status in &linted.report.roots {
        keys.push(status.path.clone());
    }
    for d in &linted.report.diagnostics {
        let key = d.root.clone().unwrap_or_default();
        // A finding about the whole root is shown at the root's configuration or first file.
        let placed;
        let d = match (&d.span, project.whole_root_span(d.root.as_deref())) {
            (None, Some(span)) => {
                placed = crate::report::Diagnostic {
                    span: Some(span),
                    ..d.clone()
                };
                &placed
            }
            _ => d,
        };
        let Some((file, diagnostic)) = convert(d, project.dir(), &linted.sources) else {
            continue;
        };
        keys.push(key.clone());
        by_key
            .entry(key)
            .or_default()
            .entry(file)
            .or_default()
            .push(diagnostic);
    }
    keys.sort();
    keys.dedup();
    Found {
        keys,
        by_key,
        roots,
    }
}

/// Replaces the findings of the keys linted and publishes every file whose list changed (and
/// the files linted, even when nothing changed for them).
fn publish(
    found: Found,
    files: &[PathBuf],
    docs: &Documents,
    versions: &HashMap<PathBuf, i32>,
    published: &mut Published,
    send: &Send,
) {
    let mut touched: BTreeSet<PathBuf> = files.iter().cloned().collect();
    for key in &found.keys {
        if let Some(old) = published.remove(key) {
            touched.extend(old.into_keys());
        }
    }
    for (key, by_file) in found.by_key {
        touched.extend(by_file.keys().cloned());
        published.insert(key, by_file);
    }
    for file in touched {
        let mut all: Vec<lsp_types::Diagnostic> = published
            .values()
            .filter_map(|m| m.get(&file))
            .flatten()
            .cloned()
            .collect();
        all.sort_by(|a, b| (a.range.start, &a.message).cmp(&(b.range.start, &b.message)));
        all.dedup();
        let Some(uri) = docs
            .get(&file)
            .map(|d| d.uri.clone())
            .or_else(|| super::positions::path_uri(&file))
        else {
            continue;
        };
        // The version the run read (a document opened since has none in it).
        let version = match docs.get(&file) {
            Some(_) => versions.get(&file).copied(),
            None => None,
        };
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics: all,
            version,
        };
        let note = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
        if !send(Message::Notification(note)) {
            return;
        }
    }
}
