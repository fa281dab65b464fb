//! Round twenty-three's constructs (and round twenty-one's left-over), each on a minimal
//! repository written for the test: an `unused-load` in a directory a tool writes and manages
//! (`.tanzu-managed/`, which TAP's GitOps reference implementation ships for tanzu-sync) is
//! info without its fix, where the same finding in the author's own file stays a warning; a
//! template a setup script copies to another committed folder is no root of its own (R23-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

#[test]
fn an_unused_load_in_a_tool_managed_directory_is_info_and_in_the_authors_file_a_warning() {
    let repo = Repo::of(&[
        (
            "sync/app/config/.tanzu-managed/version.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\nversion: #@ data.values.version\n",
        ),
        (
            "sync/app/config/values.yaml",
            "#@data/values\n---\nversion: \"1.2\"\n",
        ),
        (
            "sync/app/config/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\nname: #@ data.values.version\n",
        ),
    ]);
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let unused = lint.of("unused-load");
    assert_eq!(unused.len(), 2, "{lint}");
    for d in unused {
        let file = str_of(d, "file");
        let severity = str_of(d, "severity");
        let message = str_of(d, "message");
        if file.contains(".tanzu-managed/") {
            assert_eq!(severity, "info", "{lint}");
            assert!(
                message.contains("in sync/app/config/.tanzu-managed/, which a tool writes"),
                "{message}"
            );
            assert!(d["fix"].is_null(), "{lint}");
        } else {
            assert_eq!(file, "sync/app/config/app.yaml", "{lint}");
            assert_eq!(severity, "warning", "{lint}");
        }
    }
}

/// A setup script renders the deployed values from the user's copy of an example and copies a
/// template into the deployed folder, which a deploy script renders with those values.
const SETUP: [(&str, &str); 6] = [
    (
        "templates/values-template.yml",
        "#@data/values\n---\nfeature: true\n",
    ),
    (
        "templates/feature-values.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\n#@ if data.values.feature:\nfeature:\n  enabled: true\n#@ end\n",
    ),
    (
        "templates/feature.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\n#@ if data.values.feature.enabled:\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: feature\n#@ end\n",
    ),
    (
        "setup.sh",
        "#!/bin/sh\nytt -f values.yml -f templates/feature-values.yml > config/values.yml\ncp templates/feature.yml config/feature.yml\n",
    ),
    (
        "deploy.sh",
        "#!/bin/sh\nytt -f config/feature.yml --data-values-file config/values.yml | kubectl apply -f -\n",
    ),
    ("config/values.yml", "feature:\n  enabled: true\n"),
];

/// The committed copy.
const COPY: (&str, &str) = (
    "config/feature.yml",
    "#@ load(\"@ytt:data\", \"data\")\n#@ if data.values.feature.enabled:\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: feature\n#@ end\n",
);

#[test]
fn a_template_a_script_copies_to_a_committed_folder_is_checked_there_not_with_its_neighbours() {
    let mut files = SETUP.to_vec();
    files.push(COPY);
    let repo = Repo::of(&files);
    repo.assert_lists(
        "templates/feature.yml\tchecked on its own, not evaluated: copied to config/feature.yml by setup.sh:3",
    );
    let lint = repo.lint();
    // Not rendered with the example beside it (`bool has no .enabled`), which nothing does.
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    // Its static checks still apply.
    let unused = lint.of("unused-load");
    assert_eq!(unused.len(), 1, "{lint}");
    assert_eq!(str_of(unused[0], "file"), "templates/feature.yml", "{lint}");

    // Without the committed copy, the deploy script's input is the copy the setup script
    // makes: the source is rendered in its place, with the values the deploy gives.
    let repo = Repo::of(&SETUP);
    let lint = repo.lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    let roots = lint.report["roots"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    assert!(
        roots
            .iter()
            .any(|r| r["path"] == "templates/feature.yml" && r["scenario"] == "deploy.sh:2"),
        "{lint}"
    );
}

/// A page whose first block enters `templates/` and whose later block renders a file there
/// without saying where (round twenty-three's N23-2).
const GUIDE: &str = "# Guide\n\nFrom the top of your clone:\n\n```\ncd templates\nytt -f base.yaml | kubectl apply -f-\n```\n\nThen claim it:\n\n```\nytt -f claim.yaml -v name=demo | kubectl apply -f-\n```\n";

#[test]
fn a_later_block_of_a_page_runs_where_an_earlier_block_left_its_reader() {
    let repo = Repo::of(&[
        ("docs/guide.md", GUIDE),
        ("templates/base.yaml", "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: base\n"),
        (
            "templates/claim.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: #@ data.values.name\ndata:\n  n: #@ data.values.name + 1\n",
        ),
    ]);
    repo.assert_lists("templates/claim.yaml\trun by docs/guide.md:13");
    let lint = repo.lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    // The page does not say it again: the directory is assumed, so the failure is a warning.
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
    let kinds = failed[0]["certainty"]["assumptions"].to_string();
    assert!(kinds.contains("docs/guide.md:6 `cd templates`"), "{kinds}");

    // Without the earlier block, nothing shows where the command runs: it is skipped.
    let guide = GUIDE.replace("cd templates\n", "");
    let repo = Repo::of(&[
        ("docs/guide.md", guide.as_str()),
        ("templates/claim.yaml", "#@ x = 1\nvalue: #@ x\n"),
    ]);
    repo.assert_lists("skipped: docs/guide.md:12");
}
