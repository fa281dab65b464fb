//! Sub-projects with their own `.yttlint.yaml`, linted from above as ruff lints nested
//! configurations (issue 44): the configuration closest above a file wins, report paths are
//! relative to where the run started, `--list-roots` says which configuration each root came
//! from, and a repository whose ytt files are all in sub-projects is not "ignored".

use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, TempDir};

/// `(rule, severity, file, root)` of each finding of a JSON report.
fn findings(stdout: &str) -> Vec<(String, String, String, String)> {
    let report: serde_json::Value = serde_json::from_str(stdout).unwrap();
    diagnostics(&report)
        .iter()
        .map(|d| {
            (
                str_of(d, "rule").to_string(),
                str_of(d, "severity").to_string(),
                str_of(d, "file").to_string(),
                str_of(d, "root").to_string(),
            )
        })
        .collect()
}

/// An undefined name: an error whatever command renders it (it rests on the text alone).
const BROKEN: &str = "---\na: #@ undefined_name\n";
const CLEAN: &str = "---\na: #@ 1 + 2\n";

#[test]
fn an_error_in_a_sub_project_is_reported_from_the_top() {
    let dir = TempDir::with_files(&[
        ("app/config.yml", CLEAN),
        ("sub/.yttlint.yaml", "rules: {unused-suppression: off}\n"),
        ("sub/config/t.yml", BROKEN),
    ]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        findings(&run.stdout),
        [(
            "template-error".to_string(),
            "error".to_string(),
            "sub/config/t.yml".to_string(),
            "sub/config".to_string()
        )]
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let roots: Vec<&str> = report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(roots, ["app", "sub/config"]);
}

#[test]
fn a_repository_whose_ytt_files_are_all_in_a_sub_project_is_linted_not_ignored() {
    let dir = TempDir::with_files(&[
        ("README.md", "nothing here\n"),
        ("sub/.yttlint.yaml", ""),
        ("sub/config/t.yml", BROKEN),
    ]);
    let run = yttlint(&dir, &["--no-cache"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(!run.stderr.contains(".gitignore"), "{run:?}");
    assert!(run.stdout.contains("sub/config/t.yml:2:"), "{run:?}");
}

#[test]
fn each_sub_project_keeps_its_own_rules() {
    let dir = TempDir::with_files(&[
        ("a/.yttlint.yaml", "rules: {template-error: warning}\n"),
        ("a/config/t.yml", BROKEN),
        ("b/.yttlint.yaml", ""),
        ("b/config/t.yml", BROKEN),
        ("b/deeper/.yttlint.yaml", "rules: {template-error: info}\n"),
        ("b/deeper/t.yml", BROKEN),
    ]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 1, "{run:?}");
    let got: Vec<(String, String)> = findings(&run.stdout)
        .into_iter()
        .map(|(_, severity, file, _)| (file, severity))
        .collect();
    let want = [
        ("a/config/t.yml", "warning"),
        ("b/config/t.yml", "error"),
        ("b/deeper/t.yml", "info"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    assert_eq!(got, want);
    // Linted from inside a sub-project, its configuration is the closest: paths from there.
    let inside = yttlint(&dir.join("b"), &["--format", "json", "--no-cache"]);
    let files: Vec<String> = findings(&inside.stdout)
        .into_iter()
        .map(|(_, _, file, _)| file)
        .collect();
    assert_eq!(files, ["config/t.yml", "deeper/t.yml"], "{inside:?}");
}

#[test]
fn list_roots_says_which_configuration_each_root_came_from() {
    let dir = TempDir::with_files(&[
        ("app/config.yml", CLEAN),
        ("sub/.yttlint.yaml", ""),
        ("sub/config/t.yml", BROKEN),
    ]);
    let run = yttlint(&dir, &["--list-roots"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "app\ttopmost directory holding ytt files; inputs unknown; configuration: none (the defaults)\n\
         note: sub has its own .yttlint.yaml: its files are linted with that configuration\n\
         sub/config\ttopmost directory holding ytt files; inputs unknown; configuration: sub/.yttlint.yaml\n"
    );
}

#[test]
fn files_given_in_two_sub_projects_are_each_linted_with_their_own() {
    let dir = TempDir::with_files(&[
        ("a/.yttlint.yaml", "rules: {template-error: warning}\n"),
        ("a/config/t.yml", BROKEN),
        ("b/.yttlint.yaml", ""),
        ("b/config/t.yml", BROKEN),
    ]);
    let run = yttlint(
        &dir,
        &[
            "--format",
            "json",
            "--no-cache",
            "a/config/t.yml",
            "b/config/t.yml",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let got: Vec<(String, String)> = findings(&run.stdout)
        .into_iter()
        .map(|(_, severity, file, _)| (file, severity))
        .collect();
    assert_eq!(
        got,
        [
            ("a/config/t.yml".to_string(), "warning".to_string()),
            ("b/config/t.yml".to_string(), "error".to_string())
        ]
    );
}
