//! Round sixteen researcher A's left-over constructs (issue 39; docs/precision.md "Round
//! sixteen, researcher A's left-over constructs"), each as a general rule on a minimal
//! repository written for the test.

use serde_json::Value;

use crate::util::json::{assumption_kinds, errors, lint_json, of, summary};
use crate::util::TempDir;

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
fn example_findings(report: &Value) -> Vec<&Value> {
    of(report, "template-error")
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
        let dir = TempDir::with_files(&[
            ("README.md", readme.as_str()),
            (".gitignore", IGNORE),
            ("deploy.sh", DEPLOY),
            ("config/settings.yaml.template", SETTINGS_TEMPLATE),
            ("config/gateway.yaml", GATEWAY),
        ]);
        let (_, report) = lint_json(&dir, &[]);
        let found = example_findings(&report);
        assert_eq!(found.len(), 1, "{step}: {}", summary(&report));
        let said = found[0]["certainty"]["assumptions"].to_string();
        assert!(said.contains("config/settings.yaml.template"), "{said}");
        assert!(errors(&report).is_empty(), "{step}: {}", summary(&report));
    }
}

#[test]
fn an_example_beside_a_gitignored_input_stands_in_for_it() {
    // The general rule: with no page saying so, a committed `P.template` (`.example`,
    // `.sample`, `.tmpl`) beside the gitignored `P` is the user's starting point.
    for suffix in [".template", ".example", ".sample", ".tmpl"] {
        let example = format!("config/settings.yaml{suffix}");
        let dir = TempDir::with_files(&[
            ("README.md", "# Gateway\n\nRun `./deploy.sh`.\n"),
            (".gitignore", IGNORE),
            ("deploy.sh", DEPLOY),
            (example.as_str(), SETTINGS_TEMPLATE),
            ("config/gateway.yaml", GATEWAY),
        ]);
        let (_, report) = lint_json(&dir, &[]);
        let found = example_findings(&report);
        assert_eq!(found.len(), 1, "{suffix}: {}", summary(&report));
        let said = found[0]["certainty"]["assumptions"].to_string();
        assert!(said.contains(&example), "{said}");
        assert!(errors(&report).is_empty(), "{suffix}: {}", summary(&report));
    }
    // No example beside it: the command stays skipped, with nothing drawn from a guess.
    let dir = TempDir::with_files(&[
        ("README.md", "# Gateway\n\nRun `./deploy.sh`.\n"),
        (".gitignore", IGNORE),
        ("deploy.sh", DEPLOY),
        ("config/gateway.yaml", GATEWAY),
    ]);
    let (_, report) = lint_json(&dir, &[]);
    assert!(example_findings(&report).is_empty(), "{}", summary(&report));
    assert!(errors(&report).is_empty(), "{}", summary(&report));
}
