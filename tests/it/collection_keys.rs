//! A YAML mapping or sequence used as a map key (round thirty-seven's R37-4: a Go template's
//! `{{ .x }}` left in a ytt template is a flow mapping whose key is a mapping). In a file
//! ytt evaluates (a template, a `#@data/values` or schema document, an overlay) every such
//! key stops the evaluation at its line with Go's panic, "hash of unhashable type" (worded
//! one way for a map's first item and another after the first); a plain YAML file keeps the
//! key. Data values whose keys are not all strings crash ytt (exit status 2) when a file
//! loads `@ytt:data`, and so does a `%YAML 1.2` directive: yttlint fails on both with an
//! error. Each case is checked with `yttlint template`, and with ytt itself (`YTT`, else
//! `ytt` on the `PATH`) in the ignored test; the lint reports the certain error at the line.

use std::path::Path;
use std::process::Command;

use crate::util::repo::Repo;
use crate::util::{template, ytt, TempDir};

/// One shape: its files, the arguments after `template`, and what ytt says: the first line
/// of the message and the `file:line` it shows, or the output of a file that renders.
struct Case {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    args: &'static [&'static str],
    want: Want,
}

enum Want {
    Fails {
        message: &'static str,
        at: &'static str,
    },
    Renders(&'static str),
    /// ytt panics outside any recovery (exit status 2, `ytt` the start of its standard error);
    /// yttlint fails with an error (exit status 1) that says so (`yttlint`).
    Crashes {
        ytt: &'static str,
        yttlint: &'static str,
    },
}

const USE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n";

const CASES: &[Case] = &[
    Case {
        name: "go template value after an item",
        files: &[("t.yml", "#@ x = 1\na: 1\nkey: {{ .x }}\n")],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: yaml.MapSlice (backtrace: goroutine 1 [running]:",
            at: "t.yml:3 | key: {{ .x }}",
        },
    },
    Case {
        name: "go template in an array item",
        files: &[("t.yml", "#@ x = 1\na:\n- 1\n- {{ .x }}\n")],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: yaml.MapSlice (backtrace:",
            at: "t.yml:4 | - {{ .x }}",
        },
    },
    Case {
        name: "flow sequence key in a flow mapping",
        files: &[("t.yml", "#@ x = 1\na: 1\nb: {[a]: 1}\n")],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: []interface {} (backtrace:",
            at: "t.yml:3 | b: {[a]: 1}",
        },
    },
    Case {
        name: "explicit sequence key after an item",
        files: &[("t.yml", "#@ x = 1\na: 1\n? [a, b]\n: 1\n")],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- runtime error: hash of unhashable type []interface {} (backtrace:",
            at: "t.yml:3 | ? [a, b]",
        },
    },
    Case {
        name: "explicit mapping key after an item",
        files: &[("t.yml", "#@ x = 1\na: 1\n? {a: 1}\n: 2\n")],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- runtime error: hash of unhashable type yaml.MapSlice (backtrace:",
            at: "t.yml:3 | ? {a: 1}",
        },
    },
    Case {
        name: "explicit mapping key first",
        files: &[("t.yml", "#@ x = 1\n? {a: 1}\n: 2\na: 1\n")],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: yaml.MapSlice (backtrace:",
            at: "t.yml:2 | ? {a: 1}",
        },
    },
    Case {
        name: "a data values document",
        files: &[
            ("values.yml", "#@data/values\n---\na: 1\nkey: {{ .x }}\n"),
            ("use.yml", USE),
        ],
        args: &["-f", "values.yml", "-f", "use.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: yaml.MapSlice (backtrace:",
            at: "values.yml:4 | key: {{ .x }}",
        },
    },
    Case {
        name: "a schema document",
        files: &[
            ("schema.yml", "#@data/values-schema\n---\na: 1\nkey: {{ .x }}\n"),
            ("use.yml", USE),
        ],
        args: &["-f", "schema.yml", "-f", "use.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: yaml.MapSlice (backtrace:",
            at: "schema.yml:4 | key: {{ .x }}",
        },
    },
    Case {
        name: "an overlay",
        files: &[
            ("base.yml", "a: 1\n"),
            (
                "overlay.yml",
                "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\n#@overlay/match missing_ok=True\nkey: {{ .x }}\n",
            ),
        ],
        args: &["-f", "base.yml", "-f", "overlay.yml"],
        want: Want::Fails {
            message: "- hash of unhashable type: yaml.MapSlice (backtrace:",
            at: "overlay.yml:5 | key: {{ .x }}",
        },
    },
    Case {
        name: "a tuple key replacing a map item",
        files: &[(
            "t.yml",
            "#@ load(\"@ytt:template\", \"template\")\na: 1\n_: #@ template.replace({(1, 2): 3})\n",
        )],
        args: &["-f", "t.yml"],
        want: Want::Fails {
            message: "- runtime error: hash of unhashable type []interface {} (backtrace:",
            at: "t.yml:3 | _: #@ template.replace({(1, 2): 3})",
        },
    },
    Case {
        name: "a plain YAML file is not evaluated",
        files: &[("plain.yml", "a: 1\nkey: {{ .x }}\n? {b: 1}\n: 2\n")],
        args: &["-f", "plain.yml"],
        want: Want::Renders("a: 1\nkey:\n  ? .x: null\n  : null\n? b: 1\n: 2\n"),
    },
    Case {
        name: "a data values file with a map key, loaded",
        files: &[("values.yml", "a: 1\nkey: {{ .x }}\n"), ("use.yml", USE)],
        args: &["-f", "use.yml", "--data-values-file", "values.yml"],
        want: Want::Crashes {
            ytt: "panic: expected struct key [{.x <nil> %!s(int=2)}] to be string",
            yttlint: "a data values key is not a string: a YAML map (values.yml:2)",
        },
    },
    Case {
        name: "an int key in a data values document, loaded",
        files: &[
            ("values.yml", "#@data/values\n---\nports:\n  80: http\n"),
            ("use.yml", USE),
        ],
        args: &["-f", "values.yml", "-f", "use.yml"],
        want: Want::Crashes {
            ytt: "panic: expected struct key %!s(int=80) to be string",
            yttlint: "a data values key is not a string: `80` (values.yml:4)",
        },
    },
    Case {
        name: "data values nothing loads are never converted",
        files: &[
            ("values.yml", "#@data/values\n---\nports:\n  80: http\n"),
            ("t.yml", "a: 1\n"),
        ],
        args: &["-f", "values.yml", "-f", "t.yml"],
        want: Want::Renders("a: 1\n"),
    },
    Case {
        name: "a YAML 1.2 directive",
        files: &[("t.yml", "%YAML 1.2\n---\na: 1\n")],
        args: &["-f", "t.yml"],
        want: Want::Crashes {
            ytt: "panic: Lines are 1 based",
            yttlint: "yaml: line 0: found incompatible YAML document",
        },
    },
];

fn write(case: &Case) -> TempDir {
    let dir = TempDir::new();
    for (name, text) in case.files {
        dir.write(name, text);
    }
    dir
}

/// What is wrong with `(code, stdout, stderr)` as the outcome of `case` (run by ytt itself
/// or by `yttlint template`), if anything.
fn check(
    case: &Case,
    by_ytt: bool,
    code: Option<i32>,
    (stdout, stderr): (&str, &str),
) -> Option<String> {
    let name = case.name;
    match &case.want {
        Want::Crashes { ytt, .. } if by_ytt => (code != Some(2) || !stderr.starts_with(ytt))
            .then(|| format!("{name}: want exit 2 and `{ytt}`; got {code:?}:\n{stderr}")),
        Want::Crashes { yttlint, .. } => (code != Some(1) || !stderr.contains(yttlint))
            .then(|| format!("{name}: want exit 1 and `{yttlint}`; got {code:?}:\n{stderr}")),
        Want::Fails { message, at } => {
            let said = stderr.lines().any(|l| l.starts_with(message));
            let shown = stderr.lines().any(|l| l.trim_start().starts_with(at));
            (code != Some(1) || !said || !shown).then(|| {
                format!("{name}: want exit 1, `{message}` at `{at}`; got {code:?}:\n{stderr}")
            })
        }
        Want::Renders(out) => (code != Some(0) || stdout != *out)
            .then(|| format!("{name}: want\n{out}got {code:?}:\n{stdout}{stderr}")),
    }
}

#[test]
fn every_shape_fails_or_renders_as_ytt_does() {
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|case| {
            let dir = write(case);
            let out = template(&dir, case.args);
            check(case, false, Some(out.code), (&out.stdout, &out.stderr))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
#[ignore = "needs ytt"]
fn ytt_fails_or_renders_each_shape_the_same_way() {
    let ytt = ytt();
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|case| {
            let dir = write(case);
            let out = run(&ytt, &dir, case.args);
            check(case, true, out.0, (&out.1, &out.2))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn run(program: &Path, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run ytt");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_lint_reports_the_go_template_placeholder_as_a_certain_error_at_its_line() {
    let repo = Repo::of(&[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: #@ data.values.namespace\ndata:\n  region: {{ .region }}\n",
        ),
        ("config/values.yml", "#@data/values\n---\nnamespace: shop\n"),
        (
            "deploy.sh",
            "#!/bin/bash\nytt -f config | kubectl apply -f -\n",
        ),
    ]);
    let lint = repo.lint();
    let errors = lint.errors();
    assert_eq!(errors.len(), 1, "{lint}");
    let e = errors[0];
    assert_eq!(e["rule"], "template-error", "{lint}");
    assert_eq!(e["file"], "config/app.yml", "{lint}");
    assert_eq!(e["line"], 9, "{lint}");
    let said = e["message"].as_str().unwrap_or_default();
    assert!(
        said.contains("hash of unhashable type: yaml.MapSlice"),
        "{said}"
    );
}
