//! Round twenty-six's constructs, each on a minimal repository written for the test: the
//! schema documents of a directory are overlaid in the order its files are given, a
//! subdirectory's before a later name of the directory itself, as ytt does (R26-3); a loop
//! over a glob under `${PWD}` (written in the header, or held in a variable assigned it as
//! text) runs one command per entry from the script's working directory (R26-1); a folder
//! below a layout root with a schema of its own that ytt cannot merge with the top's is a root
//! of its own, with the data values files beside it (R26-2).

use crate::util::repo::Repo;

#[test]
fn schema_files_are_overlaid_in_the_order_the_files_are_given() {
    let repo = Repo::of(&[
        (
            "config/deployment.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\ndata:\n  replicas: #@ str(data.values.replicas)\n",
        ),
        // `lib/schema.yaml` is given before `schema.yaml` (`lib/` sorts before `s`): its
        // larger schema comes first, and the smaller one after it matches.
        ("config/lib/schema.yaml", "#@data/values-schema\n---\nname: web\nreplicas: 1\n"),
        ("config/schema.yaml", "#@data/values-schema\n---\nname: web\n"),
        ("render.sh", "#!/bin/sh\nytt -f config\n"),
    ]);
    let lint = repo.lint();
    assert!(lint.of("schema-invalid").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}

/// A repository whose script renders each entry of `stages/` with the shared schema, the loop's
/// glob written as `LOOP` (the header's words) after `PRE` (lines before the loop).
fn stage_loop(pre: &str, header: &str) -> Repo {
    let script = format!(
        "#!/bin/sh\n{pre}for entry in {header}; do\n  ytt template --file=shared --file=\"${{entry}}\" --output-files=rendered/ || exit 1\ndone\n"
    );
    Repo::of(&[
        (
            "shared/schema.yml",
            "#@data/values-schema\n---\nstage:\n  title: \"\"\n  cmd: \"\"\n",
        ),
        (
            "stages/check.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nsteps:\n- #@ data.values.stage\n",
        ),
        (
            "stages/pack/schema.yml",
            "#@data/values-schema\n#@overlay/match-child-defaults missing_ok=True\n---\nbase: alpine\n",
        ),
        (
            "stages/pack/values.yml",
            "#@data/values\n---\nstage:\n  cmd: make pack\n",
        ),
        (
            "stages/pack/pack.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nbase: #@ data.values.base\nsteps:\n- #@ data.values.stage\n",
        ),
        ("tools/render.sh", script.as_str()),
    ])
}

#[test]
fn a_loop_over_a_glob_under_pwd_renders_each_entry_with_the_shared_files() {
    for (pre, header) in [
        ("", "${PWD}/stages/*"),
        ("", "$(pwd)/stages/*"),
        ("pattern=\"${PWD}/stages/*\"\n", "${pattern}"),
        ("pattern=\"stages/*\"\n", "$pattern"),
    ] {
        let repo = stage_loop(pre, header);
        let roots = repo.roots();
        for entry in ["stages/check.yml", "stages/pack"] {
            let listed = format!("shared + {entry}\trun by tools/render.sh:");
            assert!(roots.contains(&listed), "{header}: {roots}");
        }
        // No root of the whole folder, which nobody renders (its entry's values file fails
        // without the shared schema).
        assert!(!roots.contains("inferred"), "{header}: {roots}");
        let lint = repo.lint();
        assert!(lint.diagnostics().is_empty(), "{header}: {lint}");
    }
}

/// A top-level schema and template pair (the template reads a value nobody declares), and
/// `ytt/manifests/` with its own schema `sub_schema` and a values file beside it in `ytt/`.
fn two_libraries(sub_schema: &str) -> Repo {
    Repo::of(&[
        ("schema.yaml", "#@data/values-schema\n---\napp:\n  image: web:1\n"),
        (
            "deployment.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  image: #@ data.values.app.image\n  motd: #@ data.values.motd\n",
        ),
        ("ytt/manifests/schema.yaml", sub_schema),
        (
            "ytt/manifests/site.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: site\ndata:\n  image: #@ data.values.app.image\n  domain: #@ data.values.domain\n",
        ),
        ("ytt/values-dev.yaml", "#@data/values\n---\napp:\n  image: web:dev\n"),
    ])
}

#[test]
fn a_subfolder_whose_schema_cannot_merge_with_the_top_s_is_a_root_of_its_own() {
    let repo =
        two_libraries("#@data/values-schema\n---\napp:\n  image: web:1\ndomain: example.com\n");
    let roots = repo.roots();
    assert!(roots.contains("ytt/manifests\t"), "{roots}");
    let lint = repo.lint();
    assert!(lint.of("schema-invalid").is_empty(), "{lint}");
    // The subfolder renders clean; the top pair's own defect is found, in its own root.
    assert!(lint.all_in("ytt/manifests/site.yaml").is_empty(), "{lint}");
    assert!(
        lint.all_in("ytt/manifests/schema.yaml").is_empty(),
        "{lint}"
    );
    assert_eq!(lint.all_in("deployment.yaml").len(), 1, "{lint}");

    // A schema the top's merges with keeps one root of the whole.
    let repo = two_libraries("#@data/values-schema\n---\napp:\n  image: web:1\n");
    let roots = repo.roots();
    assert!(!roots.contains("ytt/manifests\t"), "{roots}");
}
