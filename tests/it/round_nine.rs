//! Constructs of round nine's first contact (issue 39, docs/precision.md, both researchers'
//! repositories) that the linter misread, each as a general rule on a minimal repository
//! written for the test.

use crate::util::json::assumption_kinds;
use crate::util::repo::Repo;

/// A prototype whose second schema file extends a map that only a schema outside it
/// declares (`web:`, without `missing_ok`): alone, its schema does not overlay.
const PROTOTYPE: &[(&str, &str)] = &[
    (
        "prototypes/web/app-data.a-schema.yaml",
        "#@data/values-schema\n---\n#@overlay/match missing_ok=True\nextra:\n  on: false\n",
    ),
    (
        "prototypes/web/app-data.yaml",
        "#@data/values-schema\n---\nweb:\n  #@overlay/match missing_ok=True\n  replicas: 2\n",
    ),
    (
        "prototypes/web/ytt/deploy.yaml",
        "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  replicas: #@ str(data.values.web.replicas)\n",
    ),
];

#[test]
fn a_schema_that_does_not_overlay_rests_on_the_files_the_command_gives() {
    // FE9-1: myks renders the prototype after the environment's schema, which declares
    // `web:`; the linter lints the prototype alone and knows it lacks what myks gives.
    let mut files = PROTOTYPE.to_vec();
    files.push((".myks.yaml", "async: 0\n"));
    files.push((
        "envs/env-data.ytt.yaml",
        "#@data/values-schema\n---\n#@overlay/match missing_ok=True\nweb:\n  name: \"\"\n",
    ));
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found = lint.of("schema-invalid");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "info", "{lint}");
    let kinds = assumption_kinds(found[0]);
    assert!(kinds.contains(&"wrapper-tool"), "{kinds:?}");
    assert!(kinds.contains(&"inferred-command"), "{kinds:?}");

    // The same files under a command a script runs: ytt fails as the linter says.
    let mut files = PROTOTYPE.to_vec();
    files.push(("render.sh", "#!/bin/sh\nytt -f prototypes/web > out.yaml\n"));
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.of("schema-invalid");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(found[0]["certainty"]["certain"], true, "{lint}");
}

#[test]
fn another_starlark_tool_s_file_that_nothing_of_ytt_reads_is_not_linted_as_ytt() {
    // FE9-2: a pinning tool's configuration at the top, in that tool's Starlark dialect; the
    // only ytt command renders an overlay directory.
    let pins = "binary(\n  name = \"bin/kbld\",\n  url = \"https://example.org/kbld\",\n)\n";
    let files: &[(&str, &str)] = &[
        ("tools.star", pins),
        (".drone.star", "def main(ctx):\n  return {\"kind\": \"pipeline\"}\n"),
        (
            "overlays/web/scale.yaml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"ConfigMap\"})\n---\ndata:\n  replicas: \"3\"\n",
        ),
        (
            "upstream/web/deploy.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  replicas: \"1\"\n",
        ),
        (
            "render.sh",
            "#!/bin/sh\nytt -f upstream/web -f overlays/web > out.yaml\n",
        ),
    ];
    let dir = Repo::of(files);
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("template-error").is_empty(), "{lint}");
    let roots = dir.roots();
    assert!(
        roots.contains(
            "tools.star: not a ytt file: another Starlark tool's file (it calls `binary`"
        ),
        "{roots}"
    );
    assert!(
        roots.contains(".drone.star: not a ytt file: the file of Drone"),
        "{roots}"
    );

    // Loaded by a template, the same file is ytt's, and its undefined name an error.
    let mut files = files.to_vec();
    files.push((
        "overlays/web/pins.yaml",
        "#@ load(\"/tools.star\", \"x\")\n---\na: 1\n",
    ));
    files.push(("render.sh", "#!/bin/sh\nytt -f . > out.yaml\n"));
    let lint = Repo::of(&files).lint();
    let undefined = lint.of("template-error");
    assert!(
        undefined
            .iter()
            .any(|d| d["file"] == "tools.star" && d["severity"] == "error"),
        "{lint}"
    );
}

/// A deploy script that pipes decrypted secrets into ytt as data values.
fn secrets_repo(command: &str) -> Repo {
    Repo::of(&[
        (
            "svc/templates/secret.yaml",
            "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: Secret\nmetadata:\n  name: svc\nstringData:\n  token: #@ data.values.creds.svc.token\n",
        ),
        ("svc/values.yaml", "#@data/values\n---\nsvc:\n  port: 8080\n"),
        ("svc/deploy.sh", command),
        ("creds.enc.yaml", "data: ENC[AES256_GCM,data:xx]\n"),
    ])
}

#[test]
fn values_on_standard_input_from_a_decrypting_command_are_needed_input() {
    // FW9-2: a key only the decrypted values set is not a failure of the templates.
    for command in [
        "#!/bin/bash\nsops -d ../creds.enc.yaml | ytt -f templates -f values.yaml -f - | kapp deploy -a svc -f - -y\n",
        "#!/bin/bash\nsops --decrypt ../creds.enc.yaml | ytt -f templates -f values.yaml --data-values-file - > out.yaml\n",
    ] {
        let dir = secrets_repo(command);
        let lint = dir.lint();
        assert_eq!(lint.code, 0, "{command}: {lint}");
        assert!(lint.of("template-error").is_empty(), "{command}: {lint}");
        let needs = lint.of("needs-input");
        assert_eq!(needs.len(), 1, "{command}: {lint}");
        assert!(
            needs[0]["message"].as_str().unwrap_or("").contains("creds"),
            "{command}: {lint}"
        );
    }
}

