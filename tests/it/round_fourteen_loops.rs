//! Shell loops whose entries decide whether ytt runs (issue 39, the fifteenth session;
//! round fourteen's R14B-3 and R14B-4, round eleven's FW11-B2), each on a minimal repository
//! written for the test: a `find … | while read` loop runs ytt once per path `find` lists,
//! a `grep` of the entry's text and a string test of its name are decided per entry.

use serde_json::Value;

use crate::util::json::{root_paths, str_of};
use crate::util::repo::{Lint, Repo};

/// The rules of the report's findings, with their files.
fn findings(lint: &Lint) -> Vec<(String, String)> {
    lint.diagnostics()
        .iter()
        .map(|d| (str_of(d, "rule").to_string(), str_of(d, "file").to_string()))
        .collect()
}

/// A library of workflow steps, and two workflows that load it.
const PARTS: &str = "#@ def checkout_step():\nname: checkout\nuses: actions/checkout@v4\n#@ end\n";
fn workflow(name: &str) -> String {
    format!(
        "#@ load(\"parts.lib.yml\", \"checkout_step\")\n---\nname: {name}\njobs:\n  {name}:\n    runs-on: ubuntu-latest\n    steps:\n    - #@ checkout_step()\n    - run: make {name}\n"
    )
}

#[test]
fn a_find_loop_runs_ytt_once_per_path_it_lists_with_the_library() {
    // R14B-3: the loop gives the library with each workflow `find` lists (not the library
    // itself, `! -name "*.lib.yml"`); without reading it, the workflows were covered by a
    // layout command without the library (a false `load-error`).
    let script = "#!/bin/sh\nset -e\nfind src/workflows/*.yml -maxdepth 1 -type f -name \"*.yml\" ! -name \"*.lib.yml\" | while read -r src; do\n    dst=$(echo \"${src}\" | sed 's/src\\///')\n    ytt --file \"src/workflows/parts.lib.yml\" --file \"${src}\" > \"${dst}\"\ndone\n";
    let (lint_flow, test) = (workflow("lint"), workflow("test"));
    let files = [
        ("src/workflows/parts.lib.yml", PARTS),
        ("src/workflows/lint.yml", lint_flow.as_str()),
        ("src/workflows/test.yml", test.as_str()),
        ("scripts/gen.sh", script),
    ];
    let lint = Repo::of(&files).lint_with(&["--no-cache"]);
    assert!(findings(&lint).is_empty(), "{lint}");
    let mut roots = root_paths(&lint.report);
    roots.sort();
    assert_eq!(
        roots,
        [
            "src/workflows/parts.lib.yml + src/workflows/lint.yml",
            "src/workflows/parts.lib.yml + src/workflows/test.yml",
        ],
        "{lint}"
    );

    // The `-print` form over a directory, read the same way; a workflow the loop renders is
    // checked with the library (its missing function is found).
    let script = "#!/bin/bash\nfind src/workflows -name '*.yml' ! -name '*.lib.yml' -print | while read f; do\n  ytt -f src/workflows/parts.lib.yml -f \"$f\"\ndone\n";
    let broken = test.replace("checkout_step()", "checkout_steps()");
    let files = [
        ("src/workflows/parts.lib.yml", PARTS),
        ("src/workflows/lint.yml", lint_flow.as_str()),
        ("src/workflows/test.yml", broken.as_str()),
        ("scripts/gen.sh", script),
    ];
    let lint = Repo::of(&files).lint_with(&["--no-cache"]);
    let found = findings(&lint);
    assert!(
        found.iter().all(|(rule, file)| rule != "load-error"
            && (file == "src/workflows/test.yml" || file == "src/workflows/parts.lib.yml")),
        "{lint}"
    );
    assert!(!found.is_empty(), "{lint}");

    // A `find` the linter does not read whole (`-newer`) stays one command whose input is
    // given at run time: never a silent drop.
    let script = "#!/bin/sh\nfind src/workflows -newer stamp -name '*.yml' | while read -r src; do\n  ytt --file src/workflows/parts.lib.yml --file \"$src\"\ndone\n";
    let files = [
        ("src/workflows/parts.lib.yml", PARTS),
        ("src/workflows/lint.yml", lint_flow.as_str()),
        ("scripts/gen.sh", script),
    ];
    let lint = Repo::of(&files).lint_with(&["--no-cache"]);
    assert!(
        root_paths(&lint.report).contains(&"src/workflows/parts.lib.yml".to_string()),
        "{lint}"
    );
}

