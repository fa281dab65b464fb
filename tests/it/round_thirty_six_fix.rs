//! The twenty-sixth session's fixes of rounds thirty-six and forty on roots and symlinked
//! folders, each on a minimal repository written for the test: a command's input read through
//! a directory link committed in the repository (R36-2); a layout root's subfolder that is
//! its templates' committed output (R36-3); an invalid schema in a layout root nothing renders
//! (R40-1).

use std::path::Path;

use crate::util::repo::Repo;
use yttlint::platform::fs::symlink;

const CONFIG: &str =
    "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nsize: #@ data.values.size\n";
const SCHEMA: &str = "#@data/values-schema\n---\nname: web\n";
const RENDER: &str =
    "#!/bin/sh\ncd \"$(dirname \"$0\")\"\nytt -f schema.yaml -f templates/config.yaml\n";

#[test]
fn an_input_through_a_linked_folder_is_read_and_its_failure_reported() {
    let repo = Repo::of(&[
        ("shared/config.yaml", CONFIG),
        ("app/schema.yaml", SCHEMA),
        ("app/render.sh", RENDER),
    ]);
    symlink(Path::new("../shared"), &repo.join("app/templates")).unwrap();
    let lint = repo.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    // ytt reads the file through the link and fails: at the real file's line.
    let failed = lint.in_file("template-error", "shared/config.yaml");
    assert_eq!(failed.len(), 1, "{lint}");
    assert!(
        failed[0]["message"]
            .as_str()
            .unwrap()
            .contains("struct has no .size field or method"),
        "{lint}"
    );
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn a_linked_folder_that_leaves_the_repository_is_not_read_and_said() {
    let outside = Repo::of(&[("config.yaml", CONFIG)]);
    let repo = Repo::of(&[("app/schema.yaml", SCHEMA), ("app/render.sh", RENDER)]);
    symlink(&outside.join("."), &repo.join("app/templates")).unwrap();
    let lint = repo.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    let said = lint.in_file("file-outside-repository", "app/render.sh");
    assert_eq!(said.len(), 1, "{lint}");
    let message = said[0]["message"].as_str().unwrap();
    assert!(message.contains("app/templates"), "{lint}");
    // Where the link leads is never shown.
    assert!(!message.contains(&*outside.to_string_lossy()), "{lint}");
}

#[test]
fn a_link_to_the_folder_above_it_is_gone_through_a_bounded_number_of_times() {
    let repo = Repo::of(&[
        ("a/config.yaml", CONFIG),
        ("a/schema.yaml", SCHEMA),
        (
            "run.sh",
            "#!/bin/sh\nytt -f a/schema.yaml -f a/b/b/b/config.yaml\n",
        ),
    ]);
    // `a/b -> .`: `a/b/b/b/config.yaml` is `a/config.yaml`, as for ytt.
    symlink(Path::new("."), &repo.join("a/b")).unwrap();
    let lint = repo.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    assert_eq!(
        lint.in_file("template-error", "a/config.yaml").len(),
        1,
        "{lint}"
    );
}

const VALUES: &str = "#@data/values\n---\napp:\n  image: \"\"\n";
const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: demo\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: #@ data.values.app.image\n";
const RENDERED: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: demo\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: registry.example.com/web:1.0\n";

#[test]
fn a_layout_root_s_committed_output_is_checked_on_its_own() {
    let repo = Repo::of(&[
        ("argocd/values.yaml", VALUES),
        ("argocd/app.yaml", TEMPLATE),
        ("argocd/cd/app.yaml", RENDERED),
    ]);
    let lint = repo.lint();
    assert!(lint.of("duplicate-object").is_empty(), "{lint}");
    let roots = repo.roots();
    assert!(roots.contains("argocd/cd\t"), "{roots}");
    assert!(
        roots.contains("it holds Deployment demo/web, which argocd/app.yaml renders"),
        "{roots}"
    );

    // A command of the repository that renders both keeps the warning: it is its own.
    let repo = Repo::of(&[
        ("argocd/values.yaml", VALUES),
        ("argocd/app.yaml", TEMPLATE),
        ("argocd/cd/app.yaml", RENDERED),
        ("render.sh", "#!/bin/sh\nytt -f argocd -v app.image=x\n"),
    ]);
    assert_eq!(
        repo.lint().of("duplicate-object").len(),
        1,
        "{}",
        repo.lint()
    );

    // A plain subfolder whose objects no template of the root makes stays its input.
    let other = RENDERED.replace("name: web\n  namespace", "name: api\n  namespace");
    let repo = Repo::of(&[
        ("argocd/values.yaml", VALUES),
        ("argocd/app.yaml", TEMPLATE),
        ("argocd/base/api.yaml", other.as_str()),
    ]);
    let roots = repo.roots();
    assert!(!roots.contains("argocd/base\t"), "{roots}");
}

const BASE: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata: {}\n";
const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n#@overlay/match by=overlay.subset({\"kind\": \"ConfigMap\"})\n---\ndata:\n  #@overlay/match missing_ok=True\n  size: #@ str(data.values.settings.size)\n";
const BAD_SCHEMA: &str =
    "#@data/values-schema\n---\nsettings:\n  #@schema/nullable\n  path: null\n  size: 1\n";

#[test]
fn an_invalid_schema_in_a_layout_root_nothing_renders_is_a_warning_naming_the_guess() {
    let files = [
        ("templates/bases/app.yaml", BASE),
        ("templates/overlay.yaml", OVERLAY),
        ("templates/values/schema.yaml", BAD_SCHEMA),
        ("main.go", "package main\n\nfunc main() {}\n"),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let found = lint.in_file("schema-invalid", "templates/values/schema.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    assert!(
        found[0]["certainty"]
            .to_string()
            .contains("inferred from the layout"),
        "{lint}"
    );
    assert_eq!(lint.code, 0, "{lint}");

    // A command of the repository that renders the folder fails on it: an error.
    let lint = Repo::of(&files)
        .file("render.sh", "#!/bin/sh\nytt -f templates\n")
        .lint();
    assert_eq!(
        lint.in_file("schema-invalid", "templates/values/schema.yaml")
            .len(),
        1,
        "{lint}"
    );
    assert_eq!(lint.errors().len(), 1, "{lint}");

    // A syntax error in a file of the same layout root stays an error.
    let lint = Repo::of(&files)
        .file(
            "templates/values/schema.yaml",
            "#@data/values-schema\n---\nsettings: [\n",
        )
        .lint();
    assert_eq!(lint.errors().len(), 1, "{lint}");
    assert_eq!(lint.of("yaml-syntax").len(), 1, "{lint}");
}
