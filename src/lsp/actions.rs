//! Code actions: a finding's fix (see `src/fix/`), carried in the diagnostic's `data`, as a
//! quick fix (preferred when it is safe); and "suppress this finding", which inserts the
//! suppression comment the linter reads (`#! yttlint: disable=RULE`, `# yttlint:
//! disable=RULE` in Starlark) on its own line above the finding's line, indented like it (see
//! `lint/post/suppress.rs`), or above the node whose block scalar holds the line (a comment
//! inside a text-templated `conf: |` would be rendered): see [`super::suppress_at`]. Where no
//! comment can go without changing ytt's output, none is offered.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, NumberOrString, Position, Range, TextEdit,
    Uri, WorkspaceEdit,
};

use super::diagnostics::SOURCE;
use super::positions::{from_span, line_text};
use crate::fix::{Applicability, Fix};

/// The suppression comment of `rule` in a file named `name`; `None` where no comment can
/// carry one (text templates, other files).
pub fn comment(name: &str, rule: &str) -> Option<String> {
    let ext = name.rsplit('.').next().unwrap_or("");
    match ext {
        "yml" | "yaml" => Some(format!("#! yttlint: disable={rule}")),
        "star" => Some(format!("# yttlint: disable={rule}")),
        _ => None,
    }
}

/// The actions for the yttlint diagnostics among `diagnostics` of the document `uri`.
pub fn actions(
    uri: &Uri,
    name: &str,
    text: &str,
    diagnostics: &[lsp_types::Diagnostic],
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in diagnostics {
        if d.source.as_deref() != Some(SOURCE) {
            continue;
        }
        let Some(NumberOrString::String(rule)) = &d.code else {
            continue;
        };
        if let Some(action) = fix_action(uri, name, text, d) {
            out.push(action);
        }
        let Some(comment) = comment(name, rule) else {
            continue;
        };
        let line = d.range.start.line;
        if line_text(text, line).is_none() {
            continue;
        }
        // Only where the comment cannot change what ytt renders (not inside a block scalar).
        let Some((placed, indent)) = super::suppress_at::place(name, text, line, &comment) else {
            continue;
        };
        let at = Position::new(placed, 0);
        let edit = TextEdit {
            range: Range::new(at, at),
            new_text: format!("{indent}{comment}\n"),
        };
        let title = if placed == line {
            format!("Suppress {rule} on this line")
        } else {
            format!("Suppress {rule} on this node (line {})", placed + 1)
        };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            ..CodeAction::default()
        }));
    }
    out
}

/// The fix a diagnostic carries, as edits of this document (a fix that touches another
/// file is left to `yttlint --fix`).
fn fix_action(
    uri: &Uri,
    name: &str,
    text: &str,
    d: &lsp_types::Diagnostic,
) -> Option<CodeActionOrCommand> {
    let fix: Fix = serde_json::from_value(d.data.clone()?).ok()?;
    let here = |file: &str| file == name || file.ends_with(&format!("/{name}"));
    if fix.edits.is_empty() || !fix.edits.iter().all(|e| here(&e.file)) {
        return None;
    }
    let edits: Vec<TextEdit> = fix
        .edits
        .iter()
        .map(|e| TextEdit {
            range: Range::new(
                from_span(Some(text), e.line, e.column),
                from_span(Some(text), e.end_line, e.end_column),
            ),
            new_text: e.replacement.clone(),
        })
        .collect();
    let safe = fix.applicability == Applicability::Safe;
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: if safe {
            fix.title.clone()
        } else {
            format!("{} (changes what ytt renders)", fix.title)
        },
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(safe),
        ..CodeAction::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fix_in_the_diagnostic_becomes_a_preferred_quick_fix() {
        let uri: Uri = "file:///r/t.yml".parse().unwrap();
        let text = "#@ load(\"@ytt:assert\", \"assert\")\nx: #@ assert.failed(\"é\")\n";
        let start = text.find("failed").unwrap();
        let edit =
            crate::fix::edit::Edit::new("cfg/t.yml", text, start, start + 6, "fail").unwrap();
        let fix = Fix::safe("Replace with `assert.fail`", edit);
        let d = lsp_types::Diagnostic {
            range: Range::new(Position::new(1, 13), Position::new(1, 19)),
            code: Some(NumberOrString::String("unknown-module-attribute".into())),
            source: Some(SOURCE.into()),
            data: Some(serde_json::to_value(&fix).unwrap()),
            ..lsp_types::Diagnostic::default()
        };
        let out = actions(&uri, "t.yml", text, &[d]);
        let CodeActionOrCommand::CodeAction(a) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(a.title, "Replace with `assert.fail`");
        assert_eq!(a.is_preferred, Some(true));
        let edits = &a.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
        assert_eq!(
            edits[0].range,
            Range::new(Position::new(1, 13), Position::new(1, 19))
        );
        assert_eq!(edits[0].new_text, "fail");
        // The suppression comes after it.
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn a_suppression_goes_above_the_line_indented_like_it() {
        let uri: Uri = "file:///r/a.yml".parse().unwrap();
        let d = lsp_types::Diagnostic {
            range: Range::new(Position::new(1, 2), Position::new(1, 5)),
            code: Some(NumberOrString::String("schema-type-mismatch".into())),
            source: Some(SOURCE.into()),
            ..lsp_types::Diagnostic::default()
        };
        let out = actions(&uri, "a.yml", "a:\n  b: 1\n", &[d]);
        let CodeActionOrCommand::CodeAction(a) = &out[0] else {
            panic!("{out:?}")
        };
        let edits = &a.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
        assert_eq!(
            edits[0].new_text,
            "  #! yttlint: disable=schema-type-mismatch\n"
        );
        assert_eq!(edits[0].range.start, Position::new(1, 0));
        assert_eq!(
            comment("x.star", "r").as_deref(),
            Some("# yttlint: disable=r")
        );
        assert_eq!(comment("x.txt", "r"), None);
    }
}
