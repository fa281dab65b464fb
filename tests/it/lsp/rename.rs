//! `textDocument/prepareRename` and `textDocument/rename` of a data value, on
//! `fixtures/lsp-rename` (`app.port` declared by a schema, set by a values document, a
//! scenario's values file and its `data_values`, read by a template, a Starlark module through
//! aliases and `hasattr`, and a text template). The rename edits every one of those places and
//! nothing else; what the root renders in each scenario is the same before and after; the
//! reverse rename (from the schema's key) gives back the files byte for byte. A use the rename
//! cannot follow (`getattr` with a computed name) and a name that exists already are refused
//! with the reason, and nothing is edited.
//!
//! The renderer of the test that always runs is yttlint's own `template` command; the same test
//! with ytt itself needs ytt (`YTT`, else `ytt` on the `PATH`) and is run by `.ci/run`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::actions::{applied, ytt};
use super::*;

const FILES: [&str; 7] = [
    ".yttlint.yaml",
    "prod-values.yml",
    "config/schema.yml",
    "config/values.yml",
    "config/lib/ports.star",
    "config/deployment.yml",
    "config/banner.txt",
];

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// Every file of the fixture, by repository path.
fn snapshot(dir: &Path) -> BTreeMap<&'static str, String> {
    FILES.iter().map(|f| (*f, read(dir, f))).collect()
}

/// What `renderer` renders of the root in each scenario (the staging scenario's
/// `data_values` read from the configuration, as the scenario passes them).
fn render_all(dir: &Path, renderer: &Path) -> Vec<(i32, String)> {
    let config = read(dir, ".yttlint.yaml");
    let staging = config
        .lines()
        .find_map(|l| l.trim().strip_prefix("data_values: {"))
        .and_then(|l| l.strip_suffix('}'))
        .unwrap()
        .replace(": ", "=");
    let scenarios: [&[&str]; 3] = [
        &[],
        &["--data-values-file", "prod-values.yml"],
        &["--data-value-yaml", &staging],
    ];
    scenarios
        .iter()
        .map(|args| {
            let out = TempDir::new();
            let mut cmd = Command::new(renderer);
            if renderer == Path::new(BIN) {
                cmd.arg("template");
            }
            let run = cmd
                .args(["-f", "config"])
                .args(*args)
                .arg("--output-files")
                .arg(&*out)
                .current_dir(dir)
                .output()
                .unwrap();
            let mut rendered = String::from_utf8_lossy(&run.stderr).into_owned();
            for name in ["deployment.yml", "banner.txt"] {
                rendered += &std::fs::read_to_string(out.join(name)).unwrap_or_default();
            }
            (run.status.code().unwrap_or(-1), rendered)
        })
        .collect()
}

impl Client {
    /// The error of a request that must fail: its code and message.
    fn request_error(&mut self, method: &str, params: Value) -> (i64, String) {
        match self.try_request(method, params) {
            Ok(v) => panic!("{method} did not fail: {v}"),
            Err(e) => e,
        }
    }

    fn rename(&mut self, path: &Path, (line, ch): (usize, usize), to: &str) -> Value {
        self.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": ch}, "newName": to}),
        )
    }
}

/// Applies a workspace edit to the files on disk.
fn apply(dir: &Path, edit: &Value) {
    for (u, edits) in edit["changes"].as_object().unwrap() {
        let path = PathBuf::from(u.strip_prefix("file://").unwrap());
        assert!(path.starts_with(dir), "an edit outside the repository: {u}");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, applied(&text, edits.as_array().unwrap())).unwrap();
    }
}

