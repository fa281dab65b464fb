//! ytt documents embedded as strings (issue 39, round eight): a Secret shipped as
//! `*.yaml.template` whose `stringData.values.yaml` is a `#@data/values` document that an
//! installer passes to ytt at run time. ytt rejects a plain `#8 …` comment in it; the linter
//! says so at the outer file's line. A minimal repro written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;

const SECRET: &str = "apiVersion: v1\nkind: Secret\nmetadata: {name: installer-config}\n\
    stringData:\n  values.yaml: |\n    #@data/values\n    ---\n    #8 Set the profile.\n    \
    profile: full\n";

const INSTALLER: [(&str, &str); 2] = [
    (
        "installer/run.sh",
        "#!/bin/sh\nytt -f \"${INSTALLER_CONFIG}\" -f templates/ | kapp deploy -a p -f- -y\n",
    ),
    (
        "installer/templates/t.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\n\
         metadata:\n  name: profile\ndata:\n  profile: #@ data.values.profile\n",
    ),
];

#[test]
fn a_plain_comment_in_an_embedded_values_document_is_a_warning_at_its_line() {
    let mut files = INSTALLER.to_vec();
    files.push(("config/installer-config.yaml.template", SECRET));
    let lint = Repo::of(&files).lint();
    assert_eq!(lint.code, 0, "{lint}");
    let found: Vec<_> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["file"] == "config/installer-config.yaml.template")
        .collect();
    assert_eq!(found.len(), 1, "{lint}");
    let d = found[0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["line"], 8);
    assert_eq!(d["column"], 5);
    assert!(
        str_of(d, "message").contains("Expected ytt-formatted string"),
        "{d:#}"
    );
    let assumed = &d["certainty"]["assumptions"][0];
    assert!(
        str_of(assumed, "message").contains("the string `values.yaml`"),
        "{d:#}"
    );
}

#[test]
fn the_same_document_in_a_yaml_file_and_a_sound_one_are_judged_alike() {
    let mut files = INSTALLER.to_vec();
    files.push(("config/installer-config.yaml", SECRET));
    let sound = SECRET.replace("#8 Set", "#! Set");
    files.push(("config/other.yml.tpl", sound.as_str()));
    let lint = Repo::of(&files).lint();
    let places: Vec<String> = lint
        .diagnostics()
        .iter()
        .filter(|d| str_of(d, "file").starts_with("config/"))
        .map(|d| format!("{}:{}", str_of(d, "file"), d["line"]))
        .collect();
    assert_eq!(places, ["config/installer-config.yaml:8"], "{lint}");
}
