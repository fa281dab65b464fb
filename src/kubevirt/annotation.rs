//! Reading a validations annotation into rules, the way the validator's Go `encoding/json`
//! does: keys are matched case-insensitively, the last duplicate wins, unknown keys are
//! ignored, and a value of the wrong JSON type (or a path without `jsonpath::`) makes the whole
//! annotation unusable. Every problem becomes an [`Issue`] at its byte offset.

use crate::report::Severity;

use super::json::{self, Json, Kind, Member};
use super::jsonpath::{self, PathError, RulePath, PREFIX};

/// A problem found in the annotation's text, at a byte offset of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    pub at: usize,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    /// The validator cannot read the annotation at all (HTTP 400 for every VM using it).
    pub fatal: bool,
}

/// A path argument (`path`, `valid`, or a `jsonpath::` argument) and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct PathArg {
    pub path: RulePath,
    pub raw: String,
    pub at: usize,
}

/// `min`, `max`, `minLength`, `maxLength`: a number or a path.
#[derive(Clone, Debug, PartialEq)]
pub enum IntArg {
    Int(i64),
    Path(PathArg),
}

/// An element of `values`: a literal or a path.
#[derive(Clone, Debug, PartialEq)]
pub enum StrArg {
    Str(String),
    Path(PathArg),
}

/// One rule as the validator reads it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rule {
    /// 1-based position in the array.
    pub number: usize,
    /// Offset of the rule's object.
    pub at: usize,
    pub name: String,
    pub kind: String,
    pub path: Option<PathArg>,
    pub message: String,
    pub valid: Option<PathArg>,
    pub just_warning: bool,
    pub values: Option<Vec<StrArg>>,
    pub min: Option<IntArg>,
    pub max: Option<IntArg>,
    pub min_length: Option<IntArg>,
    pub max_length: Option<IntArg>,
    pub regex: Option<String>,
    /// Offsets of the values of the keys given, by canonical key.
    pub keys: Vec<(&'static str, usize)>,
}

impl Rule {
    /// Offset of a key's value, or of the rule.
    pub fn offset(&self, key: &str) -> usize {
        self.keys
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, at)| *at)
            .unwrap_or(self.at)
    }

    pub fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|(k, _)| *k == key)
    }

    /// `rule "name"`, or `rule 2` for a nameless rule.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            format!("rule {}", self.number)
        } else {
            format!("rule {:?}", self.name)
        }
    }
}

/// A read annotation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotation {
    pub rules: Vec<Rule>,
    pub issues: Vec<Issue>,
}

impl Annotation {
    /// The validator rejects the annotation as a whole.
    pub fn unusable(&self) -> bool {
        self.issues.iter().any(|i| i.fatal)
    }
}

/// The keys the validator knows, spelled as it documents them.
pub const KEYS: [&str; 12] = [
    "rule",
    "name",
    "path",
    "message",
    "valid",
    "justWarning",
    "values",
    "min",
    "max",
    "minLength",
    "maxLength",
    "regex",
];

const REJECTS: &str = "the validator cannot read the annotation and rejects every VirtualMachine \
                       that uses it (HTTP 400)";

