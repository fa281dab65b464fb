use super::*;

const PACKAGE: &str = "\
apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  name: harbor.corp.com.1.0.0
spec:
  template:
    spec:
      fetch:
      - git: {url: https://example.com/x, subPath: bundles/harbor}
      template:
      - ytt:
          paths: [config/, values.yml, missing/]
      - kbld:
          paths: ['-', .imgpkg/images.yml]
";

/// A temporary repository holding `files` (empty ones), removed when dropped.
struct Repo(std::path::PathBuf, Index);

impl Repo {
    fn new(name: &str, files: &[&str]) -> Repo {
        let dir = std::env::temp_dir().join(format!("yttlint-pkg-{name}-{}", std::process::id()));
        for f in files {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "a: 1\n").unwrap();
        }
        Repo(dir, Index::new(files.iter().copied()))
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn ytt_paths_are_found_next_to_the_package_or_under_sub_path() {
    let r = Repo::new(
        "sub",
        &["packages/harbor/config/a.yml", "bundles/harbor/values.yml"],
    );
    let text = format!("---\nkind: ConfigMap\n---\n{PACKAGE}");
    let found = packages(&r.0, &r.1, "packages/harbor/package.yml", &text, &[]);
    assert_eq!(found.len(), 1);
    let p = &found[0];
    assert_eq!(p.name, "harbor.corp.com.1.0.0");
    assert_eq!(p.line, 3);
    assert_eq!(
        p.inputs,
        vec!["packages/harbor/config", "bundles/harbor/values.yml"]
    );
    assert_eq!(p.missing, vec!["missing/"]);
    assert!(!p.previous_step);
}

#[test]
fn other_kinds_and_broken_yaml_give_nothing() {
    let base = Path::new("/nonexistent");
    let index = Index::default();
    assert!(packages(base, &index, "a.yml", "kind: Package\n", &[]).is_empty());
    assert!(packages(base, &index, "a.yml", "a: [\n", &[]).is_empty());
}

#[test]
fn an_app_with_a_templated_sub_path_renders_the_nearest_directory_holding_its_paths() {
    let r = Repo::new(
        "app",
        &[
            "clusters/a/cluster-config/config/x.yml",
            "clusters/a/cluster-config/values/v.yml",
            "clusters/a/sync/config/.managed/sync.yml",
            "clusters/a/sync/values/s.yml",
            "clusters/b/cluster-config/config/x.yml",
            "clusters/b/cluster-config/values/v.yml",
            "clusters/a/copy/config/.managed/sync.yml",
            "clusters/a/copy/values/s.yml",
        ],
    );
    let app = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata: {name: sync}\nspec:\n  fetch:\n  - git:\n      url: #@ data.values.git.url\n      subPath: #@ data.values.git.sub_path\n  template:\n  - ytt:\n      paths: [config]\n      valuesFrom:\n      - path: values\n      - secretRef: {name: creds}\n";
    let found = packages(
        &r.0,
        &r.1,
        "clusters/a/sync/config/.managed/sync.yml",
        app,
        &[],
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, "App");
    assert_eq!(found[0].inputs, vec!["clusters/a/cluster-config/config"]);
    assert_eq!(found[0].values, vec!["clusters/a/cluster-config/values"]);
    assert!(found[0].given_values);
    // Paths of another repository: nothing.
    let other = app.replace("paths: [config]", "paths: [elsewhere]");
    assert!(packages(
        &r.0,
        &r.1,
        "clusters/a/sync/config/.managed/sync.yml",
        &other,
        &[]
    )
    .is_empty());
}

#[test]
fn a_dash_path_takes_what_the_step_before_reads() {
    let r = Repo::new("dash", &["pkg/app.yml", "pkg/overlay.yml"]);
    let pkg = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata: {name: p}\nspec:\n  template:\n    spec:\n      template:\n      - kbld: {paths: [app.yml, .imgpkg/images.yml]}\n      - ytt: {paths: ['-', overlay.yml]}\n";
    let found = packages(&r.0, &r.1, "pkg/package.yml", pkg, &[]);
    assert_eq!(found[0].inputs, vec!["pkg/app.yml", "pkg/overlay.yml"]);
    assert!(!found[0].previous_step);
    let built = pkg.replace("app.yml,", "config/release.yml,");
    let found = packages(&r.0, &r.1, "pkg/package.yml", &built, &[]);
    assert_eq!(found[0].inputs, vec!["pkg/overlay.yml"]);
    assert!(found[0].previous_step);
}

#[test]
fn a_package_of_its_own_repository_renders_its_sub_path_with_an_empty_ytt_step() {
    let r = Repo::new(
        "empty-ytt",
        &["deploy/pkg/config/a.yml", "deploy/package.yml"],
    );
    let text = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: p.example.com.1.0.0\nspec:\n  template:\n    spec:\n      fetch:\n      - git: {url: https://example.com/self, subPath: deploy/pkg/config}\n      template:\n      - ytt: {}\n";
    let found = packages(&r.0, &r.1, "deploy/package.yml", text, &[]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].inputs, vec!["deploy/pkg/config"]);
}

#[test]
fn an_app_with_several_fetches_finds_each_path_under_its_fetch() {
    let r = Repo::new(
        "fetches",
        &[
            "apps/base/config/a.yml",
            "envs/prod/values.yml",
            "gitops/app.yml",
        ],
    );
    let text = "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: a\nspec:\n  fetch:\n  - git: {url: https://example.com/self, subPath: apps/base}\n    path: base\n  - git: {url: https://example.com/self, subPath: envs/prod}\n    path: env\n  template:\n  - ytt:\n      paths: [base/config]\n      valuesFrom:\n      - path: env/values.yml\n  deploy:\n  - kapp: {}\n";
    let found = packages(&r.0, &r.1, "gitops/app.yml", text, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].inputs, vec!["apps/base/config"]);
    assert_eq!(found[0].values, vec!["envs/prod/values.yml"]);
    assert!(!found[0].given_values);
}

#[test]
fn an_apps_ytt_options_are_its_flags() {
    let app = "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata: {name: web}\nspec:\n  fetch: [{git: {url: https://example.com/x, subPath: web}}]\n  template:\n  - ytt:\n      ignoreUnknownComments: true\n      strict: false\n      fileMarks: [raw.yml:type=yaml-plain]\n  - ytt:\n      strict: true\n";
    let repo = Repo::new("app-options", &["web/a.yml", "web/raw.yml"]);
    let found = packages(&repo.0, &repo.1, "apps/web.yml", app, &[]);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].flags,
        [
            "--ignore-unknown-comments",
            "--file-mark",
            "raw.yml:type=yaml-plain"
        ]
    );
    assert!(!found[0].given_values);
    // Files written in the resource make the step's inputs partly unknown.
    let inline = app.replace(
        "      strict: false\n",
        "      inline: {paths: {v.yml: \"a: 1\"}}\n",
    );
    let found = packages(&repo.0, &repo.1, "apps/web.yml", &inline, &[]);
    assert!(found[0].given_values);
}