/// An overlay that patches the jobs that call a shared workflow (`when=1`: it fails on a
/// job that calls none).
const PATCH: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\njobs:\n  #@overlay/match by=overlay.map_key(\"uses\"), when=1\n  _:\n    uses: example-org/shared/.github/workflows/deploy.yaml@main\n    #@overlay/match missing_ok=True\n    permissions:\n      #@overlay/match missing_ok=True\n      id-token: write\n";
const BUILD: &str =
    "name: build\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n    - run: make\n";
const DEPLOY: &str = "name: deploy\non: push\njobs:\n  deploy:\n    uses: example-org/shared/.github/workflows/deploy.yaml@main\n";

#[test]
fn a_grep_of_the_entry_decides_whether_it_runs_ytt() {
    // R14B-4: the loop's function patches only the workflows that grep finds calling the
    // shared workflow. `build.yaml` does not: no ytt runs for it, and the overlay's failure
    // on it (a false `overlay-error`) is not reported.
    let script = |test: &str| {
        format!(
            "#!/usr/bin/env bash\nset -e\ndir=\"$(dirname \"$0\")\"\n\npatch_workflow () {{\n  workflow=\"$1\"\n  if {test}; then\n    new=$(ytt -f \"$workflow\" -f \"$dir/add-perms.ytt.yml\")\n    cat <<< \"$new\" > \"$workflow\"\n  fi\n}}\n\nfor file in .github/workflows/*; do\n  patch_workflow \"$file\"\ndone\n"
        )
    };
    let quiet =
        script("grep -q \"example-org/shared/.github/workflows/deploy.yaml@main\" \"$workflow\"");
    let files = [
        ("migrations/add-perms.sh", quiet.as_str()),
        ("migrations/add-perms.ytt.yml", PATCH),
        (".github/workflows/build.yaml", BUILD),
    ];
    let lint = Repo::of(&files).lint_with(&["--no-cache"]);
    assert!(findings(&lint).is_empty(), "{lint}");

    // A workflow that calls it is patched: its command is a scenario (and renders).
    let either = script("grep \"example-org/other.yaml@main\" \"$workflow\" || grep -F \"example-org/shared/.github/workflows/deploy.yaml@main\" \"$workflow\" >/dev/null");
    let mut with_deploy = files.to_vec();
    with_deploy[0].1 = either.as_str();
    with_deploy.push((".github/workflows/deploy.yaml", DEPLOY));
    let lint = Repo::of(&with_deploy).lint_with(&["--no-cache"]);
    assert!(findings(&lint).is_empty(), "{lint}");
    assert_eq!(
        root_paths(&lint.report),
        [".github/workflows/deploy.yaml + migrations/add-perms.ytt.yml"],
        "{lint}"
    );

    // A pattern it does not read (`-P`) is not decided: every entry runs, each assuming so.
    let perl = script("grep -qP \"example-org/shared\" \"$workflow\"");
    let mut undecided = files.to_vec();
    undecided[0].1 = perl.as_str();
    let lint = Repo::of(&undecided).lint_with(&["--no-cache"]);
    let overlay: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| str_of(d, "rule") == "overlay-error")
        .collect();
    assert_eq!(overlay.len(), 1, "{lint}");
    assert_ne!(overlay[0]["severity"], "error", "{:#}", overlay[0]);
}