/// Go's case-insensitive key match (with its two non-ASCII folds).
fn canonical_key(key: &str) -> Option<&'static str> {
    let folded: String = key
        .chars()
        .map(|c| match c {
            '\u{17f}' => 's',
            '\u{212a}' => 'k',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    KEYS.iter()
        .copied()
        .find(|k| k.to_ascii_lowercase() == folded)
}

fn fatal(at: usize, message: String) -> Issue {
    Issue {
        at,
        severity: Severity::Error,
        message,
        help: Some(REJECTS.to_string()),
        fatal: true,
    }
}

fn warning(at: usize, message: String, help: Option<String>) -> Issue {
    Issue {
        at,
        severity: Severity::Warning,
        message,
        help,
        fatal: false,
    }
}

/// Reads an annotation's text. An empty text holds no rules.
pub fn read(text: &str) -> Annotation {
    let mut out = Annotation::default();
    if text.is_empty() {
        return out;
    }
    let root = match json::parse(text) {
        Ok(j) => j,
        Err(e) => {
            out.issues
                .push(fatal(e.offset, format!("not valid JSON: {}", e.message)));
            return out;
        }
    };
    let items = match &root.kind {
        Kind::Array(items) => items,
        Kind::Null => return out,
        _ => {
            let m = format!("must be a JSON array of rules, found {}", root.type_name());
            out.issues.push(fatal(root.start, m));
            return out;
        }
    };
    for (i, item) in items.iter().enumerate() {
        let mut rule = Rule {
            number: i + 1,
            at: item.start,
            ..Rule::default()
        };
        match &item.kind {
            Kind::Object(members) => read_members(members, &mut rule, &mut out.issues),
            Kind::Null => out.issues.push(Issue {
                at: item.start,
                severity: Severity::Error,
                message: format!("rule {} is null", i + 1),
                help: Some(
                    "the validator reads it as a rule without a kind and rejects every VirtualMachine"
                        .to_string(),
                ),
                fatal: false,
            }),
            _ => {
                let m = format!("rule {} must be a JSON object, found {}", i + 1, item.type_name());
                out.issues.push(fatal(item.start, m));
            }
        }
        out.rules.push(rule);
    }
    out
}

fn read_members(members: &[Member], rule: &mut Rule, issues: &mut Vec<Issue>) {
    // the name first, so messages can say which rule
    for m in members {
        if canonical_key(&m.key) == Some("name") {
            if let Kind::String(s) = &m.value.kind {
                rule.name = s.clone();
            }
        }
    }
    let mut seen: Vec<&'static str> = Vec::new();
    for m in members {
        let Some(key) = canonical_key(&m.key) else {
            issues.push(unknown_key(rule, m));
            continue;
        };
        if key != m.key {
            let msg = format!("{}: key {:?} is read as {:?}", rule.label(), m.key, key);
            let help = format!("the validator matches keys case-insensitively; write {key:?}");
            issues.push(warning(m.key_start, msg, Some(help)));
        }
        if seen.contains(&key) {
            let msg = format!(
                "{}: key {:?} is given twice; the last one wins",
                rule.label(),
                key
            );
            issues.push(warning(m.key_start, msg, None));
        }
        seen.push(key);
        rule.keys.push((key, m.value.start));
        read_key(key, &m.value, rule, issues);
    }
}

fn unknown_key(rule: &Rule, m: &Member) -> Issue {
    let help = match KEYS
        .iter()
        .find(|k| crate::kubevirt::check::similar(k, &m.key))
    {
        Some(k) => format!("did you mean {k:?}?"),
        None => "known keys: rule, name, path, message, valid, justWarning, values, min, max, \
                 minLength, maxLength, regex"
            .to_string(),
    };
    let msg = format!(
        "{}: unknown key {:?}, ignored by the validator",
        rule.label(),
        m.key
    );
    warning(m.key_start, msg, Some(help))
}

fn wrong_type(rule: &Rule, key: &str, want: &str, v: &Json) -> Issue {
    let found = match &v.kind {
        Kind::String(s) => format!("string {s:?}"),
        Kind::Number(n) => format!("number {n}"),
        Kind::Bool(b) => format!("{b}"),
        _ => v.type_name().to_string(),
    };
    fatal(
        v.start,
        format!("{}: {key:?} must be {want}, found {found}", rule.label()),
    )
}

fn read_key(key: &'static str, v: &Json, rule: &mut Rule, issues: &mut Vec<Issue>) {
    match key {
        "rule" | "name" | "message" | "regex" => {
            let s = match &v.kind {
                Kind::String(s) => s.clone(),
                Kind::Null => return,
                _ => return issues.push(wrong_type(rule, key, "a string", v)),
            };
            match key {
                "rule" => rule.kind = s,
                "name" => rule.name = s,
                "message" => rule.message = s,
                _ => rule.regex = Some(s),
            }
        }
        "path" => rule.path = read_path(rule, key, v, true, issues),
        "valid" => {
            if v.kind != Kind::Null {
                rule.valid = read_path(rule, key, v, true, issues);
            } else {
                rule.valid = None;
            }
        }
        "justWarning" => match v.kind {
            Kind::Bool(b) => rule.just_warning = b,
            Kind::Null => {}
            _ => issues.push(wrong_type(rule, key, "true or false", v)),
        },
        "values" => rule.values = read_values(rule, v, issues),
        _ => {
            let arg = read_int(rule, key, v, issues);
            match key {
                "min" => rule.min = arg,
                "max" => rule.max = arg,
                "minLength" => rule.min_length = arg,
                _ => rule.max_length = arg,
            }
        }
    }
}

/// A path string; `null` reads as "" for `path` (which the validator then rejects).
fn read_path(
    rule: &Rule,
    key: &str,
    v: &Json,
    null_is_empty: bool,
    issues: &mut Vec<Issue>,
) -> Option<PathArg> {
    let raw = match &v.kind {
        Kind::String(s) => s.clone(),
        Kind::Null if null_is_empty => String::new(),
        _ => {
            issues.push(wrong_type(rule, key, "a \"jsonpath::\" string", v));
            return None;
        }
    };
    match jsonpath::compile(&raw) {
        Ok(path) => Some(PathArg {
            path,
            raw,
            at: v.start,
        }),
        Err(e) => {
            issues.push(path_issue(rule, key, &raw, v.start, e));
            None
        }
    }
}

/// What the spec's own examples should have written: `jsonpath::.spec.x` for `/spec.x`.
pub fn suggested_path(raw: &str) -> String {
    let body = raw.trim_start_matches('/');
    if body.starts_with('.') || body.starts_with('[') {
        format!("{PREFIX}{body}")
    } else {
        format!("{PREFIX}.{body}")
    }
}

fn path_issue(rule: &Rule, key: &str, raw: &str, at: usize, e: PathError) -> Issue {
    if raw.is_empty() {
        return fatal(at, format!("{}: {key:?} is empty", rule.label()));
    }
    match e {
        PathError::NoPrefix => Issue {
            at,
            severity: Severity::Error,
            message: format!(
                "{}: {key:?} {raw:?} lacks the \"jsonpath::\" prefix the validator requires",
                rule.label()
            ),
            help: Some(format!(
                "spec 003's examples write paths without it, but the validator rejects the whole \
                 annotation (\"invalid JSONPath\", HTTP 400 for every VirtualMachine); write {:?}",
                suggested_path(raw)
            )),
            fatal: true,
        },
        PathError::Syntax(m) => fatal(
            at,
            format!(
                "{}: {key:?} {raw:?} is not a valid JSONPath: {m}",
                rule.label()
            ),
        ),
    }
}

fn read_int(rule: &Rule, key: &str, v: &Json, issues: &mut Vec<Issue>) -> Option<IntArg> {
    match &v.kind {
        Kind::Null => None,
        Kind::Number(n) => match n.parse::<f64>() {
            Ok(f) if f.is_finite() => Some(IntArg::Int(f.round() as i64)),
            _ => {
                issues.push(wrong_type(rule, key, "a number that fits in 64 bits", v));
                None
            }
        },
        Kind::String(s) if s.starts_with(PREFIX) => {
            read_path(rule, key, v, false, issues).map(IntArg::Path)
        }
        _ => {
            issues.push(wrong_type(
                rule,
                key,
                "a number or a \"jsonpath::\" string",
                v,
            ));
            None
        }
    }
}

fn read_values(rule: &Rule, v: &Json, issues: &mut Vec<Issue>) -> Option<Vec<StrArg>> {
    let items = match &v.kind {
        Kind::Array(items) => items,
        Kind::Null => return None,
        _ => {
            issues.push(wrong_type(rule, "values", "an array of strings", v));
            return None;
        }
    };
    let mut out = Vec::new();
    for item in items {
        match &item.kind {
            Kind::String(s) if s.starts_with(PREFIX) => {
                if let Some(p) = read_path(rule, "values", item, false, issues) {
                    out.push(StrArg::Path(p));
                }
            }
            Kind::String(s) => out.push(StrArg::Str(s.clone())),
            Kind::Null => out.push(StrArg::Str(String::new())),
            _ => issues.push(wrong_type(rule, "values", "an array of strings", item)),
        }
    }
    Some(out)
}

#[cfg(test)]
#[path = "annotation_tests.rs"]
mod tests;
