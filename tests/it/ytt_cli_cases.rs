//! Command-line cases recorded from ytt, in the shape of the shared conformance corpus:
//! each directory under `fixtures/ytt-cli` holds the input files, `args` (the arguments of
//! `ytt template`, one per line) and what ytt printed: `expected.yml` (standard output, exit
//! status 0) or `expected.err` (standard error, a non-zero exit status). `yttlint template`
//! must print the same. In an error, a line of generated code (`file:? | ... (generated)`)
//! only has to be a generated line of the same file: yttlint's generated code is its own.
//!
//! With `YTT_REFERENCE=/path/to/ytt`, every case is also run with that ytt, which must still
//! print what was recorded.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::repo_root;

fn cases() -> Vec<PathBuf> {
    let root = repo_root().join("fixtures/ytt-cli");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/ytt-cli")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn args(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("args")).expect("args");
    text.lines().map(str::to_string).collect()
}

/// Runs `program [prefix] args` in `dir`: exit status, standard output, standard error.
fn run(dir: &Path, program: &Path, prefix: &[&str]) -> (i32, String, String) {
    let out = Command::new(program)
        .args(prefix)
        .args(args(dir))
        .current_dir(dir)
        .output()
        .expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether `got` is what ytt printed (`want`), generated code aside.
fn same_error(want: &str, got: &str) -> bool {
    let want: Vec<&str> = want.trim_end().lines().collect();
    let got: Vec<&str> = got.trim_end().lines().collect();
    want.len() == got.len()
        && want.iter().zip(&got).all(|(w, g)| {
            match (w.split_once(":? | "), g.split_once(":? | ")) {
                (Some((wf, wc)), Some((gf, gc))) if wc.ends_with(" (generated)") => {
                    wf == gf && gc.ends_with(" (generated)")
                }
                _ => w == g,
            }
        })
}

/// What is wrong with `(code, stdout, stderr)` as the output of case `dir`, if anything.
fn check(dir: &Path, (code, stdout, stderr): (i32, String, String)) -> Option<String> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    if let Ok(want) = std::fs::read_to_string(dir.join("expected.yml")) {
        if code != 0 || stdout.trim_end() != want.trim_end() {
            return Some(format!(
                "{name}: want exit 0 and\n{want}\ngot exit {code} and\n{stdout}{stderr}"
            ));
        }
        return None;
    }
    let want = std::fs::read_to_string(dir.join("expected.err")).ok()?;
    if code == 0 || !same_error(&want, &stderr) {
        return Some(format!(
            "{name}: want a failure with\n{want}\ngot exit {code} and\n{stderr}"
        ));
    }
    None
}

#[test]
fn yttlint_template_prints_what_ytt_printed() {
    let dirs = cases();
    assert!(dirs.len() >= 10, "only {} cases", dirs.len());
    let bin = Path::new(env!("CARGO_BIN_EXE_yttlint"));
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|dir| check(dir, run(dir, bin, &["template"])))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
#[ignore = "needs a reference ytt (YTT_REFERENCE)"]
fn the_recordings_are_still_ytt_s() {
    let ytt = std::env::var_os("YTT_REFERENCE").expect("YTT_REFERENCE names a ytt binary");
    let failures: Vec<String> = cases()
        .iter()
        .filter_map(|dir| check(dir, run(dir, Path::new(&ytt), &[])))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
