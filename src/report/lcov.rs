//! LCOV tracefile of the roots' coverage (`--report lcov=PATH`), as GitHub coverage actions,
//! editors and `genhtml` read it: one record per root and file, the root as test name (`TN:`),
//! line counts (`DA:`), branch counts (`BRDA:`, `-` for a branch point that never ran) and the
//! totals of each record.

use super::coverage::{FileCoverage, RootCoverage};

/// The tracefile of `roots` (nothing recorded: an empty file); `path` gives a
/// repository-relative file's path as the report names it.
pub fn render(roots: &[RootCoverage], path: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    for root in roots {
        for f in &root.files {
            record(&mut out, &root.root, f, path);
        }
    }
    out
}

fn record(out: &mut String, test: &str, f: &FileCoverage, path: &dyn Fn(&str) -> String) {
    out.push_str(&format!("TN:{}\n", test_name(test)));
    out.push_str(&format!("SF:{}\n", path(&f.file)));
    for (block, b) in f.branches.iter().enumerate() {
        for (i, arm) in b.arms.iter().enumerate() {
            let taken = if b.hits == 0 {
                "-".to_string()
            } else {
                arm.hits.to_string()
            };
            out.push_str(&format!("BRDA:{},{block},{i},{taken}\n", b.line));
        }
    }
    let (branches, taken) = f.branch_counts();
    out.push_str(&format!("BRF:{branches}\nBRH:{taken}\n"));
    for (line, hits) in &f.lines {
        out.push_str(&format!("DA:{line},{hits}\n"));
    }
    let (lines, hit) = f.line_counts();
    out.push_str(&format!("LF:{lines}\nLH:{hit}\nend_of_record\n"));
}

/// A root's path as a test name: LCOV's test names are identifiers, so every character that
/// is not a letter, a digit or `_` becomes `_`.
fn test_name(root: &str) -> String {
    root.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::coverage::{Arm, ArmKind, BranchPoint};

    #[test]
    fn records_per_root_and_file() {
        let roots = vec![RootCoverage {
            root: "config/app".into(),
            complete: true,
            files: vec![FileCoverage {
                file: "config/app/a.yml".into(),
                lines: [(2, 3), (3, 0), (5, 3)].into_iter().collect(),
                branches: vec![
                    BranchPoint {
                        line: 2,
                        ord: 0,
                        hits: 3,
                        arms: vec![
                            Arm {
                                kind: ArmKind::Then,
                                line: 3,
                                hits: 0,
                            },
                            Arm {
                                kind: ArmKind::Skip,
                                line: 2,
                                hits: 3,
                            },
                        ],
                    },
                    BranchPoint {
                        line: 7,
                        ord: 0,
                        hits: 0,
                        arms: vec![Arm {
                            kind: ArmKind::Body,
                            line: 8,
                            hits: 0,
                        }],
                    },
                ],
            }],
        }];
        assert_eq!(
            render(&roots, &|f| f.to_string()),
            "TN:config_app\nSF:config/app/a.yml\nBRDA:2,0,0,0\nBRDA:2,0,1,3\nBRDA:7,1,0,-\nBRF:3\nBRH:1\nDA:2,3\nDA:3,0\nDA:5,3\nLF:3\nLH:2\nend_of_record\n"
        );
    }
}
