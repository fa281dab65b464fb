//! Evaluates compiled templates and Starlark files of one library: turns ytt-dialect code into
//! Starlark the crate runs, evaluates it with the instruction functions, limits and a loader,
//! freezes the module, and maps errors back to template lines in ytt's format.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use starlark::any::{AnyLifetime, ProvidesStaticType};
use starlark::environment::{FrozenModule, Globals, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect, DialectTypes};
use starlark::values::OwnedFrozenValue;

use super::build::TemplateRt;
use super::instr::TplInstr;
use super::limits::Limits;
use super::state::TplState;
use crate::pos::Pos;
use crate::template::compile::Compiled;
use crate::template::rewrite::{RewriteOpts, TplNames};

pub use super::build::Built;
pub use super::ready::Ready;

/// Maps lines of the Starlark code given to the crate back to template lines.
#[derive(Debug, Default)]
pub struct LineMap {
    /// Index = generated line - 1.
    pub lines: Vec<Option<Pos>>,
    /// Generated code, for lines that have no template line.
    pub code: Vec<String>,
    /// Frames show the line number alone (`4 | ...`): ytt compiles a Starlark file's code
    /// with positions that have no file name.
    pub bare_lines: bool,
}

/// Everything evaluations of one library share (reached from native functions via `extra`).
#[derive(ProvidesStaticType, Default)]
pub struct LibEnv {
    pub limits: Limits,
    pub line_maps: RefCell<HashMap<String, Arc<LineMap>>>,
    /// Source text of every file, by the name used in positions.
    pub sources: RefCell<HashMap<String, Arc<str>>>,
    /// Frozen states of finished modules, to resolve annotation handles.
    pub frozen_states: RefCell<HashMap<u32, OwnedFrozenValue>>,
    pub next_module_id: Cell<u32>,
    pub next_template_id: Cell<u32>,
    /// The id ytt gives the latest compile of each template, by file name: the code is
    /// compiled with [`super::ready::CODE_TEMPLATE_ID`] (so that a copy of a template, or
    /// the same template in another job, is parsed once), and messages show this one.
    pub template_ids: RefCell<HashMap<String, u32>>,
    /// Whether evaluations keep each file's parsed code in `asts` (for static analysis after
    /// the evaluation, which then need not compile the file again).
    pub keep_asts: Cell<bool>,
    pub asts: RefCell<HashMap<String, Arc<AstModule>>>,
    /// Which statements evaluations ran, when the linter asks (see [`super::coverage`]).
    pub coverage: super::coverage::Recorder,
    /// Every overlay document a library's output was post-processed with, and how many
    /// documents it matched (for the linter's `overlay-matches-nothing`).
    pub overlay_matches: RefCell<Vec<crate::overlay::Matched>>,
}

impl LibEnv {
    pub fn new(limits: Limits) -> LibEnv {
        LibEnv {
            limits,
            next_module_id: Cell::new(1),
            next_template_id: Cell::new(1),
            ..LibEnv::default()
        }
    }

    /// `text` with the instruction functions' names of the code (see
    /// [`super::ready::CODE_TEMPLATE_ID`]) as ytt names them for `file`'s latest compile.
    pub fn shown_names(&self, file: &str, text: &str) -> String {
        let code = super::ready::CODE_PREFIX;
        match self.shown_prefix(file) {
            Some(prefix) if text.contains(code) => text.replace(code, &prefix),
            _ => text.to_string(),
        }
    }

    /// The prefix of the instruction functions' names as ytt names them for `file`'s latest
    /// compile, if it was compiled in this job.
    fn shown_prefix(&self, file: &str) -> Option<String> {
        let id = *self.template_ids.borrow().get(file)?;
        Some(crate::template::compile::Instructions::new(id).prefix)
    }

    pub fn template_id(&self) -> u32 {
        let id = self.next_template_id.get() + 1;
        self.next_template_id.set(id);
        id
    }

    pub(crate) fn module_id(&self) -> u32 {
        let id = self.next_module_id.get();
        self.next_module_id.set(id + 1);
        id
    }

    /// The source line `line` (1-based) of `file`.
    pub fn source_line(&self, file: &str, line: u32) -> Option<String> {
        line_of(self.sources.borrow().get(file)?, line)
    }
}

/// The line `line` (1-based) of `src`, without its line end.
pub fn line_of(src: &str, line: u32) -> Option<String> {
    src.split('\n')
        .nth(line.checked_sub(1)? as usize)
        .map(|l| l.trim_end_matches('\r').to_string())
}

