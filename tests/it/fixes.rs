//! `--fix`, `--unsafe-fixes` and `--diff` through the binary. Every fix is tried on a small
//! realistic repository: lint, fix, lint again; the fixed finding is gone, no finding is new,
//! and the root renders (`yttlint template`, the engine) byte for byte as before, except for
//! the annotation fixes, whose change of the output is the point (and is asserted). Then the
//! diff and its exit status, writing through a symbolic link, overlapping fixes, and the fix in
//! the JSON and SARIF reports.

use serde_json::Value;

use crate::util::json::{diagnostics, str_of};
use crate::util::{template, yttlint, TempDir};

/// `rule message` of every finding of a JSON report, with its fix's title when it has one.
fn findings(report: &Value) -> Vec<String> {
    diagnostics(report)
        .iter()
        .map(|d| format!("{} {}", str_of(d, "rule"), str_of(d, "message")))
        .collect()
}

/// Lints `dir` as JSON with `args`, without the cache.
fn lint(dir: &TempDir, args: &[&str]) -> (i32, Value, String) {
    lint_cached(dir, &[&["--no-cache"], args].concat())
}

/// The root `config` rendered by the engine, or its error.
fn rendered(dir: &TempDir) -> String {
    let run = template(dir, &["-f", "config"]);
    format!("{}{}", run.stdout, run.stderr)
}

/// Lints, fixes with `flags`, lints again: the findings of `rule` are gone and no finding is
/// new. Returns the rendering before and after.
fn fix_cycle(dir: &TempDir, flags: &[&str], rule: &str) -> (String, String) {
    let before = rendered(dir);
    let (_, report, _) = lint(dir, &[]);
    let found = findings(&report);
    let fixable: Vec<&Value> = diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "rule") == rule && d["fix"].is_object())
        .collect();
    assert!(!fixable.is_empty(), "no fixable {rule} finding: {found:#?}");
    let run = yttlint(
        dir,
        &[&["--no-cache", "--quiet", "--format", "json"], flags].concat(),
    );
    let after_report = run.json();
    let after = findings(&after_report);
    assert!(
        !after.iter().any(|f| f.starts_with(&format!("{rule} "))),
        "{rule} left after --fix: {after:#?}\n{}",
        run.stderr
    );
    for f in &after {
        assert!(
            found.contains(f),
            "new finding after --fix: {f}\nbefore: {found:#?}"
        );
    }
    (before, rendered(dir))
}

#[test]
fn unused_loads_are_removed_and_nothing_renders_differently() {
    let dir = TempDir::with_files(&[
        (
            "config/deployment.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n\
             #@ load(\"helpers.star\", \"labels\", \"name_of\", \"unused_helper\")\n---\n\
             apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: #@ name_of(data.values.app)\n  labels: #@ labels()\n\
             spec:\n  replicas: #@ data.values.replicas\n",
        ),
        (
            "config/helpers.star",
            "load(\"@ytt:struct\", \"struct\")\nload(\"@ytt:data\", \"data\")\n\
             def labels():\n  return {\"app\": data.values.app}\nend\n\
             def name_of(app):\n  return app + \"-web\"\nend\n\
             def unused_helper():\n  return 1\nend\n",
        ),
        (
            "config/values.yml",
            "#@data/values\n---\napp: shop\nreplicas: 2\n",
        ),
    ]);
    let (before, after) = fix_cycle(&dir, &["--fix"], "unused-load");
    assert_eq!(before, after);
    assert!(before.contains("name: shop-web"), "{before}");
    let text = std::fs::read_to_string(dir.join("config/deployment.yml")).unwrap();
    assert!(text.starts_with(
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"helpers.star\", \"labels\", \"name_of\")\n---\n"
    ), "{text}");
    let star = std::fs::read_to_string(dir.join("config/helpers.star")).unwrap();
    assert!(
        star.starts_with("load(\"@ytt:data\", \"data\")\ndef labels"),
        "{star}"
    );
}

