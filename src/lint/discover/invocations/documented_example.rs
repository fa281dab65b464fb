//! A values example a page tells its reader to copy and fill in ("Make a copy of
//! values-example.yaml and customize it", "Copy setup/values-example.yaml to values.yaml"),
//! standing in for the copy where a command takes it at run time: a script's `-f $1`, or an
//! App's `valuesFrom` Secret that a `kubectl create secret generic NAME --from-file=COPY`
//! makes from it. The user edits the copy, so what fails with the example is a warning that
//! names the example and the page (the `example-values` assumption), never a certain error;
//! without the stand-in the command is evaluated without values at all and a template's
//! read of a key the example lacks (`struct has no .tap`) is lost as `needs-input`
//! (issue 39, item 3d; round ten's LA10-1).

use super::index::Index;
use super::word::Word;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// At most this many example files are read per repository.
pub const MAX_EXAMPLES: usize = 64;

/// A values example of the repository (`values-example.yaml`), and whether its text is data
/// values to give with `-f` (its first document is `#@data/values`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    pub path: String,
    pub data_values: bool,
}

/// An example a page tells its reader to copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Documented {
    pub example: Example,
    /// Where the page says so (`install/values/README.md:3`).
    pub at: String,
    /// The name the page gives the copy (`values.yaml`), when it gives one.
    pub copy: Option<String>,
}

/// A Secret a command makes from files: `kubectl create secret generic NAME
/// --from-file=[KEY=]PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretFromFiles {
    pub name: String,
    /// The file names of its `--from-file` sources.
    pub files: Vec<String>,
}

/// Whether a repository path names a values example to copy (`values-example.yaml`,
/// `values.yaml.example`, `sample-values.yml`), or the redacted copy of the author's own
/// values a page says to copy and fill in (`values-REDACTED.yaml`, `params-REDACTED.yaml`,
/// `settings-REDACTED.yaml`: rounds forty-one and forty-four's R41-2 and R44-2).
pub fn is_example(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let says = ["example", "sample", "redacted"]
        .iter()
        .any(|w| name.contains(w));
    let yaml = [".yml", ".yaml"]
        .iter()
        .any(|e| name.ends_with(e) || name.contains(&format!("{e}.")));
    let values = name.contains("value")
        || (name.contains("redacted")
            && ["param", "setting", "config", "secret"]
                .iter()
                .any(|w| name.contains(w)));
    says && yaml && values
}

/// Whether a line tells its reader to copy or fill in a file (or lists it as done: "Copied
/// `params-REDACTED.yaml` and updated it", a page's prerequisites).
fn says_copy(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    ["copy", "copied", "cp ", "customi", "fill in", "edit "]
        .iter()
        .any(|w| l.contains(w))
}

/// The examples the pages among `texts` (repository path, text) tell the reader to copy: a
/// line that names an example of `examples` (by its path from the page or from the top, or by
/// a file name no other example has) and says to copy, customise, edit or fill it in.
pub fn documented(
    texts: &[(String, &str)],
    examples: &[Example],
    is_page: impl Fn(&str) -> bool,
) -> Vec<Documented> {
    let mut out: Vec<Documented> = Vec::new();
    for (page, text) in texts.iter().filter(|(p, _)| is_page(p)) {
        let dir = paths::parent(page);
        for (i, line) in text.lines().enumerate() {
            if !says_copy(line) {
                continue;
            }
            let tokens = tokens(line);
            for (t, token) in tokens.iter().enumerate() {
                let Some(ex) = named(token, dir, examples) else {
                    continue;
                };
                if out.iter().any(|d| d.example.path == ex.path) {
                    continue;
                }
                let copy = tokens[t + 1..]
                    .iter()
                    .find(|n| is_yaml_name(n) && named(n, dir, examples).is_none())
                    .map(|n| n.rsplit('/').next().unwrap_or(n).to_string());
                out.push(Documented {
                    example: ex.clone(),
                    at: format!("{page}:{}", i + 1),
                    copy,
                });
            }
        }
    }
    out
}

/// The path-like words of a line: split at blanks and at the punctuation of Markdown (links,
/// code spans, emphasis).
fn tokens(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || "`*()[]<>\"',;|".contains(c))
        .map(|t| t.trim_end_matches(['.', ':']).trim_start_matches("./"))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

fn is_yaml_name(t: &str) -> bool {
    t.ends_with(".yml") || t.ends_with(".yaml")
}

/// The example a page's word names: its path from the page's directory, from the top, or a
/// file name that only one example has.
fn named<'e>(token: &str, dir: &str, examples: &'e [Example]) -> Option<&'e Example> {
    let from_page = Word::lit(format!("{}/{}/{token}", super::word::REPO, dir)).repo_path();
    if let Some(e) = examples
        .iter()
        .find(|e| Some(&e.path) == from_page.as_ref() || e.path == token)
    {
        return Some(e);
    }
    if token.contains('/') {
        return None;
    }
    let mut same = examples
        .iter()
        .filter(|e| e.path.rsplit('/').next() == Some(token));
    let one = same.next()?;
    same.next().is_none().then_some(one)
}

