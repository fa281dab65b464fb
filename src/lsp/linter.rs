//! The background linter: it waits until edits pause (a short debounce), lints the roots that
//! read the edited files with the buffers in place of the files, and publishes what it found
//! per file. A newer edit supersedes a run: it cancels the run going on (its evaluation stops
//! at the next budget check, see [`crate::eval::cancel`]), the run publishes nothing (never
//! from stale text), and the files are linted again with the newer text. Files that no longer
//! have findings get an empty list. Each run ends with a line in the editor's log
//! (`window/logMessage`): how long it took, or that it was cancelled.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    Stop,
}

/// The handle of the linter thread.
pub struct Linter {
    tx: mpsc::Sender<Work>,
    thread: Option<std::thread::JoinHandle<()>>,
    running: Running,
}

/// The cancellation flag of the run going on, if one is.
type Running = Arc<Mutex<Option<Flag>>>;

/// The findings published, by the root (or library) that produced them, then by file.
type Published = HashMap<String, HashMap<PathBuf, Vec<lsp_types::Diagnostic>>>;

impl Linter {
    /// Starts the thread; it publishes through `send`.
    pub fn start(state: SharedState, send: Send) -> Linter {
        let (tx, rx) = mpsc::channel();
        let running: Running = Arc::default();
        let flag = running.clone();
        let thread = std::thread::Builder::new()
            .name("yttlint-lsp-lint".into())
            .stack_size(1 << 26)
            .spawn(move || run(&rx, &state, &flag, &send))
            .ok();
        Linter {
            tx,
            thread,
            running,
        }
    }

    /// Lints the roots that read `files` (absolute paths) once edits pause; the run going on
    /// is cancelled (called after the documents changed).
    pub fn lint(&self, files: Vec<PathBuf>) {
        self.cancel();
        let _ = self.tx.send(Work::Files(files));
    }

    /// Lints `files` again from scratch (after the configuration changed).
    pub fn relint(&self, files: Vec<PathBuf>) {
        self.cancel();
        let _ = self.tx.send(Work::All(files));
    }

    /// Cancels the run going on: it stops early and publishes nothing.
    fn cancel(&self) {
        if let Some(flag) = self.running.lock().ok().as_deref().and_then(Option::as_ref) {
            flag.cancel();
        }
    }

    /// Stops the thread (a run going on is cancelled first).
    pub fn stop(mut self) {
        self.cancel();
        let _ = self.tx.send(Work::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn run(rx: &mpsc::Receiver<Work>, state: &SharedState, running: &Running, send: &Send) {
    let mut published: Published = HashMap::new();
    let mut pending: BTreeSet<PathBuf> = BTreeSet::new();
    let take = |w: Work, pending: &mut BTreeSet<PathBuf>, published: &mut Published| match w {
        Work::Files(f) => {
            pending.extend(f);
            true
        }
        Work::All(f) => {
            for files in published.values() {
                pending.extend(files.keys().cloned());
            }
            pending.extend(f);
            true
        }
        Work::Stop => false,
    };
    loop {
        if pending.is_empty() {
            let Ok(w) = rx.recv() else { return };
            if !take(w, &mut pending, &mut published) {
                return;
            }
        }
        // The debounce: wait until no edit comes for a while.
        loop {
            match rx.recv_timeout(DEBOUNCE) {
                Ok(w) => {
                    if !take(w, &mut pending, &mut published) {
                        return;
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        // The flag is in place before the documents are read: an edit after this point
        // cancels the run, one before it is in the run's text.
        let flag = Flag::new();
        if let Ok(mut r) = running.lock() {
            *r = Some(flag.clone());
        }
        let (project, versions) = match state.lock() {
            Ok(s) => (s.project.clone(), s.docs.versions()),
            Err(_) => return,
        };
        let Some(project) = project else {
            pending.clear();
            continue;
        };
        let files: Vec<PathBuf> = pending.iter().cloned().collect();
        let started = Instant::now();
        // A run that panics (it never should: jobs are guarded) publishes nothing, and the
        // thread goes on with the next edit.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            lint(&project, &files, &flag)
        }));
        if let Ok(mut r) = running.lock() {
            *r = None;
        }
        let took = started.elapsed().as_millis();
        let Ok(found) = run else {
            pending.clear();
            continue;
        };
        let Ok(s) = state.lock() else { return };
        if flag.is_cancelled()
            || s.docs.versions() != versions
            || !s.project.as_ref().is_some_and(|p| Arc::ptr_eq(p, &project))
        {
            // Superseded: an edit came during the run; the next round lints it.
            drop(s);
            log(
                send,
                format!("yttlint: run cancelled by a newer edit after {took} ms"),
            );
            continue;
        }
        let roots = found.roots;
        publish(found, &files, &s.docs, &mut published, send);
        drop(s);
        pending.clear();
        crate::malloc::give_back();
        log(send, format!("yttlint: {roots} job(s) linted in {took} ms"));
    }
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
struct Found {
    keys: Vec<String>,
    by_key: Published,
    /// How many jobs ran.
    roots: usize,
}

fn lint(project: &Project, files: &[PathBuf], flag: &Flag) -> Found {
    let selection = project.select(files);
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
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics: all,
            version: docs.get(&file).map(|d| d.version),
        };
        let note = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
        if !send(Message::Notification(note)) {
            return;
        }
    }
}
