//! Files the linter reads by name or by kind, and cannot or must not read, are said, and the
//! rest goes on: scripts discovery cannot read (`script-unread`), ignore files that are
//! symlinks out of the repository (a note; what they would hide is linted), and a template of
//! code alone, which ytt evaluates (and fails where it fails).

use super::*;
use crate::util::yttlint;

/// `(rule, file, message, severity)` of each finding of the JSON report.
fn found(run: &Run) -> Vec<(String, String, String, String)> {
    findings_of(run)
}

#[test]
fn scripts_that_cannot_be_read_are_named_with_why_and_the_rest_goes_on() {
    let base = TempDir::with_files(&[
        (
            "repo/config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        ("repo/config/values.yml", "#@data/values\n---\nname: \"\"\n"),
        (
            "repo/hack/ok.sh",
            "#!/bin/sh\nytt -f config -v name=from-ok\n",
        ),
        (
            "outside.sh",
            &format!("ytt -f config -v name={SECRET_FILE}\n"),
        ),
    ]);
    let repo = base.join("repo");
    let write = |p: &str, b: &[u8]| std::fs::write(repo.join(p), b).unwrap();
    write(
        "hack/latin.sh",
        b"#!/bin/sh\n# caf\xe9\nytt -f config -v name=latin\n",
    );
    write("hack/nul.sh", b"#!/bin/sh\nytt -f config -v name=nul\n\0\0");
    write("hack/tool", b"\x7fELF\0\0\0 a binary, no script");
    let mut big = String::from("#!/bin/sh\nytt -f config -v name=big\n");
    big.push_str(&"# padding\n".repeat(120_000));
    write("hack/big.sh", big.as_bytes());
    symlink(base.join("outside.sh"), repo.join("hack/link.sh")).unwrap();
    symlink("../missing.sh", repo.join("hack/dangling.sh")).unwrap();
    make_fifo(&repo.join("hack/fifo.sh"));
    write(
        "hack/noperm.sh",
        b"#!/bin/sh\nytt -f config -v name=noperm\n",
    );
    let noperm = repo.join("hack/noperm.sh");
    std::fs::set_permissions(&noperm, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    // Root reads whatever the permissions say: the case is only checked as another user.
    let denied = std::fs::read(&noperm).is_err();

    let run = yttlint(&repo, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = found(&run);
    let unread: Vec<(&str, &str)> = found
        .iter()
        .filter(|f| f.0 == "script-unread")
        .map(|f| (f.1.as_str(), f.2.as_str()))
        .collect();
    let mut expected = vec![
        ("hack/big.sh", "it is larger than 1024 KiB"),
        ("hack/dangling.sh", "it is a symlink that leads nowhere"),
        ("hack/fifo.sh", "it is a named pipe, not a regular file"),
        (
            "hack/latin.sh",
            "it is not UTF-8 (an invalid byte at offset 15)",
        ),
        (
            "hack/link.sh",
            "it is a symlink that leads outside the repository",
        ),
        ("hack/nul.sh", "it holds a NUL byte, as a binary file does"),
    ];
    if denied {
        expected.push(("hack/noperm.sh", "permission denied"));
    }
    expected.sort();
    let mut got: Vec<(&str, &str)> = unread.clone();
    got.sort();
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for ((file, message), (want_file, why)) in got.iter().zip(&expected) {
        assert_eq!(file, want_file);
        assert_eq!(
            *message,
            format!("{file} may hold ytt commands, but it was not read: {why}; the roots it runs are not learned from it")
        );
    }
    assert!(found
        .iter()
        .filter(|f| f.0 == "script-unread")
        .all(|f| f.3 == "info"));
    // The readable script's command is learned, and nothing of the outside file leaks.
    let roots = run.json()["roots"].to_string();
    assert!(roots.contains("hack/ok.sh"), "{roots}");
    assert!(!run.stdout.contains(SECRET_FILE) && !run.stderr.contains(SECRET_FILE));
}

#[test]
fn an_ignore_file_that_leads_outside_is_not_read_and_what_it_hides_is_linted() {
    let base = TempDir::with_files(&[
        ("repo/config/app.yml", "k: #@ undefined_name_here\n"),
        ("repo/rules.txt", "*.tmp\n"),
        ("repo/sub/t.yml", "s: #@ undefined_in_sub\n"),
        ("repo/sub/scratch.tmp", "x\n"),
        ("repo/skipped/t.yml", "x: #@ undefined_in_skipped\n"),
        ("repo/.git/info/exclude", "skipped/\n"),
        ("outside-ignore", "config/\nsub/\n"),
    ]);
    let repo = base.join("repo");
    symlink(base.join("outside-ignore"), repo.join(".gitignore")).unwrap();
    symlink(base.join("outside-ignore"), repo.join(".ignore")).unwrap();
    // A link to a file of the repository is read.
    symlink("../rules.txt", repo.join("sub/.gitignore")).unwrap();
    let run = yttlint(&repo, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let files: Vec<String> = found(&run).into_iter().map(|f| f.1).collect();
    assert!(files.contains(&"config/app.yml".to_string()), "{files:?}");
    assert!(files.contains(&"sub/t.yml".to_string()), "{files:?}");
    for name in [".gitignore", ".ignore"] {
        let note = format!(
            "yttlint: note: {name} was not read (it is a symlink that leads outside the repository): the paths it would ignore are linted"
        );
        assert!(run.stderr.contains(&note), "{}", run.stderr);
    }
    // git's own excludes are read (`.git` is outside for every other read): they hide.
    assert!(!files.contains(&"skipped/t.yml".to_string()), "{files:?}");
    assert!(!run.stderr.contains(".git/info/exclude"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("sub/.gitignore was not read"),
        "{}",
        run.stderr
    );
    let listed = yttlint(&repo, &["--list-roots"]);
    assert!(
        listed.stdout.contains("note: .gitignore was not read"),
        "{}",
        listed.stdout
    );
}

#[test]
fn a_template_of_code_alone_is_evaluated_as_ytt_evaluates_it() {
    // ytt fails on each of these (`ytt -f config`), with the file's own error.
    for (code, error) in [
        ("#@ fail(\"boom\")\n", "fail: boom"),
        ("#@ fail(\"boom\")\n---\n", "fail: boom"),
        (
            "#@ load(\"@ytt:assert\", \"assert\")\n#@ assert.equals(1, 2)\n",
            "assert.equals: Not equal",
        ),
    ] {
        // The root a script runs: the error is certain.
        let dir = TempDir::with_files(&[
            ("config/only.yml", code),
            ("config/plain.yml", "a: 1\n"),
            ("deploy.sh", "#!/bin/sh\nytt -f config\n"),
        ]);
        let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
        let found = found(&run);
        assert_eq!(run.code, 1, "{code}: {found:?}");
        assert!(
            found
                .iter()
                .any(|f| f.1 == "config/only.yml" && f.2.contains(error) && f.3 == "error"),
            "{code}: {found:?}"
        );
        // Found from the layout alone, the root is evaluated too: its finding is the one the
        // same code gives in a template with a document of its own.
        std::fs::remove_file(dir.join("deploy.sh")).unwrap();
        let alone = self::found(&yttlint(&dir, &["--format", "json", "--no-cache"]));
        std::fs::write(dir.join("config/only.yml"), format!("{code}---\nk: 1\n")).unwrap();
        let with_doc = self::found(&yttlint(&dir, &["--format", "json", "--no-cache"]));
        assert!(
            alone.iter().any(|f| f.2.contains(error)),
            "{code}: {alone:?}"
        );
        let rules = |f: &[(String, String, String, String)]| {
            f.iter()
                .map(|f| (f.0.clone(), f.3.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(rules(&alone), rules(&with_doc), "{code}");
    }
    // A comment alone, or helpers, render nothing and fail nothing: as ytt.
    for code in [
        "#! only a comment\n",
        "#@ def f():\n#@   fail(\"never called\")\n#@ end\n",
    ] {
        let dir = TempDir::with_files(&[
            ("config/only.yml", code),
            ("config/plain.yml", "a: 1\n"),
            ("deploy.sh", "#!/bin/sh\nytt -f config\n"),
        ]);
        let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
        assert_eq!(run.code, 0, "{code}: {:?}", found(&run));
    }
}
