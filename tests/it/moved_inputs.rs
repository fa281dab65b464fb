//! A documented command whose inputs moved (issue 39, item 3; round sixteen's LR16B-1, round
//! seventeen's LR17B-1 and LR17B-2): reported at the command's line with what it meant, an
//! error when the reader's directory is certain, a warning that names the directory it
//! assumes otherwise; and nothing else changes (the files the hint names are no input of
//! anything). Each on a minimal repository written for the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, str_of};
use crate::util::repo::{Lint, Repo};

/// A namespace template reading one value.
const NAMESPACE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.ns\n";

const NS_VALUES: &str = "#@data/values\n---\nns: demo\n";

/// A loop that renders each guide of its folder.
const CHECK: &str =
    "#!/bin/bash\nset -e\nfor d in guides/basics/*/; do ytt -f \"$d\" > /dev/null; done\n";

/// A guide's page naming its own folder by the path it had before the guides moved into
/// `basics/`.
const GUIDE_PAGE: &str = "Render the namespace:\n\n```\n$ ytt -f ./guides/lib-demo\n```\n";

/// The one `input-missing` finding, checked to be at `file:line`.
fn the_missing<'a>(lint: &'a Lint, file: &str, line: u64) -> &'a Value {
    let found = lint.of("input-missing");
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64()),
        (Some(file), Some(line)),
        "{d:#}"
    );
    d
}

