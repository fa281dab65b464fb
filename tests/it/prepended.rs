//! Names a tool prepends to a template (issue 39, round eight): a template reads `ns` and
//! `cluster`, which no file defines; a script writes `#@ ns = "…"` lines before each file and
//! renders the result. Each repository is a minimal repro written for the test.

use serde_json::Value;

use crate::util::json::str_of;
use crate::util::repo::{Lint, Repo};

const TEMPLATE: (&str, &str) = (
    "clusters/ns01/c1/cluster.yml",
    "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ cluster\n  namespace: #@ ns\n",
);

const PREPENDS: (&str, &str) = (
    "bin/apply.sh",
    "#!/bin/bash\ncd clusters; out=$(mktemp -d)\nfor f in */*/cluster.yml; do\n  \
     IFS=/ read -r ns cl _ <<< \"$f\"\n  \
     { printf '#@ ns = \"%s\"\\n#@ cluster = \"%s\"\\n' \"$ns\" \"$cl\"; cat \"$f\"; } > \"$out/$ns-$cl.yml\"\n\
     done\nytt -f \"$out\" | kapp deploy -a clusters -f - -y\n",
);

fn undefined(lint: &Lint) -> Vec<&Value> {
    lint.diagnostics()
        .iter()
        .filter(|d| str_of(d, "message").starts_with("undefined: "))
        .collect()
}

#[test]
fn a_name_the_repository_writes_as_prepended_text_is_a_note_that_says_so() {
    let lint = Repo::of(&[TEMPLATE, PREPENDS]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = undefined(&lint);
    assert_eq!(found.len(), 2, "{lint}");
    for d in found {
        assert_eq!(d["severity"], "info", "{d:#}");
        assert_eq!(d["certainty"]["certain"], false);
        let assumed = d["certainty"]["assumptions"].as_array().cloned();
        let a = assumed
            .iter()
            .flatten()
            .find(|a| a["kind"] == "prepended-text")
            .cloned()
            .unwrap_or_else(|| panic!("no prepended-text in {d:#}"));
        let said = str_of(&a, "message");
        assert!(said.contains("the file is rendered alone"), "{said}");
        assert!(said.contains("bin/apply.sh:5"), "{said}");
    }
}

#[test]
fn without_such_text_an_undefined_name_stays_an_error() {
    // The same template, and a script that renders other files: nothing gives `cluster`.
    let lint = Repo::of(&[
        TEMPLATE,
        (
            "bin/apply.sh",
            "#!/bin/sh\necho '#@ region = \"eu\"' > /tmp/x\n",
        ),
    ])
    .lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = undefined(&lint);
    assert_eq!(found.len(), 2, "{lint}");
    assert!(found.iter().all(|d| d["severity"] == "error"), "{lint}");
}

#[test]
fn a_command_that_renders_the_directory_as_committed_keeps_the_error() {
    // The script prepends, but the Makefile also renders the directory as it is: ytt fails.
    let lint = Repo::of(&[
        TEMPLATE,
        PREPENDS,
        ("Makefile", "check:\n\tytt -f clusters/ns01/c1\n"),
    ])
    .lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = undefined(&lint);
    assert!(!found.is_empty(), "{lint}");
    assert!(found.iter().all(|d| d["severity"] == "error"), "{lint}");
}
