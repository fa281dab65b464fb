//! `yttlint server`: the built binary driven over the Language Server Protocol as an editor
//! drives it, on `fixtures/lsp` (a root with a schema, a helper file, a private library and a
//! broken template line): diagnostics that follow the buffer (never from stale text), hover,
//! definition, completion, the suppression action, unknown documents, shutdown and exit.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::{bin::BIN, TempDir};

const DEPLOYMENT: &str = "config/deployment.yml";
const WAIT: Duration = Duration::from_secs(60);

/// A language client on the server's standard input and output.
struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    notes: Vec<Value>,
    /// What the server answered to `initialize`.
    capabilities: Value,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = 0usize;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            len = n.parse().ok()?;
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn uri(path: &Path) -> String {
    let uri = yttlint::lsp::positions::path_uri(path).expect("an absolute UTF-8 path");
    uri.as_str().to_string()
}

impl Client {
    fn start(dir: &Path) -> Client {
        Client::start_with(dir, &[])
    }

    /// The server started with `args` after `server`.
    fn start_with(dir: &Path, args: &[&str]) -> Client {
        let mut child = Command::new(BIN)
            .arg("server")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut stdout) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            rx,
            next_id: 1,
            notes: Vec::new(),
            capabilities: Value::Null,
        };
        let init = client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(dir), "capabilities": {}}),
        );
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
        client.capabilities = init["capabilities"].clone();
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        self.rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no message from the server in time; had {:?}", self.notes))
    }

    /// The result of a request (panics on an error response).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.try_request(method, params)
            .unwrap_or_else(|(code, message)| panic!("{method}: error {code}: {message}"))
    }

    /// The result of a request, or its error's code and message.
    fn try_request(&mut self, method: &str, params: Value) -> Result<Value, (i64, String)> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self.next(deadline);
            if m["id"] == json!(id) && m.get("method").is_none() {
                let e = &m["error"];
                if e.is_object() {
                    let code = e["code"].as_i64().unwrap_or(0);
                    return Err((code, e["message"].as_str().unwrap_or("").to_string()));
                }
                return Ok(m["result"].clone());
            }
            self.notes.push(m);
        }
    }

    /// The first diagnostics published for `uri` (from now on, or stashed) that `pred` accepts.
    fn diagnostics(&mut self, uri: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        let is = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(i) = self.notes.iter().position(|m| is(m) && pred(&m["params"])) {
            return self.notes.remove(i)["params"].clone();
        }
        loop {
            let m = self.next(deadline);
            if is(&m) && pred(&m["params"]) {
                return m["params"].clone();
            }
            self.notes.push(m);
        }
    }

    fn open(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, path: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn at(&mut self, method: &str, path: &Path, line: usize, character: usize) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}}),
        )
    }

    /// `shutdown`, `exit`, and the exit status.
    fn finish(mut self) -> i32 {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Line `n` (from 0) of `text` and the character column of `needle` in it (plus `plus`).
fn find(text: &str, needle: &str, plus: usize) -> (usize, usize) {
    for (n, line) in text.lines().enumerate() {
        if let Some(i) = line.find(needle) {
            return (n, i + plus);
        }
    }
    panic!("{needle} is not in the text")
}

#[test]
fn diagnostics_follow_the_buffer() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let schema = dir.join("config/schema.yml");
    let broken = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&dir);
    c.open(&file, &broken);
    let p = c.diagnostics(&uri(&file), |p| p["version"] == 1);
    assert_eq!(codes(&p), ["template-error"], "{p}");
    let d = &p["diagnostics"][0];
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "yttlint");
    let (line, col) = find(&broken, "prot", 0);
    assert_eq!(d["range"]["start"], json!({"line": line, "character": col}));
    assert!(d["codeDescription"]["href"]
        .as_str()
        .unwrap()
        .ends_with("/docs/rules/template-error.md"));
    // A file that is not open gets the findings of the root too: a warning.
    let s = c.diagnostics(&uri(&schema), |p| !codes(p).is_empty());
    assert_eq!(codes(&s), ["data-value-unused"]);
    assert_eq!(s["diagnostics"][0]["severity"], 2);

    // The fix in the buffer (not saved) clears both files.
    let fixed = broken.replace("data.values.app.prot", "data.values.app.label");
    c.change(&file, 2, &fixed);
    let p = c.diagnostics(&uri(&file), |p| p["version"] == 2);
    assert_eq!(codes(&p), Vec::<String>::new());
    c.diagnostics(&uri(&schema), |p| codes(p).is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);

    // A value of the wrong type in another buffer: the finding points at the schema line
    // that declares the type as related location.
    let values = dir.join("config/values.yml");
    let values_text = std::fs::read_to_string(&values).unwrap();
    c.open(&values, &values_text.replace("9090", "\"x\""));
    let v = c.diagnostics(&uri(&values), |p| !codes(p).is_empty());
    assert_eq!(codes(&v), ["schema-type-mismatch"], "{v}");
    let related = &v["diagnostics"][0]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri(&schema));
    assert_eq!(related["location"]["range"]["start"]["line"], 7);
    assert_eq!(related["message"], "the schema declares the type here");
    assert_eq!(c.finish(), 0);
}

