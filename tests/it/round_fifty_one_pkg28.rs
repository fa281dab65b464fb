//! Items of rounds forty-seven to fifty-one fixed in session twenty-eight (helper pkg28), each
//! on a minimal repository written for the test: a Package whose imgpkg bundle a command of
//! the repository pushes from a folder renders that folder (N48-1); a Package template's ytt
//! path under a `subPath` it computes is never taken from the repository's top (N48-2); an
//! Educates instruction's `/opt/workshop/...` path is the repository's `workshop/...` (N50-3);
//! `ytt -f x -f - <<EOF` reads the here-document as its `-` (N51-2's shape).

use crate::util::repo::Repo;

/// A bundle's folder: a schema, a template the documented command reads, and the kapp
/// configuration (a template too) only the Package renders (`ytt -f bundle` exits 0).
const BUNDLE: &[(&str, &str)] = &[
    (
        "bundle/schema.yaml",
        "#@data/values-schema\n---\nnamespace: rbac-system\ngroups:\n- \"\"\n",
    ),
    (
        "bundle/config/rolebindings.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ for g in data.values.groups:\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: #@ g + \"-view\"\n  namespace: #@ data.values.namespace\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: Group\n  name: #@ g\n#@ end\n",
    ),
    (
        "bundle/kapp-config.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: kapp.k14s.io/v1alpha1\nkind: Config\nchangeGroupBindings:\n- name: #@ \"change-groups.kapp.k14s.io/\" + data.values.namespace\n  resourceMatchers:\n  - allMatcher: {}\n",
    ),
    (
        "bundle/.imgpkg/images.yml",
        "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages: []\n",
    ),
    (
        "example/values.yaml",
        "#@data/values\n---\ngroups:\n- platform-team\n",
    ),
    (
        "repo/packages/rbac.example.com/0.0.2.yaml",
        "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: rbac.example.com.0.0.2\nspec:\n  refName: rbac.example.com\n  version: 0.0.2\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle:\n          image: ghcr.io/example/rbac-bundle:0.0.2\n      template:\n      - ytt: {}\n      - kbld:\n          paths: ['-', .imgpkg/images.yml]\n      deploy:\n      - kapp: {}\n",
    ),
];

/// The page's try-out command, which leaves `bundle/kapp-config.yaml` to the layout.
const TRY: &str = "# RBAC\n\nTry it:\n\n```sh\nytt -f bundle/config -f bundle/schema.yaml -f example/values.yaml\n```\n";

/// The page with a release section pushing `bundle/` as `push` says.
fn readme(push: &str) -> String {
    format!("{TRY}\nRelease:\n\n```sh\nexport VERSION=0.0.2\n{push}\n```\n")
}

const ROOT: &str = "bundle\tytt path of Package rbac.example.com.0.0.2 (repo/packages/rbac.example.com/0.0.2.yaml:1)";

