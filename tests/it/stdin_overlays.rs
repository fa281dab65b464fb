//! Another tool's manifests piped into ytt (issue 39, round eight): `helm template … | ytt -f -
//! -f overlay/`. The overlay is linted with the command's other inputs and standard input as
//! an input the linter lacks: its own text findings are certain; what depends on the piped
//! manifests (an overlay that matches nothing without them) is a note that says so. A minimal
//! repro written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;

const OVERLAY: (&str, &str) = (
    "overlay/ca/overlay.yml",
    "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n\
     #@overlay/match by=overlay.subset({\"kind\": \"Deployment\"}), expects=\"1+\"\n---\n\
     spec:\n  template:\n    metadata:\n      #@overlay/match missing_ok=True\n      \
     annotations:\n        ca: #@ data.values.certificate\n",
);

const SCRIPT: (&str, &str) = (
    "scripts/deploy.sh",
    "#!/bin/sh\nhelm template web bitnami/nginx |\n  ytt -f - -f overlay/ca \
     --data-value certificate=\"$(cat ca.pem)\" | kubectl apply -f -\n",
);

#[test]
fn an_overlay_of_piped_manifests_is_judged_without_them_and_says_so() {
    let dir = Repo::of(&[OVERLAY, SCRIPT]);
    let roots = crate::util::yttlint(&dir, &["--list-roots"]);
    assert!(
        roots
            .stdout
            .contains("overlay/ca\trun by scripts/deploy.sh:3"),
        "{}",
        roots.stdout
    );
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    let matched: Vec<_> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["rule"] == "overlay-error")
        .collect();
    assert_eq!(matched.len(), 1, "{lint}");
    let d = matched[0];
    assert_eq!(d["severity"], "info", "{d:#}");
    let said = str_of(&d["certainty"]["assumptions"][0], "message");
    assert!(
        said.contains("reads the manifests `helm template"),
        "{said}"
    );
}

#[test]
fn the_overlay_s_own_errors_stay_errors() {
    let broken = (
        OVERLAY.0,
        "#@ load(\"@ytt:overlay\", \"overlay\")\n\
         #@overlay/match by=overlay.subset({\"kind\": \"Deployment\"}), expects=\"1+\"\n---\n\
         spec:\n  replicas: #@ replica_count\n",
    );
    let lint = Repo::of(&[broken, SCRIPT]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let undefined: Vec<_> = lint
        .diagnostics()
        .iter()
        .filter(|d| str_of(d, "message").starts_with("undefined: replica_count"))
        .collect();
    assert_eq!(undefined.len(), 1, "{lint}");
    assert_eq!(undefined[0]["severity"], "error");
}
