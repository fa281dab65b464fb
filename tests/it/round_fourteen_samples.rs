//! Sample text of editor support (issue 39, round thirteen's R13A-4): in a VS Code extension
//! that contributes a grammar, or in a tree-sitter grammar, the ytt files are there for the
//! editor's tests to highlight, fold and parse. Nothing renders them, so what the linter finds
//! in them is a note that names the assumption (`sample-text`), unless a command of the
//! repository renders the file. Each case is a minimal repository written for the test.

use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// A VS Code extension for a YAML dialect: its manifest, its grammar, a test that opens the
/// samples, and two samples (a loop over a name nothing defines with an unused load; an
/// overlay annotation that reads `overlay` without loading it).
const EXTENSION: &[(&str, &str)] = &[
    (
        "package.json",
        r#"{
  "name": "kite-yaml",
  "version": "0.2.0",
  "engines": {"vscode": "^1.85.0"},
  "main": "./main.js",
  "contributes": {
    "languages": [{"id": "kite", "extensions": [".kite.yaml"]}],
    "grammars": [
      {"scopeName": "kite.injection", "path": "./syntaxes/kite.json", "injectTo": ["source.yaml"]}
    ]
  },
  "scripts": {"test": "node ./test/run.js"}
}
"#,
    ),
    ("syntaxes/kite.json", "{\"scopeName\": \"kite.injection\"}\n"),
    ("main.js", "exports.activate = function () {};\n"),
    (
        "test/suite/folding.test.js",
        "const open = (name) => vscode.workspace.openTextDocument(fixture(name));\n\
         suite('folding', () => { test('loops', async () => { await open('loops.yaml'); }); });\n",
    ),
    (
        "test/fixtures/loops.yaml",
        "#@ load(\"@ytt:data\", \"data\")\n---\nteams:\n#@ for t in crew:\n- name: #@ t.name\n#@ end\n",
    ),
    (
        "test/fixtures/patch.yaml",
        "#@overlay/match by=overlay.subset({\"kind\": \"Service\"})\n---\nspec:\n  type: ClusterIP\n",
    ),
];

/// A tree-sitter grammar for ytt's annotations: `grammar.js`, what `tree-sitter generate`
/// wrote, and a highlighting sample that uses a `lambda` with `return` (to exercise the
/// grammar) and an annotation nobody defines.
const GRAMMAR: &[(&str, &str)] = &[
    (
        "grammar.js",
        "module.exports = grammar({ name: 'kite_annotation', rules: { source: $ => /.*/ } });\n",
    ),
    ("src/grammar.json", "{\"name\": \"kite_annotation\"}\n"),
    ("src/parser.c", "/* generated */\n"),
    (
        "test/files/highlight.yaml",
        "#@acme/colour hue=3\n---\nports:\n#@overlay/replace via=lambda a, b: return a\n- 80\n",
    ),
];

