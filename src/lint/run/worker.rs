//! The worker process of an isolated run (`yttlint __worker LIMIT HEAP TIMEOUT_MS`, started by
//! [`crate::lint::run::pool`]): limits its own memory, then reads jobs from standard input, one JSON line
//! each, runs them one at a time and writes each outcome as one JSON line. Whatever a job does
//! to the process (an abort, an allocation failure, a crash) ends only this process; the parent
//! reports the job it was running (in the file the worker last said it evaluated, see
//! [`at_file`]) and starts another worker for the rest.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufRead, BufWriter, Write};
use std::os::fd::FromRawFd;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lint::job::{run_job, Job, JobOutcome};
use crate::lint::run::guard::{caught, evaluating, note_panic_file};

/// The hidden command that runs a worker.
pub const COMMAND: &str = "__worker";

/// The first line a worker writes once it is ready.
pub const READY: &str = "ready";

/// The start of a line saying which file the running job evaluates (a JSON string follows).
pub const AT: &str = "at ";

/// Native stack of the thread that runs the jobs (as the threads of an in-process run).
pub const STACK_BYTES: u64 = 256 << 20;

/// One job sent to a worker.
#[derive(Serialize)]
pub struct Request<'a> {
    pub index: usize,
    pub job: &'a Job,
}

/// [`Request`] as the worker reads it.
#[derive(Deserialize)]
struct Received {
    index: usize,
    job: Job,
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
    let Some(&[limit, heap, timeout_ms]) = numbers.as_deref() else {
        eprintln!("yttlint: {COMMAND} is started by yttlint itself (LIMIT HEAP TIMEOUT_MS)");
        return 2;
    };
    let protocol = match protocol_output() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("yttlint worker: cannot set up its output: {e}");
            return 2;
        }
    };
    if let Err(e) = limit_memory(limit) {
        eprintln!("yttlint worker: cannot limit its memory to {limit} bytes: {e}");
        return 2;
    }
    crate::eval::limits::set_process_defaults(heap, Duration::from_millis(timeout_ms));
    crate::yaml::shared::limit_to_heap(heap);
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
        .spawn(move || serve(protocol));
    match thread.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => 70,
        Err(e) => {
            eprintln!("yttlint worker: cannot start its thread: {e}");
            2
        }
    }
}

/// Standard output becomes the protocol's channel alone: the process's descriptor 1 is pointed
/// at standard error, so that nothing else written to standard output can corrupt a message.
fn protocol_output() -> std::io::Result<File> {
    // SAFETY: dup and dup2 on the process's own standard descriptors; the new descriptor is
    // owned by the returned File alone.
    unsafe {
        let fd = libc::dup(1);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(File::from_raw_fd(fd))
    }
}

/// Limits the process's data (heap, anonymous mappings, thread stacks, reserved or used) to
/// `bytes`: an allocation beyond it fails, and the process ends. (The parent holds the
/// worker's resident memory to its share; this is the backstop.)
fn limit_memory(bytes: u64) -> std::io::Result<()> {
    let value = libc::rlim_t::try_from(bytes).unwrap_or(libc::RLIM_INFINITY);
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: setrlimit reads the struct given and changes only this process's limits.
    if unsafe { libc::setrlimit(libc::RLIMIT_DATA, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Reads jobs until standard input ends. After a job that panicked the worker stops (the
/// process may hold a broken state); the parent starts another.
fn serve(protocol: File) -> i32 {
    PROTOCOL.with(|p| {
        *p.borrow_mut() = Some(Protocol {
            out: BufWriter::new(protocol),
            at: None,
        })
    });
    if send(READY).is_err() {
        return 2;
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return 2 };
        let received: Received = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("yttlint worker: unreadable job: {e}");
                return 2;
            }
        };
        let (outcome, panicked) = caught(&received.job, &|job| run_job(job, on_file));
        let response = Response {
            index: received.index,
            outcome,
            last: panicked,
        };
        let sent = serde_json::to_string(&response)
            .map_err(std::io::Error::other)
            .and_then(|line| send(&line));
        PROTOCOL.with(|p| {
            if let Some(p) = p.borrow_mut().as_mut() {
                p.at = None;
            }
        });
        if sent.is_err() {
            return 2;
        }
        if panicked {
            return 0;
        }
    }
    0
}

/// The worker's channel to its parent, and the file it last said a job was in.
struct Protocol {
    out: BufWriter<File>,
    at: Option<String>,
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

/// What a job running in the worker is told of each file it enters: noted for a panic, and
/// sent to the parent, which then knows where a worker that dies was.
fn on_file(path: &str) {
    evaluating(path);
    at_file(path);
}

/// Tells the parent that the running job now evaluates the file at repository path `path`
/// (when it was in another), so that a job that ends the process (out of memory, out of time)
/// gets a finding in that file. Nothing happens outside a worker.
fn at_file(path: &str) {
    let changed = PROTOCOL.with(|p| match p.borrow_mut().as_mut() {
        Some(p) if p.at.as_deref() != Some(path) => {
            p.at = Some(path.to_string());
            true
        }
        _ => false,
    });
    if changed {
        if let Ok(quoted) = serde_json::to_string(path) {
            let _ = send(&format!("{AT}{quoted}"));
        }
    }
}
