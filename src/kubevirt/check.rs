//! Static checks of a read annotation, whether or not any VirtualMachine uses it: what makes
//! the validator reject every VM (duplicate names, unknown kinds, missing message or path,
//! regular expressions RE2 refuses, paths that can never resolve) as errors, and rules that do
//! not do what they seem to (a `valid` that never skips, `[*]` without a guard, a rule kind
//! that does not fit the field, arguments without effect) as warnings.

use crate::report::Severity;

use super::annotation::{Annotation, IntArg, Issue, PathArg, Rule, StrArg};
use super::schema::Schema;

/// The rule kinds the validator knows.
pub const KINDS: [&str; 4] = ["integer", "string", "enum", "regex"];

/// Loose similarity for "did you mean": same letters ignoring case, or at most two edits.
pub fn similar(a: &str, b: &str) -> bool {
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()] <= 2 && a.len().min(b.len()) > 2
}

fn error(at: usize, message: String, help: Option<String>) -> Issue {
    Issue {
        at,
        severity: Severity::Error,
        message,
        help,
        fatal: false,
    }
}

pub(crate) fn warning(at: usize, message: String, help: Option<String>) -> Issue {
    Issue {
        at,
        severity: Severity::Warning,
        message,
        help,
        fatal: false,
    }
}

/// Adds the static findings about `ann`'s rules to its issues.
pub fn check(ann: &mut Annotation, schema: &Schema) {
    let mut found = Vec::new();
    for (i, rule) in ann.rules.iter().enumerate() {
        if let Some(first) = ann.rules[..i].iter().find(|r| r.name == rule.name) {
            found.push(duplicate(first, rule));
        }
        check_rule(rule, schema, &mut found);
    }
    ann.issues.extend(found);
}

fn duplicate(first: &Rule, rule: &Rule) -> Issue {
    let message = if rule.name.is_empty() {
        format!(
            "rules {} and {} both have no name, and the validator treats the empty name as a \
             duplicate",
            first.number, rule.number
        )
    } else {
        format!(
            "rule name {:?} is already used by rule {}",
            rule.name, first.number
        )
    };
    let help = "names must be unique (spec 003); the validator rejects every VirtualMachine with \
                \"duplicate Rule Name\"";
    error(rule.offset("name"), message, Some(help.to_string()))
}

fn check_rule(rule: &Rule, schema: &Schema, out: &mut Vec<Issue>) {
    check_kind(rule, out);
    if rule.message.is_empty() {
        let m = format!("{} has no \"message\"", rule.label());
        let h = "\"message\" is mandatory: the validator rejects every VirtualMachine with \
                 \"missing required key\"";
        out.push(error(rule.offset("message"), m, Some(h.to_string())));
    }
    if !rule.has("path") {
        let m = format!("{} has no \"path\"", rule.label());
        let h =
            "\"path\" is mandatory: the validator crashes on such a rule and the VirtualMachine \
                 is refused";
        out.push(error(rule.at, m, Some(h.to_string())));
    }
    if !rule.has("name") {
        let m = format!("{} has no \"name\"", rule.label());
        let h = "\"name\" is mandatory in spec 003; the validator accepts one nameless rule";
        out.push(warning(rule.at, m, Some(h.to_string())));
    }
    for p in paths(rule) {
        check_expr(rule, p, out);
    }
    if let Some(re) = &rule.regex {
        if let Err(e) = super::re2::compile(re) {
            let m = format!(
                "{}: \"regex\" {re:?} is not RE2 syntax: {}",
                rule.label(),
                e
            );
            let h = "the validator compiles it with Go's regexp (RE2: no lookaround, no \
                     backreferences) and rejects the VirtualMachines the rule applies to";
            out.push(error(rule.offset("regex"), m, Some(h.to_string())));
        }
    }
    check_args(rule, out);
    super::typecheck::check_types(rule, schema, out);
}

