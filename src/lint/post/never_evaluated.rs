//! `branch-never-evaluated` (info): an `if` branch that no scenario takes. The scenarios of
//! the roots that evaluate the file ran the `if`, but its condition was never true (the branch under it
//! never ran), or never false (its `else`/`elif` never ran). Authors learn which scenario to
//! add; errors in that branch are found by no evaluation.
//!
//! ```yaml
//! #@ if data.values.tls.enabled:     # every scenario has tls.enabled: false
//! tls:                               # <- branch-never-evaluated
//!   cert: #@ data.values.tls.cert
//! #@ end
//! ```
//!
//! Coverage is merged per template file over every root that evaluates it: a branch of a file
//! two roots render (one with `extra: true`, one with `extra: false`) is taken, whichever root
//! takes it (round fifty-two's N52-1). The note names the first complete one of those roots.
//!
//! Only sure findings: a root whose every job evaluated to the end must have run the `if` (a
//! branch inside code that never runs is not reported; the outermost branch that never ran is)
//! and not taken the arm, and no other root took it (a root with a failed job proves nothing
//! about what it would have run, only what it did run).
//! Branches of an `if` without `else` that are never false are not reported: a default that
//! turns a block on is not a missing scenario. Nor is an arm that starts by failing
//! (`fail(...)`, `assert.fail(...)`): it guards against bad input, and no scenario should take
//! it. Conditional expressions (`a if c else b`) are not branches here.

use std::collections::BTreeMap;

use crate::report::coverage::{ArmKind, BranchPoint, FileCoverage, RootCoverage};
use crate::report::Rule;
use crate::report::{Diagnostic, Sources, Span};

/// The rule's id.
pub const RULE: Rule = Rule::BranchNeverEvaluated;

/// The findings of the roots' merged coverage, one per file and branch: a template that several
/// roots render is judged on the scenarios of all of them together.
pub fn findings(roots: &[RootCoverage], sources: &Sources) -> Vec<Diagnostic> {
    use rayon::prelude::*;
    let files = by_file(roots);
    // Files on every core (reading them is most of the work); the order stays the files'.
    files
        .par_iter()
        .map(|(_, f)| file_findings(f, sources))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

/// One file's coverage over every root whose scenarios evaluated it.
struct FileOverRoots<'r> {
    /// The evaluations of the roots whose every job evaluated to the end, merged (counts
    /// summed): what they did not run, they do not run. `None`: no such root evaluated it.
    sure: Option<FileCoverage>,
    /// The evaluations of every root merged: an arm a root with a failed job took is taken.
    all: FileCoverage,
    /// The complete roots that evaluated the file, in root order.
    complete: Vec<&'r str>,
    /// How many roots evaluated the file.
    roots: usize,
}

/// The roots' coverage by file (sorted by path).
fn by_file(roots: &[RootCoverage]) -> BTreeMap<&str, FileOverRoots<'_>> {
    let mut files: BTreeMap<&str, FileOverRoots<'_>> = BTreeMap::new();
    for root in roots {
        for f in &root.files {
            let seen = files.entry(&f.file).or_insert_with(|| FileOverRoots {
                sure: None,
                all: FileCoverage {
                    file: f.file.clone(),
                    ..FileCoverage::default()
                },
                complete: Vec::new(),
                roots: 0,
            });
            seen.all.merge(f);
            seen.roots += 1;
            if root.complete {
                seen.complete.push(&root.root);
                match &mut seen.sure {
                    Some(sure) => sure.merge(f),
                    None => seen.sure = Some(f.clone()),
                }
            }
        }
    }
    files
}

/// How often any root took the arm `arm` of the branch point `b` (matched as the merge of
/// coverage matches them: line, order on the line, number of arms).
fn taken_anywhere(all: &FileCoverage, b: &BranchPoint, arm: usize) -> u64 {
    all.branches
        .iter()
        .find(|m| (m.line, m.ord) == (b.line, b.ord) && m.arms.len() == b.arms.len())
        .and_then(|m| m.arms.get(arm))
        .map_or(0, |a| a.hits)
}

