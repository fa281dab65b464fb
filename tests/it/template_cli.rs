//! End-to-end: the built binary renders the demo library like `ytt template` and reports
//! template errors like ytt.

use crate::util::{repo_root, template, yttlint, Run, TempDir};

/// `yttlint ARGS` from the repository's root.
fn from_root(args: &[&str]) -> Run {
    yttlint(repo_root(), args)
}

#[test]
fn renders_demo_library() {
    let out = from_root(&["template", "-f", "fixtures/demo-repo/config"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let stdout = &out.stdout;
    assert!(stdout.contains("managed-by: yttlint-demo"), "{stdout}");
    assert!(
        stdout.contains("  - name: https\n    port: 443\n"),
        "{stdout}"
    );
}

#[test]
fn undefined_variable_points_at_template_line() {
    let dir = TempDir::new();
    let file = dir.write("t.yml", "a: 1\nb: #@ missing\n");
    let out = from_root(&["template", "-f", file.to_str().expect("utf8 path")]);
    assert_ne!(out.code, 0);
    let stderr = &out.stderr;
    assert!(
        stderr.starts_with("ytt: Error: \n- undefined: missing"),
        "{stderr}"
    );
    assert!(stderr.contains("t.yml:2 | b: #@ missing"), "{stderr}");
}

#[test]
fn lint_reports_ok_library() {
    let out = from_root(&["fixtures/demo-repo/config"]);
    assert_eq!(out.code, 0, "{}", out.stdout);
}

#[test]
fn emptied_output_directory_replaces_what_was_there() {
    let dir = TempDir::with_files(&[("stale/old.yml", "old: true\n")]);
    let target = dir.to_str().expect("utf8 path");
    let flag = format!("--dangerous-emptied-output-directory={target}");
    let out = from_root(&["template", "-f", "fixtures/demo-repo/config", &flag]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let created = dir.join("app.yml");
    assert_eq!(out.stdout, format!("creating: {}\n", created.display()));
    assert!(!dir.join("stale").exists());
    let app = std::fs::read_to_string(dir.join("app.yml")).expect("written");
    assert!(app.contains("managed-by: yttlint-demo"), "{app}");
    // Paths that look like a mistake are refused before anything is removed.
    let out = from_root(&[
        "template",
        "-f",
        "fixtures/demo-repo/config",
        "--dangerous-emptied-output-directory=.",
    ]);
    assert_ne!(out.code, 0);
    assert!(out
        .stderr
        .contains("Expected output directory path to not be one of '/', '.', './', ''"));
}

#[test]
fn integers_beyond_int64_stay_integers_as_in_ytt() {
    let dir = TempDir::new();
    let file = dir.write(
        "t.yml",
        "#@ load(\"@ytt:json\", \"json\")\nbig: #@ 9562462857348323147\nsum: #@ 9223372036854775807 + 1\njson: #@ json.encode(18446744073709551615)\n",
    );
    let out = from_root(&["template", "-f", file.to_str().expect("utf8 path")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "big: 9562462857348323147\nsum: 9223372036854775808\njson: \"18446744073709551615\"\n"
    );
}

/// ytt's `os.Lstat` error names the path: `lstat nope.yml: no such file or directory`.
#[test]
fn missing_files_are_named_as_lstat_names_them() {
    let dir = TempDir::with_files(&[("t.yml", "a: 1\n")]);
    let Run {
        code, stderr: err, ..
    } = template(&dir, &["-f", "nope.yml"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "ytt: Error: Checking file 'nope.yml': lstat nope.yml: no such file or directory\n"
    );
    let Run {
        code, stderr: err, ..
    } = template(&dir, &["-f", "t.yml", "--data-values-file", "nope.yml"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "ytt: Error: Extracting data value from file:\n  Find files 'nope.yml':\n    Checking file 'nope.yml': lstat nope.yml: no such file or directory\n"
    );
}

/// `library.get` errors carry the builtin's name, as ytt's `ErrWrapper` adds it.
#[test]
fn library_get_errors_are_prefixed() {
    let tpl = "#@ load(\"@ytt:library\", \"library\")\n---\na: #@ library.get(\"nope\").eval()\n";
    let dir = TempDir::with_files(&[("t.yml", tpl)]);
    let Run { stderr: err, .. } = template(&dir, &["-f", "."]);
    assert!(
        err.starts_with("ytt: Error: \n- library.get: Could not find private library (directory '_ytt_lib' missing?)\n"),
        "{err}"
    );
    dir.write("_ytt_lib/other/x.yml", "x: 1\n");
    let Run { stderr: err, .. } = template(&dir, &["-f", "."]);
    assert!(
        err.starts_with(
            "ytt: Error: \n- library.get: Expected to find library 'nope', but did not find ''\n"
        ),
        "{err}"
    );
}

/// ytt compiles a `.star` file with positions that have no file name: its frames show `4 |`.
#[test]
fn starlark_file_frames_show_the_line_alone() {
    let dir = TempDir::with_files(&[
        ("a.star", "def f():\n  x = 1\n\n  return x + \"a\"\nend\n"),
        ("t.yml", "#@ load(\"a.star\", \"f\")\n---\nv: #@ f()\n"),
    ]);
    let Run { stderr: err, .. } = template(&dir, &["-f", "."]);
    assert_eq!(
        err,
        "ytt: Error: \n- unknown binary op: int + string\n    in f\n      4 |   return x + \"a\"\n    in <toplevel>\n      t.yml:3 | v: #@ f()\n"
    );
}

/// With `--output-files`, ytt always creates the directory (owner-only) and writes only output
/// files: an inspection or an empty result prints nothing.
#[test]
fn output_files_with_inspections_and_empty_output() {
    let dir = TempDir::with_files(&[
        ("dv.yml", "#@data/values\n---\na: 1\n"),
        ("empty.yml", "#@ if False:\na: 1\n#@ end\n"),
    ]);
    for (out, extra) in [
        ("o1", vec!["--data-values-inspect"]),
        ("o2", vec!["--files-inspect"]),
        (
            "o3",
            vec!["--data-values-schema-inspect", "-o", "openapi-v3"],
        ),
        ("o4", vec![]),
    ] {
        let mut args = vec!["-f", "dv.yml", "-f", "empty.yml", "--output-files", out];
        args.extend(extra);
        let Run {
            code,
            stdout,
            stderr,
        } = template(&dir, &args);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (0, "", ""),
            "{out}"
        );
        let entries = std::fs::read_dir(dir.join(out)).expect(out).count();
        assert_eq!(entries, 0, "{out}");
        if cfg!(unix) {
            let mode = yttlint::platform::fs::mode(&std::fs::metadata(dir.join(out)).expect(out));
            assert_eq!(mode & 0o777, 0o700, "{out}");
        }
    }
}

/// `--files-inspect`: the root library's files in input order, private libraries left out.
#[test]
fn files_inspect_lists_the_root_library() {
    let dir = TempDir::with_files(&[
        ("lib/t.yml", "a: 1\n"),
        ("lib/_ytt_lib/other/x.yml", "x: 1\n"),
        ("st/a.star", "x = 1\n"),
        ("st/t.yml", "b: 2\n"),
        ("dv.yml", "c: 3\n"),
    ]);
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = template(
        &dir,
        &["-f", "lib", "-f", "st", "-f", "dv.yml", "--files-inspect"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "- t.yml\n- a.star\n- t.yml\n- dv.yml\n");
    let Run { stdout: out, .. } = template(
        &dir,
        &[
            "-f",
            "dv.yml",
            "-f",
            "st",
            "--file-mark",
            "a.star:exclude=true",
            "--files-inspect",
            "-o",
            "json",
        ],
    );
    assert_eq!(out, "[\"dv.yml\",\"t.yml\"]");
}
