//! End-to-end tests of the linter's command line on the fixture repositories
//! `fixtures/lint-repo` (discovered roots: a Package, topmost directories, private libraries,
//! suppressions, excluded and ignored files) and `fixtures/lint-config` (configured roots with
//! scenarios and ytt flags).

use crate::util::json::{self, diagnostics, lint_json, root_paths, str_of};
use crate::util::{standalone, yttlint, TempDir};

/// `(rule, file:line:column)` of every diagnostic of a JSON report.
fn findings(report: &serde_json::Value) -> Vec<(String, String)> {
    diagnostics(report)
        .iter()
        .map(|d| {
            let at = format!(
                "{}:{}:{}",
                d["file"].as_str().unwrap_or("-"),
                d["line"],
                d["column"]
            );
            (str_of(d, "rule").to_string(), at)
        })
        .collect()
}

#[test]
fn list_roots_says_what_was_found_and_why() {
    let run = yttlint(&standalone("lint-repo"), &["--list-roots"]);
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

/// A run pointed at a directory without ytt files says so (issue 44), as ruff says "No Python
/// files found": exit 0, or 2 with `--error-on-empty` (the action and the GitLab template
/// pass it).
#[test]
fn an_empty_selection_says_so_and_fails_when_asked() {
    let dir = TempDir::with_files(&[
        ("docs/README.md", "# docs\n"),
        ("deploy/plain.yml", "kind: ConfigMap\n"),
    ]);
    let run = yttlint(&dir, &["--no-cache"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "yttlint: no ytt files found under .\n");
    let run = yttlint(&dir, &["--no-cache", "docs"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (0, "yttlint: no ytt files found under docs\n")
    );
    let run = yttlint(&dir, &["--no-cache", "--error-on-empty", "docs", "deploy"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (2, "yttlint: no ytt files found under docs, deploy\n")
    );
    let quiet = yttlint(&dir, &["--no-cache", "--error-on-empty", "-q"]);
    assert_eq!(
        (quiet.code, quiet.stderr.as_str()),
        (2, "yttlint: no ytt files found under .\n")
    );
    dir.write("config/t.yml", "a: #@ 1\n");
    let run = yttlint(&dir, &["--no-cache", "--error-on-empty"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""), "{run:?}");
}

#[test]
fn a_repository_of_design_documents_only_says_why_nothing_is_linted() {
    let dir = TempDir::with_files(&[
        (
            "proposals/ytt/example.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.x\n",
        ),
        ("deploy/plain.yml", "kind: ConfigMap\n"),
    ]);
    let note =
        "note: proposals: design documents, not linted unless a repository command runs them";
    let list = yttlint(&dir, &["--list-roots"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(list.stdout.contains(note), "{}", list.stdout);
    // Not "ignored by .gitignore": the walk gave the file, discovery set it aside.
    let run = yttlint(&dir, &[]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "0 errors, 0 warnings in 0 roots\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!("yttlint: {note}")),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("ignore"), "{}", run.stderr);
    assert!(
        run.stderr
            .ends_with("yttlint: nothing to lint under .: the notes above say why\n"),
        "{}",
        run.stderr
    );
    let quiet = yttlint(&dir, &["--quiet"]);
    assert_eq!(quiet.stderr, "");
}

#[test]
fn two_files_of_one_name_from_two_inputs_are_told_apart() {
    // `-f base -f pr`: ytt names both files `p.yml` (in its messages too); findings go to the
    // file they are in, with fixes that edit that file.
    let dir = TempDir::with_files(&[
        ("base/p.yml", "#@ load(\"@ytt:json\", \"json\")\n---\na: 1\n"),
        (
            "pr/p.yml",
            "---\nc: 0\n#@ load(\"@ytt:yaml\", \"yaml\")\n---\nb:\n  #@overlay/appendxs\n  - #@ 1 + \"x\"\n",
        ),
        ("run.sh", "ytt -f base -f pr\n"),
    ]);
    let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
    let report = run.json();
    let mut found: Vec<String> = diagnostics(&report)
        .iter()
        .map(|d| {
            let fixed = d["fix"]["edits"][0]["file"]
                .as_str()
                .unwrap_or("-")
                .to_string();
            format!(
                "{} {}:{} {fixed}",
                str_of(d, "rule"),
                str_of(d, "file"),
                d["line"]
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "annotation-typo pr/p.yml:6 pr/p.yml",
            "template-error pr/p.yml:7 -",
            "unused-load base/p.yml:1 base/p.yml",
            "unused-load pr/p.yml:3 pr/p.yml",
        ],
        "{report:#}"
    );
}

#[test]
fn a_directory_vendir_wrote_is_not_evaluated_alone() {
    // vendir copied part of another project (includePaths): its `load` target was left out.
    let dir = TempDir::with_files(&[
        (
            "vendir.yml",
            "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n- path: vendor\n  contents:\n  - path: upstream\n    git: {url: https://example.com/x, ref: main}\n    includePaths: [config/kpack/**/*]\n",
        ),
        (
            "vendor/upstream/config/kpack/a.yml",
            "#@ load(\"/namespaces.star\", \"ns\")\n---\nmetadata:\n  namespace: #@ ns()\n",
        ),
        (
            "vendor/upstream/config/kpack/b.yml",
            "#@ load(\"@ytt:json\", \"json\")\n---\nb: 1\n",
        ),
        ("app/config.yml", "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.x\n"),
        ("app/values.yml", "#@data/values\n---\nx: 1\n"),
    ]);
    // Another project's files that no command of the repository reads: left out, said once.
    let list = yttlint(&dir, &["--list-roots"]);
    assert!(
        list.stdout.contains("note: vendor/upstream is another project's, synced by vendir (vendir.yml:6): linted only where the repository's own commands read it; left out: 2 ytt files no command of the repository reads"),
        "{}",
        list.stdout
    );
    assert!(
        !list.stdout.contains("vendor/upstream/config/kpack\t"),
        "{}",
        list.stdout
    );
    let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = run.json();
    assert!(
        !diagnostics(&report)
            .iter()
            .any(|d| str_of(d, "file").starts_with("vendor/")),
        "{report:#}"
    );
    // Named under roots, it is evaluated, and its load fails as ytt's would.
    dir.write(
        ".yttlint.yaml",
        "roots:\n- path: vendor/upstream/config/kpack\n",
    );
    let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

#[test]
fn configured_roots_list_their_scenarios_and_inputs() {
    let run = yttlint(&standalone("lint-config"), &["--list-roots"]);
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
    let run = yttlint(&standalone("lint-repo"), &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
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
    let run = yttlint(&standalone("lint-repo"), &["broken"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .starts_with("error[template-error]: undefined: undefined_port\n")
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
    let dir = standalone("lint-repo");
    let one = lint_json(&dir, &["-j", "1"]);
    let many = lint_json(&dir, &["-j", "4"]);
    assert_eq!(one, many);
    let a = yttlint(&dir, &[]);
    let b = yttlint(&dir, &["-j", "3"]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn staged_files_select_the_roots_that_contain_them() {
    let dir = standalone("lint-repo");
    let run = yttlint(
        &dir,
        &[
            "--format",
            "json",
            "packages/app/config/_ytt_lib/labels/labels.star",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let roots = root_paths(&run.json());
    assert_eq!(
        roots,
        vec!["packages/app/config", "packages/app/config/_ytt_lib/labels"]
    );
    let none = yttlint(&dir, &["docs/README.md"]);
    assert_eq!(none.code, 0);
    assert_eq!(none.stdout, "0 errors, 0 warnings in 0 roots\n");
    let deleted = yttlint(&dir, &["broken/deleted.yml"]);
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
    let dir = standalone("lint-config");
    let run = yttlint(&dir, &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
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
            // No schema and no `+:` (spec 004), but the library reads the new key and ytt
            // accepts it: ci/plain.yml:2 is not reported.
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
    assert_eq!(d[1]["scenario"], "wrong-type");
    assert_eq!(d[1]["root"], "app");
    assert_eq!(d[1]["related"][0]["file"], "app/schema.yml");
    let jobs: Vec<(String, String)> = report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["path"].to_string(), r["scenario"].to_string()))
        .collect();
    assert_eq!(jobs.len(), 8, "{jobs:?}");
    // A values file selects the roots whose scenarios read it.
    let run = yttlint(&dir, &["--format", "json", "ci/prod.yml"]);
    assert_eq!(run.json()["roots"].as_array().unwrap().len(), 4);
}

#[test]
fn exit_status_follows_severity_and_flags() {
    let dir = standalone("lint-repo");
    assert_eq!(yttlint(&dir, &["--exit-zero"]).code, 0);
    assert_eq!(yttlint(&dir, &["packages/app"]).code, 0);
    assert_eq!(
        yttlint(&dir, &["--fail-on", "warning", "packages/app"]).code,
        1
    );
    assert_eq!(yttlint(&dir, &["--no-such-flag"]).code, 2);
    let outside = yttlint(&dir, &["--config", ".yttlint.yaml", "../lint-config"]);
    assert_eq!(outside.code, 2);
    assert!(
        outside.stderr.contains("is outside the repository"),
        "{}",
        outside.stderr
    );
}

#[test]
fn reports_are_written_next_to_standard_output() {
    let out = TempDir::new();
    let path = out.join("report.json");
    let spec = format!("json={}", path.display());
    let run = yttlint(&standalone("lint-repo"), &["--report", &spec, "broken"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("error[template-error]"));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        json::parse(&written)["diagnostics"][0]["file"],
        "broken/app.yml"
    );
    assert_eq!(
        yttlint(&standalone("lint-repo"), &["--report", "xml=x"]).code,
        2
    );
}

#[test]
fn a_baseline_hides_known_findings_even_after_lines_shift() {
    let repo = TempDir::copy_of("lint-repo");
    let baseline = repo.join("baseline.json");
    let written = yttlint(&repo, &["--write-baseline", "baseline.json"]);
    assert_eq!(written.code, 0, "{}", written.stderr);
    assert!(
        written.stderr.contains("recorded 4 findings"),
        "{}",
        written.stderr
    );
    assert!(baseline.is_file());
    let quiet = yttlint(&repo, &["--baseline", "baseline.json"]);
    assert_eq!(quiet.code, 0, "{}", quiet.stdout);
    assert_eq!(quiet.stdout, "0 errors, 0 warnings in 5 roots\n");
    assert!(
        quiet
            .stderr
            .contains("the baseline baseline.json hid 4 findings"),
        "{}",
        quiet.stderr
    );
    // Lines inserted above the finding: still known. A new finding: reported.
    let app = repo.join("broken/app.yml");
    let text = std::fs::read_to_string(&app).unwrap();
    let shifted = text.replacen("---\n", "---\n#! a new comment line\n", 1);
    std::fs::write(&app, shifted).unwrap();
    repo.write("fresh/app.yml", "x: #@ another_undefined\n");
    let run = yttlint(&repo, &["--baseline", "baseline.json", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = run.json();
    assert_eq!(
        findings(&report),
        vec![(
            "template-error".to_string(),
            "fresh/app.yml:1:7".to_string()
        )]
    );
}

#[test]
fn configuration_errors_are_positioned_and_exit_2() {
    let repo = TempDir::with_files(&[(".yttlint.yaml", "exclude: []\nrule: {}\n")]);
    let run = yttlint(&repo, &[]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "yttlint: .yttlint.yaml:2:1: unknown key \"rule\" in the configuration; expected one of: roots, exclude, rules, kubevirt, kubernetes, invocations, max_learned_scenarios, extensions, policies (did you mean \"rules\"?)\n"
    );
    repo.write("other.yaml", "kubevirt: 3\n");
    let run = yttlint(&repo, &["--config", "other.yaml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("other.yaml:1:1: expected true or false for kubevirt, found integer 3"),
        "{}",
        run.stderr
    );
}

#[test]
fn rule_levels_and_limits() {
    let repo = TempDir::with_files(&[
        (
            "loop/app.yml",
            "#@ def f(n):\n#@   return f(n + 1)\n#@ end\n---\nx: #@ f(0)\n",
        ),
        (".yttlint.yaml", "rules: {limit-exceeded: warning}\n"),
    ]);
    let run = yttlint(&repo, &["--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = run.json();
    assert_eq!(report["diagnostics"][0]["rule"], "limit-exceeded");
    assert_eq!(report["diagnostics"][0]["severity"], "warning");
    repo.write(".yttlint.yaml", "rules: {limit-exceeded: off}\n");
    let run = yttlint(&repo, &[]);
    assert_eq!(run.stdout, "0 errors, 0 warnings in 1 root\n");
}

#[test]
fn kubevirt_templates_in_plain_yaml_are_checked_and_can_be_switched_off() {
    let repo = TempDir::copy_of("kubevirt-repo");
    let run = yttlint(&repo, &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
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
    assert_eq!(root_paths(&report), vec!["(plain YAML)", "app"]);
    // A staged VirtualMachine is checked against Templates in other files.
    let staged = yttlint(&repo, &["--format", "json", "vms/vms.yaml"]);
    assert_eq!(findings(&staged.json()).len(), 4);
    // `kubevirt: false` turns the checks off, for plain files and rendered output alike.
    repo.write(".yttlint.yaml", "kubevirt: false\n");
    let off = yttlint(&repo, &["--format", "json"]);
    assert_eq!(off.code, 0, "{}", off.stdout);
    assert_eq!(findings(&off.json()), vec![]);
}

/// `@schema/removed` (spec 001): off by default the annotation is an unknown one naming the
/// extension and a set value a warning; `extensions: [schema-removed]` makes it known and the
/// set value an error that stops the root.
#[test]
fn removed_values_follow_the_schema_removed_extension() {
    let dir = TempDir::with_files(&[
        (
            "config/schema.yml",
            "#@data/values-schema\n---\n#@schema/removed \"use service.port\"\nport: 0\nservice:\n  port: 80\n",
        ),
        ("config/values.yml", "#@data/values\n---\nport: 8080\n"),
    ]);
    let rules = |config: &str| {
        dir.write(".yttlint.yaml", config);
        let run = yttlint(&dir, &["--format", "json"]);
        let report = run.json();
        let found: Vec<(String, String, String)> = diagnostics(&report)
            .iter()
            .map(|d| {
                (
                    str_of(d, "rule").to_string(),
                    str_of(d, "severity").to_string(),
                    str_of(d, "message").to_string(),
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

    dir.write(".yttlint.yaml", "extensions: [schema-remove]\n");
    let run = yttlint(&dir, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown extension \"schema-remove\""),
        "{}",
        run.stderr
    );
}

/// `yttlint --help` names every command `yttlint` accepts as its first word.
#[test]
fn help_lists_every_command() {
    let run = yttlint(&standalone("lint-repo"), &["--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for command in ["init [DIR]", "template", "rule [ID]", "completions SHELL"] {
        assert!(
            run.stdout.contains(&format!("yttlint {command}")),
            "--help lists `yttlint {command}`:\n{}",
            run.stdout
        );
    }
    let unknown = yttlint(&standalone("lint-repo"), &["lint"]);
    for command in ["template", "init", "rule", "completions", "server"] {
        assert!(unknown.stderr.contains(command), "{}", unknown.stderr);
    }
}

/// `key: #@ data.values.x # note`: the `#` comment cuts the expression short. ytt says
/// `got identifier, want ')'` at a template line (the next node's when there is one); the
/// finding sits on the comment, at the line that holds it, in every format.
#[test]
fn a_comment_cutting_an_expression_short_is_found_on_its_line() {
    let dir = TempDir::new();
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
    let run = yttlint(&dir, &[&select[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = json::parse(&run.stdout);
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
    let github = yttlint(&dir, &[&select[..], &["--format", "github"]].concat());
    assert!(
        github
            .stdout
            .contains("::error file=last/t.yml,line=3,col=23,"),
        "{}",
        github.stdout
    );
}

/// `-f x.yml=` in a root's `args` names no file: ytt fails on it, and so does the root.
#[test]
fn a_named_input_without_a_path_fails_as_in_ytt() {
    let dir = TempDir::with_files(&[
        ("x.yml", "a: 1\n"),
        (
            ".yttlint.yaml",
            "roots:\n  - path: .\n    args: [\"-f\", \"x.yml=\"]\n",
        ),
    ]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = run.json();
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert_eq!(
        messages,
        ["Checking file '': lstat : no such file or directory"],
        "{report}"
    );
}

/// Two runs give the same report, byte for byte: times only with `--timings`.
#[test]
fn reports_are_the_same_every_run_and_timed_only_when_asked() {
    let dir = TempDir::with_files(&[
        ("config/values.yml", "#@data/values\n---\nname: app\n"),
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.nmae\n",
        ),
    ]);
    let runs: Vec<(String, String)> = (0..2)
        .map(|_| {
            let junit = dir.join("junit.xml");
            let junit_arg = format!("junit={}", junit.display());
            let run = yttlint(
                &dir,
                &["--format", "json", "--no-cache", "--report", &junit_arg],
            );
            assert!(run.code <= 1, "{}", run.stderr);
            let xml = std::fs::read_to_string(&junit).expect("junit report");
            (run.stdout, xml)
        })
        .collect();
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].0.contains("\"duration_ms\": 0"), "{}", runs[0].0);
    let timed = yttlint(&dir, &["--format", "json", "--no-cache", "--timings"]);
    assert!(timed.code <= 1, "{}", timed.stderr);
    assert!(timed.stdout.contains("\"duration_ms\""), "{}", timed.stdout);
}
