//! `--fix`, `--unsafe-fixes` and `--diff`: the fixes the findings carry (see [`crate::fix`]),
//! applied to the repository's files or shown as a unified diff.
//!
//! `--fix` lints, applies the fixes allowed (safe ones; unsafe ones too with `--unsafe-fixes`)
//! that do not overlap, writes the files, and lints again, up to [`MAX_PASSES`] times, until no
//! fix is left; the findings of the last pass are reported as usual. A fix skipped for an
//! overlap is applied by a later pass when its finding is still there. `--diff` makes the same
//! passes and writes nothing: the fixed texts stand in for the files (the file overlay of
//! [`crate::files::overlay`], also in worker processes) while it lints again, and it prints the
//! diff of every file from its text on disk to its last fixed text, exiting 1 when there is
//! one. Only repository files the linter may read are read and written, never through a
//! symbolic link (see [`crate::fix::write`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use clap::Args;

use crate::fix::apply::{apply, choose};
use crate::fix::{diff, write, Fix};
use crate::report::{Report, Rule};

/// How many times `--fix` lints and fixes at most (the last pass's findings are reported).
pub const MAX_PASSES: usize = 10;

/// The fixing flags, flattened into the linter's command line.
#[derive(Args, Debug, Default, Clone)]
pub struct FixArgs {
    /// Apply the safe fixes to the files (and lint again), then report what is left.
    #[arg(long)]
    pub fix: bool,
    /// Also apply unsafe fixes (they change what ytt renders, on purpose) with --fix or --diff;
    /// alone, show them as available.
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print a unified diff of what --fix would change, write nothing; exit 1 when the diff is
    /// not empty.
    #[arg(long)]
    pub diff: bool,
}

/// What one pass applied: findings fixed per rule, and the files written.
#[derive(Debug, Default)]
pub struct Applied {
    pub per_rule: BTreeMap<&'static str, usize>,
    pub files: BTreeSet<String>,
    /// Why a file could not be fixed (its findings stay).
    pub failed: BTreeMap<String, String>,
}

impl Applied {
    pub fn fixed(&self) -> usize {
        self.per_rule.values().sum()
    }
}

/// The fixes of `report` that `unsafe_fixes` allows, with the rule of each finding, leaving
/// out those touching a file of `avoid`.
fn allowed<'a>(
    report: &'a Report,
    unsafe_fixes: bool,
    avoid: &BTreeMap<String, String>,
) -> Vec<(Rule, &'a Fix)> {
    report
        .diagnostics
        .iter()
        .filter_map(|d| Some((d.rule, d.fix.as_ref()?)))
        .filter(|(_, f)| f.allowed(unsafe_fixes))
        .filter(|(_, f)| f.edits.iter().all(|e| !avoid.contains_key(&e.file)))
        .collect()
}

/// Fixes a repository pass after pass.
pub struct Fixer<'a> {
    pub repo: &'a Path,
    pub unsafe_fixes: bool,
    /// `--diff`: write nothing; the fixed texts are kept in `texts`.
    pub dry: bool,
    /// Files that could not be fixed, and why: no later pass touches them.
    pub failed: BTreeMap<String, String>,
    /// Each file's texts so far (SHA-256): fixes that would bring one back go round in circles
    /// (two roots that disagree on a correction) and are not made.
    seen: BTreeMap<String, BTreeSet<[u8; 32]>>,
    /// `dry`: each file changed so far, its text on disk and its text with the fixes so far.
    texts: BTreeMap<String, (String, String)>,
}

