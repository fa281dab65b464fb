//! The twenty-sixth session's fixes of round thirty-seven, each on a minimal repository
//! written for the test: a read one edit from a key the root's own values hold is a
//! misspelling, not a value left to run time (R37-3); the committed example of a library a
//! template loads stands in for the user's copy (R37-1); a page's `--from-file` download path
//! is the repository's file it links, shipped in a Secret (R37-6).

use crate::util::json::{assumption_kinds, assumption_text};
use crate::util::repo::Repo;

/// A kapp-controller App over `base`, its values from a Secret given at run time.
const APP: &str = "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: dns\n  namespace: apps\nspec:\n  serviceAccountName: dns-sa\n  fetch:\n  - git:\n      url: https://github.com/example/dns-gitops\n      ref: origin/main\n  template:\n  - ytt:\n      paths:\n      - base\n      valuesFrom:\n      - secretRef:\n          name: dns-values\n  deploy:\n  - kapp: {}\n";

/// The root's own defaults: `dns.resourceGroup`.
const DEFAULTS: &str =
    "#@data/values\n---\ndns:\n  zone: example.test\n  resourceGroup: rg-default\n";

#[test]
fn a_read_one_edit_from_a_key_of_the_defaults_is_a_warning_not_a_note() {
    let misspelt = "#@ load(\"@ytt:data\", \"data\")\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: dns-args\ndata:\n  zone: #@ data.values.dns.zone\n  group: #@ str(data.values.dns.resource_group)\n";
    let lint = Repo::of(&[
        ("base/values.yml", DEFAULTS),
        ("base/dns.yml", misspelt),
        (".install/app.yml", APP),
    ])
    .lint();
    let found = lint.in_file("template-error", "base/dns.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    let text = found[0].to_string();
    assert!(
        text.contains("add no `dns.resource_group`") && text.contains("`dns.resourceGroup`"),
        "{lint}"
    );
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");

    // A key the defaults do not hold near it is still left to the run: a note.
    let other = misspelt.replace("dns.resource_group", "dns.subscription");
    let lint = Repo::of(&[
        ("base/values.yml", DEFAULTS),
        ("base/dns.yml", other.as_str()),
        (".install/app.yml", APP),
    ])
    .lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
}

/// A template that loads `addon.lib.yaml`, which the repository commits only as its example.
const ADDON: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n#@ load(\"addon.lib.yaml\", \"addon_objects\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ \"{}-addon\".format(data.values.CLUSTER_NAME)\ndata:\n  objects: #@ yaml.encode(addon_objects())\n";

/// The library's example: its token for the user to fill.
const ADDON_LIB: &str = "#@ load(\"@ytt:data\", \"data\")\n\n#@ def addon_objects():\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: #@ \"repo-{}\".format(data.values.CLUSTER_NAME)\nstringData:\n  token: INSERT-TOKEN-HERE\n#@ end\n";

#[test]
fn the_example_of_a_loaded_library_stands_in_for_the_users_copy() {
    for example in [
        "overlays/addon.lib.template.yaml",
        "overlays/addon.lib.tpl.yaml",
        "overlays/addon.lib.example.yaml",
        "overlays/addon.lib.sample.yaml",
    ] {
        let lint = Repo::of(&[("overlays/addon.yaml", ADDON), (example, ADDON_LIB)]).lint();
        assert!(lint.of("load-error").is_empty(), "{example}: {lint}");
        assert!(lint.of("unused-function").is_empty(), "{example}: {lint}");
        assert!(lint.errors().is_empty(), "{example}: {lint}");
    }

    // What fails in the copy is a warning that names the example it stands in for.
    let broken = ADDON_LIB.replace("token: INSERT-TOKEN-HERE", "token: #@ 1 + \"x\"");
    let lint = Repo::of(&[
        ("overlays/addon.yaml", ADDON),
        ("overlays/addon.lib.template.yaml", broken.as_str()),
        (
            "overlays/values.yaml",
            "#@data/values\n---\nCLUSTER_NAME: wc1\n",
        ),
    ])
    .lint();
    let found = lint.of("template-error");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    assert!(
        assumption_kinds(found[0]).contains(&"example-values"),
        "{lint}"
    );
    assert!(
        assumption_text(found[0]).contains("overlays/addon.lib.template.yaml"),
        "{lint}"
    );

    // No example beside the loaded file: the load still fails.
    let lint = Repo::of(&[
        ("overlays/addon.yaml", ADDON),
        ("overlays/other.lib.template.yaml", ADDON_LIB),
    ])
    .lint();
    assert_eq!(lint.of("load-error").len(), 1, "{lint}");
}

/// A TAP-style package overlay: it matches the package's `Deployment server`, and adds a
/// PersistentVolumeClaim.
const GUI_OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\":\"Deployment\",\"metadata\":{\"name\":\"server\"}})\n---\nspec:\n  replicas: 2\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: gui-db\n  namespace: gui\nspec:\n  accessModes:\n  - ReadWriteOnce\n  resources:\n    requests:\n      storage: 1Gi\n";

#[test]
fn a_page_s_download_of_the_repository_s_overlay_ships_it_in_a_secret() {
    let page = |from: &str, link: bool| {
        let link = if link {
            "Download [gui-db.yaml](https://github.com/example-org/example-repo/blob/main/install/gui-db.yaml), then:\n"
        } else {
            "Then:\n"
        };
        format!("## GUI database\n\n{link}\n```\nkubectl -n tap-install create secret generic gui-db \\\n  -o yaml --dry-run=client \\\n  --from-file={from} \\\n  | kubectl apply -f-\n```\n")
    };
    let values = "profile: full\npackage_overlays:\n- name: gui\n  secrets:\n  - name: gui-db\n";
    for (from, link) in [
        ("/var/tmp/downloads/gui-db.yaml", true),
        ("~/Downloads/gui-db.yaml", false),
    ] {
        let text = page(from, link);
        let lint = Repo::of(&[
            ("install/gui-db.yaml", GUI_OVERLAY),
            ("install/values.yaml", values),
            ("docs/gui-db.md", text.as_str()),
        ])
        .lint();
        assert!(lint.of("overlay-error").is_empty(), "{from}: {lint}");
    }

    // A second file of that name, none linked: the download is not known to be either.
    let text = page("/var/tmp/downloads/gui-db.yaml", false);
    let lint = Repo::of(&[
        ("install/gui-db.yaml", GUI_OVERLAY),
        ("old/gui-db.yaml", "a: 1\n"),
        ("install/values.yaml", values),
        ("docs/gui-db.md", text.as_str()),
    ])
    .lint();
    assert_eq!(lint.of("overlay-error").len(), 1, "{lint}");
}
