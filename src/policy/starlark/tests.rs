//! Policies evaluated over rendered objects: the example of issue 42, the errors a policy can
//! make, and the sandbox's limits.

use super::*;
use crate::policy::object::tests::docs;

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

const OBJECTS: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec: {}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels: {team: payments}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
";

fn source(path: &str, text: &str) -> Source {
    Source {
        path: path.into(),
        text: Ok(text.into()),
    }
}

fn run_one(files: &[(&str, &str)], objects: &str) -> Vec<Finding> {
    run_limited(files, objects, crate::eval::limits::Limits::default())
}

fn run_limited(
    files: &[(&str, &str)],
    objects: &str,
    limits: crate::eval::limits::Limits,
) -> Vec<Finding> {
    let dirs = vec!["policies".to_string()];
    let sources: Vec<Source> = files.iter().map(|(p, t)| source(p, t)).collect();
    let listed: Vec<Listed> = files
        .iter()
        .filter(|(p, _)| p.matches('/').count() == 1)
        .map(|(p, _)| Listed {
            name: p
                .trim_start_matches("policies/")
                .trim_end_matches(".star")
                .into(),
            path: p.to_string(),
        })
        .collect();
    let d = docs(objects);
    let refs: Vec<&Document> = d.iter().collect();
    run_with(
        &PolicyHost::with_limits(&dirs, &sources, limits),
        &listed,
        &refs,
    )
}

fn line(at: &At) -> (bool, u32) {
    match at {
        At::Output(p) => (true, p.line),
        At::Policy(p) => (false, p.line),
    }
}

#[test]
fn the_issue_example_reports_the_deployment_without_the_label_at_metadata() {
    let found = run_one(&[("policies/team.star", TEAM)], OBJECTS);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule.id(), "policy/team");
    assert_eq!(
        found[0].message,
        "Deployment web: a Deployment needs a team label"
    );
    assert_eq!(found[0].severity, Some(Severity::Error));
    assert_eq!(line(&found[0].at), (true, 3));
}

#[test]
fn helpers_load_and_severities_and_paths_into_lists() {
    let helper = "def image_of(c):\n  return c.get(\"image\", \"\")\nend\n";
    let policy = r#"load("@yttlint:policy", "violation")
load("lib/images.star", "image_of")

def check(obj):
  out = []
  containers = obj.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
  for i, c in enumerate(containers):
    if not image_of(c).startswith("registry.example.com/"):
      out.append(violation("image from outside the registry", path=["spec", "template", "spec", "containers", i, "image"], severity="warning"))
    end
  end
  return out
end
"#;
    let objects = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: registry.example.com/a:1\n      - name: b\n        image: docker.io/b:1\n";
    let found = run_one(
        &[
            ("policies/registry.star", policy),
            ("policies/lib/images.star", helper),
        ],
        objects,
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].severity, Some(Severity::Warning));
    assert_eq!(line(&found[0].at), (true, 11));
}

#[test]
fn a_failing_policy_is_one_error_at_its_line() {
    let bad = "load(\"@yttlint:policy\", \"violation\")\n\ndef check(obj):\n  return [violation(\"x\", path=[obj[\"nope\"]])]\nend\n";
    let found = run_one(&[("policies/bad.star", bad)], OBJECTS);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, Rule::PolicyError);
    assert_eq!(line(&found[0].at), (false, 4));
    assert!(
        found[0]
            .message
            .starts_with("policy/bad failed on Deployment web:"),
        "{}",
        found[0].message
    );
    let none = run_one(&[("policies/none.star", "x = 1\n")], OBJECTS);
    assert!(
        none[0].message.contains("defines no check(obj)"),
        "{}",
        none[0].message
    );
    let wrong = run_one(
        &[("policies/w.star", "def check(obj):\n  return \"no\"\nend\n")],
        OBJECTS,
    );
    assert!(
        wrong[0].message.contains("not a list of violations"),
        "{}",
        wrong[0].message
    );
    let syntax = run_one(
        &[("policies/s.star", "def check(obj)\n  return []\n")],
        OBJECTS,
    );
    assert_eq!(syntax[0].rule, Rule::PolicyError);
    assert!(
        syntax[0].message.contains("failed to load"),
        "{}",
        syntax[0].message
    );
}

#[test]
fn policies_are_sandboxed() {
    let escape = "load(\"../config/secret.star\", \"x\")\ndef check(obj):\n  return []\nend\n";
    let found = run_one(&[("policies/escape.star", escape)], OBJECTS);
    assert!(
        found[0]
            .message
            .contains("not a .star file of the policy directories"),
        "{}",
        found[0].message
    );
    let data = "load(\"@ytt:data\", \"data\")\ndef check(obj):\n  return []\nend\n";
    let found = run_one(&[("policies/data.star", data)], OBJECTS);
    assert!(
        found[0].message.contains("cannot load @ytt:data"),
        "{}",
        found[0].message
    );
    let forever = "def check(obj):\n  n = 0\n  for i in range(1000000):\n    for j in range(1000000):\n      n += j\n    end\n  end\n  return []\nend\n";
    let mut limits = crate::eval::limits::Limits::default();
    limits.timeout = std::time::Duration::from_millis(300);
    let found = run_limited(&[("policies/forever.star", forever)], OBJECTS, limits);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message.contains("limit exceeded"),
        "{}",
        found[0].message
    );
}
