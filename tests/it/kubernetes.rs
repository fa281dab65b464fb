//! The Kubernetes schema check on rendered ytt roots: each folder of `fixtures/kubernetes/` has
//! a root in `config/` and, in `expected.txt`, what checking its output gives, one line per
//! violation (`file:line:col: object path: message (help)`) and per document skipped.
//! `YTTLINT_BLESS=1 cargo test --release --test it kubernetes::` rewrites the expectations.

use std::path::{Path, PathBuf};

use yttlint::files;
use yttlint::kubernetes::{check, CheckResult, Registry, DEFAULT_VERSION};
use yttlint::library::{EvalOpts, ExternalValues, Workspace};

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
