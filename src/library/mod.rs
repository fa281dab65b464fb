//! Evaluation of a run's files as ytt does it: the root library and the private libraries in
//! `_ytt_lib` directories, each with its data values, templates, `load()`s and overlays.
//!
//! A [`Workspace`] holds the files and what all evaluations share; a [`exec::LibExec`] is one
//! evaluation of one library (the root, or a private library evaluated by `library.get()`).

pub mod exec;
pub mod lines;
pub mod loader;
pub mod plain;
pub mod schema_docs;
pub(crate) mod star_code;
pub mod struct_keys;
pub mod tree;
pub mod undeclared;
pub mod values;
pub mod ytt_data;
pub mod ytt_library;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::eval::limits::Limits;
use crate::eval::run::{ErrorKind, EvalError, LibEnv};
use crate::files::InputFile;
use crate::pos::Pos;
use crate::schema::Schema;
use crate::validate::Invalidation;
use crate::yaml::parse::ParseOpts;
use crate::yaml::shared::parse_shared;
use crate::yaml::{DocSet, Document};
use schema_docs::compute_schema;

pub use crate::schema::envelope;
pub use crate::schema::envelope::Envelope;
pub use exec::LibExec;

/// The error of reading `f` when it could not be read (see [`InputFile::unreadable`]): ytt's
/// message, at the file's first line.
pub fn readable(f: &InputFile) -> Result<(), EvalError> {
    match &f.unreadable {
        // Whatever command gives the file, ytt cannot read it.
        Some(message) => Err(EvalError::new(
            ErrorKind::Syntax,
            message.to_string(),
            Some(Pos::new(&Arc::from(f.rel_path.as_str()), 1, 1, 0)),
        )),
        None => Ok(()),
    }
}

/// Options of a library evaluation (the template flags of `ytt`).
#[derive(Clone, Debug, Default)]
pub struct EvalOpts {
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub strict: bool,
    pub limits: Limits,
    /// Skip data values validations (`--dangerous-data-values-disable-validation`); passed on
    /// to every library evaluated from this one.
    pub skip_validation: bool,
    /// Skip the validations of output documents (`--output-disable-validation`).
    pub skip_output_validation: bool,
    /// yttlint's schema extensions turned on (none: render as ytt).
    pub extensions: crate::schema::extensions::Extensions,
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
    /// The file's documents: this range of [`Output::docs`].
    Docs(std::ops::Range<usize>),
    Text(String),
}

#[derive(Debug)]
pub struct OutputFile {
    /// Path relative to the library.
    pub rel_path: String,
    pub content: OutputContent,
}

/// Data values given from outside the library (command-line flags).
#[derive(Debug, Default)]
pub struct ExternalValues {
    /// Documents for the root library, in flag order.
    pub root: Vec<Envelope>,
    /// Documents addressed to private libraries (`@lib:` prefixes).
    pub libraries: Vec<Envelope>,
    /// Source text of the data values files, by the name used in positions.
    pub sources: Vec<(String, Arc<str>)>,
    /// The line ytt shows for a value set by a flag (`key=value`), by its position.
    pub flag_lines: Vec<(Pos, String)>,
}