impl<'a> Fixer<'a> {
    pub fn new(repo: &'a Path, unsafe_fixes: bool, dry: bool) -> Fixer<'a> {
        Fixer {
            repo,
            unsafe_fixes,
            dry,
            failed: BTreeMap::new(),
            seen: BTreeMap::new(),
            texts: BTreeMap::new(),
        }
    }

    /// One pass over `report`'s fixes: the files changed (written unless `dry`); the files that
    /// cannot be fixed are added to `failed` and returned in the pass's `failed`.
    pub fn pass(&mut self, report: &Report) -> Applied {
        let fixes = allowed(report, self.unsafe_fixes, &self.failed);
        let refs: Vec<&Fix> = fixes.iter().map(|(_, f)| *f).collect();
        let chosen = choose(&refs);
        let mut out = Applied::default();
        // Two paths of one file (a directory symlinked inside the repository): the edits of the
        // second were made on the text before the first was fixed; the next pass fixes it.
        let mut real = BTreeSet::new();
        for (file, edits) in &chosen.edits {
            let path = std::fs::canonicalize(self.repo.join(file)).ok();
            if path.as_ref().is_some_and(|p| real.contains(p)) {
                continue;
            }
            match self.fix_file(file, edits) {
                Ok(()) => {
                    out.files.insert(file.clone());
                    real.extend(path);
                }
                Err(why) => {
                    out.failed.insert(file.clone(), why.clone());
                    self.failed.insert(file.clone(), why);
                }
            }
        }
        for &i in &chosen.taken {
            let (rule, fix) = fixes[i];
            if fix.edits.iter().all(|e| out.files.contains(&e.file)) {
                *out.per_rule.entry(rule.id()).or_default() += 1;
            }
        }
        out
    }

    /// Applies `edits` to `file` (to its last fixed text when `dry`); an error when the file
    /// cannot be read or written or its text would come back to one it had.
    fn fix_file(&mut self, file: &str, edits: &[crate::fix::Edit]) -> Result<(), String> {
        use sha2::{Digest, Sha256};
        let old = match self.texts.get(file) {
            Some((_, fixed)) => fixed.clone(),
            None => write::read(self.repo, file)?,
        };
        let new = apply(&old, edits)?;
        let seen = self.seen.entry(file.to_string()).or_default();
        seen.insert(Sha256::digest(old.as_bytes()).into());
        if !seen.insert(Sha256::digest(new.as_bytes()).into()) {
            return Err(
                "its fixes go round in circles (roots disagree on a correction); \
                        left as it is"
                    .to_string(),
            );
        }
        if self.dry {
            let entry = self.texts.entry(file.to_string());
            entry.or_insert_with(|| (old, String::new())).1 = new;
        } else {
            write::write(self.repo, file, &new)?;
        }
        Ok(())
    }

    /// `dry`: the unified diff of every file changed, from its text on disk to its text with
    /// every fix made so far, in file order.
    pub fn diff(&self) -> String {
        let diffs = self.texts.iter();
        diffs
            .map(|(file, (old, new))| diff::unified(file, old, new))
            .collect()
    }

    /// `dry`: the fixed texts as buffers that stand in for their files while the repository
    /// is linted again.
    pub fn buffers(&self) -> crate::files::overlay::Buffers {
        // Keys as the overlay looks them up: absolute, lexically normal.
        let cwd = std::env::current_dir().unwrap_or_else(|_| Path::new("/").to_path_buf());
        let buffer = |(file, (_, new)): (&String, &(String, String))| {
            let path = crate::files::lexical_absolute(&cwd, &self.repo.join(file));
            (path, Arc::from(new.as_bytes()))
        };
        self.texts.iter().map(buffer).collect()
    }
}

/// `fixed N findings in M files (rule: n, ...)`.
pub fn summary(per_rule: &BTreeMap<&'static str, usize>, files: usize, dry: bool) -> String {
    let total: usize = per_rule.values().sum();
    let rules: Vec<String> = per_rule.iter().map(|(r, n)| format!("{r}: {n}")).collect();
    let verb = if dry { "would fix" } else { "fixed" };
    let mut text = format!(
        "{verb} {total} finding{} in {files} file{}",
        if total == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" }
    );
    if !rules.is_empty() {
        text.push_str(&format!(" ({})", rules.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_findings_and_files() {
        let mut per_rule = BTreeMap::new();
        per_rule.insert("unused-load", 2);
        per_rule.insert("annotation-typo", 1);
        assert_eq!(
            summary(&per_rule, 2, false),
            "fixed 3 findings in 2 files (annotation-typo: 1, unused-load: 2)"
        );
        assert_eq!(
            summary(&BTreeMap::new(), 0, true),
            "would fix 0 findings in 0 files"
        );
    }
}