/// In a branch no scenario runs, the replacement changes what ytt says when it runs: unsafe.
#[test]
fn a_module_member_with_one_candidate_is_replaced() {
    let dir = TempDir::with_files(&[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"checks.star\", \"checked_name\")\n---\n\
             apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ checked_name(data.values.name)\n",
        ),
        (
            "config/checks.star",
            "load(\"@ytt:assert\", \"assert\")\n\
             def checked_name(name):\n  if len(name) > 63:\n    assert.failed(\"name is longer than 63 characters\")\n  end\n  return name\nend\n",
        ),
        ("config/values.yml", "#@data/values\n---\nname: settings\n"),
    ]);
    let (before, after) = fix_cycle(
        &dir,
        &["--fix", "--unsafe-fixes"],
        "unknown-module-attribute",
    );
    assert_eq!(before, after);
    let star = std::fs::read_to_string(dir.join("config/checks.star")).unwrap();
    assert!(star.contains("    assert.fail(\"name is longer"), "{star}");
}

#[test]
fn a_data_value_typo_is_fixed_only_with_unsafe_fixes() {
    let dir = TempDir::with_files(&[
        (
            "config/schema.yml",
            "#@data/values-schema\n---\napp:\n  port: 8080\n  debug: false\n",
        ),
        (
            "config/service.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n\
             spec:\n  ports:\n  - port: #@ data.values.app.port\n\
             #@ if data.values.app.debug:\n  - port: #@ data.values.app.prot + 1\n    name: debug\n#@ end\n",
        ),
    ]);
    // Safe fixes alone leave it.
    let run = yttlint(&dir, &["--no-cache", "--fix"]);
    assert!(run.stderr.contains("fixed 0 findings"), "{}", run.stderr);
    assert!(std::fs::read_to_string(dir.join("config/service.yml"))
        .unwrap()
        .contains("app.prot"));
    let (before, after) = fix_cycle(
        &dir,
        &["--fix", "--unsafe-fixes"],
        "data-value-unknown-reference",
    );
    assert_eq!(before, after);
    let text = std::fs::read_to_string(dir.join("config/service.yml")).unwrap();
    assert!(text.contains("data.values.app.port + 1"), "{text}");
}

#[test]
fn a_typo_that_stops_the_evaluation_keeps_its_fix() {
    let dir = TempDir::with_files(&[
        (
            "config/schema.yml",
            "#@data/values-schema\n---\napp:\n  port: 8080\n",
        ),
        (
            "config/service.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Service\n\
             metadata:\n  name: web\nspec:\n  ports:\n  - port: #@ data.values.app.prot\n",
        ),
    ]);
    // The evaluation's error stands for the static finding, and carries its correction.
    let (code, report, _) = lint(&dir, &[]);
    assert_eq!(code, 1);
    let errors: Vec<&Value> = diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "severity") == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{report:#}");
    assert_eq!(str_of(errors[0], "rule"), "template-error");
    assert_eq!(errors[0]["line"], 9, "{report:#}");
    let fix = &errors[0]["fix"];
    assert_eq!(fix["applicability"], "unsafe", "{report:#}");
    assert_eq!(fix["edits"][0]["replacement"], "port", "{report:#}");
    let run = yttlint(&dir, &["--no-cache", "--fix", "--unsafe-fixes"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("fixed 1 finding in 1 file (template-error: 1)"),
        "{}",
        run.stderr
    );
    assert!(
        rendered(&dir).contains("- port: 8080\n"),
        "{}",
        rendered(&dir)
    );
}

#[test]
fn a_misspelt_overlay_annotation_is_renamed_and_now_applies() {
    let dir = TempDir::with_files(&[
        (
            "config/deployment.yml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\n    tier: frontend\n",
        ),
        (
            "config/overlay.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n---\n\
             metadata:\n  #@overlay/replac\n  labels:\n    app: web-v2\n",
        ),
    ]);
    let (_, report, _) = lint(&dir, &[]);
    let typo = diagnostics(&report)
        .iter()
        .find(|d| str_of(d, "rule") == "annotation-typo")
        .unwrap();
    assert_eq!(typo["fix"]["title"], "Replace with `#@overlay/replace`");
    assert_eq!(typo["fix"]["applicability"], "unsafe");
    let (before, after) = fix_cycle(&dir, &["--fix", "--unsafe-fixes"], "annotation-typo");
    // The labels were merged; now they are replaced, as the overlay says.
    assert!(
        before.contains("    app: web-v2\n    tier: frontend\n"),
        "{before}"
    );
    assert_eq!(after, before.replace("    tier: frontend\n", ""));
}

#[test]
fn code_without_its_space_gets_it_and_the_value_renders() {
    let dir = TempDir::with_files(&[
        (
            "config/configmap.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n\
             data:\n  level: #@data.values.log_level\n  region: #@ data.values.region\n",
        ),
        (
            "config/values.yml",
            "#@data/values\n---\nlog_level: debug\nregion: eu-west-1\n",
        ),
    ]);
    let (_, report, _) = lint(&dir, &[]);
    let found = findings(&report);
    assert!(
        found.contains(&"unknown-annotation unknown annotation @data.values.log_level: ytt ignores it (code needs a space after `#@`: `#@ data.values.log_level`)".to_string()),
        "{found:#?}"
    );
    let (before, after) = fix_cycle(&dir, &["--fix", "--unsafe-fixes"], "unknown-annotation");
    assert!(before.contains("  level: null\n"), "{before}");
    assert_eq!(after, before.replace("level: null", "level: debug"));
}

/// A repository with one safe fix (an unused load) and one unsafe one (a data value typo).
fn safe_and_unsafe() -> TempDir {
    TempDir::with_files(&[
        ("config/schema.yml", "#@data/values-schema\n---\nport: 80\n"),
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n---\nport: #@ data.values.port\n\
             #@ if False:\nother: #@ data.values.prot\n#@ end\n",
        ),
    ])
}

