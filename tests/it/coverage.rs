//! Coverage of templates by scenarios, end to end on `fixtures/coverage/`: the lines and
//! branches the scenarios of each root ran (LCOV and Cobertura reports), the one
//! `branch-never-evaluated` finding (the other untaken branches are suppressed, inside an `if`
//! that never ran, or in a root with a failing scenario), and the same reports from worker
//! processes, from threads and from the result cache.

use std::path::Path;

use crate::util::json::{diagnostics, str_of};
use crate::util::{command, standalone, yttlint, Run, TempDir};

fn lint(out: &Path, extra: &[&str]) -> Run {
    Run::of(
        command(&standalone("coverage"))
            .args(["--format", "json", "-q"])
            .arg("--report")
            .arg(format!("lcov={}", out.join("cov.info").display()))
            .arg("--report")
            .arg(format!("cobertura={}", out.join("cov.xml").display()))
            .args(extra),
    )
}

fn findings(run: &Run) -> Vec<String> {
    diagnostics(&run.json())
        .iter()
        .map(|d| format!("{} {}:{}", str_of(d, "rule"), str_of(d, "file"), d["line"]))
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
    let out = TempDir::new();
    let run = lint(&out, &["--no-cache"]);
    assert_eq!(run.code, 1, "{run:?}");
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
    let threads = TempDir::new();
    let run = lint(&threads, &["--no-cache", "--in-process"]);
    assert_eq!(findings(&run).len(), 2);
    let cache = TempDir::new();
    let cache_dir = format!("--cache-dir={}", cache.join("c").display());
    for round in ["cold", "warm"] {
        let dir = TempDir::new();
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
    let out = TempDir::new();
    let report = format!("--report=lcov={}", out.join("c.info").display());
    let run = yttlint(
        &standalone("coverage"),
        &["--no-cache", "--color", "never", &report],
    );
    assert!(
        run.stdout.ends_with(
            "Coverage: 85.7% of template lines evaluated (30/35): web 84.6%, worker 88.9%\n"
        ),
        "{}",
        run.stdout
    );
    // Without a coverage report, no coverage line.
    let run = yttlint(&standalone("coverage"), &["--no-cache", "--color", "never"]);
    assert!(!run.stdout.contains("Coverage:"));
}

#[test]
fn the_rule_can_be_turned_off() {
    let run = yttlint(
        &standalone("coverage"),
        &[
            "--no-cache",
            "--format",
            "json",
            "--ignore",
            "branch-never-evaluated",
        ],
    );
    assert_eq!(findings(&run), ["schema-type-mismatch .yttlint.yaml:13"]);
}

/// Inside text-templated strings, findings point at the line of their `(@ ... @)` code: a
/// branch never taken in a block scalar (`conf: |` starts its text on the line below), in a
/// folded one and in an item of a list, and an error in a printing tag.
#[test]
fn text_templated_strings_point_at_their_code() {
    let dir = TempDir::copy_of("lsp-actions");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let run = yttlint(&dir, &["--format", "json", "--no-cache", "."]);
    let found = findings(&run);
    for want in [
        "branch-never-evaluated config/text.yml:12",
        "branch-never-evaluated config/text.yml:18",
        "branch-never-evaluated config/text.yml:23",
        "branch-never-evaluated config/text.yml:32",
        "branch-never-evaluated config/notes.txt:3",
    ] {
        assert!(found.contains(&want.to_string()), "{want} not in {found:?}");
    }
    let text = std::fs::read_to_string(dir.join("config/text.yml")).unwrap();
    assert_eq!(
        text.lines().nth(11),
        Some("    (@ if data.values.debug: @)")
    );
    let message = diagnostics(&run.json())
        .iter()
        .find(|d| d["line"] == 12 && d["file"] == "config/text.yml")
        .map(|d| str_of(d, "message").to_string())
        .unwrap();
    assert!(
        message.contains("`if data.values.debug` (line 12)"),
        "{message}"
    );

    // An error in a printing tag of a block scalar: at its line, not the one above.
    let broken = text.replace("str(data.values.port)", "data.values.port");
    dir.write("config/text.yml", &broken);
    let found = findings(&yttlint(&dir, &["--format", "json", "--no-cache", "."]));
    assert!(
        found.contains(&"template-error config/text.yml:15".to_string()),
        "{found:?}"
    );
}
