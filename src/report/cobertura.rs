//! Cobertura XML of the roots' coverage (`--report cobertura=PATH`), the coverage format GitLab
//! shows in merge request diffs. Valid against Cobertura's `coverage-04.dtd`: one package per
//! root, one class per file (its path relative to the checkout as `filename`, with `.`, the
//! checkout, as the one source directory: no absolute path of the machine), every executable line with its count, and on the lines of an
//! `if` or `for` how many of its ways execution took (`condition-coverage`).
//!
//! The timestamp is 0 (the report is the same every run for the same repository).

use super::coverage::{FileCoverage, RootCoverage};
use super::xml::escape;

/// The Cobertura document of `roots`; `path` gives a repository-relative file's path as the
/// report names it.
pub fn render(roots: &[RootCoverage], path: &dyn Fn(&str) -> String) -> String {
    let (lines, lines_hit) = sum(roots.iter().map(RootCoverage::line_counts));
    let (branches, taken) = sum(roots.iter().map(RootCoverage::branch_counts));
    let mut out = String::from("<?xml version=\"1.0\" ?>\n");
    out.push_str(
        "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n",
    );
    out.push_str(&format!(
        "<coverage line-rate=\"{}\" branch-rate=\"{}\" lines-covered=\"{lines_hit}\" lines-valid=\"{lines}\" branches-covered=\"{taken}\" branches-valid=\"{branches}\" complexity=\"0\" version=\"yttlint {}\" timestamp=\"0\">\n",
        rate(lines_hit, lines),
        rate(taken, branches),
        env!("CARGO_PKG_VERSION"),
    ));
    out.push_str("  <sources>\n    <source>.</source>\n  </sources>\n  <packages>\n");
    for root in roots {
        let (l, lh) = root.line_counts();
        let (b, bh) = root.branch_counts();
        out.push_str(&format!(
            "    <package name=\"{}\" line-rate=\"{}\" branch-rate=\"{}\" complexity=\"0\">\n      <classes>\n",
            escape(&root.root),
            rate(lh, l),
            rate(bh, b)
        ));
        for f in &root.files {
            class(&mut out, f, path);
        }
        out.push_str("      </classes>\n    </package>\n");
    }
    out.push_str("  </packages>\n</coverage>\n");
    out
}

fn class(out: &mut String, f: &FileCoverage, path: &dyn Fn(&str) -> String) {
    let (l, lh) = f.line_counts();
    let (b, bh) = f.branch_counts();
    out.push_str(&format!(
        "        <class name=\"{0}\" filename=\"{0}\" line-rate=\"{1}\" branch-rate=\"{2}\" complexity=\"0\">\n          <methods/>\n          <lines>\n",
        escape(&path(&f.file)),
        rate(lh, l),
        rate(bh, b)
    ));
    for (line, hits) in &f.lines {
        let arms: Vec<u64> = f
            .branches
            .iter()
            .filter(|b| b.line == *line)
            .flat_map(|b| b.arms.iter().map(|a| a.hits))
            .collect();
        if arms.is_empty() {
            out.push_str(&format!(
                "            <line number=\"{line}\" hits=\"{hits}\" branch=\"false\"/>\n"
            ));
        } else {
            let taken = arms.iter().filter(|h| **h > 0).count();
            out.push_str(&format!(
                "            <line number=\"{line}\" hits=\"{hits}\" branch=\"true\" condition-coverage=\"{}% ({taken}/{})\"/>\n",
                taken * 100 / arms.len(),
                arms.len()
            ));
        }
    }
    out.push_str("          </lines>\n        </class>\n");
}

fn sum(counts: impl Iterator<Item = (usize, usize)>) -> (usize, usize) {
    counts.fold((0, 0), |(t, h), (a, b)| (t + a, h + b))
}

/// A rate between 0 and 1 with four decimals (1 for nothing to cover).
fn rate(hit: usize, total: usize) -> String {
    if total == 0 {
        return "1".to_string();
    }
    let r = format!("{:.4}", hit as f64 / total as f64);
    r.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::coverage::{Arm, ArmKind, BranchPoint};

    #[test]
    fn packages_are_roots_and_classes_files() {
        let roots = vec![RootCoverage {
            root: "app".into(),
            complete: true,
            files: vec![FileCoverage {
                file: "app/a&b.yml".into(),
                lines: [(2, 1), (3, 0)].into_iter().collect(),
                branches: vec![BranchPoint {
                    line: 2,
                    ord: 0,
                    hits: 1,
                    arms: vec![
                        Arm {
                            kind: ArmKind::Then,
                            line: 3,
                            hits: 0,
                        },
                        Arm {
                            kind: ArmKind::Skip,
                            line: 2,
                            hits: 1,
                        },
                    ],
                }],
            }],
        }];
        let xml = render(&roots, &|f| format!("deploy/{f}"));
        assert!(
            xml.contains(
                "line-rate=\"0.5\" branch-rate=\"0.5\" lines-covered=\"1\" lines-valid=\"2\""
            ),
            "{xml}"
        );
        assert!(xml.contains("<package name=\"app\""));
        assert!(xml.contains("filename=\"deploy/app/a&amp;b.yml\""));
        assert!(
            xml.contains("<source>.</source>"),
            "no absolute path: {xml}"
        );
        assert!(xml.contains(
            "<line number=\"2\" hits=\"1\" branch=\"true\" condition-coverage=\"50% (1/2)\"/>"
        ));
        assert!(xml.contains("<line number=\"3\" hits=\"0\" branch=\"false\"/>"));
        assert_eq!(rate(1, 3), "0.3333");
        assert_eq!(rate(3, 3), "1");
        assert_eq!(rate(0, 3), "0");
    }
}
