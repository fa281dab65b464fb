//! The twenty-sixth session's fixes of documented commands the linter misread in rounds
//! thirty-five, thirty-seven and thirty-eight, each on a minimal repository written for the
//! test: a page's line that ends in `\` and a blank, which ends the command and fails it
//! (R37-2); a redirection without a target that swallowed the next line's command (N35-1); a
//! plain line of a page that deploys what ytt renders (R35-3).

use crate::util::repo::Repo;

const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\n";
const VALUES: &str = "#@data/values\n---\nname: demo\n";
const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"ConfigMap\"})\n---\n#@overlay/match missing_ok=True\ndata:\n  extra: \"yes\"\n";

fn escaped_blank_repo(readme: &str) -> Repo {
    Repo::of(&[
        ("config/cm.yaml", TEMPLATE),
        ("config/values.yaml", VALUES),
        ("overlay.yaml", OVERLAY),
        ("README.md", readme),
    ])
}

#[test]
fn a_line_that_ends_in_an_escaped_blank_fails_the_command() {
    let readme = "# Install\n\nRender:\n\n```\nytt -f config/ \\ \n  -f ./overlay.yaml \\\n  -v name=demo2\n```\n";
    let repo = escaped_blank_repo(readme);
    let lint = repo.lint();
    let found = lint.in_file("command-fails", "README.md");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["line"], 6, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    let message = found[0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("does not accept extra arguments ' '"),
        "{message}"
    );
    assert!(message.contains("`-f ./overlay.yaml \\`"), "{message}");
    assert_ne!(lint.code, 0, "{lint}");
    // The lines after it are no inputs of the command.
    let roots = repo.roots();
    assert!(!roots.contains("inputs: config, overlay.yaml"), "{roots}");

    // Continued as meant, the command is read whole and nothing fails.
    let joined = readme.replace("\\ \n", "\\\n");
    let repo = escaped_blank_repo(&joined);
    let lint = repo.lint();
    assert!(lint.of("command-fails").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    repo.assert_lists("scenarios: README.md:6");

    // A plain line of the page outside code, with a prompt, the same way.
    let plain = "# Install\n\n$ ytt -f config/ \\ \n  -f ./overlay.yaml\n";
    let lint = escaped_blank_repo(plain).lint();
    let found = lint.in_file("command-fails", "README.md");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["line"], 3, "{lint}");
}

#[test]
fn a_redirection_without_a_target_does_not_swallow_the_next_command() {
    let values = "clusters:\n  build:\n    name: b\n";
    let cluster = "#@ load(\"@ytt:data\", \"data\")\ncluster:\n  name: #@ data.values.clusters[data.values.profile].name\n";
    let pool = "#@ load(\"@ytt:data\", \"data\")\npool:\n  cluster: #@ data.values.clusters[data.values.profile].name\n";
    let readme = "# Clusters\n\n```\nexport $PROFILE=<profile-name>\nytt -f templates/cluster.yml --data-values-file values/values.yml -v profile=$PROFILE\n\nytt -f templates/pool.yml --data-values-file values/values.yml -v profile=$PROFILE\n```\n";
    let repo = Repo::of(&[
        ("values/values.yml", values),
        ("templates/cluster.yml", cluster),
        ("templates/pool.yml", pool),
        ("README.md", readme),
    ]);
    let roots = repo.roots();
    assert!(roots.contains("README.md:5"), "{roots}");
    assert!(roots.contains("README.md:7"), "{roots}");
    assert!(!roots.contains("inferred from the layout"), "{roots}");
}

#[test]
fn a_plain_line_that_deploys_what_ytt_renders_is_a_command() {
    let secret = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  domain: #@ data.values.app.domain\n";
    let config = "app:\n  domain: example.com\n";
    let readme = "# App\n\nCreate the app:\n\nkapp deploy -a app -f <(ytt -f gitops --data-values-file=config.yaml)\n\nRun ytt to render it, then kapp to deploy.\n";
    let repo = Repo::of(&[
        ("gitops/cm.yaml", secret),
        ("config.yaml", config),
        ("README.md", readme),
    ]);
    repo.assert_lists("scenarios: README.md:5");
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn a_page_s_exports_give_its_data_values_env() {
    let cm = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: registry\ndata:\n  domain: #@ data.values.app.domain\n  user: #@ data.values.app.registry.user\n  host: #@ data.values.app.registry.host\n";
    let config = "app:\n  domain: apps.example.com\n";
    let page = |exports: &str| {
        format!("# App\n\nExport the following vars:\n\n{exports}\nCreate the app:\n\nkapp deploy -a app -f <(ytt -f gitops --data-values-env CFG --data-values-file=config.yaml)\n")
    };
    let lint = Repo::of(&[
        ("gitops/cm.yaml", cm),
        ("config.yaml", config),
        ("README.md", &page("export CFG_app__registry__user=u\n")),
    ])
    .lint();
    // `app.registry.host` is read; neither config.yaml nor the exports give it.
    lint.assert_verdicts("template-error", &[("warning", &["environment-files"])]);
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    let message = lint.of("template-error")[0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(message.contains("host"), "{message}");

    // Exported too, nothing fails.
    let lint = Repo::of(&[
        ("gitops/cm.yaml", cm),
        ("config.yaml", config),
        (
            "README.md",
            &page("export CFG_app__registry__user=u\nexport CFG_app__registry__host=h\n"),
        ),
    ])
    .lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}

#[test]
fn an_earthfile_s_run_of_ytt_is_a_command_of_the_repository() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n#@overlay/match by=overlay.subset({\"kind\": \"ConfigMap\"})\n---\ndata:\n  #@overlay/match missing_ok=True\n  tag: #@ \"v{}\".format(data.values.version)\n";
    let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  a: b\n";
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  a: b\n";
    let earthfile = "VERSION 0.7\nbundle:\n  FROM alpine\n  COPY config ./config\n  COPY hack ./hack\n  RUN ytt --data-value version=2 -f config -f hack/set-tag.yaml > out.yaml\n";
    let repo = |base: &str, earthfile: &str| {
        Repo::of(&[
            ("config/base.yaml", base),
            ("hack/set-tag.yaml", overlay),
            ("Earthfile", earthfile),
        ])
    };
    // The overlay matches nothing in the Secret: ytt fails as the Earthfile runs it.
    let fails = repo(secret, earthfile);
    fails.assert_lists("scenarios: Earthfile:6");
    let lint = fails.lint();
    let errors = lint.in_file("overlay-error", "hack/set-tag.yaml");
    assert_eq!(errors.len(), 1, "{lint}");
    assert_eq!(errors[0]["severity"], "error", "{lint}");
    // The ConfigMap it matches: nothing.
    let lint = repo(cm, earthfile).lint();
    assert!(lint.errors().is_empty(), "{lint}");

    // Copied under another name: the image's paths are not the repository's, nothing is
    // certain about the command.
    let renamed = earthfile.replace("COPY config ./config", "COPY config ./templates");
    let lint = repo(secret, &renamed).lint();
    assert!(lint.errors().is_empty(), "{lint}");
}
