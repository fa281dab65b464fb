//! Rename of a data value (`textDocument/prepareRename`, `textDocument/rename`), from a
//! `data.values.a.b` in code or from its key in a schema or data values document. It renames,
//! in the root of the file (a private library's file: in that library): the schema's key,
//! the key in every data values document and `--data-values-file` that sets it, the
//! `--data-value` flags and scenario `data_values` of the root in `.yttlint.yaml`, and every
//! reference in its templates and Starlark files, aliases included (see
//! [`super::rename_refs`]). When a reference cannot be followed statically (an ancestor passed
//! on, `getattr` with a computed name, a computed key), it refuses and says where.

use std::collections::HashMap;
use std::path::PathBuf;

use lsp_types::{PrepareRenameResponse, Range, TextEdit, Uri, WorkspaceEdit};

use super::positions::{path_uri, utf16_col};
use super::project::Project;
use super::rename_keys::{config_edits, key_edits};
use super::rename_refs::{code_regions, find, Kind};
use super::request::Ctx;
use crate::files::FileType;
use crate::lint::job::{Job, JobKind};

/// Edits by absolute path: the file's text and byte ranges.
type Edits = HashMap<PathBuf, (String, Vec<(usize, usize)>)>;

/// The data value under the cursor: its path and the byte range (in the line) of its name.
pub fn target(ctx: &Ctx<'_>) -> Option<(Vec<String>, usize, usize)> {
    in_code(ctx).or_else(|| super::rename_keys::key_at(ctx))
}

/// A `data.values.a.b` (or an alias's) segment in the code of the file.
fn in_code(ctx: &Ctx<'_>) -> Option<(Vec<String>, usize, usize)> {
    let kind = kind_of_name(&ctx.path.to_string_lossy())?;
    let at = line_offset(ctx) + ctx.byte;
    if !code_regions(kind, ctx.text)
        .iter()
        .any(|(s, e)| *s <= at && at <= *e)
    {
        return None;
    }
    let (segs, i, _) = super::chain::chain_at(ctx.line, ctx.byte)?;
    let path = data_path(&segs, i, kind, ctx.text)?;
    let chain = super::chain::chains(ctx.line)
        .into_iter()
        .find(|c| c.iter().any(|s| s.start <= ctx.byte && ctx.byte <= s.end))?;
    let seg = chain.get(i)?;
    (!path.is_empty()).then_some((path, seg.start, seg.end))
}

/// The byte offset of the cursor's line in the text.
fn line_offset(ctx: &Ctx<'_>) -> usize {
    crate::pos::line_span(ctx.text, ctx.line_no.saturating_add(1))
        .map_or(ctx.text.len(), |l| l.start)
}

/// The data values path of segment `i` of a chain: `data.values...` (the module under any
/// name it is loaded as) or an alias of a data values path.
fn data_path(segs: &[String], i: usize, kind: Kind, text: &str) -> Option<Vec<String>> {
    let (_, data_names, aliases) = super::rename_refs::file_aliases(kind, text);
    let upto = segs.get(..=i)?;
    let from_module = data_names.contains(upto.first()?);
    let path = super::rename_aliases::resolve(upto, &data_names, &aliases.paths).or_else(|| {
        let (p, _) = aliases.ambiguous.get(upto.first()?)?;
        Some(p.iter().chain(&upto[1..]).cloned().collect())
    })?;
    // `data.values` itself, or an alias alone, is no key to rename.
    let named = if from_module { i >= 2 } else { i >= 1 };
    named.then_some(path)
}

/// The kind of code a file holds, by its name.
fn kind_of_name(name: &str) -> Option<Kind> {
    match name.rsplit('.').next()? {
        "yml" | "yaml" => Some(Kind::Yaml),
        "star" => Some(Kind::Star),
        "txt" => Some(Kind::Text),
        _ => None,
    }
}

/// `textDocument/prepareRename`: the name's range, or why it cannot be renamed.
pub fn prepare(ctx: &Ctx<'_>) -> Result<Option<PrepareRenameResponse>, String> {
    let Some((path, start, end)) = target(ctx) else {
        return Err(
            "yttlint renames data values: put the cursor on data.values.NAME or on a key of a schema or data values document"
                .to_string(),
        );
    };
    plan(ctx, &path, None)?;
    Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: ctx.range(start, end),
        placeholder: path.last().cloned().unwrap_or_default(),
    }))
}

