//! A placeholder for a value the templates check against a list (round twenty-five's R25-2).
//! A page's command gives `-v output='<output>'` where the reader types one of the values a
//! check names (`data.values.output in ("file", "http") or assert.fail(…)`): the placeholder's
//! text fails the check, and the evaluation stops at a `needs-input` note before any branch
//! the value chooses. That note hides what every reader who chooses a value meets.
//!
//! So the job is evaluated again with the key set to a listed value: the one the page's
//! section names (a heading "HTTP output" for `http`), else each of the values, a few at most.
//! A failure that needs no other input (a key the data values lack, [`missing_key`], which no
//! value given at run time adds without `@overlay/match missing_ok=True`) and that the named
//! value meets, or that every value meets at the same line, is reported at that line under the
//! assumptions it rests on: the value tried and where it came from. Where a listed value
//! renders, or fails only on another placeholder, the note stays alone.

use regex::Regex;

use crate::files::repo_text::read_repo_text;
use crate::library::Workspace;
use crate::lint::job::certainty::{attach, is_placeholder, walk};
use crate::lint::job::inputs::Names;
use crate::lint::job::probe::{self, settable, STOPPING};
use crate::lint::job::{placeholder, Job};
use crate::report::{Assumption, AssumptionKind, Diagnostic, Provenance, Rule, Severity, Source};
use crate::yaml::Value;

/// At most this many values are tried for one job.
const MOST: usize = 4;

/// A check's list of values for a key: the values, and `file:line` of the check.
struct Choice {
    values: Vec<String>,
    at: String,
}

/// `found` with the failure a listed value meets added where a placeholder for that value
/// stops the evaluation at a check of the list (a `needs-input` note).
pub fn settle(
    job: &Job,
    ws: &Workspace,
    names: &Names,
    mut found: Vec<Diagnostic>,
    provenance: Option<Provenance>,
) -> (Vec<Diagnostic>, Option<Provenance>) {
    let Some(mut p) = provenance else {
        return (found, None);
    };
    let stopped = found
        .iter()
        .any(|d| d.rule == Rule::NeedsInput && d.message.contains("fail: "));
    if !stopped {
        return (found, Some(p));
    }
    let Some(values) = ws.evaluated_values() else {
        return (found, Some(p));
    };
    let mut held: Vec<(String, String)> = Vec::new();
    walk(&values.value, &mut Vec::new(), &mut |path, v, _| {
        if let Value::String(s) = v {
            if is_placeholder(s) && settable(path) {
                held.push((path.to_string(), s.clone()));
            }
        }
    });
    let Some((key, text, choice)) = held
        .into_iter()
        .find_map(|(k, t)| Some((k.clone(), t, choice_of(ws, names, &k)?)))
    else {
        return (found, Some(p));
    };
    let section = section_named(job, &p, &choice.values);
    let tried: Vec<String> = match &section {
        Some((value, _)) => vec![value.clone()],
        None if choice.values.len() <= MOST => choice.values.clone(),
        None => return (found, Some(p)),
    };
    let mut failures: Vec<Diagnostic> = Vec::new();
    for value in &tried {
        match attempt(job, &values.value, &key, value) {
            Some(q) => failures.push(q),
            None => return (found, Some(p)),
        }
    }
    let Some(mut q) = failures.first().cloned() else {
        return (found, Some(p));
    };
    if !failures.iter().all(|f| probe::same(&q, f)) {
        return (found, Some(p));
    }
    let listed = choice
        .values
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let instead = if text == placeholder::TEXT {
        "given at run time".to_string()
    } else {
        format!("in place of the placeholder `{text}`")
    };
    let why = match &section {
        Some((value, heading)) => format!(
            "`{key}` is `{value}` {instead}: the value {heading} names, of those {} allows \
             ({listed})",
            choice.at
        ),
        None => format!(
            "`{key}` is one of the values {} allows ({listed}) {instead}: each fails here",
            choice.at
        ),
    };
    let mut assumed = vec![Assumption::new(AssumptionKind::Placeholder, why)];
    if job.provided.iter().any(|k| k == "*") {
        assumed.push(Assumption::new(
            AssumptionKind::RuntimeValues,
            "the data values given at run time add no key the defaults lack (a `#@data/values` \
             document adds one only with `@overlay/match missing_ok=True`)",
        ));
    }
    q.certainty = None;
    q.severity = Severity::Error;
    attach(job, &p, &mut q);
    for a in assumed {
        if let Some(c) = q.certainty.as_mut() {
            c.add(a.clone());
        }
        p.assume(a);
    }
    found.push(q);
    (found, Some(p))
}

