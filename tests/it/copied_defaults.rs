//! A README copies a bundle's data values file as the start of the user's own values file
//! (`cp ./pkg/config/values.yaml my-values.yaml`, then `tanzu package install --values-file
//! my-values.yaml`). The bundle's folder stays whole: its `values.yaml` are the defaults of
//! the templates beside it, and its `_ytt_lib` stays in reach (ytt `4b40e30`, `ytt -f
//! pkg/config`: exit 0, the ConfigMap `demo` in `kube-system`).

use crate::util::repo::Repo;

const BUNDLE: [(&str, &str); 6] = [
    (
        "pkg/config/_ytt_lib/lib/cm.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\n",
    ),
    (
        "pkg/config/_ytt_lib/lib/values.yaml",
        "#@data/values\n---\nname: \"\"\n",
    ),
    (
        "pkg/config/values.yaml",
        "#@data/values\n---\nname: demo\nnamespace: kube-system\n",
    ),
    (
        "pkg/config/app.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ lib = library.get(\"lib\")\n--- #@ template.replace(lib.with_data_values({\"name\": data.values.name}).eval())\n",
    ),
    (
        "pkg/config/overlays/ns.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  namespace: #@ data.values.namespace\n",
    ),
    (
        "my-values.yaml",
        "#@data/values\n---\nname: demo\nnamespace: kube-system\n",
    ),
];

const README: &str = "# Install\n\n```\ncp ./pkg/config/values.yaml my-values.yaml\ntanzu package install demo -p demo.example.com -v 1.0.0 --values-file my-values.yaml\n```\n";

#[test]
fn a_values_file_copied_as_a_starting_point_stays_with_its_folder_and_its_library() {
    let repo = Repo::of(&BUNDLE).file("README.md", README);
    let lint = repo.lint();
    assert!(lint.of("load-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    repo.assert_lists("pkg/config\ttopmost directory holding ytt files; inputs unknown");
}

#[test]
fn a_template_copied_away_still_leaves_its_folder() {
    // The same copy of a template (not data values alone) moves it: the folder is narrowed
    // to what stays, and the copied template is checked on its own (R23-1's rule).
    let repo = Repo::of(&BUNDLE)
        .file(
            "README.md",
            "# Install\n\n```\ncp ./pkg/config/app.yaml deploy/app.yaml\n```\n",
        )
        .file(
            "deploy/app.yaml",
            "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: x\n",
        );
    let roots = repo.roots();
    assert!(
        !roots.contains("pkg/config\ttopmost directory holding ytt files; inputs unknown"),
        "{roots}"
    );
    assert!(
        roots.contains(
            "pkg/config/app.yaml\tchecked on its own, not evaluated: copied to deploy/app.yaml"
        ),
        "{roots}"
    );
}
