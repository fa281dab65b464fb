//! Completion: the schema's keys after `data.values.` (or an alias of a data values path),
//! the members of a loaded `@ytt:` module, annotation names after `#@`, and the names a
//! `load("file", ` can import from its file.

use lsp_types::{CompletionItem, CompletionItemKind, CompletionResponse};

use super::chain::chain_before;
use super::context::{annotation_at, loads, values_path, ytt_aliases};
use super::request::Ctx;
use super::symbols::{load_target, symbols};
use super::ytt_docs;

/// The completions at the request's position.
pub fn completion(ctx: &Ctx<'_>) -> Option<CompletionResponse> {
    let items = if let Some(typed) = annotation_at(ctx.line, ctx.byte, true) {
        annotations(&typed)
    } else if let Some(items) = load_names(ctx) {
        items
    } else {
        let (segs, word) = chain_before(ctx.line, ctx.byte);
        if segs.is_empty() {
            return None;
        }
        members(ctx, &segs)
            .or_else(|| data_values(ctx, &segs))?
            .into_iter()
            .filter(|i| i.label.starts_with(&word))
            .collect()
    };
    Some(CompletionResponse::Array(items))
}

fn item(label: &str, kind: CompletionItemKind, detail: String) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail),
        ..CompletionItem::default()
    }
}

fn annotations(typed: &str) -> Vec<CompletionItem> {
    crate::lint::job::annotations::KNOWN
        .iter()
        .filter(|a| a.starts_with(typed))
        .map(|a| {
            item(
                a,
                CompletionItemKind::KEYWORD,
                ytt_docs::annotation(a).unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Members of the `@ytt:` module `segs` names (a loaded alias, one segment).
fn members(ctx: &Ctx<'_>, segs: &[String]) -> Option<Vec<CompletionItem>> {
    let [alias] = segs else { return None };
    let aliases = ytt_aliases(ctx.text);
    let module = aliases.get(alias)?;
    let known = crate::analysis::ytt_modules::module(module)?;
    Some(
        known
            .members
            .iter()
            .map(|m| {
                let detail = ytt_docs::member(module, m).map_or_else(
                    || format!("@ytt:{module}"),
                    |(sig, doc)| format!("{sig}: {doc}"),
                );
                item(m, CompletionItemKind::FUNCTION, detail)
            })
            .collect(),
    )
}

fn data_values(ctx: &Ctx<'_>, segs: &[String]) -> Option<Vec<CompletionItem>> {
    let path = values_path(segs, segs.len() - 1, ctx.text)?;
    let schema = ctx.schema()?;
    Some(
        schema
            .keys(&path)
            .into_iter()
            .map(|(key, ty)| item(&key, CompletionItemKind::FIELD, ty))
            .collect(),
    )
}

/// In the names of a `load("file", ...)` (after its path): what the file defines.
fn load_names(ctx: &Ctx<'_>) -> Option<Vec<CompletionItem>> {
    let load = loads(ctx.text).into_iter().find(|l| l.spans(ctx.line_no))?;
    // On the load's first line, only after its path (later lines hold names only).
    if load.line == ctx.line_no {
        let call = ctx.line.find("load(")?;
        let path_end = ctx.line[call..].find(load.path.as_str())? + call + load.path.len() + 1;
        if ctx.byte <= path_end {
            return None;
        }
    }
    if let Some(module) = load.path.strip_prefix("@ytt:") {
        let name = crate::analysis::ytt_modules::name(module)?;
        let detail = format!("the @ytt:{name} module");
        return Some(vec![item(name, CompletionItemKind::MODULE, detail)]);
    }
    let root = ctx
        .project
        .job_of(ctx.path)
        .map(|j| ctx.project.dir().join(&j.root))
        .unwrap_or_else(|| ctx.project.dir().to_path_buf());
    let file = load_target(ctx.project.dir(), &root, ctx.path, &load.path)?;
    let rel = ctx.project.relative(&file)?;
    let policy = crate::files::ReadPolicy::repository(ctx.project.dir());
    let text = String::from_utf8(crate::files::read_allowed(&file, &policy)?).ok()?;
    Some(
        symbols(&rel, &text)
            .into_iter()
            .filter(|s| !s.name.starts_with('_'))
            .map(|s| {
                let kind = if s.is_def {
                    CompletionItemKind::FUNCTION
                } else {
                    CompletionItemKind::VARIABLE
                };
                item(&s.name, kind, format!("{rel}:{}", s.line))
            })
            .collect(),
    )
}
