//! ytt's overlay post-processing of a library's output: documents annotated with
//! `@overlay/match` are taken out of the template outputs and applied, file by file in file
//! order and document by document, to all the other (non-empty) documents of all files.
//!
//! Differences from ytt on purpose: ytt keeps the output files in a Go map, so the order in
//! which their documents are numbered for matchers, the file that receives `@overlay/append`ed
//! documents (the last) and the one that receives `or_add`ed documents (the first) vary from
//! run to run; here they follow file order. Like ytt, overlay annotations are left on the
//! nodes the overlays brought in.

use super::child_defaults::ChildDefaults;
use super::doc_ops::Matched;
use super::engine::Engine;
use super::error::OverlayError;
use super::host::OverlayHost;
use super::kwargs::MATCH;
use crate::yaml::emit::is_empty_document_value;
use crate::yaml::node::{DocSet, Document};

/// The documents one template file produced.
#[derive(Clone, Debug, PartialEq)]
pub struct FileDocs {
    /// The file's path relative to its library, as ytt prints it in messages.
    pub file: String,
    pub docs: DocSet,
}

/// Applies the overlay documents of `files` (given in file order) to their other documents.
///
/// Returns the files that had at least one non-empty, non-overlay document, in the same
/// order, holding what is left of them after overlaying (possibly no documents at all); files
/// with only overlays or only empty documents are dropped, as ytt drops them from its output.
/// Empty documents (null, `{}`, `[]`) are dropped from every file before overlaying.
#[cfg(test)]
pub fn post_process(
    files: Vec<FileDocs>,
    host: &mut dyn OverlayHost,
) -> Result<Vec<FileDocs>, OverlayError> {
    post_process_counted(files, host).map(|(files, _)| files)
}

/// [`post_process`], with every overlay document applied and how many documents it matched.
pub fn post_process_counted(
    files: Vec<FileDocs>,
    host: &mut dyn OverlayHost,
) -> Result<(Vec<FileDocs>, Vec<Matched>), OverlayError> {
    let mut overlays: Vec<(String, Vec<Document>)> = Vec::new();
    let mut names = Vec::new();
    let mut sets = Vec::new();
    for FileDocs { file, mut docs } in files {
        let (ours, rest): (Vec<Document>, Vec<Document>) = std::mem::take(&mut docs.items)
            .into_iter()
            .partition(|d| d.anns.has(MATCH));
        if !ours.is_empty() {
            overlays.push((file.clone(), ours));
        }
        docs.items = rest
            .into_iter()
            .filter(|d| !is_empty_document_value(&d.value))
            .collect();
        if !docs.items.is_empty() {
            names.push(file);
            sets.push(docs);
        }
    }

    let order: Vec<&str> = overlays.iter().map(|(f, _)| f.as_str()).collect();
    let order = order.join(", ");
    let mut engine = Engine::new(host, false);
    for (_, docs) in &overlays {
        for doc in docs {
            engine
                .apply_doc(&mut sets, doc, &ChildDefaults::default())
                .map_err(|e| OverlayError {
                    message: format!("Overlaying (in following order: {order}): {}", e.message),
                    pos: e.pos,
                })?;
        }
    }
    let matched = std::mem::take(&mut engine.matched);
    let files = names
        .into_iter()
        .zip(sets)
        .map(|(file, docs)| FileDocs { file, docs })
        .collect();
    Ok((files, matched))
}
