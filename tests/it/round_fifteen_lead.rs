//! Round fifteen's findings of rendered objects that rested on more than they said (issue
//! 39, the fifteenth session; docs/precision.md "Round fifteen"), each as a general rule on
//! a minimal repository written for the test: two objects named literally are one set only
//! because the command gives their files together (R15B-3), a command that writes each
//! file's output to a file of its own does not hand its directories over as one set
//! (R15B-4), and a template line that reads a value given at run time renders the linter's
//! stand-in for it (R15B-5).

use crate::util::json::{assumption_kinds, str_of};
use crate::util::repo::Repo;

/// A Deployment named `blog` in the namespace the values give, with `image`.
fn deployment(image: &str) -> String {
    format!(
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: blog\n  namespace: #@ data.values.NS\nspec:\n  selector:\n    matchLabels: {{app: blog}}\n  template:\n    metadata:\n      labels: {{app: blog}}\n    spec:\n      containers:\n      - name: blog\n        image: {image}\n"
    )
}

const SCHEMA: &str = "#@data/values-schema\n---\nNS: workshop\n";

#[test]
fn a_command_that_writes_each_file_apart_does_not_apply_two_directories_as_one_set() {
    // R15B-4: one directory of manifests per step of a workshop, rendered with
    // `--output-files`; the learner applies one step's directory at a time.
    let render = "#!/bin/bash\n# kubectl apply -f exercises/step-1/, later exercises/step-2/\nytt -f templates -v NS=$SESSION_NAMESPACE --output-files exercises\n";
    let (one, two) = (
        deployment("registry.example/blog:1"),
        deployment("registry.example/blog:2"),
    );
    let files = [
        ("workshop/setup.d/render.sh", render),
        ("templates/schema.yaml", SCHEMA),
        ("templates/step-1/deployment.yaml", one.as_str()),
        ("templates/step-2/deployment.yaml", two.as_str()),
    ];
    let lint = Repo::of(&files).lint();
    lint.assert_verdicts("duplicate-object", &[("info", &["split-output"])]);
    assert_eq!(lint.code, 0, "{lint}");
    let d = lint.of("duplicate-object")[0];
    let assumed = crate::util::json::assumption_text(d);
    assert!(
        assumed.contains("`templates/step-1/`") && assumed.contains("`templates/step-2/`"),
        "{d:#}"
    );

    // The same command writing both into one directory: still two output files, which
    // nothing the script runs deploys as one (R17B-1): a note.
    let files = [
        ("workshop/setup.d/render.sh", render),
        ("templates/schema.yaml", SCHEMA),
        ("templates/step-1/deployment.yaml", one.as_str()),
        ("templates/step-1/deployment-v2.yaml", two.as_str()),
    ];
    let lint = Repo::of(&files).lint();
    lint.assert_verdicts("duplicate-object", &[("info", &["split-output"])]);
    assert_eq!(lint.code, 0, "{lint}");

    // The script applies that step's directory after rendering: one set there, an error.
    let applied = format!("{render}kubectl apply -f exercises/step-1/\n");
    let mut files = files.to_vec();
    files[0].1 = applied.as_str();
    let lint = Repo::of(&files).lint();
    lint.assert_verdicts("duplicate-object", &[("error", &[])]);
    assert_eq!(lint.code, 1, "{lint}");

    // Without `--output-files` the command's output is one stream: an error.
    let piped =
        "#!/bin/bash\nytt -f templates -v NS=$SESSION_NAMESPACE | kapp deploy -a blog -f- --yes\n";
    let files = [
        ("workshop/setup.d/render.sh", piped),
        ("templates/schema.yaml", SCHEMA),
        ("templates/step-1/deployment.yaml", one.as_str()),
        ("templates/step-2/deployment.yaml", two.as_str()),
    ];
    let lint = Repo::of(&files).lint();
    lint.assert_verdicts("duplicate-object", &[("error", &[])]);
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn two_objects_named_literally_are_one_set_only_under_the_command_that_gives_both() {
    // R15B-3: nothing in the repository runs `k8s`; the directory holds a template and, in
    // `k8s/rendered/`, a plain copy of what a pipeline rendered from it. The inferred
    // command gave both; no command of the repository does. Since round thirty-six's R36-3,
    // the plain copy of the template's own object is taken for its committed output and
    // checked on its own (`discover::rendered_output`): no duplicate at all.
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata:\n  image: #@ data.values.image\n";
    let copy = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\ndata:\n  image: example/shop:1\n";
    let schema = "#@data/values-schema\n---\nimage: example/shop:latest\n";
    let files = [
        ("k8s/config-template.yaml", template),
        ("k8s/schema.yaml", schema),
        ("k8s/rendered/config.yaml", copy),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("duplicate-object").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");

    // A script that gives both files: the command is the repository's, an error.
    let lint = Repo::of(&files)
        .file(
            "deploy.sh",
            "#!/bin/bash\nytt -f k8s/config-template.yaml -f k8s/schema.yaml -f k8s/rendered/config.yaml | kapp deploy -a shop -f- --yes\n",
        )
        .lint();
    lint.assert_verdicts("duplicate-object", &[("error", &[])]);
    assert_eq!(lint.code, 1, "{lint}");
}

#[test]
fn a_line_that_reads_a_value_given_at_run_time_renders_the_stand_in() {
    // R15B-5: the script gives the password, base64-encoded, at run time; the schema's
    // default is not base64. What the Secret's line renders with the default is not what
    // the command gives.
    let secret = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: #@ data.values.password\n  user: #@ data.values.user\n";
    let schema = "#@data/values-schema\n---\npassword: x\nuser: not base64\n";
    let deploy = "#!/bin/bash\nPW_B64=$(echo \"$DB_PASSWORD\" | base64)\nytt -f k8s/secret.yaml -f k8s/schema.yaml -v password=$PW_B64 | kubectl apply -f -\n";
    let files = [
        ("deploy.sh", deploy),
        ("k8s/secret.yaml", secret),
        ("k8s/schema.yaml", schema),
    ];
    let lint = Repo::of(&files).lint();
    let found = lint.of("k8s-schema");
    assert_eq!(found.len(), 2, "{lint}");
    let at = |line: u64| {
        found
            .iter()
            .find(|d| d["line"] == line)
            .copied()
            .unwrap_or_else(|| panic!("nothing at line {line}: {lint}"))
    };
    // The password the command gives at run time: a note naming that value, which says
    // nothing of the value given.
    let password = at(8);
    assert_eq!(str_of(password, "severity"), "info", "{password:#}");
    assert!(
        assumption_kinds(password)
            .iter()
            .all(|k| *k == "runtime-values"),
        "{password:#}"
    );
    assert!(
        crate::util::json::assumption_text(password).contains("this line reads `password`"),
        "{password:#}"
    );
    // The user the schema's default sets, which the command does not give: an error.
    let user = at(9);
    assert_eq!(str_of(user, "severity"), "error", "{user:#}");
    assert!(assumption_kinds(user).is_empty(), "{user:#}");
    assert_eq!(lint.code, 1, "{lint}");
}
