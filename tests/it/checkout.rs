//! The repository of a run and the paths of its reports, in and out of a version-control
//! checkout: the repository is the directory of the `.yttlint.yaml` found upward from the path
//! given, else the work tree that holds the path, else the path itself; machine formats name
//! files from the checkout's root (so that annotations attach to the diff), the terminal from
//! the working directory. A `.git` directory is what marks a checkout; nothing in it is read.

use crate::util::json::{diagnostics, root_paths, str_of};
use crate::util::{yttlint, TempDir};

const SCHEMA: &str = "#@data/values-schema\n---\nreplicas: 1\n";
const BAD_VALUES: &str = "#@data/values\n---\nreplicas: \"three\"\n";
const TEMPLATE: &str =
    "#@ load(\"@ytt:data\", \"data\")\n---\nspec:\n  replicas: #@ data.values.replicas\n";

/// A checkout whose linter configuration is in `deploy/` (a monorepo): one root,
/// `deploy/config`, whose values file gives a string where the schema wants an integer.
fn monorepo() -> TempDir {
    TempDir::with_files(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("README.md", "# a monorepo\n"),
        ("deploy/.yttlint.yaml", "roots:\n  - path: config\n"),
        ("deploy/config/schema.yml", SCHEMA),
        ("deploy/config/values.yml", BAD_VALUES),
        ("deploy/config/app.yml", TEMPLATE),
    ])
}

#[test]
fn machine_formats_name_files_from_the_checkout_root() {
    let repo = monorepo();
    let run = yttlint(
        &repo,
        &[
            "deploy",
            "--no-cache",
            "--format",
            "json",
            "--report",
            "sarif=out.sarif",
            "--report",
            "gitlab=cq.json",
            "--report",
            "junit=junit.xml",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    let found = diagnostics(&report);
    assert_eq!(found.len(), 1, "{report}");
    assert_eq!(str_of(&found[0], "file"), "deploy/config/values.yml");
    // Roots keep the names the configuration gives them.
    assert_eq!(root_paths(&report), ["config"]);

    let sarif = std::fs::read_to_string(repo.join("out.sarif")).unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "deploy/config/values.yml"
    );
    let gitlab = std::fs::read_to_string(repo.join("cq.json")).unwrap();
    let gitlab: serde_json::Value = serde_json::from_str(&gitlab).unwrap();
    assert_eq!(gitlab[0]["location"]["path"], "deploy/config/values.yml");
    let junit = std::fs::read_to_string(repo.join("junit.xml")).unwrap();
    assert!(junit.contains("deploy/config/values.yml:3:"), "{junit}");

    // From the configuration's own directory too, and in GitHub's annotations.
    let run = yttlint(&repo.join("deploy"), &["--no-cache", "--format", "github"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("::error file=deploy/config/values.yml,line=3,"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_terminal_names_files_from_the_working_directory() {
    let repo = monorepo();
    let from_top = yttlint(&repo, &["deploy", "--no-cache"]);
    assert!(
        from_top.stdout.contains("┌─ deploy/config/values.yml:3:"),
        "{}",
        from_top.stdout
    );
    let from_config = yttlint(&repo.join("deploy/config"), &["--no-cache"]);
    assert!(
        from_config.stdout.contains("┌─ values.yml:3:"),
        "{}",
        from_config.stdout
    );
}

#[test]
fn outside_a_checkout_paths_are_relative_to_the_repository() {
    let repo = monorepo();
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    let run = yttlint(&repo, &["deploy", "--no-cache", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        str_of(&diagnostics(&run.json())[0], "file"),
        "config/values.yml"
    );
}

/// A busy directory that is no checkout and has no configuration: two ytt libraries, one of
/// which fails.
fn busy_parent() -> TempDir {
    TempDir::with_files(&[
        ("app/config/schema.yml", SCHEMA),
        ("app/config/app.yml", TEMPLATE),
        ("other/config/schema.yml", SCHEMA),
        ("other/config/values.yml", BAD_VALUES),
        ("other/config/app.yml", TEMPLATE),
    ])
}

#[test]
fn a_path_given_from_a_busy_parent_is_linted_alone() {
    let parent = busy_parent();
    let run = yttlint(&parent, &["app", "--no-cache", "--format", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(root_paths(&report), ["config"], "{report}");
    assert!(diagnostics(&report).is_empty(), "{report}");
    // The failing library is found when it is the path given, and only then (a warning:
    // nothing says how it is run, see tests/it/certainty.rs).
    let run = yttlint(&parent, &["other", "--no-cache"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("warning["), "{}", run.stdout);
    assert!(
        run.stdout.contains("┌─ other/config/values.yml:3:"),
        "{}",
        run.stdout
    );
}

#[test]
fn without_a_configuration_the_checkout_is_the_repository() {
    // The script at the top of the checkout says how `team/app/config` is rendered: with
    // `env` set. Linting `team/app` alone still reads it, and lints nothing outside
    // `team/app`.
    let checkout = TempDir::with_files(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            "scripts/render.sh",
            "#!/bin/sh\nytt -f team/app/config -v env=prod\nytt -f other/config\n",
        ),
        (
            "team/app/config/schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min_len=1\nenv: \"\"\n",
        ),
        (
            "team/app/config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nenv: #@ data.values.env\n",
        ),
        ("other/config/schema.yml", SCHEMA),
        ("other/config/values.yml", BAD_VALUES),
        ("other/config/app.yml", TEMPLATE),
    ]);
    let run = yttlint(
        &checkout.join("team/app"),
        &["--no-cache", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(root_paths(&report), ["team/app/config"], "{report}");
    assert!(diagnostics(&report).is_empty(), "{report}");
}
