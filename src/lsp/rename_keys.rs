//! The keys a rename of a data value edits besides code: the key in schema and data values
//! documents (`#@data/values-schema`, `#@data/values`, not those addressed to a library), in
//! the plain YAML of `--data-values-file`, and the dotted paths of the root's `--data-value`
//! flags and scenario `data_values` in `.yttlint.yaml`.

use std::path::PathBuf;
use std::sync::Arc;

use super::project::Project;
use super::request::Ctx;
use super::values::key_text;
use crate::library::plain::doc_has_annotation;
use crate::lint::job::Job;
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{DocSet, MapItem, Value};

/// A file's path, its text, and the byte ranges of it to replace.
pub type FileEdits = (PathBuf, String, Vec<(usize, usize)>);

fn parsed(text: &str) -> Option<DocSet> {
    let name: Arc<str> = Arc::from("rename.yml");
    parse(text, &name, &ParseOpts::default()).ok()
}

/// Whether a document declares or sets the root's data values.
fn is_values_doc(comments: &[crate::yaml::Comment]) -> bool {
    (doc_has_annotation(comments, "data/values")
        || doc_has_annotation(comments, "data/values-schema"))
        && !doc_has_annotation(comments, "library/ref")
}

/// The byte range of `item`'s key in `text` (its quotes left out), when the key is written
/// as its text.
fn key_range(text: &str, item: &MapItem) -> Option<(usize, usize)> {
    let key = key_text(&item.key);
    let at = item.pos.offset as usize;
    let rest = text.get(at..)?;
    if rest.starts_with(&key) {
        return Some((at, at + key.len()));
    }
    let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
    rest[1..]
        .starts_with(&key)
        .then_some(())
        .filter(|()| rest[1 + key.len()..].starts_with(quote))
        .map(|()| (at + 1, at + 1 + key.len()))
}

