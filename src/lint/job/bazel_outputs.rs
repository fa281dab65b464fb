//! A file the templates read (`data.read("app.digest")`) that a Bazel rule of the repository
//! makes: a `genrule` whose `outs` (or a rule whose `out`) names it, in the `BUILD.bazel` (or
//! `BUILD`) of the Bazel package that holds it. The build writes it before the rule that runs
//! ytt (rules_ytt's `ytt(srcs = [..., ":digest"])`) and hands it over with the templates; it is
//! not committed. The evaluation stops for want of a file made at build time: a `needs-input`
//! note that names the rule, not a failure of the root (round eighteen's R18-4).

use crate::files::paths;
use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule};

/// The largest BUILD file read.
const MAX_BUILD: usize = 1 << 20;

/// At most this many directories are climbed to find the Bazel package of a file.
const MAX_CLIMB: usize = 32;

/// A rule of a BUILD file that makes a file.
#[derive(Debug, PartialEq, Eq)]
struct Maker {
    /// The rule's kind (`genrule`).
    kind: String,
    /// Its `name`.
    name: String,
    /// The BUILD file and the line of the call (`deploy/BUILD.bazel:4`).
    at: String,
}

/// `found` with each failure to find a file that a Bazel rule of the repository makes turned
/// into a `needs-input` note.
pub fn settle(job: &Job, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    super::ignored_reads::settle_missing(
        job,
        found,
        |path| maker(job, path),
        |d, path, m| note(d, path, &m),
    )
}

/// The rule of the Bazel package holding `path` that makes it: the BUILD file of the nearest
/// directory above `path` that has one decides (a Bazel package ends there).
fn maker(job: &Job, path: &str) -> Option<Maker> {
    let mut dir = paths::parent(path).to_string();
    for _ in 0..MAX_CLIMB {
        for name in ["BUILD.bazel", "BUILD"] {
            let build = paths::join(&dir, name);
            let Some(text) =
                crate::lint::discover::invocations::scripts::read(&job.repo, &build, MAX_BUILD)
            else {
                continue;
            };
            let within = if dir == "." || dir.is_empty() {
                path
            } else {
                path.strip_prefix(&format!("{dir}/"))?
            };
            return makes(&text, within).map(|(kind, name, line)| Maker {
                kind,
                name,
                at: format!("{build}:{line}"),
            });
        }
        if dir == "." || dir.is_empty() {
            return None;
        }
        dir = paths::parent(&dir).to_string();
    }
    None
}