fn a_rename_and_its_reverse_keep_the_output(renderer: &Path) {
    let dir = TempDir::copy_of("lsp-rename");
    let before = snapshot(&dir);
    let rendered = render_all(&dir, renderer);
    assert!(rendered.iter().all(|(code, _)| *code == 0), "{rendered:?}");
    assert!(rendered[1].1.contains("containerPort: 443"), "{rendered:?}");
    assert!(rendered[2].1.contains("listening on 7070"), "{rendered:?}");

    let mut c = Client::start(&dir);
    let rename = &c.capabilities["renameProvider"];
    assert_eq!(rename["prepareProvider"], true, "{}", c.capabilities);

    let file = dir.join("config/deployment.yml");
    let text = read(&dir, "config/deployment.yml");
    c.open(&file, &text);
    let at = find(&text, "str(data.values.app.port)", 21);
    let prepared = c.at("textDocument/prepareRename", &file, at.0, at.1);
    assert_eq!(prepared["placeholder"], "port", "{prepared}");
    let r = &prepared["range"];
    assert_eq!(r["start"], json!({"line": at.0, "character": at.1 - 1}));
    assert_eq!(r["end"], json!({"line": at.0, "character": at.1 + 3}));

    let edit = c.rename(&file, at, "listen_port");
    apply(&dir, &edit);
    // The editor applies the edit to the open buffer too.
    c.change(&file, 2, &read(&dir, "config/deployment.yml"));
    let after = snapshot(&dir);
    let changed: Vec<&str> = FILES
        .iter()
        .copied()
        .filter(|f| before[f] != after[f])
        .collect();
    assert_eq!(changed, FILES, "every file names the value: {edit:#}");
    for (file, want) in [
        (".yttlint.yaml", "data_values: {app.listen_port: 7070}"),
        ("prod-values.yml", "  listen_port: 443"),
        ("config/schema.yml", "  listen_port: 8080"),
        ("config/values.yml", "  listen_port: 9090"),
        (
            "config/lib/ports.star",
            "{\"containerPort\": app.listen_port,",
        ),
        (
            "config/lib/ports.star",
            "hasattr(d.values.app, \"listen_port\")",
        ),
        ("config/lib/ports.star", "return app.listen_port + 1"),
        (
            "config/deployment.yml",
            "value: #@ str(data.values.app.listen_port)",
        ),
        ("config/banner.txt", "str(data.values.app.listen_port) @)"),
    ] {
        assert!(
            after[file].contains(want),
            "{want} not in {file}:\n{}",
            after[file]
        );
    }
    // Comments, strings and prose are not code.
    let deployment = &after["config/deployment.yml"];
    assert!(deployment.contains("#! data.values.app.port in a comment"));
    assert!(deployment.contains("\"listens on data.values.app.port\""));
    // Only the key renamed: the words replaced are the key's, nothing more.
    let bytes = |s: &BTreeMap<&str, String>| s.values().map(|t| t.len()).sum::<usize>();
    assert_eq!(bytes(&after), bytes(&before) + 7 * 9, "nine places renamed");
    assert_eq!(
        render_all(&dir, renderer),
        rendered,
        "the rename changed the output"
    );

    // A scenario's `--data-values-file` (plain YAML) names the value too: its key is one to
    // rename from.
    let prod = dir.join("prod-values.yml");
    let prod_text = read(&dir, "prod-values.yml");
    c.open(&prod, &prod_text);
    let at = find(&prod_text, "listen_port:", 2);
    let prepared = c.at("textDocument/prepareRename", &prod, at.0, at.1);
    assert_eq!(prepared["placeholder"], "listen_port", "{prepared}");

    // The reverse, from the schema's key: the files as they were.
    let schema = dir.join("config/schema.yml");
    let schema_text = read(&dir, "config/schema.yml");
    c.open(&schema, &schema_text);
    let at = find(&schema_text, "listen_port:", 2);
    let prepared = c.at("textDocument/prepareRename", &schema, at.0, at.1);
    assert_eq!(prepared["placeholder"], "listen_port");
    let edit = c.rename(&schema, at, "port");
    apply(&dir, &edit);
    assert_eq!(snapshot(&dir), before);
    assert_eq!(c.finish(), 0);
}

#[test]
fn a_rename_and_its_reverse_keep_what_yttlint_template_renders() {
    a_rename_and_its_reverse_keep_the_output(Path::new(BIN));
}

#[test]
#[ignore = "needs ytt"]
fn a_rename_and_its_reverse_keep_what_ytt_renders() {
    a_rename_and_its_reverse_keep_the_output(&ytt());
}

