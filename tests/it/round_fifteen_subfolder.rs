//! Round fifteen's page commands that belong to a subfolder, and provider overlays kept
//! outside a `providers/` tree (issue 39, the fifteenth session; docs/precision.md "Round
//! fifteen: a page's commands in a subfolder"), each as a general rule on a minimal
//! repository written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A ConfigMap of the data values `db.*`, its values, and an overlay labelling everything.
const DB: &str = "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.db.name\ndata:\n  size: #@ data.values.db.size\n";
const DB_VALUES: &str = "#@data/values\n---\ndb:\n  name: shop\n  size: 2Gi\n";
const LABEL: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    team: data\n";
const VENDIR: &str = "apiVersion: vendir.k14s.io/v1alpha1\nkind: Config\ndirectories:\n- path: vendor\n  contents:\n  - path: upstream\n    git:\n      url: https://example.invalid/upstream\n      ref: v1.0.0\n";

/// A page beside the automation folder it describes, showing that folder's commands without
/// saying where to run them.
const PAGE: &str = "# Architecture\n\nThe automation folder holds the templates. Deploy the database:\n\n```bash\n$ kapp deploy --app db --file <(ytt \\\n    --file deployment/db.yaml \\\n    --file deployment/values.yaml \\\n    --file overlays/label.yaml)\n```\n\nThe operator, with the overlay:\n\n```bash\nytt --file vendor/upstream/operator.yaml \\\n    --file overlays/label.yaml\n```\n\nThe namespace:\n\n```bash\nexport NAMESPACE=shop\nytt -f deployment/namespace.yaml -f \"${NAMESPACE}\"\n```\n\nThe database alone:\n\n```bash\nytt -f deployment/db.yaml\n```\n";

#[test]
fn a_pages_command_runs_from_the_one_subfolder_holding_its_inputs() {
    // R15A-2: the page sits in `guide/`, its commands' files in `guide/automation/` (and
    // `vendor/upstream`, which `vendir sync` makes there). From that folder every input
    // exists: the command is linted there, assuming it, not reported missing.
    let lint = Repo::of(&[
        ("guide/architecture.md", PAGE),
        ("guide/automation/README.md", "# Automation\n"),
        ("guide/automation/vendir.yml", VENDIR),
        ("guide/automation/deployment/db.yaml", DB),
        ("guide/automation/deployment/values.yaml", DB_VALUES),
        (
            "guide/automation/deployment/namespace.yaml",
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n",
        ),
        ("guide/automation/overlays/label.yaml", LABEL),
    ])
    .lint();
    let missing: Vec<u64> = lint
        .of("input-missing")
        .iter()
        .map(|d| d["line"].as_u64().unwrap_or(0))
        .collect();
    // The namespace's command stays missing: no folder holds both `deployment/namespace.yaml`
    // and `shop`.
    assert_eq!(missing, vec![23], "{}", lint.summary());
    // The database's command renders from the automation folder, and says so.
    let roots = lint.report["roots"].as_array().cloned().unwrap_or_default();
    let db = roots
        .iter()
        .find(|r| r["scenario"] == "guide/architecture.md:6")
        .unwrap_or_else(|| panic!("{lint}"));
    assert_eq!(db["status"], "ok", "{db:#}");
    assert!(
        str_of(db, "path").starts_with("guide/automation/deployment/db.yaml"),
        "{db:#}"
    );
    let assumed = db["provenance"]["assumptions"][0].clone();
    assert_eq!(assumed["kind"], "working-directory", "{db:#}");
    assert!(
        str_of(&assumed, "message").contains("run from guide/automation"),
        "{db:#}"
    );
    // The database alone runs from there too (its values are the reader's: a note at most).
    let alone = roots
        .iter()
        .find(|r| r["scenario"] == "guide/architecture.md:29")
        .unwrap_or_else(|| panic!("{lint}"));
    assert_eq!(
        alone["provenance"]["assumptions"][0]["kind"], "working-directory",
        "{alone:#}"
    );
    assert!(
        lint.diagnostics()
            .iter()
            .all(|d| d["severity"] == "info" || d["rule"] == "input-missing"),
        "{}",
        lint.summary()
    );
}

#[test]
fn a_pages_command_whose_inputs_two_folders_hold_is_placed_in_neither() {
    // Two folders below the page hold the command's files: the page does not say which one
    // it means, and the command stays as it was (not evaluated, in neither folder).
    let page = "# Deploy\n\n```\nytt -f deployment/db.yaml -f overlays/label.yaml\n```\n";
    let lint = Repo::of(&[
        ("guide/README.md", page),
        ("guide/staging/deployment/db.yaml", DB),
        ("guide/staging/overlays/label.yaml", LABEL),
        ("guide/prod/deployment/db.yaml", DB),
        ("guide/prod/overlays/label.yaml", LABEL),
    ])
    .lint();
    let roots = lint.report["roots"].as_array().cloned().unwrap_or_default();
    assert!(
        roots.iter().all(|r| r["scenario"] != "guide/README.md:4"),
        "{lint}"
    );
    assert!(
        !lint.report.to_string().contains("working-directory"),
        "{lint}"
    );
}

/// A TKG provider overlay: it loads the provider tree's library, which only the Tanzu CLI's
/// providers folder holds, and one name it never uses (a static finding of its own).
const PROVIDER_OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:base64\", \"base64\")\n#@ load(\"lib/helpers.star\", \"image_repo\", \"check_config\")\n#@ check_config(\"vsphere\")\n\n#@overlay/match by=overlay.subset({\"kind\": \"KubeadmControlPlane\"})\n---\nspec:\n  kubeadmConfigSpec:\n    clusterConfiguration:\n      #@overlay/match missing_ok=True\n      imageRepository: #@ image_repo()\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: windows-debug\ndata:\n  repo: #@ image_repo()\n";