#[test]
fn a_string_test_of_the_entry_s_name_decides_its_branch() {
    // FW11-B2: the `buildpack` directory holds one values file per language, rendered one at
    // a time; the other directories are rendered whole. Rendered whole, `buildpack` fails
    // (each values file sets the version once).
    let script = |test: &str| {
        format!(
            "#!/usr/bin/env bash\nset -euo pipefail\nREPO_ROOT=\"$(cd \"$(dirname \"$0\")/..\" && pwd)\"\n\nfor pipeline_path in \"$REPO_ROOT\"/pipelines/*; do\n  if [[ -d \"$pipeline_path\" ]]; then\n    pipeline_name=\"$(basename \"$pipeline_path\")\"\n    {test}\n      for values_file in \"$pipeline_path\"/*-values.yml; do\n        config=\"$(ytt -f \"$pipeline_path/pipeline.yml\" -f \"$pipeline_path/config.yml\" -f \"$values_file\")\"\n        fly -t ci set-pipeline -p x -c <(echo \"$config\")\n      done\n    else\n      config=\"$(ytt -f \"$pipeline_path\")\"\n      fly -t ci set-pipeline -p \"$pipeline_name\" -c <(echo \"$config\")\n    fi\n  fi\ndone\n"
        )
    };
    let values = |lang: &str, v: &str| {
        format!(
            "#@data/values\n---\nlanguage: {lang}\n#@overlay/match expects=0\nversion: \"{v}\"\n"
        )
    };
    let (go, ruby) = (values("go", "1.22"), values("ruby", "3.3"));
    let test = script("if [[ \"$pipeline_name\" == \"buildpack\" ]]; then");
    let files = [
        ("bin/update", test.as_str()),
        ("pipelines/a/pipeline.yml", "#@ load(\"@ytt:data\", \"data\")\n---\njobs:\n- name: #@ data.values.name\n"),
        ("pipelines/a/values.yml", "#@data/values\n---\nname: a\n"),
        ("pipelines/buildpack/pipeline.yml", "#@ load(\"@ytt:data\", \"data\")\n---\njobs:\n- name: #@ data.values.language\n  version: #@ data.values.version\n"),
        ("pipelines/buildpack/config.yml", "#@data/values\n---\nlanguage: \"\"\n"),
        ("pipelines/buildpack/go-values.yml", go.as_str()),
        ("pipelines/buildpack/ruby-values.yml", ruby.as_str()),
    ];
    let expected = [
        "pipelines/a",
        "pipelines/buildpack/pipeline.yml + pipelines/buildpack/config.yml + pipelines/buildpack/go-values.yml",
        "pipelines/buildpack/pipeline.yml + pipelines/buildpack/config.yml + pipelines/buildpack/ruby-values.yml",
    ];
    let lint = Repo::of(&files).lint_with(&["--no-cache"]);
    assert!(findings(&lint).is_empty(), "{lint}");
    let mut roots = root_paths(&lint.report);
    roots.sort();
    assert_eq!(roots, expected, "{lint}");

    // The same with a `case` on the entry's last segment.
    let case = script("case \"${pipeline_path##*/}\" in buildpack) true ;; *) false ;; esac\n    if [[ \"${pipeline_path##*/}\" = buildpack* ]]; then");
    let mut cased = files.to_vec();
    cased[0].1 = case.as_str();
    let lint = Repo::of(&cased).lint_with(&["--no-cache"]);
    assert!(findings(&lint).is_empty(), "{lint}");
    let mut roots = root_paths(&lint.report);
    roots.sort();
    assert_eq!(roots, expected, "{lint}");
}

#[test]
fn a_case_that_runs_ytt_per_entry_is_decided_and_one_that_sorts_entries_is_not() {
    // A `case` arm that runs ytt gets the entries its patterns match: the library is not
    // rendered alone.
    let lint_flow = workflow("lint");
    let per_entry = "#!/bin/sh\nfor f in src/workflows/*.yml; do\n  case \"${f##*/}\" in\n    *.lib.yml) ;;\n    *) ytt -f src/workflows/parts.lib.yml -f \"$f\" ;;\n  esac\ndone\n";
    let files = [
        ("src/workflows/parts.lib.yml", PARTS),
        ("src/workflows/lint.yml", lint_flow.as_str()),
        ("gen.sh", per_entry),
    ];
    let lint = Repo::of(&files).lint_with(&["--no-cache"]);
    assert!(findings(&lint).is_empty(), "{lint}");
    assert_eq!(
        root_paths(&lint.report),
        ["src/workflows/parts.lib.yml + src/workflows/lint.yml"],
        "{lint}"
    );

    // A `case` that sorts the entries into variables a second loop reads (round eight's
    // librocco form): one command over the glob as before, never a template without its
    // libraries.
    let sorting = "#!/bin/sh\nlibraries=\ntemplates=\nfor FILE in src/workflows/*.yml; do\n  case \"${FILE##*/}\" in\n    *.lib.yml) libraries=\"${libraries} -f ${FILE}\" ;;\n    *.yml) templates=\"${templates} ${FILE}\" ;;\n  esac\ndone\nfor template in ${templates}; do\n  ytt -f ${template} ${libraries} > out/$(basename \"$template\")\ndone\n";
    let mut sorted = files.to_vec();
    sorted[2] = ("gen.sh", sorting);
    let lint = Repo::of(&sorted).lint_with(&["--no-cache"]);
    assert!(
        findings(&lint).iter().all(|(rule, _)| rule != "load-error"),
        "{lint}"
    );
}