#[test]
fn a_use_that_cannot_be_followed_refuses_the_rename() {
    let dir = TempDir::copy_of("lsp-rename");
    dir.write(
        "config/lib/lookup.star",
        "load(\"@ytt:data\", \"data\")\n\ndef setting(key):\n  return getattr(data.values.app, key)\nend\n",
    );
    let before = snapshot(&dir);
    let mut c = Client::start(&dir);
    let file = dir.join("config/deployment.yml");
    let text = read(&dir, "config/deployment.yml");
    c.open(&file, &text);
    let at = find(&text, "str(data.values.app.port)", 21);
    let position =
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": at.0, "character": at.1}});
    let (code, message) = c.request_error("textDocument/prepareRename", position.clone());
    assert_eq!(code, -32803, "RequestFailed: {message}");
    assert!(
        message.contains("cannot rename data.values.app.port")
            && message.contains("getattr() reads data.values.app with a computed name")
            && message.contains("config/lib/lookup.star:4"),
        "{message}"
    );
    let mut params = position;
    params["newName"] = json!("listen_port");
    let (_, again) = c.request_error("textDocument/rename", params);
    assert_eq!(again, message);

    // Not a data value; a name the value's map has already; not a name.
    let (_, message) = c.request_error(
        "textDocument/prepareRename",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 5, "character": 2}}),
    );
    assert!(
        message.contains("put the cursor on data.values.NAME"),
        "{message}"
    );
    std::fs::remove_file(dir.join("config/lib/lookup.star")).unwrap();
    let mut params =
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": at.0, "character": at.1}});
    params["newName"] = json!("name");
    let (_, message) = c.request_error("textDocument/rename", params.clone());
    assert!(
        message.contains("data.values.app.name exists already (in config/schema.yml)"),
        "{message}"
    );
    params["newName"] = json!("listen-port");
    let (_, message) = c.request_error("textDocument/rename", params);
    assert!(message.contains("is not a name"), "{message}");
    assert_eq!(c.finish(), 0);
    assert_eq!(snapshot(&dir), before, "a refused rename edits nothing");
}

/// Two inputs give files one name (`-f config/values-schema.yml -f dev`, with a
/// `dev/values-schema.yml`: ytt names both `values-schema.yml`): the rename edits the file that
/// declares the value, never its namesake.
#[test]
fn files_of_one_name_are_told_apart() {
    let dir = TempDir::with_files(&[
        (
            ".yttlint.yaml",
            "roots:\n  - path: \".\"\n    args: [\"-f\", \"config/values-schema.yml\", \"-f\", \"config/app.yml\", \"-f\", \"dev\"]\n",
        ),
        (
            "config/values-schema.yml",
            "#@data/values-schema\n---\nnamespace: apps\nreplicas: 1\n",
        ),
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nnamespace: #@ data.values.namespace\n",
        ),
        (
            "dev/values-schema.yml",
            "#@data/values-schema\n---\n#@overlay/match missing_ok=True\ndev:\n  version: develop\n",
        ),
        (
            "dev/build.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nversion: #@ data.values.dev.version\n",
        ),
    ]);
    let render = || {
        let out = Command::new(BIN)
            .args([
                "template",
                "-f",
                "config/values-schema.yml",
                "-f",
                "config/app.yml",
                "-f",
                "dev",
            ])
            .current_dir(&*dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let before = render();
    assert!(before.contains("version: develop"), "{before}");
    let mut c = Client::start(&dir);
    let schema = dir.join("dev/values-schema.yml");
    let text = read(&dir, "dev/values-schema.yml");
    c.open(&schema, &text);
    let at = find(&text, "version:", 2);
    let edit = c.rename(&schema, at, "tag");
    let mut edited: Vec<&String> = edit["changes"].as_object().unwrap().keys().collect();
    edited.sort();
    assert_eq!(
        edited,
        [&uri(&dir.join("dev/build.yml")), &uri(&schema)],
        "{edit:#}"
    );
    apply(&dir, &edit);
    assert_eq!(
        read(&dir, "dev/values-schema.yml"),
        text.replace("version:", "tag:")
    );
    assert_eq!(render(), before);
    assert_eq!(c.finish(), 0);
}