#[test]
fn a_packagebuild_is_the_command_kctrl_package_release_runs() {
    // LR9-2: `kctrl package release` renders the PackageBuild's ytt paths with no values.
    let files: &[(&str, &str)] = &[
        (
            "pkg/package-build.yml",
            "apiVersion: kctrl.carvel.dev/v1alpha1\nkind: PackageBuild\nmetadata:\n  name: demo.example.org\nspec:\n  template:\n    spec:\n      app:\n        spec:\n          template:\n          - ytt:\n              paths:\n              - manifests\n          - kbld: {}\n          deploy:\n          - kapp: {}\n",
        ),
        (
            "pkg/manifests/schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min_len=1\nnamespace: \"\"\n",
        ),
        (
            "pkg/manifests/ns.yml",
            "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.namespace\n",
        ),
    ];
    let lint = Repo::of(files).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.of("required-value");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(found[0]["certainty"]["source"], "package", "{lint}");
    assert_eq!(
        found[0]["certainty"]["origin"], "pkg/package-build.yml:1",
        "{lint}"
    );
    assert!(lint.of("needs-input").is_empty(), "{lint}");

    // A values file a step makes before the release (the repository ignores it): the
    // release's inputs are not all known, and the failure is for want of them.
    let mut made = files.to_vec();
    made.push((".gitignore", "pkg/manifests/values.yml\n"));
    made.push((
        "Makefile",
        "release:\n\tprintf 'namespace: %s\\n' \"$(NS)\" > pkg/manifests/values.yml\n\tcd pkg && kctrl package release\n",
    ));
    let lint = Repo::of(&made).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.of("required-value").is_empty(), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
    // Ignored, but written by no command (N51-3): nothing is made before the release.
    made.pop();
    let lint = Repo::of(&made).lint();
    assert_eq!(lint.code, 1, "{lint}");
    assert_eq!(lint.of("required-value").len(), 1, "{lint}");

    // With a default that validates, the release renders: nothing to lint.report.
    let mut files = files.to_vec();
    files[1].1 = "#@data/values-schema\n---\n#@schema/validation min_len=1\nnamespace: demo\n";
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_values_file_a_sourced_script_reads_with_yq_through_a_variable_is_used() {
    // FW9-3: the file's path is built from the script's own directory.
    let lint = Repo::of(&[
        (
            "env.sh",
            "#!/bin/bash\nCONF_NAME=shared.yaml\nexport CONF=\"$(dirname \"${BASH_SOURCE[0]}\")/${CONF_NAME}\"\nexport TUNNEL_PORT=$(yq -e eval '.shared.tunnel.port' ${CONF})\n",
        ),
        (
            "shared.yaml",
            "#@data/values\n---\n#@overlay/match missing_ok=True\nshared:\n  tunnel:\n    port: 51820\n  domain: example.org\n  unused: 1\n",
        ),
        (
            "web/templates/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  host: #@ \"web.\" + data.values.shared.domain\n",
        ),
        (
            "web/deploy.sh",
            "#!/bin/bash\nsource ../env.sh\nytt -f templates -f ../shared.yaml > out.yaml\n",
        ),
    ]).lint();
    let unused: Vec<String> = lint
        .of("data-value-unused")
        .iter()
        .map(|d| d["message"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert!(unused[0].contains("shared.unused"), "{unused:?}");
}

/// A package whose Taskfile inspects a values schema it does not hold (LA-6), with `extra`
/// files beside it.
fn package_without_schema(taskfile: &str) -> Repo {
    Repo::of(&[
        ("Taskfile.yml", taskfile),
        (
            "package/config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: app\n",
        ),
    ])
}

#[test]
fn a_command_none_of_whose_inputs_exists_is_input_missing() {
    let dir = package_without_schema(
        "version: '3'\ntasks:\n  schema:\n    cmds:\n      - ytt -f package/config/values-schema.yml --data-values-schema-inspect -o openapi-v3 > schema.yml\n",
    );
    let lint = dir.lint_with(&["--no-cache", "."]);
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert_eq!(missing[0]["file"], "Taskfile.yml", "{lint}");
    assert_eq!(missing[0]["line"], 5, "{lint}");
    let message = missing[0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with(
            "input package/config/values-schema.yml of the ytt command does not exist"
        ),
        "{message}"
    );
}

#[test]
fn a_values_file_an_earlier_step_makes_or_one_beside_templates_is_not_missing() {
    // An earlier step of the same script writes it.
    let dir = package_without_schema("version: '3'\n");
    dir.write(
        "schema.sh",
        "#!/bin/sh\nset -e\n./hack/generate-schema > package/config/values-schema.yml\nytt -f package/config/values-schema.yml --data-values-schema-inspect -o openapi-v3\n",
    );
    let lint = dir.lint_with(&["--no-cache", "."]);
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    // Another script, one that runs no ytt, writes it from a here-document first.
    let dir = package_without_schema("version: '3'\n");
    dir.write(
        "hack/gen-schema.sh",
        "cat > package/config/values-schema.yml <<EOF\n#@data/values-schema\n---\nname: app\nEOF\n",
    );
    dir.write(
        "hack/publish.sh",
        "#!/bin/sh\nhack/gen-schema.sh\nytt -f package/config/values-schema.yml --data-values-schema-inspect -o openapi-v3\n",
    );
    let lint = dir.lint_with(&["--no-cache", "."]);
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    // Beside templates that exist, a values file the repository lacks is the user's own.
    let dir = package_without_schema(
        "version: '3'\ntasks:\n  render:\n    cmds:\n      - ytt -f package/config -f package/config/my-values.yml\n",
    );
    let lint = dir.lint_with(&["--no-cache", "."]);
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}
