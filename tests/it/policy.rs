//! The policy layer through the built binary: every check's fixture pair
//! (`fixtures/policy/RULE/{fires,clean}`, linted with `--select RULE`: `fires` reports what
//! its `expected.txt` says, `clean` reports nothing of the rule), the kube-linter category and
//! its configuration, the repository's Starlark policies (the example of issue 42), and what
//! `yttlint rule` lists. `YTTLINT_BLESS=1 cargo test --release --test it policy::` rewrites
//! the expectations.

use std::path::Path;

use crate::util::bin::yttlint;
use crate::util::fixture;
use crate::util::golden;
use crate::util::json::diagnostics;
use crate::util::temp::{copy_tree, TempDir};

/// The rule a fixture folder is about (`policy-team` is the repository policy `policy/team`).
fn rule_of(folder: &str) -> String {
    match folder {
        "policy-team" => "policy/team".to_string(),
        other => other.to_string(),
    }
}

/// `file:line: severity[rule]: message` of each finding of `rule` when `dir` is linted with
/// `--select rule`, and the related locations indented below.
fn findings_of(dir: &Path, rule: &str) -> String {
    let run = yttlint(dir, &["--format", "json", "--select", rule]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{}: {e}: {}", dir.display(), run.stderr));
    let mut out = String::new();
    for d in diagnostics(&report) {
        assert_eq!(d["rule"], rule, "--select {rule} reported {d}");
        out.push_str(&format!(
            "{}:{}: {}[{}]: {}\n",
            d["file"].as_str().unwrap_or("?"),
            d["line"],
            d["severity"].as_str().unwrap_or("?"),
            rule,
            d["message"]
                .as_str()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("")
        ));
        for r in d["related"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "    {}:{}: {}\n",
                r["file"].as_str().unwrap_or("?"),
                r["line"],
                r["message"].as_str().unwrap_or("")
            ));
        }
    }
    out
}

/// A copy of a fixture case, as a repository of its own.
fn repository(case: &Path) -> TempDir {
    let dir = TempDir::new();
    copy_tree(case, &dir);
    if !dir.join(".yttlint.yaml").exists() {
        dir.write(".yttlint.yaml", "");
    }
    dir
}

