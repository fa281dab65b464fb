//! Documents abbreviated on purpose: an example object whose source document holds an
//! elision comment, a comment line that says only `...` (`#! ...`, `# ...`, `#! …`), stands
//! for an object whose rest the reader is meant to imagine. ytt renders it as written, and
//! `k8s-schema` would report each field left out as missing; such a finding is a note that
//! names the elision, not an error. Every other `k8s-schema` finding of the object (a field of
//! the wrong type, a key the kind does not have) stays what it is.

use std::sync::Arc;

use crate::pos::Pos;
use crate::report::{Diagnostic, Severity};

/// A file's source text by the name positions carry.
pub type SourceOf<'a> = &'a dyn Fn(&str) -> Option<Arc<str>>;

/// The most lines of a document looked at for an elision comment.
const MAX_LINES: usize = 10_000;

/// Whether a line is an elision comment: `#` or `#!` followed by nothing but `...` or `…`.
fn is_elision(line: &str) -> bool {
    let t = line.trim();
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    let rest = rest.strip_prefix('!').unwrap_or(rest).trim();
    rest == "..." || rest == "…"
}

/// The line (1-based) of the elision comment inside the document that starts at `line` of
/// `source` (a document ends at the next `---` line), if any.
pub fn elision_in(source: &str, line: u32) -> Option<u32> {
    let start = (line as usize).max(1);
    // The document's first line found by its line feeds (as `str::lines` counts lines),
    // without splitting the lines before it: a manifest of many objects is read once each.
    let from = match start {
        1 => 0,
        _ => source.match_indices('\n').nth(start - 2)?.0 + 1,
    };
    let lines = source[from..].lines().enumerate().take(MAX_LINES);
    for (i, text) in lines.map(|(i, t)| (i + start - 1, t)) {
        if i + 1 > start && text.starts_with("---") {
            return None;
        }
        if is_elision(text) {
            return u32::try_from(i + 1).ok();
        }
    }
    None
}

/// The elision line of the document at `doc` (its position in the source), read with
/// `source_of` (a file's text by the name positions carry).
pub fn elision_of(doc: &Pos, source_of: SourceOf<'_>) -> Option<u32> {
    let file = doc.file.as_deref()?;
    if !doc.is_known() {
        return None;
    }
    elision_in(&source_of(file)?, doc.line)
}

/// Whether a `k8s-schema` finding with this message is lowered by an elision: a field left
/// out.
pub fn lowers(message: &str) -> bool {
    message.contains("missing required field")
}

/// Lowers a `k8s-schema` "missing required field" finding of an abbreviated document to a
/// note naming the elision at `line`.
pub fn lower(d: &mut Diagnostic, line: u32) {
    if !lowers(&d.message) {
        return;
    }
    d.severity = Severity::Info;
    d.message = format!(
        "{} (the document is abbreviated on purpose, `...` at line {line}: an example object, \
         not checked for the fields it leaves out)",
        d.message
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_elision_comment_inside_the_document_counts() {
        let src =
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n#! ...\n---\nkind: B\n";
        assert_eq!(elision_in(src, 1), Some(5));
        // The next document has none of its own.
        assert_eq!(elision_in(src, 6), None);
        let later = "---\nkind: A\n---\nkind: B\n# …\n";
        assert_eq!(elision_in(later, 1), None);
        assert_eq!(elision_in(later, 3), Some(5));
    }

    #[test]
    fn a_document_far_down_a_manifest_is_found_by_its_line() {
        let mut src = String::new();
        for i in 0..50 {
            src.push_str(&format!("---\r\nkind: K{i}\r\nmetadata: {{}}\r\n"));
        }
        src.push_str("---\nkind: Last\n#! ...\n");
        assert_eq!(elision_in(&src, 151), Some(153));
        assert_eq!(elision_in(&src, 148), None);
        assert_eq!(elision_in(&src, 154), None);
        assert_eq!(elision_in(&src, 1_000), None);
    }

    #[test]
    fn only_a_comment_of_dots_alone_is_an_elision() {
        assert!(is_elision("  #! ..."));
        assert!(is_elision("#..."));
        assert!(!is_elision("#! ... and more"));
        assert!(!is_elision("key: ..."));
        assert!(!is_elision("#@ ..."));
    }
}
