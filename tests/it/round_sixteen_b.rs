//! Round sixteen researcher B's constructs (issue 39, the sixteenth session; docs/precision.md
//! "Round sixteen, researcher B's constructs"), each as a general rule on a minimal repository
//! written for the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, root_paths, str_of};
use crate::util::repo::Repo;

/// A Package template a release script renders: its git fetch's `subPath` (and URL) are
/// given when the Package is made, and its ytt step renders the whole fetched folder.
const PACKAGE_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ data.values.name + \".\" + data.values.version\nspec:\n  refName: #@ data.values.name\n  version: #@ data.values.version\n  template:\n    spec:\n      fetch:\n      - git:\n          url: #@ data.values.url\n          ref: #@ \"v\" + data.values.version\n          subPath: #@ data.values.folder\n      template:\n      - ytt:\n          paths:\n          - ./\n      deploy:\n      - kapp: {}\n";

const METADATA_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: PackageMetadata\nmetadata:\n  name: #@ data.values.name\nspec:\n  displayName: #@ data.values.name.capitalize()\n";

const SCHEMA: &str = "#@data/values-schema\n---\ngreeting: hello\nreplicas: 1\n";

/// The package's template: a ConfigMap's data takes an integer value (not a string).
const DEPLOYMENT: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeter\ndata:\n  text: #@ data.values.greeting\n  count: #@ data.values.replicas\n";

const PUBLISH: &str = "#!/usr/bin/env bash\nset -euo pipefail\nfor folder in packages/*/; do\n  name=$(basename \"$folder\")\n  out=\"repository/packages/$name\"\n  mkdir -p \"$out\"\n  ytt -f - -v name=\"$name.example.org\" < \"$folder/metadata.yml\" > \"$out/metadata.yml\"\n  ytt -f - -v name=\"$name.example.org\" -v version=1.0.0 -v url=https://example.org/pkgs.git -v folder=\"${folder}config\" < \"$folder/package.yml\" > \"$out/1.0.0.yml\"\ndone\n";

/// The Package the script made, committed: a literal `subPath`.
const RELEASED: &str = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: greeter.example.org.1.0.0\nspec:\n  refName: greeter.example.org\n  version: 1.0.0\n  template:\n    spec:\n      fetch:\n      - git:\n          url: https://example.org/pkgs.git\n          ref: v1.0.0\n          subPath: packages/greeter/config\n      template:\n      - ytt:\n          paths:\n          - ./\n      deploy:\n      - kapp: {}\n";

fn package_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("packages/greeter/package.yml", PACKAGE_TEMPLATE),
        ("packages/greeter/metadata.yml", METADATA_TEMPLATE),
        ("packages/greeter/config/schema.yml", SCHEMA),
        ("packages/greeter/config/deployment.yml", DEPLOYMENT),
        ("publish.sh", PUBLISH),
    ]
}

#[test]
fn a_package_whose_sub_path_is_a_template_never_renders_its_own_folder() {
    // R16B-2: the Package's `subPath` is given when the script renders it; its `./` is the
    // package's `config/`, not `packages/greeter` (the Package and metadata templates with
    // the package's schema, which nothing runs). The folder is a guess: the package's own
    // error is a warning that names it.
    let lint = Repo::of(&package_files()).lint();
    let roots = root_paths(&lint.report);
    assert!(
        roots.iter().any(|r| r == "packages/greeter/config"),
        "{roots:?}"
    );
    // The templates' own folder is only the layout's root (their values unknown), never the
    // Package's.
    let own = lint.report["roots"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["path"] == "packages/greeter");
    assert!(
        own.is_none_or(|r| r["provenance"]["source"] == "layout"),
        "{own:#?}"
    );
    assert!(lint.errors().is_empty(), "{lint}");
    for file in [
        "packages/greeter/package.yml",
        "packages/greeter/metadata.yml",
    ] {
        let found = lint.all_in(file);
        assert!(
            found
                .iter()
                .all(|d| d["severity"] != "error" && d["rule"] != "data-value-unknown-reference"),
            "{found:#?}"
        );
    }
    let found: Vec<&Value> = lint
        .of("k8s-schema")
        .into_iter()
        .filter(|d| str_of(d, "file") == "packages/greeter/config/deployment.yml")
        .collect();
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    assert!(
        assumption_kinds(found[0]).contains(&"inferred-command"),
        "{:#}",
        found[0]
    );
    let said = found[0]["certainty"]["assumptions"].to_string();
    assert!(said.contains("under packages/greeter/config"), "{said}");
}

