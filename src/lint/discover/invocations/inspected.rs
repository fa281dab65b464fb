//! A chain of two commands: one writes a schema's OpenAPI document (`ytt -f
//! bundle/values.yaml --data-values-schema-inspect -o openapi-v3 > /tmp/schema.yml`) and a
//! later one reads it as a data value (`ytt -f package-template.yml --data-value-file
//! openapi=/tmp/schema.yml`: Carvel's package template, which decodes it into the Package's
//! `valuesSchema`). The later command is linted with the document ytt prints for the first
//! command's files, not with a placeholder. Nothing is guessed: the text is what the first
//! command writes; when the linter cannot compute it, the value stays one given at run time.
//! Not seen: an in-place edit of the written file between the two (`sed -i`), which the
//! repository's commands do not record as making it; `--openapi-validations` (the document
//! is computed without the validations' keywords).

use std::collections::HashMap;
use std::path::Path;

use super::made::{self, Fit};
use super::resolve::{Invocation, Origin, Repo};
use super::scripts;
use super::word::Word;
use crate::files::paths::is_within;
use crate::files::InputFile;
use crate::library::{EvalOpts, Workspace};
use crate::lint::repo::walk::{Kind, RepoFile};

/// The largest file read.
const MAX: usize = 1 << 20;
/// The most files one inspection reads.
const MAX_FILES: usize = 200;

/// The `ytt` command that certainly writes `target`, if one does.
pub fn maker(target: &Word, repo: &Repo) -> Option<Origin> {
    let (m, _) = made::maker(repo.made, target, repo.index)?;
    // Another command of the file that writes the same path (`sed -i` on it) changes it.
    let writers = repo
        .made
        .iter()
        .filter(|o| o.file == m.at.file && o.made.path == m.at.made.path)
        .count();
    (m.fit == Fit::Exact && m.certain && m.at.made.by == "ytt" && writers == 1).then(|| Origin {
        file: m.at.file.clone(),
        line: m.at.made.line,
    })
}

/// Whether the `--data-value-file` path word `path` is a process substitution of a ytt schema
/// inspection printing OpenAPI (`<(ytt -f schema.yaml --data-values-schema-inspect -o
/// openapi-v3)`).
pub fn substituted(path: &Word) -> bool {
    let text = path.to_string();
    let Some(inner) = text
        .strip_prefix("<(")
        .and_then(|t| t.trim_end().strip_suffix(')'))
    else {
        return false;
    };
    let words: Vec<&str> = inner.split_whitespace().collect();
    let output = words.windows(2).any(|w| {
        matches!(w[0], "-o" | "--output")
            && w[1].trim_matches(|c| c == '"' || c == '\'') == "openapi-v3"
    }) || words
        .iter()
        .any(|w| matches!(*w, "-oopenapi-v3" | "--output=openapi-v3"));
    words
        .first()
        .is_some_and(|w| w.rsplit('/').next() == Some("ytt"))
        && words.contains(&"--data-values-schema-inspect")
        && output
        && !inner.contains(['|', ';', '&', '>'])
}

/// Gives each value a command reads from a file that a schema inspection writes (see
/// [`Invocation::inspected`]) the document that inspection prints.
pub fn fill(repo: &Path, files: &[RepoFile], invocations: &mut [Invocation]) {
    // Two inspections at one line (two substitutions): which one a value reads is not known.
    let mut inspections: HashMap<Origin, Option<Vec<String>>> = HashMap::new();
    for i in invocations.iter().filter(|i| i.inspect && !i.prints_values) {
        inspections
            .entry(i.origin.clone())
            .and_modify(|e| *e = None)
            .or_insert_with(|| Some(i.inputs.clone()));
    }
    let mut printed: HashMap<Origin, Option<String>> = HashMap::new();
    for inv in invocations.iter_mut() {
        for (key, origin) in std::mem::take(&mut inv.inspected) {
            let Some(Some(inputs)) = inspections.get(&origin) else {
                continue;
            };
            let text = printed
                .entry(origin)
                .or_insert_with(|| openapi(repo, files, inputs));
            let Some(text) = text else {
                continue;
            };
            if let Some(v) = inv
                .values
                .iter_mut()
                .find(|v| v.key == key && v.value.is_none())
            {
                v.value = Some(text.clone());
            }
        }
    }
}

/// What `ytt -f INPUTS --data-values-schema-inspect -o openapi-v3` prints, when the linter can
/// compute it from the repository's files.
fn openapi(repo: &Path, files: &[RepoFile], inputs: &[String]) -> Option<String> {
    let mut given = Vec::new();
    for input in inputs {
        if input.contains('=') {
            return None;
        }
        for f in files.iter().filter(|f| is_within(&f.path, input)) {
            if !matches!(
                f.kind,
                Kind::YttYaml | Kind::PlainYaml | Kind::Starlark | Kind::TextTemplate
            ) {
                continue;
            }
            // A file given alone is named by its name, a directory's files below it.
            let name = match f.path.strip_prefix(input.as_str()) {
                _ if input == "." => f.path.as_str(),
                Some(rest) if !rest.is_empty() => rest.trim_start_matches('/'),
                _ => f.path.rsplit('/').next().unwrap_or(&f.path),
            };
            given.push(InputFile::new(name, &scripts::read(repo, &f.path, MAX)?));
            if given.len() > MAX_FILES {
                return None;
            }
        }
    }
    if given.is_empty() {
        return None;
    }
    let ws = Workspace::new(given, EvalOpts::default());
    let schema = ws.data_values_schema().ok()?;
    let doc = crate::schema::openapi::document(&schema, false);
    Some(crate::yaml::emit::documents_to_yaml(&[doc]))
}