/// The Starlark dialect of ytt.
pub fn dialect() -> Dialect {
    Dialect {
        enable_def: true,
        enable_lambda: true,
        enable_load: true,
        enable_keyword_only_arguments: false,
        enable_positional_only_arguments: false,
        enable_types: DialectTypes::Disable,
        enable_load_reexport: false,
        enable_top_level_stmt: true,
        enable_f_strings: false,
        ..Dialect::Extended
    }
}

/// What kind of failure an [`EvalError`] is, set where the error is made. ytt's exact text
/// stays in the message; nothing reads the kind back from the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file that is not YAML (ytt's "Unmarshaling YAML template").
    YamlSyntax,
    /// A plain `#` comment ytt does not accept.
    UnknownComment,
    /// A `load()` that finds nothing, or whose file does not compile or fails an overlay.
    Load,
    /// A `load()` whose file fails while it is evaluated (what it reads decides, as for
    /// [`ErrorKind::Template`]): reported as a failed load, resting on the inputs like the
    /// failure inside it, whichever file loads the module first.
    LoadEvaluation,
    /// An overlay that does not match as its annotations demand, or an overlay operation that
    /// fails.
    Overlay,
    /// A data values schema that is not well formed.
    SchemaInvalid,
    /// A data values schema document that is not well formed on its own (`@schema/nullable`
    /// inside an `any=True` fragment, a schema file holding other documents): ytt fails on it
    /// whatever other files and values the command gives. Reported as
    /// [`ErrorKind::SchemaInvalid`], resting on the file's text.
    SchemaDocInvalid,
    /// A data value of a type its schema does not declare.
    ValueType,
    /// Final data values that fail their validations.
    DataValuesInvalid,
    /// Output documents that fail their validations.
    OutputInvalid,
    /// A data value set that the schema marks removed (with the `schema-removed` extension).
    DataValueRemoved,
    /// A limit on time, steps, heap or recursion was hit.
    Limit,
    /// A template or Starlark file that does not compile (a syntax error, an undefined name),
    /// or an input ytt cannot read. Reported like [`ErrorKind::Template`]; it holds whatever
    /// command gives the file and whatever data values are given.
    Syntax,
    /// Any other compile or evaluation error of a template or Starlark file.
    Template,
}

/// An evaluation error, already in ytt's multi-line format (without `ytt: Error:`).
#[derive(Debug, Clone)]
pub struct EvalError {
    pub kind: ErrorKind,
    pub message: String,
    pub pos: Option<Pos>,
}

impl EvalError {
    pub fn new(kind: ErrorKind, message: impl Into<String>, pos: Option<Pos>) -> EvalError {
        EvalError {
            kind,
            message: message.into(),
            pos,
        }
    }

    /// The same error with its message rewritten (ytt's wrapping of an inner error).
    pub fn map_message(self, f: impl FnOnce(String) -> String) -> EvalError {
        EvalError {
            message: f(self.message),
            ..self
        }
    }

