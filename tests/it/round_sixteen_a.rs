//! Round sixteen researcher A's left-over constructs (issue 39; docs/precision.md "Round
//! sixteen, researcher A's left-over constructs"), each as a general rule on a minimal
//! repository written for the test.

use serde_json::Value;

use crate::util::json::assumption_kinds;
use crate::util::repo::{Lint, Repo};

/// The user's settings, committed as an example under another name: the domain and the
/// registry's credentials.
const SETTINGS_TEMPLATE: &str = "#@data/values\n---\nsite:\n  domain: '' #! the domain the gateway serves\n  registry-login:\n    user: ''\n    password: ''\n";

/// A gateway that reads `site.registry.user`, which the example spells `registry-login`.
const GATEWAY: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gateway\ndata:\n  host: #@ \"gw.\" + data.values.site.domain\n  login: #@ data.values.site.registry.user\n";

/// The script that renders the gateway with the user's settings.
const DEPLOY: &str = "#!/usr/bin/env bash\nset -euo pipefail\nmkdir -p out\nytt -f config/gateway.yaml -f config/settings.yaml --ignore-unknown-comments > out/gateway.yaml\n";

const IGNORE: &str = "config/settings.yaml\nout/\n";

/// The gateway's finding that the example explains: at the line reading the key the example
/// lacks, a warning that names the example.
fn example_findings(lint: &Lint) -> Vec<&Value> {
    lint.of("template-error")
        .into_iter()
        .filter(|d| {
            d["file"] == "config/gateway.yaml"
                && d["line"] == 9
                && d["severity"] == "warning"
                && assumption_kinds(d).contains(&"example-values")
        })
        .collect()
}

#[test]
fn a_page_s_rename_makes_the_users_file_from_the_template() {
    // LR16A-1: "Rename the `A` file to `B`" says the reader's B is A under another name, as
    // "copy `A` to `B`" does; the script reads the gitignored B. Before, the command was
    // skipped ("ignored by .gitignore: something makes it at run time") and the key the
    // template lacks went unreported.
    for step in [
        "- Rename the `config/settings.yaml.template` file to `config/settings.yaml` and fill in your site's values",
        "1. Move `config/settings.yaml.template` to `config/settings.yaml`, then edit it.",
        "Run `mv config/settings.yaml.template config/settings.yaml` first.",
    ] {
        let readme = format!("# Gateway\n\n## Install\n{step}\n- Run `./deploy.sh`\n");
        let lint = Repo::of(&[
            ("README.md", readme.as_str()),
            (".gitignore", IGNORE),
            ("deploy.sh", DEPLOY),
            ("config/settings.yaml.template", SETTINGS_TEMPLATE),
            ("config/gateway.yaml", GATEWAY),
        ]).lint();
        let found = example_findings(&lint);
        assert_eq!(found.len(), 1, "{step}: {}", lint.summary());
        let said = found[0]["certainty"]["assumptions"].to_string();
        assert!(said.contains("config/settings.yaml.template"), "{said}");
        assert!(lint.errors().is_empty(), "{step}: {}", lint.summary());
    }
}

#[test]
fn an_example_beside_a_gitignored_input_stands_in_for_it() {
    // The general rule: with no page saying so, a committed `P.template` (`.example`,
    // `.sample`, `.tmpl`) beside the gitignored `P` is the user's starting point.
    for suffix in [".template", ".example", ".sample", ".tmpl"] {
        let example = format!("config/settings.yaml{suffix}");
        let lint = Repo::of(&[
            ("README.md", "# Gateway\n\nRun `./deploy.sh`.\n"),
            (".gitignore", IGNORE),
            ("deploy.sh", DEPLOY),
            (example.as_str(), SETTINGS_TEMPLATE),
            ("config/gateway.yaml", GATEWAY),
        ])
        .lint();
        let found = example_findings(&lint);
        assert_eq!(found.len(), 1, "{suffix}: {}", lint.summary());
        let said = found[0]["certainty"]["assumptions"].to_string();
        assert!(said.contains(&example), "{said}");
        assert!(lint.errors().is_empty(), "{suffix}: {}", lint.summary());
    }
    // No example beside it: the command stays skipped, with nothing drawn from a guess.
    let lint = Repo::of(&[
        ("README.md", "# Gateway\n\nRun `./deploy.sh`.\n"),
        (".gitignore", IGNORE),
        ("deploy.sh", DEPLOY),
        ("config/gateway.yaml", GATEWAY),
    ])
    .lint();
    assert!(example_findings(&lint).is_empty(), "{}", lint.summary());
    assert!(lint.errors().is_empty(), "{}", lint.summary());
}

