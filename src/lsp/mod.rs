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
pub mod request;
pub mod schedule;
pub mod suppress_at;
pub mod symbols;
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
/// status (0 after a `shutdown`, 1 otherwise, as the protocol asks).
pub fn run() -> i32 {
    // Before the job threads start: they keep what they compiled for the next run.
    crate::eval::ready::keep(READY_TEMPLATES);
    // The evaluation's limits of a worker of the command line (its heap, its time).
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bounds = linter::Bounds::for_threads(threads);
    crate::eval::limits::set_process_defaults(bounds.soft as u64, ENGINE_TIMEOUT);
    crate::kubernetes::kept_crds::keep(KEPT_CRDS);
    let (connection, io) = Connection::stdio();
    let code = serve(&connection);
    drop(connection);
    let _ = io.join();
    code
}

fn serve(connection: &Connection) -> i32 {
    let caps = match serde_json::to_value(capabilities()) {
        Ok(c) => c,
        Err(_) => return 1,
    };
    let params = match connection.initialize(caps) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("yttlint server: {e}");
            return 1;
        }
    };
    let params: lsp_types::InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let mut server = handlers::Server::new(connection, &params);
    server.watch(&params);
    let mut shut_down = false;
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if req.method == "shutdown" {
                    shut_down = true;
                    let _ =
                        connection
                            .sender
                            .send(Message::Response(lsp_server::Response::new_ok(
                                req.id,
                                serde_json::Value::Null,
                            )));
                    continue;
                }
                let response = if shut_down {
                    lsp_server::Response::new_err(
                        req.id,
                        lsp_server::ErrorCode::InvalidRequest as i32,
                        "the server is shut down".into(),
                    )
                } else {
                    server.request(req)
                };
                if connection.sender.send(Message::Response(response)).is_err() {
                    break;
                }
            }
            Message::Notification(n) if n.method == "exit" => break,
            Message::Notification(n) => server.notify(n),
            Message::Response(_) => {}
        }
    }
    server.stop();
    if shut_down {
        0
    } else {
        1
    }
}
