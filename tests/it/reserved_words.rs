//! Words the Starlark crate reserves and ytt does not (`assert`, `async`, `await`; round
//! eighteen's R18-1): a file's own `def assert` loaded by that name, a struct field, a data
//! value and a keyword argument so named. The expected output is what the reference ytt
//! (v0.48.0+) printed for the same files.

use crate::util::json::lint_json;
use crate::util::{template, TempDir};

fn files() -> TempDir {
    TempDir::with_files(&[
        (
            "lib/checks.lib.yml",
            r#"#@ load("@ytt:assert", ytt_assert="assert")
#@ def assert(ok, why="check failed"):
#@   if not ok:
#@     ytt_assert.fail(why)
#@   end
#@   return ok
#@ end
"#,
        ),
        (
            "values.yml",
            "#@data/values\n---\nchecks:\n  assert: strict\n",
        ),
        (
            "t.yml",
            r#"#@ load("@ytt:data", "data")
#@ load("@ytt:struct", "struct")
#@ load("@ytt:assert", "assert")
#@ load("/lib/checks.lib.yml", check="assert")
#@ s = struct.make(assert=1, await=2)
---
field: #@ s.assert
has: #@ [hasattr(s, "assert"), hasattr(s, "await")]
made: #@ dict(assert=3, async=4)
value: #@ data.values.checks.assert
checked: #@ check(True)
failed: #@ assert.try_to(lambda: check(False, "no"))[1]
"#,
        ),
        (
            "u.yml",
            r#"#@ load("/lib/checks.lib.yml", "assert")
---
u: #@ assert(True)
"#,
        ),
    ])
}

#[test]
fn reserved_words_render_as_ytt_renders_them() {
    let dir = files();
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        r#"field: 1
has:
- true
- true
made:
  assert: 3
  async: 4
value: strict
checked: true
failed: 'assert.fail: fail: no'
---
u: true
"#
    );
}

#[test]
fn a_files_own_assert_is_no_finding_and_a_missing_one_is() {
    let dir = files();
    let (code, report) = lint_json(&dir, &["--no-cache"]);
    let findings = report["diagnostics"].as_array().map_or(0, Vec::len);
    assert_eq!((code, findings), (0, 0), "{report:#}");
    // A file that does not define it: named as written.
    std::fs::write(
        dir.join("u.yml"),
        "#@ load(\"/lib/none.lib.yml\", \"assert\")\n---\nu: 1\n",
    )
    .unwrap();
    std::fs::write(dir.join("lib/none.lib.yml"), "#@ x = 1\n").unwrap();
    let (_, report) = lint_json(&dir, &["--no-cache"]);
    let text = report.to_string();
    assert!(text.contains("Module has no symbol `assert`"), "{report:#}");
    assert!(!text.contains("ytt_kw__"), "{report:#}");
}
