//! The worker process of an isolated run (`yttlint __worker LIMIT HEAP TIMEOUT_MS SHARE
//! PAGE`, started by [`crate::lint::run::pool`]; PAGE is the descriptor or handle of its
//! position page, 0 for none): limits its own memory, then reads jobs from
//! standard input, one JSON line each, runs them one at a time and writes each outcome as one
//! JSON line. Whatever a job does to the process (an abort, an allocation failure, a crash)
//! ends only this process; the parent reports the job it was running (at the file and line the
//! worker last wrote in the page it shares with it, see [`crate::lint::run::position`]) and
//! starts another worker for the rest.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::files::overlay::Buffers;
use crate::lint::job::repo_crds::{FiledCrd, RepoCrds};
use crate::lint::job::{run_job, Job, JobOutcome, OnFile};
use crate::lint::run::guard::{caught, evaluating, evaluating_line, note_panic_file};
use crate::lint::run::position::Page;

/// The hidden command that runs a worker.
pub const COMMAND: &str = "__worker";

/// The first line a worker writes once it is ready.
pub const READY: &str = "ready";

/// Native stack of the thread that runs the jobs (as the threads of an in-process run).
pub const STACK_BYTES: u64 = 256 << 20;

/// One job sent to a worker. A job's list of the repository's CRDs travels as its digest
/// ([`RepoCrds`]); the list itself comes with the first job that needs it. The texts that stand
/// in for files (`--diff`'s fixed files, see [`crate::files::overlay`]) come with every job
/// while there are any.
#[derive(Serialize)]
pub struct Request<'a> {
    pub index: usize,
    pub job: &'a Job,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crds: Option<&'a [FiledCrd]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffers: Option<BTreeMap<&'a Path, String>>,
}

/// The overlay's buffers as a request carries them (they are the texts of fixed files, UTF-8).
pub fn buffers(overlay: &Buffers) -> BTreeMap<&Path, String> {
    let text = |bytes: &Arc<[u8]>| String::from_utf8_lossy(bytes).into_owned();
    overlay
        .iter()
        .map(|(path, bytes)| (path.as_path(), text(bytes)))
        .collect()
}

/// [`Request`] as the worker reads it.
#[derive(Deserialize)]
struct Received {
    index: usize,
    job: Job,
    #[serde(default)]
    crds: Option<Vec<FiledCrd>>,
    #[serde(default)]
    buffers: Option<BTreeMap<PathBuf, String>>,
}

/// What a worker sends back for one job.
#[derive(Serialize, Deserialize)]
pub struct Response {
    pub index: usize,
    pub outcome: JobOutcome,
    /// The worker ends after this job (it panicked, and the process may hold a broken state).
    pub last: bool,
}

/// Runs the worker with its arguments (after the command); returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let numbers: Option<Vec<u64>> = args.iter().map(|a| a.parse().ok()).collect();
    let Some(&[limit, heap, timeout_ms, share, page]) = numbers.as_deref() else {
        eprintln!(
            "yttlint: {COMMAND} is started by yttlint itself (LIMIT HEAP TIMEOUT_MS SHARE PAGE)"
        );
        return 2;
    };
    // Without its page (0: none given) the worker still runs: its findings lose their place.
    let page = (page != 0).then(|| Page::open(page).ok()).flatten();
    let protocol = match crate::platform::process::take_stdout() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("yttlint worker: cannot set up its output: {e}");
            return 2;
        }
    };
    if let Err(e) = crate::platform::process::limit_own_memory(limit) {
        eprintln!("yttlint worker: cannot limit its memory to {limit} bytes: {e}");
        return 2;
    }
    crate::malloc::for_limit(share);
    crate::eval::limits::set_process_defaults(heap, Duration::from_millis(timeout_ms));
    crate::yaml::shared::limit_to_heap(heap);
    crate::eval::ready::keep(crate::eval::ready::WORKER_KEEPS);
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(at) = info.location() {
            note_panic_file(at.file());
        }
        report(info);
    }));
    let thread = std::thread::Builder::new()
        .name("yttlint-worker".into())
        .stack_size(usize::try_from(STACK_BYTES).unwrap_or(usize::MAX))
        .spawn(move || serve(protocol, page));
    match thread.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => 70,
        Err(e) => {
            eprintln!("yttlint worker: cannot start its thread: {e}");
            2
        }
    }
}

