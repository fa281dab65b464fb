//! The Starlark crate's builtins are built only for modules that name one (see
//! `stdlib::Universe`): modules with and without them, and modules of both kinds loading each
//! other, evaluate as ytt does.

use std::path::PathBuf;
use std::process::Command;

use yttlint::stdlib::gobuiltins::names_crate_builtin;

fn template(name: &str, files: &[(&str, &str)]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("yttlint-globals-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut args = vec!["template".to_string()];
    for (path, text) in files {
        let p: PathBuf = dir.join(path);
        std::fs::write(&p, text).unwrap();
        args.push("-f".into());
        args.push(p.to_string_lossy().into_owned());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .args(&args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn words_that_name_a_crate_builtin_are_found() {
    assert!(names_crate_builtin("x = sorted(y)"));
    assert!(names_crate_builtin("s = 'range'"));
    assert!(!names_crate_builtin("x = len(str(1)) + int('2')"));
    assert!(!names_crate_builtin("x = None if True else False"));
    assert!(!names_crate_builtin("sorted_items = my_range + hashed"));
}

#[test]
fn a_module_without_crate_builtins_has_the_constants_and_this_crates_builtins() {
    let (code, out, err) = template(
        "own",
        &[(
            "t.yml",
            "a: #@ [None, True, False, len('ab'), str(1), int('7'), repr('x')]\n",
        )],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "a:\n- null\n- true\n- false\n- 2\n- \"1\"\n- 7\n- '\"x\"'\n"
    );
}

#[test]
fn modules_of_both_kinds_load_each_other() {
    let (code, out, err) = template(
        "mixed",
        &[
            (
                "helpers.star",
                "def ordered(xs):\n  return sorted(xs)\nend\n",
            ),
            (
                "t.yml",
                "#@ load(\"helpers.star\", \"ordered\")\nb: #@ ordered([3, 1, 2])\nc: #@ len(ordered([1]))\n",
            ),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "b:\n- 1\n- 2\n- 3\nc: 1\n");
}

#[test]
fn a_name_outside_the_universe_is_undefined_either_way() {
    for (name, text) in [
        ("abs", "c: #@ abs(1)\n"),
        ("abs-with-sorted", "c: #@ abs(sorted([1]))\n"),
    ] {
        let (code, _, err) = template(name, &[("t.yml", text)]);
        assert_eq!(code, 1);
        assert!(err.contains("- undefined: abs"), "{err}");
    }
}
