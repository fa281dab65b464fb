//! Coverage of templates by scenarios, end to end on `fixtures/coverage/`: the lines and
//! branches the scenarios of each root ran (LCOV and Cobertura reports), the one
//! `branch-never-evaluated` finding (the other untaken branches are suppressed, inside an `if`
//! that never ran, or in a root with a failing scenario), and the same reports from worker
//! processes, from threads and from the result cache.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/coverage")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yttlint-coverage-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn lint(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(fixture())
        .args(["--format", "json", "-q"])
        .arg("--report")
        .arg(format!("lcov={}", out.join("cov.info").display()))
        .arg("--report")
        .arg(format!("cobertura={}", out.join("cov.xml").display()))
        .args(extra)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap()
}

fn findings(out: &Output) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}",
                d["rule"].as_str().unwrap(),
                d["file"].as_str().unwrap(),
                d["line"]
            )
        })
        .collect()
}

/// The LCOV record of `file`.
fn record<'a>(lcov: &'a str, file: &str) -> &'a str {
    let start = lcov.find(&format!("SF:{file}\n")).unwrap();
    let end = start + lcov[start..].find("end_of_record").unwrap();
    &lcov[start..end]
}

#[test]
fn scenarios_cover_lines_and_branches() {
    let out = temp("fresh");
    let run = lint(&out, &["--no-cache"]);
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    assert_eq!(
        findings(&run),
        [
            "schema-type-mismatch .yttlint.yaml:13",
            "branch-never-evaluated web/helpers.star:6",
        ]
    );
    let lcov = std::fs::read_to_string(out.join("cov.info")).unwrap();
    let deployment = record(&lcov, "web/deployment.yml");
    // The `if` ran in both scenarios; each took one way.
    assert!(
        deployment.contains("DA:7,2\nDA:8,1\nDA:9,1\nDA:11,1\n"),
        "{deployment}"
    );
    assert!(
        deployment.contains("BRDA:7,0,0,1\nBRDA:7,0,1,1\n"),
        "{deployment}"
    );
    // The list of ports is empty: the loop body never ran, nor the `if` in it.
    assert!(
        deployment.contains("BRDA:13,1,0,0\nBRDA:14,2,0,-\n"),
        "{deployment}"
    );
    assert!(deployment.contains("DA:14,0\nDA:15,0\n"), "{deployment}");
    assert!(deployment.contains("LF:13\nLH:11\n"), "{deployment}");
    // A function of a `.star` file: every call counts.
    let helpers = record(&lcov, "web/helpers.star");
    assert!(
        helpers.contains("DA:2,2\nDA:4,0\nDA:5,2\nDA:6,0\nDA:8,2\n"),
        "{helpers}"
    );
    // The private library nothing evaluates is in no report.
    assert!(!lcov.contains("_ytt_lib"));
    assert!(lcov.contains("TN:worker\nSF:worker/worker.yml\n"));
    let xml = std::fs::read_to_string(out.join("cov.xml")).unwrap();
    assert!(xml.contains("<package name=\"web\""));
    assert!(xml.contains(
        "<class name=\"worker/worker.yml\" filename=\"worker/worker.yml\" line-rate=\"0.8333\" branch-rate=\"0.5\" complexity=\"0\">"
    ), "{xml}");
    assert!(xml.contains(
        "<line number=\"7\" hits=\"2\" branch=\"true\" condition-coverage=\"100% (2/2)\"/>"
    ));

    // Threads of this process, and a warm cache, report the same.
    let threads = temp("threads");
    let run = lint(&threads, &["--no-cache", "--in-process"]);
    assert_eq!(findings(&run).len(), 2);
    let cache = temp("cache");
    let cache_dir = format!("--cache-dir={}", cache.join("c").display());
    for round in ["cold", "warm"] {
        let dir = temp(round);
        let run = lint(&dir, &[&cache_dir]);
        assert_eq!(findings(&run).len(), 2, "{round}");
        for file in ["cov.info", "cov.xml"] {
            assert_eq!(
                std::fs::read_to_string(dir.join(file)).unwrap(),
                std::fs::read_to_string(threads.join(file)).unwrap(),
                "{round} {file}"
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(out.join("cov.info")).unwrap(),
        std::fs::read_to_string(threads.join("cov.info")).unwrap()
    );
}

#[test]
fn the_terminal_summary_gives_each_roots_coverage() {
    let out = temp("terminal");
    let run = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(fixture())
        .args(["--no-cache", "--color", "never"])
        .arg(format!("--report=lcov={}", out.join("c.info").display()))
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(
        stdout.ends_with(
            "Coverage: 85.7% of template lines evaluated (30/35): web 84.6%, worker 88.9%\n"
        ),
        "{stdout}"
    );
    // Without a coverage report, no coverage line.
    let run = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(fixture())
        .args(["--no-cache", "--color", "never"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert!(!String::from_utf8(run.stdout).unwrap().contains("Coverage:"));
}

#[test]
fn the_rule_can_be_turned_off() {
    let run = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(fixture())
        .args(["--no-cache", "--format", "json"])
        .args(["--ignore", "branch-never-evaluated"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(findings(&run), ["schema-type-mismatch .yttlint.yaml:13"]);
}
