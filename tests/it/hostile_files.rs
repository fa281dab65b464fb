//! Files of an untrusted repository that must not cost a root its findings (issue 29): a
//! symlink to a directory inside a root and symlink loops (listed as ytt lists them, failing
//! only where ytt reads them), a result cache that git tracks (neither read nor written, with
//! a note), byte-order marks (kept as characters, as ytt keeps them: `yaml-bom`) and CR-only
//! line endings (on which ytt crashes). ytt's output quoted here was measured with ytt
//! 4b40e30 and `--dangerous-allow-all-symlink-destinations`, the case the linter models for
//! symlinks inside the repository.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

use crate::util::json::{lint_json, str_of};
use crate::util::repo::{Lint, Repo};
use crate::util::{command, template, Run, TempDir};

/// A root `config` with a data value and a template, and a directory `common` beside it.
fn repository() -> Repo {
    Repo::of(&[
        // The root is listed, so that what fails in it is certain: an error.
        (".yttlint.yaml", "roots:\n- path: config\n"),
        ("config/v.yml", "#@data/values\n---\nx: 1\n"),
        (
            "config/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.x\n",
        ),
        ("common/c.yml", "c: 1\n"),
        ("lib/l.yml", "l: 1\n"),
    ])
}

/// `(rule, file, line, message)` of each finding of a JSON report.
fn findings(lint: &Lint) -> Vec<(String, String, u64, String)> {
    lint.diagnostics()
        .iter()
        .map(|d| {
            (
                str_of(d, "rule").to_string(),
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
                str_of(d, "message").to_string(),
            )
        })
        .collect()
}

fn link(dir: &Path, target: &str, name: &str) {
    symlink(target, dir.join(name)).unwrap();
}

const ALLOW_ALL: &str = "--dangerous-allow-all-symlink-destinations";

#[test]
fn symlinked_directories_and_loops_inside_a_root_are_entries_as_ytt_lists_them() {
    let r = repository();
    link(&r, "../common", "config/common");
    link(&r, ".", "config/loop");
    link(&r, "b", "config/a");
    link(&r, "a", "config/b");
    link(&r, "nowhere", "config/dangling");
    std::fs::create_dir_all(r.join("config/_ytt_lib")).unwrap();
    link(&r, "../../lib", "config/_ytt_lib/lib");
    // ytt prints `a: 1`: the entries have no template type and are never read.
    let lint = r.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert_eq!(findings(&lint), vec![]);
    assert_eq!(lint.report["roots"][0]["status"], "ok", "{lint}");
    let rendered = template(&r, &["-f", "config", ALLOW_ALL]);
    assert_eq!((rendered.code, rendered.stdout.as_str()), (0, "a: 1\n"));
    // Every listing ends: discovery, `--list-roots`, a second run (the run cache's listing).
    let listed = Run::of(command(&r).arg("--list-roots"));
    assert!(listed.stdout.starts_with("config\t"), "{listed:?}");
    assert_eq!(lint_json(&r, &[]).0, 0);
}

#[test]
fn a_symlinked_directory_ytt_reads_is_a_finding_at_that_file_with_ytt_s_message() {
    let r = repository();
    link(&r, "../common", "config/common.yml");
    // ytt: `ytt: Error: read config/common.yml: is a directory`.
    let lint = r.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let want = (
        "template-error".to_string(),
        "config/common.yml".to_string(),
        1,
        "read config/common.yml: is a directory".to_string(),
    );
    assert_eq!(findings(&lint), vec![want]);
    let rendered = template(&r, &["-f", "config", ALLOW_ALL]);
    assert_eq!(rendered.code, 1);
    assert_eq!(
        rendered.stderr,
        "ytt: Error: read config/common.yml: is a directory\n"
    );
    // A loop of links is read the same way: `open config/loop.yml: too many levels of
    // symbolic links`.
    std::fs::remove_file(r.join("config/common.yml")).unwrap();
    link(&r, "loop.yml", "config/loop.yml");
    let lint = r.lint();
    let found = findings(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        (found[0].1.as_str(), found[0].3.as_str()),
        (
            "config/loop.yml",
            "open config/loop.yml: too many levels of symbolic links"
        )
    );
}