fn check_kind(rule: &Rule, out: &mut Vec<Issue>) {
    if KINDS.contains(&rule.kind.as_str()) {
        return;
    }
    let h = "spec 003 says consumers should ignore rules they do not understand, but the \
             validator rejects every VirtualMachine with \"unrecognized Rule type\"";
    let m = if !rule.has("rule") {
        format!(
            "{} has no \"rule\" kind; expected one of integer, string, enum, regex",
            rule.label()
        )
    } else {
        let close = KINDS.iter().find(|k| k.eq_ignore_ascii_case(&rule.kind));
        let hint = close
            .map(|k| format!(" (kinds are case-sensitive: {k:?})"))
            .unwrap_or_default();
        format!(
            "{}: unknown rule kind {:?}{hint}; expected one of integer, string, enum, regex",
            rule.label(),
            rule.kind
        )
    };
    out.push(error(rule.offset("rule"), m, Some(h.to_string())));
}

/// Every path the rule holds, with its key.
pub(crate) fn paths(rule: &Rule) -> Vec<(&'static str, &PathArg)> {
    let mut out = Vec::new();
    if let Some(p) = &rule.path {
        out.push(("path", p));
    }
    if let Some(p) = &rule.valid {
        out.push(("valid", p));
    }
    for (key, arg) in int_args(rule) {
        if let Some(IntArg::Path(p)) = arg {
            out.push((key, p));
        }
    }
    for v in rule.values.iter().flatten() {
        if let StrArg::Path(p) = v {
            out.push(("values", p));
        }
    }
    out
}