#[test]
fn stale_results_are_never_published() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let broken = std::fs::read_to_string(&file).unwrap();
    let fixed = broken.replace("data.values.app.prot", "data.values.app.label");
    let mut c = Client::start(&dir);
    c.open(&file, &broken);
    // Edits at varying pauses, around the debounce and the time of a run.
    let texts = [&fixed, &broken, &fixed, &broken, &fixed, &broken, &fixed];
    let pauses = [0u64, 40, 180, 10, 260, 120, 0];
    for (i, (text, pause)) in texts.iter().zip(pauses).enumerate() {
        std::thread::sleep(Duration::from_millis(pause));
        c.change(&file, i as i32 + 2, text);
    }
    let last = texts.len() as i32 + 1;
    c.diagnostics(&uri(&file), |p| p["version"] == last);
    let mut seen = 0;
    let mut previous = 0;
    for m in &c.notes {
        if m["method"] != "textDocument/publishDiagnostics" || m["params"]["uri"] != uri(&file) {
            continue;
        }
        let version = m["params"]["version"].as_i64().unwrap();
        let text_was_broken = version == 1 || texts[version as usize - 2] == &broken;
        assert_eq!(
            !codes(&m["params"]).is_empty(),
            text_was_broken,
            "version {version}: {m}"
        );
        assert!(version >= previous, "{version} after {previous}");
        previous = version;
        seen += 1;
    }
    assert!(seen <= texts.len(), "{seen} publications");
    assert_eq!(c.finish(), 0);
}

fn hover_text(v: &Value) -> String {
    v["contents"]["value"].as_str().unwrap_or("").to_string()
}

/// Hover on a data value shows its value in each scenario of the root: the scenario's values
/// files and `data_values` over the defaults, as `--data-values-inspect` gives them.
#[test]
fn hover_shows_the_value_in_each_scenario() {
    let dir = TempDir::copy_of("lsp");
    dir.write(
        ".yttlint.yaml",
        "roots:\n  - path: config\n    scenarios:\n      - name: defaults\n      - name: prod\n        values_files: [prod.yml]\n      - name: staging\n        data_values: {app.port: 7070}\n",
    );
    dir.write("prod.yml", "app:\n  port: 443\n");
    let file = dir.join(DEPLOYMENT);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&dir);
    c.open(&file, &text);
    let (l, ch) = find(&text, "data.values.app.port", 17);
    let h = hover_text(&c.at("textDocument/hover", &file, l, ch));
    for want in [
        "| scenario | value |",
        "| defaults | `9090` |",
        "| prod | `443` |",
        "| staging | `7070` |",
    ] {
        assert!(h.contains(want), "{want} not in {h}");
    }
    assert_eq!(c.finish(), 0);
}

