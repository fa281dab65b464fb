//! How the fixtures of issue 26 (`fixtures/invocations/`) are reported beyond their findings:
//! a lost error fails the run, a finding that does not depend on a scenario prints no origin
//! block, a finding several roots give prints once, a root with only `needs-input` notes is
//! not an error, and no message names the machine's checkout.

use crate::util::json::diagnostics;
use crate::util::{standalone, yttlint, TempDir};

#[test]
fn the_lost_typo_is_an_error_and_fails_the_run() {
    let repo = TempDir::copy_of("invocations/lost-typo");
    let run = yttlint(&repo, &["--no-cache"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("error[template-error]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("nmaespace"), "{}", run.stdout);
    let report = yttlint(&repo, &["--no-cache", "--format", "json"]).json();
    assert_eq!(report["roots"][0]["status"], "error");
    assert_eq!(diagnostics(&report)[0]["severity"], "error");
}

#[test]
fn a_finding_about_a_file_prints_no_origin_block() {
    let run = yttlint(&standalone("invocations/scenarios"), &["--no-cache"]);
    let unused_load = run
        .stdout
        .split("\n\n")
        .find(|block| block.starts_with("warning[unused-load]"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(!unused_load.contains("deploy.sh"), "{unused_load}");
    assert!(
        unused_load.ends_with("= in root web\n  = fix: Remove the unused `load()`"),
        "{unused_load}"
    );
    // One finding, not one per scenario.
    assert_eq!(run.stdout.matches("[unused-load]").count(), 1);
    // A finding two scenarios give alike prints once, at the first command, listing the other.
    let error = run
        .stdout
        .split("\n\n")
        .find(|block| block.starts_with("error[template-error]"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(
        error.contains("the repository runs ytt this way here"),
        "{error}"
    );
    assert!(
        error.contains("also in root web, scenario deploy.sh:3"),
        "{error}"
    );
    assert_eq!(run.stdout.matches("[template-error]").count(), 1);
}

#[test]
fn a_value_several_roots_read_half_of_is_reported_once() {
    let run = yttlint(&standalone("invocations/unused-values"), &["--no-cache"]);
    assert_eq!(
        run.stdout.matches("[data-value-unused]").count(),
        1,
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("also in root shared + app/values.yml"),
        "{}",
        run.stdout
    );
}

#[test]
fn config_values_point_at_the_entry_and_needs_input_is_not_an_error() {
    let dir = standalone("invocations/config-args");
    let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    let status = |root: &str| {
        report["roots"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["path"] == root)
            .map(|r| r["status"].clone())
    };
    assert_eq!(status("app"), Some("error".into()));
    assert_eq!(status("needs"), Some("findings".into()));
    let undeclared = diagnostics(&report)
        .iter()
        .find(|d| d["rule"] == "data-value-undeclared")
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(undeclared["file"], ".yttlint.yaml");
    assert_eq!(undeclared["line"], 2);
}

#[test]
fn no_message_names_the_checkout() {
    for case in [
        "config-args",
        "lost-typo",
        "no-schema",
        "stale-code",
        "unused-values",
    ] {
        let dir = standalone(&format!("invocations/{case}"));
        let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
        let checkout = dir.to_string_lossy().to_string();
        assert!(!run.stdout.contains(&checkout), "{case}: {}", run.stdout);
        for d in diagnostics(&run.json()) {
            assert!(d["file"].is_string(), "{case}: a finding with no file: {d}");
        }
    }
}
