//! Identical copies of a private library are checked once per worker, and every copy still gets
//! its own findings at its own paths; a copy that differs is checked on its own.

use std::path::Path;

use crate::util::json::str_of;
use crate::util::repo::{Lint, Repo};

/// The findings in private libraries, as `file:line rule`, sorted.
fn library_findings(dir: &Path, jobs: &str) -> Vec<String> {
    let lint = Lint::run(dir, &["--no-cache", "-j", jobs]);
    let mut found: Vec<String> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["file"].as_str().is_some_and(|f| f.contains("_ytt_lib")))
        .map(|d| {
            format!(
                "{}:{} {} ({})",
                str_of(d, "file"),
                d["line"],
                str_of(d, "rule"),
                d["root"].as_str().unwrap_or_default()
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn every_copy_of_a_library_gets_its_findings_at_its_own_paths() {
    let dir = Repo::new();
    let lib = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\nname: #@ data.values.name\n#@overlay/matchh by=\"x\"\nother: 1\n";
    let values = "#@data/values\n---\nname: x\n";
    dir.write(
        ".yttlint.yaml",
        "roots:\n  - path: one\n  - path: two\n  - path: three\n",
    );
    for root in ["one", "two", "three"] {
        dir.write(
            &format!("{root}/main.yml"),
            "#@ load(\"@ytt:template\", \"template\")\na: 1\n",
        );
        dir.write(&format!("{root}/_ytt_lib/lib/lib.yml"), lib);
        dir.write(&format!("{root}/_ytt_lib/lib/values.yml"), values);
    }
    // The third copy differs: one more unused load, on another line.
    dir.write(
        "three/_ytt_lib/lib/lib.yml",
        format!("#@ load(\"@ytt:json\", \"json\")\n{lib}"),
    );
    let want = [
        "one/_ytt_lib/lib/lib.yml:2 unused-load (one/_ytt_lib/lib)",
        "one/_ytt_lib/lib/lib.yml:4 annotation-typo (one/_ytt_lib/lib)",
        "three/_ytt_lib/lib/lib.yml:1 unused-load (three/_ytt_lib/lib)",
        "three/_ytt_lib/lib/lib.yml:3 unused-load (three/_ytt_lib/lib)",
        "three/_ytt_lib/lib/lib.yml:5 annotation-typo (three/_ytt_lib/lib)",
        "two/_ytt_lib/lib/lib.yml:2 unused-load (two/_ytt_lib/lib)",
        "two/_ytt_lib/lib/lib.yml:4 annotation-typo (two/_ytt_lib/lib)",
    ];
    // One worker checks every copy in turn; two share them.
    assert_eq!(library_findings(&dir, "1"), want);
    assert_eq!(library_findings(&dir, "2"), want);
}
