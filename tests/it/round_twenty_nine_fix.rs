//! Commands rounds twenty-six to twenty-eight found skipped, each on a minimal repository
//! written for the test: a local composite action's `${{ inputs.X }}` bound from the calling
//! step of the repository's own workflow, a workflow choice input once per option (R28-3,
//! R28-4); ytt run by `docker run` of ytt's image reading standard input (N26-1) and by `go
//! run …/cmd/ytt` (N28-4), each held in a Makefile variable; a README's command written in a
//! table cell, whose `\|` is the pipe (N28-3).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A template ytt refuses: a plain `#` comment after a value.
const REFUSED: &str =
    "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nsa: default # TODO: own\n";

/// A template ytt renders.
const RENDERED: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n";

#[test]
fn a_local_action_s_inputs_are_its_caller_s_with_each_choice_in_turn() {
    let action = "name: Publish\ninputs:\n  service:\n    required: true\n  env:\n    required: true\n  out:\n    default: rendered\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n        mkdir -p \"${{ inputs.out }}/${{ inputs.env }}\"\n        cd \"${{ inputs.out }}/${{ inputs.env }}\"\n        ytt -f \"$GITHUB_WORKSPACE/deploy/envs/${{ inputs.env }}\" -f \"$GITHUB_WORKSPACE/deploy/${{ inputs.service }}.yaml\" > app.yaml\n";
    let workflow = "on:\n  workflow_dispatch:\n    inputs:\n      service:\n        type: choice\n        options:\n          - api\n          - web\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./.github/actions/publish\n        with:\n          service: ${{ github.event.inputs.service }}\n          env: dev\n";
    let repo = Repo::of(&[
        (".github/actions/publish/action.yaml", action),
        (".github/workflows/publish.yaml", workflow),
        (
            "deploy/envs/dev/values.yaml",
            "#@data/values\n---\nname: x\n",
        ),
        ("deploy/api.yaml", REFUSED),
        ("deploy/web.yaml", RENDERED),
        // A schema no command gives: only a root invented from the layout would read it.
        (
            "deploy/lib/extra.yaml",
            "#@data/values-schema\n---\nother: \"\"\n",
        ),
    ]);
    let roots = repo.roots();
    assert!(!roots.contains("skipped"), "{roots}");
    let lint = repo.lint();
    let comments = lint.in_file("unknown-comment", "deploy/api.yaml");
    assert_eq!(comments.len(), 1, "{lint}");
    assert_eq!(str_of(comments[0], "severity"), "error", "{lint}");
    assert!(
        lint.in_file("unknown-comment", "deploy/web.yaml")
            .is_empty(),
        "{lint}"
    );

    // An input the caller gives from a free-text input stays known only at run time: the
    // command's path is matched against the files as any unknown word is (`inputs unknown`).
    let free = workflow.replace(
        "        type: choice\n        options:\n          - api\n          - web\n",
        "        type: string\n",
    );
    let repo = Repo::of(&[
        (".github/actions/publish/action.yaml", action),
        (".github/workflows/publish.yaml", free.as_str()),
        (
            "deploy/envs/dev/values.yaml",
            "#@data/values\n---\nname: x\n",
        ),
        ("deploy/api.yaml", REFUSED),
        ("deploy/web.yaml", RENDERED),
    ]);
    repo.assert_lists("deploy/envs/dev + deploy/api.yaml\trun by .github/actions/publish/action.yaml:16; inputs: deploy/envs/dev, deploy/api.yaml; inputs unknown");
}

#[test]
fn ytt_in_a_makefile_variable_run_by_docker_is_ytt_reading_standard_input() {
    let makefile = "YTT ?= docker run --rm -i example/ytt:v0.35.1\n\nci:\n\t$(YTT) -f - < ci-ytt/ci.yml > ci.yml\n";
    let repo = Repo::of(&[
        ("Makefile", makefile),
        (
            "ci-ytt/ci.yml",
            "#@ x = 1\nname: ci\non: push # every push\n",
        ),
    ]);
    repo.assert_lists("ci-ytt/ci.yml\trun by Makefile:4");
    let lint = repo.lint();
    let comments = lint.in_file("unknown-comment", "ci-ytt/ci.yml");
    assert_eq!(comments.len(), 1, "{lint}");
    assert_eq!(str_of(comments[0], "severity"), "error", "{lint}");
}

#[test]
fn ytt_in_a_makefile_variable_run_by_go_run_is_ytt() {
    let makefile = "YTT ?= go run -modfile hack/go.mod github.com/vmware-tanzu/carvel-ytt/cmd/ytt\n\ndeploy:\n\t$(YTT) -f config/values.yaml -f config/app.yaml\n";
    let repo = Repo::of(&[
        ("Makefile", makefile),
        ("hack/go.mod", "module hack\n"),
        ("config/values.yaml", "#@data/values\n---\nname: x\n"),
        ("config/app.yaml", REFUSED),
    ]);
    repo.assert_lists("run by Makefile:4");
    let lint = repo.lint();
    let comments = lint.in_file("unknown-comment", "config/app.yaml");
    assert_eq!(comments.len(), 1, "{lint}");
    assert_eq!(str_of(comments[0], "severity"), "error", "{lint}");
}

#[test]
fn a_readme_command_in_a_table_cell_reads_its_escaped_pipe_as_the_pipe() {
    let readme = "# App\n\n| step | command |\n|---|---|\n| deploy | `ytt -f ./k8s/values.yaml -f ./k8s/app.yaml \\| kapp deploy -a app -f-` |\n";
    let repo = Repo::of(&[
        ("README.md", readme),
        ("k8s/values.yaml", "#@data/values\n---\nname: x\n"),
        ("k8s/app.yaml", REFUSED),
    ]);
    repo.assert_lists("run by README.md:5");
    let lint = repo.lint();
    let comments = lint.in_file("unknown-comment", "k8s/app.yaml");
    assert_eq!(comments.len(), 1, "{lint}");
}

#[test]
fn a_sourced_env_file_made_from_a_committed_template_gives_the_template_s_names() {
    let script = "#!/bin/bash\nDIR=$(dirname \"$(realpath \"$0\")\")\nif [[ ! -f \"${DIR}/${ENV}-env\" ]]; then\n  echo \"Make ${DIR}/${ENV}-env from the scripts/env template\"\n  exit 1\nfi\nsource \"${DIR}/${ENV}-env\"\nytt -f \"${DIR}/../config/app.yaml\" --data-values-env APP\n";
    let repo = Repo::of(&[
        ("scripts/render.sh", script),
        ("scripts/env", "export ENV=\nexport APP_HOST=   # the registry\n"),
        (
            "config/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nhost: #@ data.values.HOST\nport: #@ data.values.PORT\n",
        ),
    ]);
    let lint = repo.lint();
    // `PORT` fails whatever the user's copy fills in: a warning naming the template.
    let found: Vec<_> = lint
        .diagnostics()
        .iter()
        .filter(|d| str_of(d, "file") == "config/app.yaml")
        .filter(|d| str_of(d, "severity") == "warning")
        .filter(|d| str_of(d, "message").contains("PORT"))
        .collect();
    assert_eq!(found.len(), 1, "{lint}");
    let said = crate::util::json::assumption_text(found[0]);
    assert!(said.contains("scripts/env"), "{said}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
}