#[test]
fn hover_definition_completion_and_actions() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let schema = dir.join("config/schema.yml");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&dir);
    c.open(&file, &text);
    c.open(&schema, &std::fs::read_to_string(&schema).unwrap());
    let hover = |c: &mut Client, needle: &str, plus: usize| {
        let (l, ch) = find(&text, needle, plus);
        hover_text(&c.at("textDocument/hover", &file, l, ch))
    };
    let h = hover(&mut c, "data.values.app.port", 17);
    for want in [
        "integer",
        "8080",
        "The port the service listens on",
        "443",
        "HTTPS",
        "set to `9090` in `config/values.yml:4`",
    ] {
        assert!(h.contains(want), "{want} not in {h}");
    }
    let h = hover(&mut c, "app.name)", 5);
    assert!(
        h.contains("data.values.app.name") && h.contains("demo"),
        "{h}"
    );
    let h = hover(&mut c, "struct.encode", 8);
    assert!(h.contains("encode(value)"), "{h}");
    let (l, ch) = find(
        &std::fs::read_to_string(&schema).unwrap(),
        "#@schema/desc",
        4,
    );
    let h = hover_text(&c.at("textDocument/hover", &schema, l, ch));
    assert!(h.contains("schema/desc") && h.contains("describes"), "{h}");
    let (l, ch) = find(&std::fs::read_to_string(&schema).unwrap(), "label:", 1);
    let h = hover_text(&c.at("textDocument/hover", &schema, l, ch));
    assert_eq!(h, "", "no hover on a plain key");

    // Definitions.
    let def = |c: &mut Client, needle: &str, plus: usize| {
        let (l, ch) = find(&text, needle, plus);
        c.at("textDocument/definition", &file, l, ch)
    };
    let helpers = uri(&dir.join("config/lib/helpers.star"));
    let d = def(&mut c, "labels(app", 1);
    assert_eq!(d["uri"], helpers);
    assert_eq!(d["range"]["start"], json!({"line": 2, "character": 4}));
    let d = def(&mut c, "lib/helpers.star", 3);
    assert_eq!(d["uri"], helpers);
    assert_eq!(d["range"]["start"]["line"], 0);
    let d = def(&mut c, "\"labels\")", 2);
    assert_eq!(d["range"]["start"]["line"], 2);
    // A data value: where the schema declares it, then the data values documents that set it.
    let d = def(&mut c, "data.values.app.port", 17);
    assert_eq!(d[0]["uri"], uri(&schema));
    assert_eq!(d[0]["range"]["start"], json!({"line": 7, "character": 2}));
    assert_eq!(d[1]["uri"], uri(&dir.join("config/values.yml")));
    assert_eq!(d[1]["range"]["start"], json!({"line": 3, "character": 2}));
    let d = def(&mut c, "library.get(\"extra\")", 14);
    assert_eq!(d["uri"], uri(&dir.join("config/_ytt_lib/extra/config.yml")));

    // The suppression action on the finding of the broken line.
    let p = c.diagnostics(&uri(&file), |p| p["version"] == 1);
    let diagnostic = p["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "template-error")
        .unwrap()
        .clone();
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&file)}, "range": diagnostic["range"], "context": {"diagnostics": [diagnostic]}}),
    );
    // First the fix of the typo that stopped the evaluation, then the suppression.
    assert!(
        actions[0]["title"]
            .as_str()
            .unwrap()
            .contains("data.values.app.port"),
        "{actions:#}"
    );
    assert_eq!(
        actions[0]["edit"]["changes"][uri(&file)][0]["newText"],
        "port"
    );
    let edit = &actions[1]["edit"]["changes"][uri(&file)][0];
    let (line, _) = find(&text, "prot", 0);
    assert_eq!(edit["newText"], "  #! yttlint: disable=template-error\n");
    assert_eq!(
        edit["range"]["start"],
        json!({"line": line, "character": 0})
    );

    // Completions, in a buffer with lines being typed.
    let typing = format!(
        "{text}  a: #@ data.values.app.\n  b: #@ struct.\n#@over\n#@ load(\"lib/helpers.star\", \n#@ load(\"@ytt:yaml\", \n"
    );
    c.change(&file, 2, &typing);
    let labels = |v: &Value| -> Vec<String> {
        let items = v.as_array().or_else(|| v["items"].as_array()).unwrap();
        items
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let complete = |c: &mut Client, needle: &str| {
        let (l, ch) = find(&typing, needle, needle.len());
        c.at("textDocument/completion", &file, l, ch)
    };
    let v = complete(&mut c, "data.values.app.");
    assert_eq!(labels(&v), ["port", "name", "label"]);
    assert_eq!(v[0]["detail"], "integer");
    let v = labels(&complete(&mut c, "struct."));
    for want in ["encode", "decode", "make", "make_and_bind"] {
        assert!(v.contains(&want.to_string()), "{want} not in {v:?}");
    }
    let v = labels(&complete(&mut c, "#@over"));
    assert!(v.contains(&"overlay/match".to_string()) && !v.contains(&"schema/desc".to_string()));
    let v = labels(&complete(&mut c, "helpers.star\", "));
    assert_eq!(v, ["version", "labels"]);
    assert_eq!(labels(&complete(&mut c, "@ytt:yaml\", ")), ["yaml"]);

    // Index paths: hover, definition and completion read `data.values["app"]` as `.app`.
    let indexed = format!(
        "{text}  i: #@ data.values[\"app\"].port\n#@ w = data.values['app']\n  j: #@ w.name\n  k: #@ data.values[\"app\"].\n"
    );
    c.change(&file, 3, &indexed);
    let (l, ch) = find(&indexed, "[\"app\"].port", 9);
    let h = hover_text(&c.at("textDocument/hover", &file, l, ch));
    assert!(
        h.contains("data.values.app.port") && h.contains("integer"),
        "{h}"
    );
    let d = c.at("textDocument/definition", &file, l, ch);
    assert_eq!(d[0]["range"]["start"], json!({"line": 7, "character": 2}));
    let (l, ch) = find(&indexed, "w.name", 3);
    let h = hover_text(&c.at("textDocument/hover", &file, l, ch));
    assert!(h.contains("data.values.app.name"), "{h}");
    let (l, ch) = find(&indexed, "k: #@ data.values[\"app\"].", 25);
    assert_eq!(
        labels(&c.at("textDocument/completion", &file, l, ch)),
        ["port", "name", "label"]
    );

    // Unknown documents and positions answer null.
    let unknown = dir.join("config/nope.yml");
    assert_eq!(c.at("textDocument/hover", &unknown, 0, 0), Value::Null);
    assert_eq!(c.at("textDocument/definition", &file, 999, 0), Value::Null);
    assert_eq!(c.at("textDocument/hover", &file, 0, 999), Value::Null);
    assert_eq!(c.finish(), 0);
}

