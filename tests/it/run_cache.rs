//! The whole-run cache: a run on an unchanged repository takes its report from the cache
//! without running a job, and any change that matters (a script that runs ytt, a new template
//! directory, a touched file) makes the next run discover the repository again.

use std::path::Path;
use std::time::Duration;

use yttlint::lint::repo::listing;

use crate::util::json::{lint_json, root_paths};
use crate::util::TempDir;

/// The exit status and the JSON report of a run, durations zeroed.
type Outcome = (i32, serde_json::Value);

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

/// A repository whose roots are found by discovery: a script renders `app/`, and `lib/`
/// holds a template nothing else covers.
fn discovered_repo() -> TempDir {
    TempDir::with_files(&[
        (
            "app/config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nport: #@ data.values.port\n",
        ),
        ("app/values.yml", "#@data/values\n---\nname: web\nport: 8080\n"),
        ("env/prod.yml", "#@data/values\n---\nport: \"eighty\"\n"),
        ("hack/render.sh", "#!/bin/sh\nytt -f app/\n"),
    ])
}

/// Waits until the files just written are old enough for the run to be stored.
fn settle() {
    std::thread::sleep(Duration::from_millis(2100));
}

/// Runs twice (the first stores the run, the second must take it without running a job) and
/// returns the report.
fn stored_and_reused(repo: &Path) -> Outcome {
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
    let repo = discovered_repo();
    settle();
    let before = stored_and_reused(&repo);
    assert_eq!(before, lint_json(&repo, &["--no-cache"]));
    repo.write("hack/render.sh", "#!/bin/sh\nytt -f app/ -f env/prod.yml\n");
    let after = lint_json(&repo, &[]);
    assert_eq!(after, lint_json(&repo, &["--no-cache"]));
    assert_ne!(root_paths(&after.1), root_paths(&before.1));
}

#[test]
fn a_new_template_directory_is_linted_by_the_next_run() {
    let repo = discovered_repo();
    settle();
    let before = stored_and_reused(&repo);
    repo.write(
        "extra/deploy.yml",
        "#@ n = 1\n---\nreplicas: #@ n + \"x\"\n",
    );
    let after = lint_json(&repo, &[]);
    assert_eq!(after, lint_json(&repo, &["--no-cache"]));
    assert_ne!(root_paths(&after.1), root_paths(&before.1));
    assert_ne!(after.1["diagnostics"], before.1["diagnostics"]);
}

#[test]
fn a_touched_file_or_other_flags_are_not_served_the_stored_run() {
    let repo = discovered_repo();
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
}

#[test]
fn the_listing_sees_every_change_but_not_the_cache_or_git_internals() {
    let dir = TempDir::with_files(&[("app/a.yml", "a: 1\n")]);
    std::fs::create_dir_all(dir.join("app/.yttlint-cache")).unwrap();
    std::fs::create_dir_all(dir.join(".git/info")).unwrap();
    let first = listing::list(&dir, None).unwrap();
    assert!(first.racy, "a file written just now is racy");
    assert_eq!(listing::list(&dir, None).unwrap().digest, first.digest);
    dir.write("app/.yttlint-cache/x", "y");
    dir.write(".git/HEAD", "x");
    assert_eq!(listing::list(&dir, None).unwrap().digest, first.digest);
    let mut seen = vec![first.digest];
    let mut changed = |edit: &dyn Fn(&Path)| {
        edit(&dir);
        let now = listing::list(&dir, None).unwrap().digest;
        assert!(!seen.contains(&now));
        seen.push(now);
    };
    changed(&|d| {
        std::fs::write(d.join("app/a.yml"), "a: 2\n").unwrap();
    });
    changed(&|d| std::fs::write(d.join("app/b.yml"), "").unwrap());
    changed(&|d| yttlint::platform::fs::symlink(Path::new("a.yml"), &d.join("app/c.yml")).unwrap());
    changed(&|d| std::fs::rename(d.join("app/b.yml"), d.join("app/d.yml")).unwrap());
    changed(&|d| std::fs::write(d.join(".git/info/exclude"), "app/\n").unwrap());
    // Which files git tracks decides what an ignore pattern keeps out.
    changed(&|d| std::fs::write(d.join(".git/index"), "DIRC").unwrap());
}
