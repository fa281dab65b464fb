//! One evaluation of one library (ytt's `LibraryExecution`): its files evaluated in order with
//! its data values, library files (`.star`, `.lib.yml`) evaluated for their exports, overlay
//! documents applied to the other documents, and the outputs in file order.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use starlark::any::{AnyLifetime, ProvidesStaticType};
use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;

use super::envelope::Envelope;
use super::loader::Loader;
use super::plain::overridden;
use super::tree::{dir_of, strip_dir};
use super::{EvalOpts, Output, OutputContent, OutputFile, Workspace};
use crate::eval::host::{Extra, FileCtx, Host};
use crate::eval::limits::Limits;
use crate::eval::ready::{self, Ready, Variant};
use crate::eval::run::{eval_ready, Built, ErrorKind, EvalError, LibEnv};
use crate::files::{FileType, InputFile};
use crate::schema::SchemaDoc;
use crate::template::compile::{compile_text, compile_yaml_in, CompileOpts};
use crate::yaml::{DocSet, Document, Value};

/// What the modules of this layer (`@ytt:data`, `@ytt:library`) reach through the evaluator's
/// `extra`: the library evaluation and the context of the file being evaluated.
pub struct Current<'a> {
    pub exec: &'a LibExec<'a>,
    pub ctx: &'a FileCtx,
}

impl<'a> Current<'a> {
    /// The library evaluation behind the evaluator's `extra`, if there is one.
    pub fn of(extra: Option<&'a Extra<'a>>) -> Option<Current<'a>> {
        let x = extra?;
        let exec = x.host.upper().downcast_ref::<LibExec>()?;
        Some(Current { exec, ctx: &x.ctx })
    }
}

/// One evaluation of the library rooted at `root`.
#[derive(ProvidesStaticType)]
pub struct LibExec<'w> {
    pub ws: &'w Workspace,
    pub root: String,
    pub opts: EvalOpts,
    /// The library's final data values.
    pub values: Document,
    /// Data values addressed to private libraries.
    pub child_values: Vec<Envelope>,
    /// Schema documents addressed to private libraries.
    pub child_schemas: Vec<SchemaDoc>,
    /// Files that hold data values or schemas (never output), by [`file_id`]: one run may
    /// name two files with one relative path (`-f a/x.yml -f b/x.yml`), and ytt keeps both.
    pub(super) not_for_output: RefCell<HashSet<usize>>,
    pub(super) modules: RefCell<HashMap<String, FrozenModule>>,
    /// The modules a second run of an evaluation loaded anew (`eval::index_retry`), with the
    /// number of that run: kept apart from `modules`, and dropped when another run starts.
    pub(super) modules_again: RefCell<(u64, HashMap<String, FrozenModule>)>,
    pub(super) loading: RefCell<Vec<String>>,
    /// `data.values` as a frozen Starlark struct, built on the first `load("@ytt:data")` and
    /// shared by every later one (a large library loads it from dozens of files).
    pub data_values: RefCell<Option<FrozenModule>>,
}

/// The result of evaluating a library.
pub struct EvalResult {
    pub output: Output,
    /// Library files' modules with their paths relative to the library, for `export()`.
    pub exports: Vec<(String, FrozenModule)>,
}

/// An empty data values document.
pub fn empty_values() -> Document {
    Document::new(Value::Map(Box::default()), crate::pos::Pos::unknown())
}

impl<'w> LibExec<'w> {
    pub fn new(ws: &'w Workspace, root: String, opts: EvalOpts) -> LibExec<'w> {
        LibExec {
            ws,
            root,
            opts,
            values: empty_values(),
            child_values: Vec::new(),
            child_schemas: Vec::new(),
            not_for_output: RefCell::new(HashSet::new()),
            modules: RefCell::new(HashMap::new()),
            modules_again: RefCell::new((0, HashMap::new())),
            loading: RefCell::new(Vec::new()),
            data_values: RefCell::new(None),
        }
    }

    /// Sets the final data values (after [`LibExec::compute_values`]).
    pub fn set_values(&mut self, values: Document, children: Vec<Envelope>) {
        self.values = values;
        self.child_values = children;
        self.modules.borrow_mut().clear();
        self.data_values.borrow_mut().take();
    }

    /// The library's own files (not those of its private libraries), in ytt's order.
    pub fn accessible(&self) -> Vec<&'w InputFile> {
        self.ws.accessible(&self.root)
    }

