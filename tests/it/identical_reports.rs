//! Reports are byte-identical across runs (issue 29): the cheap version of
//! `scripts/identical-reports.sh` (3 runs instead of 20 in each of its four modes: with the
//! result cache and with `--no-cache`, `-j 1` and `-j 2`). Every report format, standard
//! output and the exit status must be the same, byte for byte, in all twelve runs.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{command, Run, TempDir};

/// Every report file the runs write (terminal is standard output).
const FORMATS: [&str; 8] = [
    "json",
    "junit",
    "sarif",
    "github",
    "gitlab",
    "lcov",
    "cobertura",
    "terminal",
];

const RUNS: usize = 3;

/// One run in `repo` with `flags`: each output by name (reports, `stdout`, `exit`).
fn outputs(repo: &Path, reports: &Path, xdg: &Path, flags: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let _ = std::fs::remove_dir_all(reports);
    std::fs::create_dir_all(reports).unwrap();
    let mut cmd = command(repo);
    cmd.env("XDG_CACHE_HOME", xdg)
        .args(flags)
        .args(["--color", "never"]);
    for format in FORMATS {
        cmd.arg("--report")
            .arg(format!("{format}={}", reports.join(format).display()));
    }
    let run = Run::of(&mut cmd);
    let mut out = BTreeMap::new();
    for format in FORMATS {
        out.insert(
            format.to_string(),
            std::fs::read(reports.join(format)).unwrap(),
        );
    }
    out.insert("stdout".to_string(), run.stdout.into_bytes());
    out.insert("exit".to_string(), run.code.to_string().into_bytes());
    out
}

fn identical_in_every_mode(fixture: &str) {
    let repo = TempDir::copy_of(fixture);
    let scratch = TempDir::new();
    let (reports, xdg) = (scratch.join("reports"), scratch.join("xdg"));
    let mut first: Option<BTreeMap<String, Vec<u8>>> = None;
    for cache in [true, false] {
        for jobs in ["1", "2"] {
            let mut flags = vec!["-j", jobs];
            if !cache {
                flags.push("--no-cache");
            }
            for run in 0..RUNS {
                let got = outputs(&repo, &reports, &xdg, &flags);
                let Some(want) = &first else {
                    first = Some(got);
                    continue;
                };
                for (name, bytes) in &got {
                    assert!(
                        want[name] == *bytes,
                        "{fixture}: {name} differs in run {run} of {flags:?}:\n{}\n---\n{}",
                        String::from_utf8_lossy(&want[name]),
                        String::from_utf8_lossy(bytes)
                    );
                }
            }
            if cache {
                assert!(
                    repo.join(".yttlint-cache/runs").is_dir(),
                    "no cache written"
                );
            }
        }
    }
    let first = first.unwrap();
    assert_eq!(first["exit"], b"1", "{fixture} has findings");
    assert!(first.values().all(|b| !b.is_empty()));
}

#[test]
fn demo_repo_reports_are_byte_identical_across_runs_jobs_and_cache() {
    identical_in_every_mode("demo-repo");
}

#[test]
fn lint_repo_reports_are_byte_identical_across_runs_jobs_and_cache() {
    identical_in_every_mode("lint-repo");
}
