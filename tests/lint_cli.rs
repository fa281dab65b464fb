//! End-to-end tests of the linter's command line on the fixture repositories
//! `fixtures/lint-repo` (discovered roots: a Package, topmost directories, private libraries,
//! suppressions, excluded and ignored files) and `fixtures/lint-config` (configured roots with
//! scenarios and ytt flags).

use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn yttlint_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(dir)
        .args(args)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run yttlint");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yttlint-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copies a fixture repository (files only, as the walk sees them) into a temporary directory.
fn copy_fixture(name: &str, to: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    copy(&fixture(name), to);
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `(rule, file:line:column)` of every diagnostic of a JSON report.
fn findings(report: &serde_json::Value) -> Vec<(String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let at = format!(
                "{}:{}:{}",
                d["file"].as_str().unwrap_or("-"),
                d["line"],
                d["column"]
            );
            (d["rule"].as_str().unwrap().to_string(), at)
        })
        .collect()
}

#[test]
fn list_roots_says_what_was_found_and_why() {
    let run = yttlint_in(&fixture("lint-repo"), &["--list-roots"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
broken\ttopmost directory holding ytt files; inputs unknown
packages/app/config\tytt path of Package app.example.com.1.0.0 (packages/app/package.yml:1); inputs unknown
suppressed\ttopmost directory holding ytt files; inputs unknown
packages/app/config/_ytt_lib/labels\tprivate library of packages/app/config (checked on its own)
shared/_ytt_lib/unused\tprivate library of shared (checked on its own)
"
    );
}

#[test]
fn configured_roots_list_their_scenarios_and_inputs() {
    let run = yttlint_in(&fixture("lint-config"), &["--list-roots"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "\
app\tlisted in the configuration (line 3); scenarios: defaults, prod, wrong-type, typo
comments\tlisted in the configuration (line 13); flags: --ignore-unknown-comments
plain\tlisted in the configuration (line 17); scenarios: undeclared, added-on-purpose
split\tlisted in the configuration (line 15); inputs: split/base, split/extra.yml; flags: -f base -f extra.yml
"
    );
}

#[test]
fn a_repository_is_linted_as_a_whole() {
    let run = yttlint_in(&fixture("lint-repo"), &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run.stdout);
    assert_eq!(
        findings(&report),
        vec![
            (
                "template-error".to_string(),
                "broken/app.yml:4:10".to_string()
            ),
            (
                "unused-suppression".to_string(),
                "packages/app/config/deployment.yml:10:3".to_string()
            ),
            (
                "unknown-annotation".to_string(),
                "packages/app/config/deployment.yml:13:5".to_string()
            ),
            (
                "template-error".to_string(),
                "shared/_ytt_lib/unused/broken.yml:3:1".to_string()
            ),
        ]
    );
    let statuses: Vec<(&str, &str)> = report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["path"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        vec![
            ("broken", "error"),
            ("packages/app/config", "findings"),
            ("packages/app/config/_ytt_lib/labels", "ok"),
            ("shared/_ytt_lib/unused", "findings"),
            ("suppressed", "error"),
        ]
    );
}

#[test]
fn the_terminal_report_names_file_line_rule_and_root() {
    let run = yttlint_in(&fixture("lint-repo"), &["broken"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .starts_with("error[template-error]: - undefined: undefined_port\n")
            && run.stdout.contains("┌─ broken/app.yml:4:10")
            && run.stdout.contains("in root broken"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("= in root broken\n"));
    assert!(run.stdout.ends_with("1 error, 0 warnings in 1 root\n"));
}

#[test]
fn output_is_the_same_every_run_and_with_any_number_of_jobs() {
    let strip = |text: &str| {
        let mut v = json(text);
        for r in v["roots"].as_array_mut().unwrap() {
            r["duration_ms"] = serde_json::Value::Null;
        }
        v
    };
    let dir = fixture("lint-repo");
    let one = yttlint_in(&dir, &["--format", "json", "-j", "1"]);
    let many = yttlint_in(&dir, &["--format", "json", "-j", "4"]);
    assert_eq!(strip(&one.stdout), strip(&many.stdout));
    let a = yttlint_in(&dir, &[]);
    let b = yttlint_in(&dir, &["-j", "3"]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn staged_files_select_the_roots_that_contain_them() {
    let dir = fixture("lint-repo");
    let run = yttlint_in(
        &dir,
        &[
            "--format",
            "json",
            "packages/app/config/_ytt_lib/labels/labels.star",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let roots: Vec<String> = json(&run.stdout)["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        roots,
        vec!["packages/app/config", "packages/app/config/_ytt_lib/labels"]
    );
    let none = yttlint_in(&dir, &["docs/README.md"]);
    assert_eq!(none.code, 0);
    assert_eq!(none.stdout, "0 errors, 0 warnings in 0 roots\n");
    let deleted = yttlint_in(&dir, &["broken/deleted.yml"]);
    assert_eq!(
        deleted.code, 2,
        "a path that does not exist is a usage error"
    );
    assert_eq!(
        deleted.stderr,
        "yttlint: broken/deleted.yml: no such file or directory\n"
    );
}

#[test]
fn scenarios_values_files_and_root_flags() {
    let dir = fixture("lint-config");
    let run = yttlint_in(&dir, &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run.stdout);
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        findings(&report),
        pairs(&[
            // A scenario's data value the schema does not declare, at the configuration.
            ("data-value-undeclared", ".yttlint.yaml:12:23"),
            // Spec 004: no schema, and the file was not given with `+:`.
            ("data-value-undeclared", "ci/plain.yml:2:1"),
            ("schema-type-mismatch", "ci/wrong-type.yml:2:11"),
        ])
    );
    let d = &report["diagnostics"];
    assert_eq!(d[0]["severity"], "error");
    assert!(d[0]["message"]
        .as_str()
        .unwrap()
        .contains("did you mean \"replicas\""));
    assert_eq!(d[0]["related"][0]["file"], "app/schema.yml");
    // ytt accepts undeclared values when there is no schema: a warning.
    assert_eq!(
        (&d[1]["severity"], &d[1]["scenario"]),
        (&"warning".into(), &"undeclared".into())
    );
    assert_eq!(d[2]["scenario"], "wrong-type");
    assert_eq!(d[2]["root"], "app");
    assert_eq!(d[2]["related"][0]["file"], "app/schema.yml");
    let jobs: Vec<(String, String)> = report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["path"].to_string(), r["scenario"].to_string()))
        .collect();
    assert_eq!(jobs.len(), 8, "{jobs:?}");
    // A values file selects the roots whose scenarios read it.
    let run = yttlint_in(&dir, &["--format", "json", "ci/prod.yml"]);
    assert_eq!(json(&run.stdout)["roots"].as_array().unwrap().len(), 4);
}

#[test]
fn exit_status_follows_severity_and_flags() {
    let dir = fixture("lint-repo");
    assert_eq!(yttlint_in(&dir, &["--exit-zero"]).code, 0);
    assert_eq!(yttlint_in(&dir, &["packages/app"]).code, 0);
    assert_eq!(
        yttlint_in(&dir, &["--fail-on", "warning", "packages/app"]).code,
        1
    );
    assert_eq!(yttlint_in(&dir, &["--no-such-flag"]).code, 2);
    let outside = yttlint_in(&dir, &["--config", ".yttlint.yaml", "../lint-config"]);
    assert_eq!(outside.code, 2);
    assert!(
        outside.stderr.contains("is outside the repository"),
        "{}",
        outside.stderr
    );
}

#[test]
fn reports_are_written_next_to_standard_output() {
    let out = temp_dir("reports");
    let path = out.join("report.json");
    let spec = format!("json={}", path.display());
    let run = yttlint_in(&fixture("lint-repo"), &["--report", &spec, "broken"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("error[template-error]"));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(json(&written)["diagnostics"][0]["file"], "broken/app.yml");
    assert_eq!(
        yttlint_in(&fixture("lint-repo"), &["--report", "xml=x"]).code,
        2
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_baseline_hides_known_findings_even_after_lines_shift() {
    let repo = temp_dir("baseline");
    copy_fixture("lint-repo", &repo);
    let baseline = repo.join("baseline.json");
    let written = yttlint_in(&repo, &["--write-baseline", "baseline.json"]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert!(
        written.stderr.contains("recorded 4 findings"),
        "{}",
        written.stderr
    );
    assert!(baseline.is_file());
    let quiet = yttlint_in(&repo, &["--baseline", "baseline.json"]);
    assert_eq!(quiet.code, 0, "{}", quiet.stdout);
    assert_eq!(quiet.stdout, "0 errors, 0 warnings in 5 roots\n");
    // Lines inserted above the finding: still known. A new finding: reported.
    let app = repo.join("broken/app.yml");
    let text = std::fs::read_to_string(&app).unwrap();
    let shifted = text.replacen("---\n", "---\n#! a new comment line\n", 1);
    std::fs::write(&app, shifted).unwrap();
    std::fs::create_dir_all(repo.join("fresh")).unwrap();
    std::fs::write(repo.join("fresh/app.yml"), "x: #@ another_undefined\n").unwrap();
    let run = yttlint_in(&repo, &["--baseline", "baseline.json", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = json(&run.stdout);
    assert_eq!(
        findings(&report),
        vec![(
            "template-error".to_string(),
            "fresh/app.yml:1:7".to_string()
        )]
    );
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn configuration_errors_are_positioned_and_exit_2() {
    let repo = temp_dir("badconfig");
    std::fs::write(repo.join(".yttlint.yaml"), "exclude: []\nrule: {}\n").unwrap();
    let run = yttlint_in(&repo, &[]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "yttlint: .yttlint.yaml:2:1: unknown key \"rule\" in the configuration; expected one of: roots, exclude, rules, kubevirt, invocations, extensions (did you mean \"rules\"?)\n"
    );
    let other = repo.join("other.yaml");
    std::fs::write(&other, "kubevirt: 3\n").unwrap();
    let run = yttlint_in(&repo, &["--config", "other.yaml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("other.yaml:1:1: expected true or false for kubevirt, found integer 3"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn rule_levels_and_limits() {
    let repo = temp_dir("levels");
    std::fs::create_dir_all(repo.join("loop")).unwrap();
    std::fs::write(
        repo.join("loop/app.yml"),
        "#@ def f(n):\n#@   return f(n + 1)\n#@ end\n---\nx: #@ f(0)\n",
    )
    .unwrap();
    std::fs::write(
        repo.join(".yttlint.yaml"),
        "rules: {limit-exceeded: warning}\n",
    )
    .unwrap();
    let run = yttlint_in(&repo, &["--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = json(&run.stdout);
    assert_eq!(report["diagnostics"][0]["rule"], "limit-exceeded");
    assert_eq!(report["diagnostics"][0]["severity"], "warning");
    std::fs::write(repo.join(".yttlint.yaml"), "rules: {limit-exceeded: off}\n").unwrap();
    let run = yttlint_in(&repo, &[]);
    assert_eq!(run.stdout, "0 errors, 0 warnings in 1 root\n");
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn kubevirt_templates_in_plain_yaml_are_checked_and_can_be_switched_off() {
    let repo = temp_dir("kubevirt");
    copy_fixture("kubevirt-repo", &repo);
    let run = yttlint_in(&repo, &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run.stdout);
    assert_eq!(
        findings(&report),
        vec![
            (
                "kubevirt-annotation-invalid".to_string(),
                "templates/small.yaml:23:20".to_string()
            ),
            // The validator rejects every VirtualMachine a rule with a bad regex applies to.
            (
                "kubevirt-rule-violation".to_string(),
                "vms/vms.yaml:7:12".to_string()
            ),
            (
                "kubevirt-rule-violation".to_string(),
                "vms/vms.yaml:20:12".to_string()
            ),
            (
                "kubevirt-rule-violation".to_string(),
                "vms/vms.yaml:25:15".to_string()
            ),
        ]
    );
    let d = &report["diagnostics"];
    assert!(d[0]["message"].as_str().unwrap().contains("not RE2"), "{d}");
    assert_eq!(d[0]["object"], "Template/vms/small");
    // The Template is in another file than the VirtualMachine it rejects.
    assert_eq!(d[3]["object"], "VirtualMachine/vms/too-big");
    assert_eq!(d[3]["related"][0]["file"], "templates/small.yaml");
    assert!(d[3]["message"]
        .as_str()
        .unwrap()
        .contains("cpu cores must be between 1 and 4"));
    let roots: Vec<&str> = report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(roots, vec!["(plain YAML)", "app"]);
    // A staged VirtualMachine is checked against Templates in other files.
    let staged = yttlint_in(&repo, &["--format", "json", "vms/vms.yaml"]);
    assert_eq!(findings(&json(&staged.stdout)).len(), 4);
    // `kubevirt: false` turns the checks off, for plain files and rendered output alike.
    std::fs::write(repo.join(".yttlint.yaml"), "kubevirt: false\n").unwrap();
    let off = yttlint_in(&repo, &["--format", "json"]);
    assert_eq!(off.code, 0, "{}", off.stdout);
    assert_eq!(findings(&json(&off.stdout)), vec![]);
    let _ = std::fs::remove_dir_all(&repo);
}

/// `@schema/removed` (spec 001): off by default the annotation is an unknown one naming the
/// extension and a set value a warning; `extensions: [schema-removed]` makes it known and the
/// set value an error that stops the root.
#[test]
fn removed_values_follow_the_schema_removed_extension() {
    let dir = temp_dir("removed");
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(
        dir.join("config/schema.yml"),
        "#@data/values-schema\n---\n#@schema/removed \"use service.port\"\nport: 0\nservice:\n  port: 80\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("config/values.yml"),
        "#@data/values\n---\nport: 8080\n",
    )
    .unwrap();
    let rules = |config: &str| {
        std::fs::write(dir.join(".yttlint.yaml"), config).unwrap();
        let run = yttlint_in(&dir, &["--format", "json"]);
        let report = json(&run.stdout);
        let found: Vec<(String, String, String)> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["rule"].as_str().unwrap().to_string(),
                    d["severity"].as_str().unwrap().to_string(),
                    d["message"].as_str().unwrap().to_string(),
                )
            })
            // service.port is declared and read by nothing: not what this test is about.
            .filter(|f| f.0 != "data-value-unused")
            .collect();
        (run.code, report["roots"][0]["status"].clone(), found)
    };
    let (code, status, found) = rules("roots:\n  - path: config\n");
    assert_eq!((code, status.as_str()), (0, Some("findings")));
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, "unknown-annotation");
    assert!(found[0].2.contains("extension schema-removed"), "{found:?}");
    assert_eq!(
        (found[1].0.as_str(), found[1].1.as_str()),
        ("data-value-removed", "warning")
    );
    assert!(found[1]
        .2
        .starts_with("data value port was removed from the schema: use service.port"));

    let (code, status, found) = rules("roots:\n  - path: config\nextensions: [schema-removed]\n");
    assert_eq!((code, status.as_str()), (1, Some("error")));
    assert_eq!(
        found,
        vec![(
            "data-value-removed".to_string(),
            "error".to_string(),
            "data value port was removed from the schema: use service.port".to_string()
        )]
    );

    std::fs::write(dir.join(".yttlint.yaml"), "extensions: [schema-remove]\n").unwrap();
    let run = yttlint_in(&dir, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown extension \"schema-remove\""),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `yttlint --help` names every command `yttlint` accepts as its first word.
#[test]
fn help_lists_every_command() {
    let run = yttlint_in(&fixture("lint-repo"), &["--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for command in ["init [DIR]", "template", "rule [ID]", "completions SHELL"] {
        assert!(
            run.stdout.contains(&format!("yttlint {command}")),
            "--help lists `yttlint {command}`:\n{}",
            run.stdout
        );
    }
    let unknown = yttlint_in(&fixture("lint-repo"), &["lint"]);
    for command in ["template", "init", "rule", "completions"] {
        assert!(unknown.stderr.contains(command), "{}", unknown.stderr);
    }
}

/// `key: #@ data.values.x # note`: the `#` comment cuts the expression short. ytt says
/// `got identifier, want ')'` at a template line (the next node's when there is one); the
/// finding sits on the comment, at the line that holds it, in every format.
#[test]
fn a_comment_cutting_an_expression_short_is_found_on_its_line() {
    let dir = temp_dir("cut-short");
    let values = "#@data/values\n---\nx: 1\n";
    std::fs::create_dir_all(dir.join("last")).unwrap();
    std::fs::create_dir_all(dir.join("middle")).unwrap();
    std::fs::write(
        dir.join("last/t.yml"),
        "#@ load(\"@ytt:data\", \"data\")\n---\nkey: #@ data.values.x # note\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("middle/t.yml"),
        "#@ load(\"@ytt:data\", \"data\")\n---\nkey: #@ data.values.x # note\nb: 2\n",
    )
    .unwrap();
    std::fs::write(dir.join("last/v.yml"), values).unwrap();
    std::fs::write(dir.join("middle/v.yml"), values).unwrap();
    std::fs::write(
        dir.join(".yttlint.yaml"),
        "roots: [{path: last}, {path: middle}]\n",
    )
    .unwrap();
    let select = ["--no-cache", "--select", "template-error"];
    let run = yttlint_in(&dir, &[&select[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json(&run.stdout);
    assert_eq!(
        findings(&report),
        [
            ("template-error".to_string(), "last/t.yml:3:23".to_string()),
            (
                "template-error".to_string(),
                "middle/t.yml:3:23".to_string()
            ),
        ]
    );
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("got identifier, want ')'"), "{message}");
    let github = yttlint_in(&dir, &[&select[..], &["--format", "github"]].concat());
    assert!(
        github
            .stdout
            .contains("::error file=last/t.yml,line=3,col=23,"),
        "{}",
        github.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}
