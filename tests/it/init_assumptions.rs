//! What `yttlint init` records of discovery's assumptions, and where an embedded document's
//! finding comes from (round eight's left-overs, docs/precision.md). Each repository is a minimal
//! repro written for the test.

use crate::util::json::str_of;
use crate::util::repo::{Lint, Repo};
use crate::util::yttlint;

/// `(severity, rule, file, line, kinds assumed)` of every finding.
fn severities(dir: &std::path::Path) -> Vec<(String, String, String, u64, Vec<String>)> {
    let lint = Lint::run(dir, &[]);
    assert!(lint.code == 0 || lint.code == 1, "{lint}");
    let mut out: Vec<_> = lint
        .diagnostics()
        .iter()
        .map(|d| {
            let kinds = d["certainty"]["assumptions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| str_of(a, "kind").to_string())
                .collect();
            (
                str_of(d, "severity").to_string(),
                str_of(d, "rule").to_string(),
                str_of(d, "file").to_string(),
                d["line"].as_u64().unwrap_or(0),
                kinds,
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn init_records_what_discovery_assumed_and_the_severities_stay() {
    // A layout root that fails, an overlay of manifests `helm template` pipes in, a README
    // command run with the user's copy of an example values file.
    let repo = Repo::copy_of("invocations/init-assumptions");
    for f in ["expected-roots.txt", "expected-findings.txt"] {
        let _ = std::fs::remove_file(repo.join(f));
    }
    let before = severities(&repo);
    let rows: Vec<(&str, &str, &[String])> = before
        .iter()
        .map(|(s, r, _, _, k)| (s.as_str(), r.as_str(), k.as_slice()))
        .collect();
    assert_eq!(
        rows,
        [
            ("info", "overlay-error", &["missing-input".to_string()][..]),
            (
                "warning",
                "template-error",
                &["example-values".to_string()][..]
            ),
            (
                "warning",
                "template-error",
                &["inferred-command".to_string()][..]
            ),
        ]
    );
    let init = yttlint(&repo, &["init"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    let written = std::fs::read_to_string(repo.join(".yttlint.yaml")).unwrap();
    for kind in ["inferred-command", "missing-input", "example-values"] {
        assert!(written.contains(&format!("- {kind}: \"")), "{written}");
    }
    assert_eq!(severities(&repo), before, "{written}");
    // Deleting an entry confirms it: the layout root's command is then the configuration's,
    // and its failure an error.
    let confirmed: String = written
        .lines()
        .filter(|l| !l.contains("inferred-command:") && !l.starts_with("    assumes:"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(repo.join(".yttlint.yaml"), &confirmed).unwrap();
    let after = severities(&repo);
    assert!(
        after.iter().any(|(s, r, f, _, k)| s == "error"
            && r == "template-error"
            && f == "layout/config.yml"
            && k.is_empty()),
        "{confirmed}\n{after:?}"
    );
}

#[test]
fn an_embedded_document_s_finding_says_where_it_is_written_and_who_reads_the_file() {
    let dir = Repo::of(&[
        (
            "installer/values-secret.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: installer-values\nstringData:\n  values.yaml: |\n    #@data/values\n    ---\n    # the profile to install\n    profile: full\n",
        ),
        (
            "hack/deploy.sh",
            "#!/bin/sh\nkapp deploy -a installer -f installer/values-secret.yaml -y\n",
        ),
    ]);
    let lint = dir.lint();
    let d = lint
        .diagnostics()
        .iter()
        .find(|d| d["rule"] == "unknown-comment")
        .cloned()
        .unwrap_or_else(|| panic!("{lint}"));
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["certainty"]["source"], "embedded");
    assert_eq!(d["certainty"]["origin"], "installer/values-secret.yaml:6");
    let assumed = str_of(&d["certainty"]["assumptions"][0], "message");
    assert!(
        assumed.contains(
            "installer/values-secret.yaml itself is read by `kapp deploy` at hack/deploy.sh:2"
        ),
        "{assumed}"
    );
    let run = yttlint(&dir, &["--color", "never"]);
    assert!(
        run.stdout.contains(
            "= in the ytt document written as a string at installer/values-secret.yaml:6"
        ),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("inferred from the layout"),
        "{}",
        run.stdout
    );
}
