//! Isolated runs: the jobs run in worker processes (the yttlint binary re-executed as
//! [`crate::lint::run::worker`]), each limited to its share of the run's memory (what the main
//! process does not keep, see [`crate::lint::run::budget`]): the worker refuses an allocation
//! that would take its resident memory beyond its share ([`crate::malloc::limit`]), this
//! process watches its resident memory too, and the operating system's `RLIMIT_DATA` bounds
//! what it reserves. Each job is limited in wall-clock time by this process. A worker runs many
//! jobs one after the other, so that a run starts few processes. When a worker dies (an abort,
//! a crash, an allocation beyond its limit) or runs out of time, the job it was running gets a
//! `limit-exceeded` or `internal-error` finding at the file and line the worker was at
//! ([`crate::lint::run::position`]), and a new worker takes the remaining jobs: every other
//! job's findings are kept.

use crate::report::Rule;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::lint::job::{run_job, Job, JobKind, JobOutcome};
use crate::lint::plan::queue::Queue;
use crate::lint::run::budget::main_part;
use crate::lint::run::deadline::Deadline;
use crate::lint::run::ended::{last_words, tail, End};
use crate::lint::run::guard::{caught, elapsed_ms, IN_THREAD};
use crate::lint::run::position::Page;
use crate::lint::run::progress::Progress;
use crate::lint::run::worker::{Request, Response, COMMAND, READY, STACK_BYTES};
use crate::lint::run::Deliver;
use crate::report::Diagnostic;

/// How an isolated run is limited.
#[derive(Clone, Debug)]
pub struct Isolation {
    /// The yttlint binary the workers run.
    pub exe: PathBuf,
    /// Memory of the whole run, in bytes: the main process's part, and the workers' shares.
    pub memory: u64,
    /// Wall-clock time of one job.
    pub job_timeout: Duration,
}

/// The least memory a worker gets: fewer workers run when the run's memory is too small to
/// give each this much (one worker gets what there is).
const MIN_SHARE: u64 = 128 << 20;

/// What a worker process reserves besides the heap of its evaluations: the program's own data
/// and the (mostly untouched) stack of the thread that runs the jobs.
const OVERHEAD: u64 = STACK_BYTES + (64 << 20);

/// Memory a worker may reserve without using it, beyond twice its share: the operating
/// system's limit (`RLIMIT_DATA`) counts reserved memory, and an evaluation reserves much that
/// it never touches (starlark reserves a buffer of 1 MB for each module being evaluated, so
/// 4 900 nested `load()`s reserve 4.9 GB and use 190 MB). The share itself is held by this
/// process, which watches each worker's resident memory ([`POLL`]).
const RESERVED: u64 = 8 << 30;

/// How often a worker's resident memory is checked against its share.
const POLL: Duration = Duration::from_millis(20);

/// How long a new worker may take to say it is ready.
const START_TIMEOUT: Duration = Duration::from_secs(30);

impl Isolation {
    /// The memory the workers share: what the main process does not keep.
    fn workers_memory(&self) -> u64 {
        self.memory - main_part(self.memory)
    }

    /// How many workers run `jobs` jobs with `threads` wanted.
    pub fn workers(&self, threads: usize, jobs: usize) -> usize {
        let fit = usize::try_from(self.workers_memory() / MIN_SHARE).unwrap_or(usize::MAX);
        threads.min(fit).min(jobs).max(1)
    }

    /// The memory of each of `workers` workers.
    fn share(&self, workers: usize) -> u64 {
        self.workers_memory() / workers.max(1) as u64
    }
}

