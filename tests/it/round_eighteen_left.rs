//! Round eighteen's false warnings (issue 39, the eighteenth session; docs/precision.md
//! "Round eighteen's left-overs"), each as a general rule on a minimal repository written for
//! the test: a Package's null default that its user fills, read by a text template's
//! `(@= … @)`, is input the linter lacks, as the same null read by a plain expression is
//! (R18-2); an overlay a package install takes (`tanzu package install … --ytt-overlay-file`)
//! is rendered with the package's templates, not alone (R18-3); a file a Bazel `genrule` makes
//! for the `ytt` rule is input made at build time (R18-4).

use serde_json::Value;

use crate::util::json::{lint_json, of, str_of, summary};
use crate::util::TempDir;

/// A Package whose fetched bundle's `config/` the repository holds under `bundle/`.
const PACKAGE: &str = "apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  name: logs.example.com.1.0.0
spec:
  refName: logs.example.com
  version: 1.0.0
  template:
    spec:
      fetch:
      - imgpkgBundle:
          image: registry.example.com/logs-bundle:1.0.0
      template:
      - ytt:
          paths:
          - config/
      deploy:
      - kapp: {}
";

/// The package's defaults: the collector is the installer's to give.
const NULL_DEFAULT: &str =
    "#@data/values\n---\n#! the installer's values file sets this\ncollector_host:\n";

/// A ConfigMap whose text-templated string reads `expr`.
fn forwarder(expr: &str) -> String {
    format!(
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: log-forwarder\ndata:\n  #@yaml/text-templated-strings\n  outputs.conf: |\n    [OUTPUT]\n      Host (@= {expr} @)\n      Port 514\n"
    )
}

/// The findings other than `needs-input` notes.
fn not_notes(report: &Value) -> Vec<&Value> {
    crate::util::json::diagnostics(report)
        .iter()
        .filter(|d| d["rule"] != "needs-input")
        .collect()
}

