//! Findings on lines an App Accelerator rewrites. An accelerator's `ReplaceText` transforms
//! (read by [`super::accelerator`]) change the files their `include:` globs select when a
//! project is generated, and a README copied into that project runs ytt on the result
//! (`kapp deploy ... <(ytt -f ./config)`): the stored file is not what ytt reads (round
//! fourteen's R14A-1, `# StartGitOps` marker lines that ytt refuses as unknown comments).
//!
//! The rule, for a finding at a line of a file some transform selects:
//! - where the line's text is removed in every generated project (a pattern with an empty
//!   replacement covers all of it, in a branch without condition or in both branches of a
//!   condition and its negation), the finding is dropped: no generated file holds the line;
//! - where a pattern matches any of its text otherwise (or cannot be read), the finding
//!   assumes ytt reads the file as stored (a `changed-at-run-time` assumption naming the
//!   transform), so it is a warning, not an error;
//! - anywhere else it stays as it is.
//!
//! A file a `type: YTT` transform selects is rendered by the accelerator itself, its options
//! as data values, and the generated project's commands (`ytt -f settings.yaml --output json`
//! in a script shipped with it) read the output (round twenty's R20-1): a finding there that
//! rests on the data values is a `needs-input` note naming the transform; one on the text
//! alone (a syntax error, which the accelerator's own ytt meets too) stays.

use std::collections::HashMap;
use std::path::Path;

use super::accelerator::{complementary, transforms, Pattern, Transform, FILE_NAME};
use crate::lint::repo::walk::RepoFile;
use crate::report::{
    Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Related, Rule, Source, Span, Subject,
};

/// Matches of one pattern looked at, at most, per file.
const MAX_MATCHES: usize = 10_000;

/// How one transform meets a line.
struct Touch<'t> {
    t: &'t Transform,
    /// The transform removes the line's whole text.
    cleared: bool,
}

/// `found` without the findings on lines every generated project removes, and with those on
/// lines an accelerator rewrites resting on the stored text. `repo` is the repository's
/// directory, `files` what the walk found.
pub fn settle(repo: &Path, files: &[RepoFile], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let all: Vec<Transform> = files
        .iter()
        .filter(|f| f.path == FILE_NAME || f.path.ends_with(&format!("/{FILE_NAME}")))
        .take(super::accelerator::MAX_ACCELERATORS)
        .filter_map(|f| {
            Some(transforms(
                &f.path,
                &super::appended::read_small(repo, &f.path)?,
            ))
        })
        .flatten()
        .collect();
    if all.is_empty() {
        return found;
    }
    let mut texts: HashMap<String, Option<String>> = HashMap::new();
    found
        .into_iter()
        .filter_map(|mut d| {
            let Some(span) = d.span.clone() else {
                return Some(d);
            };
            let (rendering, selecting): (Vec<&Transform>, Vec<&Transform>) = all
                .iter()
                .filter(|t| t.applies_to(&span.file))
                .partition(|t| matches!(t.pattern, Pattern::Rendered));
            // The accelerator renders the file with ytt, its options as data values: a
            // command of the generated project reads that output, not the stored template.
            // What rests on the text alone, its own ytt meets as well.
            if let Some(t) = rendering.first() {
                if d.basis() == Basis::Inputs && d.rule != Rule::NeedsInput {
                    return Some(rendered_by_accelerator(d, &span, t));
                }
            }
            if selecting.is_empty() {
                return Some(d);
            }
            let text = texts
                .entry(span.file.clone())
                .or_insert_with(|| super::appended::read_small(repo, &span.file));
            let Some(text) = text.as_deref() else {
                return Some(d);
            };
            let touches: Vec<Touch> = selecting
                .into_iter()
                .filter_map(|t| touch(t, text, span.line))
                .collect();
            if touches.is_empty() {
                return Some(d);
            }
            if cleared_everywhere(&touches) {
                return None;
            }
            rest_on_stored_text(&mut d, &span, touches[0].t);
            Some(d)
        })
        .collect()
}

/// How `t` meets line `line` of `text`: `None` when no match of it touches the line's text.
fn touch<'t>(t: &'t Transform, text: &str, line: u32) -> Option<Touch<'t>> {
    let l = crate::pos::line_span(text, line)?;
    let own = &text[l.start..l.end];
    let lead = own.len() - own.trim_start().len();
    let (from, to) = (l.start + lead, l.start + own.trim_end().len());
    if from >= to {
        return None;
    }
    let re = match &t.pattern {
        Pattern::Regex(re) => re,
        Pattern::Unreadable | Pattern::Rendered => return Some(Touch { t, cleared: false }),
    };
    let mut touched = false;
    for m in re.find_iter(text).take(MAX_MATCHES) {
        if m.start() >= to {
            break;
        }
        if m.end() <= from {
            continue;
        }
        if t.removes && m.start() <= from && m.end() >= to {
            return Some(Touch { t, cleared: true });
        }
        touched = true;
    }
    touched.then_some(Touch { t, cleared: false })
}

