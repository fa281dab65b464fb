//! A finding of discovery about a file no root reads (a script it cannot read, `script-unread`)
//! is kept under the file's path, which is no root: the summary's "in N roots" counts the
//! roots linted, not that path (session thirty, cmd30; cmd29 did the same for an overlay error
//! of a skipped command, `got_root.rs`). Every report format shows the finding under its file
//! and names no root for it, as the JSON report's `roots` has none (session thirty-one,
//! cmd31). A minimal repository written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;
use crate::util::yttlint;

#[test]
fn an_unread_script_is_said_and_adds_no_root_to_the_count() {
    let repo = Repo::of(&[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        ("config/values.yml", "#@data/values\n---\nname: \"\"\n"),
        ("hack/ok.sh", "#!/bin/sh\nytt -f config -v name=web\n"),
    ]);
    repo.write("hack/nul.sh", b"#!/bin/sh\nytt -f config -v name=nul\n\0\0");
    let lint = repo.lint_with(&["--no-cache"]);
    let unread = lint.of("script-unread");
    assert_eq!(unread.len(), 1, "{lint}");
    let roots: Vec<&str> = lint.report["roots"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["path"].as_str())
        .collect();
    assert_eq!(roots, ["config"], "{lint}");
    let run = yttlint(&repo, &["--no-cache"]);
    assert!(run.stdout.contains("hack/nul.sh"), "{}", run.stdout);
    assert!(
        run.stdout
            .ends_with("0 errors, 0 warnings, 1 info in 1 root\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn every_report_format_shows_the_unread_script_under_its_file_and_no_root() {
    let repo = Repo::of(&[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        ("config/values.yml", "#@data/values\n---\nname: web\n"),
    ]);
    repo.write("hack/nul.sh", b"#!/bin/sh\nytt -f config -v name=nul\n\0\0");
    let lint = repo.lint_with(&["--no-cache"]);
    let unread = lint.of("script-unread");
    assert_eq!(unread.len(), 1, "{lint}");
    assert_eq!(str_of(unread[0], "file"), "hack/nul.sh", "{lint}");
    assert!(unread[0]["root"].is_null(), "{lint}");
    for format in ["terminal", "junit", "sarif", "github", "gitlab"] {
        let run = yttlint(&repo, &["--no-cache", "--format", format]);
        let out = &run.stdout;
        assert!(out.contains("hack/nul.sh"), "{format}: {out}");
        assert!(!out.contains("root hack/nul.sh"), "{format}: {out}");
        assert!(!out.contains("name=\"hack/nul.sh\""), "{format}: {out}");
        assert!(
            !out.contains("\"root\": \"hack/nul.sh\""),
            "{format}: {out}"
        );
        assert!(!out.contains("\"root\":\"hack/nul.sh\""), "{format}: {out}");
    }
}
