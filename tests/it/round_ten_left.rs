//! Round ten's left-over constructs (issue 39, docs/precision.md, "Round ten's left-over
//! constructs"): each a general rule on a minimal repository written for the test.

use crate::util::json::{assumption_kinds, assumption_text, str_of};
use crate::util::repo::Repo;

/// A template that reads `site.registry.host` and `site.registry.user`.
const SECRET: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: registry\nstringData:\n  host: #@ data.values.site.registry.host\n  user: #@ data.values.site.mirror.user\n";

#[test]
fn a_script_s_run_time_values_are_the_copy_of_the_example_a_page_says_to_fill_in() {
    // LA10-1: `-f $1` is the user's copy of the example the page tells them to make; the
    // example lacks `site.mirror`, which the template reads: ytt fails with it.
    let dir = Repo::of(&[
        (
            "install/values/README.md",
            "# Values\n\nMake a copy of [values-example.yaml](values-example.yaml) and customize it for your site.\n",
        ),
        (
            "install/values/values-example.yaml",
            "#@data/values\n---\nsite:\n  registry:\n    host: registry.example.com\n",
        ),
        (
            "install/app/install.sh",
            "#!/bin/sh\nytt -f ../../config -f $1 | kapp deploy -a site -f- -y\n",
        ),
        ("config/secret.yaml", SECRET),
    ]);
    dir.assert_lists("config + install/values/values-example.yaml");
    let lint = dir.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let failed = lint.of("template-error");
    let d = failed
        .iter()
        .find(|d| str_of(d, "message").contains("struct has no .mirror"))
        .unwrap_or_else(|| panic!("the example's failure is reported: {lint}"));
    assert_eq!(d["severity"], "warning");
    assert!(assumption_kinds(d).contains(&"example-values"), "{d:#}");
    let said = assumption_text(d);
    assert!(
        said.contains(
            "`-f $1` is the user's copy of install/values/values-example.yaml \
             (install/values/README.md:3 says to copy and fill it in)"
        ),
        "{said}"
    );
}

#[test]
fn an_example_no_page_says_to_copy_stands_in_for_nothing() {
    // The same repository without the page's instruction: `$1` stays given at run time, and
    // the failure waits for it (`needs-input`), as before.
    let lint = Repo::of(&[
        (
            "install/values/README.md",
            "# Values\n\nThe keys are listed in values-example.yaml.\n",
        ),
        (
            "install/values/values-example.yaml",
            "#@data/values\n---\nsite:\n  registry:\n    host: registry.example.com\n",
        ),
        (
            "install/app/install.sh",
            "#!/bin/sh\nytt -f ../../config -f $1 | kapp deploy -a site -f- -y\n",
        ),
        ("config/secret.yaml", SECRET),
    ])
    .lint();
    assert!(
        lint.of("template-error").is_empty(),
        "nothing stands in for `$1`: {lint}"
    );
}

#[test]
fn an_app_s_values_secret_made_from_the_copy_is_the_example() {
    // LA10-1: the App reads its values from a Secret the page makes from the user's copy.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Install\n\nCopy setup/values-example.yaml to values.yaml and edit it for your site. Then:\n\n```\nkubectl create secret generic site-values -n site \\\n  --from-file=values.yaml\nkubectl apply -f setup/app.yaml\n```\n",
        ),
        (
            "setup/values-example.yaml",
            "site:\n  registry:\n    host: registry.example.com\n",
        ),
        (
            "setup/app.yaml",
            "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: site\nspec:\n  serviceAccountName: sa\n  fetch:\n  - git:\n      url: https://example.com/site\n      ref: origin/main\n      subPath: config\n  template:\n  - ytt:\n      valuesFrom:\n      - secretRef:\n          name: site-values\n  deploy:\n  - kapp: {}\n",
        ),
        (
            "config/schema.yaml",
            "#@data/values-schema\n---\n#@schema/type any=True\nsite: {}\n",
        ),
        ("config/secret.yaml", SECRET),
    ]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let failed = lint.of("template-error");
    let d = failed
        .iter()
        .find(|d| str_of(d, "message").contains("struct has no .mirror"))
        .unwrap_or_else(|| panic!("the example's failure is reported: {lint}"));
    assert_eq!(d["severity"], "warning");
    let said = assumption_text(d);
    assert!(
        said.contains("the Secret `site-values` of `valuesFrom` is the user's copy of setup/values-example.yaml"),
        "{said}"
    );
}

