//! Hover: a data value's schema (type, default, title, description, examples, deprecation),
//! a `@ytt:` module member's signature and line, an annotation's meaning.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use super::chain::chain_at;
use super::context::{annotation_at, values_path, ytt_aliases};
use super::request::Ctx;
use super::values::type_text;
use super::ytt_docs;
use crate::yaml::emit::value_to_yaml;

/// The hover at the request's position, if there is something to say.
pub fn hover(ctx: &Ctx<'_>) -> Option<Hover> {
    if let Some(name) = annotation_at(ctx.line, ctx.byte, false) {
        let doc = ytt_docs::annotation(&name)?;
        let start = ctx.line.find("#@").map_or(0, |i| i + 2);
        return Some(markdown(
            format!("**@{name}**\n\n{doc}"),
            ctx.range(start, start + name.len()),
        ));
    }
    let (segs, i, start) = chain_at(ctx.line, ctx.byte)?;
    let end = start + segs[i].len();
    if let Some(text) = module_member(ctx, &segs, i) {
        return Some(markdown(text, ctx.range(start, end)));
    }
    let path = values_path(&segs, i, ctx.text)?;
    let schema = ctx.schema()?;
    let Some(declared) = schema.lookup(&path) else {
        return set_only(&schema, &path).map(|t| markdown(t, ctx.range(start, end)));
    };
    let mut text = format!(
        "**data.values.{}**: `{}`",
        path.join("."),
        type_text(declared.ty)
    );
    let docs = &declared.ty.docs;
    if !docs.title.is_empty() {
        text.push_str(&format!("\n\n*{}*", docs.title));
    }
    if !docs.description.is_empty() {
        text.push_str(&format!("\n\n{}", docs.description));
    }
    let default = value_to_yaml(&declared.default);
    text.push_str(&format!(
        "\n\ndefault:\n```yaml\n{}\n```",
        default.trim_end()
    ));
    for e in &docs.examples {
        let value = value_to_yaml(&e.value);
        text.push_str(&format!(
            "\n\nexample{}:\n```yaml\n{}\n```",
            if e.description.is_empty() {
                String::new()
            } else {
                format!(" ({})", e.description)
            },
            value.trim_end()
        ));
    }
    if let Some(notice) = &docs.deprecated {
        text.push_str(&format!("\n\n**deprecated**: {notice}"));
    }
    if let Some(file) = schema.repo_path(&declared.pos) {
        text.push_str(&format!("\n\ndeclared in `{file}:{}`", declared.pos.line));
    }
    for s in schema.set_at(&path) {
        let file = schema.repo_path(&s.pos).unwrap_or_default();
        text.push_str(&format!(
            "\n\nset to `{}` in `{file}:{}`",
            s.value, s.pos.line
        ));
    }
    text.push_str(&by_scenario(&schema, &path));
    Some(markdown(text, ctx.range(start, end)))
}

/// The signature and line of `module.member` when segment `i` of `segs` is one.
fn module_member(ctx: &Ctx<'_>, segs: &[String], i: usize) -> Option<String> {
    let aliases = ytt_aliases(ctx.text);
    let module = aliases.get(segs.first()?)?;
    if i == 0 {
        return Some(format!("**@ytt:{module}** (module)"));
    }
    if i != 1 || (module == "data" && segs[1] == "values" && segs.len() > 2) {
        return None;
    }
    let member = &segs[1];
    match ytt_docs::member(module, member) {
        Some((sig, doc)) => Some(format!("```python\n{module}.{sig}\n```\n{doc}")),
        None => {
            let known = crate::analysis::ytt_modules::module(module)?;
            known
                .members
                .contains(member)
                .then(|| format!("```python\n{module}.{member}\n```\nmember of `@ytt:{module}`"))
        }
    }
}

/// Without a declaration in a schema: where the data values documents set the value, and
/// its value in each scenario.
fn set_only(schema: &super::values::RootSchema, path: &[String]) -> Option<String> {
    let mut text = format!("**data.values.{}**", path.join("."));
    let mut any = false;
    for s in schema.set_at(path) {
        let file = schema.repo_path(&s.pos).unwrap_or_default();
        text.push_str(&format!("\n\n`{}` in `{file}:{}`", s.value, s.pos.line));
        any = true;
    }
    let scenarios = by_scenario(schema, path);
    (any || !scenarios.is_empty()).then(|| text + &scenarios)
}

/// The value of `path` in each named scenario of the root, as a Markdown table (`""` for a
/// root without named scenarios).
fn by_scenario(schema: &super::values::RootSchema, path: &[String]) -> String {
    let values = schema.scenario_values_at(path);
    if values.is_empty() {
        return String::new();
    }
    let mut text = String::from("\n\n| scenario | value |\n|---|---|");
    for (name, value) in values {
        let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        text.push_str(&format!("\n| {} | `{}` |", cell(name), cell(&value)));
    }
    text
}

fn markdown(value: String, range: lsp_types::Range) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    }
}
