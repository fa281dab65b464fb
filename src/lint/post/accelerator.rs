//! The text transforms of an App Accelerator (`accelerator.yaml` with an `engine:`), and its
//! `type: YTT` transforms, which render whole files with ytt (see [`Pattern::Rendered`]). When the
//! accelerator generates a project, its `ReplaceText` transforms rewrite the files their
//! `include:` globs select (`regex: {pattern: ..., with: ...}`, or literal `substitutions:`),
//! often to strip marker comments (`# StartGitOps` ... `# EndGitOps`) that ytt would refuse.
//! The stored file is then not what ytt reads in the generated project (round fourteen's
//! R14A-1). This module only reads the transforms; [`super::accelerated`] settles the findings
//! on the lines they rewrite.
//!
//! `accelerator.yaml` is the linted repository's, so hostile: the walk of its engine is bounded
//! in depth and count, each pattern in length, and the `regex` crate (linear time) compiles it
//! under size limits; a pattern it cannot compile (a Java construct such as a look-around)
//! matches nothing known, and is kept as such ([`Pattern::Unreadable`]).

use globset::{GlobBuilder, GlobMatcher};
use regex::{Regex, RegexBuilder};

use crate::files::paths;
use crate::lint::repo::yaml_doc::{documents, get, items, string};
use crate::yaml::Value;

/// An accelerator's file name.
pub const FILE_NAME: &str = "accelerator.yaml";
/// Accelerators read at most in one repository.
pub const MAX_ACCELERATORS: usize = 32;
/// Nesting of the engine's transforms followed at most.
const MAX_DEPTH: usize = 16;
/// Text transforms kept at most per accelerator.
const MAX_TRANSFORMS: usize = 512;
/// A pattern longer than this is not compiled.
const MAX_PATTERN: usize = 4096;
/// Compiled size of one pattern at most (the `regex` crate's own limits).
const REGEX_SIZE: usize = 1 << 20;

/// What a `ReplaceText` looks for.
#[derive(Clone, Debug)]
pub enum Pattern {
    Regex(Regex),
    /// A pattern the linter cannot compile: it may match anything of the file.
    Unreadable,
    /// Not a `ReplaceText`: a `type: YTT` transform, which renders the whole file with ytt,
    /// the accelerator's options as data values (round twenty's R20-1).
    Rendered,
}

/// One `ReplaceText` of an accelerator, with the files it applies to.
#[derive(Clone, Debug)]
pub struct Transform {
    /// The accelerator's repository path and the line of the transform (`accelerator.yaml:97`).
    pub at: String,
    /// The pattern as written, for messages.
    pub shown: String,
    pub pattern: Pattern,
    /// Whether the replacement is the empty string (`with: "''"`): the matched text goes.
    pub removes: bool,
    /// The accelerator's condition on the branch (`#hasTests`), when there is one.
    pub condition: Option<String>,
    /// The filters of each enclosing transform: a file must pass every one.
    filters: Vec<Filter>,
    /// The accelerator's directory, against which the globs match.
    dir: String,
}

/// An `include:` and `exclude:` pair.
#[derive(Clone, Debug, Default)]
struct Filter {
    include: Vec<GlobMatcher>,
    exclude: Vec<GlobMatcher>,
}

impl Filter {
    fn passes(&self, rel: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|g| g.is_match(rel)))
            && !self.exclude.iter().any(|g| g.is_match(rel))
    }
}

impl Transform {
    /// Whether the transform rewrites the repository file `file`.
    pub fn applies_to(&self, file: &str) -> bool {
        if !paths::is_within(file, &self.dir) || file == self.dir {
            return false;
        }
        let rel = if self.dir == "." {
            file
        } else {
            &file[self.dir.len() + 1..]
        };
        self.filters.iter().all(|f| f.passes(rel))
    }
}

