//! The time of the whole run (`--timeout`): one deadline for every job. A job not started by
//! then is not linted, and a job running then is stopped (its worker killed, or, in threads,
//! its evaluation cancelled as a stale one in the editor is); either gets a `limit-exceeded`
//! finding that says so, and the run goes on to its reports. The time of one job is
//! `--job-timeout`'s; this bounds their sum, whatever the number of roots and scenarios.

use std::time::{Duration, Instant};

use crate::report::{Diagnostic, Rule};

/// When the run's time is up, and the limit it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub at: Instant,
    pub limit: Duration,
}

impl Deadline {
    /// The deadline `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + limit,
            limit,
        }
    }

    /// Whether the run's time is up.
    pub fn passed(&self) -> bool {
        Instant::now() >= self.at
    }

    /// The time left (zero once it has passed).
    pub fn left(&self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }

    /// The finding of a job the run had no time left to start.
    pub fn not_started(&self) -> Diagnostic {
        Diagnostic::new(
            Rule::LimitExceeded,
            format!(
                "not linted: the run reached its time limit ({} s, --timeout) before this root's turn",
                self.limit.as_secs()
            ),
        )
    }

    /// The finding of a job stopped when the run's time was up.
    pub fn stopped(&self) -> Diagnostic {
        Diagnostic::new(
            Rule::LimitExceeded,
            format!(
                "the run reached its time limit ({} s, --timeout) while this root was evaluated, and it was stopped",
                self.limit.as_secs()
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_passes_and_says_so() {
        let d = Deadline::after(Duration::from_millis(30));
        assert!(!d.passed());
        assert!(d.left() > Duration::ZERO);
        std::thread::sleep(Duration::from_millis(40));
        assert!(d.passed());
        assert_eq!(d.left(), Duration::ZERO);
        assert!(d.not_started().message.contains("--timeout"));
        assert_eq!(d.stopped().rule, Rule::LimitExceeded);
    }
}