/// All input files of one run and what their evaluations share.
pub struct Workspace {
    pub files: Vec<InputFile>,
    pub opts: EvalOpts,
    pub globals: crate::stdlib::Universe,
    pub env: LibEnv,
    /// Parsed files by path, strictness and content (two files given with the same relative
    /// path, `-f a/values.yml -f b/values.yml`, are different files).
    parsed: RefCell<HashMap<(String, bool, usize), Arc<DocSet>>>,
    flag_lines: RefCell<HashMap<Pos, String>>,
    /// Every failed validation of the run, with the library (its directory; empty for the
    /// root) whose data values or output failed: what the linter reports one by one.
    pub violations: RefCell<Vec<(String, Invalidation)>>,
    /// Failed validations of output documents (spec 000, increment 4).
    pub output_violations: RefCell<Vec<Invalidation>>,
    /// Deprecated data values some input set (the linter warns; ytt says nothing).
    pub deprecated: RefCell<Vec<crate::schema::deprecated::DeprecatedUse>>,
    /// Values that inputs set without a declaration (spec 004), by library (empty for the
    /// root); ytt accepts them when there is no schema, the linter reports them.
    pub undeclared: RefCell<Vec<(String, undeclared::Undeclared)>>,
    /// Data values that do not conform to their schema, one by one (ytt stops on them with
    /// one error listing them all).
    pub schema_failures: RefCell<Vec<crate::schema::error::Failure>>,
    /// The root library's schema once computed (the evaluation, the library check and static
    /// analysis all need it; it depends on the files and options alone).
    root_schema: RefCell<Option<Schema>>,
    /// The root library's final data values of the last [`Workspace::evaluate`].
    root_values: RefCell<Option<Document>>,
    /// Per YAML file (key as `parsed`) and annotation: whether a document carries it, or the
    /// error of a node inside one that does (see `values.rs`).
    doc_annotations: RefCell<HashMap<DocAnnotationKey, Result<bool, String>>>,
    /// Per YAML file (key as `parsed`): whether it has templating (see [`Workspace::templating`]).
    templating: RefCell<HashMap<(String, bool, usize), bool>>,
    /// Per library directory: the indices in `files` of the files it can see (see
    /// [`Workspace::accessible`]).
    accessible: RefCell<HashMap<String, Vec<usize>>>,
}

type DocAnnotationKey = (String, bool, usize, String);

impl Workspace {
    pub fn new(files: Vec<InputFile>, opts: EvalOpts) -> Workspace {
        let env = LibEnv::new(opts.limits.clone());
        for f in &files {
            env.sources
                .borrow_mut()
                .insert(f.rel_path.clone(), f.data.clone());
        }
        Workspace {
            files,
            opts,
            globals: crate::stdlib::Universe::default(),
            env,
            parsed: RefCell::new(HashMap::new()),
            flag_lines: RefCell::new(HashMap::new()),
            violations: RefCell::new(Vec::new()),
            output_violations: RefCell::new(Vec::new()),
            deprecated: RefCell::new(Vec::new()),
            undeclared: RefCell::new(Vec::new()),
            schema_failures: RefCell::new(Vec::new()),
            root_schema: RefCell::new(None),
            root_values: RefCell::new(None),
            doc_annotations: RefCell::new(HashMap::new()),
            templating: RefCell::new(HashMap::new()),
            accessible: RefCell::new(HashMap::new()),
        }
    }

    /// Remembers where data values given from outside came from, for messages.
    fn register_sources(&self, external: &ExternalValues) {
        let mut sources = self.env.sources.borrow_mut();
        for (name, text) in &external.sources {
            sources.entry(name.clone()).or_insert_with(|| text.clone());
        }
        let mut lines = self.flag_lines.borrow_mut();
        for (pos, line) in &external.flag_lines {
            lines.insert(pos.clone(), line.clone());
        }
    }

    /// The source text shown for a position in messages (empty when unknown).
    pub fn line_at(&self, pos: &Pos) -> String {
        lines::line_at(&self.flag_lines.borrow(), &self.env.sources.borrow(), pos)
    }

    /// The source text of the file positions name `file`.
    pub fn source_of(&self, file: &str) -> Option<Arc<str>> {
        self.env.sources.borrow().get(file).cloned()
    }

    /// A copy of what [`Workspace::line_at`] reads, for another thread.
    pub fn lines(&self) -> lines::Lines {
        lines::Lines {
            flags: self.flag_lines.borrow().clone(),
            sources: self.env.sources.borrow().clone(),
        }
    }

