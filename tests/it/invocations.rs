//! The fixture repositories of `fixtures/invocations/`, one per way a repository runs ytt
//! (script, Makefile, GitHub workflow, GitLab CI, Taskfile, kuttl, Concourse) and per case
//! of discovery (an overlay-only directory, a sibling values directory, an unsynced vendir
//! directory, a root that needs input): each lints with the roots in its `expected-roots.txt`
//! and the findings in its `expected-findings.txt`, and `yttlint init` gives a configuration
//! that lints with the same findings. `YTTLINT_BLESS=1 cargo test --test invocations` writes
//! the expected files from the current output.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/invocations")
}

fn yttlint(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run yttlint");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One line per finding: severity, rule, place, root, scenario and message's first line.
fn findings(dir: &Path) -> String {
    let (code, out, err) = yttlint(dir, &["--format", "json", "-j", "2"]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json report");
    let mut lines = Vec::new();
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let first = d["message"]
            .as_str()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("");
        lines.push(format!(
            "{} {} {}:{} [{}] ({}) {}",
            d["severity"].as_str().unwrap_or(""),
            d["rule"].as_str().unwrap_or(""),
            d["file"].as_str().unwrap_or("-"),
            d["line"],
            d["root"].as_str().unwrap_or(""),
            d["scenario"].as_str().unwrap_or("-"),
            first
        ));
    }
    lines.join("\n") + "\n"
}

fn check(expected: &Path, actual: &str) {
    if std::env::var_os("YTTLINT_BLESS").is_some() {
        std::fs::write(expected, actual).expect("write expected output");
        return;
    }
    let want = std::fs::read_to_string(expected)
        .unwrap_or_else(|_| panic!("missing {} (YTTLINT_BLESS=1 writes it)", expected.display()));
    assert_eq!(actual, want, "{}", expected.display());
}

fn cases() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("fixtures/invocations")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

#[test]
fn every_case_lints_with_its_expected_roots_and_findings() {
    let all = cases();
    assert!(all.len() >= 9, "{all:?}");
    for case in all {
        let (code, roots, err) = yttlint(&case, &["--list-roots"]);
        assert_eq!(code, 0, "{}: {err}", case.display());
        check(&case.join("expected-roots.txt"), &roots);
        check(&case.join("expected-findings.txt"), &findings(&case));
    }
}

/// Copies a directory tree (the fixtures are small).
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn init_writes_a_configuration_with_the_same_findings() {
    let scratch = std::env::temp_dir().join(format!("yttlint-init-{}", std::process::id()));
    for case in cases() {
        let name = case.file_name().unwrap();
        let repo = scratch.join(name);
        copy(&case, &repo);
        for f in ["expected-roots.txt", "expected-findings.txt"] {
            let _ = std::fs::remove_file(repo.join(f));
        }
        let before = findings(&repo);
        let (code, _, err) = yttlint(&repo, &["init"]);
        assert_eq!(code, 0, "{err}");
        assert!(repo.join(".yttlint.yaml").is_file());
        let (code, _, err) = yttlint(&repo, &["init"]);
        assert_eq!(code, 2, "an existing file is kept");
        assert!(err.contains("already exists"), "{err}");
        // A data value a command set now lives in the configuration: a finding about it
        // points there instead of at the command.
        let moved = |text: &str| {
            text.lines()
                .map(|l| {
                    let place = l.split_whitespace().nth(2).unwrap_or("");
                    let origin = l
                        .split('(')
                        .nth(1)
                        .and_then(|s| s.split(')').next())
                        .unwrap_or("");
                    if place.starts_with(".yttlint.yaml:") || place == origin {
                        l.replacen(place, "(data value)", 1)
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            moved(&findings(&repo)),
            moved(&before),
            "{}",
            case.display()
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
