//! A read of a data value the root's own values do not hold, one edit away from a key they do
//! hold: `data.values.dns.resource_group` where the defaults hold `dns.resourceGroup`, and ytt
//! says "struct has no .resource_group field or method (did you mean .resourceGroup?)" (round
//! thirty-seven's R37-3). Values given at run time (an App's `valuesFrom`, `-v`, a values file
//! the reader writes) could add the key, so the failure is not certain; but a key one edit from
//! one the repository's own values hold is a misspelling far more often than a value left to
//! run time, so it is no `needs-input` note either: a finding that assumes the run-time values
//! do not add the misspelt key, which the run reports as a warning naming that assumption.
//!
//! Sound only where the struct read is the one the repository's values build: the failing line
//! reads `data.values.P.X` (the trace shows it), the final data values hold the struct `P` with
//! ytt's suggestion `Y` and without `X`, and no value the linter stood in for (a placeholder of
//! a run-time key) is `P.X`, holds it or lies under it.

use crate::library::Workspace;
use crate::lint::job::model::Job;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Source};
use crate::yaml::Value;
use regex::Regex;

/// The misspelt read of `d` (a failure of `job`), as `(P.X, P.Y)`: the path read and the path
/// ytt suggests, which the root's own data values hold.
pub fn find(job: &Job, ws: &Workspace, d: &Diagnostic) -> Option<(String, String)> {
    static HINT: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(
            r"struct has no \.([A-Za-z_][A-Za-z0-9_]*) field or method \(did you mean \.([A-Za-z_][A-Za-z0-9_]*)\?\)",
        )
        .ok()
    });
    let c = HINT.as_ref()?.captures(&d.message)?;
    let (missing, suggested) = (c.get(1)?.as_str(), c.get(2)?.as_str());
    if !one_edit(missing, suggested) {
        return None;
    }
    // A private library's file reads its own data values, not the root's.
    let file = d.span.as_ref()?.file.as_str();
    if file.split('/').any(|s| s == "_ytt_lib") {
        return None;
    }
    let read = reads(&d.message)
        .into_iter()
        .find(|p| p.rsplit('.').next() == Some(missing))?;
    let parent = read.rsplit_once('.').map_or("", |(p, _)| p);
    let values = ws.evaluated_values()?;
    let Value::Map(m) = lookup(&values.value, parent)? else {
        return None;
    };
    let has = |k: &str| {
        m.items
            .iter()
            .any(|i| matches!(&i.key, Value::String(s) if s == k))
    };
    if has(missing) || !has(suggested) {
        return None;
    }
    // A placeholder the linter gave a run-time key is no value of the repository's.
    let stood_in = job
        .provided
        .iter()
        .filter(|k| *k != "*")
        .any(|k| overlaps(k.trim_start_matches('@'), &read));
    if stood_in {
        return None;
    }
    let fix = match parent {
        "" => suggested.to_string(),
        p => format!("{p}.{suggested}"),
    };
    Some((read, fix))
}

/// `d` kept as a finding that assumes the run-time values do not add `read` (ytt suggests
/// `suggested`, which the root's own data values hold).
pub fn judge(job: &Job, d: Diagnostic, read: &str, suggested: &str) -> Diagnostic {
    let mut d = d;
    let a = Assumption::new(
        AssumptionKind::RuntimeValues,
        format!(
            "the values the root is given add no `{read}` (given at run time, a values file of \
             the user's): its own data values hold `{suggested}`, one edit away, so the read is \
             taken for a misspelling of it"
        ),
    );
    let (source, origin) = match &job.provenance {
        Some(p) => (p.source, p.origin.clone()),
        None => (Source::Config, None),
    };
    d.assume(a, || Certainty::from(source, origin));
    d
}

/// Whether `a` and `b` differ by at most one edit once case, `_` and `-` are ignored.
fn one_edit(a: &str, b: &str) -> bool {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (a, b) = (fold(a), fold(b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let head = short.iter().zip(&long).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        // One substitution: the rest after the first difference is equal.
        return short.get(head + 1..) == long.get(head + 1..) || head == short.len();
    }
    // One insertion into the shorter.
    short.get(head..) == long.get(head + 1..)
}

/// The `data.values.a.b` paths the error's trace shows, each as `a.b`.
fn reads(message: &str) -> Vec<String> {
    static PATH: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"data\.values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)").ok()
    });
    let Some(re) = PATH.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(message)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str().trim_start_matches('.').to_string())
        .collect()
}

/// The value at the dotted `path` (`""`: the whole values).
fn lookup<'v>(values: &'v Value, path: &str) -> Option<&'v Value> {
    let mut v = values;
    for part in path.split('.').filter(|p| !p.is_empty()).take(64) {
        let Value::Map(m) = v else {
            return None;
        };
        v = &m
            .items
            .iter()
            .find(|i| matches!(&i.key, Value::String(k) if k == part))?
            .value;
    }
    Some(v)
}

/// Whether two dotted paths name the same value or one holds the other.
fn overlaps(a: &str, b: &str) -> bool {
    let within = |x: &str, y: &str| x == y || x.strip_prefix(y).is_some_and(|r| r.starts_with('.'));
    within(a, b) || within(b, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_ignores_case_and_separators() {
        assert!(one_edit("resource_group", "resourceGroup"));
        assert!(one_edit("hostnme", "hostname"));
        assert!(one_edit("hostnam", "hostname"));
        assert!(one_edit("hostnbme", "hostname"));
        assert!(one_edit("subnet-id", "subnetId"));
        assert!(!one_edit("host", "port"));
        assert!(!one_edit("hst", "hostname"));
        assert!(!one_edit("", "a"));
    }

    #[test]
    fn the_trace_s_reads_and_the_struct_they_name() {
        let m = "struct has no .resource_group field or method (did you mean .resourceGroup?)\n    in <toplevel>\n      external-dns.yml:8 |   group: #@ str(data.values.dns.resource_group)";
        assert_eq!(reads(m), vec!["dns.resource_group".to_string()]);
        let src = "dns:\n  resourceGroup: rg\n";
        let ds = crate::yaml::parse::parse(
            src,
            &std::sync::Arc::from("v.yml"),
            &crate::yaml::parse::ParseOpts::default(),
        )
        .unwrap();
        let v = &ds.items[0].value;
        assert!(matches!(lookup(v, "dns"), Some(Value::Map(_))));
        assert!(matches!(lookup(v, ""), Some(Value::Map(_))));
        assert!(lookup(v, "dns.zone").is_none());
        assert!(overlaps("dns", "dns.resource_group"));
        assert!(!overlaps("dnsx", "dns.resource_group"));
    }
}
