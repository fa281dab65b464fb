//! The whole-run cache: a run on an unchanged repository takes its report from the cache
//! without running a job, and any change that matters (a script that runs ytt, a new template
//! directory, a touched file) makes the next run discover the repository again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use yttlint::lint::repo::listing;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yttlint-runs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(repo: &Path, path: &str, text: &str) {
    let path = repo.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn lint_json(repo: &Path, extra: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(repo)
        .args(["--format", "json"])
        .args(extra)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for root in report["roots"].as_array_mut().unwrap() {
        root["duration_ms"] = 0.into();
    }
    report
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

fn roots(report: &serde_json::Value) -> Vec<String> {
    report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect()
}

/// A repository whose roots are found by discovery: a script renders `app/`, and `lib/`
/// holds a template nothing else covers.
fn discovered_repo(name: &str) -> PathBuf {
    let repo = temp_dir(name);
    write(
        &repo,
        "app/config.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nport: #@ data.values.port\n",
    );
    write(
        &repo,
        "app/values.yml",
        "#@data/values\n---\nname: web\nport: 8080\n",
    );
    write(
        &repo,
        "env/prod.yml",
        "#@data/values\n---\nport: \"eighty\"\n",
    );
    write(&repo, "hack/render.sh", "#!/bin/sh\nytt -f app/\n");
    repo
}

/// Waits until the files just written are old enough for the run to be stored.
fn settle() {
    std::thread::sleep(Duration::from_millis(2100));
}

/// Runs twice (the first stores the run, the second must take it without running a job) and
/// returns the report.
fn stored_and_reused(repo: &Path) -> serde_json::Value {
    let first = lint_json(repo, &[]);
    let runs = repo.join(".yttlint-cache/runs");
    assert_eq!(count(&runs), 1, "the run was stored");
    for e in std::fs::read_dir(repo.join(".yttlint-cache/jobs")).unwrap() {
        std::fs::remove_file(e.unwrap().path()).unwrap();
    }
    let second = lint_json(repo, &[]);
    assert_eq!(second, first);
    assert_eq!(
        count(&repo.join(".yttlint-cache/jobs")),
        0,
        "no job ran on the unchanged repository"
    );
    first
}

#[test]
fn a_changed_script_changes_the_roots_of_the_next_run() {
    let repo = discovered_repo("script");
    settle();
    let before = stored_and_reused(&repo);
    assert_eq!(before, lint_json(&repo, &["--no-cache"]));
    write(
        &repo,
        "hack/render.sh",
        "#!/bin/sh\nytt -f app/ -f env/prod.yml\n",
    );
    let after = lint_json(&repo, &[]);
    assert_eq!(after, lint_json(&repo, &["--no-cache"]));
    assert_ne!(roots(&after), roots(&before));
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn a_new_template_directory_is_linted_by_the_next_run() {
    let repo = discovered_repo("new-dir");
    settle();
    let before = stored_and_reused(&repo);
    write(
        &repo,
        "extra/deploy.yml",
        "#@ n = 1\n---\nreplicas: #@ n + \"x\"\n",
    );
    let after = lint_json(&repo, &[]);
    assert_eq!(after, lint_json(&repo, &["--no-cache"]));
    assert_ne!(roots(&after), roots(&before));
    assert_ne!(after["diagnostics"], before["diagnostics"]);
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn a_touched_file_or_other_flags_are_not_served_the_stored_run() {
    let repo = discovered_repo("touched");
    settle();
    let before = stored_and_reused(&repo);
    // Other rules asked for: another entry.
    let selected = lint_json(&repo, &["--select", "template-error"]);
    assert_eq!(
        selected,
        lint_json(&repo, &["--no-cache", "--select", "template-error"])
    );
    // Same content, new time: the run is not taken from the stored one (its jobs are, so
    // their entries are written again), and the report is the same.
    let file = std::fs::File::options()
        .append(true)
        .open(repo.join("app/values.yml"))
        .unwrap();
    file.set_modified(std::time::SystemTime::now()).unwrap();
    let touched = lint_json(&repo, &[]);
    assert_eq!(touched, before);
    assert!(count(&repo.join(".yttlint-cache/jobs")) > 0);
    let _ = std::fs::remove_dir_all(&repo);
}

#[test]
fn the_listing_sees_every_change_but_not_the_cache_or_git_internals() {
    let dir = temp_dir("listing");
    write(&dir, "app/a.yml", "a: 1\n");
    std::fs::create_dir_all(dir.join("app/.yttlint-cache")).unwrap();
    std::fs::create_dir_all(dir.join(".git/info")).unwrap();
    let first = listing::list(&dir, None).unwrap();
    assert!(first.racy, "a file written just now is racy");
    assert_eq!(listing::list(&dir, None).unwrap().digest, first.digest);
    write(&dir, "app/.yttlint-cache/x", "y");
    write(&dir, ".git/index", "x");
    assert_eq!(listing::list(&dir, None).unwrap().digest, first.digest);
    let mut seen = vec![first.digest];
    let mut changed = |edit: &dyn Fn(&Path)| {
        edit(&dir);
        let now = listing::list(&dir, None).unwrap().digest;
        assert!(!seen.contains(&now));
        seen.push(now);
    };
    changed(&|d| write(d, "app/a.yml", "a: 2\n"));
    changed(&|d| write(d, "app/b.yml", ""));
    changed(&|d| std::os::unix::fs::symlink("a.yml", d.join("app/c.yml")).unwrap());
    changed(&|d| std::fs::rename(d.join("app/b.yml"), d.join("app/d.yml")).unwrap());
    changed(&|d| write(d, ".git/info/exclude", "app/\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
