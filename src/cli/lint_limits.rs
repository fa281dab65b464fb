//! The linter's flags about the cost of a run (`--memory-limit`, `--job-timeout`, `--timeout`,
//! `--in-process`): by default each root is linted in a worker process, so that no template,
//! however it fails, can end the run or take more than its share of the memory. The memory
//! limit covers the main process too: it keeps an eighth of it, and bounds the findings it
//! holds to a part of that (see `lint::run::budget`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::lint::run::deadline::Deadline;
use crate::lint::run::pool::Isolation;

/// Flags flattened into the linter's command line.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Memory of the whole run (SIZE: bytes, or a number with K, M or G): an eighth for this
    /// process (the findings it keeps, the reports), the rest shared by the worker processes
    /// that evaluate the roots. A root that needs more than its worker's share is a
    /// limit-exceeded finding; findings beyond this process's part are counted, not kept.
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = parse_size)]
    pub memory_limit: u64,
    /// Seconds one root (with one scenario) may take before it is stopped and reported as
    /// limit-exceeded.
    #[arg(long, value_name = "SECONDS", default_value_t = 150,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub job_timeout: u64,
    /// Seconds the whole run may take: the roots not linted by then are reported as
    /// limit-exceeded, and the reports are written.
    #[arg(long, value_name = "SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub timeout: u64,
    /// Evaluate the roots in threads of this process instead of worker processes: no memory
    /// limit, and a root that crashes ends the run.
    #[arg(long)]
    pub in_process: bool,
}

impl LimitArgs {
    /// The run's deadline, from now.
    pub fn deadline(&self) -> Deadline {
        Deadline::after(Duration::from_secs(self.timeout))
    }

    /// How the run is isolated (`None` with `--in-process`).
    pub fn isolation(&self) -> Result<Option<Isolation>, String> {
        if self.in_process {
            return Ok(None);
        }
        let exe: PathBuf = std::env::current_exe().map_err(|e| {
            format!("cannot find the yttlint binary to start workers: {e} (use --in-process)")
        })?;
        Ok(Some(Isolation {
            exe,
            memory: self.memory_limit,
            job_timeout: Duration::from_secs(self.job_timeout),
        }))
    }
}

/// A size: bytes, or a number with a binary suffix `K`, `M` or `G` (`KiB`, `MB`, ... too).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("invalid size \"{text}\": expected a number such as 512M or 4G"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => {
            return Err(format!(
                "invalid size \"{text}\": the unit must be K, M or G"
            ))
        }
    };
    let bytes = n
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("invalid size \"{text}\": too large"))?;
    if bytes < 64 << 20 {
        return Err(format!("invalid size \"{text}\": at least 64M"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1073741824"), Ok(1 << 30));
        assert!(parse_size("1T").is_err());
        assert!(parse_size("10M").is_err());
        assert!(parse_size("").is_err());
    }
}