/// Completion and hover answer from the file's own library: a root's file gets the root's
/// data values, not those of its private libraries (cf-for-k8s gave 59 keys where the root
/// sets 23); a file in `_ytt_lib/NAME/` gets the library's.
#[test]
fn completion_and_hover_are_scoped_to_the_files_library() {
    let main = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\nregion: #@ data.values.region\n--- #@ template.replace(library.get(\"db\").eval())\n";
    let db = "#@ load(\"@ytt:data\", \"data\")\n---\nengine: #@ data.values.engine\n";
    let dir = TempDir::with_files(&[
        (".yttlint.yaml", "roots:\n  - path: app\n"),
        (
            "app/values.yml",
            "#@data/values\n---\nregion: eu\nsize: 3\n",
        ),
        ("app/main.yml", main),
        (
            "app/_ytt_lib/db/values.yml",
            "#@data/values\n---\nengine: postgres\nstorage: 10\n",
        ),
        ("app/_ytt_lib/db/db.yml", db),
    ]);
    let labels = |v: &Value| -> Vec<String> {
        let items = v.as_array().or_else(|| v["items"].as_array()).unwrap();
        items
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let mut c = Client::start(&dir);
    let main_path = dir.join("app/main.yml");
    let typing = format!("{main}x: #@ data.values.\n");
    c.open(&main_path, &typing);
    let (l, ch) = find(&typing, "x: #@ data.values.", 18);
    let got = labels(&c.at("textDocument/completion", &main_path, l, ch));
    assert_eq!(got, ["region", "size"]);
    let db_path = dir.join("app/_ytt_lib/db/db.yml");
    let typing = format!("{db}y: #@ data.values.\n");
    c.open(&db_path, &typing);
    let (l, ch) = find(&typing, "y: #@ data.values.", 18);
    let got = labels(&c.at("textDocument/completion", &db_path, l, ch));
    assert_eq!(got, ["engine", "storage"]);
    let (l, ch) = find(&typing, "data.values.engine", 13);
    let h = hover_text(&c.at("textDocument/hover", &db_path, l, ch));
    assert!(h.contains("postgres"), "{h}");
    assert_eq!(c.finish(), 0);
}

#[test]
fn configuration_changes_are_picked_up_without_restart() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let schema = dir.join("config/schema.yml");
    let config = dir.join(".yttlint.yaml");
    let original = std::fs::read_to_string(&config).unwrap();
    let mut c = Client::start(&dir);
    c.open(&file, &std::fs::read_to_string(&file).unwrap());
    c.diagnostics(&uri(&schema), |p| codes(p) == ["data-value-unused"]);
    // Changed on disk, told by the file watcher.
    c.notes.clear();
    std::fs::write(
        &config,
        format!("{original}rules:\n  data-value-unused: off\n"),
    )
    .unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 2}]}),
    );
    c.diagnostics(&uri(&schema), |p| codes(p).is_empty());
    // Saved in the editor.
    c.notes.clear();
    std::fs::write(
        &config,
        format!("{original}rules:\n  template-error: off\n"),
    )
    .unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&config)}}),
    );
    c.diagnostics(&uri(&schema), |p| codes(p) == ["data-value-unused"]);
    let p = c.diagnostics(&uri(&file), |p| codes(p).is_empty());
    assert_eq!(p["version"], 1);
    assert_eq!(c.finish(), 0);
}

