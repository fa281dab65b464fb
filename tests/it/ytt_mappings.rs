//! ytt's values where starlark-go's builtins meet them (issue 39, 2a): a struct (data values,
//! `struct.make`) and a YAML map fragment are mappings to `dict()`, `dict.update` and `**`; an
//! array fragment is not (ytt's recovered panic is its error). And a function of a loaded file
//! that returns before the YAML of its body (`if not x: return []`): ytt leaves that file's
//! template context open, which the calling template never sees. Every expected output here
//! is what the reference ytt (v0.48.0+) printed for the same files.

use crate::util::{template, TempDir};

const FRAGMENTS: &str = r#"#@ def extra_labels():
team: a
tier: back
#@ end
---
#@ def ports():
- 80
- 443
#@ end
"#;

#[test]
fn structs_and_map_fragments_are_mappings_to_dict_update_and_spreading() {
    let dir = TempDir::with_files(&[
        (
            "values.yml",
            r#"#@data/values
---
labels:
  app: web
  tier: front
"#,
        ),
        ("frag.lib.yml", FRAGMENTS),
        (
            "t.yml",
            r#"#@ load("@ytt:data", "data")
#@ load("@ytt:struct", "struct")
#@ load("frag.lib.yml", "extra_labels")
#@ def labels():
#@   d = {}
#@   d.update(data.values.labels)
#@   d.update(extra_labels(), version="1")
#@   return d
#@ end
#@ def named(**kw):
#@   return sorted(kw.keys())
#@ end
metadata:
  labels: #@ labels()
  copy: #@ dict(data.values.labels, owner="me")
  made: #@ dict(struct.make(b=2, a=1))
  spread: #@ named(**data.values.labels)
  fragment: #@ dict(**extra_labels())
  has: #@ ["app" in data.values.labels, len(data.values.labels), list(data.values.labels)]
"#,
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        r#"metadata:
  labels:
    app: web
    tier: back
    team: a
    version: "1"
  copy:
    app: web
    tier: front
    owner: me
  made:
    b: 2
    a: 1
  spread:
  - app
  - tier
  fragment:
    team: a
    tier: back
  has:
  - true
  - 2
  - - app
    - tier
"#
    );
}

#[test]
fn an_array_fragment_is_not_a_mapping() {
    let dir = TempDir::with_files(&[
        ("frag.lib.yml", FRAGMENTS),
        (
            "t.yml",
            r#"#@ load("frag.lib.yml", "ports")
#@ def f():
#@   d = {}
#@   d.update(ports())
#@   return d
#@ end
x: #@ f()
"#,
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(
            "- (p) yamlfragment.Items: Expected value to be a map, but was *yamlmeta.Array"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_loaded_function_returning_before_its_yaml_leaves_the_caller_alone() {
    let dir = TempDir::with_files(&[
        (
            "env.lib.yaml",
            r#"#@ load("@ytt:overlay", "overlay")
#@ def merge(*pieces): return overlay.apply(*[wrap(x) for x in pieces])
#@ def wrap(ary):
#@ if not ary: return []
#@ for/end a in ary:
#@overlay/match by="name",expects=0
- #@ a
#@ end
"#,
        ),
        (
            "t.yaml",
            r#"#@ load("env.lib.yaml", "merge")
#@ def extra():
- name: A
  value: "1"
#@ end
---
env: #@ merge([], extra())
"#,
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "env:\n- name: A\n  value: \"1\"\n");
}

#[test]
fn early_returns_inside_loops_and_branches_of_a_loaded_file() {
    let dir = TempDir::with_files(&[
        (
            "items.lib.yml",
            r#"#@ def items(xs):
#@   for x in xs:
#@     if x == 0:
#@       return None
#@     end
#@   end
#@   for x in xs:
- #@ x
#@   end
#@ end
---
#@ def maybe(on):
#@   if not on:
#@     return {}
#@   end
enabled: true
#@ end
"#,
        ),
        (
            "t.yml",
            r#"#@ load("items.lib.yml", "items", "maybe")
first: #@ items([0, 1])
second: #@ items([1, 2])
disabled: #@ maybe(False)
enabled: #@ maybe(True)
nested:
  again: #@ items([3])
"#,
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        r#"first: null
second:
- 1
- 2
disabled: {}
enabled:
  enabled: true
nested:
  again:
  - 3
"#
    );
}

/// In the template itself the context left open is the template's own, and the next value
/// set on the document has no node: ytt fails there too (with a Go panic, `index out of range
/// [-1]`; yttlint names the instruction instead).
#[test]
fn the_same_early_return_in_the_template_itself_fails_where_ytt_does() {
    let dir = TempDir::with_files(&[(
        "t.yaml",
        r#"#@ load("@ytt:overlay", "overlay")
#@ def merge(*pieces): return overlay.apply(*[wrap(x) for x in pieces])
#@ def wrap(ary):
#@ if not ary: return []
#@ for/end a in ary:
#@overlay/match by="name",expects=0
- #@ a
#@ end
#@ def extra():
- name: A
  value: "1"
#@ end
---
env: #@ merge([], extra())
"#,
    )]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("expected a node to set a value on")
            && run
                .stderr
                .contains("t.yaml:14 | env: #@ merge([], extra())"),
        "{}",
        run.stderr
    );
}
