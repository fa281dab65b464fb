//! Coverage of templates by scenarios: which template lines and which `if`/`for` branches the
//! evaluations of a root executed, merged over the root's jobs (its scenarios). One job
//! records a [`Coverage`]; the linter merges the jobs of a root into a [`RootCoverage`]; the
//! `lcov` and `cobertura` formats and the terminal summary read those.
//!
//! Lines are template lines (repository-relative files, 1-based lines): a line counts when some
//! Starlark statement compiled from it can run (code lines, and the YAML nodes a template
//! builds). Only files that an evaluation ran are listed: a `.star` file nothing loads, or a
//! private library nothing evaluates, is not in the coverage at all.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What one job's evaluation executed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// The evaluation finished without an error: what it did not execute, it does not execute
    /// with these inputs.
    pub complete: bool,
    /// By file, sorted.
    pub files: Vec<FileCoverage>,
}

/// The executable lines and branches of one file, with how often each ran.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileCoverage {
    /// Repository-relative path.
    pub file: String,
    /// Every executable line with its execution count, by line.
    pub lines: BTreeMap<u32, u64>,
    /// `if` and `for` statements, by line and order on the line.
    pub branches: Vec<BranchPoint>,
}

/// An `if` or a `for` and the ways execution can go from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BranchPoint {
    /// The line of the `if` or `for`.
    pub line: u32,
    /// Its order among the branch points of the same line (0 first).
    pub ord: u32,
    /// How often the `if` or `for` itself ran.
    pub hits: u64,
    pub arms: Vec<Arm>,
}

/// One way out of a branch point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arm {
    pub kind: ArmKind,
    /// The first line of the arm's code (the `if` line for an `if` without `else`, whose
    /// false arm has no code).
    pub line: u32,
    /// How often execution took the arm.
    pub hits: u64,
}

/// Which way an arm goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArmKind {
    /// The body of an `if` (its condition was true).
    Then,
    /// The `else` or `elif` of an `if` (its condition was false).
    Else,
    /// Past an `if` without `else` (its condition was false).
    Skip,
    /// The body of a `for` (at least one iteration).
    Body,
}

/// The coverage of a root: every job (scenario) of the root merged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootCoverage {
    pub root: String,
    /// Every job of the root evaluated without an error.
    pub complete: bool,
    /// By file, sorted.
    pub files: Vec<FileCoverage>,
}

impl FileCoverage {
    /// Executable lines, and those that ran.
    pub fn line_counts(&self) -> (usize, usize) {
        let hit = self.lines.values().filter(|h| **h > 0).count();
        (self.lines.len(), hit)
    }

    /// Arms of the branch points, and those taken (arms of branch points that never ran
    /// count as not taken).
    pub fn branch_counts(&self) -> (usize, usize) {
        let arms = self.branches.iter().flat_map(|b| &b.arms);
        let total = arms.clone().count();
        (total, arms.filter(|a| a.hits > 0).count())
    }

    /// Adds another evaluation of the same file: counts are summed.
    pub fn merge(&mut self, other: &FileCoverage) {
        for (line, hits) in &other.lines {
            *self.lines.entry(*line).or_default() += hits;
        }
        for b in &other.branches {
            let mine = self
                .branches
                .iter_mut()
                .find(|m| (m.line, m.ord) == (b.line, b.ord) && m.arms.len() == b.arms.len());
            match mine {
                Some(m) => {
                    m.hits += b.hits;
                    for (a, o) in m.arms.iter_mut().zip(&b.arms) {
                        a.hits += o.hits;
                    }
                }
                None => self.branches.push(b.clone()),
            }
        }
        self.branches.sort_by_key(|b| (b.line, b.ord));
    }
}

impl Coverage {
    /// Adds a file's coverage, merged with what is already recorded for the file.
    pub fn add(&mut self, file: FileCoverage) {
        match self.files.binary_search_by(|f| f.file.cmp(&file.file)) {
            Ok(i) => {
                if let Some(f) = self.files.get_mut(i) {
                    f.merge(&file);
                }
            }
            Err(i) => self.files.insert(i, file),
        }
    }
}

impl RootCoverage {
    /// A root's coverage before any job is merged in: complete until a job says otherwise.
    pub fn new(root: &str) -> RootCoverage {
        RootCoverage {
            root: root.to_string(),
            complete: true,
            files: Vec::new(),
        }
    }

    /// Merges one job's coverage (`None`: the job recorded nothing, as when it failed before
    /// evaluating or was not run).
    pub fn merge(&mut self, job: Option<&Coverage>) {
        let Some(job) = job else {
            self.complete = false;
            return;
        };
        self.complete &= job.complete;
        let mut all = Coverage {
            complete: true,
            files: std::mem::take(&mut self.files),
        };
        for f in &job.files {
            all.add(f.clone());
        }
        self.files = all.files;
    }

