//! Round seventeen's catalog scripts (issue 39, the seventeenth session; docs/precision.md
//! "Round seventeen"), as a general rule on a minimal repository written for the test: a
//! script another script of the repository copies elsewhere before it runs is not run where
//! it lies, whatever folder holds the tree (R17A-1).

use crate::util::repo::Repo;

const SETUP: &str = "#!/usr/bin/env bash\n# Makes clusters/NAME from the catalog.\nset -o errexit -o nounset\nname=\"$1\"\nmkdir -p clusters/\"$name\"/sync/{scripts,bootstrap}\ncp -R .catalog/sync/2.1/eso/scripts/* clusters/\"$name\"/sync/scripts/\ncp -R .catalog/sync/2.1/eso/bootstrap/* clusters/\"$name\"/sync/bootstrap/\n";

const BOOTSTRAP: &str = "#!/usr/bin/env bash\n# Run from clusters/NAME once setup-repo.sh copied it there.\nset -o errexit -o nounset\nkubectl apply -f <(ytt -f sync/bootstrap/ -v registry.host=\"${REGISTRY_HOST}\")\n";

const SECRET: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: registry\ndata:\n  host: #@ data.values.registry.host\n";

const VALUES: &str = "#@data/values\n---\nregistry:\n  host: \"\"\n";

/// The tree of a GitOps reference implementation under `top` (`""` for the repository's
/// top), with one cluster made from its catalog.
fn tree(top: &str) -> Vec<(String, &'static str)> {
    [
        ("setup-repo.sh", SETUP),
        (".catalog/sync/2.1/eso/scripts/bootstrap.sh", BOOTSTRAP),
        (".catalog/sync/2.1/eso/bootstrap/secret.yaml", SECRET),
        (".catalog/sync/2.1/eso/bootstrap/values.yaml", VALUES),
        ("clusters/demo/sync/scripts/bootstrap.sh", BOOTSTRAP),
        ("clusters/demo/sync/bootstrap/secret.yaml", SECRET),
        ("clusters/demo/sync/bootstrap/values.yaml", VALUES),
    ]
    .into_iter()
    .map(|(p, t)| (format!("{top}{p}"), t))
    .collect()
}

#[test]
fn a_catalog_script_copied_into_place_is_not_run_where_it_lies_at_any_depth() {
    for top in ["", "gitops/", "infra/tap/gitops/"] {
        let files = tree(top);
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
        let lint = Repo::of(&refs).lint();
        assert!(lint.of("input-missing").is_empty(), "{top}: {lint}");
        assert_eq!(lint.code, 0, "{top}: {lint}");
        // The copy, run from its cluster's folder, is still linted.
        let copy = format!("{top}clusters/demo/sync/bootstrap");
        assert!(
            crate::util::json::root_paths(&lint.report).contains(&copy),
            "{top}: {lint}"
        );
    }
}

#[test]
fn a_script_nothing_copies_is_still_judged_where_it_lies() {
    // The same catalog without the script that copies it: its command runs where it lies,
    // and its input is missing there.
    let files: Vec<(String, &str)> = tree("gitops/")
        .into_iter()
        .filter(|(p, _)| !p.ends_with("setup-repo.sh"))
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let lint = Repo::of(&refs).lint();
    assert!(
        lint.of("input-missing")
            .iter()
            .any(|d| d["file"] == "gitops/.catalog/sync/2.1/eso/scripts/bootstrap.sh"),
        "{lint}"
    );
}
