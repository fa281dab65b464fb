//! Round eleven's left-over constructs about how commands are found and read (issue 39,
//! docs/precision.md "Round eleven's left-over constructs: commands"), each as a general rule
//! on a minimal repository written for the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, assumption_text, str_of};
use crate::util::repo::{Lint, Repo};

/// A page whose command gives two committed inputs from the top and a third a later commit
/// deleted (`config/deps/extra.yaml`), and a script that runs commands whose outputs are only
/// known at run time: `cf create-space -o "$ORG"` (an org name) and `git clone "$remote"
/// "$dst_dir"` (a destination the caller gives).
const DELETED: &[(&str, &str)] = &[
    (
        "README.md",
        "# Install\n\n```bash\nytt -f config/values.yaml -f config/app.yaml \
         -f config/deps/extra.yaml | kubectl apply -f -\n```\n",
    ),
    (
        "config/app.yaml",
        "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  \
         name: app\n  namespace: #@ data.values.ns\n",
    ),
    ("config/values.yaml", "#@data/values\n---\nns: default\n"),
    (
        "ci/push-app.sh",
        "#!/bin/bash\ncf create-space -o \"${ORG_NAME}\" \"${SPACE_NAME}\"\n\
         cf push \"$1\" -o \"cfrouting/httpbin8080\"\n",
    ),
    (
        "hack/methods.sh",
        "#!/bin/bash\nclone_if_not_exist() {\n  local remote=$1\n  local dst_dir=\"$2\"\n  \
         if [[ ! -d $dst_dir ]]; then\n    git clone --branch \"${3:-main}\" \"$remote\" \
         \"$dst_dir\"\n  fi\n}\n",
    ),
];

/// The one finding of `rule` whose message names `path`.
fn naming<'a>(lint: &'a Lint, rule: &str, path: &str) -> Vec<&'a Value> {
    lint.of(rule)
        .into_iter()
        .filter(|d| str_of(d, "message").contains(path))
        .collect()
}