/// A page that sends its reader to the Tanzu CLI with the overlay.
const TANZU_PAGE: &str = "# Windows cluster tweaks\n\nCopy `windows/debug/overlay.yaml` into your Tanzu CLI providers folder\n(`~/.config/tanzu/tkg/providers/ytt/03_customizations/`) and create a cluster with\n`tanzu cluster create -f config.yaml`.\n";

#[test]
fn a_provider_overlay_outside_a_providers_tree_rests_on_the_tanzu_cli() {
    // R15B-2: the overlay is kept in `windows/debug/`, not under `providers/`; what it loads
    // and the page say the Tanzu CLI renders it. Its load of the provider library is a note
    // naming that tool; its own static finding stays.
    let lint = Repo::of(&[
        ("README.md", TANZU_PAGE),
        ("windows/debug/overlay.yaml", PROVIDER_OVERLAY),
    ])
    .lint();
    let load = lint.of("load-error");
    assert_eq!(load.len(), 1, "{}", lint.summary());
    assert_eq!(load[0]["severity"], "info", "{:#}", load[0]);
    let assumed = load[0]["certainty"]["assumptions"].to_string();
    assert!(assumed.contains("the Tanzu CLI (TKG)"), "{:#}", load[0]);
    let unused = lint.of("unused-load");
    assert_eq!(unused.len(), 1, "{}", lint.summary());
    assert_eq!(unused[0]["severity"], "warning", "{:#}", unused[0]);

    // Without a page pointing at the Tanzu CLI, or with the library beside the overlay, the
    // load is the repository's own: as before.
    for files in [
        vec![
            ("README.md", "# Windows\n\nOverlays.\n"),
            ("windows/debug/overlay.yaml", PROVIDER_OVERLAY),
        ],
        vec![
            ("README.md", TANZU_PAGE),
            ("windows/debug/overlay.yaml", PROVIDER_OVERLAY),
            (
                "windows/debug/lib/helpers.star",
                "def image_repo():\n  return \"r\"\nend\ndef check_config(p):\n  return None\nend\n",
            ),
        ],
    ] {
        let lint = Repo::of(&files).lint();
        assert!(
            lint.of("load-error")
                .iter()
                .all(|d| d["severity"] != "info"),
            "{}",
            lint.summary()
        );
        assert!(
            !lint.report.to_string().contains("the Tanzu CLI (TKG)"),
            "{}",
            lint.summary()
        );
    }
}

/// A page whose database command lost one `\`: `--file deployment/db.yaml` ends the line,
/// so the shell runs `ytt --file deployment/db.yaml` alone, and the `--data-value` lines
/// after it are another command (with the `\`: one command giving the values).
fn split_page(backslash: &str) -> String {
    format!(
        "# Architecture\n\nDeploy the database:\n\n```bash\n$ kapp deploy --app db \\\n    --file <(ytt \\\n        --file deployment/db.yaml{backslash}\n        --data-value db.name=shop \\\n        --data-value db.size=1Gi)\n```\n"
    )
}

#[test]
fn a_page_command_missing_one_backslash_is_read_as_the_shell_runs_it() {
    // LR15A-3: read as the shell reads it, the command gives ytt no values, and the
    // template's read of `db` fails from the folder the command runs in. With the `\`, the
    // values are given and nothing fails.
    for (backslash, fails) in [("", true), (" \\", false)] {
        let page = split_page(backslash);
        let lint = Repo::of(&[
            ("guide/architecture.md", page.as_str()),
            ("guide/automation/deployment/db.yaml", DB),
            ("guide/automation/overlays/label.yaml", LABEL),
        ])
        .lint();
        assert!(lint.of("input-missing").is_empty(), "{}", lint.summary());
        let roots = lint.report["roots"].as_array().cloned().unwrap_or_default();
        assert!(
            roots
                .iter()
                .any(|r| str_of(r, "path") == "guide/automation/deployment/db.yaml"),
            "{lint}"
        );
        let failed = lint.diagnostics().iter().any(|d| {
            str_of(d, "file") == "guide/automation/deployment/db.yaml"
                && str_of(d, "message").contains("no .db field")
        });
        assert_eq!(failed, fails, "`{backslash}`: {}", lint.summary());
    }
}

#[test]
fn a_pages_command_with_an_input_beside_the_page_keeps_its_missing_one() {
    // From the round fifteen regression: `ytt -f app/web -f overlay/ns` at the top, whose
    // `app/web` is there and whose overlay moved; a test folder holds copies of both. The
    // page is written for its own directory: the overlay is missing, not the test folder's.
    let page = "# Templates\n\n```bash\nytt -f app/web -f overlay/ns -v stage=qa\n```\n";
    let lint = Repo::of(&[
        ("README.md", page),
        ("app/web/db.yaml", DB),
        ("app/web/values.yaml", DB_VALUES),
        ("overlay/generic/ns/label.yaml", LABEL),
        ("test/app/web/db.yaml", DB),
        ("test/app/web/values.yaml", DB_VALUES),
        ("test/overlay/ns/label.yaml", LABEL),
    ])
    .lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{}", lint.summary());
    assert_eq!(
        (str_of(missing[0], "file"), missing[0]["line"].as_u64()),
        ("README.md", Some(4))
    );
    assert!(
        !lint.report.to_string().contains("working-directory"),
        "{lint}"
    );
}
