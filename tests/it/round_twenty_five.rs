//! Round twenty-five's constructs, each on a minimal repository written for the test: two plain
//! manifests of one object in a folder the layout makes a root, named from one stem
//! (`c1.yaml`, `c1-extra-storage.yaml`), are variants of one example, each applied on its own:
//! the `duplicate-object` between them is a note naming both (R25-4). Templates that render
//! one object twice, and a folder a command renders, keep the finding's level.

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A folder holding a ytt experiment (which makes it a layout root) and two manifests of one
/// cluster object, the second adding a volume; `second` is the second file's name and `top`
/// the first line of both manifests.
fn clusters(second: &str, top: &str) -> Repo {
    let base = format!(
        "{top}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c1\n  namespace: team\ndata:\n  size: small\n"
    );
    let more = format!("{base}  volume: extra\n");
    Repo::of(&[
        (
            "clusters/experiment.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trial\n  namespace: team\ndata:\n  size: #@ data.values.size\n",
        ),
        ("clusters/schema.yaml", "#@data/values-schema\n---\nsize: small\n"),
        ("clusters/c1.yaml", base.as_str()),
        (&format!("clusters/{second}"), more.as_str()),
    ])
}

#[test]
fn plain_variants_of_one_object_in_a_layout_root_are_a_note() {
    let repo = clusters("c1-extra-storage.yaml", "");
    let lint = repo.lint();
    let found = lint.of("duplicate-object");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "info", "{lint}");
    let assumed = found[0]["certainty"]["assumptions"].to_string();
    assert!(assumed.contains("\"alternatives\""), "{assumed}");
    assert!(
        assumed.contains("clusters/c1.yaml") && assumed.contains("clusters/c1-extra-storage.yaml"),
        "{assumed}"
    );
}

#[test]
fn templates_or_names_that_share_no_stem_keep_the_duplicate_a_warning() {
    // Templates (a ytt annotation in each), or names of two objects' own: what they render
    // twice is rendered together.
    for (second, top) in [
        (
            "c1-extra-storage.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n",
        ),
        ("c10.yaml", ""),
        ("other.yaml", ""),
    ] {
        let repo = clusters(second, top);
        let lint = repo.lint();
        let found = lint.of("duplicate-object");
        assert_eq!(found.len(), 1, "{second}: {lint}");
        assert_eq!(str_of(found[0], "severity"), "warning", "{second}: {lint}");
    }
}

#[test]
fn plain_variants_a_command_renders_keep_the_finding_s_level() {
    let repo = clusters("c1-extra-storage.yaml", "")
        .file("render.sh", "#!/bin/sh\nytt -f clusters > out.yaml\n");
    let lint = repo.lint();
    let found = lint.of("duplicate-object");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
}
