//! The language server's handling of what the editor sends: the bytes are its standard input
//! (framed messages, garbled or not), read as the server reads them
//! ([`crate::lsp::transport`]) and handled one by one by a server without an editor or
//! background linter, on a copy of `fixtures/lsp` (documents opened, changed and closed,
//! hover, definition, completion, code actions, symbols, rename...). Each response must
//! serialize. URIs under `file:///ws/` name the workspace's files. The documents the input
//! opened are closed after it.

use std::cell::RefCell;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use lsp_server::Message;
use serde_json::Value;

use crate::lsp::transport::{read_frame, write_framed, Frame};
use crate::lsp::Detached;

/// How the seeds name the workspace.
const PLACEHOLDER: &str = "file:///ws/";

/// The most messages one input is read for.
const MOST: usize = 256;

/// The workspace's files.
const FILES: &[(&str, &str)] = &[
    (
        ".yttlint.yaml",
        include_str!("../../fixtures/lsp/.yttlint.yaml"),
    ),
    (
        "config/deployment.yml",
        include_str!("../../fixtures/lsp/config/deployment.yml"),
    ),
    (
        "config/schema.yml",
        include_str!("../../fixtures/lsp/config/schema.yml"),
    ),
    (
        "config/values.yml",
        include_str!("../../fixtures/lsp/config/values.yml"),
    ),
    (
        "config/lib/helpers.star",
        include_str!("../../fixtures/lsp/config/lib/helpers.star"),
    ),
    (
        "config/_ytt_lib/extra/config.yml",
        include_str!("../../fixtures/lsp/config/_ytt_lib/extra/config.yml"),
    ),
];

thread_local! {
    /// The server of this thread, with the URI prefix of its workspace.
    static SERVER: RefCell<Option<(String, Detached)>> = const { RefCell::new(None) };
}

/// The workspace (written once per thread) and its URI prefix.
fn workspace() -> Option<(PathBuf, String)> {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("yttlint-fuzz-lsp-{}-{n}", std::process::id()));
    for (rel, text) in FILES {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent()?).ok()?;
        std::fs::write(&path, text).ok()?;
    }
    let uri = crate::lsp::positions::path_uri(&dir)?;
    Some((dir, format!("{}/", uri.as_str().trim_end_matches('/'))))
}

/// The fuzz target.
pub fn lsp_messages(data: &[u8]) {
    super::setup();
    SERVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let Some((dir, prefix)) = workspace() else {
                return;
            };
            *slot = Some((prefix, Detached::new(&dir)));
        }
        if let Some((prefix, server)) = slot.as_mut() {
            handle(data, prefix, server);
        }
    });
}

fn handle(data: &[u8], prefix: &str, server: &mut Detached) {
    let mut input = BufReader::new(data);
    for _ in 0..MOST {
        let Some(frame) = read_frame(&mut input) else {
            break;
        };
        let Frame::Message(message) = frame else {
            continue;
        };
        let message = in_workspace(message, prefix);
        if let Some(response) = server.handle(message) {
            let text = serde_json::to_string(&response).unwrap_or_default();
            assert!(
                serde_json::from_str::<Value>(&text).is_ok(),
                "a response that is not JSON: {text}"
            );
        }
    }
    server.close_all();
}

/// `message` with the URIs under [`PLACEHOLDER`] moved to the workspace.
fn in_workspace(message: Message, prefix: &str) -> Message {
    let Ok(mut value) = serde_json::to_value(&message) else {
        return message;
    };
    move_uris(&mut value, prefix);
    serde_json::from_value(value).unwrap_or(message)
}

fn move_uris(v: &mut Value, prefix: &str) {
    match v {
        Value::String(s) => {
            if let Some(rest) = s.strip_prefix(PLACEHOLDER) {
                *s = format!("{prefix}{rest}");
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| move_uris(i, prefix)),
        Value::Object(map) => map.values_mut().for_each(|i| move_uris(i, prefix)),
        _ => {}
    }
}

/// Seeds: sessions on the workspace's files (each opened, asked about at several places,
/// changed, closed), framed.
pub fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    // Each file as it is, and with the old Mac line end (a CR alone), which the protocol
    // counts as a line end too.
    let variants = FILES
        .iter()
        .flat_map(|(rel, text)| [(*rel, text.to_string()), (*rel, text.replace('\n', "\r"))]);
    for (rel, text) in variants {
        let text = text.as_str();
        let uri = format!("{PLACEHOLDER}{rel}");
        let mut messages = vec![
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}),
        ];
        let mut id = 1;
        let lines = crate::pos::lines(text).map(|l| &text[l.start..l.end]);
        for (line, l) in lines.enumerate().take(24) {
            let character = l.find("data.values.").map_or(l.len() / 2, |i| i + 13);
            let at = serde_json::json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
            for method in [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/completion",
                "textDocument/prepareRename",
            ] {
                messages.push(
                    serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": at}),
                );
                id += 1;
            }
        }
        for (method, params) in [
            (
                "textDocument/documentSymbol",
                serde_json::json!({"textDocument": {"uri": uri}}),
            ),
            (
                "textDocument/inlayHint",
                serde_json::json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}}),
            ),
            (
                "textDocument/codeAction",
                serde_json::json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "context": {"diagnostics": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 3}}, "message": "m", "code": "unused-load", "source": "yttlint"}]}}),
            ),
            (
                "textDocument/rename",
                serde_json::json!({"textDocument": {"uri": uri}, "position": {"line": 15, "character": 30}, "newName": "renamed"}),
            ),
        ] {
            messages.push(
                serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            );
            id += 1;
        }
        messages.push(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": format!("{text}\n#@ x = [\n")}]}}));
        messages.push(
            serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didClose",
            "params": {"textDocument": {"uri": uri}}}),
        );
        let mut seed = Vec::new();
        for m in messages {
            let _ = write_framed(&mut seed, m.to_string().as_bytes());
        }
        out.push(seed);
    }
    out
}
