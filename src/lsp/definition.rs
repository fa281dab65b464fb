//! Go to definition: a `load()` path to its file and a loaded name to its `def` or assignment
//! there; a function of the same file; a data value to where the schema declares it (and the
//! data values documents of the root that set it); `library.get("x")` to `_ytt_lib/x`.

use std::path::{Path, PathBuf};

use lsp_types::{GotoDefinitionResponse, Location};

use super::chain::chain_at;
use super::context::{library_get_at, loads, values_path, Load};
use super::request::{location, location_abs, Ctx};
use super::symbols::{library_dir, load_target, symbols};

/// The definitions at the request's position.
pub fn definition(ctx: &Ctx<'_>) -> Option<GotoDefinitionResponse> {
    let found = in_load(ctx)
        .or_else(|| library(ctx))
        .or_else(|| values(ctx))
        .or_else(|| name(ctx))?;
    match found.len() {
        0 => None,
        1 => found.into_iter().next().map(GotoDefinitionResponse::Scalar),
        _ => Some(GotoDefinitionResponse::Array(found)),
    }
}

/// The library root the file is read in (for `load("/...")`).
fn library_root(ctx: &Ctx<'_>) -> PathBuf {
    ctx.project
        .job_of(ctx.path)
        .map(|j| ctx.project.dir().join(&j.root))
        .unwrap_or_else(|| ctx.project.dir().to_path_buf())
}

fn target(ctx: &Ctx<'_>, load: &Load) -> Option<PathBuf> {
    load_target(ctx.project.dir(), &library_root(ctx), ctx.path, &load.path)
}

/// Where `name` is defined in the file `abs`.
fn defined_in(ctx: &Ctx<'_>, abs: &Path, name: &str) -> Option<Location> {
    let rel = ctx.project.relative(abs)?;
    let policy = crate::files::ReadPolicy::repository(ctx.project.dir());
    let bytes = crate::files::read_allowed(abs, &policy)?;
    let text = String::from_utf8(bytes).ok()?;
    let s = symbols(&rel, &text).into_iter().find(|s| s.name == name)?;
    location_abs(ctx.project, abs, s.line, s.column)
}

/// On a line of a `load()`: the path goes to the file, a name to its definition there.
fn in_load(ctx: &Ctx<'_>) -> Option<Vec<Location>> {
    let load = loads(ctx.text).into_iter().find(|l| l.spans(ctx.line_no))?;
    let file = target(ctx, &load)?;
    let path_at = ctx.line.find(load.path.as_str())?;
    if (path_at..=path_at + load.path.len()).contains(&ctx.byte) {
        return Some(vec![location_abs(ctx.project, &file, 1, 1)?]);
    }
    let word = chain_at(ctx.line, ctx.byte)
        .map(|(segs, i, _)| segs[i].clone())
        .unwrap_or_default();
    let their = load
        .names
        .iter()
        .find(|(local, their)| *local == word || *their == word)
        .map(|(_, their)| their.clone())?;
    Some(vec![defined_in(ctx, &file, &their)?])
}

fn library(ctx: &Ctx<'_>) -> Option<Vec<Location>> {
    let name = library_get_at(ctx.line, ctx.byte)?;
    let dir = library_dir(ctx.project.dir(), ctx.path, &name)?;
    let rel = ctx.project.relative(&dir)?;
    let sources = crate::report::Sources::new(ctx.project.dir());
    let first = sources.first_file(&rel)?;
    Some(vec![location(ctx.project, &first, 1, 1)?])
}

fn values(ctx: &Ctx<'_>) -> Option<Vec<Location>> {
    let (segs, i, _) = chain_at(ctx.line, ctx.byte)?;
    let path = values_path(&segs, i, ctx.text)?;
    let schema = ctx.schema()?;
    let declared = schema.lookup(&path).map(|d| d.pos);
    let mut out = Vec::new();
    let set_at = schema.set_at(&path).map(|s| &s.pos);
    for pos in declared.iter().chain(set_at) {
        let Some(rel) = schema.repo_path(pos) else {
            continue;
        };
        out.extend(location(ctx.project, &rel, pos.line, pos.col));
    }
    (!out.is_empty()).then_some(out)
}

/// A name of this file, or one it loads.
fn name(ctx: &Ctx<'_>) -> Option<Vec<Location>> {
    let (segs, i, _) = chain_at(ctx.line, ctx.byte)?;
    if i != 0 {
        return None;
    }
    let word = &segs[0];
    for load in loads(ctx.text) {
        if let Some((_, their)) = load.names.iter().find(|(local, _)| local == word) {
            let file = target(ctx, &load)?;
            return Some(vec![defined_in(ctx, &file, their)?]);
        }
    }
    let rel = ctx.project.relative(ctx.path)?;
    let s = symbols(&rel, ctx.text)
        .into_iter()
        .find(|s| s.name == *word)?;
    Some(vec![location_abs(ctx.project, ctx.path, s.line, s.column)?])
}
