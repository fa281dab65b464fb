//! Round fifteen's copies made before ytt reads them (issue 39, the fifteenth session;
//! docs/precision.md "Round fifteen's copies"): a folder a recipe or script assembles with
//! `rsync` or `cp -r` and then renders (R15B-1), each on a minimal repository written for the
//! test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, root_paths};
use crate::util::repo::{Lint, Repo};

const SCHEMA: &str = "#@data/values-schema\n---\nwho: world\n";
const CM: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\ndata:\n  text: #@ \"hello \" + data.values.who\n";
/// The same ConfigMap adding a number to the text: ytt fails on it whatever the values.
const CM_BROKEN: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\ndata:\n  text: #@ data.values.who + 1\n";
const MAIN: &str = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"greeter\").eval())\n";
/// A chart's values the copy leaves out: YAML that does not parse.
const HELM_VALUES: &str = "image: [\n";

/// Whether the report holds ytt's failure on the broken ConfigMap, at `severity`: at the
/// line of `main.yml` that evaluates the library, as ytt reports it.
fn fails(lint: &Lint, severity: &str) -> bool {
    lint.of("template-error").iter().any(|d| {
        d["file"] == "src/main.yml"
            && d["severity"] == severity
            && d["message"]
                .as_str()
                .is_some_and(|m| m.contains("unknown binary op: string + int"))
    })
}

fn repo(recipe_file: &str, recipe: &str, cm: &str) -> Repo {
    Repo::of(&[
        (recipe_file, recipe),
        ("external/_ytt_lib/greeter/schema.yml", SCHEMA),
        ("external/_ytt_lib/greeter/cm.yml", cm),
        ("external/_ytt_lib/greeter/README.md", "# greeter\n"),
        ("src/main.yml", MAIN),
    ])
}

#[test]
fn a_justfile_recipe_that_assembles_a_folder_renders_the_copies_together() {
    // R15B-1: `rsync -a ./external/_ytt_lib ./src/ build/pre`, then `ytt -f build/pre`: the
    // library is `build/pre/_ytt_lib` and `main.yml` sits beside it. Not followed, the linter
    // inferred `ytt -f src` and warned that the private library is missing.
    let justfile = "# Render: assemble the vendored library and our files, then render them.\nrender:\n  rm -rf build/pre && mkdir -p build/pre\n  rsync -a ./external/_ytt_lib ./src/ build/pre\n  ytt -f build/pre --output-files build/out\n";
    let dir = repo("justfile", justfile, CM);
    let lint = dir.lint();
    assert!(lint.of("load-error").is_empty(), "{}", lint.summary());
    assert!(
        lint.diagnostics()
            .iter()
            .all(|d| d["severity"] != "error" && d["severity"] != "warning"),
        "{}",
        lint.summary()
    );
    let roots = root_paths(&lint.report);
    assert!(
        roots
            .iter()
            .any(|r| r == "build/pre (copied from external/_ytt_lib, src)"),
        "{roots:?}"
    );
    // A true error in the copied library is certain: the recipe's command, no guess.
    let dir = repo("justfile", justfile, CM_BROKEN);
    let lint = dir.lint();
    assert!(fails(&lint, "error"), "{}", lint.summary());
    assert!(lint.of("load-error").is_empty(), "{}", lint.summary());
}

#[test]
fn cp_lays_out_a_directory_into_a_folder_that_exists_and_contents_with_a_dot() {
    // `mkdir -p build/pre` first: `cp -r external/_ytt_lib build/pre` copies the directory
    // into it; `src/.` is the contents. The same in a shell script and a Makefile's recipe
    // line.
    let script = "#!/bin/sh\nset -e\nmkdir -p build/pre\ncp -r external/_ytt_lib build/pre\ncp -R src/. build/pre\nytt -f build/pre > out.yml\n";
    let dir = repo("render.sh", script, CM_BROKEN);
    let lint = dir.lint();
    assert!(lint.of("load-error").is_empty(), "{}", lint.summary());
    assert!(fails(&lint, "error"), "{}", lint.summary());
    let make = "render:\n\tmkdir -p build/pre && cp -r external/_ytt_lib build/pre/ && cp -r src/. build/pre && ytt -f build/pre\n";
    let dir = repo("Makefile", make, CM);
    let lint = dir.lint();
    assert!(lint.of("load-error").is_empty(), "{}", lint.summary());
    // Without the folder made first, `cp -r external/_ytt_lib build/pre` makes `build/pre`
    // the library's copy: no `_ytt_lib` there, and ytt fails as the linter says.
    let wrong = "#!/bin/sh\ncp -r external/_ytt_lib build/pre\ncp -r src/main.yml build/pre/\nytt -f build/pre\n";
    let dir = repo("render.sh", wrong, CM);
    let lint = dir.lint();
    assert!(!lint.of("load-error").is_empty(), "{}", lint.summary());
}