    pub fn tree(&self) -> tree::Tree<'_> {
        tree::Tree { files: &self.files }
    }

    /// The files the library rooted at `dir` can see ([`tree::Tree::accessible`]), worked out
    /// once per directory: the evaluation, the schema and data values steps and the static
    /// analysis each ask again, and every answer walks all the files once per directory.
    pub fn accessible(&self, dir: &str) -> Vec<&InputFile> {
        let known = self.accessible.borrow().get(dir).cloned();
        let indices = match known {
            Some(indices) => indices,
            None => {
                let indices = self.tree().accessible_indices(dir);
                self.accessible
                    .borrow_mut()
                    .insert(dir.to_string(), indices.clone());
                indices
            }
        };
        indices
            .into_iter()
            .filter_map(|i| self.files.get(i))
            .collect()
    }

    /// The parsed YAML of a file (parsed once per strictness).
    pub fn parse(&self, f: &InputFile, strict: bool) -> Result<Arc<DocSet>, EvalError> {
        let key = (
            f.rel_path.clone(),
            strict,
            Arc::as_ptr(&f.data) as *const u8 as usize,
        );
        if let Some(ds) = self.parsed.borrow().get(&key) {
            return Ok(ds.clone());
        }
        readable(f)?;
        let name: Arc<str> = Arc::from(f.rel_path.as_str());
        if let Some((message, pos)) = f
            .raw
            .as_deref()
            .and_then(|raw| crate::yaml::utf8::error(raw, &name))
        {
            return Err(EvalError::new(
                ErrorKind::YamlSyntax,
                format!("Unmarshaling YAML template '{}': {message}", f.rel_path),
                Some(pos),
            ));
        }
        let ds = parse_shared(&f.data, &name, &ParseOpts { strict }).map_err(|e| {
            EvalError::new(
                ErrorKind::YamlSyntax,
                format!("Unmarshaling YAML template '{}': {}", f.rel_path, e.message),
                Some(e.pos),
            )
        })?;
        self.parsed.borrow_mut().insert(key, ds.clone());
        Ok(ds)
    }

    /// The parsed YAML of a file and whether any of its nodes carries a `#@` comment (ytt's
    /// `HasTemplating`), worked out once per file: evaluation, the library check and the
    /// static analysis all ask, and on a large plain manifest the walk is not free.
    pub fn templating(
        &self,
        f: &InputFile,
        strict: bool,
    ) -> Result<(Arc<DocSet>, bool), EvalError> {
        let ds = self.parse(f, strict)?;
        let key = (
            f.rel_path.clone(),
            strict,
            Arc::as_ptr(&f.data) as *const u8 as usize,
        );
        if let Some(&known) = self.templating.borrow().get(&key) {
            return Ok((ds, known));
        }
        let found = plain::has_templating(&ds);
        self.templating.borrow_mut().insert(key, found);
        Ok((ds, found))
    }

    /// The root library's schema (`--data-values-schema-inspect`).
    pub fn data_values_schema(&self) -> Result<Schema, EvalError> {
        if let Some(schema) = self.root_schema.borrow().as_ref() {
            return Ok(schema.clone());
        }
        let root = LibExec::new(self, String::new(), self.opts.clone());
        let schema = compute_schema(&root, Vec::new())?.0;
        *self.root_schema.borrow_mut() = Some(schema.clone());
        Ok(schema)
    }

    /// The root library's final data values as the last [`Workspace::evaluate`] computed them
    /// (`None` before, or when it stopped before).
    pub fn evaluated_values(&self) -> Option<Document> {
        self.root_values.borrow().clone()
    }

    /// The root library's final data values (`--data-values-inspect`).
    pub fn data_values(&self, external: ExternalValues) -> Result<Document, EvalError> {
        self.register_sources(&external);
        let root = LibExec::new(self, String::new(), self.opts.clone());
        let (schema, _) = compute_schema(&root, Vec::new())?;
        let (values, _) = root.compute_values(external.root, &schema)?;
        Ok(values)
    }

    /// Evaluates the root library with the data values given from outside.
    pub fn evaluate(&self, external: ExternalValues) -> Result<Output, EvalError> {
        self.register_sources(&external);
        let mut root = LibExec::new(self, String::new(), self.opts.clone());
        let (schema, child_schemas) = compute_schema(&root, Vec::new())?;
        *self.root_schema.borrow_mut() = Some(schema.clone());
        let (values, mut children) = root.compute_values(external.root, &schema)?;
        *self.root_values.borrow_mut() = Some(values.clone());
        children.extend(external.libraries);
        root.set_values(values, children);
        root.child_schemas = child_schemas;
        let result = root.eval()?;
        if !self.opts.skip_output_validation {
            crate::validate::output::check_output(
                &root,
                &self.output_violations,
                &result.output.docs,
            )?;
        }
        Ok(result.output)
    }
}

#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod ready_tests;
#[cfg(test)]
mod schema_tests;
