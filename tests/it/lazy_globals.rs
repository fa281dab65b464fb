//! The Starlark crate's builtins are built only for modules that name one (see
//! `stdlib::Universe`): modules with and without them, and modules of both kinds loading each
//! other, evaluate as ytt does.

use yttlint::stdlib::gobuiltins::names_crate_builtin;

use crate::util::{template, Run, TempDir};

/// `yttlint template` of `files` (each given with `-f`, in order) in a fresh directory.
fn render(files: &[(&str, &str)]) -> Run {
    let dir = TempDir::with_files(files);
    let paths: Vec<String> = files
        .iter()
        .map(|(path, _)| dir.join(path).to_string_lossy().into_owned())
        .collect();
    let mut args = Vec::new();
    for path in &paths {
        args.extend(["-f", path.as_str()]);
    }
    template(&dir, &args)
}

#[test]
fn words_that_name_a_crate_builtin_are_found() {
    assert!(names_crate_builtin("x = enumerate(y)"));
    assert!(names_crate_builtin("s = 'range'"));
    assert!(!names_crate_builtin("x = len(str(1)) + int('2')"));
    assert!(!names_crate_builtin("x = None if True else False"));
    assert!(!names_crate_builtin("sorted_items = my_range + hashed"));
}

#[test]
fn a_module_without_crate_builtins_has_the_constants_and_this_crates_builtins() {
    let run = render(&[(
        "t.yml",
        "a: #@ [None, True, False, len('ab'), str(1), int('7'), repr('x')]\n",
    )]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "a:\n- null\n- true\n- false\n- 2\n- \"1\"\n- 7\n- '\"x\"'\n"
    );
}

#[test]
fn modules_of_both_kinds_load_each_other() {
    let run = render(
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
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "b:\n- 1\n- 2\n- 3\nc: 1\n");
}

#[test]
fn a_name_outside_the_universe_is_undefined_either_way() {
    for text in ["c: #@ abs(1)\n", "c: #@ abs(sorted([1]))\n"] {
        let run = render(&[("t.yml", text)]);
        assert_eq!(run.code, 1);
        assert!(run.stderr.contains("- undefined: abs"), "{}", run.stderr);
    }
}