/// The ranges of the key at `path` in the documents of `text` (values and schema documents
/// only when `annotated`).
pub fn key_edits(text: &str, path: &[String], annotated: bool) -> Vec<(usize, usize)> {
    let Some(ds) = parsed(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for d in &ds.items {
        if annotated && !is_values_doc(&d.comments) {
            continue;
        }
        let mut v = &d.value;
        let mut found = None;
        for seg in path {
            let Value::Map(m) = v else {
                found = None;
                break;
            };
            let Some(item) = m.items.iter().find(|i| key_text(&i.key) == *seg) else {
                found = None;
                break;
            };
            found = Some(item);
            v = &item.value;
        }
        if let Some(range) = found.and_then(|item| key_range(text, item)) {
            out.push(range);
        }
    }
    out
}

/// The key of a schema or data values document, or of a `--data-values-file` of the file's
/// root, under the cursor: its path and its byte range in the line.
pub fn key_at(ctx: &Ctx<'_>) -> Option<(Vec<String>, usize, usize)> {
    let name = ctx.path.to_string_lossy();
    if !(name.ends_with(".yml") || name.ends_with(".yaml")) {
        return None;
    }
    let line_start = crate::pos::line_span(ctx.text, ctx.line_no.saturating_add(1))
        .map_or(ctx.text.len(), |l| l.start);
    let at = line_start + ctx.byte;
    let ds = parsed(ctx.text)?;
    for d in ds.items.iter().filter(|d| is_values_doc(&d.comments)) {
        let mut path = Vec::new();
        if let Some((s, e)) = key_in(ctx.text, &d.value, at, &mut path) {
            return Some((path, s - line_start, e - line_start));
        }
    }
    // A `--data-values-file` of the file's root: plain YAML, each document sets values.
    if !is_values_file(ctx) {
        return None;
    }
    for d in &ds.items {
        let mut path = Vec::new();
        if let Some((s, e)) = key_in(ctx.text, &d.value, at, &mut path) {
            return Some((path, s - line_start, e - line_start));
        }
    }
    None
}

/// Whether the request's file is a `--data-values-file` of its root.
fn is_values_file(ctx: &Ctx<'_>) -> bool {
    let Some(job) = ctx.project.job_of(ctx.path) else {
        return false;
    };
    values_files(ctx.project, &job)
        .is_ok_and(|files| files.iter().any(|(abs, _)| abs.as_path() == ctx.path))
}

fn key_in(text: &str, v: &Value, at: usize, path: &mut Vec<String>) -> Option<(usize, usize)> {
    let Value::Map(m) = v else { return None };
    for item in &m.items {
        path.push(key_text(&item.key));
        if let Some((s, e)) = key_range(text, item) {
            if s <= at && at <= e {
                return Some((s, e));
            }
        }
        if let Some(found) = key_in(text, &item.value, at, path) {
            return Some(found);
        }
        path.pop();
    }
    None
}

/// The `--data-values-file` files of the root of `job` (every scenario's), with their text;
/// or why one cannot be searched (standard input, a directory, a file that cannot be read).
/// Those addressed to a library (`@lib:`) set no value of the root.
pub fn values_files(project: &Project, job: &Job) -> Result<Vec<(PathBuf, String)>, String> {
    let mut jobs = vec![job.clone()];
    jobs.extend(project.scenario_jobs(job));
    let policy = crate::files::ReadPolicy::repository(project.dir());
    let mut out: Vec<(PathBuf, String)> = Vec::new();
    for j in &jobs {
        let Ok(flags) = &j.flags else { continue };
        for arg in &flags.dv_files {
            if arg.starts_with('@') {
                continue;
            }
            // `[+:]` and the input, in ytt's syntax or the explicit form the plan writes.
            let file = arg.strip_prefix("+:").unwrap_or(arg);
            let file = crate::files::input::path_of(file);
            if file == "-" {
                return Err(format!(
                    "the root {} reads data values from standard input (--data-values-file -), out of the rename's reach",
                    j.root
                ));
            }
            let abs = j.repo.join(file);
            if out.iter().any(|(p, _)| *p == abs) {
                continue;
            }
            let shown = project.relative(&abs).unwrap_or_else(|| file.to_string());
            if abs.is_dir() {
                return Err(format!(
                    "the root {} reads the data values files of the directory {shown}, which a rename does not search",
                    j.root
                ));
            }
            let text = abs
                .starts_with(project.dir())
                .then(|| crate::files::read_allowed(&abs, &policy))
                .flatten()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .ok_or_else(|| format!("the data values file {shown} cannot be read"))?;
            out.push((abs, text));
        }
    }
    Ok(out)
}

/// Refuses when the value may be set from outside the repository, where no edit reaches: the
/// environment (`--data-values-env`), or values `provided` at run time.
pub fn outside_sources(project: &Project, job: &Job, path: &[String]) -> Result<(), String> {
    let dotted = path.join(".");
    let mut jobs = vec![job.clone()];
    jobs.extend(project.scenario_jobs(job));
    for j in &jobs {
        let Ok(flags) = &j.flags else { continue };
        if let Some(prefix) = flags.dv_env.iter().chain(&flags.dv_env_yaml).next() {
            return Err(format!(
                "the root {} reads data values from the environment (--data-values-env {prefix}): data.values.{dotted} may be set there, out of the rename's reach",
                j.root
            ));
        }
        let given = j.provided.iter().find(|p| {
            let p: Vec<String> = p.split('.').map(str::to_string).collect();
            p == ["*"] || p.starts_with(path) || path.starts_with(&p)
        });
        if let Some(p) = given {
            return Err(format!(
                "data.values.{dotted} is provided at run time (`provided: {p}` in the configuration), out of the rename's reach"
            ));
        }
    }
    Ok(())
}

/// The edits of `.yttlint.yaml`: in the entry of the root of `job`, each `a.b=` of a flag and
/// each `a.b:` key of a scenario's `data_values` that names `path` or a value under it.
pub fn config_edits(project: &Project, job: &Job, path: &[String]) -> Option<FileEdits> {
    let file = project.config.file.clone()?;
    let policy = crate::files::ReadPolicy::repository(project.dir());
    let text = String::from_utf8(crate::files::read_allowed(&file, &policy)?).ok()?;
    let (from, to) = root_entry(&text, &job.root)?;
    let dotted = path.join(".");
    let last = path.last()?;
    let mut ranges = Vec::new();
    let mut searched = from;
    while let Some(i) = text.get(searched..to)?.find(dotted.as_str()) {
        let at = searched + i;
        searched = at + dotted.len();
        let before = text[..at].chars().next_back();
        let after = text[at + dotted.len()..].chars().next();
        // `--data-value=app.port=1`: the flag's own `=`, not a value that names the key.
        let flag_form = [
            "--data-value=",
            "--data-value-yaml=",
            "--data-value-file=",
            "-v=",
        ]
        .iter()
        .any(|f| text[..at].ends_with(f));
        let starts = flag_form
            || before.is_none_or(|c| matches!(c, ' ' | '"' | '\'' | '[' | ',' | '{' | '\n'));
        let ends = matches!(after, Some('=' | '.' | ':'));
        if starts && ends {
            let end = at + dotted.len();
            ranges.push((end - last.len(), end));
        }
    }
    (!ranges.is_empty()).then_some((file, text, ranges))
}

/// The byte range of the item of `roots:` whose `path` is `root`.
fn root_entry(text: &str, root: &str) -> Option<(usize, usize)> {
    let ds = parsed(text)?;
    let doc = ds.items.first()?;
    let Value::Map(m) = &doc.value else {
        return None;
    };
    let roots = m.items.iter().find(|i| key_text(&i.key) == "roots")?;
    let Value::Array(a) = &roots.value else {
        return None;
    };
    let clean = |p: &str| p.trim_start_matches("./").trim_end_matches('/').to_string();
    for (n, item) in a.items.iter().enumerate() {
        let Value::Map(entry) = &item.value else {
            continue;
        };
        let is_it = entry.items.iter().any(|i| {
            key_text(&i.key) == "path"
                && i.value.as_str().is_some_and(|p| {
                    clean(p) == clean(root) || (clean(p).is_empty() && root == ".")
                })
        });
        if is_it {
            let start = item.pos.offset as usize;
            let end = a
                .items
                .get(n + 1)
                .map_or(text.len(), |next| next.pos.offset as usize);
            return Some((start, end.max(start)));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &str) -> Vec<String> {
        path.split('.').map(str::to_string).collect()
    }

    #[test]
    fn keys_of_values_and_schema_documents() {
        let text = "#@data/values-schema\n---\napp:\n  port: 1\n---\nplain:\n  app: 2\n#@data/values\n---\napp:\n  \"port\": 3\n";
        let ranges = key_edits(text, &p("app.port"), true);
        let got: Vec<&str> = ranges.iter().map(|(s, e)| &text[*s..*e]).collect();
        assert_eq!(got, ["port", "port"]);
        assert_eq!(ranges.len(), 2);
        assert!(key_edits(text, &p("app.nope"), true).is_empty());
        assert_eq!(
            key_edits("app:\n  port: 1\n", &p("app.port"), false).len(),
            1
        );
    }

    #[test]
    fn the_roots_entry_of_the_configuration() {
        let text = "roots:\n  - path: a\n    args: [\"-v\", \"app.port=1\"]\n  - path: b\n    args: [\"-v\", \"app.port=2\"]\n";
        let (s, e) = root_entry(text, "b").unwrap();
        assert!(text[s..e].contains("app.port=2") && !text[s..e].contains("app.port=1"));
    }
}
