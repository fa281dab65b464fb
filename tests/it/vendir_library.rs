//! A library repository's folder of snippets whose private library the vendir configuration
//! beside it fills in the consuming project (`library.get("k8s-lib/ns")`, `vendir.yml` filling
//! `app/_ytt_lib/k8s-lib` from the library's own git repository). In the library's checkout
//! nothing is synced: ytt `4b40e30`, `ytt -f snippets/templates`, exits 1 "library.get:
//! Could not find private library (directory '_ytt_lib' missing?)". That is the missing sync, not the
//! templates: the root is not evaluated until `vendir sync`, and its files are checked alone.

use crate::util::repo::Repo;

const SNIPPETS: [(&str, &str); 3] = [
    (
        "snippets/templates/ns.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n\n#@ def config():\nnamespace: #@ data.values.namespace\n#@ end\n\n--- #@ template.replace(library.get(\"k8s-lib/ns\").with_data_values(config()).eval())\n",
    ),
    (
        "lib/ns/ns.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.namespace\n",
    ),
    (
        "lib/ns/values.yaml",
        "#@data/values\n---\nnamespace: default\n",
    ),
];

const VENDIR: &str = "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n- path: app/_ytt_lib\n  contents:\n  - path: k8s-lib\n    git:\n      url: https://github.com/example/k8s-lib.git\n      ref: origin/main\n    includePaths:\n    - lib/**\n    newRootPath: lib\n";

#[test]
fn snippets_whose_library_vendir_fills_wait_for_the_sync() {
    let repo = Repo::of(&SNIPPETS).file("snippets/vendir.yml", VENDIR);
    let lint = repo.lint();
    assert!(lint.of("load-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    assert_eq!(lint.of("vendir-not-synced").len(), 1, "{lint}");
    let roots = repo.roots();
    assert!(
        roots.contains("snippets/templates\tchecked on its own, not evaluated: not evaluated until `vendir sync` fills snippets/app/_ytt_lib/k8s-lib"),
        "{roots}"
    );
}

#[test]
fn without_the_vendir_configuration_the_missing_library_is_still_said() {
    let lint = Repo::of(&SNIPPETS).lint();
    assert_eq!(lint.of("load-error").len(), 1, "{lint}");
}

#[test]
fn a_root_that_does_not_load_the_library_is_evaluated() {
    // The same vendir configuration, and a template beside the snippets that loads no
    // library: it renders on its own, and its mistake is still found.
    let repo = Repo::of(&SNIPPETS)
        .file("snippets/vendir.yml", VENDIR)
        .file(
            "snippets/plain/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.nme\n",
        )
        .file("snippets/plain/values.yaml", "#@data/values\n---\nname: demo\n");
    let lint = repo.lint();
    assert_eq!(
        lint.in_file("template-error", "snippets/plain/cm.yaml")
            .len(),
        1,
        "{lint}"
    );
}