fn int_args(rule: &Rule) -> [(&'static str, &Option<IntArg>); 4] {
    [
        ("min", &rule.min),
        ("max", &rule.max),
        ("minLength", &rule.min_length),
        ("maxLength", &rule.max_length),
    ]
}

fn check_expr(rule: &Rule, (key, p): (&str, &PathArg), out: &mut Vec<Issue>) {
    let first = p.path.expr.chars().next();
    match first {
        Some('.') | Some('[') => {}
        None => {
            let m = format!(
                "{}: {key:?} {:?} selects the whole VM template",
                rule.label(),
                p.raw
            );
            out.push(warning(p.at, m, None));
        }
        Some(_) => {
            let field: String = p
                .path
                .expr
                .chars()
                .take_while(|c| *c != '.' && *c != '[')
                .collect();
            let m = format!(
                "{}: {key:?} {:?} never resolves: the validator appends it to \".spec.template\" \
                 and looks for a field \"template{field}\"",
                rule.label(),
                p.raw
            );
            let h = format!(
                "start the expression with a dot: \"jsonpath::.{}\"",
                p.path.expr
            );
            out.push(error(p.at, m, Some(h)));
        }
    }
}

fn check_args(rule: &Rule, out: &mut Vec<Issue>) {
    let given = |key: &str| rule.has(key);
    let (relevant, needs_one): (&[&str], bool) = match rule.kind.as_str() {
        "integer" => (&["min", "max"], true),
        "string" => (&["minLength", "maxLength"], true),
        "enum" => (&["values"], true),
        "regex" => (&["regex"], true),
        _ => return,
    };
    for key in ["min", "max", "minLength", "maxLength", "values", "regex"] {
        if given(key) && !relevant.contains(&key) {
            let m = format!(
                "{}: {key:?} has no effect on a {:?} rule",
                rule.label(),
                rule.kind
            );
            out.push(warning(rule.offset(key), m, None));
        }
    }
    if needs_one && !relevant.iter().any(|k| given(k)) {
        let effect = match rule.kind.as_str() {
            "enum" => "rejects every value",
            _ => "accepts every value",
        };
        let m = format!(
            "{}: a {:?} rule without {} {effect}",
            rule.label(),
            rule.kind,
            relevant.join(" or ")
        );
        out.push(warning(rule.at, m, None));
    }
    for (lo, hi) in [(&rule.min, &rule.max), (&rule.min_length, &rule.max_length)] {
        if let (Some(IntArg::Int(a)), Some(IntArg::Int(b))) = (lo, hi) {
            if a > b {
                let m = format!("{}: minimum {a} is greater than maximum {b}", rule.label());
                out.push(warning(
                    rule.at,
                    m,
                    Some("no value can satisfy the rule".to_string()),
                ));
            }
        }
    }
    if matches!(rule.values.as_deref(), Some([])) && rule.kind == "enum" {
        let m = format!(
            "{}: \"values\" is empty, so every value is rejected",
            rule.label()
        );
        out.push(warning(rule.offset("values"), m, None));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubevirt::annotation::read;

    fn issues(text: &str) -> Vec<(Severity, String)> {
        let schema = Schema::load().unwrap();
        let mut a = read(text);
        check(&mut a, &schema);
        a.issues
            .into_iter()
            .map(|i| (i.severity, i.message))
            .collect()
    }

    fn errors(text: &str) -> Vec<String> {
        issues(text)
            .into_iter()
            .filter(|(s, _)| *s == Severity::Error)
            .map(|(_, m)| m)
            .collect()
    }

    fn warnings(text: &str) -> Vec<String> {
        issues(text)
            .into_iter()
            .filter(|(s, _)| *s == Severity::Warning)
            .map(|(_, m)| m)
            .collect()
    }

    const OK: &str = r#"[{"name": "c", "path": "jsonpath::.spec.domain.cpu.cores", "rule": "integer", "message": "m", "min": 1}]"#;

    #[test]
    fn a_good_rule_is_clean() {
        assert!(issues(OK).is_empty(), "{:?}", issues(OK));
    }

    #[test]
    fn duplicates_kinds_and_mandatory_keys() {
        let e = errors(
            r#"[{"name": "a", "path": "jsonpath::.spec.hostname", "rule": "string", "message": "m", "minLength": 1},
                          {"name": "a", "path": "jsonpath::.spec.hostname", "rule": "Integer", "min": 1}]"#,
        );
        assert!(
            e.iter().any(|m| m.contains("already used by rule 1")),
            "{e:?}"
        );
        assert!(
            e.iter().any(|m| m.contains("kinds are case-sensitive")),
            "{e:?}"
        );
        assert!(e.iter().any(|m| m.contains("has no \"message\"")), "{e:?}");
        let e = errors(r#"[{"name": "x", "rule": "integer", "message": "m", "min": 1}]"#);
        assert!(e.iter().any(|m| m.contains("has no \"path\"")), "{e:?}");
        let e = errors(
            r#"[{"path": "jsonpath::.spec.hostname", "rule": "string", "message": "m", "minLength": 1},
                          {"path": "jsonpath::.spec.hostname", "rule": "string", "message": "m", "minLength": 1}]"#,
        );
        assert!(e[0].contains("both have no name"), "{e:?}");
    }

    #[test]
    fn regexes_must_be_re2() {
        let e = errors(
            r#"[{"name": "r", "path": "jsonpath::.spec.hostname", "rule": "regex", "message": "m", "regex": "(?=a)b"}]"#,
        );
        assert!(e[0].contains("is not RE2 syntax"), "{e:?}");
    }

    #[test]
    fn paths_must_continue_with_a_dot() {
        let e = errors(
            r#"[{"name": "c", "path": "jsonpath::spec.domain.cpu.cores", "rule": "integer", "message": "m", "min": 1}]"#,
        );
        assert!(e[0].contains("\"templatespec\""), "{e:?}");
    }

    #[test]
    fn argument_warnings() {
        let w = warnings(
            r#"[{"name": "c", "path": "jsonpath::.spec.domain.cpu.cores", "rule": "integer", "message": "m", "min": 8, "max": 1, "values": ["x"]}]"#,
        );
        assert!(
            w.iter().any(|m| m.contains("\"values\" has no effect")),
            "{w:?}"
        );
        assert!(
            w.iter().any(|m| m.contains("greater than maximum")),
            "{w:?}"
        );
        let w = warnings(
            r#"[{"name": "c", "path": "jsonpath::.spec.hostname", "rule": "string", "message": "m"}]"#,
        );
        assert!(w[0].contains("accepts every value"), "{w:?}");
    }
}
