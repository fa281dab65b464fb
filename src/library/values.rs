//! A library's data values (ytt's data values pre-processing): the `@data/values` documents of
//! its files, evaluated as templates and overlaid in file order, then the documents given from
//! outside (flags, or `with_data_values()` of the parent library). Documents addressed to
//! private libraries are passed on, not merged.

use super::envelope::{Envelope, DATA_VALUES, DATA_VALUES_SCHEMA};
use super::exec::file_id;
use super::exec::{empty_values, LibExec};
use super::plain::doc_has_annotation;
use super::schema_docs::invalid_values;
use crate::eval::run::{Built, ErrorKind, EvalError};
use crate::files::{FileType, InputFile};
use crate::schema::Schema;
use crate::validate::render::render;
use crate::validate::run::{check, NodeType, Target};
use crate::yaml::{Array, Document, Map, Value};

/// A data values document ytt refuses (an annotation in the wrong place, a document that is
/// not one).
fn error(message: String) -> EvalError {
    EvalError::new(ErrorKind::Template, message, None)
}

/// ytt's check that a data values annotation sits on a document, not on a node inside one.
fn check_not_on_nodes(v: &Value, ann: &str, depth: usize) -> Result<(), String> {
    let check = |comments: &[crate::yaml::Comment], kind: &str, pos: &crate::pos::Pos| {
        if doc_has_annotation(comments, ann) {
            return Err(format!(
                "Found @{ann} on {kind} ({}); only documents (---) can be annotated with @{ann}",
                pos.as_compact()
            ));
        }
        Ok(())
    };
    if depth > 10_000 {
        return Ok(());
    }
    match v {
        Value::Map(m) => {
            let Map { items, .. } = &**m;
            for i in items {
                check(&i.comments, "map item", &i.pos)?;
                check_not_on_nodes(&i.value, ann, depth + 1)?;
            }
        }
        Value::Array(a) => {
            let Array { items, .. } = &**a;
            for i in items {
                check(&i.comments, "array item", &i.pos)?;
                check_not_on_nodes(&i.value, ann, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

impl super::Workspace {
    /// Whether a document of the YAML file `f` carries the annotation `ann`; an error when a
    /// node inside a document does. Each file is walked once per annotation and strictness:
    /// every library evaluation, the schema and the library check ask again.
    fn has_doc_annotation(
        &self,
        f: &InputFile,
        strict: bool,
        ann: &str,
    ) -> Result<bool, EvalError> {
        let key = (
            f.rel_path.clone(),
            strict,
            std::sync::Arc::as_ptr(&f.data) as *const u8 as usize,
            ann.to_string(),
        );
        if let Some(known) = self.doc_annotations.borrow().get(&key) {
            return known.clone().map_err(error);
        }
        let ds = self.parse(f, strict)?;
        let mut found = Ok(false);
        // An annotation is a comment starting `@name`: a text without that has none to find.
        let written = f.data.contains(&format!("@{ann}"));
        let documents = if written { &ds.items[..] } else { &[] };
        for d in documents {
            if let Err(e) = check_not_on_nodes(&d.value, ann, 0) {
                found = Err(e);
                break;
            }
            if doc_has_annotation(&d.comments, ann) {
                found = Ok(true);
            }
        }
        self.doc_annotations.borrow_mut().insert(key, found.clone());
        found.map_err(error)
    }
}

impl LibExec<'_> {
    /// Files whose documents carry the annotation `ann` (YAML templates only).
    pub fn files_with_doc_annotation(&self, ann: &str) -> Result<Vec<&InputFile>, EvalError> {
        let mut out = Vec::new();
        for f in self.accessible() {
            if f.file_type() != FileType::Yaml || !f.is_template() {
                continue;
            }
            if self.ws.has_doc_annotation(f, self.opts.strict, ann)? {
                out.push(f);
            }
        }
        Ok(out)
    }

    /// Starts from the schema's defaults, evaluates the library's data values files and
    /// overlays them, then `external`, type checking after every step. Returns the final
    /// values and the documents addressed to private libraries.
    pub fn compute_values(
        &self,
        external: Vec<Envelope>,
        schema: &Schema,
    ) -> Result<(Document, Vec<Envelope>), EvalError> {
        for f in self.files_with_doc_annotation(DATA_VALUES_SCHEMA)? {
            self.not_for_output.borrow_mut().insert(file_id(f));
        }
        let mut files = self.files_with_doc_annotation(DATA_VALUES)?;
        files.sort_by_key(|f| self.file_index(&f.rel_path));
        for f in &files {
            self.not_for_output.borrow_mut().insert(file_id(f));
        }
        let mut order: Vec<String> = files.iter().map(|f| f.rel_path.clone()).collect();
        if !external.is_empty() {
            order.push("additional data values".into());
        }
        let wrap = |e: EvalError| {
            e.map_message(|m| {
                format!(
                    "Overlaying data values (in following order: {}): {m}",
                    order.join(", ")
                )
            })
        };
        let mut all = Vec::new();
        if let Some(defaults) = schema.defaults() {
            all.push(Envelope::new(defaults).map_err(|e| wrap(error(e)))?);
        }
        for f in files {
            for doc in self.values_docs(f).map_err(wrap)? {
                all.push(Envelope::new(doc).map_err(|e| wrap(error(e)))?);
            }
        }
        all.extend(external);
        let mut children = Vec::new();
        let mut merged: Option<Document> = None;
        // Spec 004: without a schema or an earlier data value, the first input declares.
        let mut declaring: Option<u32> = None;
        for env in all {
            if env.for_other_library() {
                children.push(env);
                continue;
            }
            if env.from_input && !env.allow_new && schema.doc.is_none() {
                if merged.is_none() {
                    declaring = Some(env.input);
                }
                if declaring != Some(env.input) {
                    let found =
                        super::undeclared::find(merged.as_ref().map(|d| &d.value), &env.doc.value);
                    let mut out = self.ws.undeclared.borrow_mut();
                    out.extend(found.into_iter().map(|u| (self.root.clone(), u)));
                }
            }
            let mut doc = match merged {
                None => env.doc,
                Some(mut left) => {
                    if let Some(d) = &schema.doc {
                        crate::schema::optional::open(&d.ty, &mut left.value, &env.doc.value, 0);
                    }
                    crate::eval::overlay_host::overlay_values(self, left, env.doc).map_err(wrap)?
                }
            };
            let failures = schema.check(&mut doc);
            if !failures.is_empty() {
                self.ws
                    .schema_failures
                    .borrow_mut()
                    .extend(failures.iter().cloned());
                return Err(wrap(invalid_values(self, failures)));
            }
            merged = Some(doc);
        }
        let values = merged.unwrap_or_else(empty_values);
        if let Some(d) = &schema.doc {
            let mut uses = Vec::new();
            crate::schema::deprecated::find(&values.value, &d.ty, &mut uses);
            let removed = uses
                .iter()
                .find(|u| u.removed)
                .map(|u| (u.removed_error(), u.value_pos.clone()));
            self.ws.deprecated.borrow_mut().extend(uses);
            if let (Some((message, pos)), true) = (removed, self.opts.extensions.removed) {
                return Err(EvalError::new(
                    ErrorKind::DataValueRemoved,
                    message,
                    Some(pos),
                ));
            }
        }
        if !self.opts.skip_validation {
            self.validate_values(&values, schema)?;
        }
        Ok((values, children))
    }

    /// Checks the validations of the final data values (the schema's and the data values
    /// documents' `@assert/validate`), as ytt does before any template runs.
    fn validate_values(&self, values: &Document, schema: &Schema) -> Result<(), EvalError> {
        let target = Target {
            doc: values,
            ty: schema.doc.as_ref().map(|d| &d.ty as &dyn NodeType),
            asserts: true,
        };
        let found = crate::eval::overlay_host::with_host(self, |host| check(&target, host));
        let message = match found {
            Ok(invalid) if invalid.is_empty() => return Ok(()),
            Ok(invalid) => {
                let pos = invalid.first().map(|i| i.value_pos.clone());
                self.ws
                    .violations
                    .borrow_mut()
                    .extend(invalid.iter().map(|i| (self.root.clone(), i.clone())));
                return Err(EvalError::new(
                    ErrorKind::DataValuesInvalid,
                    format!("Validating final data values:\n{}", render(&invalid)),
                    pos,
                ));
            }
            Err(m) => m,
        };
        Err(EvalError::new(
            ErrorKind::DataValuesInvalid,
            format!("Validating final data values:\n{message}"),
            None,
        ))
    }

    /// The `@data/values` documents of one file, evaluated (with empty data values).
    fn values_docs(&self, f: &InputFile) -> Result<Vec<Document>, EvalError> {
        let templating =
            |e: EvalError| e.map_message(|m| format!("Templating file '{}': {m}", f.rel_path));
        let built = self.eval_file(f, self.ctx_of(f)).map_err(templating)?.0;
        let Some(Built::DocSet(ds)) = built else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for d in ds.items {
            if d.anns.has(DATA_VALUES) {
                out.push(d);
            } else if !crate::yaml::emit::is_empty_document_value(&d.value) {
                return Err(templating(error(format!(
                    "Expected data values file '{}' to only have data values documents",
                    f.rel_path
                ))));
            }
        }
        Ok(out)
    }
}
