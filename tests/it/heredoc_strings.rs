//! A ytt document a script writes inside a here-document (round fifty-two's N52-2): a
//! `package_overlays` Secret whose `stringData.patch.yaml` is a ytt overlay, written with
//! `cat <<EOT > x.yaml` and applied with `kubectl`. Its text is checked as the same Secret
//! committed as a YAML file is. ytt (4b40e30) over the string with the unclosed `#@ if` exits
//! 1, "mismatched set of block openings (if/else/elif/for/def) and closing (end)".

use crate::util::json::{assumption_text, str_of};
use crate::util::repo::Repo;

/// The script, with the overlay's last lines given.
fn script(tail: &str) -> String {
    format!(
        "#!/bin/bash\nset -e\ncat <<EOT > grype-overlay.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: grype-overlay\n  namespace: tap-install\nstringData:\n  patch.yaml: |\n    #@ load(\"@ytt:overlay\", \"overlay\")\n    #@overlay/match by=overlay.subset({{\"kind\": \"ScanTemplate\"}}), expects=\"1+\"\n    ---\n    spec:\n{tail}EOT\nkubectl apply -f grype-overlay.yaml\n"
    )
}

#[test]
fn an_overlay_in_a_here_document_s_secret_is_checked() {
    let repo = Repo::of(&[("fillthegap.sh", &script("      #@ if True:\n      x: 1\n"))]);
    let lint = repo.lint();
    let found = lint.in_file("template-error", "fillthegap.sh");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["line"], 15, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "warning", "{lint}");
    assert!(
        assumption_text(found[0]).contains("the string `patch.yaml` (fillthegap.sh:10)"),
        "{lint}"
    );
}

#[test]
fn a_sound_overlay_in_a_here_document_and_a_block_outside_one_are_quiet() {
    let sound = script("      #@overlay/match missing_ok=True\n      x: 1\n");
    // Shell that is no here-document: its text is not a Kubernetes object.
    let outside = "#!/bin/bash\nvalues: |\n  #@ load(\"@ytt:data\", \"data\")\n  #@ if True:\n";
    let repo = Repo::of(&[("fillthegap.sh", sound.as_str()), ("other.sh", outside)]);
    let lint = repo.lint();
    assert!(lint.diagnostics().is_empty(), "{lint}");
}
