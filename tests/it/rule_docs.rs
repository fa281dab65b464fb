//! Each rule's page (`docs/rules/ID.md`, what `yttlint rule ID` prints) has an example; this runs
//! it: the files of its `title="PATH"` blocks become a repository, and linting it must report
//! the rule. Only `internal-error` has no example (no input is meant to cause it). A block titled
//! `(setup)` holds shell commands run in that repository (symlinks and named pipes).

use std::process::Command;

use crate::util::json::diagnostics;
use crate::util::{repo_root, yttlint, TempDir};

/// `(path, text)` of each fenced block whose opening line names a file with `title="PATH"`.
fn example_files(page: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line
            .strip_prefix("```")
            .and_then(|l| l.split_once("title=\""))
        else {
            continue;
        };
        let path = rest.1.trim_end_matches('"').to_string();
        let mut text = String::new();
        for body in lines.by_ref() {
            if body.starts_with("```") {
                break;
            }
            text.push_str(body);
            text.push('\n');
        }
        files.push((path, text));
    }
    files
}

/// The title of a block of shell commands run in the example's repository.
const SETUP: &str = "(setup)";

#[test]
fn every_example_triggers_its_rule() {
    let docs = repo_root().join("docs/rules");
    let mut checked = 0;
    let mut failures = Vec::new();
    for rule in yttlint::report::Rule::ALL {
        let (id, page) = (rule.id(), rule.page());
        let files = example_files(page);
        if id == "internal-error" {
            assert!(files.is_empty());
            continue;
        }
        assert!(!files.is_empty(), "{id}: the example names no file");
        assert_eq!(
            std::fs::read_to_string(docs.join(format!("{id}.md"))).unwrap(),
            *page
        );
        let dir = TempDir::new();
        for (path, text) in files.iter().filter(|(p, _)| p != SETUP) {
            dir.write(path, text);
        }
        // Symlinks and named pipes cannot be written as files: `(setup)` blocks make them.
        for (_, script) in files.iter().filter(|(p, _)| p == SETUP) {
            let ok = Command::new("sh")
                .args(["-c", script])
                .current_dir(&dir)
                .status()
                .unwrap()
                .success();
            assert!(ok, "{id}: setup failed: {script}");
        }
        if !dir.join(".yttlint.yaml").exists() {
            dir.write(".yttlint.yaml", "");
        }
        let run = yttlint(&dir, &["--format", "json"]);
        let report: serde_json::Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{id}: {e}: {}", run.stderr));
        let rules: Vec<&str> = diagnostics(&report)
            .iter()
            .filter_map(|d| d["rule"].as_str())
            .collect();
        if !rules.contains(&id) {
            failures.push(format!("{id}: the example reports {rules:?}"));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, yttlint::report::Rule::ALL.len() - 1);
}