#[test]
fn a_root_that_is_a_symlink_to_a_directory_is_an_error_not_an_empty_root() {
    let r = repository();
    link(&r, "config", "link");
    r.write(".yttlint.yaml", "roots:\n  - path: link\n");
    // `ytt -f link` renders nothing: it takes the link for a file of no known type.
    let rendered = template(&r, &["-f", "link", ALLOW_ALL]);
    assert_eq!((rendered.code, rendered.stdout.as_str()), (0, ""));
    let lint = r.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = findings(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    assert!(
        found[0]
            .3
            .contains("a symlink to a directory, which ytt takes for a file"),
        "{lint}"
    );
}

#[test]
fn reading_a_symlinked_directory_fails_where_it_is_read() {
    let r = repository();
    link(&r, "../common", "config/common");
    r.write(
        "config/u.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nb: #@ data.read(\"common\")\n",
    );
    // ytt: `- data.read: read config/common: is a directory` at `u.yml:3`.
    let lint = r.lint();
    assert_eq!(lint.code, 1);
    let found = findings(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        (found[0].1.as_str(), found[0].2),
        ("config/u.yml", 3),
        "{lint}"
    );
    assert!(
        found[0]
            .3
            .starts_with("data.read: read config/common: is a directory"),
        "{lint}"
    );
    // A values directory with a symlinked directory in it, and a values file that is one:
    // `Reading file 'sub.yml': read vals/sub.yml: is a directory`, `Reading file 'vals/sub.yml'`.
    r.write("vals/b.yml", "x: 2\n");
    link(&r, "../common", "vals/sub.yml");
    std::fs::remove_file(r.join("config/u.yml")).unwrap();
    for (flag, want) in [
        (
            "--data-values-file=vals",
            "Reading file 'sub.yml': read vals/sub.yml: is a directory",
        ),
        (
            "--data-value-file=y=vals/sub.yml",
            "Reading file 'vals/sub.yml'",
        ),
    ] {
        let run = template(&r, &["-f", "config", ALLOW_ALL, flag]);
        assert_eq!(run.code, 1, "{flag}: {run:?}");
        assert!(run.stderr.contains(want), "{flag}: {}", run.stderr);
    }
}

/// Runs git in `dir`; git is needed (the test fails without it, it is never skipped).
pub(crate) fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .status()
        .unwrap_or_else(|e| panic!("this test needs git: {e}"));
    assert!(status.success(), "git {args:?}");
}

/// The number of files in the cache directory's entry directories.
fn cache_entries(cache: &Path) -> usize {
    ["jobs", "runs"]
        .iter()
        .filter_map(|sub| std::fs::read_dir(cache.join(sub)).ok())
        .map(|d| d.count())
        .sum()
}

