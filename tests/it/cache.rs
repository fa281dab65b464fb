//! The result cache: a second run on an unchanged repository gives the same report from the
//! cache, and a changed file re-runs exactly the jobs that read it.

use std::collections::BTreeSet;
use std::path::Path;

use yttlint::lint::plan;
use yttlint::lint::run::cache::Cache;
use yttlint::lint::session::{self, CacheSetting, Settings};

use crate::util::json::lint_json;
#[cfg(unix)]
use crate::util::temp::make_fifo;
use crate::util::TempDir;

/// `root (scenario)` of every job whose key changed between two states of the repository.
fn keys(repo: &Path, cache_dir: &Path) -> Vec<(String, Option<String>)> {
    let settings = Settings {
        cwd: repo.to_path_buf(),
        jobs: 1,
        cache: CacheSetting::Dir(cache_dir.to_path_buf()),
        ..Settings::default()
    };
    let planned = session::plan(&settings).unwrap();
    let jobs = plan::jobs(&planned.config, &planned.discovery, &planned.selection);
    let cache = Cache::open(cache_dir, &planned.config.dir).unwrap();
    jobs.iter()
        .map(|j| {
            let key = cache.key(j).expect("every demo job has a key");
            (
                format!("{} {:?} {key}", j.root, j.scenario),
                j.scenario.clone(),
            )
        })
        .collect()
}

fn changed_after(edit: impl FnOnce(&Path)) -> BTreeSet<String> {
    let repo = TempDir::copy_of("demo-repo");
    let cache_dir = TempDir::new();
    let before = keys(&repo, &cache_dir);
    edit(&repo);
    let after = keys(&repo, &cache_dir);
    assert_eq!(before.len(), after.len());
    before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b.0 != a.0)
        .map(|(b, _)| {
            let mut words = b.0.split(' ');
            format!("{} {}", words.next().unwrap(), words.next().unwrap())
        })
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_scenario_values_file_reruns_only_that_scenario() {
    let changed = changed_after(|repo| {
        std::fs::write(repo.join("webapp-values/prod.yml"), "replicas: 6\n").unwrap();
    });
    assert_eq!(changed, set(&["webapp Some(\"prod\")"]));
}

#[test]
fn a_library_file_reruns_every_scenario_of_its_root() {
    let changed = changed_after(|repo| {
        let schema = repo.join("typed/schema.yml");
        let text = std::fs::read_to_string(&schema).unwrap();
        std::fs::write(&schema, format!("{text}\n")).unwrap();
    });
    assert_eq!(
        changed,
        set(&["typed Some(\"defaults\")", "typed Some(\"bad-replicas\")"])
    );
}

#[test]
fn a_private_library_file_reruns_its_root_and_its_own_check() {
    let changed = changed_after(|repo| {
        let values = repo.join("webapp/_ytt_lib/monitoring/values.yml");
        let text = std::fs::read_to_string(&values).unwrap();
        std::fs::write(&values, format!("{text}\n")).unwrap();
    });
    assert_eq!(
        changed,
        set(&[
            "webapp Some(\"defaults\")",
            "webapp Some(\"prod\")",
            "webapp/_ytt_lib/monitoring None",
        ])
    );
}

#[test]
fn a_warm_run_reports_what_a_cold_run_reports() {
    let repo = TempDir::copy_of("demo-repo");
    let cold = lint_json(&repo, &["--no-cache"]);
    let first = lint_json(&repo, &[]);
    let entries = std::fs::read_dir(repo.join(".yttlint-cache/jobs"))
        .unwrap()
        .count();
    assert!(entries >= 5, "{entries} cache entries");
    let warm = lint_json(&repo, &[]);
    assert_eq!(first, cold);
    assert_eq!(warm, cold);
    // The cache keeps itself out of git and out of the lint.
    assert!(repo.join(".yttlint-cache/.gitignore").is_file());
    // A fix is seen at once: the bad scenario's finding goes away.
    std::fs::write(repo.join("typed-bad-values.yml"), "replicas: 3\n").unwrap();
    let fixed = lint_json(&repo, &[]);
    assert_eq!(fixed, lint_json(&repo, &["--no-cache"]));
    assert_ne!(fixed.1["diagnostics"], cold.1["diagnostics"]);
}

#[test]
fn no_cache_writes_nothing() {
    let repo = TempDir::copy_of("demo-repo");
    lint_json(&repo, &["--no-cache"]);
    assert!(!repo.join(".yttlint-cache").exists());
}

#[test]
fn a_cache_directory_the_repository_plants_is_not_followed_outside() {
    let repo = TempDir::copy_of("demo-repo");
    let outside = TempDir::new();
    std::fs::create_dir_all(repo.join(".yttlint-cache")).unwrap();
    yttlint::platform::fs::symlink(&outside, &repo.join(".yttlint-cache/jobs")).unwrap();
    let (code, _) = lint_json(&repo, &[]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
#[cfg(unix)]
fn a_named_pipe_as_the_cache_index_does_not_block() {
    let repo = TempDir::copy_of("demo-repo");
    std::fs::create_dir_all(repo.join(".yttlint-cache/jobs")).unwrap();
    make_fifo(&repo.join(".yttlint-cache/files.tsv"));
    let (code, report) = lint_json(&repo, &[]);
    assert_eq!(code, 1);
    assert_eq!(report, lint_json(&repo, &["--no-cache"]).1);
}

#[test]
fn a_root_at_the_top_of_the_repository_does_not_read_the_cache() {
    let repo = TempDir::with_files(&[
        (".yttlint.yaml", "roots:\n  - path: .\n"),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\nbad: #@ assert.fail(\"files: {}\".format(data.list()))\n",
        ),
    ]);
    let first = lint_json(&repo, &[]);
    assert!(repo.join(".yttlint-cache/jobs").is_dir());
    let second = lint_json(&repo, &["--no-cache"]);
    assert_eq!(first, second);
    assert!(
        !second.1.to_string().contains(".yttlint-cache"),
        "{}",
        second.1
    );
}