    /// The error as a Starlark error, for a native function that runs a nested evaluation
    /// (`library.eval()`, `load()`): its kind travels with it, and [`ErrorKind::of_starlark`]
    /// finds it again.
    pub fn into_starlark(self) -> starlark::Error {
        starlark::Error::new_other(self)
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvalError {}

/// Marks a native function's error with a kind other than [`ErrorKind::Template`] (an overlay
/// operation of `@ytt:overlay`, a `load()` that finds nothing), so that the evaluation error
/// made of it has that kind.
#[derive(Debug)]
pub struct KindedError {
    pub kind: ErrorKind,
    pub message: String,
}

impl std::fmt::Display for KindedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for KindedError {}

impl ErrorKind {
    /// The kind a Starlark error carries: the kind of the nested evaluation error or the
    /// [`KindedError`] it was made from, else [`ErrorKind::Template`].
    pub fn of_starlark(err: &starlark::Error) -> ErrorKind {
        use starlark::ErrorKind as K;
        let inner = match err.kind() {
            K::Fail(e)
            | K::StackOverflow(e)
            | K::Value(e)
            | K::Function(e)
            | K::Scope(e)
            | K::Native(e)
            | K::Other(e) => e,
            K::Parser(_) => return ErrorKind::Syntax,
            _ => return ErrorKind::Template,
        };
        if let Some(e) = inner.downcast_ref::<EvalError>() {
            e.kind
        } else if let Some(e) = inner.downcast_ref::<KindedError>() {
            e.kind
        } else if matches!(err.kind(), K::Scope(_)) && err.call_stack().frames.is_empty() {
            // An undefined name, found before the code runs.
            ErrorKind::Syntax
        } else {
            ErrorKind::Template
        }
    }
}

/// Joins compiled lines as ytt does (left-trimmed unless continuing a previous line) and
/// rewrites the `end` dialect into indented Starlark, composing the line maps.
pub fn to_starlark(c: &Compiled) -> Result<(String, LineMap), EvalError> {
    let mut joined = Vec::with_capacity(c.code.len());
    let mut cont = false;
    for line in &c.code {
        let text = if cont {
            line.code.clone()
        } else {
            line.code.trim_start().to_string()
        };
        cont = text.ends_with('\\');
        joined.push(text);
    }
    let source = crate::template::keywords::rename_reserved(&joined.join("\n"));
    let ins = &c.instructions;
    let opts = RewriteOpts {
        while_iter: "__ytt_while".to_string(),
        tpl: Some(TplNames {
            start_node: ins.name("start_node"),
            set_node: ins.name("set_node"),
            start_ctx: ins.name("start_ctx"),
            end_ctx: ins.name("end_ctx"),
            set_ctx_type: ins.name("set_ctx_type"),
        }),
    };
    let out = super::rewrite_kept::rewritten(&source, &opts).map_err(|e| {
        let pos = c
            .code
            .get((e.line as usize).saturating_sub(1))
            .and_then(|l| l.src.clone());
        EvalError::new(ErrorKind::Syntax, e.message.clone(), pos)
    })?;
    let mut map = LineMap::default();
    for input_line in out.line_map.iter() {
        let idx = (*input_line as usize).saturating_sub(1);
        map.lines.push(c.code.get(idx).and_then(|l| l.src.clone()));
        map.code
            .push(c.code.get(idx).map(|l| l.code.clone()).unwrap_or_default());
    }
    Ok((out.code.to_string(), map))
}

/// Chooses the globals a module's code is evaluated with: all of the builtins are costly to
/// build (the Starlark crate parses every builtin's documentation when it registers it), and
/// a module that names none of some of them can do without those.
pub trait GlobalsFor {
    /// Whether a module whose code is `code` needs the wide globals; the answer depends on the
    /// code alone, so a template made ready once keeps it ([`super::ready::Ready::wide`]).
    fn wide(&self, code: &str) -> bool;

    /// The wide globals, or the narrow ones.
    fn globals(&self, wide: bool) -> &Globals;

    /// The globals for a module whose code is `code`.
    fn globals_for(&self, code: &str) -> &Globals {
        self.globals(self.wide(code))
    }
}

/// Evaluates a compiled template made ready to run (see [`super::ready`]) in a fresh module;
/// returns what it built and the frozen module.
pub fn eval_ready(
    env: &LibEnv,
    globals: &dyn GlobalsFor,
    loader: &dyn starlark::eval::FileLoader,
    extra: &dyn AnyLifetime<'_>,
    ready: Ready,
    implicit_map_key_overrides: bool,
) -> Result<(Option<Built>, FrozenModule), EvalError> {
    let file = ready.file.to_string();
    env.line_maps
        .borrow_mut()
        .insert(file.clone(), ready.map.clone());
    let rt = Arc::new(TemplateRt {
        file: ready.file.clone(),
        nodes: ready.nodes.clone(),
        implicit_map_key_overrides,
    });
    let wide = *ready.wide.get_or_init(|| globals.wide(&ready.code));
    let globals = globals.globals(wide);
    let names = ready.names.clone();
    // Every name starts with the code's prefix: ytt's prefix for this compile, found once.
    let prefix = env.shown_prefix(&file);
    eval_parsed(env, globals, loader, extra, &file, ready.ast, |module| {
        for (op, name) in names.iter() {
            let shown = match &prefix {
                Some(p) => name.replacen(super::ready::CODE_PREFIX, p, 1),
                None => name.clone(),
            };
            let v = module.heap().alloc(TplInstr {
                tpl: rt.clone(),
                op: *op,
                name: shown,
            });
            module.set(name, v);
        }
    })
}

/// A template's compile error in ytt's layout: `- message`, then the template line.
pub(crate) fn framed(e: EvalError, env: &LibEnv) -> EvalError {
    let mut message = format!("\n- {}", e.message);
    if let Some(pos) = e.pos.as_ref().filter(|p| p.is_known()) {
        let file = pos.file.as_deref().unwrap_or_default();
        let src = env.source_line(file, pos.line).unwrap_or_default();
        message.push_str(&format!("\n    {} | {}", pos.as_compact(), src));
    }
    EvalError { message, ..e }
}

/// Evaluates Starlark code (already in the crate's dialect) as the module `file`.
pub fn eval_code(
    env: &LibEnv,
    globals: &dyn GlobalsFor,
    loader: &dyn starlark::eval::FileLoader,
    extra: &dyn AnyLifetime<'_>,
    file: &str,
    code: String,
    setup: impl Fn(&Module),
) -> Result<(Option<Built>, FrozenModule), EvalError> {
    let globals = globals.globals_for(&code);
    if let Some((line, depth)) = super::nesting::too_deep(&code) {
        return Err(super::nesting::error(env, file, line, depth));
    }
    let ast = {
        let _entered = super::progress::enter(file);
        super::gocompat::parse(file, code, &dialect())
            .map_err(|e| super::errors::format_error(&e, env))?
    };
    eval_parsed(env, globals, loader, extra, file, Arc::new(ast), setup)
}

/// Evaluates parsed code as the module `file` with `globals`. The parse is kept for static
/// analysis when `env` asks for it (the first evaluation of each file), else used up. An
/// evaluation that fails in an index expression runs again to word it as starlark-go does
/// (see [`super::index_retry`]).
fn eval_parsed(
    env: &LibEnv,
    globals: &Globals,
    loader: &dyn starlark::eval::FileLoader,
    extra: &dyn AnyLifetime<'_>,
    file: &str,
    ast: Arc<AstModule>,
    setup: impl Fn(&Module),
) -> Result<(Option<Built>, FrozenModule), EvalError> {
    let codemap = ast.file_span(ast.statement().span).file;
    let err = match eval_once(env, globals, loader, extra, file, ast, &setup)? {
        Ok(done) => return Ok(done),
        Err(e) => e,
    };
    if !super::index_retry::worth_again(&err) {
        return Err(super::errors::format_error(&err, env));
    }
    let again = super::index_retry::during(|| {
        let ast = super::gocompat::parse(file, codemap.source().to_string(), &dialect()).ok()?;
        eval_once(env, globals, loader, extra, file, Arc::new(ast), &setup)
            .ok()?
            .err()
    });
    let worded =
        again.filter(|e| super::index_retry::is_go_words(&super::errors::plain_message(e)));
    Err(super::errors::format_error(
        worded.as_ref().unwrap_or(&err),
        env,
    ))
}

/// One evaluation of `file`: what it built and its frozen module, or the Starlark error it
/// stopped at (formatting it is left to the caller).
fn eval_once(
    env: &LibEnv,
    globals: &Globals,
    loader: &dyn starlark::eval::FileLoader,
    extra: &dyn AnyLifetime<'_>,
    file: &str,
    ast: Arc<AstModule>,
    setup: &impl Fn(&Module),
) -> Result<Result<(Option<Built>, FrozenModule), starlark::Error>, EvalError> {
    let _entered = super::progress::enter(file);
    let again = super::index_retry::run_number().is_some();
    let ast = match super::index_retry::rewritten(&ast) {
        Some(code) => Arc::new(
            super::gocompat::parse(file, code, &dialect())
                .map_err(|e| super::errors::format_error(&e, env))?,
        ),
        None => ast,
    };
    if !again {
        if env.keep_asts.get() && !env.asts.borrow().contains_key(file) {
            // A parse a cache shares is kept as it is; one of this evaluation alone is used up
            // by it, and the analysis gets a copy.
            let kept = match Arc::strong_count(&ast) {
                1 => Arc::new(AstModule::clone(&ast)),
                _ => ast.clone(),
            };
            env.asts.borrow_mut().insert(file.to_string(), kept);
        }
        env.coverage.register(file, &ast);
    }
    let ast = Arc::try_unwrap(ast).unwrap_or_else(|shared| AstModule::clone(&shared));
    let hook = env.coverage.hook();
    Module::with_temp_heap(|module| {
        let id = env.module_id();
        module.set_extra_value(module.heap().alloc_complex(TplState::new(id)));
        setup(&module);
        let result = {
            let mut eval = Evaluator::new(&module);
            eval.set_loader(loader);
            eval.extra = Some(extra);
            env.limits.apply(&mut eval);
            if !again {
                env.coverage.attach(&mut eval, &hook);
            }
            let r = eval.eval_module(ast, globals);
            env.limits.finish();
            if let Err(e) = r {
                return Ok(Err(e));
            }
            let state = super::state::current(&eval);
            state.and_then(|s| s.result.borrow_mut().take())
        };
        let frozen = module.freeze().map_err(|e| {
            EvalError::new(
                ErrorKind::Template,
                format!("freezing module {file}: {e:?}"),
                None,
            )
        })?;
        if let Some(v) = frozen.owned_extra_value() {
            env.frozen_states.borrow_mut().insert(id, v);
        }
        Ok(Ok((result, frozen)))
    })
}

/// The module of a file with nothing to export (a plain YAML or text library file).
pub fn empty_module() -> Result<FrozenModule, EvalError> {
    Module::with_temp_heap(|m| m.freeze())
        .map_err(|e| EvalError::new(ErrorKind::Template, format!("freezing module: {e:?}"), None))
}