/// Runs `jobs` in at most `threads` workers, handing each outcome to `deliver` (with the
/// job's index) as it comes.
pub fn run_isolated(
    jobs: &[Job],
    threads: usize,
    iso: &Isolation,
    deadline: Option<&Deadline>,
    progress: &Progress,
    deliver: Deliver,
) {
    let workers = iso.workers(threads, jobs.len());
    let mut limits = Limits::new(iso, workers);
    limits.deadline = deadline.copied();
    let groups = crate::lint::plan::affinity::groups(jobs);
    let queue = Queue::new(jobs, groups, workers);
    std::thread::scope(|scope| {
        for n in 0..workers {
            let (queue, limits) = (&queue, &limits);
            scope.spawn(move || {
                let mut worker: Option<Worker> = None;
                while let Some(group) = queue.next(n) {
                    for index in group {
                        let Some(job) = jobs.get(index) else { continue };
                        let result = run_one(&mut worker, limits, index, job);
                        progress.finished(&job.describe());
                        deliver(index, result);
                    }
                }
                if let Some(w) = worker {
                    w.finish();
                }
            });
        }
    });
}

/// The limits every worker of a run gets, and how findings describe them.
struct Limits {
    exe: PathBuf,
    /// The worker's data limit (a backstop: twice its share, [`OVERHEAD`] and [`RESERVED`]).
    data: u64,
    /// The worker's resident memory beyond which it is stopped, or an allocation refused: its
    /// share.
    resident: u64,
    /// The heap limit of its evaluations.
    heap: u64,
    /// The engine's own deadline, before the job's timeout.
    engine_timeout: Duration,
    job_timeout: Duration,
    /// How the memory limit reads in a finding.
    memory_text: String,
    /// When the whole run's time is up (`--timeout`).
    deadline: Option<Deadline>,
}

impl Limits {
    fn new(iso: &Isolation, workers: usize) -> Limits {
        let share = iso.share(workers);
        Limits {
            exe: iso.exe.clone(),
            data: share.saturating_mul(2).saturating_add(OVERHEAD + RESERVED),
            resident: share,
            heap: share / 4 * 3,
            engine_timeout: iso.job_timeout / 5 * 4,
            job_timeout: iso.job_timeout,
            memory_text: format!(
                "{} MiB per worker: --memory-limit {} MiB, less {} MiB for the main process, shared by {workers} worker{}",
                share >> 20,
                iso.memory >> 20,
                main_part(iso.memory) >> 20,
                if workers == 1 { "" } else { "s" }
            ),
            deadline: None,
        }
    }
}

/// Runs one job: in this process when it evaluates nothing, else in the worker (started when
/// there is none).
fn run_one(worker: &mut Option<Worker>, limits: &Limits, index: usize, job: &Job) -> JobOutcome {
    if job.kind == JobKind::Notice {
        return caught(job, &|job| run_job(job, IN_THREAD)).0;
    }
    if let Some(d) = limits.deadline.filter(Deadline::passed) {
        return JobOutcome::failure(job, d.not_started());
    }
    let start = Instant::now();
    let w = match worker {
        Some(w) => w,
        None => match Worker::start(limits) {
            Ok(w) => worker.insert(w),
            Err(e) => {
                let d = Diagnostic::new(
                    Rule::InternalError,
                    format!("cannot start a worker process to lint this root: {e}"),
                );
                return JobOutcome {
                    duration_ms: elapsed_ms(start),
                    ..JobOutcome::failure(job, d)
                };
            }
        },
    };
    match w.run(index, job, limits) {
        Ok(response) => {
            if response.last {
                if let Some(w) = worker.take() {
                    w.finish();
                }
            }
            response.outcome
        }
        Err(end) => {
            // The worker has ended (or is stopped now): its page says where it was.
            let at = worker.take().and_then(Worker::finish);
            let d = end.diagnostic(&limits.memory_text, limits.job_timeout, at);
            JobOutcome {
                duration_ms: elapsed_ms(start),
                ..JobOutcome::failure(job, d)
            }
        }
    }
}

/// A running worker process.
struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    /// The last lines of its standard error, once it has closed.
    stderr: Option<JoinHandle<Vec<String>>>,
    /// The page where it keeps the file (repository path) and line the running job is at.
    page: Option<Page>,
    /// The digest of the list of CRDs it was sent last (see [`Request`]).
    crds: Option<String>,
}

