//! Issue 40, the run's bound: 8 scenarios of a 10⁹-step loop took 64 s at `--job-timeout 10
//! -j2`, and about 600 s with the defaults; nothing bounded the whole run. `--timeout` (default
//! 10 minutes) does: a root running when the time is up is stopped, the roots not started are
//! not linted, each of them is a `limit-exceeded` finding, and the reports are still written
//! with every other root's findings. In worker processes and in threads (`--in-process`).

use std::time::{Duration, Instant};

use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, TempDir};

const SPIN: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ def spin():\n#@   n = 0\n\
#@   for i in range(1000000000):\n#@     n += 1\n#@   end\n#@   return n\n#@ end\n\
v: #@ spin() + data.values.k\n";

/// A root `slow` with 8 scenarios of the loop, and a root `fast` with an error of its own.
fn repository() -> TempDir {
    let mut config = String::from("roots:\n  - path: slow\n    scenarios:\n");
    for i in 1..=8 {
        config.push_str(&format!(
            "      - name: s{i}\n        data_values: {{k: {i}}}\n"
        ));
    }
    config.push_str("  - path: fast\n");
    TempDir::with_files(&[
        ("slow/t.yml", SPIN),
        ("slow/values.yml", "#@data/values\n---\nk: 0\n"),
        ("fast/t.yml", "k: #@ undefined_in_fast\n"),
        (".yttlint.yaml", &config),
    ])
}

fn bounded(extra: &[&str]) {
    let dir = repository();
    let report_path = dir.join("report.json");
    let report_arg = format!("json={}", report_path.display());
    let mut args = vec![
        "--no-cache",
        "--quiet",
        "-j2",
        "--job-timeout",
        "60",
        "--timeout",
        "4",
        "--report",
        &report_arg,
    ];
    args.extend_from_slice(extra);
    let start = Instant::now();
    let run = yttlint(&dir, &args);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(20), "the run took {took:?}");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let found = diagnostics(&report);
    // Every scenario of the slow root is a limit finding that names the run's limit.
    for i in 1..=8 {
        let scenario = format!("s{i}");
        let mine: Vec<&serde_json::Value> = found
            .iter()
            .filter(|d| d["root"] == "slow" && d["scenario"] == scenario.as_str())
            .collect();
        assert_eq!(mine.len(), 1, "{scenario}: {found:?}");
        assert_eq!(mine[0]["rule"], "limit-exceeded");
        let message = str_of(mine[0], "message");
        assert!(message.contains("(4 s, --timeout)"), "{message}");
    }
    let stopped = found
        .iter()
        .filter(|d| str_of(d, "message").contains("while this root was evaluated"))
        .count();
    assert!(stopped >= 1, "{found:?}");
    // The other root is linted and reported.
    assert!(
        found
            .iter()
            .any(|d| d["root"] == "fast" && str_of(d, "message").contains("undefined_in_fast")),
        "{found:?}"
    );
}

#[test]
fn the_whole_run_is_bounded_in_worker_processes() {
    bounded(&[]);
}

#[test]
fn the_whole_run_is_bounded_in_threads() {
    bounded(&["--in-process"]);
}

#[test]
fn the_default_bound_is_ten_minutes() {
    let run = yttlint(&TempDir::new(), &["--help"]);
    assert!(run.stdout.contains("--timeout <SECONDS>"), "{}", run.stdout);
    assert!(run.stdout.contains("[default: 600]"), "{}", run.stdout);
}