    /// A file's place in the run's file order (ytt's `OrderLess`).
    pub fn file_index(&self, path: &str) -> usize {
        self.ws
            .files
            .iter()
            .position(|f| f.rel_path == path)
            .unwrap_or(usize::MAX)
    }

    /// A file's path relative to the library root.
    pub fn rel_path<'p>(&self, path: &'p str) -> &'p str {
        strip_dir(&self.root, path).unwrap_or(path)
    }

    /// The context a file of this library is evaluated in.
    pub fn ctx_of(&self, f: &InputFile) -> FileCtx {
        FileCtx {
            root: self.root.clone(),
            dir: dir_of(&f.rel_path).to_string(),
        }
    }

    /// Parses, compiles and evaluates one YAML or text file in `ctx`. Plain files (not
    /// templates, or YAML without any `#@`) are not compiled.
    pub fn eval_file(
        &self,
        f: &InputFile,
        ctx: FileCtx,
    ) -> Result<(Option<Built>, Option<FrozenModule>), EvalError> {
        // Parsing and compiling are in the file too (a YAML file may be costly to parse).
        let _entered = crate::eval::progress::enter(&f.rel_path);
        super::readable(f)?;
        let name: Arc<str> = Arc::from(f.rel_path.as_str());
        let templated = f.is_template() || f.is_library();
        // ytt's number for this compile, shown in messages; the code gets `CODE_TEMPLATE_ID`.
        let shown_id = self.ws.env.template_id();
        self.ws
            .env
            .template_ids
            .borrow_mut()
            .insert(f.rel_path.clone(), shown_id);
        let id = ready::CODE_TEMPLATE_ID;
        let is_text = f.file_type() == FileType::Text;
        let yaml = if is_text {
            if !templated {
                return Ok((Some(Built::Text(f.data.to_string())), None));
            }
            None
        } else {
            let (ds, templating) = self.ws.templating(f, self.opts.strict)?;
            if !templated || !templating {
                return Ok((Some(Built::DocSet(overridden(&ds))), None));
            }
            Some(ds)
        };
        let variant = Variant {
            template_id: id,
            text: is_text,
            strict: self.opts.strict,
            ignore_unknown_comments: self.opts.ignore_unknown_comments,
        };
        // Compiled and parsed once per thread for the same text (see `eval::ready`).
        let ready = ready::shared(&f.data, &name, variant, || {
            let compiled = match &yaml {
                None => compile_text(&f.data, &name, id).map_err(|e| {
                    EvalError::new(
                        ErrorKind::Syntax,
                        format!("Parsing text template '{}': {}", f.rel_path, e.message),
                        Some(e.pos),
                    )
                })?,
                Some(ds) => compile_yaml_in(
                    ds,
                    &name,
                    id,
                    CompileOpts {
                        ignore_unknown_comments: self.opts.ignore_unknown_comments,
                    },
                    &f.data,
                )
                .map_err(|e| compile_error(&f.rel_path, e))?,
            };
            Ready::new(&self.ws.env, compiled).map_err(|e| in_text(is_text, e))
        })
        .map_err(|e| e.map_message(|m| self.ws.env.shown_names(&f.rel_path, &m)))?;
        let loader = Loader::new(self, ctx.clone());
        let extra = Extra { host: self, ctx };
        eval_ready(
            &self.ws.env,
            &self.ws.globals,
            &loader,
            &extra,
            ready,
            self.opts.implicit_map_key_overrides,
        )
        .map(|(b, m)| (b, Some(m)))
        .map_err(|e| in_text(is_text, e))
    }

    /// Evaluates the library's templates and library files, then applies its overlays.
    pub fn eval(&self) -> Result<EvalResult, EvalError> {
        let mut docsets: Vec<(String, DocSet)> = Vec::new();
        let mut texts: Vec<OutputFile> = Vec::new();
        let mut exports = Vec::new();
        let skip = self.not_for_output.borrow().clone();
        for f in self.accessible() {
            let ctx = self.ctx_of(f);
            if f.is_for_output() && !skip.contains(&file_id(f)) {
                match f.file_type() {
                    FileType::Yaml | FileType::Text => {}
                    _ => continue,
                }
                match self.eval_file(f, ctx)?.0 {
                    Some(Built::DocSet(ds)) => docsets.push((f.rel_path.clone(), ds)),
                    Some(Built::Text(t)) => texts.push(OutputFile {
                        rel_path: self.rel_path(&f.rel_path).to_string(),
                        content: OutputContent::Text(t),
                    }),
                    _ => {}
                }
            } else if f.is_library() && f.file_type() != FileType::Unknown {
                let m = Loader::new(self, ctx).module(f)?;
                exports.push((self.rel_path(&f.rel_path).to_string(), m));
            }
        }
        self.check_unused()?;
        // Templates run in library order, but their outputs follow the run's file order.
        docsets.sort_by_cached_key(|(path, _)| self.file_index(path));
        let docsets = crate::eval::overlay_host::post_process(self, docsets)?;
        let mut output = Output {
            files: texts,
            ..Output::default()
        };
        for (path, ds) in docsets {
            let start = output.docs.items.len();
            output.docs.items.extend(ds.items);
            output.files.push(OutputFile {
                rel_path: self.rel_path(&path).to_string(),
                content: OutputContent::Docs(start..output.docs.items.len()),
            });
        }
        Ok(EvalResult { output, exports })
    }

    /// ytt refuses data values and schemas addressed to a library that no template evaluated.
    fn check_unused(&self) -> Result<(), EvalError> {
        let mut unused: Vec<String> = self
            .child_values
            .iter()
            .filter(|e| !e.is_used())
            .map(|e| e.desc())
            .collect();
        let mut kinds = Vec::new();
        if !unused.is_empty() {
            kinds.push("data values");
        }
        let schemas: Vec<String> = self
            .child_schemas
            .iter()
            .filter(|s| !s.env.is_used())
            .map(|s| s.env.desc_as("Schema"))
            .collect();
        if !schemas.is_empty() {
            kinds.push("schema");
        }
        unused.extend(schemas);
        if unused.is_empty() {
            return Ok(());
        }
        Err(EvalError::new(
            ErrorKind::Template,
            format!(
                "Expected all provided library {} documents to be used but found unused: {}",
                kinds.join(", and "),
                unused.join(", ")
            ),
            None,
        ))
    }

    /// The data values as ytt gives them to templates (`None` for a null document, e.g. the
    /// defaults of a nullable schema document).
    pub fn values_map(&self) -> Value {
        self.values.value.clone()
    }
}