/// The failure on a key the data values lack that the evaluation with `key` set to `value`
/// stops at (`None`: it renders, stops on something another input may explain, or could not
/// run).
fn attempt(job: &Job, values: &Value, key: &str, value: &str) -> Option<Diagnostic> {
    let probed = probe::evaluate_raw(job, &[key.to_string()], value)?;
    let q = probed
        .into_iter()
        .find(|q| STOPPING.contains(&q.rule) && q.severity == Severity::Error)?;
    // The message names the field; the failing line reads the path to it.
    let line = q.span.as_ref().and_then(|span| {
        let text = read_repo_text(&job.repo, &span.file)?;
        let n = usize::try_from(span.line).ok()?.checked_sub(1)?;
        text.lines().nth(n).map(str::to_string)
    });
    let trace = format!("{}\n{}", q.message, line.unwrap_or_default());
    missing_key(&trace, values).map(|_| q)
}

/// The check of `key` against a list of strings in the job's files
/// (`….KEY in ("a", "b")`), by the key's last name (a module may read it through an alias).
fn choice_of(ws: &Workspace, names: &Names, key: &str) -> Option<Choice> {
    let last = key.rsplit('.').next()?;
    let re = Regex::new(&format!(
        r"\.{}\s+in\s*[\(\[]([^\)\]\n]*)[\)\]]",
        regex::escape(last)
    ))
    .ok()?;
    let item = Regex::new(r#"^\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*$"#).ok()?;
    for f in &ws.files {
        let text = f.data.as_ref();
        for c in re.captures_iter(text) {
            let (Some(whole), Some(list)) = (c.get(0), c.get(1)) else {
                continue;
            };
            let parts: Vec<&str> = list
                .as_str()
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .collect();
            let values: Option<Vec<String>> = parts
                .iter()
                .map(|s| {
                    let m = item.captures(s)?;
                    Some(m.get(1).or(m.get(2))?.as_str().to_string())
                })
                .collect();
            let Some(values) = values.filter(|v| v.len() >= 2) else {
                continue;
            };
            let line = text[..whole.start()].matches('\n').count() + 1;
            let file = names.repo_path(&f.rel_path).unwrap_or(&f.rel_path);
            return Some(Choice {
                values,
                at: format!("{file}:{line}"),
            });
        }
    }
    None
}

/// The one listed value the heading of the page's section above the command names, with
/// how to say so (`README.md's section "HTTP output" (README.md:20)`).
fn section_named(job: &Job, p: &Provenance, values: &[String]) -> Option<(String, String)> {
    if p.source != Source::Document {
        return None;
    }
    let origin = job.origin.as_ref()?;
    let text = read_repo_text(&job.repo, &origin.file)?;
    let before = usize::try_from(origin.line).ok()?.checked_sub(1)?;
    // Headings outside the page's fenced blocks (a `# comment` of a shell block is none).
    let mut fenced = false;
    let (n, heading) = text
        .lines()
        .take(before)
        .enumerate()
        .filter_map(|(i, l)| {
            let t = l.trim_start();
            if t.starts_with("```") || t.starts_with("~~~") {
                fenced = !fenced;
                return None;
            }
            Some((i + 1, heading_of(l).filter(|_| !fenced)?))
        })
        .last()?;
    let mut named = values.iter().filter(|v| names_value(heading, v));
    let value = named.next()?;
    if named.next().is_some() {
        return None;
    }
    Some((
        value.clone(),
        format!(
            "{}'s section \"{heading}\" ({}:{n})",
            origin.file, origin.file
        ),
    ))
}

/// The text of a Markdown heading line (`## HTTP output`).
fn heading_of(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('#');
    let level = line.len() - rest.len();
    if !(1..=6).contains(&level) || !rest.starts_with(' ') {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim()).filter(|h| !h.is_empty())
}

/// Whether a heading names `value`: one to three of its words in a row spell it, case aside
/// ("Elastic Search" names `elasticsearch`).
fn names_value(heading: &str, value: &str) -> bool {
    let want: String = value
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    if want.is_empty() {
        return false;
    }
    let words: Vec<String> = heading
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    (0..words.len())
        .any(|i| (i + 1..=(i + 3).min(words.len())).any(|j| words[i..j].concat() == want))
}

/// The data values key a failure's trace (its message and the line it is at) says is missing
/// (`struct has no .tls_verify field`), when the trace reads it below a map of the data values
/// that lacks it (`values.shipper.http.tls_verify`, `shipper.http` a map of the final data
/// values).
fn missing_key(trace: &str, values: &Value) -> Option<String> {
    let name = Regex::new(r"struct has no \.([A-Za-z_][A-Za-z0-9_]*) field")
        .ok()?
        .captures(trace)?
        .get(1)?
        .as_str()
        .to_string();
    let chain = Regex::new(&format!(
        r"((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*)\.{}\b",
        regex::escape(&name)
    ))
    .ok()?;
    for c in chain.captures_iter(trace) {
        let Some(m) = c.get(1) else { continue };
        let segs: Vec<&str> = m.as_str().split('.').collect();
        for i in 0..segs.len() {
            let path = &segs[i..];
            if let Some(Value::Map(map)) = at(values, path) {
                let has = map
                    .items
                    .iter()
                    .any(|it| matches!(&it.key, Value::String(k) if *k == name));
                if !has {
                    return Some(format!("{}.{name}", path.join(".")));
                }
            }
        }
    }
    None
}

/// The value at a path of maps.
fn at<'v>(value: &'v Value, path: &[&str]) -> Option<&'v Value> {
    let mut v = value;
    for part in path {
        let Value::Map(m) = v else {
            return None;
        };
        v = &m
            .items
            .iter()
            .find(|it| matches!(&it.key, Value::String(k) if k == part))?
            .value;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_names_a_value_in_one_to_three_words() {
        assert!(names_value("HTTP output", "http"));
        assert!(names_value(
            "Deploy fluent bit with Elastic Search Output Plugin",
            "elasticsearch"
        ));
        assert!(!names_value("HTTPS output", "http"));
        assert!(!names_value("File output", "http"));
        assert_eq!(heading_of("## HTTP output"), Some("HTTP output"));
        assert_eq!(heading_of("#@data/values"), None);
        assert_eq!(heading_of("####### deep"), None);
    }

    #[test]
    fn a_missing_key_lies_below_a_map_of_the_data_values() {
        use crate::yaml::parse::{parse, ParseOpts};
        let src = "shipper:\n  http:\n    host: null\n";
        let ds = parse(src, &std::sync::Arc::from("v.yml"), &ParseOpts::default()).unwrap();
        let values = ds.items[0].value.clone();
        let trace = "struct has no .tls_verify field or method\n    in <toplevel>\n\
                     x: #@ f(values.shipper.http.tls_verify)";
        assert_eq!(
            missing_key(trace, &values).as_deref(),
            Some("shipper.http.tls_verify")
        );
        let other = "struct has no .host field or method\n  x: #@ o.http.host";
        assert_eq!(missing_key(other, &values), None);
        let alone = "struct has no .port field\n  x: #@ cfg.port";
        assert_eq!(missing_key(alone, &values), None);
    }
}
