//! The twenty-fourth session's constructs from rounds twenty-six to twenty-eight, each on a
//! minimal repository written for the test: a command that only inspects a folder's schema
//! (`--data-values-schema-inspect`) renders nothing, so it leaves the schema in the folder's
//! root instead of taking it out of it (N28-5); the document it writes is the data value a
//! later command of the same page reads (`--data-value-file openapi=/tmp/schema.yml`); a
//! Makefile names its own directory with make's idioms (R30-3); a folder nothing runs beside
//! one a command renders with shared schema and values is rendered the same way (R28-2); a
//! script argument that only chooses a values file makes a complete command (R32-1); a quoted
//! local action whose step `cd`s into another checkout is linted (R28-4 as written).

use crate::util::repo::Repo;

#[test]
fn a_schema_inspection_leaves_the_schema_in_its_folder_s_root() {
    let schema = "#@data/values-schema\n---\napp:\n  namespace: demo\n  create_namespace: true\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ if data.values.app.create_namespace:\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.app.namespace\n#@ end\n";
    let readme = "# Release\n\n```\nytt -f bundle/config/values.yaml --data-values-schema-inspect -o openapi-v3 > /tmp/schema.yml\n```\n";
    let repo = Repo::of(&[
        ("bundle/config/values.yaml", schema),
        ("bundle/config/app.yaml", tpl),
        ("README.md", readme),
    ]);
    // The folder is rendered whole, with its schema, as a Package's `ytt` step does.
    repo.assert_lists("bundle/config\ttopmost directory holding ytt files; inputs unknown");
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert!(lint.of("data-value-unused").is_empty(), "{lint}");

    // A schema the script copies into a package before inspecting the copy is used there,
    // not in the folder it is kept in (whose other files are another tool's templates).
    let script = "#!/bin/sh\nmkdir -p package/config\ncp resources/values-schema.yaml package/config/\nytt -f package/config/values-schema.yaml --data-values-schema-inspect -o openapi-v3 > schema.yml\n";
    let repo = Repo::of(&[
        ("resources/values-schema.yaml", schema),
        ("resources/app.yaml", tpl),
        ("release.sh", script),
    ]);
    repo.assert_lists("resources/values-schema.yaml\tchecked on its own");
}

/// Carvel's package template: `valuesSchema` is the OpenAPI document a schema inspection
/// wrote for the README's next command.
const PACKAGE_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: #@ \"app.example.com.\" + data.values.version\nspec:\n  refName: app.example.com\n  version: #@ data.values.version\n  valuesSchema:\n    openAPIv3: #@ yaml.decode(data.values.openapi)[\"components\"][\"schemas\"][\"dataValues\"]\n  template:\n    spec:\n      fetch:\n      - imgpkgBundle:\n          image: registry.example.com/app\n      template:\n      - ytt: {}\n      deploy:\n      - kapp: {}\n";

#[test]
fn a_value_file_a_schema_inspection_writes_is_the_document_it_prints() {
    let schema = "#@data/values-schema\n---\napp:\n  #@schema/desc \"where the app runs\"\n  namespace: demo\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.app.namespace\n";
    let readme = "# Release\n\n```\nytt -f bundle/config/values.yaml --data-values-schema-inspect -o openapi-v3 > /tmp/schema.yml\nytt -f package/template.yaml --data-value-file openapi=/tmp/schema.yml -v version=1.0.0 > repo/package.yaml\n```\n";
    let files = [
        ("bundle/config/values.yaml", schema),
        ("bundle/config/app.yaml", tpl),
        ("package/template.yaml", PACKAGE_TEMPLATE),
        ("README.md", readme),
    ];
    let lint = Repo::of(&files).lint();
    // With a placeholder for the document, `yaml.decode` gives a string and its index fails.
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");

    // The document is what the schema says: a Package template that reads a key the
    // document does not have fails in ytt, and here.
    let broken = PACKAGE_TEMPLATE.replace("[\"dataValues\"]", "[\"values\"]");
    let mut files = files;
    files[2].1 = &broken;
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.of("template-error");
    assert_eq!(found.len(), 1, "{lint}");
}

