//! Constructs of round eleven's first contact (researcher B, issue 39, docs/precision.md)
//! that the linter misread, each as a general rule on a minimal repository written for the
//! test.

use crate::util::repo::Repo;
use serde_json::Value;

/// An App that fetches its template inline and gives its data values in its ytt step, with
/// the step's options `OPTIONS` and a values line `VALUE`.
const APP: &str = "apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: web\n\
spec:\n  serviceAccountName: default\n  fetch:\n  - inline:\n      paths:\n        cm.yaml: |\n          \
#@ load(\"@ytt:data\", \"data\")\n          ---\n          kind: ConfigMap\n          \
host: #@ data.values.host\n  template:\n  - ytt:\nOPTIONS      inline:\n        paths:\n          \
values.yaml: |\n            #@data/values\n            ---\n            host: web.example.com\n            \
# made with: openssl rand -hex 16\n            VALUE\n  deploy:\n  - kapp: {}\n";

fn app(options: &str, value: &str) -> String {
    APP.replace("OPTIONS", options).replace("VALUE", value)
}

#[test]
fn a_ytt_step_s_options_apply_to_its_inline_files() {
    // FE11-B2: kapp-controller passes `ignoreUnknownComments: true` as
    // `--ignore-unknown-comments` for every file of the step, the inline ones too.
    let text = app("      ignoreUnknownComments: true\n", "token: abc");
    let lint = Repo::of(&[("app.yaml", text.as_str())]).lint();
    assert!(lint.of("unknown-comment").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");

    // Without the option, ytt rejects the comment: a certain error of the step.
    let text = app("", "token: abc");
    let lint = Repo::of(&[("app.yaml", text.as_str())]).lint();
    let found = lint.of("unknown-comment");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert_eq!(lint.code, 1);

    // `strict: true` is `--strict`: an ambiguous `yes` fails the step, and only with it.
    let options = "      ignoreUnknownComments: true\n      strict: true\n";
    let text = app(options, "debug: yes");
    let lint = Repo::of(&[("app.yaml", text.as_str())]).lint();
    let strict: Vec<&Value> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains("ambig"))
        .collect();
    assert_eq!(strict.len(), 1, "{lint}");
    assert_eq!(strict[0]["severity"], "error", "{lint}");
    let text = app("      ignoreUnknownComments: true\n", "debug: yes");
    let lint = Repo::of(&[("app.yaml", text.as_str())]).lint();
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_step_that_ignores_comments_makes_the_repository_lenient_for_strings_nobody_names() {
    // The README's rule for a Secret's values string nothing names: where the repository
    // runs ytt with `--ignore-unknown-comments` anywhere, here an App's step that gives no
    // root, its reader may well do so too.
    let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: extra\nstringData:\n  \
        values.yaml: |\n    #@data/values\n    ---\n    # the user's own key\n    key: x\n";
    let text = app("      ignoreUnknownComments: true\n", "token: abc");
    let lint = Repo::of(&[("app.yaml", text.as_str()), ("secret.yaml", secret)]).lint();
    assert!(lint.of("unknown-comment").is_empty(), "{lint}");
    let text = app("", "token: abc");
    let lint = Repo::of(&[("app.yaml", text.as_str()), ("secret.yaml", secret)]).lint();
    assert_eq!(lint.of("unknown-comment").len(), 2, "{lint}");
}

/// A script that renders a pipeline and pipes it into a filter: `cat`, or `yaml-patch` with
/// the operations files its arguments name. The pipeline file moved to `pipelines/aws/`.
const PIPED: &[(&str, &str)] = &[
    (
        "set.sh",
        "#!/bin/bash\nenv=\"$1\"; shift\nfilter=\"cat\"\nif [ $# -gt 0 ]; then\n  \
         filter=\"yaml-patch\"\n  for f in \"$@\"; do filter+=\" -o $f\"; done\nfi\n\
         ytt -f pipelines/deploy.yml -f values-$env.yml | $filter > out.yml\n\
         ytt -f pipelines/aws/deploy.yml -f values-$env.yml | yaml-patch -o ops/extra.yml\n",
    ),
    ("README.md", "# pipelines\n\n```\n./set.sh dev\n```\n"),
    (
        "pipelines/aws/deploy.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\njobs:\n- name: #@ data.values.env\n",
    ),
    (
        "ops/extra.yml",
        "- op: add\n  path: /jobs/-\n  value: {name: x}\n",
    ),
    ("values-dev.yml", "#@data/values\n---\nenv: dev\n"),
];

#[test]
fn a_tool_a_pipe_feeds_from_ytt_makes_none_of_its_inputs() {
    // LR11-B1: `| yaml-patch -o $f` writes standard output; its `-o` reads operations. The
    // missing pipeline file is the command's failure, reported at the command (the README's
    // line that runs the script), not skipped as made at run time by `yaml-patch`.
    let lint = Repo::of(PIPED).lint();
    let missing = lint.of("input-missing");
    assert!(
        missing.iter().any(|d| d["message"]
            .as_str()
            .unwrap_or("")
            .contains("pipelines/deploy.yml")),
        "{lint}"
    );
    // With `rules: {input-missing: error}` the script's own command is a certain error.
    let mut files = PIPED.to_vec();
    files.retain(|(p, _)| *p != "README.md");
    files.push((".yttlint.yaml", "rules:\n  input-missing: error\n"));
    let lint = Repo::of(&files).lint();
    let missing = lint.of("input-missing");
    assert!(
        missing
            .iter()
            .any(|d| d["severity"] == "error" && d["file"] == "set.sh" && d["line"] == 8),
        "{lint}"
    );
    assert_eq!(lint.code, 1, "{lint}");
    // The command whose pipeline file exists renders.
    assert!(
        !missing.iter().any(|d| d["message"]
            .as_str()
            .unwrap_or("")
            .contains("aws/deploy.yml")),
        "{lint}"
    );
}

/// A script whose values directory is its second argument, `vars-$code/`; the repository
/// holds one such directory, whose values carry a plain `#` comment.
const PER_FOUNDATION: &[(&str, &str)] = &[
    (
        "set.sh",
        "#!/bin/bash\ntarget=\"$1\"; code=\"$2\"\nfly -t \"$target\" set-pipeline -p p \\\n  \
         -c <(ytt -f pipeline.yml -f vars-$code/values.yml)\n",
    ),
    ("README.md", "# p\n\nRun `./set.sh my-target lab`.\n"),
    (
        "pipeline.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\njobs: #@ data.values.jobs\n",
    ),
    (
        "vars-lab/values.yml",
        "#@data/values\n---\njobs:\n# build\n- name: build\n",
    ),
];

#[test]
fn a_value_in_a_first_directory_that_one_path_matches_is_bound_with_an_assumption() {
    // LR11-B2: `$code` is `lab`, the one `vars-*/values.yml`: ytt rejects the comment. The
    // binding is the linter's: a warning naming it.
    let lint = Repo::of(PER_FOUNDATION).lint();
    let found = lint.of("unknown-comment");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    let assumed = found[0]["certainty"]["assumptions"].to_string();
    assert!(
        assumed.contains("bound-argument") && assumed.contains("vars-lab/values.yml"),
        "{lint}"
    );
    // Two candidate directories: which one is the user's to say; nothing is bound.
    let mut files = PER_FOUNDATION.to_vec();
    files.push(("vars-prod/values.yml", "#@data/values\n---\njobs: []\n"));
    let lint = Repo::of(&files).lint();
    assert!(
        !lint.report.to_string().contains("bound-argument"),
        "{lint}"
    );
}