/// The documented example nearest to `file` (the one whose directory shares the most leading
/// directories with `file`'s), when one is nearest; `data_values`: only an example that is
/// data values text (for `-f`).
pub fn nearest<'d>(
    file: &str,
    documented: &'d [Documented],
    data_values: bool,
) -> Option<&'d Documented> {
    let dir = paths::parent(file);
    let shared = |d: &Documented| {
        let other = paths::parent(&d.example.path);
        dir.split('/')
            .zip(other.split('/'))
            .take_while(|(a, b)| a == b && *a != ".")
            .count()
    };
    let fit: Vec<&Documented> = documented
        .iter()
        .filter(|d| d.example.data_values || !data_values)
        .collect();
    let best = fit.iter().map(|d| shared(d)).max()?;
    let mut at_best = fit.into_iter().filter(|d| shared(d) == best);
    let one = at_best.next()?;
    at_best.next().is_none().then_some(one)
}

/// The example standing in for a `-f` input whose whole name is known only at run time
/// (`-f $1`, `-f "$VALUES"`) in a command of `file` that a user runs (not a CI job, which has
/// no copy of its user's): the nearest documented example that is data values text, with the
/// assumption that names it.
pub fn for_run_time_input(
    written: &Word,
    file: &str,
    documented: &[Documented],
    unattended: bool,
) -> Option<(String, Assumption)> {
    if unattended {
        return None;
    }
    let last = written.normalized().segments().pop()?;
    if !last.literal_prefix().is_empty() || last.0.len() != 1 || last.unknowns().count() != 1 {
        return super::named_copy::for_input(written, file, documented);
    }
    let d = nearest(file, documented, true)?;
    Some((
        d.example.path.clone(),
        assumption(&format!("`-f {written}`"), d),
    ))
}

/// The assumption that `what` (a command's input, a Secret's file) is the user's copy of a
/// documented example.
pub fn assumption(what: &str, d: &Documented) -> Assumption {
    Assumption::new(
        AssumptionKind::ExampleValues,
        format!(
            "{what} is the user's copy of {} ({} says to copy and fill it in); linted with the example",
            d.example.path, d.at
        ),
    )
    .about(Subject::StandIn {
        example: d.example.path.clone(),
        copy: what.to_string(),
    })
}

/// The Secrets that `kubectl create secret generic NAME --from-file=…` commands of `texts`
/// make (a line's `\` continuations joined).
pub fn secrets(texts: &[(String, &str)]) -> Vec<SecretFromFiles> {
    let mut out: Vec<SecretFromFiles> = Vec::new();
    for (_, text) in texts {
        // Both words are whole in the text too (a `\` continuation only joins lines): most
        // pages have neither, and joining and scanning every line of them cost more than the
        // rest of discovery.
        if !(text.contains("generic") && text.contains("--from-file")) {
            continue;
        }
        let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
        for line in joined.lines() {
            let Some(at) = line.find("create secret generic") else {
                continue;
            };
            let words: Vec<&str> = line[at + "create secret generic".len()..]
                .split_whitespace()
                .map(|w| w.trim_matches(['`', '"', '\'']))
                .collect();
            let Some(name) = words.iter().find(|w| !w.starts_with('-')) else {
                continue;
            };
            let mut files = Vec::new();
            for (i, w) in words.iter().enumerate() {
                let value = match w.strip_prefix("--from-file=") {
                    Some(v) => Some(v),
                    None if *w == "--from-file" => words.get(i + 1).copied(),
                    None => None,
                };
                if let Some(v) = value {
                    let path = v.split_once('=').map_or(v, |(_, p)| p);
                    files.push(path.rsplit('/').next().unwrap_or(path).to_string());
                }
            }
            if !files.is_empty() && !out.iter().any(|s| s.name == *name && s.files == files) {
                out.push(SecretFromFiles {
                    name: name.to_string(),
                    files,
                });
            }
        }
    }
    out
}

/// The documented example a `valuesFrom` Secret `name` holds the copy of: a Secret made from
/// the file the page names as the copy, not a file of the repository (`index`).
pub fn for_secret<'d>(
    name: &str,
    made: &[SecretFromFiles],
    documented: &'d [Documented],
    index: &Index,
) -> Option<&'d Documented> {
    let files: Vec<&String> = made
        .iter()
        .filter(|s| s.name == name)
        .flat_map(|s| s.files.iter())
        .collect();
    let mut fits = documented.iter().filter(|d| {
        d.copy
            .as_ref()
            .is_some_and(|c| files.contains(&c) && !index.is_file(c))
    });
    let one = fits.next()?;
    fits.next().is_none().then_some(one)
}

#[cfg(test)]
#[path = "documented_example_tests.rs"]
mod tests;
