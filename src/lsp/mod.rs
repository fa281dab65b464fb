//! `yttlint server`: a language server (LSP 3.17) over standard input and output, on the
//! protocol crates rust-analyzer uses (`lsp-server`, `lsp-types`). This file is the main
//! loop: the handshake, then each message to its handler, then shutdown. The documents
//! (`documents`), the repository (`project`), the background linter (`linter`, publishing
//! `diagnostics`) and one file per question (`hover`, `definition`, `completion`, `actions`)
//! do the work. The repository is untrusted as on the command line: files are read under the
//! same policy, and nothing from it is executed.

pub mod actions;
pub mod chain;
pub mod completion;
pub mod context;
pub mod definition;
pub mod diagnostics;
pub mod documents;
pub mod hover;
pub mod linter;
pub mod positions;
pub mod project;
pub mod rename;
pub mod rename_aliases;
pub mod rename_annotations;
pub mod rename_keys;
pub mod rename_refs;
pub mod request;
pub mod schedule;
pub mod suppress_at;
pub mod symbols;
pub mod transport;
pub mod values;
pub mod ytt_docs;

mod handlers;

use lsp_server::{Connection, Message};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, HoverProviderCapability, OneOf, SaveOptions,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};

/// What the server offers.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "@".into(), "\"".into(), ",".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        ..ServerCapabilities::default()
    }
}

/// Template text whose compiled and parsed form each job thread keeps from one run to the next
/// (see [`crate::eval::ready`]): about 30 MB of memory at most per thread.
const READY_TEMPLATES: usize = 1 << 20;

/// CustomResourceDefinitions of the rendered output whose schemas the process keeps compiled
/// from one run to the next (see [`crate::kubernetes::kept_crds`]).
const KEPT_CRDS: usize = 128;

/// The evaluation's time limit: four fifths of the command line's default `--job-timeout`
/// (150 s), as a worker process has it.
const ENGINE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs the server on standard input and output until the editor says `exit`; the exit
/// status (0 after a `shutdown`, 1 otherwise, as the protocol asks). `memory` bounds its
/// jobs as `--memory-limit` bounds the command line's.
pub fn run(memory: u64) -> i32 {
    // Before the job threads start: they keep what they compiled for the next run.
    crate::eval::ready::keep(READY_TEMPLATES);
    // The evaluation's limits of a worker of the command line (its heap, its time).
    linter::Bounds::set_memory(memory);
    let bounds = linter::Bounds::current();
    crate::eval::limits::set_process_defaults(bounds.soft as u64, ENGINE_TIMEOUT);
    crate::kubernetes::kept_crds::keep(KEPT_CRDS);
    let (connection, io) = transport::stdio();
    let code = serve(&connection);
    drop(connection);
    io.join();
    code
}

/// The answer to `initialize`.
fn initialize_result() -> serde_json::Value {
    serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "yttlint", "version": env!("CARGO_PKG_VERSION")},
    })
}

fn serve(connection: &Connection) -> i32 {
    let send = |m: Message| connection.sender.send(m).is_ok();
    let mut server: Option<handlers::Server> = None;
    let mut shut_down = false;
    for msg in &connection.receiver {
        match msg {
            // What the reader answers itself (a frame it skipped, a request it cannot read).
            Message::Notification(n) if n.method == transport::ANSWER => {
                if let Some(m) = transport::answer_of(&n) {
                    send(m);
                }
            }
            Message::Notification(n) if n.method == "exit" => break,
            Message::Request(req) if server.is_none() => {
                let response = if req.method == "initialize" {
                    let params: lsp_types::InitializeParams =
                        serde_json::from_value(req.params).unwrap_or_default();
                    let s = handlers::Server::new(connection, &params);
                    s.watch(&params);
                    server = Some(s);
                    lsp_server::Response::new_ok(req.id, initialize_result())
                } else {
                    lsp_server::Response::new_err(
                        req.id,
                        lsp_server::ErrorCode::ServerNotInitialized as i32,
                        "the server is not initialized".into(),
                    )
                };
                if !send(Message::Response(response)) {
                    break;
                }
            }
            Message::Request(req) => {
                if req.method == "shutdown" {
                    shut_down = true;
                    let done = lsp_server::Response::new_ok(req.id, serde_json::Value::Null);
                    send(Message::Response(done));
                    continue;
                }
                let response = match (&mut server, shut_down) {
                    (Some(s), false) => s.request(req),
                    _ => lsp_server::Response::new_err(
                        req.id,
                        lsp_server::ErrorCode::InvalidRequest as i32,
                        "the server is shut down".into(),
                    ),
                };
                if !send(Message::Response(response)) {
                    break;
                }
            }
            Message::Notification(n) => {
                if let Some(s) = &mut server {
                    s.notify(n);
                }
            }
            Message::Response(_) => {}
        }
    }
    if let Some(mut s) = server {
        s.stop();
    }
    if shut_down {
        0
    } else {
        1
    }
}

/// A server without an editor and without its background linter, handling one message at a
/// time: the fuzz target of the protocol's handling (`fuzzing::lsp_messages`).
pub struct Detached(handlers::Server);

impl Detached {
    /// The server of the workspace `dir` (its configuration and discovery loaded).
    pub fn new(dir: &std::path::Path) -> Detached {
        Detached(handlers::Server::detached(dir))
    }

    /// Handles `message`: the response to a request.
    pub fn handle(&mut self, message: Message) -> Option<lsp_server::Response> {
        match message {
            Message::Request(r) => Some(self.0.request(r)),
            Message::Notification(n) => {
                self.0.notify(n);
                None
            }
            Message::Response(_) => None,
        }
    }

    /// Closes every open document.
    pub fn close_all(&mut self) {
        self.0.close_all();
    }
}
