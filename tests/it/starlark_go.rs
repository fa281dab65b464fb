//! Conformance with ytt's Starlark (starlark-go) where starlark-rust differs: each template in
//! `tests/data/starlark_go/` is rendered with `yttlint template` and compared with what ytt
//! printed for it (recorded next to it; see the README there). These files are ytt's output,
//! not yttlint's: they are never blessed from yttlint's output.

use std::path::PathBuf;

use crate::util::golden::diff;
use crate::util::{repo_root, template};

fn data_dir() -> PathBuf {
    repo_root().join("tests/data/starlark_go")
}

/// Checks one case; returns a description of the difference, if any.
fn check(name: &str) -> Option<String> {
    let dir = data_dir();
    // Run in the data directory, so that errors name `name.yml`.
    let run = template(&dir, &["-f", &format!("{name}.yml")]);
    if let Ok(want) = std::fs::read_to_string(dir.join(format!("{name}.out"))) {
        if run.code != 0 || run.stdout != want {
            return Some(format!(
                "{name}: want exit 0, got exit {}; standard output (-ytt +yttlint):\n{}{}",
                run.code,
                diff(&want, &run.stdout),
                run.stderr
            ));
        }
        return None;
    }
    let want = std::fs::read_to_string(dir.join(format!("{name}.err")))
        .unwrap_or_else(|_| panic!("{name}: neither {name}.out nor {name}.err"));
    // A recovered Go panic: compare up to the reason, where ytt prints Go's backtrace.
    let got = if want.trim_end().ends_with("reason:") {
        let upto: Vec<&str> = run.stderr.split_inclusive('\n').collect();
        let n = want.split_inclusive('\n').count();
        upto.into_iter().take(n).collect::<String>()
    } else {
        run.stderr.clone()
    };
    if run.code != 1 || got != want {
        return Some(format!(
            "{name}: want exit 1, got exit {}; standard error (-ytt +yttlint):\n{}{}",
            run.code,
            diff(&want, &got),
            run.stdout
        ));
    }
    None
}

#[test]
fn templates_render_as_ytt_renders_them() {
    let mut names: Vec<String> = std::fs::read_dir(data_dir())
        .expect("data dir")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".yml").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 20, "cases: {names:?}");
    let failures: Vec<String> = names.iter().filter_map(|n| check(n)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} differ from ytt:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}
