//! Blank space in Starlark as ytt reads it (round nine's FA-1, docs/precision.md): a tab is a
//! space wherever starlark-go's scanner reads blank space (at a line's end, between tokens,
//! before a comment, indenting a body or a continuation line), a tab in a string is part of the
//! value, and the lines a `.star` file's string continues onto lose their leading blank space.
//! Each case was rendered by ytt (v0.48.0+, 2026-11-28), whose output it holds; the ignored
//! test renders each with ytt itself again (`.ci/run` runs it where ytt is installed).

use std::process::Command;

use crate::util::repo::Repo;
use crate::util::{template, ytt, Run};

/// A case: its files, and what ytt renders (stdout, or the start of its error with rc 1).
struct Case {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    output: &'static str,
}

const LOAD_F: &str = "#@ load(\"lib.star\", \"f\")\n---\nk: #@ f()\n";

const CASES: &[Case] = &[
    Case {
        name: "a tab after a value's expression and a statement's",
        files: &[("t.yaml", "#@ x = \"a\"\t\n---\nk: #@ x\t\n")],
        output: "k: a\n",
    },
    Case {
        name: "a tab between tokens",
        files: &[("t.yaml", "#@ x =\t1\n---\nk: #@ x\t+ 1\n")],
        output: "k: 2\n",
    },
    Case {
        name: "a tab inside a string is kept",
        files: &[("t.yaml", "#@ x = \"a\tb\"\n---\nk: #@ x\n")],
        output: "k: \"a\\tb\"\n",
    },
    Case {
        name: "a tab after a block's colon and its end",
        files: &[("t.yaml", "#@ if True:\t\n---\nk: 1\n#@ end\t\n")],
        output: "k: 1\n",
    },
    Case {
        name: "a tab indenting a def body in a template",
        files: &[(
            "t.yaml",
            "#@ def f():\n#@     x = 1\n#@ \ty = 2\n#@     return x + y\n#@ end\n---\nk: #@ f()\n",
        )],
        output: "k: 3\n",
    },
    Case {
        name: "tabs in a .star file: body, continuation line, trailing, between tokens",
        files: &[
            (
                "lib.star",
                "def f():\n\treturn 1\nend\ndef g(a,\n\tb):\n  return a\t+ b\t\nend\n",
            ),
            (
                "t.yaml",
                "#@ load(\"lib.star\", \"f\", \"g\")\n---\nk: #@ f() + g(1,\t2)\n",
            ),
        ],
        output: "k: 4\n",
    },
    Case {
        name: "tab and space indentation mixed in a .star body",
        files: &[
            (
                "lib.star",
                "def f():\n        x = 1\n\ty = 2\n\treturn x + y\nend\n",
            ),
            ("t.yaml", LOAD_F),
        ],
        output: "k: 3\n",
    },
    Case {
        name: "a .star string spanning lines loses each line's leading blank space",
        files: &[
            (
                "lib.star",
                "def f():\n  return \"a\tb\" \t+ \"\"\"\n\tq\t\"\"\" + '''\n    r'''\t# c\t\nend\n",
            ),
            ("t.yaml", LOAD_F),
        ],
        output: "k: \"a\\tb\\nq\\t\\nr\"\n",
    },
    Case {
        name: "a tab right after #@ makes an annotation, not code",
        files: &[("t.yaml", "#@\tx = 1\n---\nk: #@ x\n")],
        output: "ytt: Error: \n- got '=', want primary expression\n    t.yaml:1 | #@\tx = 1",
    },
];

fn repo(case: &Case) -> Repo {
    Repo::of(case.files)
}

/// What a renderer printed: stdout when it succeeded, else the first three lines of stderr.
fn rendered(run: &Run) -> String {
    if run.code == 0 {
        return run.stdout.clone();
    }
    run.stderr.lines().take(3).collect::<Vec<_>>().join("\n")
}

#[test]
fn blank_space_renders_as_in_ytt() {
    for case in CASES {
        let dir = repo(case);
        let run = template(&dir, &["-f", "."]);
        assert_eq!(rendered(&run), case.output, "{}", case.name);
    }
}

#[test]
fn a_trailing_tab_is_no_finding() {
    let lint = Repo::of(&[
        (
            "t.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nurl: #@ \"https://auth.\" + data.values.domain\t\n",
        ),
        ("values.yaml", "#@data/values\n---\ndomain: example.com\n"),
    ]).lint_with(&["--no-cache", "."]);
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.diagnostics().is_empty(), "{lint}");
}

#[test]
#[ignore = "needs ytt"]
fn blank_space_renders_as_ytt_itself_does() {
    for case in CASES {
        let dir = repo(case);
        let out = Command::new(ytt())
            .args(["-f", "."])
            .current_dir(&*dir)
            .output()
            .expect("run ytt");
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        assert_eq!(rendered(&run), case.output, "{}", case.name);
    }
}