#[test]
fn a_package_of_a_bundle_the_readme_pushes_renders_the_folder_pushed() {
    // Without the push, the layout root of `bundle/` says that nothing sets its values.
    let mut files = BUNDLE.to_vec();
    files.push(("README.md", TRY));
    let lint = Repo::of(&files).lint();
    let note = lint.in_file("needs-input", "bundle/kapp-config.yaml");
    assert_eq!(note.len(), 1, "{lint}");

    let page = readme("imgpkg push -b ghcr.io/example/rbac-bundle:${VERSION} -f bundle");
    let mut files = BUNDLE.to_vec();
    files.push(("README.md", page.as_str()));
    let repo = Repo::of(&files);
    let roots = repo.roots();
    assert!(
        roots.contains(&format!("{ROOT}; inputs unknown\n")),
        "{roots}"
    );
    let lint = repo.lint();
    assert!(
        lint.in_file("needs-input", "bundle/kapp-config.yaml")
            .is_empty(),
        "{lint}"
    );
    // The schema's validation holds for the Package as for the page: no finding at all.
    assert!(lint.errors().is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_script_s_push_with_a_lock_output_is_followed_from_where_it_runs() {
    let script = "#!/bin/bash\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\nBUNDLE_REPO=ghcr.io/example/rbac-bundle\nimgpkg push -b \"${BUNDLE_REPO}:${1}\" -f ./bundle/ --lock-output /tmp/bundle.lock.yml\n";
    let mut files = BUNDLE.to_vec();
    files.push(("README.md", TRY));
    files.push(("hack/release.sh", script));
    let repo = Repo::of(&files);
    repo.assert_lists(ROOT);
    // Pushed as another image, the folder says nothing of this Package's files.
    let other = script.replace("rbac-bundle", "other-bundle");
    let mut files = BUNDLE.to_vec();
    files.push(("README.md", TRY));
    files.push(("hack/release.sh", other.as_str()));
    let roots = Repo::of(&files).roots();
    assert!(!roots.contains(ROOT), "{roots}");
}

/// A Package template whose git `subPath` a data value gives.
const PACKAGE_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ \"shop.example.com.\" + data.values.version\nspec:\n  refName: shop.example.com\n  version: #@ data.values.version\n  template:\n    spec:\n      fetch:\n      - git:\n          url: https://example.com/shop\n          ref: origin/main\n          subPath: #@ data.values.sub_path\n      template:\n      - ytt:\n          paths: [config/]\n      deploy:\n      - kapp: {}\n";

#[test]
fn a_package_template_s_computed_sub_path_is_not_the_repository_s_top() {
    let repo = Repo::of(&[
        ("packages/shop/1.0.0/package-template.yaml", PACKAGE_TEMPLATE),
        (
            "packages/shop/1.0.0/values.yaml",
            "#@data/values\n---\nversion: 1.0.0\nsub_path: shop/config-bundle\n",
        ),
        (
            "config/workload.yaml",
            "apiVersion: carto.run/v1alpha1\nkind: Workload\nmetadata:\n  name: shop\nspec:\n  source:\n    git:\n      url: https://example.com/shop\n      ref: {branch: main}\n",
        ),
    ]);
    let roots = repo.roots();
    assert!(!roots.contains("config\tytt path of Package"), "{roots}");
    assert!(
        roots.contains("note: packages/shop/1.0.0/package-template.yaml:2: the ytt paths [\"config/\"] of Package are relative to its git fetch's `subPath`, which a template computes"),
        "{roots}"
    );
}

#[test]
fn an_educates_instruction_s_opt_workshop_paths_are_the_workshop_folder() {
    let page = "Set it up:\n\n```terminal:execute\ncommand: ytt -f /opt/workshop/setup/schema.yaml -f /opt/workshop/setup/values.yaml -f /opt/workshop/setup/broker.yaml | kubectl create -f-\n```\n";
    let files = [
        (
            "workshop/setup/schema.yaml",
            "#@data/values-schema\n---\nns: workshop\n#@schema/validation max_len=8\nbroker: mt\n",
        ),
        (
            "workshop/setup/values.yaml",
            "#@data/values\n---\nbroker: multi-tenant-channel\n",
        ),
        (
            "workshop/setup/broker.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: eventing.knative.dev/v1\nkind: Broker\nmetadata:\n  name: #@ data.values.broker\n  namespace: #@ data.values.ns\n",
        ),
        ("workshop/content/06-eventing.md", page),
    ];
    let repo = Repo::of(&files);
    repo.assert_lists(
        "workshop/setup/schema.yaml + workshop/setup/values.yaml + workshop/setup/broker.yaml\trun by workshop/content/06-eventing.md:4",
    );
    let lint = repo.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.of("data-value-violation");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(found[0]["certainty"]["source"], "document", "{lint}");
    assert_eq!(
        found[0]["certainty"]["origin"], "workshop/content/06-eventing.md:4",
        "{lint}"
    );
}

#[test]
fn a_here_document_after_a_bare_dash_is_the_command_s_standard_input() {
    // `ytt -f bundle -f - <<EOF`: the bash grammar drops the `-`; the command is still read,
    // with the here-document's values (ytt exits 1: `replica` is not declared, which ytt
    // says as it overlays `stdin.yml` on the schema's values; session thirty, cmd30).
    let repo = Repo::of(&[
        (
            "bundle/schema.yaml",
            "#@data/values-schema\n---\nname: demo\nreplicas: 1\n",
        ),
        (
            "bundle/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nreplicas: #@ data.values.replicas\n",
        ),
        (
            "test.sh",
            "#!/bin/bash\nytt -f bundle -f - <<EOF\n#@data/values\n---\nname: other\nreplica: 2\nEOF\n",
        ),
    ]);
    repo.assert_lists("bundle\trun by test.sh:2");
    let lint = repo.lint();
    assert_eq!(lint.code, 1, "{lint}");
    assert_eq!(lint.in_file("overlay-error", "test.sh").len(), 1, "{lint}");
}
