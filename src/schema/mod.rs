//! Data values schema (ytt's `@data/values-schema`): types inferred from the schema documents
//! of a library, the default data values they give, and the type checking of every data
//! values input against them.
//!
//! - [`infer`] reads a schema document (with [`annotations`] and their resolved [`args`]) into
//!   [`types`];
//! - [`check`] types data values, filling in defaults, and collects every violation;
//! - [`error`] holds problems as data, [`render`] prints them as ytt does;
//! - [`openapi`] exports the schema (`--data-values-schema-inspect -o openapi-v3`);
//! - [`library`] is the library step: evaluate the schema files, overlay them, pass schemas
//!   addressed to private libraries on.
//!
//! Validations (`@schema/validation`) are not handled here.

pub mod annotations;
pub mod args;
pub mod check;
pub mod deprecated;
pub mod envelope;
pub mod error;
pub mod extensions;
pub mod infer;
pub mod openapi;
pub mod openapi_rules;
pub mod optional;
pub mod render;
pub mod spell;
pub mod types;

use std::sync::Arc;

use crate::yaml::Document;
use args::ArgTable;
use envelope::Envelope;
use error::{Failure, SchemaError};
use types::DocType;

/// Schemas nested deeper than this are refused rather than recursed into.
pub const MAX_DEPTH: usize = 1000;

/// A library's schema; without schema documents, everything is allowed and nothing defaulted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    pub doc: Option<DocType>,
}

impl Schema {
    /// Reads a (merged) schema document.
    pub fn from_document(doc: &Document, args: &ArgTable) -> Result<Schema, SchemaError> {
        Schema::with_extensions(doc, args, extensions::Extensions::default())
    }

    /// Reads a (merged) schema document with yttlint's schema extensions `on`.
    pub fn with_extensions(
        doc: &Document,
        args: &ArgTable,
        on: extensions::Extensions,
    ) -> Result<Schema, SchemaError> {
        let mut inferrer = infer::Inferrer::new(args);
        inferrer.extensions = on;
        let doc = inferrer.document(doc)?;
        Ok(Schema { doc: Some(doc) })
    }

    /// The default data values: the first data values document, when there is a schema.
    pub fn defaults(&self) -> Option<Document> {
        self.doc.as_ref().map(DocType::default_document)
    }

    /// Types `values` (adding defaults to maps that lack items) and returns the violations.
    pub fn check(&self, values: &mut Document) -> Vec<Failure> {
        match &self.doc {
            Some(d) => check::check_document(d, values),
            None => Vec::new(),
        }
    }
}

/// A schema document on its way to a library, with its addressing (`@library/ref`) and the
/// resolved arguments of its annotations.
#[derive(Clone, Debug)]
pub struct SchemaDoc {
    pub env: Envelope,
    pub args: Arc<ArgTable>,
}

impl SchemaDoc {
    /// Wraps a schema document, checking that it is a valid schema on its own (as ytt does
    /// for every schema document before overlaying them) with the extensions `on`.
    pub fn new(
        doc: Document,
        args: ArgTable,
        on: extensions::Extensions,
    ) -> Result<SchemaDoc, SchemaDocError> {
        let env = Envelope::new(doc).map_err(SchemaDocError::Other)?;
        Schema::with_extensions(&env.doc, &args, on).map_err(SchemaDocError::Schema)?;
        Ok(SchemaDoc {
            env,
            args: Arc::new(args),
        })
    }
}

/// Why a schema document was refused.
#[derive(Clone, Debug)]
pub enum SchemaDocError {
    Schema(SchemaError),
    Other(String),
}