impl Host for LibExec<'_> {
    fn env(&self) -> &LibEnv {
        &self.ws.env
    }

    fn limits(&self) -> &Limits {
        &self.opts.limits
    }

    fn root(&self) -> &str {
        &self.root
    }

    fn load(&self, ctx: &FileCtx, path: &str) -> starlark::Result<FrozenModule> {
        Loader::new(self, ctx.clone()).load(path)
    }

    fn upper(&self) -> &dyn AnyLifetime<'_> {
        self
    }
}

/// A YAML template that does not compile, in ytt's words: a plain `#` comment ytt does not
/// accept, or an error of the template's code.
pub fn compile_error(file: &str, e: crate::template::compile::CompileError) -> EvalError {
    let kind = if e.unknown_comment {
        ErrorKind::UnknownComment
    } else {
        ErrorKind::Syntax
    };
    EvalError::new(
        kind,
        format!("Compiling YAML template '{file}': {}", e.message),
        Some(e.pos),
    )
}

/// A text template's error says so (ytt's `Evaluating text template: ...`).
fn in_text(is_text: bool, e: EvalError) -> EvalError {
    match is_text {
        true => e.map_message(|m| format!("Evaluating text template: {m}")),
        false => e,
    }
}

/// A file of the run, told apart from another file with the same relative path (ytt keeps
/// both): its place in the workspace's list, which lives as long as the library's evaluation.
pub(super) fn file_id(f: &InputFile) -> usize {
    std::ptr::from_ref(f) as usize
}
