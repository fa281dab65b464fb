//! Constructs of round thirteen's first contact (issue 39, docs/precision.md "Round
//! thirteen") about tools that render ytt with inputs of their own, each as a general rule on
//! a minimal repository written for the test.

use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// A kpt package whose function renders the ytt held in a wrapper object's `template:` field
/// (the function prepends the loads it needs), and the function's configuration.
const KPT: &[(&str, &str)] = &[
    (
        "net/Kptfile",
        "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: net\npipeline:\n  mutators:\n    - image: registry.example.com/fn/render-ytt:v1\n      configPath: fn-config.yaml\n",
    ),
    (
        "net/fn-config.yaml",
        "apiVersion: fn.example.com/v1\nkind: RenderConfig\nmetadata:\n  name: render\ntemplate: gateway\n",
    ),
    (
        "net/gateway/template.yaml",
        "apiVersion: fn.example.com/v1\nkind: YttTemplate\nmetadata:\n  name: gateway\ntemplate:\n  #@ g = data.values.gateway\n  replicas: #@ g.replicas * 2\n  #@ if g.tls:\n  tls: #@ struct.encode({\"on\": True})\n  #@ end\n  zone: #@ zonee\n",
    ),
];

/// The findings whose message starts with `text`.
fn starting<'a>(lint: &'a Lint, text: &str) -> Vec<&'a Value> {
    lint.diagnostics()
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").starts_with(text))
        .collect()
}

#[test]
fn a_kpt_function_pipeline_gives_the_ytt_modules_it_loads() {
    // R13A-3: `data` and `struct` are loaded by the function, which the linter cannot see: each
    // name is a note naming kpt, once per file; a name no module has stays an error.
    let lint = Repo::of(KPT).lint();
    for name in ["data", "struct"] {
        let found = starting(&lint, &format!("undefined: {name}"));
        assert_eq!(found.len(), 1, "{name}: {lint}");
        assert_eq!(found[0]["severity"], "info", "{lint}");
        let said = found[0]["certainty"]["assumptions"].to_string();
        assert!(
            said.contains("kpt renders these files (net/Kptfile)"),
            "{said}"
        );
    }
    let zone = starting(&lint, "undefined: zonee");
    assert_eq!(zone.len(), 1, "{lint}");
    assert_eq!(zone[0]["severity"], "error", "{lint}");
    assert_eq!(lint.code, 1);

    // Without the pipeline (a Kptfile that runs no function), nothing renders the files but
    // ytt: the unloaded modules are errors as before.
    let mut files = KPT.to_vec();
    files[0].1 = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: net\ninfo:\n  description: plain package\n";
    let lint = Repo::of(&files).lint();
    let data = starting(&lint, "undefined: data");
    assert_eq!(data.len(), 1, "{lint}");
    assert_eq!(data[0]["severity"], "error", "{lint}");
}