#[test]
fn every_check_fires_on_its_fixture_and_not_on_its_clean_twin() {
    let base = fixture("policy");
    let mut folders: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut failures = Vec::new();
    for folder in &folders {
        let rule = rule_of(folder);
        let fires = repository(&base.join(folder).join("fires"));
        let found = findings_of(&fires, &rule);
        if found.is_empty() {
            failures.push(format!("{folder}/fires reports nothing of {rule}"));
        }
        if let Err(e) = golden::compare(&base.join(folder).join("fires/expected.txt"), &found) {
            failures.push(e);
        }
        let clean = repository(&base.join(folder).join("clean"));
        let found = findings_of(&clean, &rule);
        if !found.is_empty() {
            failures.push(format!("{folder}/clean reports {rule}:\n{found}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every rule of the layer has its pair.
    let rules = yttlint::report::Rule::KUBE_LINTER
        .iter()
        .chain(yttlint::report::Rule::CROSS_OBJECT)
        .map(|r| r.id().to_string())
        .chain(["policy-error".to_string(), "policy/team".to_string()]);
    for id in rules {
        assert!(
            folders.iter().any(|f| rule_of(f) == id),
            "no fixture for {id}"
        );
    }
}

#[test]
fn the_clean_application_passes_every_check_of_every_category() {
    let dir = repository(&fixture("policy").join("no-read-only-root-fs/clean"));
    dir.write(".yttlint.yaml", "policies: {checks: [kube-linter]}\n");
    let run = yttlint(&dir, &["--format", "json"]);
    let report = run.json();
    assert!(diagnostics(&report).is_empty(), "{}", run.stdout);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// A Deployment that breaks several kube-linter checks, and a Service that selects it.
const LAX: &str = "#@ load(\"@ytt:data\", \"data\")
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: #@ data.values.replicas
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      hostNetwork: true
      containers:
      - name: web
        image: nginx
";

fn rules_reported(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    let run = yttlint(dir, &all);
    let report = run.json();
    let mut rules: Vec<String> = diagnostics(&report)
        .iter()
        .map(|d| d["rule"].as_str().unwrap_or("").to_string())
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

#[test]
fn kube_linter_checks_are_off_until_the_configuration_or_select_asks() {
    let dir = TempDir::with_files(&[
        ("config/app.yml", LAX),
        ("config/values.yml", "#@data/values\n---\nreplicas: 3\n"),
        (".yttlint.yaml", ""),
    ]);
    assert!(rules_reported(&dir, &[]).is_empty());
    let selected = rules_reported(&dir, &["--select", "latest-tag"]);
    assert_eq!(selected, vec!["latest-tag"]);
    dir.write(".yttlint.yaml", "policies: {checks: [kube-linter]}\n");
    let all = rules_reported(&dir, &[]);
    for rule in [
        "host-network",
        "latest-tag",
        "no-anti-affinity",
        "run-as-non-root",
    ] {
        assert!(all.contains(&rule.to_string()), "{rule} not in {all:?}");
    }
    let ignored = rules_reported(&dir, &["--ignore", "latest-tag"]);
    assert!(!ignored.contains(&"latest-tag".to_string()));
    // A level under `rules:` turns one check on, and `off` one check off.
    dir.write(".yttlint.yaml", "rules: {host-network: error}\n");
    assert_eq!(rules_reported(&dir, &[]), vec!["host-network"]);
    dir.write(
        ".yttlint.yaml",
        "policies: {checks: [kube-linter]}\nrules: {host-network: off}\n",
    );
    assert!(!rules_reported(&dir, &[]).contains(&"host-network".to_string()));
    // kube-linter's annotation keeps a check off an object.
    let annotated = LAX.replace(
        "  name: web\nspec:",
        "  name: web\n  annotations:\n    ignore-check.kube-linter.io/host-network: \"needed\"\nspec:",
    );
    dir.write("config/app.yml", annotated);
    dir.write(".yttlint.yaml", "policies: {checks: [kube-linter]}\n");
    assert!(!rules_reported(&dir, &[]).contains(&"host-network".to_string()));
}

/// Two files of the root the configuration lists render one object: an error naming both.
/// (With the root only inferred from the layout, a warning naming that: nothing says a
/// command gives both files, `round_fifteen_lead`.)
#[test]
fn two_config_maps_of_one_name_are_an_error_naming_both_files() {
    let cm = |level: &str| {
        format!(
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: #@ data.values.namespace\ndata:\n  level: {level}\n"
        )
    };
    let dir = TempDir::with_files(&[
        ("config/base.yml", &cm("info")),
        ("config/debug.yml", &cm("debug")),
        ("config/values.yml", "#@data/values\n---\nnamespace: prod\n"),
        (".yttlint.yaml", "roots:\n  - path: config\n"),
    ]);
    let run = yttlint(&dir, &["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = run.json();
    let found: Vec<&serde_json::Value> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "duplicate-object")
        .collect();
    assert_eq!(found.len(), 1, "{}", run.stdout);
    let d = found[0];
    assert_eq!(d["severity"], "error");
    let message = d["message"].as_str().unwrap();
    assert!(
        message.starts_with("ConfigMap prod/app: rendered twice"),
        "{message}"
    );
    assert!(
        message.contains("config/base.yml:6") && message.contains("config/debug.yml:6"),
        "{message}"
    );
    assert_eq!(d["file"], "config/debug.yml");
    assert_eq!(d["related"][0]["file"], "config/base.yml");
}

const TEAM: &str = r#"load("@yttlint:policy", "violation")

def check(obj):
  if obj["kind"] != "Deployment":
    return []
  end
  labels = obj["metadata"].get("labels") or {}
  if "team" not in labels:
    return [violation("a Deployment needs a team label", path=["metadata"])]
  end
  return []
end
"#;

/// Two Deployments, one with a team label (line 3 and 23 are their `metadata:`).
const TWO: &str = "#@ load(\"@ytt:data\", \"data\")
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: #@ data.values.image
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels:
    team: payments
spec:
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: #@ data.values.image
";

fn team_repository(config: &str) -> TempDir {
    TempDir::with_files(&[
        (".yttlint.yaml", config),
        ("policies/team.star", TEAM),
        ("config/app.yml", TWO),
        (
            "config/values.yml",
            "#@data/values\n---\nimage: registry.example.com/app:1.0\n",
        ),
    ])
}

#[test]
fn the_issue_policy_reports_the_deployment_without_the_label_at_its_metadata_line() {
    for config in [
        "policies: [policies]\n",
        "policies: {dirs: [policies], checks: [kube-linter]}\n",
    ] {
        let dir = team_repository(config);
        let run = yttlint(&dir, &["--format", "json"]);
        let report = run.json();
        let team: Vec<&serde_json::Value> = diagnostics(&report)
            .iter()
            .filter(|d| d["rule"] == "policy/team")
            .collect();
        assert_eq!(team.len(), 1, "{config}: {}", run.stdout);
        assert_eq!(
            team[0]["message"],
            "Deployment web: a Deployment needs a team label"
        );
        assert_eq!(
            (team[0]["file"].as_str(), team[0]["line"].as_u64()),
            (Some("config/app.yml"), Some(5))
        );
        assert_eq!(team[0]["severity"], "error");
        assert_eq!(run.code, 1);
    }
    // `--select` of the policy alone, and its level changed under `rules:`.
    let dir = team_repository("policies: [policies]\nrules: {policy/team: warning}\n");
    assert_eq!(
        rules_reported(&dir, &["--select", "policy/team"]),
        vec!["policy/team"]
    );
    let run = yttlint(&dir, &["--format", "json"]);
    assert_eq!(diagnostics(&run.json())[0]["severity"], "warning");
    assert!(rules_reported(&dir, &["--ignore", "policy/team"]).is_empty());
    let unknown = yttlint(&dir, &["--select", "policy/teams"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("the policies are: policy/team"),
        "{}",
        unknown.stderr
    );
    // A suppression comment at the template line works as for any rule.
    dir.write(
        "config/app.yml",
        TWO.replacen(
            "metadata:\n  name: web",
            "metadata: #! yttlint: disable=policy/team\n  name: web",
            1,
        ),
    );
    assert!(rules_reported(&dir, &[]).is_empty());
}

#[test]
fn the_policies_are_listed_and_explained_and_never_linted_as_ytt_files() {
    let dir = team_repository("policies: [policies]\n");
    let run = yttlint(&dir, &["rule"]);
    assert_eq!(run.code, 0);
    for rule in yttlint::report::Rule::KUBE_LINTER {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.starts_with(&format!("{} ", rule.id()))),
            "{rule}"
        );
    }
    assert!(run.stdout.contains("policy/team") && run.stdout.contains("policies/team.star"));
    let page = yttlint(&dir, &["rule", "policy/team"]);
    assert_eq!(page.code, 0, "{}", page.stderr);
    assert!(page.stdout.starts_with("# policy/team\n") && page.stdout.contains("violation("));
    let roots = yttlint(&dir, &["--list-roots"]);
    assert!(!roots.stdout.contains("policies"), "{}", roots.stdout);
}

#[test]
fn the_configuration_says_what_is_wrong_with_policies() {
    let cases = [
        (
            "policies: {checks: [kube-lint]}\n",
            "unknown category of checks \"kube-lint\"",
        ),
        ("policies: [../elsewhere]\n", "outside the repository"),
        ("policies: [missing]\n", "does not exist"),
        (
            "policies: [.]\n",
            "must be a directory below the repository's",
        ),
        (
            "policies: {dir: [policies]}\n",
            "unknown key \"dir\" in policies",
        ),
        (
            "policies: [policies]\nrules: {policy/nope: off}\n",
            "the policies are: policy/team",
        ),
    ];
    for (config, message) in cases {
        let dir = team_repository(config);
        let run = yttlint(&dir, &[]);
        assert_eq!(run.code, 2, "{config}");
        assert!(run.stderr.contains(message), "{config}: {}", run.stderr);
    }
    let dir = team_repository("policies: [policies]\n");
    dir.write("policies/team copy.star", TEAM);
    let run = yttlint(&dir, &[]);
    assert!(
        run.stderr.contains("cannot name a policy"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_hostile_policy_reads_nothing_outside_its_directories() {
    let dir = team_repository("policies: [policies]\n");
    dir.write(
        "policies/escape.star",
        "load(\"../config/values.star\", \"x\")\ndef check(obj):\n  return []\nend\n",
    );
    dir.write("config/values.star", "x = 1\n");
    let run = yttlint(&dir, &["--format", "json"]);
    let report = run.json();
    let errors: Vec<&serde_json::Value> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "policy-error")
        .collect();
    assert_eq!(errors.len(), 1, "{}", run.stdout);
    assert_eq!(errors[0]["file"], "policies/escape.star");
    let message = errors[0]["message"].as_str().unwrap();
    assert!(
        message.contains("not a .star file of the policy directories"),
        "{message}"
    );
}

#[test]
fn sarif_describes_the_policies_that_have_findings() {
    let dir = team_repository("policies: [policies]\n");
    let run = yttlint(&dir, &["--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let index = rules.iter().position(|r| r["id"] == "policy/team").unwrap();
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "policy/team");
    assert_eq!(result["ruleIndex"], index);
}

/// The text of the block titled `title` in the README.
fn readme_block(title: &str) -> String {
    let readme = std::fs::read_to_string(crate::util::repo_root().join("README.md")).unwrap();
    let start = format!("```python title=\"{title}\"\n");
    let at = readme
        .find(&start)
        .unwrap_or_else(|| panic!("no {title} in the README"))
        + start.len();
    let end = readme[at..].find("```").unwrap();
    readme[at..at + end].to_string()
}

#[test]
fn the_readme_policies_work_as_the_readme_says() {
    let app = "#@ load(\"@ytt:data\", \"data\")
#@ for team in data.values.teams:
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: #@ team + \"-app\"
  labels:
    team: #@ team
spec:
  selector:
    matchLabels:
      app: #@ team
  template:
    metadata:
      labels:
        app: #@ team
    spec:
      containers:
      - name: app
        image: #@ data.values.images[team]
        resources:
          limits:
            memory: 256Mi
#@ end
";
    let values = "#@data/values\n---\nteams: [storefront, data-platform]\nimages:\n  storefront: registry.example.com/shop:1.0\n  data-platform: docker.io/spark:3.5\n";
    let dir = TempDir::with_files(&[
        (".yttlint.yaml", "policies: [policies]\n"),
        ("policies/team.star", &readme_block("policies/team.star")),
        (
            "policies/limits.star",
            &readme_block("policies/limits.star"),
        ),
        (
            "policies/registry.star",
            &readme_block("policies/registry.star"),
        ),
        ("config/app.yml", app),
        ("config/values.yml", values),
    ]);
    let run = yttlint(&dir, &["--format", "json"]);
    let report = run.json();
    let mut found: Vec<(String, String, u64, String)> = diagnostics(&report)
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            (
                "policy/limits".to_string(),
                "error".to_string(),
                23,
                "Deployment storefront-app: container app has no cpu limit".to_string()
            ),
            (
                "policy/registry".to_string(),
                "warning".to_string(),
                21,
                "Deployment data-platform-app: image docker.io/spark:3.5 is not from an allowed registry (registry.example.com/, ghcr.io/example/)".to_string()
            ),
        ],
        "{}",
        run.stdout
    );
}