#[test]
fn what_the_text_of_a_stand_in_example_shows_assumes_it_is_the_copy() {
    // An example that stands in for the user's copy carries a plain `#` comment, which ytt
    // rejects without `--ignore-unknown-comments`: the copy fails only if the user kept it.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Setup\n\nCopy values-example.yaml to values.yaml and fill in your site.\n",
        ),
        (
            "values-example.yaml",
            "#@data/values\n---\nsite: # remove what you do not use\n  registry:\n    host: registry.example.com\n  mirror:\n    user: me\n",
        ),
        ("deploy.sh", "#!/bin/sh\nytt -f config -f \"$VALUES\" > out.yaml\n"),
        ("config/secret.yaml", SECRET),
    ]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let found = lint.of("unknown-comment");
    let d = found
        .first()
        .unwrap_or_else(|| panic!("the comment is reported: {lint}"));
    assert_eq!(d["severity"], "warning");
    assert!(assumption_kinds(d).contains(&"example-values"), "{d:#}");
}

#[test]
fn a_failure_on_a_blank_the_example_leaves_for_the_user_is_a_note() {
    // FA10-4: the example leaves `tls.certData` empty (a comment says what to put there); the
    // template decodes it and fails on the null, which the user's filled-in copy does not.
    // The other template reads a key the example lacks: true, and still a warning.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Setup\n\n```\ncp values.yaml.example values.yaml\n```\n\nFill in every field of values.yaml as its comments say, then run `./deploy.sh`.\n",
        ),
        (
            "values.yaml.example",
            "#@data/values\n---\ntls:\n  certData: #! base64 of the wildcard certificate\ningress:\n  domain: <INGRESS-DOMAIN>\n",
        ),
        (
            "deploy.sh",
            "#!/bin/sh\nytt -f values.yaml -f templates/tls.yaml > tls.out\nytt -f values.yaml -f templates/route.yaml > route.out\n",
        ),
        (
            "templates/tls.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:base64\", \"base64\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\nstringData:\n  ca: #@ base64.decode(data.values.tls.certData)\n",
        ),
        (
            "templates/route.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: route\ndata:\n  host: #@ data.values.ingress.host\n",
        ),
    ]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let failed = lint.of("template-error");
    let blank = failed
        .iter()
        .find(|d| str_of(d, "message").contains("base64.decode"))
        .unwrap_or_else(|| panic!("the blank's failure is said: {lint}"));
    assert_eq!(blank["severity"], "info", "{blank:#}");
    let said = assumption_text(blank);
    assert!(
        said.contains(
            "the example values.yaml.example leaves `tls.certData` (values.yaml.example:4)"
        ),
        "{said}"
    );
    let lacking = failed
        .iter()
        .find(|d| str_of(d, "message").contains("struct has no .host"))
        .unwrap_or_else(|| panic!("the missing key is reported: {lint}"));
    assert_eq!(lacking["severity"], "warning", "{lacking:#}");
}

