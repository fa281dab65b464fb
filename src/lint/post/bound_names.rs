//! Names a tool wrapping ytt binds for its templates (shalm's `self`, see
//! [`crate::lint::discover::shalm`]). ytt run alone says `undefined: self`, but nobody runs
//! these files with ytt alone: the tool gives the name. Such a finding rests on the tool, not
//! on the file's text: it carries the wrapper's assumption (so the run reports it as a note,
//! [`crate::lint::post::certainty`]), once per file and name, with how many uses it stands
//! for. An undefined name the tool does not bind stays what it was.

use std::collections::BTreeMap;

use crate::files::paths::is_within;
use crate::lint::discover::wrappers::Wrapper;
use crate::report::{Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Rule, Source};

/// `found` with each `undefined: NAME` that a wrapper around its file binds made to rest on
/// that wrapper, one finding per file and name.
pub fn settle(wrappers: &[Wrapper], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if wrappers.iter().all(|w| w.binds.is_empty()) {
        return found;
    }
    // (file, name) -> index in `out` of the finding kept, and the lines it stands for.
    let mut kept: BTreeMap<(String, String), (usize, Vec<u32>)> = BTreeMap::new();
    let mut out: Vec<Diagnostic> = Vec::with_capacity(found.len());
    for mut d in found {
        let Some((w, name, file, line)) = bound(wrappers, &d) else {
            out.push(d);
            continue;
        };
        let key = (file, name.clone());
        if let Some((at, lines)) = kept.get_mut(&key) {
            if !lines.contains(&line) {
                lines.push(line);
            }
            // The note stands at the file's first use.
            if let Some(first) = out.get_mut(*at).filter(|k| place(&d) < place(k)) {
                rest_on(&mut d, w, &name);
                *first = d;
            }
            continue;
        }
        rest_on(&mut d, w, &name);
        kept.insert(key, (out.len(), vec![line]));
        out.push(d);
    }
    for (i, lines) in kept.values() {
        if lines.len() > 1 {
            if let Some(d) = out.get_mut(*i) {
                d.message = format!(
                    "{} (and {} more lines of this file use it)",
                    d.message,
                    lines.len() - 1
                );
            }
        }
    }
    out
}

/// The wrapper that binds the name `d` says is undefined, the name, and where `d` is.
fn bound<'w>(
    wrappers: &'w [Wrapper],
    d: &Diagnostic,
) -> Option<(&'w Wrapper, String, String, u32)> {
    if d.rule != Rule::TemplateError {
        return None;
    }
    let name = undefined_name(&d.message)?;
    let span = d.span.as_ref()?;
    let w = wrappers
        .iter()
        .filter(|w| w.binds.contains(&name))
        .filter(|w| is_within(&span.file, &w.dir))
        .max_by_key(|w| w.dir.len())?;
    Some((w, name.to_string(), span.file.clone(), span.line))
}

/// Where `d` is, to order two uses of one name.
fn place(d: &Diagnostic) -> (u32, u32) {
    d.span.as_ref().map_or((0, 0), |s| (s.line, s.column))
}

/// Makes `d` rest on the wrapper `w`, which gives `name`.
fn rest_on(d: &mut Diagnostic, w: &Wrapper, name: &str) {
    let a = Assumption::new(
        AssumptionKind::WrapperTool,
        format!(
            "{} renders these files ({}) and binds `{name}` for them, which ytt alone does not: what reads it is not evaluated",
            w.tool, w.marker
        ),
    );
    d.basis = Some(Basis::Command);
    d.assume(a, || Certainty::from(Source::Layout, None));
}

/// The name of an `undefined: NAME` message (with or without a hint after it).
fn undefined_name(message: &str) -> Option<&str> {
    let rest = message.split("undefined: ").nth(1)?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Severity, Span};

    fn chart() -> Wrapper {
        Wrapper {
            tool: "shalm",
            dir: "charts/db".into(),
            marker: "charts/db/Chart.star".into(),
            gives: "the chart object",
            binds: &["self"],
        }
    }

    fn undefined(file: &str, line: u32, message: &str) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::TemplateError, message);
        d.severity = Severity::Error;
        d.at(Span {
            file: file.into(),
            line,
            column: 5,
            end_line: line,
            end_column: 9,
        })
    }

    #[test]
    fn a_name_the_wrapper_binds_rests_on_it_once_per_file() {
        let found = vec![
            undefined("charts/db/ytt-templates/job.yml", 9, "undefined: self"),
            undefined("charts/db/ytt-templates/job.yml", 4, "undefined: self"),
            undefined("charts/db/ytt-templates/job.yml", 9, "undefined: self"),
            undefined(
                "charts/db/ytt-templates/job.yml",
                12,
                "undefined: slef (did you mean self?)",
            ),
            undefined("other/job.yml", 3, "undefined: self"),
        ];
        let out = crate::lint::post::certainty::apply(settle(&[chart()], found));
        let got: Vec<(Severity, &str)> = out
            .iter()
            .map(|d| (d.severity, d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    Severity::Info,
                    "undefined: self (and 1 more lines of this file use it)"
                ),
                (Severity::Error, "undefined: slef (did you mean self?)"),
                (Severity::Error, "undefined: self"),
            ]
        );
        assert_eq!(out[0].span.as_ref().map(|s| s.line), Some(4));
        let note = out[0].certainty.as_ref().and_then(|c| c.note());
        assert!(note.is_some_and(
            |n| n.contains("shalm renders these files (charts/db/Chart.star) and binds `self`")
        ));
    }

    #[test]
    fn the_name_is_read_from_the_message() {
        assert_eq!(undefined_name("undefined: self"), Some("self"));
        assert_eq!(
            undefined_name("undefined: nmes (did you mean names?)"),
            Some("nmes")
        );
        assert_eq!(undefined_name("struct has no .self field"), None);
    }
}