/// Reads jobs until standard input ends. After a job that panicked the worker stops (the
/// process may hold a broken state); the parent starts another.
fn serve(protocol: File, page: Option<Page>) -> i32 {
    PROTOCOL.with(|p| {
        *p.borrow_mut() = Some(Protocol {
            out: BufWriter::new(protocol),
            page,
        })
    });
    if send(READY).is_err() {
        return 2;
    }
    let mut crds: Option<RepoCrds> = None;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return 2 };
        let mut received: Received = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("yttlint worker: unreadable job: {e}");
                return 2;
            }
        };
        if let Some(docs) = received.crds.take() {
            crds = Some(RepoCrds::new(docs));
        }
        if let (Some(check), Some(full)) = (received.job.kubernetes.as_mut(), &crds) {
            // A list that does not match stays detached: the job reports it.
            check.crds.attach(full);
        }
        let texts = received.buffers.take().unwrap_or_default();
        let bytes = |(path, text): (PathBuf, String)| (path, Arc::from(text.into_bytes()));
        crate::files::overlay::set(texts.into_iter().map(bytes).collect());
        in_file(None, 0);
        let (outcome, panicked) = caught(&received.job, &|job| run_job(job, IN_WORKER));
        let response = Response {
            index: received.index,
            outcome,
            last: panicked,
        };
        let sent = serde_json::to_string(&response)
            .map_err(std::io::Error::other)
            .and_then(|line| send(&line));
        drop(response);
        crate::malloc::limit::relieve();
        if sent.is_err() {
            return 2;
        }
        if panicked {
            return 0;
        }
    }
    // Standard input ended: every outcome is sent (each line is flushed). The process ends
    // here, from this thread, so that its caches (the parsed YAML and compiled templates of
    // the thread-local caches, tens of MiB) are not dropped one node at a time on the way out:
    // the system takes the memory back whole (0.6 % of the corpus run's CPU, the
    // thirty-second session).
    std::process::exit(0)
}

/// The worker's channel to its parent, and the page where it says where a job is.
struct Protocol {
    out: BufWriter<File>,
    page: Option<Page>,
}

thread_local! {
    static PROTOCOL: RefCell<Option<Protocol>> = const { RefCell::new(None) };
}

/// Writes one line to the parent.
fn send(line: &str) -> std::io::Result<()> {
    PROTOCOL.with(|p| match p.borrow_mut().as_mut() {
        Some(p) => writeln!(p.out, "{line}").and_then(|()| p.out.flush()),
        None => Err(std::io::Error::other("no protocol channel")),
    })
}

/// Where a job that runs in the worker is: noted for a panic, and written in the page the
/// parent reads when the worker dies.
const IN_WORKER: OnFile = OnFile {
    file: in_file,
    line: at_line,
};

/// The running job evaluates the file at repository path `path`, at `line` (0: not known).
fn in_file(path: Option<&str>, line: u32) {
    evaluating(path, line);
    PROTOCOL.with(|p| {
        if let Some(page) = p.borrow_mut().as_mut().and_then(|p| p.page.as_mut()) {
            page.set_file(path, line);
        }
    });
}

/// The running job is at `line` of its file.
fn at_line(line: u32) {
    evaluating_line(line);
    PROTOCOL.with(|p| {
        if let Some(page) = p.borrow().as_ref().and_then(|p| p.page.as_ref()) {
            page.set_line(line);
        }
    });
}