#[test]
fn a_package_never_renders_the_folder_holding_it_unless_its_sub_path_says_so() {
    let r = Repo::new(
        "own",
        &[
            "pkgs/web/package.yml",
            "pkgs/web/metadata.yml",
            "pkgs/web/src/app.yml",
            "pkgs/web/src/values.yml",
            "repo/packages/web/1.0.0.yml",
        ],
    );
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ data.values.name\nspec:\n  template:\n    spec:\n      fetch:\n      - git:\n          url: #@ data.values.url\n          subPath: #@ data.values.folder\n      template:\n      - ytt:\n          paths: [./]\n";
    // Its `subPath` is known when it is made: the nearest folder holding `./` without it,
    // an assumption.
    let found = packages(&r.0, &r.1, "pkgs/web/package.yml", template, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].inputs, vec!["pkgs/web/src"]);
    let guess = found[0].guessed.as_ref().map(|a| a.message.as_str());
    assert!(
        guess.is_some_and(|m| m.contains("under pkgs/web/src")),
        "{guess:?}"
    );
    // Two folders as near: nothing is rendered, and it says why.
    let two = Repo::new(
        "own-two",
        &[
            "pkgs/web/package.yml",
            "pkgs/web/src/app.yml",
            "pkgs/web/test/t.yml",
        ],
    );
    let found = packages(&two.0, &two.1, "pkgs/web/package.yml", template, &[]);
    assert!(found[0].inputs.is_empty(), "{found:?}");
    assert_eq!(found[0].own_folder, vec!["./"]);
    // A literal `subPath` names the folder: certain.
    let released = template
        .replace("#@ data.values.folder", "pkgs/web/src")
        .replace("#@ data.values.url", "https://example.com/self");
    let found = packages(&r.0, &r.1, "repo/packages/web/1.0.0.yml", &released, &[]);
    assert_eq!(found[0].inputs, vec!["pkgs/web/src"]);
    assert!(found[0].guessed.is_none());
    // A path beside the Package that is not its folder is found there, as before.
    let beside = template.replace("paths: [./]", "paths: [src/]");
    let found = packages(&r.0, &r.1, "pkgs/web/package.yml", &beside, &[]);
    assert_eq!(found[0].inputs, vec!["pkgs/web/src"]);
    assert!(found[0].guessed.is_none());
}

#[test]
fn a_package_from_an_image_bundle_never_takes_a_folder_of_the_repository_for_its_own() {
    let r = Repo::new(
        "bundle-own",
        &["apps/web/packages/1.0.0.yml", "apps/clusters/dev/app.yml"],
    );
    let pkg = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata: {name: web.1.0.0}\nspec:\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle: {image: registry.example/web@sha256:0}\n      template:\n      - ytt:\n          paths: [.]\n";
    let found = packages(&r.0, &r.1, "apps/web/packages/1.0.0.yml", pkg, &[]);
    assert!(found[0].inputs.is_empty(), "{found:?}");
    assert!(found[0].guessed.is_none());
    assert_eq!(found[0].own_folder, vec!["."]);
}

