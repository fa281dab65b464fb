//! Round ten's left-over constructs (issue 39, docs/precision.md, "Round ten's left-over
//! constructs"): each a general rule on a minimal repository written for the test.

use serde_json::Value;

use crate::util::bin::yttlint;
use crate::util::json::{diagnostics, lint_json, str_of};
use crate::util::TempDir;

/// The findings of `rule` in the report.
fn of<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["rule"] == rule)
        .collect()
}

fn assumption_kinds(d: &Value) -> Vec<&str> {
    d["certainty"]["assumptions"]
        .as_array()
        .map(|a| a.iter().map(|a| str_of(a, "kind")).collect())
        .unwrap_or_default()
}

fn assumption_text(d: &Value) -> String {
    d["certainty"]["assumptions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|a| str_of(a, "message").to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default()
}

fn errors(report: &Value) -> Vec<&Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect()
}

/// A template that reads `site.registry.host` and `site.registry.user`.
const SECRET: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: registry\nstringData:\n  host: #@ data.values.site.registry.host\n  user: #@ data.values.site.mirror.user\n";

#[test]
fn a_script_s_run_time_values_are_the_copy_of_the_example_a_page_says_to_fill_in() {
    // LA10-1: `-f $1` is the user's copy of the example the page tells them to make; the
    // example lacks `site.mirror`, which the template reads: ytt fails with it.
    let dir = TempDir::with_files(&[
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
    let list = yttlint(&dir, &["--list-roots"]);
    assert!(
        list.stdout
            .contains("config + install/values/values-example.yaml"),
        "{}",
        list.stdout
    );
    let (_, report) = lint_json(&dir, &[]);
    assert!(errors(&report).is_empty(), "{report:#}");
    let failed = of(&report, "template-error");
    let d = failed
        .iter()
        .find(|d| str_of(d, "message").contains("struct has no .mirror"))
        .unwrap_or_else(|| panic!("the example's failure is reported: {report:#}"));
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
    let dir = TempDir::with_files(&[
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
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(
        of(&report, "template-error").is_empty(),
        "nothing stands in for `$1`: {report:#}"
    );
}

#[test]
fn an_app_s_values_secret_made_from_the_copy_is_the_example() {
    // LA10-1: the App reads its values from a Secret the page makes from the user's copy.
    let dir = TempDir::with_files(&[
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
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(errors(&report).is_empty(), "{report:#}");
    let failed = of(&report, "template-error");
    let d = failed
        .iter()
        .find(|d| str_of(d, "message").contains("struct has no .mirror"))
        .unwrap_or_else(|| panic!("the example's failure is reported: {report:#}"));
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
    let dir = TempDir::with_files(&[
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
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(errors(&report).is_empty(), "{report:#}");
    let found = of(&report, "unknown-comment");
    let d = found
        .first()
        .unwrap_or_else(|| panic!("the comment is reported: {report:#}"));
    assert_eq!(d["severity"], "warning");
    assert!(assumption_kinds(d).contains(&"example-values"), "{d:#}");
}