/// The `ReplaceText` transforms of the accelerator at repository path `path` whose text is
/// `text` (none when it is no accelerator with an engine).
pub fn transforms(path: &str, text: &str) -> Vec<Transform> {
    let dir = paths::parent(path).to_string();
    let mut out = Vec::new();
    for doc in documents(path, text).iter().take(4) {
        let Some(engine) = get(&doc.value, "engine") else {
            continue;
        };
        let ctx = Context {
            path,
            dir: &dir,
            filters: Vec::new(),
            condition: None,
        };
        walk(engine, &ctx, 0, &mut out);
    }
    out
}

/// Where a transform sits in the engine.
#[derive(Clone)]
struct Context<'a> {
    path: &'a str,
    dir: &'a str,
    filters: Vec<Filter>,
    condition: Option<String>,
}

/// Collects the `ReplaceText` transforms under the engine node `v`.
fn walk(v: &Value, ctx: &Context, depth: usize, out: &mut Vec<Transform>) {
    if depth > MAX_DEPTH || out.len() >= MAX_TRANSFORMS {
        return;
    }
    match v {
        Value::Array(_) => {
            for item in items(Some(v)) {
                walk(item, ctx, depth + 1, out);
            }
        }
        Value::Map(_) => {
            let mut here = ctx.clone();
            let include = globs(get(v, "include"));
            let exclude = globs(get(v, "exclude"));
            if !include.is_empty() || !exclude.is_empty() {
                here.filters.push(Filter { include, exclude });
            }
            if let Some(c) = string(get(v, "condition")) {
                here.condition = Some(c.trim().to_string());
            }
            match string(get(v, "type")) {
                Some("ReplaceText") => replace_text(v, &here, out),
                Some("YTT") => rendered(v, &here, out),
                _ => {}
            }
            for key in ["merge", "chain", "transformations"] {
                if let Some(inner) = get(v, key) {
                    walk(inner, &here, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}

/// The transforms of one `ReplaceText` node.
fn replace_text(v: &Value, ctx: &Context, out: &mut Vec<Transform>) {
    let line = match v {
        Value::Map(m) => m.pos.line,
        _ => 0,
    };
    let at = format!("{}:{line}", ctx.path);
    let make = |shown: String, pattern: Pattern, with: &str| Transform {
        at: at.clone(),
        shown,
        pattern,
        removes: empty_replacement(with),
        condition: ctx.condition.clone(),
        filters: ctx.filters.clone(),
        dir: ctx.dir.to_string(),
    };
    if let Some(r) = get(v, "regex") {
        if let Some(p) = string(get(r, "pattern")) {
            let with = string(get(r, "with")).unwrap_or("");
            out.push(make(p.to_string(), compile(p), with));
        }
    }
    for s in items(get(v, "substitutions")) {
        if out.len() >= MAX_TRANSFORMS {
            return;
        }
        if let Some(t) = string(get(s, "text")).filter(|t| !t.is_empty()) {
            let with = string(get(s, "with")).unwrap_or("");
            out.push(make(t.to_string(), compile(&regex::escape(t)), with));
        }
    }
}

/// A `type: YTT` node: it renders every file its enclosing filters select.
fn rendered(v: &Value, ctx: &Context, out: &mut Vec<Transform>) {
    let line = match v {
        Value::Map(m) => m.pos.line,
        _ => 0,
    };
    out.push(Transform {
        at: format!("{}:{line}", ctx.path),
        shown: "type: YTT".to_string(),
        pattern: Pattern::Rendered,
        removes: false,
        condition: ctx.condition.clone(),
        filters: ctx.filters.clone(),
        dir: ctx.dir.to_string(),
    });
}

/// A pattern compiled under the size limits, or [`Pattern::Unreadable`].
fn compile(p: &str) -> Pattern {
    if p.len() > MAX_PATTERN {
        return Pattern::Unreadable;
    }
    RegexBuilder::new(p)
        .size_limit(REGEX_SIZE)
        .dfa_size_limit(REGEX_SIZE)
        .nest_limit(64)
        .build()
        .map_or(Pattern::Unreadable, Pattern::Regex)
}

/// Whether a `with:` (a SpEL expression) gives the empty string: `''`, `""` or nothing.
fn empty_replacement(with: &str) -> bool {
    matches!(with.trim(), "" | "''" | "\"\"")
}

/// The globs of an `include:` or `exclude:` (a list or one string), matched as Ant paths:
/// `*` within a directory, `**` across directories.
fn globs(v: Option<&Value>) -> Vec<GlobMatcher> {
    let words: Vec<&str> = match v {
        Some(Value::Array(_)) => items(v).into_iter().filter_map(Value::as_str).collect(),
        Some(s) => s.as_str().into_iter().collect(),
        None => Vec::new(),
    };
    words
        .into_iter()
        .take(64)
        .filter(|w| w.len() <= 512)
        .filter_map(|w| {
            GlobBuilder::new(w.trim_start_matches("./"))
                .literal_separator(true)
                .build()
                .ok()
        })
        .map(|g| g.compile_matcher())
        .collect()
}

/// Whether two conditions are each other's negation (`#x` and `!#x`, `a == 'b'` and
/// `a != 'b'`): one of the two branches runs in every generated project.
pub fn complementary(a: &str, b: &str) -> bool {
    let squash = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    let (a, b) = (squash(a), squash(b));
    let negated = |x: &str, y: &str| {
        x.strip_prefix('!').is_some_and(|rest| {
            let rest = rest
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or(rest);
            rest == y
        })
    };
    negated(&a, &b)
        || negated(&b, &a)
        || (a.contains("==") && a.replacen("==", "!=", 1) == b)
        || (b.contains("==") && b.replacen("==", "!=", 1) == a)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCELERATOR: &str = r##"accelerator:
  displayName: demo
engine:
  merge:
  - include: [ "**" ]
    exclude: [ "tests/**" ]
  - include: [ "config/*.yaml" ]
    condition: "#extras"
    chain:
    - type: ReplaceText
      regex:
        pattern: "# Begin\\s|# End\\s"
        with: "''"
    - type: ReplaceText
      substitutions:
      - text: "demo-name"
        with: "#artifactId"
  - include: [ "config/*.yaml" ]
    condition: "!#extras"
    chain:
    - type: ReplaceText
      regex:
        pattern: "(?<=x)y"
        with: "''"
"##;

    #[test]
    fn reads_each_replace_text_with_its_files_and_condition() {
        let t = transforms("tmpl/accelerator.yaml", ACCELERATOR);
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].at, "tmpl/accelerator.yaml:10");
        assert!(t[0].removes && !t[1].removes && t[2].removes);
        assert_eq!(t[0].condition.as_deref(), Some("#extras"));
        assert!(matches!(t[0].pattern, Pattern::Regex(_)));
        // A look-behind is Java's, not the regex crate's.
        assert!(matches!(t[2].pattern, Pattern::Unreadable));
        assert!(t[0].applies_to("tmpl/config/a.yaml"));
        assert!(!t[0].applies_to("tmpl/config/sub/a.yaml"));
        assert!(!t[0].applies_to("config/a.yaml"));
        assert!(!t[0].applies_to("tmpl/README.md"));
    }

    #[test]
    fn conditions_and_their_negations() {
        assert!(complementary("#extras", "!#extras"));
        assert!(complementary("!(#extras)", "#extras"));
        assert!(complementary("#w == 'a'", "#w != 'a'"));
        assert!(!complementary("#extras", "#other"));
        assert!(!complementary("#w == 'a'", "#w == 'b'"));
    }

    #[test]
    fn no_engine_no_transforms_and_hostile_text_is_bounded() {
        assert!(transforms("accelerator.yaml", "accelerator: {}\n").is_empty());
        let long = format!(
            "engine:\n  type: ReplaceText\n  regex: {{pattern: \"{}\", with: \"''\"}}\n",
            "a".repeat(MAX_PATTERN + 1)
        );
        let t = transforms("accelerator.yaml", &long);
        assert!(matches!(t[0].pattern, Pattern::Unreadable));
        let huge =
            "engine:\n  type: ReplaceText\n  regex: {pattern: \"(a{1000}){1000}\", with: x}\n";
        assert!(matches!(
            transforms("accelerator.yaml", huge)[0].pattern,
            Pattern::Unreadable
        ));
    }
}