/// `textDocument/rename` to `new_name`.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose cache clippy counts as mutable; the keys
// are never changed while in the map.
#[allow(clippy::mutable_key_type)]
pub fn rename(ctx: &Ctx<'_>, new_name: &str) -> Result<Option<WorkspaceEdit>, String> {
    let Some((path, _, _)) = target(ctx) else {
        return Err("not a data value".to_string());
    };
    if !is_identifier(new_name) {
        return Err(format!(
            "\"{new_name}\" is not a name a template can write after `data.values.` (letters, digits and _, not a keyword)"
        ));
    }
    let old = path.last().cloned().unwrap_or_default();
    if old == new_name {
        return Ok(None);
    }
    let edits = plan(ctx, &path, Some(new_name))?;
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (abs, (text, ranges)) in edits {
        let Some(uri) = path_uri(&abs) else { continue };
        let list = changes.entry(uri).or_default();
        for (s, e) in ranges {
            list.push(TextEdit {
                range: byte_range(&text, s, e),
                new_text: new_name.to_string(),
            });
        }
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }))
}

/// Every edit renaming `path` in the root of the request's file (to `new_name`, whose key
/// must not exist yet), or why it cannot be done.
fn plan(ctx: &Ctx<'_>, path: &[String], new_name: Option<&str>) -> Result<Edits, String> {
    let project = ctx.project;
    let dotted = path.join(".");
    let job = project
        .job_of(ctx.path)
        .ok_or("the file is not read by any root or library")?;
    if job.kind == JobKind::Library {
        return Err(format!(
            "data.values.{dotted} is a value of the private library {}: the roots that use it set it too (with_data_values, #@library/ref documents), which a rename does not follow",
            job.root
        ));
    }
    super::rename_keys::outside_sources(project, &job, path)?;
    let (ws, names) = project
        .workspace(&job)
        .ok_or("the root's files cannot be read")?;
    let sibling: Option<Vec<String>> = new_name.map(|n| {
        let mut s = path.to_vec();
        s.pop();
        s.push(n.to_string());
        s
    });
    let exists = |text: &str, annotated: bool| {
        sibling
            .as_ref()
            .is_some_and(|s| !key_edits(text, s, annotated).is_empty())
    };
    let mut edits: Edits = HashMap::new();
    let mut refused: Vec<String> = Vec::new();
    let mut declared = false;
    // The names each file binds to the value, and the names each file loads.
    let mut bound: Vec<(String, String)> = Vec::new();
    let mut loaded: Vec<(String, u32, String)> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for f in &ws.files {
        if f.rel_path.split('/').any(|p| p == "_ytt_lib") {
            continue;
        }
        let kind = match f.file_type() {
            // Templates, and the `x.lib.yml` and `x.lib.txt` files they load.
            FileType::Yaml if f.is_template() || f.is_library() => Kind::Yaml,
            FileType::Starlark => Kind::Star,
            FileType::Text if f.is_template() || f.is_library() => Kind::Text,
            _ => continue,
        };
        // Two inputs may name files alike (`-f config/values.yml -f dev/` with a
        // `dev/values.yml`): each is told by its text.
        let repo = names
            .repo_paths_with(&f.rel_path, &f.data)
            .into_iter()
            .find(|p| !seen.iter().any(|s| s == p))
            .or_else(|| names.repo_path(&f.rel_path))
            .unwrap_or(&f.rel_path)
            .to_string();
        seen.push(repo.clone());
        let text = f.data.to_string();
        let refs = find(kind, &text, path);
        for (line, why) in refs.refusals {
            refused.push(format!("{why} ({repo}:{line})"));
        }
        bound.extend(refs.aliases.into_iter().map(|n| (n, repo.clone())));
        for l in super::context::loads(&text) {
            if l.path.starts_with("@ytt:") {
                continue;
            }
            for (_, their) in l.names {
                loaded.push((repo.clone(), l.line + 1, their));
            }
        }
        let mut ranges = refs.edits;
        if kind == Kind::Yaml {
            if text.contains("data/values") {
                for (line, why) in super::rename_annotations::refusals(&text, path) {
                    refused.push(format!("{why} ({repo}:{line})"));
                }
            }
            let keys = key_edits(&text, path, true);
            declared |= !keys.is_empty();
            ranges.extend(keys);
            if exists(&text, true) {
                return Err(already(sibling.as_deref(), &repo));
            }
        }
        if !ranges.is_empty() {
            ranges.sort();
            ranges.dedup();
            edits.insert(project.dir().join(&repo), (text, ranges));
        }
    }
    for (repo, line, name) in &loaded {
        if let Some((_, from)) = bound.iter().find(|(n, from)| n == name && from != repo) {
            refused.push(format!(
                "`{name}` of {from} is bound to the value and loaded by another file, where its uses are not followed ({repo}:{line})"
            ));
        }
    }
    if let Some(first) = refused.first() {
        let more = match refused.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        return Err(format!("cannot rename data.values.{dotted}: {first}{more}"));
    }
    for (abs, text) in super::rename_keys::values_files(project, &job)? {
        let ranges = key_edits(&text, path, false);
        if exists(&text, false) {
            let shown = project.relative(&abs).unwrap_or_default();
            return Err(already(sibling.as_deref(), &shown));
        }
        if !ranges.is_empty() {
            declared = true;
            edits
                .entry(abs)
                .or_insert_with(|| (text, Vec::new()))
                .1
                .extend(ranges);
        }
    }
    if !declared {
        return Err(format!(
            "data.values.{dotted} is not declared in a schema or data values document of this root"
        ));
    }
    others_read(project, &job, &edits)?;
    if let Some((abs, text, ranges)) = config_edits(project, &job, path) {
        edits
            .entry(abs)
            .or_insert_with(|| (text, Vec::new()))
            .1
            .extend(ranges);
    }
    Ok(edits)
}

