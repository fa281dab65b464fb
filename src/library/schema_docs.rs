//! The schema step of a library evaluation (ytt's `DataValuesSchemaPreProcessing`): the
//! library's `@data/values-schema` documents, evaluated as templates, each checked on its own,
//! then overlaid in file order followed by the schemas given from outside
//! (`library.with_data_values_schema()`); documents addressed to private libraries
//! (`@library/ref`) are passed on.

use super::envelope::DATA_VALUES_SCHEMA;
use super::LibExec;
use crate::eval::overlay_host::{overlay_values, with_host};
use crate::eval::run::{Built, ErrorKind, EvalError};
use crate::files::InputFile;
use crate::schema::args::ArgTable;
use crate::schema::error::{Failure, SchemaError};
use crate::schema::render::render;
use crate::schema::{Schema, SchemaDoc, SchemaDocError};
use crate::yaml::Document;

/// Summary of data values that do not conform to the schema.
pub const INVALID_VALUES: &str = "One or more data values were invalid";

/// The library's schema from its files and `overlays`, and the schema documents addressed to
/// its private libraries.
pub fn compute_schema(
    exec: &LibExec<'_>,
    overlays: Vec<SchemaDoc>,
) -> Result<(Schema, Vec<SchemaDoc>), EvalError> {
    // In the order the files were given (ytt's `SortFilesInLibrary`), as the data values
    // files: a directory's subdirectories are not after its own files (round twenty-six's
    // R26-3).
    let mut files = exec.files_with_doc_annotation(DATA_VALUES_SCHEMA)?;
    files.sort_by_key(|f| exec.file_index(&f.rel_path));
    let mut order: Vec<String> = files.iter().map(|f| f.rel_path.clone()).collect();
    if !overlays.is_empty() {
        order.push("additional data value schema".into());
    }
    // What goes wrong while the schema documents are evaluated and overlaid makes the schema
    // invalid, unless it is a problem of its own (the YAML, a comment, a load, a value).
    let wrap = |e: EvalError| EvalError {
        kind: match e.kind {
            k @ (ErrorKind::YamlSyntax
            | ErrorKind::UnknownComment
            | ErrorKind::Load
            | ErrorKind::LoadEvaluation
            | ErrorKind::ValueType
            | ErrorKind::Limit
            | ErrorKind::SchemaDocInvalid) => k,
            _ => ErrorKind::SchemaInvalid,
        },
        message: format!(
            "Overlaying data values schema (in following order: {}): {}",
            order.join(", "),
            e.message
        ),
        pos: e.pos,
    };
    let mut all = Vec::new();
    for f in files {
        for doc in schema_docs(exec, f).map_err(wrap)? {
            let args = with_host(exec, |host| ArgTable::resolve(&doc, host));
            let sd = SchemaDoc::new(doc, args, exec.opts.extensions)
                .map_err(|e| wrap(own_error(doc_error(exec, e))))?;
            all.push(sd);
        }
    }
    all.extend(overlays);
    let mut children = Vec::new();
    let mut merged: Option<Document> = None;
    let mut args = ArgTable::default();
    for mut sd in all {
        if sd.env.for_other_library() {
            children.push(sd);
            continue;
        }
        crate::validate::strings::distribute(&mut sd.env.doc);
        args.extend(&sd.args);
        merged = Some(match merged {
            None => sd.env.doc,
            Some(left) => overlay_values(exec, left, sd.env.doc).map_err(wrap)?,
        });
    }
    let schema = match merged {
        None => Schema::default(),
        Some(doc) => Schema::with_extensions(&doc, &args, exec.opts.extensions)
            .map_err(|e| wrap(doc_error(exec, SchemaDocError::Schema(e))))?,
    };
    Ok((schema, children))
}

/// A refused schema document as an evaluation error (at its first known position).
pub fn doc_error(exec: &LibExec<'_>, e: SchemaDocError) -> EvalError {
    match e {
        SchemaDocError::Schema(e) => schema_error(exec, &e, ErrorKind::SchemaInvalid),
        SchemaDocError::Other(message) => EvalError::new(ErrorKind::SchemaInvalid, message, None),
    }
}

/// `e`, an error of one schema document built on its own: the file fails whatever the
/// command gives with it (round twenty-eight's R28-1).
fn own_error(mut e: EvalError) -> EvalError {
    if e.kind == ErrorKind::SchemaInvalid {
        e.kind = ErrorKind::SchemaDocInvalid;
    }
    e
}

/// Data values that do not conform to the schema, as an evaluation error at the first one.
pub fn invalid_values(exec: &LibExec<'_>, failures: Vec<Failure>) -> EvalError {
    schema_error(
        exec,
        &SchemaError::new(INVALID_VALUES, failures),
        ErrorKind::ValueType,
    )
}

fn schema_error(exec: &LibExec<'_>, e: &SchemaError, kind: ErrorKind) -> EvalError {
    let pos = e
        .failures()
        .into_iter()
        .map(|f| &f.pos)
        .find(|p| p.is_known());
    EvalError::new(kind, render(e, &|p| exec.ws.line_at(p)), pos.cloned())
}

/// The `@data/values-schema` documents of one file, evaluated (with empty data values).
fn schema_docs(exec: &LibExec<'_>, f: &InputFile) -> Result<Vec<Document>, EvalError> {
    let templating =
        |e: EvalError| e.map_message(|m| format!("Templating file '{}': {m}", f.rel_path));
    let built = exec.eval_file(f, exec.ctx_of(f)).map_err(templating)?.0;
    let Some(Built::DocSet(ds)) = built else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for d in ds.items {
        if d.anns.has(DATA_VALUES_SCHEMA) {
            out.push(d);
        } else if !crate::yaml::emit::is_empty_document_value(&d.value) {
            return Err(templating(EvalError::new(
                ErrorKind::SchemaDocInvalid,
                format!(
                    "Expected schema file '{}' to only have schema documents",
                    f.rel_path
                ),
                None,
            )));
        }
    }
    Ok(out)
}
