//! Code actions: "suppress this finding" inserts the suppression comment the linter reads
//! (`#! yttlint: disable=RULE`, `# yttlint: disable=RULE` in Starlark) on its own line above the
//! finding's line, indented like it (see `lint/post/suppress.rs`).

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, NumberOrString, Position, Range, TextEdit,
    Uri, WorkspaceEdit,
};

use super::diagnostics::SOURCE;
use super::positions::line_text;

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
        let Some(comment) = comment(name, rule) else {
            continue;
        };
        let line = d.range.start.line;
        let Some(current) = line_text(text, line) else {
            continue;
        };
        let indent: String = current.chars().take_while(|c| c.is_whitespace()).collect();
        let at = Position::new(line, 0);
        let edit = TextEdit {
            range: Range::new(at, at),
            new_text: format!("{indent}{comment}\n"),
        };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Suppress {rule} on this line"),
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

#[cfg(test)]
mod tests {
    use super::*;

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
