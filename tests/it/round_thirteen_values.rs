//! Constructs of round thirteen's first contact about values and files (issue 39,
//! docs/precision.md "Round thirteen's constructs: values and files"), each as a general rule
//! on a minimal repository written for the test.

use crate::util::repo::{Lint, Repo};

const CLUSTER: &str =
    "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: cluster.x-k8s.io/v1beta1\n\
kind: Cluster\nmetadata:\n  name: #@ data.values.cluster.name\n";

const VALUES: &str = "#@data/values\n---\ncluster:\n  name: demo #! cluster name\n  \
version: v1.21.2 # must match the node image\n";

/// The lint, in `cluster-tpl/`, of that folder holding the template, its values example and
/// the page `readme`.
fn clone_lint(readme: &str) -> Lint {
    Repo::of(&[
        ("cluster-tpl/README.md", readme),
        ("cluster-tpl/values-tmpl.yml", VALUES),
        ("cluster-tpl/1-cluster.yml", CLUSTER),
    ])
    .lint_in("cluster-tpl")
}

#[test]
fn a_page_that_clones_this_repository_renders_it_from_the_clone_s_parent() {
    // LR13A-2: `git clone .../cluster-tpl`, `cp ./cluster-tpl/values-tmpl.yml values.yml`,
    // `ytt -f ./cluster-tpl -f values.yml`: the clone is this repository, whose committed
    // values-tmpl.yml (a plain `#` comment, no --ignore-unknown-comments) fails ytt whatever
    // the user writes in the copy.
    let readme = "# cluster template\n\n```\ngit clone https://github.com/example/cluster-tpl\n\
cp ./cluster-tpl/values-tmpl.yml values.yml\n```\n\nFill values.yml, then:\n\n```\n\
ytt -f ./cluster-tpl -f values.yml | kubectl apply -f -\n```\n";
    let lint = clone_lint(readme);
    let found = lint.of("unknown-comment");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(found[0]["file"], "values-tmpl.yml");
    assert_eq!(found[0]["line"], 5);
    assert_eq!(lint.code, 1, "{lint}");

    // `cd` into the clone: the same.
    let readme = "```\ngit clone https://github.com/example/cluster-tpl && cd cluster-tpl\n\
ytt -f . | kubectl apply -f -\n```\n";
    let lint = clone_lint(readme);
    let found = lint.of("unknown-comment");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");

    // Another repository's clone is not this one: its directory is made at run time, and
    // nothing says how this one is run (the plain comment is a note).
    let readme = "```\ngit clone https://github.com/example/other-tpl\n\
ytt -f ./other-tpl -f values.yml\n```\n";
    let lint = clone_lint(readme);
    assert!(lint.of("unknown-comment").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn values_a_command_prints_with_data_values_inspect_are_read() {
    // R13A-2: `ytt -f lib/ --data-values-inspect` shows every value of the library.
    let schema = "#@data/values-schema\n---\nshown_only: [\"\"]\nused: \"\"\n";
    let values = "#@data/values\n---\nshown_only:\n- from-a\nused: x\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values.used\n";
    for (inspect, unused) in [
        ("ytt -f lib/ --data-values-inspect\n", 0),
        // A schema's inspection prints what may be set (a Package's OpenAPI document), not
        // what is read: a value nothing reads is still unused.
        (
            "ytt -f lib/ --data-values-schema-inspect -o openapi-v3\n",
            1,
        ),
        ("", 1),
    ] {
        let script = format!("#!/bin/bash\n{inspect}ytt -f lib/\n");
        let lint = Repo::of(&[
            ("lib/schema.yaml", schema),
            ("lib/a.val.yaml", values),
            ("lib/t.tpl.yaml", tpl),
            ("show.sh", &script),
        ])
        .lint();
        let found = lint.of("data-value-unused");
        assert_eq!(found.len(), unused, "{inspect}: {lint}");
        if unused == 1 {
            assert!(
                found[0]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("shown_only"),
                "{lint}"
            );
        }
    }
}