    /// Executable lines of all files, and those that ran.
    pub fn line_counts(&self) -> (usize, usize) {
        self.files.iter().fold((0, 0), |(t, h), f| {
            let (ft, fh) = f.line_counts();
            (t + ft, h + fh)
        })
    }

    /// Branch arms of all files, and those taken.
    pub fn branch_counts(&self) -> (usize, usize) {
        self.files.iter().fold((0, 0), |(t, h), f| {
            let (ft, fh) = f.branch_counts();
            (t + ft, h + fh)
        })
    }
}

/// `covered / total` as a percentage with one decimal (`100.0` for nothing to cover).
pub fn percent(covered: usize, total: usize) -> String {
    if total == 0 {
        return "100.0".to_string();
    }
    format!("{:.1}", covered as f64 * 100.0 / total as f64)
}

/// The terminal's coverage summary: one line, the roots' lines together, and the roots with
/// the lowest coverage (every root when there are few). Empty when nothing was recorded.
pub fn summary(roots: &[RootCoverage]) -> String {
    let measured: Vec<(&str, usize, usize)> = roots
        .iter()
        .map(|r| {
            let (t, h) = r.line_counts();
            (r.root.as_str(), t, h)
        })
        .filter(|(_, t, _)| *t > 0)
        .collect();
    if measured.is_empty() {
        return String::new();
    }
    let (total, hit) = measured
        .iter()
        .fold((0, 0), |(t, h), (_, rt, rh)| (t + rt, h + rh));
    let shown = |(root, t, h): &(&str, usize, usize)| format!("{root} {}%", percent(*h, *t));
    const ALL_UP_TO: usize = 5;
    let mut line = format!(
        "Coverage: {}% of template lines evaluated ({hit}/{total})",
        percent(hit, total)
    );
    if measured.len() <= ALL_UP_TO {
        let each: Vec<String> = measured.iter().map(shown).collect();
        line.push_str(&format!(": {}", each.join(", ")));
    } else {
        let mut lowest = measured.clone();
        lowest.sort_by(|a, b| {
            let ra = a.2 as f64 / a.1 as f64;
            let rb = b.2 as f64 / b.1 as f64;
            ra.total_cmp(&rb).then(a.0.cmp(b.0))
        });
        let each: Vec<String> = lowest.iter().take(3).map(shown).collect();
        line.push_str(&format!(
            " in {} roots; lowest: {}",
            measured.len(),
            each.join(", ")
        ));
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, lines: &[(u32, u64)], arms: &[u64]) -> FileCoverage {
        FileCoverage {
            file: name.into(),
            lines: lines.iter().copied().collect(),
            branches: vec![BranchPoint {
                line: 1,
                ord: 0,
                hits: 1,
                arms: arms
                    .iter()
                    .map(|h| Arm {
                        kind: ArmKind::Then,
                        line: 2,
                        hits: *h,
                    })
                    .collect(),
            }],
        }
    }

    #[test]
    fn jobs_of_a_root_merge_by_summing() {
        let mut root = RootCoverage::new("r");
        root.merge(Some(&Coverage {
            complete: true,
            files: vec![file("a.yml", &[(1, 1), (2, 0)], &[0, 1])],
        }));
        root.merge(Some(&Coverage {
            complete: true,
            files: vec![
                file("a.yml", &[(1, 1), (2, 3)], &[1, 0]),
                file("b.star", &[(4, 0)], &[0]),
            ],
        }));
        assert!(root.complete);
        assert_eq!(root.files.len(), 2);
        assert_eq!(root.files[0].lines[&2], 3);
        assert_eq!(root.files[0].branch_counts(), (2, 2));
        assert_eq!(root.line_counts(), (3, 2));
        root.merge(None);
        assert!(!root.complete);
    }

    #[test]
    fn summary_lists_few_roots_or_the_lowest() {
        let root = |name: &str, hit: u64| RootCoverage {
            root: name.into(),
            complete: true,
            files: vec![file("a.yml", &[(1, 1), (2, hit)], &[])],
        };
        assert_eq!(
            summary(&[root("a", 1), root("b", 0)]),
            "Coverage: 75.0% of template lines evaluated (3/4): a 100.0%, b 50.0%\n"
        );
        let many: Vec<RootCoverage> = (0..7).map(|i| root(&format!("r{i}"), i % 2)).collect();
        assert_eq!(
            summary(&many),
            "Coverage: 71.4% of template lines evaluated (10/14) in 7 roots; lowest: r0 50.0%, r2 50.0%, r4 50.0%\n"
        );
        assert_eq!(summary(&[]), "");
    }
}
