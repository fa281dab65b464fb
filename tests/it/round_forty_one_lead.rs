//! The lead's fixes of round forty-one, each on a minimal repository written for the test: a
//! YAML file a page downloads into the folder its command renders (`wget URL` before `ytt -f
//! .`) is an input the linter does not have, so what rests on the files given (an overlay's
//! matches) is a note naming the download (R41-1). An error in a folder the linter only
//! guessed the command of, in a repository whose own program runs ytt (a Go module requiring
//! its library, a process call), is a warning naming the program (R42-1, R42-4, R40-1). The
//! redacted copy of the author's values a page says to copy stands in for the reader's copy
//! (R41-2, R44-2), and the keys a script writes into that copy through the variable its name
//! comes from are given (R27-4).

use crate::util::repo::Repo;

const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\", \"metadata\": {\"name\": \"server\"}})\n---\nspec:\n  template:\n    spec:\n      containers:\n      #@overlay/match by=\"name\"\n      - name: server\n        image: example.invalid/server:v2\n";

#[test]
fn an_overlay_of_a_downloaded_manifest_is_a_note_naming_the_download() {
    let readme = "# Install\n\n```console\ncd cfg\nwget https://release.example.invalid/v1/install.yaml\nytt -f . | kubectl apply -f -\n```\n";
    let lint = Repo::of(&[("README.md", readme), ("cfg/image-overlay.yaml", OVERLAY)]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let overlay = lint.of("overlay-error");
    assert_eq!(overlay.len(), 1, "{lint}");
    // As for a file another tool writes there at run time, the finding lacks an input the
    // linter knows it does not have: a note.
    assert_eq!(overlay[0]["severity"], "info", "{lint}");
    let text = overlay[0].to_string();
    assert!(text.contains("`wget` downloads it"), "{text}");
    assert!(text.contains("README.md:5"), "{text}");
}

#[test]
fn without_the_download_the_same_overlay_is_an_error() {
    let readme = "# Install\n\n```console\ncd cfg\nytt -f . | kubectl apply -f -\n```\n";
    let lint = Repo::of(&[("README.md", readme), ("cfg/image-overlay.yaml", OVERLAY)]).lint();
    let overlay = lint.of("overlay-error");
    assert_eq!(overlay.len(), 1, "{lint}");
    assert_eq!(overlay[0]["severity"], "error", "{lint}");
}

/// A layout root whose overlay fragment uses `overlay` and `data` without loading them: the
/// program joins it to another file before ytt reads it (round forty-two's R42-4).
const FRAGMENT: &str = "#@overlay/match by=overlay.subset({\"kind\": \"Service\"}), expects=\"1+\"\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  namespace: #@ data.values.namespace\n";

#[test]
fn an_error_in_a_folder_a_go_program_renders_is_a_warning_naming_the_program() {
    let gomod =
        "module example.invalid/deployer\n\ngo 1.22\n\nrequire (\n\tcarvel.dev/ytt v0.49.0\n)\n";
    let main = "package main\n\nimport (\n\t_ \"embed\"\n\n\t\"carvel.dev/ytt/pkg/cmd/template\"\n)\n\n//go:embed overlays/extra.yaml\nvar extra string\n\nfunc main() { _ = template.NewOptions() }\n";
    let lint = Repo::of(&[
        ("go.mod", gomod),
        ("main.go", main),
        ("overlays/extra.yaml", FRAGMENT),
    ])
    .lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let failed = lint.in_file("template-error", "overlays/extra.yaml");
    assert!(!failed.is_empty(), "{lint}");
    for d in &failed {
        assert_eq!(d["severity"], "warning", "{lint}");
        assert!(
            d.to_string().contains("go.mod requires carvel.dev/ytt"),
            "{d}"
        );
    }
}

#[test]
fn a_process_call_of_ytt_in_a_program_makes_a_syntax_error_of_a_layout_root_a_warning() {
    // A `#!` comment after an expression cuts the closing parenthesis ytt wraps the code in;
    // the program cuts those comments before it runs ytt (round forty-two's R42-1).
    let settings = "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ int(data.values.replicas) #! how many\n";
    let render = "import subprocess\n\ndef render(env):\n    text = strip_comments(open(f\"conf/{env}/settings.yml\").read())\n    return subprocess.run([\"ytt\", \"-f\", \"-\"], input=text, capture_output=True)\n";
    let with = Repo::of(&[("conf/dev/settings.yml", settings), ("render.py", render)]).lint();
    assert!(with.errors().is_empty(), "{with}");
    let warned = with.in_file("template-error", "conf/dev/settings.yml");
    assert_eq!(warned.len(), 1, "{with}");
    assert!(
        warned[0].to_string().contains("render.py:5 runs `ytt`"),
        "{with}"
    );
    // Without the program, how the folder is run is not written down: the error stays.
    let without = Repo::of(&[("conf/dev/settings.yml", settings)]).lint();
    assert_eq!(without.errors().len(), 1, "{without}");
}

#[test]
fn a_redacted_copy_of_the_author_s_values_stands_in_for_the_user_s_copy() {
    // The page copies the author's redacted values; another page renders the copy through a
    // variable. The committed copy keeps a plain `#` hint in a value, which ytt refuses
    // without `--ignore-unknown-comments` (round forty-one's R41-2).
    let readme = "# Setup\n\nCopy the redacted settings and fill them in.\n\n```bash\ncp params-REDACTED.yaml local/params.yaml\nPARAMS=local/params.yaml\n```\n\nThen see [the demo](demo.md).\n";
    let demo = "# Demo\n\n```bash\nytt -f $PARAMS -f app.yaml | kubectl apply -f -\n```\n";
    let redacted = "#@data/values\n---\nregistry: # the registry you push to\ntag: \"1\"\n";
    let app = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  image: #@ \"{}/app:{}\".format(data.values.registry, data.values.tag)\n";
    let lint = Repo::of(&[
        ("README.md", readme),
        ("demo.md", demo),
        ("params-REDACTED.yaml", redacted),
        ("app.yaml", app),
        ("local/.gitkeep", ""),
    ])
    .lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let hint = lint.in_file("unknown-comment", "params-REDACTED.yaml");
    assert_eq!(hint.len(), 1, "{lint}");
    assert_eq!(hint[0]["severity"], "warning", "{lint}");
    assert!(
        hint[0].to_string().contains("params-REDACTED.yaml"),
        "{lint}"
    );
}

#[test]
fn a_prerequisite_that_says_the_redacted_values_were_copied_stands_in_too() {
    // The page lists the copy among its prerequisites, in the past tense, and names the copy
    // only in the block that sets the variable (round forty-four's R44-2).
    let readme = "# Demo\n\nPrerequisites:\n\n- Copied `local-config/params-REDACTED.yaml` and updated for your environment\n\n```bash\nPARAMS_YAML=local-config/params.yaml\n```\n\nThen:\n\n```bash\nytt -f $PARAMS_YAML -f secret.yaml | kubectl apply -f -\n```\n";
    let redacted = "#@data/values\n---\nvault: # must be globally unique\n";
    let secret = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: store\ndata:\n  vault: #@ data.values.vault\n";
    let lint = Repo::of(&[
        ("README.md", readme),
        ("local-config/params-REDACTED.yaml", redacted),
        ("secret.yaml", secret),
    ])
    .lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let hint = lint.in_file("unknown-comment", "local-config/params-REDACTED.yaml");
    assert_eq!(hint.len(), 1, "{lint}");
    assert_eq!(hint[0]["severity"], "warning", "{lint}");
}

#[test]
fn keys_a_script_writes_through_the_copy_s_variable_are_given() {
    // One script writes keys into the reader's copy through the variable its name comes
    // from; the next renders the copy. The redacted example lacks those keys, so without
    // them the stand-in fails on a read of `registry` (round twenty-seven's tap-made-simple,
    // R27-4).
    let readme = "# Setup\n\nCopy `REDACTED-params.yaml` to `params.yaml` and fill it in.\n\n```bash\nexport PARAMS_YAML=params.yaml\n./scripts/set-registry.sh\n./scripts/render.sh\n```\n";
    let set = "#!/usr/bin/env bash\nset -e\nyq e -i '.registry.fqdn = env(REGISTRY_FQDN)' \"$PARAMS_YAML\"\n";
    let render = "#!/usr/bin/env bash\nset -e\nmkdir -p generated\ncp \"$PARAMS_YAML\" generated/\nytt -f templates/build.yaml -f \"generated/$(basename $PARAMS_YAML)\"\n";
    let redacted = "#@data/values\n---\nazure:\n  name: demo\n";
    let build = "#@ load(\"@ytt:data\", \"data\")\n---\nregistry: #@ data.values.registry.fqdn\nname: #@ data.values.azure.name\n";
    let lint = Repo::of(&[
        ("README.md", readme),
        ("scripts/set-registry.sh", set),
        ("scripts/render.sh", render),
        ("REDACTED-params.yaml", redacted),
        ("templates/build.yaml", build),
    ])
    .lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let failed: Vec<_> = lint
        .of("template-error")
        .into_iter()
        .filter(|d| d["severity"] != "info")
        .collect();
    assert!(failed.is_empty(), "{lint}");
}
