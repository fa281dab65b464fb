//! Failures caused by inputs the linter does not have. A root nobody declared (found by
//! discovery) is linted with its defaults only, so a required value, an `assert.fail` or
//! `fail()` guarding an unset value, a missing data value of a library without a schema, or a
//! `None` default it stumbles on says that the root needs input, not that it is broken. A
//! scenario whose values are given at run time is linted with placeholders, so a failure
//! after them may come from the placeholders. Either way the failures become one
//! `needs-input` finding (info) that names the keys and says how to add a scenario.

use crate::report::Rule;
use regex::Regex;

use crate::library::Workspace;
use crate::lint::job::env_unset;
use crate::lint::job::model::Job;
use crate::report::Diagnostic;

/// Rules of findings that stop an evaluation.
const STOPPING: [Rule; 4] = [
    Rule::TemplateError,
    Rule::OverlayError,
    Rule::LoadError,
    Rule::DataValueViolation,
];

/// Turns the findings of `job` caused by missing inputs into one `needs-input` finding.
pub fn settle(job: &Job, ws: &Workspace, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let placeholders = !job.provided.is_empty();
    if !job.needs_input && !placeholders {
        return found;
    }
    let any_value = job.provided.iter().any(|p| p == "*");
    let mut schema: Option<bool> = None;
    let mut has_schema = || {
        *schema.get_or_insert_with(|| {
            ws.data_values_schema()
                .map(|s| s.doc.is_some())
                .unwrap_or(true)
        })
    };
    let mut keys: Vec<String> = Vec::new();
    let mut first: Option<Diagnostic> = None;
    let mut comment: Option<Diagnostic> = None;
    let mut kept = Vec::new();
    // A command the repository runs or documents gives its flags: whether it passes
    // --ignore-unknown-comments is known.
    let flags_known = job
        .provenance
        .as_ref()
        .is_some_and(|p| p.source != crate::report::Source::Layout);
    let named_only = placeholders
        && !any_value
        && (!job.needs_input || env_unset::judged_as_listed(job) || page(job));
    for d in found {
        if job.needs_input && d.rule == Rule::UnknownComment && !flags_known {
            comment.get_or_insert(d);
            continue;
        }
        // A failure no value of the named run-time keys avoids is ytt's certain error
        // (issue 39: a validation of another key, an `assert.fail` reading only known values).
        if independent_of_unknowns(job, ws, named_only, &d) {
            kept.push(d);
            continue;
        }
        let mut unlisted: Option<Vec<String>> = None;
        // The command names the keys it gives at run time, and the failure reads none of
        // them: no placeholder causes it (`--data-values-env CFG` whose environment files set
        // `CFG_registry__user`, and a template reading `vendor`: LR16A-2; a schema's required
        // key that `sops -d FILE` does not give, since the encrypted file lacks it: R24-1).
        // A page's command too, when its environment files list the variables: the reader
        // sets those (`env_unset.rs`); or when its only run-time inputs are the keys it names
        // (`-v team=$TEAM`): no value of them adds another key (R29-1, `other_key.rs`).
        // A failure whose message follows the placeholder to another value rests on the run's
        // value however the template carried it (a variable, an argument: R35-2,
        // `follows_placeholder.rs`).
        let mut follows: Option<bool> = None;
        let mut moves = |d: &Diagnostic| {
            *follows
                .get_or_insert_with(|| placeholders && super::follows_placeholder::follows(job, d))
        };
        let unread = |k: &[String]| {
            placeholders
                && !any_value
                && (!job.needs_input || env_unset::judged_as_listed(job) || page(job))
                && !k.is_empty()
                && !k
                    .iter()
                    .any(|k| job.provided.iter().any(|p| overlaps(p, k)))
        };
        let cause = if d.rule == Rule::RequiredValue {
            let k = required_key(&d.message);
            // A rule whose `when=` or code reads other values may rest on a run-time one.
            let own = super::independent::named(&job.provided)
                .is_none_or(|given| super::independent::validation(ws, &given, &d) != Some(false));
            if unread(&k) && own {
                unlisted = Some(k);
                None
            } else {
                Some(k)
            }
        } else if STOPPING.contains(&d.rule) {
            let unset = unset_cause(&d.message, &mut has_schema);
            match unset {
                // Every value it reads is set by the command: the failure is not for want of
                // input.
                Some(k) if !placeholders && !k.is_empty() && k.iter().all(|k| is_set(ws, k)) => {
                    None
                }
                Some(k) if unread(&k) && !moves(&d) => {
                    unlisted = Some(k);
                    None
                }
                Some(k) => Some(k),
                // Only what rests on data values may come from the placeholders: not a load
                // that fails (it rests on the files the command gives), not a syntax error.
                None if placeholders && d.basis() == crate::report::Basis::Inputs => {
                    Some(Vec::new())
                }
                None if any_value && d.rule == Rule::DataValueViolation => Some(Vec::new()),
                None if moves(&d) => Some(Vec::new()),
                // A file the known inputs lack may be one of the inputs given at run time
                // (`-f ${WORKSPACE}/platform/config` beside this repository's `config`).
                None if any_value && d.rule == Rule::LoadError && not_given(&d.message) => {
                    Some(Vec::new())
                }
                None => None,
            }
        } else {
            None
        };
        // A read one edit from a key the root's own values hold is taken for a misspelling,
        // not a value left to run time: a finding that says so (R37-3, `misspelt_key.rs`).
        let misspelt = match &cause {
            Some(_) if STOPPING.contains(&d.rule) => super::misspelt_key::find(job, ws, &d),
            _ => None,
        };
        if let Some((read, suggested)) = misspelt {
            kept.push(super::misspelt_key::judge(job, d, &read, &suggested));
            continue;
        }
        match cause {
            Some(k) => {
                for key in k {
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
                first.get_or_insert(d);
            }
            None => kept.push(match &unlisted {
                Some(_) if job.needs_input && !env_unset::judged_as_listed(job) => {
                    super::other_key::judge(job, d)
                }
                Some(k) => env_unset::explain(job, k, d),
                None => d,
            }),
        }
    }
    if let Some(d) = first {
        kept.push(finding(job, ws, &keys, &d));
    }
    if let Some(d) = comment {
        kept.push(comment_finding(d));
    }
    kept
}

/// Whether `d` fails whatever the values the linter does not know: the named run-time keys
/// of a command that gives only those (`named_only`), or what a root whose values the reader
/// fills in leaves blank.
fn independent_of_unknowns(job: &Job, ws: &Workspace, named_only: bool, d: &Diagnostic) -> bool {
    use super::independent::{fails_anyway, left_blank, named};
    if named_only {
        return named(&job.provided).is_some_and(|given| fails_anyway(ws, &given, d));
    }
    job.needs_input && job.provided.is_empty() && fails_anyway(ws, &left_blank(ws), d)
}

/// Whether the job's command is a page's (its reader types it).
fn page(job: &Job) -> bool {
    job.provenance
        .as_ref()
        .is_some_and(|p| p.source == crate::report::Source::Document)
}

/// Whether two data value paths (`a.b`, `a`) name the same value or one holds the other.
fn overlaps(a: &str, b: &str) -> bool {
    let within = |x: &str, y: &str| x == y || x.strip_prefix(y).is_some_and(|r| r.starts_with('.'));
    within(a, b) || within(b, a)
}

/// Whether a load failed for want of a file the command does not give (ytt's words).
fn not_given(message: &str) -> bool {
    message.contains("only files included via -f flag are available")
}

/// Whether the final data values give `key` (`a.b`) a value: not null, not an empty string.
fn is_set(ws: &Workspace, key: &str) -> bool {
    super::independent::at_final(ws, key, |v| match v {
        crate::yaml::Value::Null => false,
        crate::yaml::Value::String(s) => !s.is_empty(),
        _ => true,
    })
}

/// Plain comments in a root nobody says how to run: ytt rejects them unless it runs with
/// `--ignore-unknown-comments`, which the repository may well pass.
fn comment_finding(cause: Diagnostic) -> Diagnostic {
    let mut d = Diagnostic::new(
        Rule::NeedsInput,
        "this root's templates have plain `#` comments, which ytt accepts only with \
         --ignore-unknown-comments, and nothing in the repository says how the root is run",
    )
    .with_help(
        "if the root is run with --ignore-unknown-comments, add it to the root's args in \
         .yttlint.yaml; otherwise write the comments as `#!`",
    );
    d.span = cause.span;
    d
}

/// The key of a `required-value` message (`Validating final data values: hostname (from:
/// ...`).
fn required_key(message: &str) -> Vec<String> {
    match super::validation_words::path_of(message) {
        Some(key) if key != "(document)" => vec![key.to_string()],
        _ => Vec::new(),
    }
}

/// Whether an evaluation error's message says it stops for want of a value (a missing
/// field, `None`, a failed assertion), whatever the schema.
pub fn unset_caused(message: &str) -> bool {
    unset_cause(message, &mut || false).is_some()
}

/// The data values an evaluation error points to when it is caused by an unset value, or
/// `None` when it is not.
fn unset_cause(message: &str, has_schema: &mut dyn FnMut() -> bool) -> Option<Vec<String>> {
    static MISSING: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"struct has no \.([A-Za-z_][A-Za-z0-9_]*) field").ok()
    });
    let failed = message.contains("assert.fail") || message.contains("fail: ");
    // A `(@= … @)` of a text template that gives None says it in Go's words.
    let none = message.contains("NoneType") || message.contains("non-string value (<nil>)");
    let missing = MISSING
        .as_ref()
        .and_then(|re| re.captures(message))
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string());
    if !failed && !none && missing.is_none() {
        return None;
    }
    if missing.is_some() && !failed && !none && has_schema() {
        // With a schema every value is declared: a missing one is a mistake, not an input.
        return None;
    }
    let mut keys = referenced(message);
    if let Some(m) = missing {
        // Named by a path the trace shows (`db.user.name` for a missing `user`), or alone.
        if !keys.iter().any(|k| k.split('.').any(|part| part == m)) {
            keys.push(m);
        }
    }
    Some(keys)
}