/// Whether the line's text goes in every generated project: a transform without condition
/// removes it, or two whose conditions negate each other do.
fn cleared_everywhere(touches: &[Touch]) -> bool {
    let cleared: Vec<&Transform> = touches.iter().filter(|x| x.cleared).map(|x| x.t).collect();
    cleared.iter().any(|t| t.condition.is_none())
        || cleared.iter().enumerate().any(|(i, a)| {
            cleared[i + 1..]
                .iter()
                .any(|b| match (&a.condition, &b.condition) {
                    (Some(x), Some(y)) => complementary(x, y),
                    _ => false,
                })
        })
}

/// Makes `d` assume ytt reads its file as stored, naming the transform `t`.
fn rest_on_stored_text(d: &mut Diagnostic, span: &Span, t: &Transform) {
    let a = Assumption::new(
        AssumptionKind::ChangedAtRunTime,
        format!(
            "ytt reads {} as stored, though the App Accelerator's ReplaceText at {} (`{}`) \
             rewrites line {} when it generates a project",
            span.file,
            t.at,
            shorten(&t.shown),
            span.line
        ),
    )
    .about(Subject::Rewritten {
        file: span.file.clone(),
        shell: false,
    });
    d.assume(a, || Certainty::from(Source::Layout, None));
    if let Some((file, line)) = t.at.rsplit_once(':') {
        let related = Related {
            message: "the App Accelerator rewrites this file here".to_string(),
            span: Span::point(file, line.parse().unwrap_or(1), 1),
        };
        if !d.related.contains(&related) {
            d.related.push(related);
        }
    }
}

/// `d`, a finding that rests on the data values, in a file the accelerator's `type: YTT`
/// transform `t` renders: a `needs-input` note, since the values are the options a user
/// picks when generating a project, and the project's own commands read the output.
fn rendered_by_accelerator(d: Diagnostic, span: &Span, t: &Transform) -> Diagnostic {
    let first = d.message.lines().next().unwrap_or("").trim();
    let mut note = Diagnostic::new(
        Rule::NeedsInput,
        format!(
            "the App Accelerator's YTT transform at {} renders {} with its options as data \
             values when it generates a project, and the project's commands read the output: \
             with the values here, {first}",
            t.at, span.file
        ),
    )
    .with_help(
        "to check the template with an accelerator's values, add a scenario for this file with \
         those values to .yttlint.yaml",
    );
    note.span = Some(span.clone());
    note.root = d.root;
    note.scenario = d.scenario;
    note.certainty = d.certainty;
    if let Some((file, line)) = t.at.rsplit_once(':') {
        note.related.push(Related {
            message: "the App Accelerator renders this file with ytt here".to_string(),
            span: Span::point(file, line.parse().unwrap_or(1), 1),
        });
    }
    note
}

/// A pattern cut for a message.
fn shorten(p: &str) -> String {
    const MAX: usize = 80;
    if p.chars().count() <= MAX {
        return p.to_string();
    }
    let cut: String = p.chars().take(MAX).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCELERATOR: &str = r##"engine:
  merge:
  - include: [ "config/*.yaml" ]
    condition: "#extras"
    chain:
    - type: ReplaceText
      regex: {pattern: "# Begin\\s|# End\\s", with: "''"}
  - include: [ "config/*.yaml" ]
    condition: "!#extras"
    chain:
    - type: ReplaceText
      regex: {pattern: "# Begin[\\s\\S]+?# End\\s", with: "''"}
  - include: [ "config/*.yaml" ]
    chain:
    - type: ReplaceText
      regex: {pattern: "demo-app", with: "#artifactId"}
"##;

    const FILE: &str = "a: 1\n# Begin\nb: 2\n# End\nname: demo-app\nc: 3\n";

    #[test]
    fn a_line_removed_in_both_branches_is_cleared_a_rewritten_one_is_touched() {
        let t = transforms("accelerator.yaml", ACCELERATOR);
        let at = |line| -> (usize, bool) {
            let touches: Vec<Touch> = t.iter().filter_map(|x| touch(x, FILE, line)).collect();
            (touches.len(), cleared_everywhere(&touches))
        };
        assert_eq!(at(1), (0, false));
        assert_eq!(at(2), (2, true));
        // Only the `!#extras` branch removes the line between the markers.
        assert_eq!(at(3), (1, false));
        assert_eq!(at(4), (2, true));
        assert_eq!(at(5), (1, false));
        assert_eq!(at(6), (0, false));
    }

    #[test]
    fn one_branch_alone_does_not_clear() {
        let one = ACCELERATOR
            .split("  - include: [ \"config/*.yaml\" ]\n    condition: \"!#extras\"")
            .next()
            .unwrap_or("");
        let t = transforms("accelerator.yaml", one);
        let touches: Vec<Touch> = t.iter().filter_map(|x| touch(x, FILE, 2)).collect();
        assert_eq!(touches.len(), 1);
        assert!(!cleared_everywhere(&touches));
    }
}