/// The ids of the assumptions a finding names.
fn assumed(d: &Value) -> Vec<String> {
    d["certainty"]["assumptions"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| x["kind"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Every finding of `file` is a note that names the sample assumption and `why`, with no fix;
/// returns how many there are.
fn all_notes(lint: &Lint, file: &str, why: &str) -> usize {
    let found = lint.all_in(file);
    for d in &found {
        assert_eq!(d["severity"], "info", "{d:#}");
        assert!(assumed(d).contains(&"sample-text".to_string()), "{d:#}");
        assert!(
            d["certainty"]["assumptions"].to_string().contains(why),
            "{d:#}"
        );
        assert!(d["fix"].is_null(), "{d:#}");
    }
    found.len()
}

#[test]
fn a_vscode_extension_s_samples_are_notes() {
    let lint = Repo::of(EXTENSION).lint();
    let why = "the VS Code extension of package.json (`engines.vscode`, `contributes.grammars`)";
    let loops = all_notes(&lint, "test/fixtures/loops.yaml", why);
    let patch = all_notes(&lint, "test/fixtures/patch.yaml", why);
    // What the samples hold is still found: the undefined names and the unused load.
    let messages = lint.report["diagnostics"].to_string();
    for said in [
        "undefined: crew",
        "data is loaded but never used",
        "undefined: overlay",
    ] {
        assert!(messages.contains(said), "{said}: {lint}");
    }
    assert!(loops >= 2 && patch >= 1, "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_sample_a_command_of_the_repository_renders_keeps_its_findings() {
    // A script of the extension gives one sample to ytt: its undefined name fails that
    // command, an error. The other sample stays a note (a left-over file beside a rendered
    // one would otherwise be a warning).
    let mut files = EXTENSION.to_vec();
    files.push((
        "scripts/render-samples.sh",
        "#!/bin/sh\nset -e\nytt -f test/fixtures/loops.yaml > /tmp/out.yaml\n",
    ));
    let lint = Repo::of(&files).lint();
    let crew: Vec<&Value> = lint
        .all_in("test/fixtures/loops.yaml")
        .into_iter()
        .filter(|d| d["message"] == "undefined: crew")
        .collect();
    assert_eq!(crew.len(), 1, "{lint}");
    assert_eq!(crew[0]["severity"], "error", "{lint}");
    assert!(
        !assumed(crew[0]).contains(&"sample-text".to_string()),
        "{lint}"
    );
    let why = "the VS Code extension of package.json";
    assert!(all_notes(&lint, "test/fixtures/patch.yaml", why) >= 1);
    assert_eq!(lint.code, 1);
}

#[test]
fn the_extension_s_own_scripts_are_no_samples() {
    // A script of the extension names an input that does not exist: the script is the
    // project's own, in the extension's directory but no sample, and its finding is said as
    // always.
    let mut files = EXTENSION.to_vec();
    files.push((
        "scripts/render-samples.sh",
        "#!/bin/sh\nset -e\nytt -f test/fixtures/loops.yaml -f test/samples/loops.yaml\n",
    ));
    let lint = Repo::of(&files).lint();
    let gone = lint.all_in("scripts/render-samples.sh");
    assert_eq!(gone.len(), 1, "{lint}");
    assert_eq!(gone[0]["rule"], "input-missing", "{lint}");
    assert_eq!(gone[0]["severity"], "warning", "{lint}");
    assert!(
        !assumed(gone[0]).contains(&"sample-text".to_string()),
        "{lint}"
    );
    assert_eq!(lint.code, 1);
}

#[test]
fn a_tree_sitter_grammar_s_samples_are_notes() {
    let lint = Repo::of(GRAMMAR).lint();
    let why = "the tree-sitter grammar of grammar.js (src/grammar.json)";
    let n = all_notes(&lint, "test/files/highlight.yaml", why);
    let messages = lint.report["diagnostics"].to_string();
    assert!(messages.contains("got return"), "{lint}");
    assert!(messages.contains("@acme/colour"), "{lint}");
    assert!(n >= 2, "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn without_the_editor_s_manifest_the_findings_stay() {
    // A `grammar.js` with nothing tree-sitter wrote beside it, and a `package.json` of a web
    // application: nothing says the YAML is sample text.
    let mut files: Vec<(&str, &str)> = GRAMMAR
        .iter()
        .copied()
        .filter(|(p, _)| !p.starts_with("src/"))
        .collect();
    files.push((
        "package.json",
        "{\"name\": \"site\", \"engines\": {\"node\": \">=20\"}, \"contributes\": {\"grammars\": []}}\n",
    ));
    let lint = Repo::of(&files).lint();
    let found = lint.all_in("test/files/highlight.yaml");
    let syntax: Vec<&&Value> = found
        .iter()
        .filter(|d| d["message"].as_str().unwrap_or("").contains("got return"))
        .collect();
    assert_eq!(syntax.len(), 1, "{lint}");
    assert_eq!(syntax[0]["severity"], "error", "{lint}");
    assert!(found
        .iter()
        .all(|d| !assumed(d).contains(&"sample-text".to_string())));
    assert_eq!(lint.code, 1);
}

#[test]
fn only_the_editor_s_directory_holds_samples() {
    // A repository with its deployment at the top and its editor extension in
    // `editors/vscode`: the samples there are notes, the deployment's error stays.
    let mut files: Vec<(String, &str)> = EXTENSION
        .iter()
        .map(|(p, t)| (format!("editors/vscode/{p}"), *t))
        .collect();
    files.push((
        "deploy/app.yaml".to_string(),
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: app\ndata:\n  owner: #@ data.values.owner\n  zone: #@ zne\n",
    ));
    files.push((
        "deploy/values.yaml".to_string(),
        "#@data/values\n---\nowner: ops\n",
    ));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let lint = Repo::of(&files).lint();
    let why = "the VS Code extension of editors/vscode/package.json";
    assert!(all_notes(&lint, "editors/vscode/test/fixtures/loops.yaml", why) >= 2);
    let zone = lint.all_in("deploy/app.yaml");
    assert_eq!(zone.len(), 1, "{lint}");
    assert_eq!(zone[0]["message"], "undefined: zne", "{lint}");
    assert_eq!(zone[0]["severity"], "error", "{lint}");
    assert_eq!(lint.code, 1);
}