/// The `data.values.a.b` paths an error's trace shows.
fn referenced(message: &str) -> Vec<String> {
    static PATH: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"data\.values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)").ok()
    });
    let Some(re) = PATH.as_ref() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for c in re.captures_iter(message) {
        let Some(m) = c.get(1) else { continue };
        let mut key = m.as_str().trim_start_matches('.');
        // `data.values.region.lower()` reads `region`: a call's last name is a method of
        // the value, not a key of it.
        if message[m.end()..].starts_with('(') {
            match key.rsplit_once('.') {
                Some((value, _method)) => key = value,
                None => continue,
            }
        }
        let key = key.to_string();
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

/// The line of an error that says what went wrong: the failure itself rather than the
/// "Evaluating starlark template:" frames around it.
fn summary(message: &str) -> &str {
    let lines: Vec<&str> = message
        .lines()
        .map(|l| l.trim().trim_start_matches("- "))
        .filter(|l| !l.is_empty() && *l != "-")
        .collect();
    let telling = [
        "fail: ",
        "struct has no",
        "NoneType",
        "(<nil>)",
        "Expected to find",
    ];
    // A failure inside a loaded module says it after the innermost `reason:`.
    let reason = lines
        .iter()
        .rposition(|l| *l == "reason:")
        .and_then(|i| lines.get(i + 1));
    lines
        .iter()
        .find(|l| telling.iter().any(|t| l.contains(t)))
        .or(reason)
        .or_else(|| lines.iter().find(|l| !l.ends_with(':')))
        .or_else(|| lines.first())
        .copied()
        .unwrap_or("")
}

fn finding(job: &Job, ws: &Workspace, keys: &[String], cause: &Diagnostic) -> Diagnostic {
    let first_line = summary(&cause.message);
    let named = |ks: &[String]| {
        ks.iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let given: Vec<String> = job.provided.iter().filter(|p| *p != "*").cloned().collect();
    let message = if !job.provided.is_empty() {
        let what = if given.is_empty() {
            "inputs given at run time".to_string()
        } else {
            format!("placeholders for {}", named(&given))
        };
        format!("the evaluation fails with {what}, which the linter cannot know: {first_line}")
    } else if keys.is_empty() {
        format!("this root needs data values that nothing sets here: {first_line}")
    } else {
        // A key a values file sets, to null or "", is no key that nothing sets.
        let (unset, empty) = super::left_unset::split(ws, keys);
        match (unset.is_empty(), empty.is_empty()) {
            (false, true) => format!(
                "this root needs data values that nothing sets here ({}): {first_line}",
                named(&unset)
            ),
            // Null or "" from a values file or a schema default alike.
            (true, _) => format!(
                "this root needs data values left null or empty here ({}): {first_line}",
                named(&empty)
            ),
            (false, false) => format!(
                "this root needs data values that nothing sets here ({}) or left null or \
                 empty here ({}): {first_line}",
                named(&unset),
                named(&empty)
            ),
        }
    };
    let mut d = Diagnostic::new(Rule::NeedsInput, message).with_help(
        "add a scenario with these values for this root to .yttlint.yaml \
         (`yttlint init` writes one to start from)",
    );
    d.span = cause.span.clone();
    d.related = cause.related.clone();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_call_is_no_key() {
        let message = "NoneType has no .lower field or method\n    in <toplevel>\n      \
                       t.yml:3 | a: #@ data.values.region.lower()";
        assert_eq!(referenced(message), vec!["region".to_string()]);
        let nested = "t.yml:4 | b: #@ data.values.tags.env.upper().strip()";
        assert_eq!(referenced(nested), vec!["tags.env".to_string()]);
        assert_eq!(
            referenced("t.yml:1 | #@ data.values.get(\"x\")"),
            Vec::<String>::new()
        );
        assert_eq!(
            referenced("t.yml:1 | a: #@ data.values.a.b"),
            vec!["a.b".to_string()]
        );
    }

    #[test]
    fn paths_overlap_when_one_holds_the_other() {
        assert!(overlaps("registry", "registry.user"));
        assert!(overlaps("registry.user", "registry"));
        assert!(overlaps("a.b", "a.b"));
        assert!(!overlaps("registry", "registry_user"));
        assert!(!overlaps("vendor.secret", "registry.user"));
    }

    #[test]
    fn causes_and_keys() {
        let mut yes = || true;
        let mut no = || false;
        let fail = "assert.fail: fail: vsphereCPI server should be provided\n    in validate\n      values.star:5 |    data.values.vsphereCPI.server";
        assert_eq!(
            unset_cause(fail, &mut yes),
            Some(vec!["vsphereCPI.server".to_string()])
        );
        let missing = "struct has no .k8s_version field or method\n  kind.yml:16 | image: #@ m()[data.values.k8s_version]";
        assert_eq!(
            unset_cause(missing, &mut no),
            Some(vec!["k8s_version".to_string()])
        );
        assert_eq!(unset_cause(missing, &mut yes), None);
        assert_eq!(unset_cause("undefined: foo", &mut no), None);
        // A text template's `(@= … @)` of a null value (R18-2).
        let text = "- __ytt_tpl3_set_node: cannot set non-string value (<nil>), consider using str(...) to convert to string\n    in <toplevel>\n      forwarder.yaml:10 | = data.values.collector_host ";
        assert_eq!(
            unset_cause(text, &mut yes),
            Some(vec!["collector_host".to_string()])
        );
        let int = "- __ytt_tpl3_set_node: cannot set non-string value (int64), consider using str(...) to convert to string";
        assert_eq!(unset_cause(int, &mut no), None);
        assert_eq!(
            required_key("Validating final data values: domain_name (from: schema.yml:3): must be: length >= 4 (by: schema.yml:2); found: length = 0"),
            vec!["domain_name"]
        );
    }

    #[test]
    fn a_failed_load_is_summed_up_by_the_failure_inside() {
        let load = "cannot load cfg.star: Evaluating starlark template: \n    in <toplevel>\n\n    reason:\n     - string has no .setdefault field or method\n         in <toplevel>\n           4 | cfg.setdefault(\"name\", \"x\")";
        assert_eq!(summary(load), "string has no .setdefault field or method");
        assert_eq!(
            summary("- unknown binary op: string + int"),
            "unknown binary op: string + int"
        );
    }
}
