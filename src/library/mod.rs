//! Evaluation of one library: its templates in file order, `load()` of library files and `@ytt:`
//! modules, and the output documents and files.

pub mod loader;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use starlark::environment::{FrozenModule, Globals};

use crate::eval::limits::Limits;
use crate::eval::run::{eval_compiled, Built, EvalError, LibEnv};
use crate::files::{FileType, InputFile};
use crate::template::compile::{compile_text, compile_yaml, CompileOpts};
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{DocSet, Value};

/// Options of a library evaluation (the template flags of `ytt`).
#[derive(Clone, Debug, Default)]
pub struct EvalOpts {
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub strict: bool,
    pub limits: Limits,
}

/// What a library produced.
#[derive(Debug, Default)]
pub struct Output {
    /// YAML documents of all templates, in order.
    pub docs: DocSet,
    /// Every output file (YAML and text templates, and files passed through).
    pub files: Vec<OutputFile>,
}

#[derive(Debug)]
pub enum OutputContent {
    Docs(DocSet),
    Text(String),
}

#[derive(Debug)]
pub struct OutputFile {
    pub rel_path: String,
    pub content: OutputContent,
}

/// A library: its files and shared evaluation state.
pub struct Library {
    pub files: Vec<InputFile>,
    pub opts: EvalOpts,
    pub globals: Globals,
    pub env: LibEnv,
    pub data_values: RefCell<Value>,
    modules: RefCell<HashMap<String, FrozenModule>>,
    loading: RefCell<Vec<String>>,
}

impl Library {
    pub fn new(files: Vec<InputFile>, opts: EvalOpts) -> Library {
        let env = LibEnv::new(opts.limits.clone());
        for f in &files {
            env.sources
                .borrow_mut()
                .insert(f.rel_path.clone(), f.data.clone());
        }
        Library {
            files,
            opts,
            globals: crate::stdlib::globals(),
            env,
            data_values: RefCell::new(Value::Null),
            modules: RefCell::new(HashMap::new()),
            loading: RefCell::new(Vec::new()),
        }
    }

    pub fn file(&self, path: &str) -> Option<&InputFile> {
        self.files.iter().find(|f| f.rel_path == path)
    }

    /// Parses, compiles and evaluates one YAML or text file.
    pub fn eval_file(&self, f: &InputFile) -> Result<(Option<Built>, FrozenModule), EvalError> {
        let name: Arc<str> = Arc::from(f.rel_path.as_str());
        let id = self.env.template_id();
        let compiled = match f.file_type() {
            FileType::Text => compile_text(&f.data, &name, id).map_err(|e| EvalError {
                message: format!("Parsing text template '{}': {}", f.rel_path, e.message),
                pos: Some(e.pos),
            })?,
            _ => {
                let ds = parse(
                    &f.data,
                    &name,
                    &ParseOpts {
                        strict: self.opts.strict,
                    },
                )
                .map_err(|e| EvalError {
                    message: format!("Unmarshaling YAML template '{}': {}", f.rel_path, e.message),
                    pos: Some(e.pos),
                })?;
                compile_yaml(
                    &ds,
                    &name,
                    id,
                    CompileOpts {
                        ignore_unknown_comments: self.opts.ignore_unknown_comments,
                    },
                )
                .map_err(|e| EvalError {
                    message: format!("Compiling YAML template '{}': {}", f.rel_path, e.message),
                    pos: Some(e.pos),
                })?
            }
        };
        let loader = loader::Loader::new(self, &f.rel_path);
        eval_compiled(
            &self.env,
            &self.globals,
            &loader,
            compiled,
            self.opts.implicit_map_key_overrides,
        )
    }

    /// Evaluates every template of the library, in order.
    pub fn evaluate(&self) -> Result<Output, EvalError> {
        let mut out = Output::default();
        for f in &self.files {
            if !f.is_for_output() {
                continue;
            }
            if !f.is_template() {
                out.files.push(OutputFile {
                    rel_path: f.rel_path.clone(),
                    content: OutputContent::Text(f.data.to_string()),
                });
                continue;
            }
            let (built, _) = self.eval_file(f)?;
            match built {
                Some(Built::DocSet(ds)) => {
                    out.docs.items.extend(ds.items.iter().cloned());
                    out.files.push(OutputFile {
                        rel_path: f.rel_path.clone(),
                        content: OutputContent::Docs(ds),
                    });
                }
                Some(Built::Text(t)) => out.files.push(OutputFile {
                    rel_path: f.rel_path.clone(),
                    content: OutputContent::Text(t),
                }),
                _ => {}
            }
        }
        Ok(out)
    }
}
