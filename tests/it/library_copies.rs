//! Identical copies of a private library are checked once per worker, and every copy still gets
//! its own findings at its own paths; a copy that differs is checked on its own.

use std::path::Path;
use std::process::Command;

fn write(dir: &Path, path: &str, text: &str) {
    let p = dir.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The findings in private libraries, as `file:line rule`, sorted.
fn library_findings(dir: &Path, jobs: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(dir)
        .args(["--format", "json", "--no-cache", "-j", jobs])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().is_some_and(|f| f.contains("_ytt_lib")))
        .map(|d| {
            format!(
                "{}:{} {} ({})",
                d["file"].as_str().unwrap(),
                d["line"],
                d["rule"].as_str().unwrap(),
                d["root"].as_str().unwrap_or_default()
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn every_copy_of_a_library_gets_its_findings_at_its_own_paths() {
    let dir = std::env::temp_dir().join(format!("yttlint-copies-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let lib = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\nname: #@ data.values.name\n#@overlay/matchh by=\"x\"\nother: 1\n";
    let values = "#@data/values\n---\nname: x\n";
    write(
        &dir,
        ".yttlint.yaml",
        "roots:\n  - path: one\n  - path: two\n  - path: three\n",
    );
    for root in ["one", "two", "three"] {
        write(
            &dir,
            &format!("{root}/main.yml"),
            "#@ load(\"@ytt:template\", \"template\")\na: 1\n",
        );
        write(&dir, &format!("{root}/_ytt_lib/lib/lib.yml"), lib);
        write(&dir, &format!("{root}/_ytt_lib/lib/values.yml"), values);
    }
    // The third copy differs: one more unused load, on another line.
    write(
        &dir,
        "three/_ytt_lib/lib/lib.yml",
        &format!("#@ load(\"@ytt:json\", \"json\")\n{lib}"),
    );
    let want = [
        "one/_ytt_lib/lib/lib.yml:2 unused-load (one/_ytt_lib/lib)",
        "one/_ytt_lib/lib/lib.yml:4 unknown-annotation (one/_ytt_lib/lib)",
        "three/_ytt_lib/lib/lib.yml:1 unused-load (three/_ytt_lib/lib)",
        "three/_ytt_lib/lib/lib.yml:3 unused-load (three/_ytt_lib/lib)",
        "three/_ytt_lib/lib/lib.yml:5 unknown-annotation (three/_ytt_lib/lib)",
        "two/_ytt_lib/lib/lib.yml:2 unused-load (two/_ytt_lib/lib)",
        "two/_ytt_lib/lib/lib.yml:4 unknown-annotation (two/_ytt_lib/lib)",
    ];
    // One worker checks every copy in turn; two share them.
    assert_eq!(library_findings(&dir, "1"), want);
    assert_eq!(library_findings(&dir, "2"), want);
    std::fs::remove_dir_all(&dir).unwrap();
}