#[test]
fn an_overlay_shipped_in_a_secret_is_no_root_of_its_own() {
    // FA10-9: the overlay goes into a Secret that a PackageInstall's annotation hands to
    // kapp-controller, which applies it to the package's templates: alone it matches nothing.
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"PackageInstall\", \"metadata\": {\"name\": \"web\"}})\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  annotations:\n    #@overlay/match missing_ok=True\n    ext.packaging.carvel.dev/ytt-paths-from-secret-name.0: web-tuning\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: web-tuning\n  namespace: apps\nstringData:\n  tuning.yaml: |\n    replicas: 2\n";
    let script = "#!/bin/bash\nscript_dir=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\nkapp deploy -a web-overlay -n apps -f <(\\\n  kubectl create secret generic web-pkgi-overlay -n apps \\\n    --from-file=\"web.yaml=${script_dir}/overlays/web/pkgi-overlay.yaml\" \\\n    --dry-run=client -o yaml) --yes\n";
    let dir = Repo::of(&[
        ("install.sh", script),
        ("overlays/web/pkgi-overlay.yaml", overlay),
    ]);
    dir.assert_lists("copies it into the Secret `web-pkgi-overlay`");
    let lint = dir.lint();
    assert!(
        lint.of("overlay-error").is_empty(),
        "the overlay is not rendered alone: {lint}"
    );
    // Without the Secret, the same directory is a root, and the overlay matches nothing.
    let lint = Repo::of(&[("overlays/web/pkgi-overlay.yaml", overlay)]).lint();
    assert!(!lint.of("overlay-error").is_empty(), "{lint}");
}

#[test]
fn keys_a_script_writes_into_the_copy_are_given_at_run_time() {
    // FA10-4: the script adds `cluster.k8s_info.url` to the user's copy with `yq -i` before
    // ytt reads it; the example lacks the key, the copy does not.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Setup\n\n```\ncp values.yaml.example values.yaml\n```\n",
        ),
        (
            "values.yaml.example",
            "#@data/values\n---\ncluster:\n  name: dev\n",
        ),
        (
            "deploy.sh",
            "#!/bin/bash\nURL=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')\nyq -i '.cluster.k8s_info.url = \"'$URL'\"' values.yaml\nytt -f values.yaml -f templates/cfg.yaml > out.yaml\n",
        ),
        (
            "templates/cfg.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\ncluster:\n  name: #@ data.values.cluster.name\n  url: #@ data.values.cluster.k8s_info.url\n  zone: #@ data.values.cluster.zone\n",
        ),
    ]).lint();
    let said: Vec<String> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] != "info")
        .map(|d| format!("{} {}", str_of(d, "rule"), str_of(d, "message")))
        .collect();
    assert!(
        !said.iter().any(|s| s.contains("k8s_info")),
        "the key the script writes is given: {said:?}"
    );
    // The key nothing writes is still missing from the copy.
    assert!(said.iter().any(|s| s.contains("zone")), "{said:?}");
}

#[test]
fn a_value_check_of_the_text_the_example_sets_for_the_user_to_replace_is_a_note() {
    // Round eleven's cf-for-k8s forks: the sample sets `crt: ingress_certificate`, the docs
    // say to paste a generated certificate there, and a Secret's `data` takes it: "must be
    // base64-encoded" judges the sample's words, not the user's copy. A value check of text the
    // template writes itself is the repository's own: certain, an error.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Setup\n\n```\ncp values.yaml.example values.yaml\n```\n\nFill in every field of values.yaml, then run `./deploy.sh`.\n",
        ),
        (
            "values.yaml.example",
            "#@data/values\n---\ncert:\n  crt: ingress_certificate\n",
        ),
        (
            "deploy.sh",
            "#!/bin/sh\nytt -f values.yaml -f templates/ > out.yaml\n",
        ),
        (
            "templates/tls.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\ndata:\n  tls.crt: #@ data.values.cert.crt\n  ca.crt: not-base64!\n",
        ),
    ]).lint();
    let checks = lint.of("k8s-schema");
    let sample = checks
        .iter()
        .find(|d| str_of(d, "message").contains("found string \"ingress_certificate\""))
        .unwrap_or_else(|| panic!("the check is said: {lint}"));
    assert_eq!(sample["severity"], "info", "{sample:#}");
    assert!(
        assumption_text(sample).contains("sets `cert.crt`"),
        "{}",
        assumption_text(sample)
    );
    let own = checks
        .iter()
        .find(|d| str_of(d, "message").contains("found string \"not-base64!\""))
        .unwrap_or_else(|| panic!("the template's own text is checked: {lint}"));
    assert_eq!(own["severity"], "error", "{own:#}");
}
