//! Issue 40, probe 4: a "safe" fix must not change ytt's verdict. `unused-load` offered to
//! remove `load("@m:h.star", "y")`, where `h.star` (a private library) calls `assert.fail` at its
//! top level: ytt failed before the fix and rendered `v: 1` after it. The fix is now unsafe:
//! `--fix` leaves the file alone, `--fix --unsafe-fixes` applies it, and the before/after
//! comparison of `fix_safety` sees the render change.

use crate::fix_safety::{compare, Renderer};
use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, TempDir};

const TEMPLATE: &str = "#@ load(\"@m:h.star\", \"y\")\nv: 1\n";

fn probe() -> TempDir {
    TempDir::with_files(&[
        ("config/t.yml", TEMPLATE),
        (
            "config/_ytt_lib/m/h.star",
            "load(\"@ytt:assert\", \"assert\")\nassert.fail(\"the module refuses to load\")\ny = 1\n",
        ),
    ])
}

#[test]
fn removing_a_load_whose_module_fails_is_not_a_safe_fix() {
    let dir = probe();
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    let report = run.json();
    let fixes: Vec<&str> = diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "rule") == "unused-load")
        .map(|d| str_of(&d["fix"], "applicability"))
        .collect();
    assert_eq!(fixes, ["unsafe"], "{}", run.stdout);

    let safe = compare(&dir, &[], &Renderer::Yttlint);
    assert_eq!(safe.files_changed, 0);
    assert!(safe.differences.is_empty(), "{:?}", safe.differences);
    assert_eq!(
        std::fs::read_to_string(dir.join("config/t.yml")).unwrap(),
        TEMPLATE
    );

    // The comparison sees what the unsafe fix does: ytt's failure becomes a render.
    let unsafe_ = compare(&dir, &["--unsafe-fixes"], &Renderer::Yttlint);
    assert_eq!(unsafe_.files_changed, 1);
    assert_eq!(
        unsafe_.differences,
        ["config: exit status 1 -> 0, output differs"]
    );
}

#[test]
fn removing_a_load_of_definitions_and_constants_stays_safe() {
    let dir = TempDir::with_files(&[
        ("config/t.yml", TEMPLATE),
        (
            "config/_ytt_lib/m/h.star",
            // Operators and string methods the engine rewrites in the code it evaluates.
            "PORT = 80\ndef y(name):\n  if len(name) < 3:\n    return \"{}:{}\".format(name, PORT)\n  end\n  return {\"name\": name, \"port\": PORT * 2 % 7}\nend\n",
        ),
    ]);
    let c = compare(&dir, &[], &Renderer::Yttlint);
    assert_eq!(c.files_changed, 1);
    assert!(c.differences.is_empty(), "{:?}", c.differences);
    assert_eq!(
        std::fs::read_to_string(dir.join("config/t.yml")).unwrap(),
        "v: 1\n"
    );
}
