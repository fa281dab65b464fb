//! Conformance with ytt's Starlark (starlark-go) where starlark-rust differs: each template in
//! `tests/data/starlark_go/` is rendered with `yttlint template` and compared with what ytt
//! printed for it (recorded next to it; see the README there).

use std::path::{Path, PathBuf};
use std::process::Command;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/starlark_go")
}

/// Renders `name.yml` from the data directory (run there, so errors name `name.yml`).
fn render(name: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .args(["template", "-f", &format!("{name}.yml")])
        .current_dir(data_dir())
        .output()
        .expect("run yttlint");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks one case; returns a description of the difference, if any.
fn check(name: &str) -> Option<String> {
    let dir = data_dir();
    let (code, out, err) = render(name);
    if let Ok(want) = std::fs::read_to_string(dir.join(format!("{name}.out"))) {
        if code != 0 || out != want {
            return Some(format!(
                "{name}: want exit 0 and\n{want}\ngot exit {code}:\n{out}{err}"
            ));
        }
        return None;
    }
    let want = std::fs::read_to_string(dir.join(format!("{name}.err")))
        .unwrap_or_else(|_| panic!("{name}: neither {name}.out nor {name}.err"));
    // A recovered Go panic: compare up to the reason, where ytt prints Go's backtrace.
    let got = if want.trim_end().ends_with("reason:") {
        let upto: Vec<&str> = err.split_inclusive('\n').collect();
        let n = want.split_inclusive('\n').count();
        upto.into_iter().take(n).collect::<String>()
    } else {
        err.clone()
    };
    if code != 1 || got != want {
        return Some(format!(
            "{name}: want exit 1 and\n{want}\ngot exit {code}:\n{out}{err}"
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