#[test]
fn excludes_are_followed_and_what_is_not_known_is_assumed() {
    // rsync's `--exclude='*/helm/'` leaves a chart's values out (they do not parse): nothing
    // is reported of them in the assembled root.
    let justfile = "pre := \"build\" / \"pre\"\n\nrender:\n  cd `git rev-parse --show-toplevel` && rsync -av --exclude='*/helm/' ./external/_ytt_lib ./src/ {{pre}} && ytt -f {{pre}}\n";
    let lint = Repo::of(&[
        ("justfile", justfile),
        ("external/_ytt_lib/greeter/schema.yml", SCHEMA),
        ("external/_ytt_lib/greeter/cm.yml", CM_BROKEN),
        ("src/main.yml", MAIN),
        ("src/chart/helm/values.yaml", HELM_VALUES),
    ])
    .lint();
    assert!(fails(&lint, "error"), "{}", lint.summary());
    assert!(
        lint.diagnostics()
            .iter()
            .all(|d| d["file"] != "src/chart/helm/values.yaml" || d["severity"] != "error"),
        "{}",
        lint.summary()
    );
    assert!(lint.of("load-error").is_empty(), "{}", lint.summary());
    // A glob, a pattern not followed: the layout is an assumption, the error a warning that
    // names it.
    for copy in [
        "rsync -a --exclude='**/helm' ./external/_ytt_lib ./src/ build/pre",
        "mkdir -p build/pre && cp -r external/_ytt_lib src/* build/pre",
    ] {
        let justfile = format!("render:\n  {copy}\n  ytt -f build/pre\n");
        let lint = Repo::of(&[
            ("justfile", justfile.as_str()),
            ("external/_ytt_lib/greeter/schema.yml", SCHEMA),
            ("external/_ytt_lib/greeter/cm.yml", CM_BROKEN),
            ("src/main.yml", MAIN),
        ])
        .lint();
        assert!(
            lint.of("load-error").is_empty(),
            "{copy}: {}",
            lint.summary()
        );
        assert!(lint.errors().is_empty(), "{copy}: {}", lint.summary());
        assert!(fails(&lint, "warning"), "{copy}: {}", lint.summary());
        assert!(
            lint.of("template-error")
                .iter()
                .all(|d| assumption_kinds(d).contains(&"missing-input")),
            "{copy}: {}",
            lint.summary()
        );
    }
}

/// A profile that reads two keys of the user's values, one of which the example lacks.
const PROFILE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nprofile: full\ningress_domain: #@ data.values.tap.domain\ningress_issuer: #@ data.values.tap.sysIssuer\n";
const DEMO_VALUES: &str = "tap:\n  domain: example.com\n  appsIssuer: selfsigned\n";
const HANDLER: &str = "#!/usr/bin/env bash\ngenerate-configs() {\n    mkdir -p .config/profiles\n    ytt -f config-templates/profile.yaml --data-values-file=.config/demo-values.yaml > .config/profiles/profile.yaml\n}\ncase $1 in\ngenerate-configs)\n    generate-configs\n    ;;\nesac\n";

#[test]
fn a_pages_prose_copy_makes_the_example_stand_in_for_the_readers_file() {
    // LR15A-2: "copy ```A``` to ```B```" says the reader's B is a copy of A, as a shell
    // `cp A B` on the page does: the script's ytt reads B, which is not committed, and fails
    // with the example's values (a key the templates read that the example lacks). Before,
    // only a `needs-input` note ("given at run time").
    for step in [
        "- copy ```config-templates/demo-values.yaml``` to ```.config/demo-values.yaml```",
        "1. Copy `config-templates/demo-values.yaml` to `.config/demo-values.yaml`.",
        "Run `cp config-templates/demo-values.yaml .config/demo-values.yaml` first.",
    ] {
        let readme = format!(
            "# Demo\n\n## Prepare\n{step}\n- update all values in ```.config/demo-values.yaml```\n- run `./scripts/handler.sh generate-configs`\n"
        );
        let lint = Repo::of(&[
            ("README.md", readme.as_str()),
            ("scripts/handler.sh", HANDLER),
            ("config-templates/profile.yaml", PROFILE),
            ("config-templates/demo-values.yaml", DEMO_VALUES),
        ])
        .lint();
        let found: Vec<&Value> = lint
            .of("template-error")
            .into_iter()
            .filter(|d| {
                d["file"] == "config-templates/profile.yaml"
                    && d["line"] == 5
                    && d["severity"] == "warning"
                    && assumption_kinds(d).contains(&"example-values")
            })
            .collect();
        assert_eq!(found.len(), 1, "{step}: {}", lint.summary());
        assert!(lint.errors().is_empty(), "{step}: {}", lint.summary());
    }
    // A destination the repository holds is no copy the reader makes: nothing stands in.
    let readme =
        "# Demo\n\ncopy `config-templates/demo-values.yaml` to `config-templates/profile.yaml`\n";
    let lint = Repo::of(&[
        ("README.md", readme),
        ("scripts/handler.sh", HANDLER),
        ("config-templates/profile.yaml", PROFILE),
        ("config-templates/demo-values.yaml", DEMO_VALUES),
    ])
    .lint();
    assert!(lint.of("template-error").is_empty(), "{}", lint.summary());
}