#[test]
fn a_page_naming_its_own_folder_by_an_old_path_fails_for_certain() {
    // LR17B-1: `./guides/lib-demo` exists from no directory of the repository, and what it
    // meant is the page's own folder (moved one level down, the page with it): ytt fails
    // wherever the reader stands.
    let files = [
        ("check.sh", CHECK),
        ("guides/basics/lib-demo/README.md", GUIDE_PAGE),
        ("guides/basics/lib-demo/config.yml", NAMESPACE),
        ("guides/basics/lib-demo/values.yml", NS_VALUES),
    ];
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = the_missing(&lint, "guides/basics/lib-demo/README.md", 4);
    assert_eq!(d["severity"], "error", "{d:#}");
    assert_eq!(d["certainty"]["certain"], true, "{d:#}");
    assert_eq!(
        str_of(d, "help"),
        "did you mean guides/basics/lib-demo?",
        "{d:#}"
    );
    assert_eq!(lint.errors().len(), 1, "{lint}");

    // A page naming another folder that exists elsewhere (not its own) stays unreported: a
    // page copied from a bundle names the bundle's paths.
    let other = GUIDE_PAGE.replace("./guides/lib-demo", "./guides/other-demo");
    let files = [
        ("check.sh", CHECK),
        ("guides/basics/lib-demo/README.md", other.as_str()),
        ("guides/basics/lib-demo/config.yml", NAMESPACE),
        ("guides/basics/lib-demo/values.yml", NS_VALUES),
        ("guides/basics/other-demo/config.yml", NAMESPACE),
        ("guides/basics/other-demo/values.yml", NS_VALUES),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

/// A page whose pipeline files were moved out of `old-place/` into the directory above.
const MOVED_UP_PAGE: &str = "# Rollout demo\n\nRender the delivery pieces and apply them:\n\n```\nytt -f deploy/old-place/pipeline.yaml -f deploy/old-place/roles.yaml -v team=blue\n```\n\nApply the roles for a namespace:\n\n```\nytt -f deploy/roles.yaml -v team=blue | kubectl apply -f -\n```\n";

const ROLES: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: #@ data.values.team + \"-deployer\"\n";

const PIPELINE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.team + \"-pipeline\"\n";

/// A stale copy of the pipeline with a YAML syntax error, kept in a folder nothing renders.
const STALE_COPY: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\ndata:\n  a: [1, 2\n";

#[test]
fn a_page_whose_inputs_moved_one_directory_up_fails_and_claims_nothing_more() {
    // LR16B-1: every input of the page's command lies one directory up now; the page is at
    // the top of the repository, so its reader stands there: an error at the command's
    // line, naming the files meant.
    let files = [
        ("README.md", MOVED_UP_PAGE),
        ("deploy/roles.yaml", ROLES),
        ("deploy/pipeline.yaml", PIPELINE),
        ("deploy/tmp/pipeline.yaml", STALE_COPY),
    ];
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = the_missing(&lint, "README.md", 6);
    assert_eq!(d["severity"], "error", "{d:#}");
    assert_eq!(
        str_of(d, "help"),
        "did you mean deploy/pipeline.yaml (for deploy/old-place/pipeline.yaml), \
         deploy/roles.yaml (for deploy/old-place/roles.yaml)?",
        "{d:#}"
    );
    // Only that finding is new: the stale copy's syntax error is as it is without the
    // command (the hinted files are no input of anything, their folder claimed by nothing).
    let without = MOVED_UP_PAGE.replace(
        "ytt -f deploy/old-place/pipeline.yaml -f deploy/old-place/roles.yaml -v team=blue\n",
        "echo nothing to render here\n",
    );
    let files_without = [
        ("README.md", without.as_str()),
        ("deploy/roles.yaml", ROLES),
        ("deploy/pipeline.yaml", PIPELINE),
        ("deploy/tmp/pipeline.yaml", STALE_COPY),
    ];
    let before = Repo::of(&files_without).lint();
    let others = |r: &Value| -> Vec<(String, String, String, String)> {
        crate::util::json::diagnostics(r)
            .iter()
            .filter(|d| d["rule"] != "input-missing")
            .map(|d| {
                (
                    str_of(d, "rule").to_string(),
                    str_of(d, "file").to_string(),
                    str_of(d, "severity").to_string(),
                    d["certainty"].to_string(),
                )
            })
            .collect()
    };
    let syntax: Vec<_> = others(&before.report)
        .into_iter()
        .filter(|o| o.0 == "yaml-syntax")
        .collect();
    assert_eq!(syntax.len(), 1, "{before}");
    assert_eq!(syntax[0].2, "warning", "{before}");
    assert_eq!(
        others(&lint.report),
        others(&before.report),
        "{lint}\n{before}"
    );
}

/// A page's command whose template is missing; its values folder resolves from the top.
const OVERRIDES_PAGE: &str = "Render with the operator's overrides:\n\n```console\n$ ytt -f demo/config.yml \\\n      --data-values-file demo/overrides/\n```\n";

const SETTINGS: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: #@ data.values.level\n";

#[test]
fn a_page_s_missing_template_is_an_error_where_its_other_inputs_place_it() {
    // LR17B-2: `--data-values-file demo/overrides/` exists from the top, so the reader
    // stands there, and `demo/config.yml` is not there: certain, an error.
    let mut files = vec![
        ("demo/README.md", OVERRIDES_PAGE),
        ("demo/overrides/ops.yml", "level: debug\n"),
        (
            "demo/run.sh",
            "#!/usr/bin/env bash\nset -e\nytt -f demo/templates/ --data-values-file demo/overrides/\n",
        ),
        ("demo/templates/config.yml", SETTINGS),
        ("demo/templates/schema.yml", "#@data/values-schema\n---\nlevel: info\n"),
    ];
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let d = the_missing(&lint, "demo/README.md", 4);
    assert_eq!(d["severity"], "error", "{d:#}");
    assert_eq!(d["certainty"]["certain"], true, "{d:#}");
    assert_eq!(
        str_of(d, "help"),
        "did you mean demo/templates/config.yml?",
        "{d:#}"
    );

    // Without the values folder, and with another folder of the repository holding
    // `demo/config.yml`, where the reader stands is a guess: a warning that names it.
    files[0] = (
        "demo/README.md",
        "Render it:\n\n```console\n$ ytt -f demo/config.yml\n```\n",
    );
    files.push(("examples/demo/config.yml", SETTINGS));
    let lint = Repo::of(&files).lint();
    let found = lint.of("input-missing");
    for d in &found {
        assert_eq!(d["severity"], "warning", "{d:#}");
        assert_eq!(d["certainty"]["certain"], false, "{d:#}");
        assert!(assumption_kinds(d).contains(&"working-directory"), "{d:#}");
    }
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn a_script_s_missing_input_keeps_its_level() {
    // The same missing template in a script: a warning by default, as before (a step the
    // linter does not read may make it), its command certain.
    let files = [
        (
            "render.sh",
            "#!/usr/bin/env bash\nset -e\nytt -f demo/config.yml --data-values-file demo/overrides/\n",
        ),
        ("demo/overrides/ops.yml", "level: debug\n"),
        ("demo/templates/config.yml", SETTINGS),
    ];
    let lint = Repo::of(&files).lint();
    let d = the_missing(&lint, "render.sh", 3);
    assert_eq!(d["severity"], "warning", "{d:#}");
    assert_eq!(d["certainty"]["certain"], true, "{d:#}");
}