impl Worker {
    fn start(limits: &Limits) -> Result<Worker, String> {
        // Without a page the worker still runs; its findings lose their place.
        let page = Page::create().ok();
        let mut command = Command::new(&limits.exe);
        command
            .arg(COMMAND)
            .arg(limits.data.to_string())
            .arg(limits.heap.to_string())
            .arg(limits.engine_timeout.as_millis().to_string())
            .arg(limits.resident.to_string());
        let handed = page.as_ref().map_or(0, |p| p.hand_over(&mut command));
        command.arg(handed.to_string());
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            // The error names no path: the executable is a machine path, not the repository's.
            .map_err(|e| format!("cannot run yttlint's executable: {e}"))?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes to the worker".to_string());
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || tail(stderr));
        let mut w = Worker {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            page,
            crds: None,
        };
        match w.lines.recv_timeout(START_TIMEOUT) {
            Ok(Ok(line)) if line == READY => Ok(w),
            Ok(Ok(line)) => Err(format!("unexpected first line {line:?}")),
            Err(RecvTimeoutError::Timeout) => {
                w.kill();
                Err("the worker did not start in time".to_string())
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => match w.death() {
                End::Died(how, tail) => Err(format!("{how}{}", last_words(&tail))),
                _ => Err("the worker did not start".to_string()),
            },
        }
    }

    /// Sends a job and waits for its result, at most the job's time, while the worker's
    /// resident memory stays within its share.
    fn run(&mut self, index: usize, job: &Job, limits: &Limits) -> Result<Response, End> {
        let shared = job.kubernetes.as_ref().map(|k| &k.crds);
        let crds = shared
            .filter(|c| self.crds.as_deref() != Some(c.digest()))
            .and_then(|c| c.docs());
        let overlay = crate::files::overlay::current();
        let buffers = overlay.as_deref().map(super::worker::buffers);
        let request = Request {
            index,
            job,
            crds,
            buffers,
        };
        let mut line = serde_json::to_string(&request)
            .map_err(|e| End::Garbled(format!("the job cannot be sent to a worker: {e}")))?;
        line.push('\n');
        let sent = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("closed")),
        };
        if sent.is_err() {
            return Err(self.death());
        }
        if crds.is_some() {
            self.crds = shared.map(|c| c.digest().to_string());
        }
        let job_deadline = Instant::now() + limits.job_timeout;
        // The run's deadline when it comes first.
        let run_deadline = limits.deadline.filter(|d| d.at < job_deadline);
        let deadline = run_deadline.map_or(job_deadline, |d| d.at);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(Ok(line)) => return Self::answer(&line, index),
                Err(RecvTimeoutError::Timeout) if left <= POLL => {
                    self.kill();
                    return Err(run_deadline.map_or(End::Timeout, End::RunTimeout));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let resident = crate::platform::process::resident_of(&self.child);
                    if resident.is_some_and(|r| r > limits.resident) {
                        self.kill();
                        return Err(End::Memory);
                    }
                }
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(self.death()),
            }
        }
    }

    /// The worker's answer to job `index`.
    fn answer(answer: &str, index: usize) -> Result<Response, End> {
        match serde_json::from_str::<Response>(answer) {
            Ok(r) if r.index == index => Ok(r),
            Ok(r) => Err(End::Garbled(format!(
                "the worker answered for job {} instead",
                r.index
            ))),
            Err(e) => Err(End::Garbled(format!("unreadable answer: {e}"))),
        }
    }

    /// Waits for the dead (or dying) worker and says how it ended.
    fn death(&mut self) -> End {
        self.stdin = None;
        let how = match self.child.wait() {
            Ok(status) => crate::platform::process::describe_exit(&status),
            Err(e) => format!("cannot wait for it: {e}"),
        };
        let tail = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        End::Died(how, tail)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Closes the worker's input, so that it ends, and waits for it (it is killed after 5
    /// s); the file and line it last said it was at.
    fn finish(mut self) -> Option<(String, u32)> {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            if Instant::now() >= deadline {
                self.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.page.as_ref().and_then(Page::get)
    }
}
