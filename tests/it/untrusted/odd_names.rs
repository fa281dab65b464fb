//! Issue 40, probe 9: a directory whose name is not UTF-8 gave `lstat ... no such file or
//! directory` (its lossy name was looked up on disk), and the root's real finding was lost.
//! Such a name is now a `name-not-utf8` warning at the entry (the name shown with U+FFFD), and
//! every root is linted: a root still reads the entry, as ytt does.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use super::findings_of;
use crate::util::{command, yttlint, Run, TempDir};

/// A name of `prefix` and the byte 0xFF, which is not UTF-8.
fn odd(prefix: &str) -> std::path::PathBuf {
    let mut bytes = prefix.as_bytes().to_vec();
    bytes.push(0xFF);
    std::path::PathBuf::from(OsStr::from_bytes(&bytes))
}

/// `(rule, file, message)` of each finding of the JSON report.
fn found(run: &Run) -> Vec<(String, String, String)> {
    findings_of(run)
        .into_iter()
        .map(|(rule, file, message, _)| (rule, file, message))
        .collect()
}

#[test]
fn names_that_are_not_utf8_are_reported_and_every_root_is_linted() {
    let dir = TempDir::with_files(&[
        ("app/t.yml", "k: #@ undefined_name_of_app\n"),
        ("app/_ytt_lib/ok/h.star", "X = 1\n"),
        ("other/t.yml", "o: #@ undefined_name_of_other\n"),
    ]);
    // A directory in a root, a private library, a file in a root, and a directory holding a
    // would-be root of its own.
    let in_root = dir.join("app").join(odd("old"));
    std::fs::create_dir_all(&in_root).unwrap();
    std::fs::write(in_root.join("c.yml"), "c: #@ 1\n").unwrap();
    let lib = dir.join("app/_ytt_lib").join(odd("lib"));
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(lib.join("h.star"), "Y = 2\n").unwrap();
    std::fs::write(
        dir.join("other").join(odd("v")).with_extension("yml"),
        "v: 1\n",
    )
    .unwrap();
    let outer = dir.join(odd("bad")).join("app");
    std::fs::create_dir_all(&outer).unwrap();
    std::fs::write(outer.join("t.yml"), "k: #@ 1\n").unwrap();

    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    let found = found(&run);
    let odd_names: Vec<(&str, &str)> = found
        .iter()
        .filter(|(r, _, _)| r == "name-not-utf8")
        .map(|(_, f, m)| (f.as_str(), m.as_str()))
        .collect();
    let files: Vec<&str> = odd_names.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        files,
        [
            "app/_ytt_lib/lib\u{FFFD}",
            "app/old\u{FFFD}",
            "bad\u{FFFD}",
            "other/v\u{FFFD}.yml"
        ],
        "{found:?}"
    );
    assert!(odd_names[1].1.contains("ytt reads it with root app"));
    // Each root's own finding is there, and no lookup of a lossy name failed.
    for name in ["undefined_name_of_app", "undefined_name_of_other"] {
        assert!(found.iter().any(|(_, _, m)| m.contains(name)), "{found:?}");
    }
    assert!(
        !found.iter().any(|(_, _, m)| m.contains("lstat")),
        "{found:?}"
    );
    assert_eq!(run.code, 1);
}

#[test]
fn a_repository_whose_path_is_not_utf8_is_a_usage_error() {
    let base = TempDir::new();
    let repo = base.join(odd("repo"));
    std::fs::create_dir_all(repo.join("config")).unwrap();
    std::fs::write(repo.join("config/t.yml"), "k: #@ 1\n").unwrap();
    let run = Run::of(command(&repo).arg("--no-cache"));
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("is not UTF-8"), "{}", run.stderr);
}
