//! The examples of spec 000 (validations) and 002 (schema reference) as fixtures: each
//! directory under `fixtures/spec` holds the example's files and a `cases` file of
//! `name: yttlint template arguments`; `name.expected` is a golden file of the exit status
//! followed by the combined output the run must give, without trailing blank lines
//! (`YTTLINT_BLESS=1` writes it).

use std::path::Path;

use crate::util::{fixture, golden, template};

/// Runs one case; the difference from its golden file, if any.
fn run_case(dir: &Path, name: &str, args: &str) -> Result<(), String> {
    let args: Vec<&str> = args.split_whitespace().collect();
    let run = template(dir, &args);
    let got = format!("exit: {}\n{}{}", run.code, run.stdout, run.stderr);
    let got = format!("{}\n", got.trim_end());
    golden::compare(&dir.join(format!("{name}.expected")), &got)
}

#[test]
fn spec_examples_give_their_expected_output() {
    let root = fixture("spec");
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