/// The findings of one file's coverage, merged over the roots that evaluate it.
fn file_findings(over: &FileOverRoots<'_>, sources: &Sources) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Only the complete roots' evaluations prove that an `if` ran and an arm did not.
    let (Some(f), Some(first)) = (&over.sure, over.complete.first()) else {
        return out;
    };
    let untaken = |b: &BranchPoint| -> Vec<usize> {
        b.arms
            .iter()
            .enumerate()
            .filter(|(i, a)| a.hits == 0 && taken_anywhere(&over.all, b, *i) == 0)
            .map(|(i, _)| i)
            .collect()
    };
    let candidate = |b: &&BranchPoint| b.hits > 0 && !untaken(b).is_empty();
    if !f.branches.iter().any(|b| candidate(&b)) {
        // Nothing to report in this file: its text is not needed.
        return out;
    }
    let text = sources.text(&f.file);
    let lines: Vec<&str> = text
        .as_deref()
        .map(|t| t.lines().collect())
        .unwrap_or_default();
    let line_of = |n: u32| -> &str {
        lines
            .get(n.saturating_sub(1) as usize)
            .copied()
            .unwrap_or_default()
    };
    // The note belongs to the first complete root that evaluated the file; when others did
    // too, the help says that none of them takes the branch either.
    let others = match over.roots {
        0 | 1 => String::new(),
        n => format!("; none of the {n} roots that evaluate this file takes it"),
    };
    for b in f.branches.iter().filter(candidate) {
        let condition = code_of(line_of(b.line));
        for arm in untaken(b).into_iter().filter_map(|i| b.arms.get(i)) {
            if is_guard(&line_of, arm.line) {
                continue;
            }
            let never = match arm.kind {
                ArmKind::Then => "true",
                ArmKind::Else => "false",
                ArmKind::Skip | ArmKind::Body => continue,
            };
            // An `if/end` above a node's annotations: the branch is the node below.
            let at = if arm.line < b.line {
                b.line + 1
            } else {
                arm.line
            };
            let what = if condition.is_empty() {
                format!("the condition at line {}", b.line)
            } else {
                format!("`{condition}` (line {})", b.line)
            };
            let mut d = Diagnostic::new(
                RULE,
                format!("no scenario evaluates this branch: {what} is never {never}"),
            )
            .at(Span::point(&f.file, at, indent(line_of(at))))
            .with_related(
                "the condition",
                Span::point(&f.file, b.line, indent(line_of(b.line))),
            )
            .with_help(format!(
                "add a scenario whose data values make this condition {never} (scenarios in .yttlint.yaml){others}"
            ));
            d.root = Some((*first).to_string());
            out.push(d);
        }
    }
    out
}

/// Whether the arm starting at `line` fails at once (its first statement, or the one after its
/// `else:`, is a call of `fail` or of a module's `fail`, such as `assert.fail`).
fn is_guard<'t>(line_of: &impl Fn(u32) -> &'t str, line: u32) -> bool {
    let mut code = code_of(line_of(line));
    if code == "else" {
        code = code_of(line_of(line + 1));
    }
    let callee = code.split('(').next().unwrap_or_default();
    code.contains('(')
        && (callee == "fail"
            || callee.strip_suffix(".fail").is_some_and(|m| {
                !m.is_empty() && m.chars().all(|c| c.is_alphanumeric() || c == '_')
            }))
}

/// The code of a template line: after `#@`, without the trailing `:` of a block.
fn code_of(line: &str) -> String {
    let t = line.trim();
    let t = t.strip_prefix("#@").map(str::trim).unwrap_or(t);
    // A line of a text template that is one code tag: `(@ if x: @)`, `(@- else: -@)`.
    let t = t
        .strip_prefix("(@")
        .and_then(|c| c.strip_suffix("@)"))
        .map(|c| c.trim_matches('-').trim())
        .unwrap_or(t);
    let t = t.strip_suffix(':').unwrap_or(t).trim_end();
    t.chars().take(80).collect()
}