/// A Package of `image` whose one fetch is that bundle, with the ytt step `ytt`.
fn bundle_package(image: &str, ytt: &str) -> String {
    format!("apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata: {{name: rbac.example.com.0.0.2}}\nspec:\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle: {{image: {image}}}\n      template:\n      - ytt: {ytt}\n")
}

#[test]
fn a_package_of_a_bundle_the_repository_pushes_renders_the_folder_pushed() {
    let r = Repo::new(
        "pushed",
        &[
            "bundle/config/roles.yml",
            "bundle/schema.yaml",
            "repo/packages/rbac/0.0.2.yml",
        ],
    );
    let pushed = [Pushed {
        image: "ghcr.io/me/rbac-bundle".into(),
        dir: "bundle".into(),
        origin: "README.md:12".into(),
    }];
    let file = "repo/packages/rbac/0.0.2.yml";
    // `ytt: {}`: the whole folder, at any tag.
    let all = bundle_package("ghcr.io/me/rbac-bundle:0.0.2", "{}");
    let found = packages(&r.0, &r.1, file, &all, &pushed);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].inputs, vec!["bundle"]);
    assert!(found[0].guessed.is_none() && found[0].missing.is_empty());
    // Named paths, relative to the folder pushed; one the folder lacks is missing.
    let named = bundle_package(
        "ghcr.io/me/rbac-bundle@sha256:00",
        "{paths: [config/, schema.yaml, values/]}",
    );
    let found = packages(&r.0, &r.1, file, &named, &pushed);
    assert_eq!(found[0].inputs, vec!["bundle/config", "bundle/schema.yaml"]);
    assert_eq!(found[0].missing, vec!["values/"]);
    // Another image: nothing of the repository is known to be in it.
    let other = bundle_package("ghcr.io/me/other-bundle:0.0.2", "{}");
    assert!(packages(&r.0, &r.1, file, &other, &pushed).is_empty());
    let found = packages(&r.0, &r.1, file, &all, &[]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_computed_sub_path_is_never_taken_for_the_repository_s_top() {
    let r = Repo::new(
        "computed",
        &[
            "config/workload.yaml",
            "packages/shop/1.0.0/package-template.yaml",
            "packages/shop/1.0.0/metadata.yaml",
        ],
    );
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: shop.example.com.1.0.0\nspec:\n  template:\n    spec:\n      fetch:\n      - git:\n          url: https://example.com/shop\n          ref: origin/main\n          subPath: #@ data.values.sub_path\n      template:\n      - ytt:\n          paths: [config/]\n";
    let file = "packages/shop/1.0.0/package-template.yaml";
    let found = packages(&r.0, &r.1, file, template, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].inputs.is_empty(), "{found:?}");
    assert!(found[0].missing.is_empty(), "{found:?}");
    assert_eq!(found[0].computed, vec!["config/"]);
    // Written literally, the same path is the repository's own `config/`.
    let literal = template.replace("#@ data.values.sub_path", "\"\"");
    let found = packages(&r.0, &r.1, file, &literal, &[]);
    assert_eq!(found[0].inputs, vec!["config"]);
    assert!(found[0].computed.is_empty());
}

const BUNDLE_PACKAGE: &str = "\
apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  name: demo.example.com.1.0.0
spec:
  template:
    spec:
      fetch:
      - imgpkgBundle: {image: registry.example.com/demo-bundle:1.0.0}
      template:
      - ytt:
          paths: [config/]
";

#[test]
fn a_path_of_a_bundle_the_repository_does_not_hold_is_named_as_the_bundle_s() {
    // The repository's own `config/` at the top is another thing: the path is the bundle's.
    let r = Repo::new("bundle-note", &["config/app.yml"]);
    let found = packages(&r.0, &r.1, "packages/demo/1.0.0.yml", BUNDLE_PACKAGE, &[]);
    assert_eq!(found.len(), 1);
    let p = &found[0];
    assert_eq!(p.missing, vec!["config/"]);
    let note = missing_note(p, "config/");
    assert!(
        note.contains("is in the imgpkg bundle registry.example.com/demo-bundle:1.0.0"),
        "{note}"
    );
    assert!(!note.contains("not found in the repository"), "{note}");
    // A git fetch's path found nowhere is simply not in the repository.
    let r = Repo::new("git-note", &["packages/harbor/config/a.yml"]);
    let found = packages(&r.0, &r.1, "packages/harbor/package.yml", PACKAGE, &[]);
    let note = missing_note(&found[0], "missing/");
    assert!(note.ends_with("not found in the repository"), "{note}");
}
