//! As in git, an ignore pattern keeps out of the lint only what git does not track: a
//! committed template that a `.gitignore` pattern also matches (the pattern meant for the copy
//! a recipe writes at the top) is linted, with the commands that read it (round eleven's
//! FW11-C3), and so is an ignored directory that holds a tracked file.

use crate::hostile_files::git;
use crate::util::{yttlint, TempDir};

fn repository() -> TempDir {
    TempDir::with_files(&[
        (
            "Makefile",
            "ko:\n\tytt -f templates/ko.yml -f templates/schema.yaml > .ko.yaml\n\nkbld:\n\tytt -f templates/kbld-config.yaml -f templates/schema.yaml > kbld-config.yaml\n",
        ),
        (".gitignore", "kbld-config.yaml\n.ko.yaml\ngenerated/\n"),
        (
            "templates/schema.yaml",
            "#@data/values-schema\n---\nbuild:\n  base_image: run\n  registry_host: docker.io\n",
        ),
        (
            "templates/ko.yml",
            "#@ load(\"@ytt:data\", \"data\")\ndefaultBaseImage: #@ data.values.build.base_image\n",
        ),
        (
            "templates/kbld-config.yaml",
            "#@ load(\"@ytt:data\", \"data\")\napiVersion: kbld.k14s.io/v1alpha1\nkind: Config\noverrides:\n- image: controller\n  newImage: #@ data.values.build.registry_host + \"/controller\"\n",
        ),
        ("generated/kept.yml", "#@ x = 1\nkept: #@ x\n"),
    ])
}

#[test]
fn a_committed_file_an_ignore_pattern_matches_is_linted() {
    let r = repository();
    // In a git work tree without git's index the pattern decides: the command's input is
    // taken as made at run time, and the value only it reads looks unused.
    std::fs::create_dir_all(r.join(".git")).unwrap();
    let before = yttlint(&r, &["--no-cache", "--format", "json", "."]);
    std::fs::remove_dir_all(r.join(".git")).unwrap();
    assert!(
        before.stdout.contains("data-value-unused"),
        "{}",
        before.stdout
    );
    git(&r, &["init", "-q"]);
    git(&r, &["add", "-A"]);
    git(
        &r,
        &[
            "add",
            "-f",
            "templates/kbld-config.yaml",
            "generated/kept.yml",
        ],
    );
    let after = yttlint(&r, &["--no-cache", "--format", "json", "."]);
    assert!(
        !after.stdout.contains("data-value-unused"),
        "{}",
        after.stdout
    );
    assert!(
        after.stdout.contains("Makefile:5"),
        "the recipe's command is a scenario: {}",
        after.stdout
    );
    // The ignored directory that holds a tracked file is walked.
    let roots = yttlint(&r, &["--no-cache", "--list-roots", "."]);
    assert!(roots.stdout.contains("generated"), "{}", roots.stdout);
    assert!(!before.stdout.contains("generated"), "{}", before.stdout);
    assert_eq!(after.code, 0, "{}\n{}", after.stdout, after.stderr);
}
