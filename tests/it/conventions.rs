//! End-to-end tests of the command line's conventions: usage errors for paths that do not
//! exist and for words that are not commands, `template --help`, repeated flags, paths relative
//! to the working directory, spans that cover the offending value, `rule`, `--statistics`,
//! `--quiet`, `--select`/`--ignore`, `--color`, completions, `.yttlint.yml`, reports written with
//! `--write-baseline`, the GitHub step summary and `--shard`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::util::json::{self, diagnostics};
use crate::util::{standalone, yttlint, yttlint_env, Run, TempDir};

/// The copy of `fixtures/` the tests lint (see [`standalone`]).
fn fixtures() -> PathBuf {
    standalone(".")
}

fn demo() -> PathBuf {
    standalone("demo-repo")
}

#[test]
fn a_path_that_does_not_exist_is_a_usage_error() {
    let run = yttlint(&demo(), &["brokn/"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "yttlint: brokn/: no such file or directory\n");
    assert!(run.stdout.is_empty());
    let run = yttlint(&demo(), &["lint"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("\"lint\" is neither a file or directory nor a command")
            && run
                .stderr
                .contains("template, init, rule, completions, server"),
        "{}",
        run.stderr
    );
    let run = yttlint(&demo(), &["-"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("standard input"), "{}", run.stderr);
}

#[test]
fn template_help_lists_ytt_s_flags() {
    let run = yttlint(&demo(), &["template", "--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for flag in [
        "--file",
        "--output",
        "--data-values-file",
        "--data-value-yaml",
        "--file-mark",
    ] {
        assert!(run.stdout.contains(flag), "{flag} missing:\n{}", run.stdout);
    }
    assert!(
        run.stdout.contains("Usage: yttlint template"),
        "{}",
        run.stdout
    );
}

#[test]
fn flags_may_be_repeated_as_ytt_allows() {
    let run = yttlint(
        &demo(),
        &["template", "-f", "config", "-o", "yaml", "-o", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("apiVersion: v1\n"),
        "-o is a list, as in ytt: the first format wins: {}",
        run.stdout
    );
    let run = yttlint(&demo(), &["--format", "terminal", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.json()["version"], 1);
}

#[test]
fn the_demo_finding_covers_the_value() {
    let run = yttlint(&demo(), &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    let d = &diagnostics(&report)[0];
    assert_eq!(d["file"], "typed-bad-values.yml");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(1), Some(11))
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(1), Some(18))
    );
    let run = yttlint(&demo(), &[]);
    assert!(
        run.stdout
            .contains("1 │ replicas: \"three\"\n  │           ^^^^^^^\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn terminal_paths_are_relative_to_the_working_directory() {
    let run = yttlint(&fixtures(), &["demo-repo"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("┌─ demo-repo/typed-bad-values.yml:1:11"),
        "{}",
        run.stdout
    );
    let run = yttlint(&demo().join("typed"), &[]);
    assert!(
        run.stdout.contains("┌─ ../typed-bad-values.yml:1:11"),
        "{}",
        run.stdout
    );
    let run = yttlint(&fixtures(), &["demo-repo", "--format", "json"]);
    assert_eq!(
        run.json()["diagnostics"][0]["file"],
        "typed-bad-values.yml",
        "reports stay repository-relative"
    );
}

#[test]
fn rule_explains_each_rule_with_an_example() {
    let run = yttlint(&demo(), &["rule"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("schema-type-mismatch ")),
        "{}",
        run.stdout
    );
    let run = yttlint(&demo(), &["rule", "schema-type-mismatch"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.starts_with("# schema-type-mismatch\n") && run.stdout.contains("## Example")
    );
    let run = yttlint(&demo(), &["rule", "schema-type-mismatc"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("did you mean \"schema-type-mismatch\""),
        "{}",
        run.stderr
    );
}

#[test]
fn statistics_quiet_select_and_ignore() {
    let run = yttlint(&demo(), &["--statistics"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        // (The ServiceMonitor is checked against the built-in catalog: no kind is unchecked.)
        "    1  error    schema-type-mismatch  Data value of the wrong type\n1 error, 0 warnings in 4 roots\n"
    );
    let run = yttlint(&demo(), &["--quiet", "--statistics"]);
    assert_eq!(
        run.stdout,
        "    1  error    schema-type-mismatch  Data value of the wrong type\n"
    );
    let run = yttlint(&demo(), &["-q"]);
    assert!(!run.stdout.contains("1 error"), "{}", run.stdout);
    assert!(run.stdout.contains("error[schema-type-mismatch]"));
    let run = yttlint(&demo(), &["--ignore", "schema-type-mismatch"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "0 errors, 0 warnings in 4 roots\n")
    );
    let run = yttlint(&demo(), &["--select", "yaml-syntax,template-error"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let run = yttlint(&demo(), &["--select", "schema-type-mismatch"]);
    assert_eq!(run.code, 1);
    let run = yttlint(&demo(), &["--ignore", "no-such-rule"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown rule \"no-such-rule\""),
        "{}",
        run.stderr
    );
}

#[test]
fn color_follows_the_flag_and_the_environment() {
    let escape = |run: &Run| run.stdout.contains('\u{1b}');
    assert!(!escape(&yttlint(&demo(), &[])), "no terminal, no colour");
    assert!(escape(&yttlint(&demo(), &["--color", "always"])));
    assert!(escape(&yttlint_env(
        &demo(),
        &[],
        &[("CLICOLOR_FORCE", "1")]
    )));
    assert!(!escape(&yttlint_env(
        &demo(),
        &[],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(!escape(&yttlint_env(
        &demo(),
        &["--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    assert_eq!(yttlint(&demo(), &["--color", "sometimes"]).code, 2);
}

#[test]
fn completions_come_from_clap() {
    let run = yttlint(&demo(), &["completions", "bash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for word in [
        "--statistics",
        "--shard",
        "template",
        "--data-values-file",
        "completions",
    ] {
        assert!(run.stdout.contains(word), "{word} missing");
    }
    assert_eq!(yttlint(&demo(), &["completions", "tcsh"]).code, 2);
    let help = yttlint(&demo(), &["completions", "--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    for words in [
        "Usage: yttlint completions <SHELL>",
        "The shell to complete for",
        "yttlint completions zsh >",
    ] {
        assert!(
            help.stdout.contains(words),
            "{words} missing:\n{}",
            help.stdout
        );
    }
}

#[test]
fn the_yml_configuration_is_read() {
    let dir = TempDir::with_files(&[
        ("lib/a.yml", "#@ x = 1\na: #@ y\n"),
        (".yttlint.yml", "rules: {template-error: warning}\n"),
    ]);
    let run = yttlint(&dir, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("warning[template-error]"),
        "{}",
        run.stdout
    );
    dir.write(".yttlint.yaml", "exclude: []\n");
    let run = yttlint(&dir, &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("keep one of them"), "{}", run.stderr);
}

#[test]
fn write_baseline_also_writes_the_reports() {
    let dir = TempDir::new();
    let (baseline, sarif) = (dir.join("baseline.json"), dir.join("out.sarif"));
    let spec = format!("sarif={}", sarif.display());
    let run = yttlint(
        &demo(),
        &[
            "--write-baseline",
            baseline.to_str().unwrap(),
            "--report",
            &spec,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(baseline.is_file());
    let log = json::parse(&std::fs::read_to_string(&sarif).unwrap());
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(1));
}

#[test]
fn github_format_writes_a_step_summary_past_github_s_limit() {
    let dir = TempDir::with_files(&[(".yttlint.yaml", "")]);
    for i in 0..12 {
        dir.write(&format!("r{i:02}/t.yml"), "a: #@ nope\n");
    }
    let summary = dir.join("summary.md");
    let run = yttlint_env(
        &dir,
        &["--format", "github"],
        &[("GITHUB_STEP_SUMMARY", summary.to_str().unwrap())],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.starts_with("::error "), "{}", run.stdout);
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("| `template-error` | 12 | 0 | 0 |"), "{md}");
}

/// `(rule, file, line, column, root, scenario)` of every finding of a JSON report.
fn finding_set(report: &serde_json::Value) -> BTreeSet<String> {
    diagnostics(report)
        .iter()
        .map(|d| {
            let key = [
                "rule", "file", "line", "column", "root", "scenario", "message",
            ];
            key.iter()
                .map(|k| d[*k].to_string())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

#[test]
fn shards_together_lint_exactly_what_one_run_lints() {
    for fixture in ["lint-repo", "lint-config", "demo-repo", "kubevirt-repo"] {
        let dir = fixtures().join(fixture);
        let whole = yttlint(&dir, &["--format", "json"]).json();
        for total in [2, 3] {
            let mut union = BTreeSet::new();
            let mut roots = 0;
            for index in 1..=total {
                let shard = format!("{index}/{total}");
                let part = yttlint(&dir, &["--format", "json", "--shard", &shard]).json();
                let found = finding_set(&part);
                assert!(
                    union.is_disjoint(&found),
                    "{fixture} {shard}: findings twice"
                );
                union.extend(found);
                roots += part["roots"].as_array().unwrap().len();
            }
            assert_eq!(union, finding_set(&whole), "{fixture} in {total} shards");
            assert_eq!(roots, whole["roots"].as_array().unwrap().len(), "{fixture}");
        }
    }
    let gitlab = [("CI_NODE_INDEX", "1"), ("CI_NODE_TOTAL", "9")];
    let run = yttlint_env(&demo(), &["--shard", "auto", "--list-roots"], &gitlab);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let all = yttlint(&demo(), &["--list-roots"]);
    assert!(
        run.stdout.lines().count() < all.stdout.lines().count(),
        "{}",
        run.stdout
    );
    let roots: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert!(
        roots.iter().all(|r| r.starts_with(roots[0])),
        "a root and its libraries: {roots:?}"
    );
    assert_eq!(yttlint(&demo(), &["--shard", "4/3"]).code, 2);
}
