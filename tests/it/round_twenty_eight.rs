//! Round twenty-eight's constructs, each on a minimal repository written for the test: a
//! schema document that is not well formed on its own fails whatever the command gives with
//! it, so it is reported as its text's own error even where the file is checked on its own
//! (R28-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

#[test]
fn a_schema_document_invalid_on_its_own_is_an_error_of_its_text() {
    let schema = |nested: &str| {
        format!("#@data/values-schema\n---\nname: \"\"\n#@schema/type any=True\nplugins:\n- name: \"\"\n{nested}  version: \"\"\n")
    };
    // A schema alone in its folder, which a tool copies into new projects: nothing here runs
    // it, and it fails in any command.
    let bad = schema("  #@schema/nullable\n");
    let lint = Repo::of(&[("starter/values-schema.yaml", bad.as_str())]).lint();
    let found = lint.of("schema-invalid");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");

    // Two schema files that conflict only when overlaid rest on the command that gives both.
    let lint = Repo::of(&[
        ("starter/a.yaml", "#@data/values-schema\n---\nname: \"\"\n"),
        ("starter/b.yaml", "#@data/values-schema\n---\nother: \"\"\n"),
        (
            "starter/t.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
    ])
    .lint();
    let found = lint.of("schema-invalid");
    assert_eq!(found.len(), 1, "{lint}");
    assert_ne!(str_of(found[0], "severity"), "error", "{lint}");
}

#[test]
fn a_path_under_the_ci_workspace_is_the_repository_s_whatever_the_cd() {
    let action = "name: Publish\ninputs:\n  env:\n    required: true\nruns:\n  using: composite\n  steps:\n    - name: Render\n      shell: bash\n      run: |\n        mkdir -p out/dev\n        cd out/dev\n        ytt -f \"$GITHUB_WORKSPACE/deploy/values.yaml\" -f \"$GITHUB_WORKSPACE/deploy/app.yaml\" > app.yaml\n";
    let workflow = "on: push\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ./.github/actions/publish\n        with:\n          env: dev\n";
    let repo = Repo::of(&[
        (".github/actions/publish/action.yaml", action),
        (".github/workflows/publish.yaml", workflow),
        ("deploy/values.yaml", "#@data/values\n---\nname: web\n"),
        (
            "deploy/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\n# TODO: rename\nname: #@ data.values.name\n",
        ),
        // A schema no command gives, beside them: only an invented root of the whole folder
        // would read it.
        (
            "deploy/lib/extra.yaml",
            "#@data/values-schema\n---\nother: \"\"\n",
        ),
    ]);
    repo.assert_lists(
        "deploy/values.yaml + deploy/app.yaml\trun by .github/actions/publish/action.yaml:13",
    );
    let lint = repo.lint();
    // The command's own failure: a plain comment ytt refuses, with the command certain.
    let comments = lint.of("unknown-comment");
    assert_eq!(comments.len(), 1, "{lint}");
    assert_eq!(str_of(comments[0], "severity"), "error", "{lint}");
}
