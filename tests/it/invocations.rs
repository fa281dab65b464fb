//! The fixture repositories of `fixtures/invocations/`, one per way a repository runs ytt
//! (script, Makefile, GitHub workflow or composite action, GitLab CI, Taskfile, kuttl,
//! Concourse, wrapper functions and scripts, `bash -c`, Package and App resources), per case
//! of discovery (an overlay-only directory, a sibling values directory, an unsynced vendir
//! directory, a root that needs input, process substitution, loads that place or complete a
//! root, a Package step taking `-`, overlays next to upstream manifests, a supplementing
//! parent, a Backstage template) and per data-values and report construct (a lost error,
//! data values without a schema, readers elsewhere, stale code, findings from several
//! scenarios): each lints with the roots in its `expected-roots.txt` and the findings in its
//! `expected-findings.txt`, every root that fails has an error, and (unless the case has a
//! configuration of its own) `yttlint init` gives a configuration that lints with the same
//! findings, at the same severities (it records what discovery assumed). The expected files are golden files:
//! `YTTLINT_BLESS=1 cargo test --release --test it invocations::` writes them from the current
//! output.

use std::path::{Path, PathBuf};

use crate::util::json::diagnostics;
use crate::util::{fixture, golden, standalone, yttlint, TempDir};

fn fixtures() -> PathBuf {
    fixture("invocations")
}

/// One line per finding: severity, rule, place, root, scenario and message's first line.
fn findings(dir: &Path) -> String {
    let run = yttlint(dir, &["--format", "json", "-j", "2", "--no-cache"]);
    assert!(
        run.code == 0 || run.code == 1,
        "exit {}: {}",
        run.code,
        run.stderr
    );
    let report = run.json();
    // A root that failed says why: it has an error-level finding, or one that names what
    // the linter assumed to run it (an error that assumes something is reported lower).
    for root in report["roots"].as_array().into_iter().flatten() {
        if root["status"] == "error" {
            let said = diagnostics(&report).iter().any(|d| {
                d["root"] == root["path"]
                    && (d["severity"] == "error" || d["certainty"]["certain"] == false)
            });
            assert!(said, "{}: {root} failed without an error", dir.display());
        }
    }
    let mut lines = Vec::new();
    for d in diagnostics(&report) {
        let first = d["message"]
            .as_str()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("");
        let severity = d["severity"].as_str().unwrap_or("");
        lines.push(format!(
            "{} {} {}:{} [{}] ({}) {}",
            severity,
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
        let name = case.file_name().unwrap().to_str().unwrap();
        let linted = standalone(&format!("invocations/{name}"));
        let roots = yttlint(&linted, &["--list-roots"]);
        assert_eq!(roots.code, 0, "{}: {}", case.display(), roots.stderr);
        golden::check(&case.join("expected-roots.txt"), &roots.stdout);
        golden::check(&case.join("expected-findings.txt"), &findings(&linted));
    }
}

#[test]
fn init_writes_a_configuration_with_the_same_findings() {
    // A case with a configuration of its own has nothing to initialise.
    let discovered = cases()
        .into_iter()
        .filter(|c| !c.join(".yttlint.yaml").exists());
    for case in discovered {
        let name = case.file_name().unwrap().to_str().unwrap();
        let repo = TempDir::copy_of(&format!("invocations/{name}"));
        for f in ["expected-roots.txt", "expected-findings.txt"] {
            let _ = std::fs::remove_file(repo.join(f));
        }
        // The configuration records what discovery assumed (`assumes:`): every finding keeps
        // its severity.
        let before = findings(&repo);
        let init = yttlint(&repo, &["init"]);
        assert_eq!(init.code, 0, "{}", init.stderr);
        assert!(repo.join(".yttlint.yaml").is_file());
        let again = yttlint(&repo, &["init"]);
        assert_eq!(again.code, 2, "an existing file is kept");
        assert!(again.stderr.contains("already exists"), "{}", again.stderr);
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
}