#[test]
fn a_released_package_with_a_literal_sub_path_renders_it_for_certain() {
    // The committed Package the script made names the folder: its `./` is that folder, not
    // the folder holding the released Package, and the package's error is certain.
    let mut files = package_files();
    files.push(("repository/packages/greeter/1.0.0.yml", RELEASED));
    let lint = Repo::of(&files).lint();
    let roots = root_paths(&lint.report);
    assert!(
        roots.iter().any(|r| r == "packages/greeter/config"),
        "{roots:?}"
    );
    assert!(
        !roots.iter().any(|r| r == "repository/packages/greeter"),
        "{roots:?}"
    );
    let errors = lint.errors();
    assert!(!errors.is_empty(), "{lint}");
    for e in &errors {
        assert_eq!(
            str_of(e, "file"),
            "packages/greeter/config/deployment.yml",
            "{e:#}"
        );
    }
    assert!(
        errors.iter().any(|e| e["rule"] == "k8s-schema"),
        "{errors:#?}"
    );
}

const SETTINGS_README: &str = "# Gateway settings\n\nRender the staging settings:\n\n```\nytt -f gateway-staging.yaml -f helpers\n```\n";

fn gateway(env: &str) -> String {
    format!("#@ load(\"routes.lib.yml\", \"all\")\n#@ load(\"{env}.lib.yml\", \"env\")\n---\ngateway:\n  host: #@ env.host\n  routes: #@ all(env.host)\n")
}

const ROUTES: &str = "#@ def all(host):\n- path: /\n  to: #@ \"http://\" + host\n#@ end\n";

#[test]
fn a_sibling_of_a_documented_entry_file_is_linted_with_the_documented_folder() {
    // R16B-1: the page renders `gateway-staging.yaml` with `helpers/`; `gateway-live.yaml`
    // beside it loads the same helpers and nothing runs it. Its loads resolve in the page's
    // command with it in the place of its sibling, not with the plain `gateway.yaml` left
    // beside it. A sibling whose loads resolve nowhere keeps the layout's command.
    let staging = gateway("staging");
    let live = gateway("live");
    let broken = gateway("nowhere");
    let files = [
        ("README.md", SETTINGS_README),
        ("gateway-staging.yaml", staging.as_str()),
        ("gateway-live.yaml", live.as_str()),
        ("gateway-old.yaml", broken.as_str()),
        ("gateway.yaml", "gateway:\n  host: localhost\n"),
        ("helpers/routes.lib.yml", ROUTES),
        (
            "helpers/staging.lib.yml",
            "#@ load(\"@ytt:struct\", \"struct\")\n#@ env = struct.make(host=\"staging.example\")\n",
        ),
        (
            "helpers/live.lib.yml",
            "#@ load(\"@ytt:struct\", \"struct\")\n#@ env = struct.make(host=\"live.example\")\n",
        ),
    ];
    let lint = Repo::of(&files).lint();
    let roots = lint.report["roots"].as_array().cloned().unwrap_or_default();
    let live_root = roots
        .iter()
        .find(|r| r["path"] == "gateway-live.yaml + helpers")
        .unwrap_or_else(|| panic!("{roots:#?}"));
    assert_eq!(live_root["status"], "ok", "{lint}");
    let said = live_root["provenance"]["assumptions"].to_string();
    assert!(
        said.contains(
            "modelled on the command `ytt -f gateway-staging.yaml -f helpers` (README.md:6)"
        ),
        "{said}"
    );
    let loads: Vec<&Value> = lint.of("load-error");
    assert!(
        loads.iter().all(|d| d["file"] != "gateway-live.yaml"),
        "{loads:#?}"
    );
    assert!(
        loads.iter().any(|d| d["file"] == "gateway-old.yaml"),
        "{lint}"
    );
    assert!(lint.errors().is_empty(), "{lint}");
}
