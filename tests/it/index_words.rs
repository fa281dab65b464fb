//! An index that fails in a loaded `.star` file is said in starlark-go's words (`list index 5
//! out of range [-2:1]`), with every frame ytt shows: the evaluation runs again with its index
//! expressions made calls (`eval::index_retry`), loads evaluated anew, so a small function the
//! crate inlined into its caller is a frame of its own again. The expected errors are what ytt
//! (built from carvel-dev/ytt's source at 4b40e30) printed for these files on 2026-11-30.

use crate::util::{template, TempDir};

#[test]
fn an_index_failing_in_a_loaded_function_is_said_as_ytt_says_it() {
    let dir = TempDir::with_files(&[
        (
            "h.star",
            "def first(l):\n  return l[5]\nend\ndef second(l):\n  return first(l)\nend\n",
        ),
        (
            "g.star",
            "load(\"h.star\", \"second\")\ndef third(l):\n  return second(l) + 1\nend\n",
        ),
        (
            "t.yml",
            "#@ load(\"g.star\", \"third\")\n#@ load(\"h.star\", \"first\")\na: #@ third([1, 2])\n",
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.stderr,
        "ytt: Error: \n\
         - list index 5 out of range [-2:1]\n    \
         in first\n      \
         2 |   return l[5]\n    \
         in second\n      \
         5 |   return first(l)\n    \
         in third\n      \
         3 |   return second(l) + 1\n    \
         in <toplevel>\n      \
         t.yml:3 | a: #@ third([1, 2])\n"
    );
}

#[test]
fn an_index_failing_while_a_file_is_loaded_is_said_as_ytt_says_it() {
    let dir = TempDir::with_files(&[
        ("h.star", "names = [\"a\"]\nsecond = names[1]\n"),
        ("t.yml", "#@ load(\"h.star\", \"second\")\na: #@ second\n"),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.stderr,
        "ytt: Error: Evaluating starlark template: \n\
         - list index 1 out of range [-1:0]\n    \
         in <toplevel>\n      \
         2 | second = names[1]\n"
    );
}
