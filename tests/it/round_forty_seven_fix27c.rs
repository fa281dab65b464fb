//! Items of rounds twenty-five to forty-four fixed in session twenty-seven (helper c), each on
//! a minimal repository written for the test: a command whose input folder is missing claims
//! only the files directly in that folder's nearest existing folder, never its sibling folders
//! (N36-3).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A service folder's template that ytt refuses: a plain `#` comment.
const COMMENTED: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: billing\n  # owned by the payments team\ndata:\n  port: #@ str(data.values.port)\n";

/// A service folder's template reading a value its folder does not set.
const UNSET: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ledger\ndata:\n  port: #@ str(data.values.port)\n";

#[test]
fn a_missing_input_folder_does_not_claim_its_sibling_folders() {
    let repo = Repo::of(&[
        (
            "Makefile",
            "deploy:\n\tytt -f apps/frontend | kubectl apply -f -\n",
        ),
        ("apps/billing/configmap.yaml", COMMENTED),
        ("apps/billing/values.yaml", "#@data/values\n---\nport: 8080\n"),
        ("apps/ledger/configmap.yaml", UNSET),
    ]);
    let lint = repo.lint();
    let missing = lint.in_file("input-missing", "Makefile");
    assert_eq!(missing.len(), 1, "{lint}");
    // No command reads the sibling folders: they are layout roots with their own notes.
    let roots = repo.roots();
    assert!(!roots.contains("not evaluated"), "{roots}");
    let comment = lint.in_file("needs-input", "apps/billing/configmap.yaml");
    assert_eq!(comment.len(), 1, "{lint}");
    let unset = lint.in_file("needs-input", "apps/ledger/configmap.yaml");
    assert_eq!(unset.len(), 1, "{lint}");
    assert_eq!(str_of(unset[0], "severity"), "info", "{lint}");
}
