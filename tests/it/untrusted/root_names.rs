//! Issue 40, probe 6: a root directory named `evil=decoy/` was passed to the engine as
//! `-f evil=decoy`, which ytt reads as "the file `decoy`, named `evil`": the sibling `decoy/`
//! was linted in its place, the real root's error never shown, and the run exited 0. `x=y=z/`
//! got ytt's "only a single '=' sign" error instead of its own findings, and `-` names standard
//! input. Root names are paths now, wherever inputs become engine flags: discovered roots,
//! configured roots and their inputs, scenario values files.

use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, TempDir};

/// `(root, file, message)` of each finding of a run's JSON report.
fn findings(report: &serde_json::Value) -> Vec<(String, String, String)> {
    diagnostics(report)
        .iter()
        .map(|d| {
            (
                str_of(d, "root").to_string(),
                str_of(d, "file").to_string(),
                str_of(d, "message").to_string(),
            )
        })
        .collect()
}

/// A template whose evaluation fails on a name that says which root it is in.
fn failing(marker: &str) -> String {
    format!("k: #@ undefined_in_{marker}\n")
}

const DIRS: [(&str, &str); 3] = [("a=b", "ab"), ("x=y=z", "xyz"), ("-", "dash")];

#[test]
fn discovered_roots_with_equal_signs_or_a_dash_are_linted_as_themselves() {
    let dir = TempDir::new();
    for (name, marker) in DIRS {
        dir.write(&format!("{name}/t.yml"), failing(marker));
    }
    // The siblings `evil=decoy` would be read as: clean, and each its own root.
    dir.write("evil=decoy/t.yml", failing("evil"));
    dir.write("decoy/t.yml", "k: #@ 1\n");
    dir.write("b/t.yml", "k: #@ 2\n");
    dir.write("z/t.yml", "k: #@ 3\n");
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found = findings(&run.json());
    for (root, marker) in DIRS.iter().chain(&[("evil=decoy", "evil")]) {
        let mine: Vec<_> = found.iter().filter(|(r, _, _)| r == root).collect();
        assert_eq!(mine.len(), 1, "root {root}: {found:?}");
        assert_eq!(mine[0].1, format!("{root}/t.yml"));
        assert!(
            mine[0].2.contains(&format!("undefined_in_{marker}")),
            "root {root}: {:?}",
            mine[0]
        );
    }
    assert!(
        !found.iter().any(|(_, _, m)| m.contains("single '=' sign")),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|(r, f, _)| ["decoy", "b", "z"].contains(&r.as_str()) || f.starts_with("decoy/")),
        "{found:?}"
    );
}

/// A directory checked on its own (its files only supplement others: here an overlay), named
/// with `=`: the library check gave its files to the engine in ytt's syntax, `o.yml=lib=x/o.yml`
/// (the whole directory as `/…/lib=x`), so it got ytt's "single '=' sign" error and lost its
/// own finding (found re-running probe 6 with such directories).
#[test]
fn directories_checked_on_their_own_with_equal_signs_are_paths() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\n#@overlay/appendx\nk: 2\n";
    let dir = TempDir::with_files(&[
        ("lib=x/o.yml", overlay),
        ("x=y=z/o.yml", overlay),
        ("x/o.yml", "k: 1\n"),
        (".yttlint.yaml", ""),
    ]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    let found = findings(&run.json());
    for root in ["lib=x", "x=y=z"] {
        let mine: Vec<_> = found.iter().filter(|(r, _, _)| r == root).collect();
        assert_eq!(mine.len(), 1, "root {root}: {found:?}");
        assert_eq!(mine[0].1, format!("{root}/o.yml"));
        assert!(mine[0].2.contains("@overlay/appendx"), "{:?}", mine[0]);
    }
    assert!(
        !found.iter().any(|(_, _, m)| m.contains("single '=' sign")),
        "{found:?}"
    );
}

#[test]
fn configured_roots_and_values_files_with_equal_signs_are_paths() {
    let dir = TempDir::with_files(&[
        (
            "evil=decoy/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nport: #@ data.values.port + 1\n",
        ),
        ("evil=decoy/values.yml", "#@data/values\n---\nport: 1\n"),
        ("decoy/t.yml", "other: #@ 1\n"),
        ("v=w/prod.yml", "port: \"eighty\"\n"),
        (
            ".yttlint.yaml",
            "roots:\n  - path: evil=decoy\n    scenarios:\n      - name: defaults\n      - name: prod\n        values_files: [v=w/prod.yml]\n  - path: decoy\n",
        ),
    ]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    let found = findings(&run.json());
    // The prod scenario's values file is read (a string plus an int fails), in its root.
    assert!(
        found.iter().any(|(r, f, m)| r == "evil=decoy"
            && f == "evil=decoy/t.yml"
            && m.contains("string + int")),
        "{found:?}\n{}",
        run.stderr
    );
    assert_eq!(run.code, 1);
    let roots: Vec<(String, String)> = run.json()["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                str_of(r, "path").to_string(),
                r["scenario"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        roots,
        [
            ("decoy".to_string(), String::new()),
            ("evil=decoy".to_string(), "defaults".to_string()),
            ("evil=decoy".to_string(), "prod".to_string()),
        ]
    );
}

#[test]
fn a_nul_byte_in_a_configured_argument_is_refused() {
    // The explicit form of inputs starts with one: the repository may not forge it.
    let dir = TempDir::with_files(&[
        ("config/t.yml", "k: 1\n"),
        (
            ".yttlint.yaml",
            "roots:\n  - path: config\n    args: [\"-f\", \"\\0x\\0/etc/passwd\"]\n",
        ),
    ]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert!(!run.stdout.contains("root:x:0:0"), "{}", run.stdout);
    assert!(
        run.stdout.contains("holds a NUL byte"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
}
