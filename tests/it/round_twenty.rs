//! Round twenty's first contact, each construct on a minimal repository written for the test:
//! an App Accelerator whose `type: YTT` transform renders a file that a script shipped with it
//! renders again in the generated project (R20-1); a text template named `.yaml` in a folder
//! nothing says how to run (R20-2).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// Options with defaults, and one file sent through the accelerator's own ytt.
const ACCELERATOR: &str = "accelerator:\n  displayName: Config generator\n  options:\n  - name: useList\n    dataType: boolean\n    defaultValue: false\n  - name: hostName\n    defaultValue: demo.example.org\nengine:\n  chain:\n  - merge:\n    - include: [\"**\"]\n      exclude: [\"conf/settings.yaml\"]\n    - include: [\"conf/settings.yaml\"]\n      chain:\n      - type: YTT\n";

/// The template: its values are the accelerator's options; it declares none.
const SETTINGS: &str = "#@ load(\"@ytt:data\", \"data\")\n---\n#@ if data.values.useList:\nhosts: [a, b]\n#@ else:\nhost: #@ data.values.hostName\n#@ end\n";

/// The generated project's script: it reads the accelerator's output.
const SCRIPT: &str = "#!/bin/sh\nytt -f settings.yaml --output json > settings.json\n";

#[test]
fn a_file_the_accelerator_renders_with_ytt_is_no_certain_error_for_the_project_s_script() {
    let files = [
        ("accelerator.yaml", ACCELERATOR),
        ("conf/settings.yaml", SETTINGS),
        ("conf/make-json.sh", SCRIPT),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    let notes = lint.of("needs-input");
    let note = notes
        .iter()
        .find(|n| str_of(n, "message").contains("YTT transform at accelerator.yaml:"))
        .unwrap_or_else(|| panic!("no note naming the transform: {lint}"));
    let message = str_of(note, "message");
    assert!(message.contains("conf/settings.yaml"), "{message}");
    assert!(message.contains("struct has no .useList"), "{message}");
    assert_eq!(str_of(note, "severity"), "info", "{lint}");

    // The same files without the accelerator: the script's command fails for certain.
    let lint = Repo::of(&files[1..]).lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "error", "{lint}");
}

#[test]
fn a_syntax_error_in_a_file_the_accelerator_renders_stays() {
    // The accelerator's own ytt meets a broken template too: text findings are kept.
    let broken = "#@ load(\"@ytt:data\", \"data\")\n---\nhost: #@ data.values.hostName +\n";
    let files = [
        ("accelerator.yaml", ACCELERATOR),
        ("conf/settings.yaml", broken),
        ("conf/make-json.sh", SCRIPT),
    ];
    let lint = Repo::of(&files).lint();
    assert!(!lint.errors().is_empty(), "{lint}");
}

/// A text template named `.yaml`: `(@ … @)` directives at its top level are not YAML.
const TEXT_TEMPLATE: &str = "(@ load(\"@ytt:data\", \"data\") @)\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nroutes:\n(@ for r in data.values.routes: @)\n#@overlay/append\n- (@= r @)\n(@ end @)\n";

const ROUTES: &str = "#@data/values\n---\nroutes: [/api, /health]\n";

#[test]
fn a_text_template_named_yaml_is_no_certain_syntax_error_of_an_inferred_root() {
    // R20-2: nothing says how the folder runs; its file holds ytt's text-template directives,
    // which a command marks `type=text-template`. A note, not an error.
    let files = [
        ("gen/extra-data.yaml", ROUTES),
        ("gen/extra-overlay-template.yaml", TEXT_TEMPLATE),
    ];
    let lint = Repo::of(&files).lint();
    let syntax = lint.of("yaml-syntax");
    assert_eq!(syntax.len(), 1, "{lint}");
    assert_eq!(str_of(syntax[0], "severity"), "info", "{lint}");
    // A script that reads the file as YAML, for certain: ytt fails there, an error.
    let script = "#!/bin/sh\ncd \"$(dirname \"$0\")\"\nytt -f extra-data.yaml -f extra-overlay-template.yaml\n";
    let lint = Repo::of(&[files[0], files[1], ("gen/build.sh", script)]).lint();
    let syntax = lint.of("yaml-syntax");
    assert_eq!(syntax.len(), 1, "{lint}");
    assert_eq!(str_of(syntax[0], "severity"), "error", "{lint}");
}
