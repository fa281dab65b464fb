//! The lead's fixes of rounds thirty-five and thirty-six, each on a minimal repository written
//! for the test: a `for` statement over a bare tuple (`for v in a, b:`) renders as in ytt
//! (R36-1); a here-document's YAML that breaks after blank lines below the shell expansion is
//! the shell's, not a syntax error of the repository (R35-1).

use crate::util::repo::Repo;

#[test]
fn a_for_over_a_bare_tuple_renders() {
    let values = "#@data/values\n---\n#@ first = \"a\"\n#@ second = \"b\"\nnames:\n#@ for v in first, second:\n- #@ \"n-\" + v\n#@ end\n";
    let config = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"helpers.star\", \"both\")\n---\nnames: #@ data.values.names\ntotal: #@ both()\n";
    let star = "def both():\n  n = 0\n  for v in 1, 2:\n    n += v\n  end\n  return n\nend\n";
    let repo = Repo::of(&[
        ("app/values.yaml", values),
        ("app/config.yaml", config),
        ("app/helpers.star", star),
    ]);
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    assert!(lint.of("template-error").is_empty(), "{lint}");
    // A trailing comma is refused there, as ytt refuses it.
    let bad = "#@ for v in 1, 2,:\n- #@ v\n#@ end\n";
    let lint = Repo::of(&[("app/list.yaml", bad)]).lint();
    assert_eq!(lint.errors().len(), 1, "{lint}");
}

#[test]
fn a_here_document_broken_below_blank_lines_is_the_shell_s() {
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\nregistry:\n  host: #@ data.values.HOST\n  ca_data: |\n$(sed 's/^/    /' < \"$CA_FILE\")\n\nmode: #@ data.values.MODE\n";
    let lint = Repo::of(&[("template/settings-template.yaml", template)]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let syntax = lint.of("yaml-syntax");
    assert_eq!(syntax.len(), 1, "{lint}");
    assert_eq!(syntax[0]["severity"], "info", "{lint}");
}