/// Why a rename to `sibling` cannot be done: its key exists in `file`.
fn already(sibling: Option<&[String]>, file: &str) -> String {
    let name = sibling.map(|s| s.join(".")).unwrap_or_default();
    format!("data.values.{name} exists already (in {file})")
}

/// Refuses when a file to edit is read by another root too: that root's schema and values
/// would be left with the old name.
fn others_read(project: &Project, job: &Job, edits: &Edits) -> Result<(), String> {
    let mut files: Vec<&PathBuf> = edits.keys().collect();
    files.sort();
    for abs in files {
        let selection = project.select(std::slice::from_ref(abs));
        let jobs = crate::lint::plan::jobs(&project.config, &project.discovery, &selection);
        if let Some(other) = jobs
            .iter()
            .find(|j| j.kind == JobKind::Root && j.root != job.root)
        {
            let shown = project.relative(abs).unwrap_or_default();
            return Err(format!(
                "{shown} is read by the root {} too: rename the value there at the same time by hand",
                other.root
            ));
        }
    }
    Ok(())
}

/// The LSP range of bytes `s..e` (on one line) of `text`.
fn byte_range(text: &str, s: usize, e: usize) -> Range {
    let (line, start, l) = super::positions::line_of(text, s);
    Range::new(
        lsp_types::Position::new(line, utf16_col(l, s - start)),
        lsp_types::Position::new(line, utf16_col(l, e - start)),
    )
}

/// Whether `name` can follow `data.values.` in Starlark.
fn is_identifier(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "and", "break", "continue", "def", "elif", "else", "for", "if", "in", "lambda", "load",
        "not", "or", "pass", "return", "while", "None", "True", "False", "end",
    ];
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ranges() {
        assert!(is_identifier("port_2"));
        assert!(!is_identifier("2port"));
        assert!(!is_identifier("my-port"));
        assert!(!is_identifier("end"));
        let text = "a: 1\nbé: x\n";
        let r = byte_range(text, 9, 10);
        assert_eq!(
            (r.start.line, r.start.character, r.end.character),
            (1, 3, 4)
        );
        assert_eq!(kind_of_name("x/t.star"), Some(Kind::Star));
        let segs: Vec<String> = ["d", "values", "a", "b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let text = "#@ load(\"@ytt:data\", d=\"data\")\n#@ w = d.values.a\n";
        let at = |i| data_path(&segs, i, Kind::Yaml, text);
        assert_eq!(at(3), Some(vec!["a".into(), "b".into()]));
        assert_eq!(at(1), None);
        let segs: Vec<String> = ["w", "b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            data_path(&segs, 1, Kind::Yaml, text),
            Some(vec!["a".into(), "b".into()])
        );
    }
}