#[test]
fn a_page_s_input_a_later_commit_deleted_is_missing() {
    // LR11-C1: the page's other inputs exist from the top, and the missing one leads into
    // its `config/`: ytt stops with "no such file or directory". Neither the org name of
    // `cf -o` nor a clone into `$dst_dir` makes the file.
    let lint = Repo::of(DELETED).lint();
    let found = naming(&lint, "input-missing", "config/deps/extra.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["file"], "README.md", "{lint}");
    assert_eq!(found[0]["line"], 4, "{lint}");
    assert!(assumption_kinds(found[0]).is_empty(), "{lint}");
    // A page copied from a bundle names the bundle's paths: a missing input that leads
    // nowhere in the repository (`deps/` is none of its directories) is no finding.
    let mut files = DELETED.to_vec();
    files[0].1 = "# Install\n\n```bash\nytt -f config/values.yaml -f config/app.yaml \
                  -f deps/extra.yaml | kubectl apply -f -\n```\n";
    let lint = Repo::of(&files).lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

#[test]
fn a_maker_whose_output_path_is_a_guess_leaves_the_input_missing_under_an_assumption() {
    // A script writes into `config/$name/`: it may make `config/deps/extra.yaml`, or not.
    // The input is reported, as a warning that names the maker, even where the rule is an
    // error.
    let mut files = DELETED.to_vec();
    files.push((
        "hack/vendor.sh",
        "#!/bin/bash\nname=\"$1\"\nmkdir -p \"config/$name\"\n\
         curl -sL https://example.com/x.yaml -o \"config/$name/extra.yaml\"\n\
         ytt -f config/values.yaml -f config/app.yaml\n",
    ));
    files.push((".yttlint.yaml", "rules:\n  input-missing: error\n"));
    let lint = Repo::of(&files).lint();
    let found = naming(&lint, "input-missing", "config/deps/extra.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    assert_eq!(assumption_kinds(found[0]), ["missing-input"], "{lint}");
    assert!(
        assumption_text(found[0]).contains("hack/vendor.sh:4"),
        "{lint}"
    );
    // A maker whose path is known makes the file: nothing is missing.
    files.pop();
    files.pop();
    files.push((
        "hack/vendor.sh",
        "#!/bin/bash\nmkdir -p config/deps\n\
         curl -sL https://example.com/x.yaml -o config/deps/extra.yaml\n\
         ytt -f config/values.yaml -f config/app.yaml\n",
    ));
    let lint = Repo::of(&files).lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}

#[test]
fn a_script_a_page_runs_reports_its_missing_input_at_its_own_command() {
    // The page chooses the script's argument; the command that fails is the script's, and
    // the finding is there, with the page's line beside it.
    let files: &[(&str, &str)] = &[
        ("README.md", "# Deploy\n\n```\n./deploy.sh prod\n```\n"),
        (
            "deploy.sh",
            "#!/bin/bash\nenv=\"$1\"\n\nytt -f config/app.yaml -f config/gone.yaml \
             -f \"values-$env.yml\"\n",
        ),
        (
            "config/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nenv: #@ data.values.env\n",
        ),
        ("values-prod.yml", "#@data/values\n---\nenv: prod\n"),
    ];
    let lint = Repo::of(files).lint();
    let found = naming(&lint, "input-missing", "config/gone.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        (&found[0]["file"], &found[0]["line"]),
        (&Value::from("deploy.sh"), &Value::from(4)),
        "{lint}"
    );
    let related = found[0]["related"].as_array().cloned().unwrap_or_default();
    assert!(
        related
            .iter()
            .any(|r| r["file"] == "README.md" && r["line"] == 4),
        "{lint}"
    );
}

/// A script that sets one pipeline per entry of `pipelines/`: a directory each, or a file;
/// each directory's data values declare its own keys.
const PER_ENTRY: &[(&str, &str)] = &[
    (
        "bin/update",
        "#!/usr/bin/env bash\nROOT=\"$(cd \"$(dirname \"$0\")/..\" && pwd)\"\n\
         for p in \"$ROOT\"/pipelines/*; do\n  if [[ -d \"$p\" ]]; then\n    \
         fly -t ci set-pipeline -p \"$(basename \"$p\")\" -c <(ytt -f \"$p\")\n  \
         elif [[ -f \"$p\" ]]; then\n    \
         fly -t ci set-pipeline -p \"$(basename \"${p%.yml}\")\" -c <(ytt -f \"$p\")\n  fi\ndone\n",
    ),
    (
        "pipelines/a/config.yml",
        "#@data/values\n---\nname: a\nteam: main\n",
    ),
    (
        "pipelines/a/pipeline.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\njobs:\n- name: #@ data.values.name\n  \
         team: #@ data.values.team\n",
    ),
    (
        "pipelines/b/config.yml",
        "#@data/values\n---\nname: b\nregion: eu\n",
    ),
    (
        "pipelines/b/pipeline.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\njobs:\n- name: #@ data.values.name\n  \
         region: #@ data.values.region\n",
    ),
    (
        "pipelines/resources.yml",
        "resources:\n- name: #@ \"repo\"\n",
    ),
];

#[test]
fn a_loop_over_a_glob_runs_ytt_once_per_entry() {
    // FW11-B2: each subdirectory is its own command, and the file beside them too; the
    // directory above them is no root (its data values would merge).
    let lint = Repo::of(PER_ENTRY).lint();
    let roots = crate::util::json::root_paths(&lint.report);
    for r in ["pipelines/a", "pipelines/b", "pipelines/resources.yml"] {
        assert!(roots.iter().any(|p| p == r), "{roots:?}");
    }
    assert!(!roots.iter().any(|p| p == "pipelines"), "{roots:?}");
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
    // Each entry is judged as the loop runs it: a template of `b` that reads a key only
    // `a` sets fails there. The loop's other tests are not decided (a `[[ "$name" == x ]]`
    // may keep an entry from the command): a warning naming the entry.
    let mut files = PER_ENTRY.to_vec();
    files[4].1 = "#@ load(\"@ytt:data\", \"data\")\n---\njobs:\n- name: #@ data.values.team\n";
    let lint = Repo::of(&files).lint();
    let failed: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["file"] == "pipelines/b/pipeline.yml" && d["severity"] == "warning")
        .collect();
    assert!(!failed.is_empty(), "{lint}");
    assert!(
        assumption_text(failed[0]).contains("one entry of the loop over `*` at bin/update:5"),
        "{lint}"
    );
    // A glob that matches nothing is given to ytt as written: its input is missing.
    let gone: Vec<(&str, &str)> = PER_ENTRY
        .iter()
        .filter(|(p, _)| *p == "bin/update" || *p == "README.md")
        .copied()
        .chain([(
            "bin/render",
            "#!/bin/bash\nfor p in ./packaging/package*.yaml; do\n  ytt -f ./config/v.yml -f \"$p\"\ndone\n",
        )])
        .chain([("config/v.yml", "#@data/values\n---\na: 1\n")])
        .chain([("packaging/README.md", "# packages\n")])
        .collect();
    let lint = Repo::of(&gone).lint();
    assert_eq!(
        naming(&lint, "input-missing", "packaging/package*.yaml").len(),
        1,
        "{lint}"
    );
}

#[test]
fn a_loop_that_gathers_a_glob_s_files_still_gives_them_all_to_one_command() {
    // `args="$args -f $f"` in the loop, ytt after it: one command with every file.
    let files: &[(&str, &str)] = &[
        (
            "render.sh",
            "#!/bin/bash\nargs=\"\"\nfor f in config/*.yml; do\n  args=\"$args -f $f\"\ndone\n\
             ytt $args\n",
        ),
        (
            "config/a.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        ("config/values.yml", "#@data/values\n---\nname: x\n"),
    ];
    let lint = Repo::of(files).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let roots = crate::util::json::root_paths(&lint.report);
    assert!(
        roots
            .iter()
            .any(|r| r.contains("config/a.yml") && r.contains("config/values.yml")),
        "{roots:?}"
    );
}

/// A script that builds one template from several files, `cat`ed by a function piped into
/// `ytt -f -`: the first file defines a name the second uses.
const CONCATENATED: &[(&str, &str)] = &[
    (
        "repipe.sh",
        "#!/bin/bash\nDIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nbuild() {\n  \
         cat \"$DIR/jobs/resources.yml\"\n  echo \"jobs:\"\n  for f in \"$DIR\"/jobs/*.yml; do\n    \
         [[ \"$(basename \"$f\")\" != resources.yml ]] && cat \"$f\"\n  done\n}\n\
         build | ytt \\\n  -f - \\\n  --data-value-file script=\"$DIR/start.sh\" | fly -t ci sp -c /dev/stdin\n",
    ),
    (
        "jobs/resources.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:base64\", \"base64\")\n\
         #@ script_b64 = base64.encode(data.values.script)\n---\nresources:\n- name: repo\n",
    ),
    (
        "jobs/deploy.yml",
        "- name: deploy\n  plan:\n  - task: run\n    args:\n    - #@ \"echo \" + script_b64\n",
    ),
    ("start.sh", "#!/bin/sh\necho start\n"),
];

#[test]
fn a_name_another_file_of_a_cat_pipe_into_ytt_defines_rests_on_the_file_rendered_alone() {
    // FW11-B3: the layout's inferred command renders jobs/deploy.yml alone, where
    // `script_b64` is undefined; the script renders it after jobs/resources.yml, which
    // defines it. A note naming the pipe, not an error.
    let lint = Repo::of(CONCATENATED).lint();
    let found = naming(&lint, "template-error", "script_b64");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "info", "{lint}");
    assert!(assumption_text(found[0]).contains("repipe.sh:10"), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
    // A name no file of the pipe defines stays an error.
    let mut files = CONCATENATED.to_vec();
    files[2].1 = "- name: deploy\n  args:\n  - #@ \"echo \" + script_b46\n";
    let lint = Repo::of(&files).lint();
    let found = naming(&lint, "template-error", "script_b46");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(lint.code, 1, "{lint}");
}

/// A pipeline that sets itself with the `boot` task of another repository, whose libraries
/// it loads.
const SIBLING: &[(&str, &str)] = &[
    (
        "ci/pipeline.yml",
        "#@ load(\"funcs.lib.yml\", \"notify\")\n---\njobs:\n- name: set-self\n  plan:\n  \
         - get: src\n  - get: pipeline-tasks\n  - task: boot\n    \
         file: pipeline-tasks/tasks/boot.yml\n  - set_pipeline: app\n    \
         file: compiled/set-pipeline.yml\n- name: deploy\n  plan:\n  - #@ notify(\"deployed\")\n\
         resources:\n- name: src\n  type: git\n  source: {uri: https://github.com/example/app}\n\
         - name: pipeline-tasks\n  type: git\n  \
         source: {uri: https://github.com/example/pipeline-tasks}\n",
    ),
    ("README.md", "# app\n"),
];

#[test]
fn a_load_a_sibling_repository_s_task_supplies_rests_on_that_input() {
    // FW11-B1: the load names a file the pipeline's own run takes from `pipeline-tasks`.
    let lint = Repo::of(SIBLING).lint();
    let found = naming(&lint, "load-error", "funcs.lib.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "info", "{lint}");
    assert!(
        assumption_text(found[0]).contains("pipeline-tasks/tasks/boot.yml"),
        "{lint}"
    );
    assert_eq!(lint.code, 0, "{lint}");
    // A pipeline that does not set itself: the missing library is its own defect.
    let mut files = SIBLING.to_vec();
    let own = files[0].1.replace("set_pipeline", "put");
    files[0].1 = &own;
    let lint = Repo::of(&files).lint();
    let found = naming(&lint, "load-error", "funcs.lib.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
}