#[test]
fn a_cache_directory_that_git_tracks_is_neither_read_nor_written() {
    let r = repository();
    let home = TempDir::new();
    let lint = |args: &[&str]| {
        Run::of(
            command(&r)
                .env("XDG_CACHE_HOME", &*home)
                .args(["--format", "json"])
                .args(args),
        )
    };
    let cache = r.join(".yttlint-cache");
    let first = lint(&[]);
    assert_eq!(first.code, 0, "{first:?}");
    assert!(cache_entries(&cache) > 0);
    assert!(!first.stderr.contains("note:"), "{}", first.stderr);
    // A fork commits the cache: git's index lists its entries.
    git(&r, &["init", "-q"]);
    git(&r, &["add", "-f", ".yttlint-cache"]);
    for sub in ["jobs", "runs"] {
        std::fs::remove_dir_all(cache.join(sub)).unwrap();
        std::fs::create_dir(cache.join(sub)).unwrap();
    }
    let tracked = lint(&[]);
    assert_eq!(tracked.code, 0, "{tracked:?}");
    assert!(
        tracked
            .stderr
            .contains("yttlint: note: the cache directory .yttlint-cache/ is tracked by git"),
        "{}",
        tracked.stderr
    );
    assert_eq!(cache_entries(&cache), 0, "the tracked cache was written");
    assert_eq!(tracked.stdout, first.stdout);
    // `--quiet` drops the note, not the decision.
    let quiet = lint(&["--quiet"]);
    assert!(!quiet.stderr.contains("note:"), "{}", quiet.stderr);
    assert_eq!(cache_entries(&cache), 0);
    // A cache directory given with --cache-dir is checked the same way.
    std::fs::create_dir_all(r.join("kept/jobs")).unwrap();
    r.write("kept/jobs/x", "forged");
    git(&r, &["add", "-f", "kept"]);
    let given = lint(&["--cache-dir", "kept"]);
    assert!(
        given
            .stderr
            .contains("the cache directory kept/ is tracked by git"),
        "{}",
        given.stderr
    );
    // Untracked again, it is used again.
    git(&r, &["rm", "-r", "-q", "--cached", ".yttlint-cache"]);
    let untracked = lint(&[]);
    assert!(!untracked.stderr.contains("note:"), "{}", untracked.stderr);
    assert!(cache_entries(&cache) > 0);
}

#[test]
fn a_byte_order_mark_is_a_warning_where_ytt_keeps_it() {
    let r = repository();
    r.write(
        "config/bom.yml",
        "\u{feff}kind: ConfigMap\nplain: 1\nvalue: \u{feff}x\n#! a comment \u{feff} is fine\n",
    );
    // ytt: `"\uFEFF\x6B\x69\x6E\x64": ConfigMap`, `value: "\uFEFF\x78"`.
    let rendered = template(&r, &["-f", "config"]);
    assert!(
        rendered.stdout.contains(
            "\"\\uFEFF\\x6B\\x69\\x6E\\x64\": ConfigMap\nplain: 1\nvalue: \"\\uFEFF\\x78\"\n"
        ),
        "{rendered:?}"
    );
    let lint = r.lint();
    assert_eq!(lint.code, 0, "warnings only: {lint}");
    let at: Vec<(String, u64, u64)> = lint
        .diagnostics()
        .iter()
        .map(|d| {
            assert_eq!(d["rule"], "yaml-bom", "{d}");
            (
                str_of(d, "file").to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
            )
        })
        .collect();
    let file = "config/bom.yml".to_string();
    assert_eq!(at, vec![(file.clone(), 1, 1), (file, 3, 8)]);
    assert!(
        str_of(&lint.diagnostics()[0], "message").contains("key \"\\uFEFFkind\""),
        "{lint}"
    );
}

#[test]
fn cr_only_line_endings_are_an_error_since_ytt_crashes_and_crlf_renders() {
    let r = repository();
    // ytt: `panic: runtime error: index out of range [2] with length 2`, exit status 2.
    r.write("config/cr.yml", "a: 1\rb: 2\r");
    let lint = r.lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = findings(&lint);
    assert_eq!(found.len(), 1, "{lint}");
    let (rule, file, line, message) = &found[0];
    assert_eq!(
        (rule.as_str(), file.as_str(), *line),
        ("yaml-syntax", "config/cr.yml", 1)
    );
    assert!(
        message.contains("ytt crashes on this file") && message.contains("CR-only line endings"),
        "{message}"
    );
    // CR LF line endings render as ytt renders them: `a: 1`, `b: 2`.
    r.write("config/cr.yml", "a: 1\r\nb: 2\r\n");
    let lint = r.lint();
    assert_eq!((lint.code, findings(&lint)), (0, vec![]), "{lint}");
    let rendered = template(&r, &["-f", "config/cr.yml"]);
    assert_eq!(rendered.stdout, "a: 1\nb: 2\n");
}