#[test]
fn diff_prints_what_fix_would_change_and_writes_nothing() {
    let dir = safe_and_unsafe();
    let original = std::fs::read_to_string(dir.join("config/app.yml")).unwrap();
    let run = yttlint(&dir, &["--no-cache", "--diff"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "--- a/config/app.yml\n+++ b/config/app.yml\n@@ -1,5 +1,4 @@\n #@ load(\"@ytt:data\", \"data\")\n\
         -#@ load(\"@ytt:yaml\", \"yaml\")\n ---\n port: #@ data.values.port\n #@ if False:\n"
    );
    assert!(
        run.stderr
            .contains("would fix 1 finding in 1 file (unused-load: 1)"),
        "{}",
        run.stderr
    );
    let run = yttlint(&dir, &["--no-cache", "--diff", "--unsafe-fixes"]);
    assert_eq!(run.code, 1);
    assert!(run
        .stdout
        .contains("-other: #@ data.values.prot\n+other: #@ data.values.port\n"));
    assert_eq!(
        std::fs::read_to_string(dir.join("config/app.yml")).unwrap(),
        original
    );
    // Nothing to fix: no diff, exit 0 (whatever the findings).
    let clean = TempDir::with_files(&[("config/app.yml", "a: 1\n")]);
    let run = yttlint(&clean, &["--no-cache", "--diff"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
}

/// A fix that brings out another: `#@data.values.prot` gets its space (pass 1), and only then
/// is the typo a finding with a fix (pass 2).
fn two_passes() -> TempDir {
    TempDir::with_files(&[
        ("config/schema.yml", "#@data/values-schema\n---\nport: 80\n"),
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nport: #@ data.values.port\n#@ if False:\n\
             other: #@data.values.prot\n#@ end\n",
        ),
    ])
}

#[test]
fn diff_shows_every_pass_of_fix_in_workers_and_in_process() {
    let expected = "--- a/config/app.yml\n+++ b/config/app.yml\n@@ -2,5 +2,5 @@\n ---\n \
                    port: #@ data.values.port\n #@ if False:\n-other: #@data.values.prot\n\
                    +other: #@ data.values.port\n #@ end\n";
    for mode in [&[][..], &["--in-process"][..], &["-j", "1"][..]] {
        let dir = two_passes();
        let original = std::fs::read_to_string(dir.join("config/app.yml")).unwrap();
        // With the cache: the first pass may fill it, the later ones (fixed texts) must not.
        let run = yttlint(&dir, &[&["--diff", "--unsafe-fixes"], mode].concat());
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (1, expected),
            "{mode:?}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains(
                "would fix 2 findings in 1 file (data-value-unknown-reference: 1, unknown-annotation: 1)"
            ),
            "{}",
            run.stderr
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("config/app.yml")).unwrap(),
            original
        );
        // A lint after it sees the files as they are, cached or not.
        for cache in [&[][..], &["--no-cache"][..]] {
            let (_, report, _) = lint_cached(&dir, cache);
            let found = findings(&report);
            assert!(
                found.iter().any(|f| f.starts_with("unknown-annotation ")),
                "{found:#?}"
            );
        }
        // And --fix writes what the diff showed.
        let run = yttlint(&dir, &["--no-cache", "--fix", "--unsafe-fixes"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let fixed = std::fs::read_to_string(dir.join("config/app.yml")).unwrap();
        assert_eq!(
            fixed,
            original.replace("#@data.values.prot", "#@ data.values.port")
        );
    }
}

/// Lints `dir` as JSON with `args` (with the cache unless they say `--no-cache`).
fn lint_cached(dir: &TempDir, args: &[&str]) -> (i32, Value, String) {
    let run = yttlint(dir, &[&["--format", "json"], args].concat());
    (run.code, run.json(), run.stderr)
}

#[test]
fn fix_writes_the_safe_fixes_and_reports_what_is_left() {
    let dir = safe_and_unsafe();
    let run = yttlint(&dir, &["--no-cache"]);
    assert!(run
        .stdout
        .contains("warning[unused-load]: [*] yaml is loaded but never used"));
    assert!(
        run.stdout
            .contains("= fix (unsafe, with --unsafe-fixes): Read `data.values.port` instead"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("[*] 1 fixable with --fix (1 more with --unsafe-fixes)\n"),
        "{}",
        run.stdout
    );
    let run = yttlint(&dir, &["--no-cache", "--unsafe-fixes"]);
    assert!(
        run.stdout
            .ends_with("[*] 2 fixable with --fix --unsafe-fixes\n"),
        "{}",
        run.stdout
    );
    let run = yttlint(&dir, &["--no-cache", "--fix"]);
    assert_eq!(run.code, 1, "the unsafe one is left: {}", run.stdout);
    assert!(run
        .stderr
        .contains("fixed 1 finding in 1 file (unused-load: 1)"));
    assert!(!run.stdout.contains("unused-load"));
    assert!(run.stdout.contains("data-value-unknown-reference"));
    assert_eq!(
        std::fs::read_to_string(dir.join("config/app.yml")).unwrap(),
        "#@ load(\"@ytt:data\", \"data\")\n---\nport: #@ data.values.port\n#@ if False:\nother: #@ data.values.prot\n#@ end\n"
    );
}

#[test]
fn no_file_is_written_through_a_symbolic_link() {
    let dir = TempDir::with_files(&[
        (
            "shared/app.yml",
            "#@ load(\"@ytt:yaml\", \"yaml\")\n---\na: 1\n",
        ),
        ("victim.yml", "b: 2\n"),
    ]);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    yttlint::platform::fs::symlink(
        std::path::Path::new("../victim.yml"),
        &dir.join("config/app.yml"),
    )
    .unwrap();
    std::fs::write(
        dir.join("victim.yml"),
        "#@ load(\"@ytt:yaml\", \"yaml\")\n---\nb: 2\n",
    )
    .unwrap();
    let run = yttlint(&dir, &["--no-cache", "--fix"]);
    assert!(
        run.stderr.contains("cannot fix config/app.yml") && run.stderr.contains("symbolic link"),
        "{}",
        run.stderr
    );
    assert!(std::fs::symlink_metadata(dir.join("config/app.yml"))
        .unwrap()
        .file_type()
        .is_symlink());
    // The target is fixed under its own name only, once.
    assert_eq!(
        std::fs::read_to_string(dir.join("victim.yml")).unwrap(),
        "---\nb: 2\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("shared/app.yml")).unwrap(),
        "---\na: 1\n"
    );
}

#[test]
fn overlapping_fixes_first_wins_and_the_other_stays_a_finding() {
    // One template in two roots whose schemas disagree on the key its typo stands for.
    let template =
        "#@ load(\"@ytt:data\", \"data\")\n---\n#@ if False:\nport: #@ data.values.prot\n#@ end\n";
    let dir = TempDir::with_files(&[
        ("a/schema.yml", "#@data/values-schema\n---\nport: 1\n"),
        ("b/schema.yml", "#@data/values-schema\n---\nprat: 1\n"),
        ("shared/app.yml", template),
        (
            ".yttlint.yaml",
            "roots:\n- path: a\n  args: [-f, ., -f, ../shared]\n- path: b\n  args: [-f, ., -f, ../shared]\n",
        ),
    ]);
    let (_, report, _) = lint(&dir, &[]);
    let fixes: Vec<&Value> = diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "rule") == "data-value-unknown-reference")
        .map(|d| &d["fix"]["edits"][0])
        .collect();
    assert_eq!(fixes.len(), 2, "{report:#}");
    assert_eq!(fixes[0]["start"], fixes[1]["start"]);
    let run = yttlint(&dir, &["--no-cache", "--diff", "--unsafe-fixes"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.matches("\n+port: #@ data.values.").count(),
        1,
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("would fix 1 finding in 1 file"),
        "{}",
        run.stderr
    );
    // --fix: the first fix is made; the other root's finding stays (`port` is no near miss
    // of `prat`).
    let run = yttlint(&dir, &["--no-cache", "--fix", "--unsafe-fixes"]);
    assert!(
        run.stderr.contains("fixed 1 finding in 1 file"),
        "{}",
        run.stderr
    );
    let left = run
        .stdout
        .matches("error[data-value-unknown-reference]")
        .count();
    assert_eq!(left, 1, "{}", run.stdout);
    assert!(run
        .stdout
        .contains("data.values.port: the schema declares no port"));
}

#[test]
fn fixes_that_go_round_in_circles_stop() {
    // Root a reads `port`, root b `part`: each fix of one is a typo for the other.
    let dir = TempDir::with_files(&[
        ("a/schema.yml", "#@data/values-schema\n---\nport: 1\n"),
        ("b/schema.yml", "#@data/values-schema\n---\npart: 1\n"),
        (
            "shared/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\n#@ if False:\nport: #@ data.values.prot\n#@ end\n",
        ),
        (
            ".yttlint.yaml",
            "roots:\n- path: a\n  args: [-f, ., -f, ../shared]\n- path: b\n  args: [-f, ., -f, ../shared]\n",
        ),
    ]);
    let run = yttlint(&dir, &["--no-cache", "--fix", "--unsafe-fixes"]);
    assert!(run.stderr.contains("go round in circles"), "{}", run.stderr);
    assert!(
        run.stderr.contains("fixed 2 findings in 1 file"),
        "{}",
        run.stderr
    );
    let left = run
        .stdout
        .matches("error[data-value-unknown-reference]")
        .count();
    assert_eq!(left, 1, "{}", run.stdout);
}

#[test]
fn json_and_sarif_reports_carry_the_fix() {
    let dir = safe_and_unsafe();
    let (_, report, _) = lint(&dir, &[]);
    let unused = diagnostics(&report)
        .iter()
        .find(|d| str_of(d, "rule") == "unused-load")
        .unwrap();
    assert_eq!(
        unused["fix"],
        serde_json::json!({
            "title": "Remove the unused `load()`",
            "applicability": "safe",
            "edits": [{"file": "config/app.yml", "line": 2, "column": 1, "end_line": 3,
                       "end_column": 1, "start": 29, "end": 58, "replacement": ""}]
        })
    );
    let run = yttlint(&dir, &["--no-cache", "--format", "sarif"]);
    let log = run.json();
    let validator = crate::reports::sarif_validator();
    let errors = crate::reports::schema_errors(&validator, &log);
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
    let results = log["runs"][0]["results"].as_array().unwrap();
    let unused = results
        .iter()
        .find(|r| r["ruleId"] == "unused-load")
        .unwrap();
    assert_eq!(
        unused["fixes"],
        serde_json::json!([{
            "description": {"text": "Remove the unused `load()`"},
            "artifactChanges": [{
                "artifactLocation": {"uri": "config/app.yml", "uriBaseId": "%SRCROOT%"},
                "replacements": [{
                    "deletedRegion": {"startLine": 2, "startColumn": 1, "endLine": 3, "endColumn": 1},
                    "insertedContent": {"text": ""}
                }]
            }],
            "properties": {"applicability": "safe"}
        }])
    );
    let typo = results
        .iter()
        .find(|r| r["ruleId"] == "data-value-unknown-reference")
        .unwrap();
    assert_eq!(typo["fixes"][0]["properties"]["applicability"], "unsafe");
}