/// An App Accelerator that copies `deploy/` into the project it generates and replaces the
/// queue's placeholder with the user's answer.
const ACCELERATOR: &str = "accelerator:\n  displayName: Queue worker\n  options:\n  - name: queueName\n    inputType: text\n    label: The queue the worker drains\nengine:\n  type: Merge\n  sources:\n  - type: Chain\n    transformations:\n    - type: Include\n      patterns: [ 'deploy/**' ]\n    - type: ReplaceText\n      substitutions:\n      - text: QUEUE_PLACEHOLDER\n        with: \"#queueName\"\n";

/// The README's command, for the root of the generated project.
const ACC_README: &str = "# Queue worker accelerator\n\nRegister it with `tanzu acc create queue-worker --git-repository <this repository>`.\nIn the generated project, from its root:\n\n```\nytt -f app.yaml -f values.yaml | kapp deploy -a queue-worker -f - -y\n```\n";

/// The generated project's App: it fetches the worker's repository (0/) and the queue's
/// settings, a file named after the queue (1/), and renders the worker with them.
const ACC_APP: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: #@ \"worker-\" + data.values.queue\nspec:\n  serviceAccountName: default\n  fetch:\n  - git:\n      url: https://example.invalid/queue/worker\n      ref: origin/main\n  - http:\n      url: #@ \"https://example.invalid/queues/{}\".format(data.values.queue)\n  template:\n  - ytt:\n      paths:\n      - 0/deploy/worker.yaml\n      - #@ \"1/{}\".format(data.values.queue)\n  deploy:\n  - kapp: {}\n";

/// The worker, as the fetched repository holds it: it reads the fetched settings file.
const ACC_WORKER: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:json\", \"json\")\n#@ settings = json.decode(data.read(data.values.queue))\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: worker\ndata:\n  concurrency: #@ str(settings[\"concurrency\"])\n";

const ACC_VALUES: &str = "#@data/values\n---\nqueue: QUEUE_PLACEHOLDER\n";

fn accelerator_files(app: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("accelerator.yaml", ACCELERATOR),
        ("README.md", ACC_README),
        ("deploy/app.yaml", app),
        ("deploy/worker.yaml", ACC_WORKER),
        ("deploy/values.yaml", ACC_VALUES),
    ]
}

#[test]
fn an_accelerators_page_command_runs_in_its_included_folder() {
    // R16A-2: the page's command is the generated project's, whose inputs the repository
    // holds in the folder the accelerator includes; the App's copy of the worker is rendered
    // by kapp-controller with the file it fetches. Before, the layout root `ytt -f deploy`
    // failed at the worker's `data.read` (a false warning) and the page's command was
    // skipped ("app.yaml is not in the repository").
    let lint = Repo::of(&accelerator_files(ACC_APP)).lint();
    let roots = lint.report["roots"].as_array().cloned().unwrap_or_default();
    let page = roots
        .iter()
        .find(|r| {
            r["provenance"]["origin"]
                .as_str()
                .is_some_and(|o| o.starts_with("README.md:"))
        })
        .unwrap_or_else(|| panic!("no root of the page's command: {roots:#?}"));
    let said = page["provenance"]["assumptions"].to_string();
    assert!(
        said.contains("working-directory") && said.contains("accelerator.yaml"),
        "{said}"
    );
    assert!(
        !roots.iter().any(|r| r["path"] == "deploy"),
        "no layout root of the included folder: {roots:#?}"
    );
    assert!(
        lint.diagnostics()
            .iter()
            .all(|d| d["file"] != "deploy/worker.yaml" || d["severity"] == "info"),
        "{}",
        lint.summary()
    );
    assert!(lint.of("template-error").is_empty(), "{}", lint.summary());
    assert!(lint.errors().is_empty(), "{}", lint.summary());

    // What the page's command gets wrong is still found there, a warning that names the
    // accelerator's folder.
    // A string and an integer added: ytt fails whatever the values.
    let wrong: &'static str = Box::leak(
        ACC_APP
            .replace(
                "\"worker-\" + data.values.queue\n",
                "\"worker-\" + data.values.queue + 1\n",
            )
            .into_boxed_str(),
    );
    assert_ne!(wrong, ACC_APP);
    let lint = Repo::of(&accelerator_files(wrong)).lint();
    let found: Vec<&Value> = lint
        .of("template-error")
        .into_iter()
        .filter(|d| d["file"] == "deploy/app.yaml" && d["line"] == 6)
        .collect();
    assert_eq!(found.len(), 1, "{}", lint.summary());
    assert_eq!(found[0]["severity"], "warning", "{:#}", found[0]);
    assert!(
        assumption_kinds(found[0]).contains(&"working-directory"),
        "{:#}",
        found[0]
    );
}