/// Neovim's built-in client against the server (`tests/data/nvim/lsp.lua`: diagnostics, hover,
/// definition, prepareRename and a rename Neovim applies to its buffers); `.ci/run` installs
/// Neovim and runs it.
mod nvim {
    use super::*;

    #[test]
    #[ignore = "needs nvim"]
    fn neovim_shows_diagnostics_hover_definition_and_renames() {
        let dir = TempDir::copy_of("lsp");
        let schema = std::fs::read_to_string(dir.join("config/schema.yml")).unwrap();
        let script = crate::util::repo_root().join("tests/data/nvim/lsp.lua");
        let out = Command::new("nvim")
            .args(["--headless", "--clean", "-c"])
            .arg(format!("luafile {}", script.display()))
            .env("YTTLINT_BIN", BIN)
            .env("YTTLINT_REPO", &*dir)
            .current_dir(&*dir)
            .stdin(Stdio::null())
            .output()
            .expect("nvim runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stderr}{stdout}");
        assert!(stdout.contains("nvim lsp test: ok"), "{stdout}");
        // The rename edited Neovim's buffers; the server wrote nothing.
        let after = std::fs::read_to_string(dir.join("config/schema.yml")).unwrap();
        assert_eq!(after, schema);
    }
}

/// Runs that reuse what earlier runs computed, and runs cancelled by a newer edit.
mod runs;

/// Every code action applied, and what ytt renders compared.
mod actions;

/// Rename and code actions on the corpus (`../shared/corpus`), what ytt renders compared.
mod corpus;

/// Rename of a data value: every place renamed, what ytt renders unchanged, refusals.
mod rename;

/// The memory of a server whose buffers change to texts never seen before.
mod memory;

/// The attacks of issue 40 on the server: each is the finding of its root, never the end of
/// the server.
mod hostile;

/// Documents whose lines end in a CR alone (old Mac), as the protocol counts lines.
mod line_ends;