/// The rule of a BUILD file's text that makes `file` (relative to its package): its kind, its
/// name and the line of its call. One pass over the text: the calls at its top level, past
/// strings and comments.
fn makes(text: &str, file: &str) -> Option<(String, String, usize)> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut open = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(q) = quote {
            if b == b'\\' {
                i += 1;
            } else if b == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match b {
            b'"' | b'\'' => quote = Some(b),
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    open = i;
                }
                depth += 1;
            }
            b')' | b']' | b'}' => {
                // Unbalanced text: start again at the top level.
                depth = depth.saturating_sub(1);
                if depth == 0 && b == b')' {
                    if let Some(found) = call_makes(text, open, i, file) {
                        return Some(found);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether the call whose `(` is at `open` and `)` at `close` makes `file`: its kind, name and
/// line.
fn call_makes(
    text: &str,
    open: usize,
    close: usize,
    file: &str,
) -> Option<(String, String, usize)> {
    let head = text.get(..open)?;
    let kind_start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |i| i + 1);
    let kind = head.get(kind_start..)?;
    let call = text.get(open + 1..close)?;
    if kind.is_empty() || !call.contains("out") {
        return None;
    }
    let made = list_of(call, "outs")
        .into_iter()
        .chain(string_of(call, "out"))
        .any(|o| o == file);
    if !made {
        return None;
    }
    let name = string_of(call, "name").unwrap_or_default();
    let line = head.matches('\n').count() + 1;
    Some((kind.to_string(), name, line))
}

/// The text after `key =` at the call's top level (not `other_key =`).
fn value_after<'t>(call: &'t str, key: &str) -> Option<&'t str> {
    let mut from = 0usize;
    while let Some(at) = call.get(from..)?.find(key) {
        let start = from + at;
        from = start + key.len();
        let before_ok = call[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        let rest = call[from..].trim_start();
        if before_ok {
            if let Some(v) = rest.strip_prefix('=') {
                if !v.starts_with('=') {
                    return Some(v.trim_start());
                }
            }
        }
    }
    None
}

/// The string literal of `key = "..."`.
fn string_of(call: &str, key: &str) -> Option<String> {
    let v = value_after(call, key)?;
    let q = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &v[1..];
    Some(body[..body.find(q)?].to_string())
}

/// The string literals of `key = ["...", ...]`.
fn list_of(call: &str, key: &str) -> Vec<String> {
    let Some(v) = value_after(call, key).and_then(|v| v.strip_prefix('[')) else {
        return Vec::new();
    };
    let Some(end) = v.find(']') else {
        return Vec::new();
    };
    v[..end]
        .split(',')
        .filter_map(|s| {
            let s = s.trim();
            let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            s.strip_prefix(q)?.strip_suffix(q).map(str::to_string)
        })
        .collect()
}

/// The note that replaces the failure `d` to find `path`, which `m` makes.
fn note(d: Diagnostic, path: &str, m: &Maker) -> Diagnostic {
    let mut n = Diagnostic::new(
        Rule::NeedsInput,
        format!(
            "this root reads {path}, which the Bazel {} `{}` ({}) makes at build time: it \
             is not committed, and the evaluation stops for want of it",
            m.kind, m.name, m.at
        ),
    )
    .with_help(
        "add a scenario to .yttlint.yaml whose args give a stand-in for the file \
         (`--file-mark` or a file under a `-f` input)",
    );
    n.span = d.span;
    n.related = d.related;
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILD: &str = "load(\"@rules_ytt//:defs.bzl\", \"ytt\")\n\n# The digest of the image (\"a (paren\").\ngenrule(\n    name = \"digest\",\n    outs = [\"app.digest\", 'other.txt'],\n    cmd = \"echo sha256:0 > $@\",\n)\n\nytt(\n    name = \"manifest\",\n    srcs = glob([\"*.yaml\"]) + [\":digest\"],\n)\n\ncopy_file(name = \"c\", src = \"a\", out = \"copied.json\")\n";

    #[test]
    fn the_rule_that_makes_a_file() {
        assert_eq!(
            makes(BUILD, "app.digest"),
            Some(("genrule".to_string(), "digest".to_string(), 4))
        );
        assert_eq!(
            makes(BUILD, "other.txt").map(|m| m.1),
            Some("digest".to_string())
        );
        assert_eq!(
            makes(BUILD, "copied.json"),
            Some(("copy_file".to_string(), "c".to_string(), 15))
        );
        assert_eq!(makes(BUILD, "manifest"), None);
        assert_eq!(makes(BUILD, "values.yaml"), None);
        // An unbalanced call makes nothing; the text after it is read on.
        assert_eq!(makes("genrule(name = \"x\", outs = [\"a\"]", "a"), None);
        let after = "oops(\ngenrule(name = \"x\", outs = [\"a\"]))\nf(name = \"y\", out = \"b\")";
        assert_eq!(makes(after, "b").map(|m| m.1), Some("y".to_string()));
    }

    #[test]
    fn keys_are_whole_words() {
        assert_eq!(
            string_of("name = \"x\", out = \"o\"", "out"),
            Some("o".into())
        );
        assert_eq!(string_of("timeout = \"5\"", "out"), None);
        assert_eq!(list_of("outs=[\"a\",\"b\",]", "outs"), vec!["a", "b"]);
        assert_eq!(
            list_of("outs = glob([\"*\"])", "outs"),
            Vec::<String>::new()
        );
    }
}