/// The column of the line's first character that is not a space (1 for an empty line).
fn indent(line: &str) -> u32 {
    let n = line.len() - line.trim_start().len();
    u32::try_from(n).unwrap_or(0) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::coverage::Arm;

    fn root(complete: bool, if_hits: u64, then: u64, other: u64) -> RootCoverage {
        RootCoverage {
            root: "r".into(),
            complete,
            files: vec![FileCoverage {
                file: "r/a.yml".into(),
                lines: Default::default(),
                branches: vec![BranchPoint {
                    line: 2,
                    ord: 0,
                    hits: if_hits,
                    arms: vec![
                        Arm {
                            kind: ArmKind::Then,
                            line: 3,
                            hits: then,
                        },
                        Arm {
                            kind: ArmKind::Else,
                            line: 5,
                            hits: other,
                        },
                    ],
                }],
            }],
        }
    }

    fn sources() -> Sources {
        let s = Sources::new("/nonexistent");
        s.insert(
            "r/a.yml",
            "a: 1\n#@ if data.values.on:\non: true\n#@ else:\n  off: true\n#@ end\n",
        );
        s
    }

    #[test]
    fn a_branch_no_scenario_takes_is_found() {
        let found = findings(&[root(true, 2, 0, 2)], &sources());
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert_eq!(d.rule, RULE);
        assert_eq!(
            d.message,
            "no scenario evaluates this branch: `if data.values.on` (line 2) is never true"
        );
        let span = d.span.as_ref().unwrap();
        assert_eq!((span.line, span.column), (3, 1));
        assert_eq!(d.related[0].span.line, 2);
        let found = findings(&[root(true, 2, 2, 0)], &sources());
        assert!(found[0].message.ends_with("is never false"));
        assert_eq!(found[0].span.as_ref().unwrap().column, 3);
    }

    #[test]
    fn an_arm_that_fails_at_once_is_a_guard() {
        let s = Sources::new("/nonexistent");
        s.insert(
            "r/a.yml",
            "a: 1\n#@ if data.values.on:\n#@   assert.fail(\"no\")\n#@ else:\n#@   fail(\"x\")\n#@ end\n",
        );
        assert!(findings(&[root(true, 2, 0, 2)], &s).is_empty());
        assert!(findings(&[root(true, 2, 2, 0)], &s).is_empty());
        // A branch that does something else first is not a guard.
        let s = Sources::new("/nonexistent");
        s.insert(
            "r/a.yml",
            "a: 1\n#@ if data.values.on:\n#@   x = failed(1)\n#@ else:\n#@   y.z.fail(2)\n#@ end\n",
        );
        assert_eq!(findings(&[root(true, 2, 0, 2)], &s).len(), 1);
        assert_eq!(findings(&[root(true, 2, 2, 0)], &s).len(), 1);
    }

    #[test]
    fn a_branch_another_root_takes_is_taken() {
        // Round fifty-two's N52-1: two roots render the file, one never true, one always.
        let mut other = root(true, 1, 1, 0);
        other.root = "s".into();
        assert!(findings(&[root(true, 2, 0, 2), other.clone()], &sources()).is_empty());
        // Neither takes it: one note, not one per root, naming the first root.
        other.files[0].branches[0].arms[0].hits = 0;
        other.files[0].branches[0].arms[1].hits = 1;
        let found = findings(&[root(true, 2, 0, 2), other.clone()], &sources());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].root.as_deref(), Some("r"));
        assert!(
            found[0]
                .help
                .iter()
                .any(|h| h.ends_with("none of the 2 roots that evaluate this file takes it")),
            "{:?}",
            found[0].help
        );
        // A root with a failed job proves only what it ran: an arm it took is taken, one it
        // did not take may still be reported from the complete root.
        other.complete = false;
        assert_eq!(
            findings(&[root(true, 2, 0, 2), other.clone()], &sources()).len(),
            1
        );
        other.files[0].branches[0].arms[0].hits = 1;
        assert!(findings(&[root(true, 2, 0, 2), other.clone()], &sources()).is_empty());
        // Alone, it proves nothing.
        other.files[0].branches[0].arms[0].hits = 0;
        assert!(findings(&[other], &sources()).is_empty());
    }

    #[test]
    fn nothing_is_found_without_proof() {
        // A job failed: it might have taken the branch.
        assert!(findings(&[root(false, 2, 0, 2)], &sources()).is_empty());
        // The `if` itself never ran.
        assert!(findings(&[root(true, 0, 0, 0)], &sources()).is_empty());
        // Both branches taken.
        assert!(findings(&[root(true, 2, 1, 1)], &sources()).is_empty());
    }
}
