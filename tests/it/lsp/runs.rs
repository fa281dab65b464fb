//! The server's runs against each other: what a run reuses from the earlier ones (the job
//! threads and what they keep) never changes what is published, and a newer edit cancels the
//! run going on, which then publishes nothing.

use std::collections::BTreeMap;

use super::*;

/// The log line that ends every run (`window/logMessage`), after its diagnostics.
fn is_run_end(m: &Value) -> bool {
    m["method"] == "window/logMessage"
        && m["params"]["message"]
            .as_str()
            .is_some_and(|s| s.starts_with("yttlint: ") && s.ends_with(" ms"))
}

/// The log line that starts a run, before it reads anything.
fn is_run_start(m: &Value) -> bool {
    m["method"] == "window/logMessage"
        && m["params"]["message"]
            .as_str()
            .is_some_and(|s| s.starts_with("yttlint: run started for "))
}

impl Client {
    /// Waits for the end of the run whose log line `pred` accepts; the messages before it
    /// are kept in `notes`.
    pub(super) fn run_end(&mut self, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self.next(deadline);
            if is_run_end(&m) {
                let line = m["params"]["message"].as_str().unwrap_or("").to_string();
                if pred(&line) {
                    return line;
                }
            }
            self.notes.push(m);
        }
    }

    /// Waits for the start of a run (the messages before it are kept in `notes`).
    fn run_start(&mut self) {
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self.next(deadline);
            if is_run_start(&m) {
                return;
            }
            self.notes.push(m);
        }
    }

    /// What the editor shows now: the last diagnostics published for each file, without
    /// their document versions.
    pub(super) fn shown(&self) -> BTreeMap<String, Value> {
        let mut shown = BTreeMap::new();
        for m in &self.notes {
            if m["method"] == "textDocument/publishDiagnostics" {
                let uri = m["params"]["uri"].as_str().unwrap().to_string();
                shown.insert(uri, m["params"]["diagnostics"].clone());
            }
        }
        shown
    }
}

#[test]
fn edits_and_back_give_what_a_fresh_server_gives() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let values = dir.join("config/values.yml");
    let broken = std::fs::read_to_string(&file).unwrap();
    let fixed = broken.replace("data.values.app.prot", "data.values.app.label");
    let values_text = std::fs::read_to_string(&values).unwrap();
    let mistyped = values_text.replace("9090", "\"x\"");
    let linted = |l: &str| l.contains("linted");

    let mut c = Client::start(&dir);
    c.open(&file, &broken);
    c.run_end(linted);
    c.open(&values, &values_text);
    c.run_end(linted);
    // Each edit waits for its run: every one of them runs to the end and is published.
    let edits = [
        (&file, 2, &fixed),
        (&values, 2, &mistyped),
        (&file, 3, &broken),
        (&values, 3, &values_text),
    ];
    for (path, version, text) in edits {
        c.change(path, version, text);
        c.run_end(linted);
        let published = c.notes.iter().any(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri(path)
                && m["params"]["version"] == version
        });
        assert!(published, "version {version} of {}", path.display());
    }
    let edited = c.shown();
    assert_eq!(c.finish(), 0);

    let mut fresh = Client::start(&dir);
    fresh.open(&file, &broken);
    fresh.run_end(linted);
    fresh.open(&values, &values_text);
    fresh.run_end(linted);
    let expected = fresh.shown();
    assert_eq!(fresh.finish(), 0);

    assert!(
        expected.values().any(|d| d != &json!([])),
        "the fixture has findings: {expected:?}"
    );
    for (uri, diagnostics) in &expected {
        assert_eq!(edited.get(uri), Some(diagnostics), "{uri}");
    }
    // Nothing is shown that a fresh server does not show.
    for (uri, diagnostics) in &edited {
        if !expected.contains_key(uri) {
            assert_eq!(diagnostics, &json!([]), "{uri}");
        }
    }
}

/// A template line that evaluates for far longer than the test waits for the cancellation
/// (without it, the run goes on to the step limit: more than 20 s on a fast machine).
const SPIN: &str = "#@ def spin():\n#@   n = 0\n#@   for i in range(100000):\n#@     for j in range(100000):\n#@       n += 1\n#@     end\n#@   end\n#@   return n\n#@ end\n#@ spun = spin()\n";

