//! Tests of the proof that removing an unused `load()` is safe: which modules can fail or act
//! at their top level, and which loads are proved harmless.

use crate::analysis::{check, Outside};
use crate::files::InputFile;
use crate::library::{EvalOpts, Workspace};
use crate::report::Rule;

/// `NAME safe|unsafe` for each `unused-load` finding of the library made of `files`.
fn verdicts(files: &[(&str, &str)]) -> Vec<String> {
    let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
    let ws = Workspace::new(inputs, EvalOpts::default());
    check(&ws, "", &Outside::Known(Vec::new()))
        .into_iter()
        .filter(|f| f.rule == Rule::UnusedLoad && f.pos.as_compact().starts_with("t.yml:"))
        .map(|f| {
            let name = f.message.split(' ').next().unwrap_or("").to_string();
            match &f.fix {
                Some(fix) => format!("{name} {}", fix.applicability.as_str()),
                None => format!("{name} none"),
            }
        })
        .collect()
}

const TPL: &str = "#@ load(\"@m:h.star\", \"y\")\nv: 1\n";

#[test]
fn a_module_whose_top_level_can_fail_is_not_removed_safely() {
    // Issue 40's probe: ytt fails before the fix and renders `v: 1` after it.
    let h = "load(\"@ytt:assert\", \"assert\")\nassert.fail(\"no\")\ny = 1\n";
    let files = [("t.yml", TPL), ("_ytt_lib/m/h.star", h)];
    assert_eq!(verdicts(&files), ["y unsafe"]);
    for top in [
        "print(\"hello\")\ny = 1\n",
        "y = 1 // 0\n",
        "y = {\"a\": 1, \"a\": 2}\n",
        "y = len([])\n",
        "y = 1\nz = y.x\n",
        "load(\"@ytt:data\", \"data\")\ny = data.value\n",
        "y = missing\n",
        "y = z\nz = 1\n",
        "y = 1\ny = 2\n",
        "def y():\n  return undefined_name\nend\n",
        "def y(x=fail(\"no\")):\n  return x\nend\n",
        "def y():\n  return z\nend\ndef f():\n  z = 1\n  return z\nend\n",
        "if True:\n  y = 1\nend\n",
    ] {
        let files = [("t.yml", TPL), ("_ytt_lib/m/h.star", top)];
        assert_eq!(verdicts(&files), ["y unsafe"], "{top}");
    }
}

#[test]
fn definitions_and_constants_are_removed_safely() {
    let h = "\"\"\"Helpers.\"\"\"\nload(\"@ytt:struct\", \"struct\")\n\
             PORT = 80\nNAMES = [\"a\", (\"b\", -1)]\nLABELS = {\"app\": PORT, \"on\": True}\n\
             def y(name, port=PORT, *args, **kwargs):\n  l = [n for n in NAMES if n != name]\n\
             \x20 f = lambda x: x + port\n  def inner(k):\n    return struct.encode(k) + l\n  end\n\
             \x20 for i in range(3):\n    l.append(inner(i))\n  end\n  return f(len(l))\nend\n\
             check = lambda v: y(v)\nload(\"@ytt:data\", \"data\")\nvalues = data.values\n";
    let files = [("t.yml", TPL), ("_ytt_lib/m/h.star", h)];
    assert_eq!(verdicts(&files), ["y safe"]);
    let ytt = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:json\", \"yaml\")\nv: 1\n";
    assert_eq!(verdicts(&[("t.yml", ytt)]), ["data safe", "yaml unsafe"]);
}

#[test]
fn one_name_goes_safely_when_the_module_defines_it() {
    // The module is still loaded: only the name's lookup goes with the fix.
    let h = "load(\"@ytt:assert\", \"assert\")\nassert.fail(\"no\")\nused = 1\ny = 2\n";
    let tpl = "#@ load(\"@m:h.star\", \"used\", \"y\", \"nope\")\nv: #@ used\n";
    let files = [("t.yml", tpl), ("_ytt_lib/m/h.star", h)];
    assert_eq!(verdicts(&files), ["y safe", "nope unsafe"]);
}

#[test]
fn loads_of_the_module_must_be_harmless_too() {
    let pure = "X = 1\n";
    let h = "load(\"more.star\", \"X\")\ny = X\n";
    let files = [
        ("t.yml", TPL),
        ("_ytt_lib/m/h.star", h),
        ("_ytt_lib/m/more.star", pure),
    ];
    // A module of a private library loads a file of that library, which the index resolves
    // as the engine's loader does: proved as for the library's own files.
    assert_eq!(verdicts(&files), ["y safe"]);
    let tpl = "#@ load(\"h.star\", \"y\")\nv: 1\n";
    assert_eq!(
        verdicts(&[("t.yml", tpl), ("h.star", h), ("more.star", pure)]),
        ["y safe"]
    );
    let failing = "X = 1\nfail(\"no\")\n";
    assert_eq!(
        verdicts(&[("t.yml", tpl), ("h.star", h), ("more.star", failing)]),
        ["y unsafe"]
    );
    let cycle = "load(\"h.star\", \"y\")\nX = 1\n";
    assert_eq!(
        verdicts(&[("t.yml", tpl), ("h.star", h), ("more.star", cycle)]),
        ["y unsafe"]
    );
}

#[test]
fn yaml_modules_and_unknown_targets_are_not_proved() {
    let lib = "#@ def y():\na: 1\n#@ end\n";
    let tpl = "#@ load(\"h.lib.yml\", \"y\")\n#@ load(\"missing.star\", \"z\")\nv: 1\n";
    assert_eq!(
        verdicts(&[("t.yml", tpl), ("h.lib.yml", lib)]),
        ["y unsafe", "z unsafe"]
    );
}
