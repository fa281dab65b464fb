//! Calls in `.star` modules as ytt runs them: a named argument after a `*` spread in a call
//! written over several lines renders (`template::named_after_star`), with every error after
//! it and inside its arguments at the line ytt names; the arguments ytt refuses are refused in
//! its words (`template::call_refusals`); and an evaluation error's column is the failing
//! expression's (`eval::star_column`); a list a module holds is frozen, and `pop` says so in
//! ytt's words (`stdlib::golist_pop`). The expected errors are what ytt (built from
//! carvel-dev/ytt's source at 4b40e30) printed for these files on 2026-11-30; ytt prints no
//! column.

use crate::util::json::{diagnostics, lint_json};
use crate::util::{template, TempDir};

const F: &str = "def f(a, b, x=0, y=0):\n  return [a, b, x, y]\nend\nargs = [1, 2]\n";

fn run_star(lib: &str, names: &str, doc: &str) -> crate::util::Run {
    let dir = TempDir::with_files(&[
        ("lib.star", lib),
        ("t.yml", &format!("#@ load(\"lib.star\", {names})\n{doc}")),
    ]);
    template(&dir, &["-f", "."])
}

#[test]
fn a_named_argument_after_a_spread_over_lines_renders() {
    let lib = format!("{F}v = f(*args,\n    x=3)\nw = f(*args,\n    y=4)\n");
    let run = run_star(&lib, "\"v\", \"w\"", "v: #@ v\nw: #@ w\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "v:\n- 1\n- 2\n- 3\n- 0\nw:\n- 1\n- 2\n- 0\n- 4\n"
    );
}

#[test]
fn errors_inside_and_after_such_a_call_are_at_their_lines() {
    let lib = format!("{F}v = f(*args,\n    x=3,\n    y={{}}[\"k\"])\n");
    let run = run_star(&lib, "\"v\"", "v: #@ v\n");
    assert_eq!(
        run.stderr,
        "ytt: Error: Evaluating starlark template: \n\
         - key \"k\" not in dict\n    \
         in <toplevel>\n      \
         7 |     y={}[\"k\"])\n"
    );
    let lib = format!("{F}v = f(*args,\n    x=3)\nw = v[9]\n");
    let run = run_star(&lib, "\"w\"", "v: #@ w\n");
    assert_eq!(
        run.stderr,
        "ytt: Error: Evaluating starlark template: \n\
         - list index 9 out of range [-4:3]\n    \
         in <toplevel>\n      \
         7 | w = v[9]\n"
    );
}

#[test]
fn a_positional_argument_after_the_spread_is_refused_in_ytts_words() {
    let lib = "def f(*a, **k):\n  return 1\nend\nv = f(*[],\n  x=1,\n  2)\n";
    let run = run_star(lib, "\"v\"", "v: #@ v\n");
    assert_eq!(
        run.stderr,
        "ytt: Error: Evaluating starlark template: \n\
         - argument may not follow *args\n    \
         6 |   2)\n"
    );
}

/// The line and columns of the findings in `lib.star` (its evaluation's error) in a root of
/// `lib.star` and a template that loads `x` from it.
fn error_columns(lib: &str) -> Vec<(u64, u64, u64)> {
    let dir = TempDir::with_files(&[
        ("lib.star", lib),
        ("t.yml", "#@ load(\"lib.star\", \"x\")\nv: #@ x\n"),
    ]);
    let (_, report) = lint_json(&dir, &["."]);
    diagnostics(&report)
        .iter()
        .filter(|d| d["file"] == "lib.star")
        .filter_map(|d| {
            Some((
                d["line"].as_u64()?,
                d["column"].as_u64()?,
                d["end_column"].as_u64()?,
            ))
        })
        .collect()
}

#[test]
fn an_evaluation_errors_column_is_the_failing_expressions() {
    // `b["k"]` fails: the column is its own, not the first text of the line.
    assert_eq!(
        error_columns("a = {\"k\": 1}\nb = {}\nx = a[\"k\"] + b[\"k\"]\n"),
        [(3, 14, 15)]
    );
    // `struct has no .k`: the `.k` of `e`, not the first `.k` of the line.
    assert_eq!(
        error_columns(
            "load(\"@ytt:struct\", \"struct\")\nd = struct.make(k=1)\ne = struct.make()\nx = d.k + e.k\n"
        ),
        [(4, 13, 14)]
    );
}

#[test]
fn popping_a_modules_frozen_list_is_refused_in_ytts_words() {
    let run = run_star("l = [1, 2]\n", "\"l\"", "a: #@ l.pop()\n");
    assert_eq!(
        run.stderr,
        "ytt: Error: \n\
         - pop: cannot pop from frozen list\n    \
         in <toplevel>\n      \
         t.yml:2 | a: #@ l.pop()\n"
    );
}

#[test]
fn a_trailing_comma_after_a_spread_is_refused_as_ytt_refuses_it() {
    let lib = format!("{F}v = f(*args,\n    x=3,\n)\n");
    let run = run_star(&lib, "\"v\"", "v: #@ v\n");
    assert_eq!(
        run.stderr,
        "ytt: Error: Evaluating starlark template: \n\
         - got ')', want argument\n    \
         7 | )\n"
    );
}

#[test]
fn an_augmented_assignment_is_starlark_gos_binary_operator() {
    let lib = format!("{F}d = {{\"a\": 1}}\nd |= {{\"b\": 2}}\nv = d\n");
    let run = run_star(&lib, "\"v\"", "v: #@ v\n");
    assert_eq!(
        run.stderr,
        "ytt: Error: Evaluating starlark template: \n\
         - unknown binary op: dict | dict (hint: use 'or' instead of '|' for logical-or)\n    \
         in <toplevel>\n      \
         6 | d |= {\"b\": 2}\n"
    );
}