#[test]
fn a_newer_edit_cancels_the_run_going_on() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let broken = std::fs::read_to_string(&file).unwrap();
    let fixed = broken.replace("data.values.app.prot", "data.values.app.label");
    let slow = format!("{SPIN}{broken}");
    let mut c = Client::start(&dir);
    c.open(&file, &slow);
    // The run of version 1 has started (it is past the debounce, where an edit would merge
    // with it, and its evaluation of the loop is under way or to come: nothing but the
    // evaluator's own check of the flag can stop the loop early)...
    c.run_start();
    c.change(&file, 2, &fixed);
    // ...and the edit stops it (without it, the run would go on for minutes: past WAIT).
    let line = c.run_end(|_| true);
    assert!(line.contains("cancelled"), "{line}");
    // Stopped when the edit came, not dropped after the loop (which runs for more than 20 s
    // on a fast machine, and longer on a loaded one).
    let ms: u64 = line
        .split_whitespace()
        .rev()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(u64::MAX);
    assert!(ms < 10_000, "{line}");
    let p = c.diagnostics(&uri(&file), |p| p["version"] == 2);
    assert_eq!(codes(&p), Vec::<String>::new(), "{p}");
    let line = c.run_end(|_| true);
    assert!(line.contains("linted"), "{line}");
    // Nothing of the cancelled run was published.
    let stale: Vec<&Value> = c
        .notes
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .filter(|m| m["params"]["uri"] == uri(&file) && m["params"]["version"] != 2)
        .collect();
    assert!(stale.is_empty(), "{stale:?}");
    assert_eq!(c.finish(), 0);
}

/// A root whose one job has findings of every part the server runs side by side (see
/// `eval::spread`): Kubernetes objects checked against their schemas, static analysis,
/// conditions tested against the final data values.
const SPREAD: &[(&str, &str)] = &[
    (
        ".yttlint.yaml",
        "roots:\n  - path: app\n    args: [\"-f\", \".\", \"-v\", \"replicas=many\"]\n",
    ),
    (
        "app/values.yml",
        "#@data/values\n---\nreplicas: 1\nname: web\ndebug: \"false\"\n",
    ),
    (
        "app/deploy.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ def unused_helper():\n#@   return 1\n#@ end\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: #@ data.values.name\n  labels:\n    #@ if data.values.debug:\n    debug: \"yes\"\n    #@ end\nspec:\n  replicas: #@ data.values.replicas\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        portz: 80\n",
    ),
];

#[test]
fn the_server_finds_what_the_command_line_finds() {
    let dir = TempDir::with_files(SPREAD);
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let (_, report) = crate::util::json::lint_json(&dir, &["--no-cache", "."]);
    let mut expected: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let first = d["message"].as_str().unwrap().lines().next().unwrap();
            format!(
                "{}:{}:{} {} {first}",
                d["file"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["rule"].as_str().unwrap()
            )
        })
        .collect();
    expected.sort();
    let rules: Vec<&str> = ["k8s-schema", "unused-function", "boolean-string"].to_vec();
    for rule in &rules {
        assert!(
            expected.iter().any(|e| e.contains(&format!(" {rule} "))),
            "{rule}: {expected:?}"
        );
    }

    let file = dir.join("app/deploy.yml");
    let mut c = Client::start(&dir);
    c.open(&file, &std::fs::read_to_string(&file).unwrap());
    c.run_end(|l| l.contains("linted"));
    let mut found = Vec::new();
    for (uri, diagnostics) in c.shown() {
        let prefix = format!("{}/", super::uri(&dir));
        let file = uri.strip_prefix(&prefix).unwrap().to_string();
        for d in diagnostics.as_array().unwrap() {
            let first = d["message"].as_str().unwrap().lines().next().unwrap();
            found.push(format!(
                "{file}:{}:{} {} {first}",
                d["range"]["start"]["line"].as_u64().unwrap() + 1,
                d["range"]["start"]["character"].as_u64().unwrap() + 1,
                d["code"].as_str().unwrap()
            ));
        }
    }
    found.sort();
    assert_eq!(c.finish(), 0);
    assert_eq!(found, expected);
}