#[test]
fn a_packages_null_default_in_a_text_template_needs_input() {
    // R18-2: ytt fails with the package's defaults (`__ytt_tpl3_set_node: cannot set
    // non-string value (<nil>)`) and renders once the installer gives the value: what the
    // linter lacks is the input, as for the same null in a plain expression.
    let text = forwarder("data.values.collector_host");
    let dir = TempDir::with_files(&[
        ("package.yaml", PACKAGE),
        ("bundle/config/values.yaml", NULL_DEFAULT),
        ("bundle/config/forwarder.yaml", text.as_str()),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    assert!(not_notes(&report).is_empty(), "{}", summary(&report));
    let notes = of(&report, "needs-input");
    assert_eq!(notes.len(), 1, "{report:#}");
    let message = str_of(notes[0], "message");
    assert!(
        message.contains("(`collector_host`)") && message.contains("gives None, not a string"),
        "{message}"
    );
    assert!(!message.contains("__ytt_tpl"), "{message}");
    assert_eq!(str_of(notes[0], "file"), "bundle/config/forwarder.yaml");
    assert_eq!(code, 0, "{report:#}");

    // The plain expression (R18-2b) was already a note: the two read the same.
    let plain = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: log-forwarder\ndata:\n  host: #@ data.values.collector_host + \":514\"\n";
    let dir = TempDir::with_files(&[
        ("package.yaml", PACKAGE),
        ("bundle/config/values.yaml", NULL_DEFAULT),
        ("bundle/config/forwarder.yaml", plain),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(not_notes(&report).is_empty(), "{}", summary(&report));
    assert!(
        str_of(of(&report, "needs-input")[0], "message").contains("(`collector_host`)"),
        "{report:#}"
    );
}

#[test]
fn a_text_templates_non_string_value_is_still_an_error() {
    // Not a null: an int where a string goes fails whatever the installer gives. The message
    // says it with the template's words, not ytt's internal function.
    let text = forwarder("data.values.port");
    let dir = TempDir::with_files(&[
        ("render.sh", "#!/bin/sh\nytt -f config/\n"),
        ("config/values.yaml", "#@data/values\n---\nport: 514\n"),
        ("config/forwarder.yaml", text.as_str()),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    let found = of(&report, "template-error");
    assert_eq!(found.len(), 1, "{}", summary(&report));
    assert_eq!(str_of(found[0], "severity"), "error");
    let message = str_of(found[0], "message");
    assert!(
        message.starts_with("a `(@= … @)` of a text template gives an int, not a string"),
        "{message}"
    );
    assert_eq!(code, 1);

    // A null that a command the repository runs leaves null is the repository's: ytt fails
    // there every time.
    let text = forwarder("data.values.collector_host");
    let dir = TempDir::with_files(&[
        ("render.sh", "#!/bin/sh\nytt -f config/\n"),
        ("config/values.yaml", NULL_DEFAULT),
        ("config/forwarder.yaml", text.as_str()),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    let found = of(&report, "template-error");
    assert_eq!(found.len(), 1, "{}", summary(&report));
    assert_eq!(str_of(found[0], "severity"), "error", "{report:#}");
    assert!(
        str_of(found[0], "message").contains("gives None, not a string"),
        "{report:#}"
    );
    assert_eq!(code, 1);
}

/// An overlay for a package's Deployment, and a plain ConfigMap it adds; `extra` goes after
/// the first line (a load nothing uses, say).
fn proxy_overlay(extra: &str) -> String {
    format!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n{extra}
#@overlay/match by=overlay.subset({{\"kind\": \"Deployment\", \"metadata\": {{\"name\": \"external-dns\"}}}}),expects=1
---
spec:
  template:
    spec:
      containers:
        #@overlay/match by=\"name\"
        - name: external-dns
          #@overlay/match missing_ok=True
          env:
            - name: HTTPS_PROXY
              value: http://proxy.internal:3128
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: proxy-ca
  namespace: tanzu-system-service-discovery
data:
  ca.crt: |
    (the proxy's CA certificate)
"
    )
}

/// A page that installs the TKG package with the overlay (`flag_line`, between the values
/// file and the namespace).
fn install_page(flag_line: &str) -> String {
    format!(
        "# external-dns with a proxy\n\n```bash\ntanzu package install external-dns \\\n  --package external-dns.tanzu.vmware.com \\\n  --version 0.12.2+vmware.7-tkg.1 \\\n  --values-file values.yaml \\\n{flag_line}\n  --namespace tkg-packages\n```\n"
    )
}

const DNS_VALUES: &str =
    "namespace: tanzu-system-service-discovery\ndeployment:\n  args:\n  - --source=service\n";

#[test]
fn an_overlay_a_page_hands_to_a_package_install_is_no_root() {
    // R18-3: kapp-controller applies the overlay to the package's templates, where the
    // Deployment is; nothing renders the folder alone, so `matched 0` says nothing of the
    // repository. The file's own checks still apply (an unused load).
    let overlay = proxy_overlay("#@ load(\"@ytt:data\", \"data\")");
    for flag in [
        "  --ytt-overlay-file overlay-proxy-env.yaml \\",
        // R18-3b: commented out inside the command, for the reader who wants it.
        "# --ytt-overlay-file overlay-proxy-env.yaml \\",
    ] {
        let page = install_page(flag);
        let dir = TempDir::with_files(&[
            ("dns/README.md", page.as_str()),
            ("dns/overlay-proxy-env.yaml", overlay.as_str()),
            ("dns/values.yaml", DNS_VALUES),
        ]);
        let (code, report) = lint_json(&dir, &[]);
        assert!(
            of(&report, "overlay-error").is_empty(),
            "{flag}: {report:#}"
        );
        let unused = of(&report, "unused-load");
        assert_eq!(unused.len(), 1, "{flag}: {}", summary(&report));
        assert_eq!(str_of(unused[0], "file"), "dns/overlay-proxy-env.yaml");
        let said = report.to_string();
        assert!(
            said.contains("into the templates of package `external-dns.tanzu.vmware.com`"),
            "{flag}: {report:#}"
        );
        assert_eq!(code, 0, "{flag}: {report:#}");
    }

    // The same folder that no package install names is a root inferred from the layout, and
    // the overlay that matches nothing there is said (as a warning: the command is a guess).
    let page = install_page("  --set-something \\");
    let dir = TempDir::with_files(&[
        ("dns/README.md", page.as_str()),
        ("dns/overlay-proxy-env.yaml", overlay.as_str()),
        ("dns/values.yaml", DNS_VALUES),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    let found = of(&report, "overlay-error");
    assert_eq!(found.len(), 1, "{}", summary(&report));
    assert_eq!(str_of(found[0], "severity"), "warning");
}

#[test]
fn kctrl_hands_a_directory_of_overlays_to_a_package() {
    // kctrl's own flag takes a directory; a script's `${ROOT}/` is its own directory.
    let overlay = proxy_overlay("");
    let script = "#!/bin/bash\nset -e\nROOT=$(git rev-parse --show-toplevel)\nkctrl package installed create -i dns \\\n  --package external-dns.tanzu.vmware.com --version 0.12.2 \\\n  --ytt-overlay-file ${ROOT}/overlays/\n";
    let dir = TempDir::with_files(&[
        ("install.sh", script),
        ("overlays/proxy.yaml", overlay.as_str()),
        ("overlays/labels.yaml", "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all,expects=\"1+\"\n---\n#@overlay/match-child-defaults missing_ok=True\nmetadata:\n  labels:\n    team: dns\n"),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    assert!(
        crate::util::json::diagnostics(&report).is_empty(),
        "{report:#}"
    );
    assert_eq!(code, 0);
}

/// A Pod whose image pins the digest a build step writes into `app.digest`.
const DIGEST_POD: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: #@ data.values.name\nspec:\n  containers:\n  - name: app\n    image: #@ \"registry.example.com/app@\" + data.read(\"app.digest\").strip()\n";

/// The Bazel package: a genrule writes the digest, rules_ytt's `ytt` renders it with the
/// templates.
const DIGEST_BUILD: &str = "load(\"@rules_ytt//:defs.bzl\", \"ytt\")\n\n# Another step writes the digest of the image this manifest pins.\ngenrule(\n    name = \"digest\",\n    outs = [\"app.digest\"],\n    cmd = \"echo sha256:0123 > $@\",\n)\n\nytt(\n    name = \"manifest\",\n    srcs = glob([\"*.yaml\"]) + [\":digest\"],\n)\n";

#[test]
fn a_file_a_bazel_genrule_makes_is_input_made_at_build_time() {
    // R18-4: ytt with the rule's srcs and the genrule's output renders; the folder linted
    // from the layout lacks the file the build makes: a note naming the rule.
    let dir = TempDir::with_files(&[
        ("MODULE.bazel", "module(name = \"example\")\n"),
        ("deploy/BUILD.bazel", DIGEST_BUILD),
        ("deploy/app.yaml", DIGEST_POD),
        ("deploy/values.yaml", "#@data/values\n---\nname: app\n"),
    ]);
    let (code, report) = lint_json(&dir, &[]);
    assert!(not_notes(&report).is_empty(), "{}", summary(&report));
    let notes = of(&report, "needs-input");
    assert_eq!(notes.len(), 1, "{report:#}");
    assert_eq!(
        str_of(notes[0], "message"),
        "this root reads deploy/app.digest, which the Bazel genrule `digest` \
         (deploy/BUILD.bazel:4) makes at build time: it is not committed, and the evaluation \
         stops for want of it"
    );
    assert_eq!(str_of(notes[0], "file"), "deploy/app.yaml");
    assert_eq!(code, 0);

    // A BUILD file whose rules make something else: the read fails for want of a file that
    // nothing makes, as before.
    let other = DIGEST_BUILD.replace("[\"app.digest\"]", "[\"app.sha\"]");
    let dir = TempDir::with_files(&[
        ("MODULE.bazel", "module(name = \"example\")\n"),
        ("deploy/BUILD.bazel", other.as_str()),
        ("deploy/app.yaml", DIGEST_POD),
        ("deploy/values.yaml", "#@data/values\n---\nname: app\n"),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    let found = of(&report, "template-error");
    assert_eq!(found.len(), 1, "{}", summary(&report));
    assert!(
        str_of(found[0], "message").contains("Expected to find file 'app.digest'"),
        "{report:#}"
    );
}
