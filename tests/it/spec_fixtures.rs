//! The examples of spec 000 (validations) and 002 (schema reference) as fixtures: each
//! directory under `fixtures/spec` holds the example's files and a `cases` file of
//! `name: yttlint template arguments`; `name.expected` is the exit status followed by the
//! combined output the run must give.

use std::path::Path;
use std::process::Command;

fn run_case(dir: &Path, name: &str, args: &str) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .arg("template")
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    let mut got = format!("exit: {}\n", out.status.code().unwrap_or(-1));
    got.push_str(&String::from_utf8_lossy(&out.stdout));
    got.push_str(&String::from_utf8_lossy(&out.stderr));
    let want = std::fs::read_to_string(dir.join(format!("{name}.expected")))
        .map_err(|e| format!("{name}.expected: {e}"))?;
    if got.trim_end() == want.trim_end() {
        Ok(())
    } else {
        Err(format!(
            "{}/{name}: output differs\n--- want\n{want}\n--- got\n{got}",
            dir.display()
        ))
    }
}

#[test]
fn spec_examples_give_their_expected_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/spec");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/spec")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("cases").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 8, "expected the spec example directories");
    let mut failures = Vec::new();
    let mut count = 0;
    for dir in &dirs {
        let cases = std::fs::read_to_string(dir.join("cases")).expect("cases");
        for line in cases.lines().filter(|l| !l.trim().is_empty()) {
            let (name, args) = line.split_once(':').expect("name: args");
            count += 1;
            if let Err(e) = run_case(dir, name.trim(), args.trim()) {
                failures.push(e);
            }
        }
    }
    assert!(count >= 20, "only {count} cases found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
