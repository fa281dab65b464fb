//! The server's state and one handler per message: documents opened, changed, saved and
//! closed; watched files; hover, definition, completion and code actions. A handler that
//! meets a document it does not know, or a position past its end, answers null; one that
//! panics (it never should) answers an internal error and the server goes on.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{Notification as _, ShowMessage};
use lsp_types::{
    CodeActionParams, CompletionParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, FileChangeType, FileSystemWatcher,
    GlobPattern, GotoDefinitionParams, HoverParams, InitializeParams, MessageType, Registration,
    RegistrationParams, RenameParams, ShowMessageParams, TextDocumentPositionParams, Uri,
};
use serde_json::Value;

use super::documents::Document;
use super::linter::{Linter, SharedState, State};
use super::positions::uri_path;
use super::project::Project;
use super::request::{Ctx, SchemaCache};

/// The server between messages.
pub struct Server {
    state: SharedState,
    linter: Option<Linter>,
    schemas: SchemaCache,
    /// Where the workspace is (the configuration is looked for upward from it).
    dir: PathBuf,
    send: Box<dyn Fn(Message) -> bool>,
}

/// The workspace directory the editor names: its first folder, its root, or the working
/// directory.
fn workspace_dir(params: &InitializeParams) -> PathBuf {
    let folder = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .and_then(|f| uri_path(&f.uri));
    #[allow(deprecated)]
    let root = params.root_uri.as_ref().and_then(uri_path);
    folder
        .or(root)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

impl Server {
    pub fn new(connection: &Connection, params: &InitializeParams) -> Server {
        let state: SharedState = Arc::new(Mutex::new(State::default()));
        let to_linter = connection.sender.clone();
        let linter = Linter::start(state.clone(), Box::new(move |m| to_linter.send(m).is_ok()));
        let to_editor = connection.sender.clone();
        let mut server = Server {
            state,
            linter: Some(linter),
            schemas: SchemaCache::default(),
            dir: workspace_dir(params),
            send: Box::new(move |m| to_editor.send(m).is_ok()),
        };
        server.reload();
        server
    }

    /// A server of the workspace `dir` without an editor and without a background linter:
    /// what it would send is dropped (the fuzz target of the protocol's handling).
    pub fn detached(dir: &std::path::Path) -> Server {
        let mut server = Server {
            state: Arc::new(Mutex::new(State::default())),
            linter: None,
            schemas: SchemaCache::default(),
            dir: dir.to_path_buf(),
            send: Box::new(|_| true),
        };
        server.reload();
        server
    }

    /// Closes every open document.
    pub fn close_all(&mut self) {
        if let Ok(mut s) = self.state.lock() {
            for path in s.docs.paths() {
                s.docs.close(&path, None);
            }
        }
    }

    /// Stops the linter thread.
    pub fn stop(&mut self) {
        if let Some(l) = self.linter.take() {
            l.stop();
        }
    }

    /// Loads the configuration and discovers the repository again; lints every open
    /// document again.
    fn reload(&mut self) {
        let loaded = Project::load(&self.dir);
        let message = loaded.as_ref().err().cloned();
        let open = match self.state.lock() {
            Ok(mut s) => {
                s.project = loaded.ok().map(Arc::new);
                s.docs.paths()
            }
            Err(_) => return,
        };
        self.schemas.clear();
        if let Some(message) = message {
            self.show(MessageType::ERROR, format!("yttlint: {message}"));
        }
        if let Some(l) = &self.linter {
            l.relint(open);
        }
    }

    fn show(&self, typ: MessageType, message: String) {
        let params = ShowMessageParams { typ, message };
        (self.send)(Message::Notification(Notification::new(
            ShowMessage::METHOD.to_string(),
            params,
        )));
    }

    /// Answers a request (null for one the server does not know or cannot answer).
    pub fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match catch_unwind(AssertUnwindSafe(|| self.answer(req))) {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "internal error in yttlint (please report this input)".into(),
            ),
        }
    }

    fn answer(&mut self, req: Request) -> Result<Value, (ErrorCode, String)> {
        let bad = |e: serde_json::Error| (ErrorCode::InvalidParams, e.to_string());
        let failed = |message: String| (ErrorCode::RequestFailed, message);
        match req.method.as_str() {
            "textDocument/hover" => {
                let p: HoverParams = serde_json::from_value(req.params).map_err(bad)?;
                json_of(self.at(&p.text_document_position_params, super::hover::hover))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = serde_json::from_value(req.params).map_err(bad)?;
                json_of(self.at(
                    &p.text_document_position_params,
                    super::definition::definition,
                ))
            }
            "textDocument/completion" => {
                let p: CompletionParams = serde_json::from_value(req.params).map_err(bad)?;
                json_of(self.at(&p.text_document_position, super::completion::completion))
            }
            "textDocument/prepareRename" => {
                let p: TextDocumentPositionParams =
                    serde_json::from_value(req.params).map_err(bad)?;
                let answer = self.at(&p, |ctx| Some(super::rename::prepare(ctx)));
                json_of(answer.transpose().map_err(failed)?.flatten())
            }
            "textDocument/rename" => {
                let p: RenameParams = serde_json::from_value(req.params).map_err(bad)?;
                let name = p.new_name.clone();
                let answer = self.at(&p.text_document_position, |ctx| {
                    Some(super::rename::rename(ctx, &name))
                });
                json_of(answer.transpose().map_err(failed)?.flatten())
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = serde_json::from_value(req.params).map_err(bad)?;
                json_of(self.code_actions(&p))
            }
            _ => Ok(Value::Null),
        }
    }

    /// The open document at `uri`: its path and text.
    fn document(&self, uri: &Uri) -> Option<(PathBuf, Arc<str>)> {
        let path = uri_path(uri)?;
        let s = self.state.lock().ok()?;
        let text = s.docs.get(&path)?.text.clone();
        Some((path, text))
    }

    fn project(&self) -> Option<Arc<Project>> {
        self.state.lock().ok()?.project.clone()
    }

    /// Answers a question about a position with `f`.
    fn at<T>(
        &mut self,
        p: &TextDocumentPositionParams,
        f: impl Fn(&Ctx<'_>) -> Option<T>,
    ) -> Option<T> {
        let (path, text) = self.document(&p.text_document.uri)?;
        let project = self.project()?;
        let generation = self.state.lock().ok()?.docs.generation;
        self.schemas.at_generation(generation);
        let ctx = Ctx::new(&project, &path, &text, p.position, &self.schemas)?;
        f(&ctx)
    }

    fn code_actions(&self, p: &CodeActionParams) -> Option<Vec<lsp_types::CodeActionOrCommand>> {
        let (path, text) = self.document(&p.text_document.uri)?;
        let name = path.file_name()?.to_string_lossy().into_owned();
        Some(super::actions::actions(
            &p.text_document.uri,
            &name,
            &text,
            &p.context.diagnostics,
        ))
    }

    /// Handles a notification (never fails: a malformed one is ignored).
    pub fn notify(&mut self, n: Notification) {
        let _ = catch_unwind(AssertUnwindSafe(|| self.on(n)));
    }

    fn on(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    self.set(d.uri, d.version, d.text);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    // Full synchronisation: the last change is the whole text.
                    if let Some(c) = p.content_changes.into_iter().last() {
                        self.set(p.text_document.uri, p.text_document.version, c.text);
                    }
                }
            }
            "textDocument/didSave" => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) {
                    self.saved(&p.text_document.uri);
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    if let Some(path) = uri_path(&p.text_document.uri) {
                        let disk = self.project().and_then(|p| {
                            let policy = crate::files::ReadPolicy::repository(p.dir());
                            crate::files::read_allowed(&path, &policy)
                        });
                        if let Ok(mut s) = self.state.lock() {
                            s.docs.close(&path, disk.as_deref());
                        }
                        self.lint(path);
                    }
                }
            }
            "workspace/didChangeWatchedFiles" => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) {
                    self.watched(p);
                }
            }
            _ => {}
        }
    }

    fn set(&mut self, uri: Uri, version: i32, text: String) {
        let Some(path) = uri_path(&uri) else { return };
        if let Ok(mut s) = self.state.lock() {
            let doc = Document {
                uri,
                text: Arc::from(text),
                version,
            };
            s.docs.set(path.clone(), doc);
        }
        self.lint(path);
    }

    fn saved(&mut self, uri: &Uri) {
        let Some(path) = uri_path(uri) else { return };
        let is_config = self.project().is_none_or(|p| p.is_config(&path));
        if is_config {
            self.reload();
        } else {
            self.lint(path);
        }
    }

    /// Files changed on disk: a configuration changed or a file came or went (discovery may
    /// find other roots), or files changed that the open buffers do not cover.
    fn watched(&mut self, p: DidChangeWatchedFilesParams) {
        let project = self.project();
        let mut changed = Vec::new();
        let mut reload = project.is_none();
        for c in p.changes {
            let Some(path) = uri_path(&c.uri) else {
                continue;
            };
            let is_config = project.as_ref().is_some_and(|p| p.is_config(&path));
            reload |= is_config || c.typ != FileChangeType::CHANGED;
            changed.push(path);
        }
        if reload {
            self.reload();
        } else if let Some(l) = &self.linter {
            l.lint(changed);
        }
    }

    /// Asks the editor to tell about changes of the configuration and of ytt files on disk,
    /// when it can be asked.
    pub fn watch(&self, params: &InitializeParams) {
        let dynamic = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        if !dynamic {
            return;
        }
        let glob = |p: &str| FileSystemWatcher {
            glob_pattern: GlobPattern::String(p.to_string()),
            kind: None,
        };
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![
                glob("**/.yttlint.{yaml,yml}"),
                glob("**/*.{yml,yaml,star,txt}"),
            ],
        };
        let registration = Registration {
            id: "yttlint-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        };
        let request = Request::new(
            lsp_server::RequestId::from("yttlint-watch".to_string()),
            "client/registerCapability".into(),
            RegistrationParams {
                registrations: vec![registration],
            },
        );
        (self.send)(Message::Request(request));
    }

    fn lint(&self, path: PathBuf) {
        if let Some(l) = &self.linter {
            l.lint(vec![path]);
        }
    }
}

/// A result as JSON (`null` for `None`).
fn json_of<T: serde::Serialize>(v: Option<T>) -> Result<Value, (ErrorCode, String)> {
    Ok(serde_json::to_value(v).unwrap_or(Value::Null))
}
