//! How a job in a worker process ended without an answer ([`End`]), and the finding it gets:
//! stopped for its memory or time, dead of a signal or an allocation failure (told apart by the
//! last lines the worker wrote on standard error), or an answer that is not one.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::time::Duration;

use crate::lint::run::deadline::Deadline;
use crate::lint::run::guard::in_file;
use crate::report::{Diagnostic, Rule};

/// Lines of a worker's standard error kept to explain its death.
const TAIL_LINES: usize = 8;

/// How a job ended without an answer.
pub enum End {
    /// Its worker was stopped after the job's time.
    Timeout,
    /// Its worker was stopped when the whole run's time was up (`--timeout`).
    RunTimeout(Deadline),
    /// Its worker was stopped when its resident memory outgrew its share.
    Memory,
    /// Its worker died: how, and the last lines it wrote on standard error.
    Died(String, Vec<String>),
    /// Its worker answered something else than the job's result.
    Garbled(String),
}

impl End {
    /// The finding of the job that ended this way, at the file (a repository path) and line
    /// `at` when the worker said it evaluated one; `memory` says what its memory limit was.
    pub fn diagnostic(
        &self,
        memory: &str,
        job_timeout: Duration,
        at: Option<(String, u32)>,
    ) -> Diagnostic {
        let d = self.what(memory, job_timeout);
        match at {
            Some((file, line)) => in_file(d, &file, line),
            None => d,
        }
    }

    /// The finding, without a position.
    fn what(&self, memory_text: &str, job_timeout: Duration) -> Diagnostic {
        let memory = || {
            Diagnostic::new(
                Rule::LimitExceeded,
                format!(
                    "the evaluation needed more memory than its limit ({})",
                    memory_text
                ),
            )
        };
        match self {
            End::Memory => memory(),
            End::RunTimeout(d) => d.stopped(),
            End::Timeout => Diagnostic::new(
                Rule::LimitExceeded,
                format!(
                    "the evaluation did not finish within {} s (--job-timeout), and was stopped",
                    job_timeout.as_secs()
                ),
            ),
            End::Died(how, tail) => {
                let text = tail.join("\n");
                if text.contains("memory allocation of") || how.contains("signal 9 ") {
                    memory()
                } else if text.contains("has overflowed its stack") {
                    Diagnostic::new(
                        Rule::LimitExceeded,
                        "the evaluation overflowed the native stack (templates, calls or loads nested too deeply)",
                    )
                } else {
                    Diagnostic::new(
                        Rule::InternalError,
                        format!(
                            "yttlint's worker process died while linting this root ({how}){}",
                            last_words(tail)
                        ),
                    )
                }
            }
            End::Garbled(what) => Diagnostic::new(
                Rule::InternalError,
                format!("yttlint's worker process failed on this root: {what}"),
            ),
        }
    }
}

/// The last lines a process wrote, kept to explain its end.
pub fn tail(from: impl Read) -> Vec<String> {
    let mut kept = VecDeque::new();
    for line in BufReader::new(from).lines() {
        let Ok(line) = line else { break };
        if kept.len() == TAIL_LINES {
            kept.pop_front();
        }
        kept.push_back(line);
    }
    kept.into()
}

/// `: LAST LINE` of a worker's standard error, or nothing.
pub fn last_words(tail: &[String]) -> String {
    tail.iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| format!(": {}", l.trim()))
        .unwrap_or_default()
}
