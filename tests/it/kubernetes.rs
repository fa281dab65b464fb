//! The Kubernetes schema check on rendered ytt roots: each folder of `fixtures/kubernetes/` has
//! a root in `config/` and, in `expected.txt`, what checking its output gives, one line per
//! violation (`file:line:col: object path: message (help)`) and per document skipped.
//! `YTTLINT_BLESS=1 cargo test --release --test it kubernetes::` rewrites the expectations.

use std::path::{Path, PathBuf};

use yttlint::files;
use yttlint::kubernetes::{check, CheckResult, Registry, DEFAULT_VERSION};
use yttlint::library::{EvalOpts, ExternalValues, Workspace};

use crate::util::bin::yttlint;
use crate::util::json::{diagnostics, str_of};
use crate::util::temp::TempDir;
use crate::util::{fixture, golden};

fn dir() -> PathBuf {
    fixture("kubernetes")
}

/// What checking the rendered output of `case` gives, as `expected.txt` spells it.
fn outcome(case: &Path) -> String {
    let config = case.join("config").to_string_lossy().into_owned();
    let mut no_stdin = || Err("no stdin".to_string());
    let inputs = files::collect(&[config], &mut no_stdin).unwrap();
    let ws = Workspace::new(inputs, EvalOpts::default());
    let out = ws.evaluate(ExternalValues::default()).unwrap();
    let mut registry = Registry::builtin(DEFAULT_VERSION).unwrap();
    for doc in &out.docs.items {
        registry.add_crd(doc);
    }
    let mut text = String::new();
    for doc in &out.docs.items {
        match check(&registry, doc) {
            CheckResult::Checked(violations) => {
                for v in violations {
                    let help = v.help.map(|h| format!(" ({h})")).unwrap_or_default();
                    let at = format!("{}:{}", v.pos, v.pos.col);
                    text.push_str(&format!(
                        "{at}: {} {}: {}{help}\n",
                        v.object, v.path, v.message
                    ));
                }
            }
            CheckResult::NoSchema { api_version, kind } => {
                let builtin = match registry.is_builtin_group(&api_version) {
                    true => " (a built-in group: an API Kubernetes does not serve)",
                    false => "",
                };
                text.push_str(&format!("no schema: {api_version} {kind}{builtin}\n"));
            }
            CheckResult::NotAnObject => text.push_str("not an object\n"),
            CheckResult::BadSchema {
                api_version,
                kind,
                message,
            } => {
                text.push_str(&format!("bad schema: {api_version} {kind}: {message}\n"));
            }
        }
    }
    text
}

#[test]
fn fixtures_give_their_expected_violations() {
    let mut cases: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 9, "{cases:?}");
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|case| golden::compare(&case.join("expected.txt"), &outcome(case)).err())
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn clean_manifests_give_nothing() {
    assert_eq!(outcome(&dir().join("clean")), "");
}

#[test]
fn a_registry_is_shared_by_threads() {
    let registry = Registry::builtin(DEFAULT_VERSION).unwrap();
    let case = dir().join("unknown-field");
    let config = case.join("config").to_string_lossy().into_owned();
    let mut no_stdin = || Err("no stdin".to_string());
    let inputs = files::collect(&[config], &mut no_stdin).unwrap();
    let out = Workspace::new(inputs, EvalOpts::default())
        .evaluate(ExternalValues::default())
        .unwrap();
    let doc = &out.docs.items[0];
    let counts: Vec<usize> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| check(&registry, doc).violations().len()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(counts, vec![3; 4]);
}

const WIDGET_CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
";

/// A root rendering a Widget with a misspelt field (`sizee`, line 7).
fn widget_root(name: &str) -> String {
    format!(
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: example.com/v1\nkind: Widget\n\
         metadata: {{name: {name}}}\nspec:\n  sizee: #@ data.values.size\n"
    )
}

#[test]
fn a_crd_elsewhere_in_the_repository_checks_every_root_in_workers_and_in_threads() {
    // The CRD is in none of the roots: each job looks it up in the repository's list, which
    // a worker process is sent once and then finds again by its digest.
    let values = "#@data/values\n---\nsize: 3\n";
    let repo = TempDir::with_files(&[
        ("vendor/widget-crd.yaml", WIDGET_CRD),
        ("a/config.yml", &widget_root("a")),
        ("a/values.yml", values),
        ("b/config.yml", &widget_root("b")),
        ("b/values.yml", values),
        (".yttlint.yaml", "roots: [{path: a}, {path: b}]\n"),
    ]);
    for mode in [&["-j", "1"][..], &["-j", "2"], &["--in-process"]] {
        let args = [&["--format", "json"][..], mode].concat();
        let run = yttlint(&repo, &args);
        assert_eq!(run.code, 1, "{mode:?}: {}{}", run.stdout, run.stderr);
        let report = run.json();
        let mut found: Vec<String> = diagnostics(&report)
            .iter()
            .filter(|d| d["rule"] == "k8s-schema")
            .map(|d| {
                let (file, message) = (str_of(d, "file"), str_of(d, "message"));
                format!("{file}:{} {message}", d["line"])
            })
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                "a/config.yml:7 Widget a: unknown field \"sizee\" in \"spec\"; expected one of \"size\"",
                "b/config.yml:7 Widget b: unknown field \"sizee\" in \"spec\"; expected one of \"size\"",
            ],
            "{mode:?}: {}",
            run.stdout
        );
    }
}