#[test]
fn a_makefile_s_own_directory_by_make_s_idiom_is_known() {
    // R30-3: the values file is named from the Makefile's directory, the usual GNU make way.
    let makefile = "HERE := $(shell dirname $(realpath $(firstword $(MAKEFILE_LIST))))\nVALUES = $(HERE)/config/sample-values.yaml\n\nrender:\n\tytt -f config/app.yaml -f $(VALUES)\n";
    let values = "#@data/values\n---\nname: web\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\ndata:\n  tier: #@ data.values.tier\n";
    let repo = Repo::of(&[
        ("ops/Makefile", makefile),
        ("ops/config/sample-values.yaml", values),
        ("ops/config/app.yaml", tpl),
    ]);
    repo.assert_lists("ops/config/app.yaml + ops/config/sample-values.yaml\trun by ops/Makefile:5");
    // The sample values lack `tier`: ytt fails on the Makefile's command.
    let lint = repo.lint();
    assert_eq!(lint.of("template-error").len(), 1, "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn a_folder_beside_one_a_command_renders_with_shared_values_is_rendered_the_same_way() {
    // R28-2: a page renders one component with the platform's schema and a cluster's values;
    // the other component nothing runs reads a key that schema lacks.
    let schema = "#@data/values-schema\n---\ncluster_name: \"\"\nfeatures:\n  tracing: false\n";
    let values = "#@data/values\n---\ncluster_name: demo\n";
    let component = |key: &str| {
        format!("#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.cluster_name\ndata:\n  #@ if data.values.features.{key}:\n  mode: on\n  #@ end\n")
    };
    let (web, jobs) = (component("tracing"), component("metrics"));
    let page = "# Building\n\n```\nytt -f platform/schema.yaml -f clusters/demo.yaml -f components/web/base/\n```\n";
    let repo = Repo::of(&[
        ("platform/schema.yaml", schema),
        ("clusters/demo.yaml", values),
        ("components/web/base/app.yaml", web.as_str()),
        ("components/jobs/base/app.yaml", jobs.as_str()),
        ("BUILDING.md", page),
    ]);
    repo.assert_lists("platform/schema.yaml + clusters/demo.yaml + components/jobs/base\ttopmost directory holding ytt files");
    let lint = repo.lint();
    // Before: the folder alone, a needs-input note for `cluster_name`, which the schema gives.
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    let found = lint.of("template-error");
    assert_eq!(found.len(), 1, "{lint}");
    // The command is modelled on its sibling's: a warning naming that.
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    assert_eq!(found[0]["file"], "components/jobs/base/app.yaml", "{lint}");
}

#[test]
fn a_script_argument_that_only_chooses_a_values_file_is_a_complete_command() {
    // R32-1: `build.sh beta` fails, for `clusters/beta.yaml` lacks what the template reads.
    let helpers = "set_cluster() {\n  CLUSTER=\"$1\"\n  CLUSTER_CONFIG=\"$(git rev-parse --show-toplevel)/clusters/$CLUSTER.yaml\"\n}\n";
    let build = "#!/bin/bash\nset -e\nsource \"$(git rev-parse --show-toplevel)/lib/helpers.sh\"\nset_cluster \"$1\"\ncd \"$(dirname \"$0\")\"\nytt -f app.yaml -f \"$CLUSTER_CONFIG\"\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  host: #@ data.values.app.host\n";
    let repo = Repo::of(&[
        ("lib/helpers.sh", helpers),
        ("app/build.sh", build),
        ("app/app.yaml", tpl),
        (
            "clusters/alpha.yaml",
            "#@data/values\n---\napp:\n  host: alpha.example.org\n",
        ),
        ("clusters/beta.yaml", "#@data/values\n---\napp: {}\n"),
    ]);
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    let found = lint.of("template-error");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    let said = found[0].to_string();
    assert!(said.contains("chooses clusters/beta.yaml"), "{lint}");
}

#[test]
fn a_quoted_local_action_whose_step_cds_into_another_checkout_is_linted() {
    // R28-4 as the repository writes it: `uses: './.github/actions/…'` in quotes, and a `cd`
    // into a folder of another checkout named by an input the caller gives from a secret.
    let action = "name: Publish\ninputs:\n  env:\n    required: true\n  target-path:\n    default: \"\"\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n        mkdir -p \"other/${{ inputs.target-path }}/app\"\n        cd \"other/${{ inputs.target-path }}/app\"\n        ytt -f \"$GITHUB_WORKSPACE/deploy/envs/${{ inputs.env }}\" -f \"$GITHUB_WORKSPACE/deploy/app.yaml\" > app.yaml\n";
    let workflow = "on:\n  workflow_dispatch:\n    inputs:\n      env:\n        type: choice\n        options:\n          - dev\n          - prod\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: './.github/actions/publish'\n        with:\n          env: ${{ inputs.env }}\n          target-path: ${{ secrets.TARGET_PATH }}\n";
    let values = "#@data/values\n---\nname: web\n";
    let repo = Repo::of(&[
        (".github/actions/publish/action.yaml", action),
        (".github/workflows/publish.yaml", workflow),
        ("deploy/envs/dev/values.yaml", values),
        ("deploy/envs/prod/values.yaml", values),
        (
            "deploy/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\n# TODO: rename\nname: #@ data.values.name\n",
        ),
    ]);
    repo.assert_lists(
        "deploy/envs/dev + deploy/app.yaml\trun by .github/actions/publish/action.yaml:14",
    );
    let lint = repo.lint();
    let found = lint.of("unknown-comment");
    assert!(!found.is_empty(), "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
}
