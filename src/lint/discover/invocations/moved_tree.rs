//! A step before a `ytt` command that moves or copies a file or directory inside the
//! directory the command reads (round seventeen's R17B-2: a README's `$ mv
//! ./demo/_ytt_lib{1,}` before `$ ytt -f ./demo`, the library committed as `_ytt_lib1` so that
//! a test loop skips it). ytt reads the tree as the step leaves it, so the command is linted
//! with that tree: each file of the directory named by its path there (`-f
//! _ytt_lib/app/config.yml=demo/_ytt_lib1/app/config.yml`), which the findings give back as
//! the committed file's path and line. The steps are the `mv` and `cp` commands of the
//! command's own snippet before it, and for a page, those of its other blocks and its prose
//! ("rename `_ytt_lib1` to `_ytt_lib`", see [`super::prose_copy::steps`]) above it.
//!
//! Nothing is guessed: the step is the page's or script's own, and the tree after it is
//! known, so what fails there is as certain as the command (as for a folder the copies
//! assemble, [`super::assembled`]); the root is named after the step so that the reader sees
//! it (`demo (demo/_ytt_lib1 moved to demo/_ytt_lib, demo/README.md:5)`). A step with a part
//! known only at run time, a glob or options that are not modelled, or whose source is not
//! there, is not followed; without a followed step inside the directory nothing changes.
//!
//! Bounded: at most [`MAX_STEPS`] steps, [`MAX_FILES`] files for one directory (a larger one
//! is linted as committed).

use std::collections::BTreeMap;

use super::index::Index;
use super::resolve::{caller_bases, Invocation};
use super::snippet::CALLER;
use super::tree_copy::TreeCopy;
use super::word::Word;
use crate::files::paths;

/// The most files one directory input is given as.
const MAX_FILES: usize = 2_000;
/// The most steps followed before one command.
const MAX_STEPS: usize = 32;

/// The repository's files as the steps leave them.
struct View<'a> {
    index: &'a Index,
    /// Where a file is now, and the committed file it holds (`None`: moved away).
    over: BTreeMap<String, Option<String>>,
}

impl View<'_> {
    fn holds_file(&self, v: &str) -> bool {
        match self.over.get(v) {
            Some(held) => held.is_some(),
            None => self.index.is_file(v),
        }
    }

    /// The files under `dir` (where they are now, the committed file), sorted; `None` for more
    /// than `limit`.
    fn files_under(&self, dir: &str, limit: usize) -> Option<Vec<(String, String)>> {
        let mut out: BTreeMap<String, String> = BTreeMap::new();
        let wanted = limit.saturating_add(1).saturating_add(self.over.len());
        for f in self.index.entries_below(dir, wanted) {
            if self.index.is_file(f) && !self.over.contains_key(f) {
                out.insert(f.to_string(), f.to_string());
            }
        }
        for (v, held) in &self.over {
            if let Some(real) = held
                .as_ref()
                .filter(|_| v != dir && paths::is_within(v, dir))
            {
                out.insert(v.clone(), real.clone());
            }
        }
        (out.len() <= limit).then(|| out.into_iter().collect())
    }

    fn is_dir(&self, v: &str) -> bool {
        v == "." || self.files_under(v, 0).is_none()
    }

    /// Follows one step; `false` when it cannot be (a source not there).
    fn follow(&mut self, step: &Placed) -> bool {
        let into =
            step.dest_dir || step.sources.len() > 1 || (!step.no_target && self.is_dir(&step.dest));
        let mut moved: Vec<(String, String)> = Vec::new();
        let mut gone: Vec<String> = Vec::new();
        for (src, dot) in &step.sources {
            let target = if into && !dot {
                paths::join(&step.dest, last(src))
            } else {
                step.dest.clone()
            };
            if self.holds_file(src) && !dot {
                let real = match self.over.get(src) {
                    Some(Some(r)) => r.clone(),
                    _ => src.clone(),
                };
                moved.push((target, real));
                gone.push(src.clone());
                continue;
            }
            if !self.is_dir(src) || !step.recursive {
                return false;
            }
            let Some(files) = self.files_under(src, MAX_FILES) else {
                return false;
            };
            for (v, real) in files {
                let rel = v.strip_prefix(&format!("{src}/")).unwrap_or(&v).to_string();
                moved.push((paths::join(&target, &rel), real));
                gone.push(v);
            }
        }
        if step.by == "mv" {
            for v in gone {
                self.over.insert(v, None);
            }
        }
        for (v, real) in moved {
            self.over.insert(v, Some(real));
        }
        self.over.len() <= MAX_FILES * 4
    }
}

/// A step with its paths as repository paths.
struct Placed {
    by: String,
    line: u32,
    /// Each source, and whether it is written `dir/.` (its contents).
    sources: Vec<(String, bool)>,
    dest: String,
    dest_dir: bool,
    no_target: bool,
    recursive: bool,
}

impl Placed {
    /// How a root names it: `demo/_ytt_lib1 moved to demo/_ytt_lib, README.md:5`.
    fn described(&self, file: &str) -> String {
        let verb = if self.by == "mv" { "moved" } else { "copied" };
        let from: Vec<&str> = self.sources.iter().map(|(s, _)| s.as_str()).collect();
        format!(
            "{} {verb} to {}, {file}:{}",
            from.join(", "),
            self.dest,
            self.line
        )
    }
}

/// `step`'s paths from the caller's directory `base` (for words written from it), if each is
/// a literal path inside the repository.
fn placed(step: &TreeCopy, base: &Word, moves: &[(String, String)]) -> Option<Placed> {
    let at = |w: &Word| -> Option<String> {
        let w = match w.strip_prefix(CALLER) {
            Some(rest) => {
                let mut out = base.clone();
                out.extend(&rest);
                out.normalized()
            }
            None => w.normalized(),
        };
        if w.has_glob() {
            return None;
        }
        w.repo_path()
            .filter(|p| p != ".")
            .map(|p| super::corrected_page::remapped(p, moves))
    };
    let sources = step
        .sources
        .iter()
        .map(|s| Some((at(&s.path)?, s.dot)))
        .collect::<Option<Vec<_>>>()?;
    Some(Placed {
        by: step.by.clone(),
        line: step.line,
        sources,
        dest: at(&step.dest)?,
        dest_dir: step.dest_dir,
        no_target: step.no_target_dir,
        recursive: step.recursive,
    })
}

/// The invocation with each directory it reads as the steps before it leave it, when a
/// followed step moves or copies something inside. `steps`: the `mv` and `cp` commands of the
/// file the command is in (`file`), with their lines; those after the command are not
/// followed. `moves`: stale paths of a page's corrected command and where they are now (see
/// [`super::corrected_page`]), applied to the steps' paths too.
pub fn apply(inv: &mut Invocation, steps: &[TreeCopy], index: &Index, moves: &[(String, String)]) {
    let dirs: Vec<String> = inv
        .inputs
        .iter()
        .filter(|i| !i.contains('=') && index.is_dir(i))
        .cloned()
        .collect();
    if dirs.is_empty() {
        return;
    }
    let file = inv.origin.file.clone();
    let bases = caller_bases(paths::parent(&file));
    // The page's blocks are read for their steps too: the command's own block is once.
    let mut ordered: Vec<&TreeCopy> = Vec::new();
    for s in steps {
        let wanted = (s.by == "mv" || s.by == "cp")
            && s.line <= inv.origin.line
            && s.unmodelled.is_empty()
            && s.excludes.is_empty();
        if wanted && !ordered.contains(&s) && ordered.len() < MAX_STEPS * 4 {
            ordered.push(s);
        }
    }
    ordered.sort_by_key(|s| s.line);
    let mut view = View {
        index,
        over: BTreeMap::new(),
    };
    let mut followed: Vec<Placed> = Vec::new();
    for step in ordered.into_iter().take(MAX_STEPS) {
        // From the caller's directory where its sources are, and where it touches a
        // directory the command reads.
        let touches = |p: &Placed| {
            dirs.iter().any(|d| {
                (paths::is_within(&p.dest, d) && &p.dest != d)
                    || p.sources
                        .iter()
                        .any(|(s, _)| paths::is_within(s, d) && s != d)
            })
        };
        let found = bases
            .iter()
            .filter_map(|b| placed(step, b, moves))
            .find(|p| {
                touches(p)
                    && p.sources
                        .iter()
                        .all(|(s, _)| view.holds_file(s) || view.is_dir(s))
            });
        let Some(p) = found else {
            continue;
        };
        if !view.follow(&p) {
            return;
        }
        followed.push(p);
    }
    if followed.is_empty() {
        return;
    }
    let mut inputs: Vec<String> = Vec::new();
    for input in std::mem::take(&mut inv.inputs) {
        let changed =
            dirs.contains(&input) && view.over.keys().any(|v| paths::is_within(v, &input));
        let files = changed
            .then(|| view.files_under(&input, MAX_FILES))
            .flatten()
            .filter(|f| {
                !f.is_empty() && f.iter().all(|(v, r)| !v.contains('=') && !r.contains('='))
            });
        let Some(files) = files else {
            inputs.push(input);
            continue;
        };
        let named: Vec<String> = files
            .iter()
            .map(|(v, real)| {
                let rel = v.strip_prefix(&format!("{input}/")).unwrap_or(v);
                let rel = if input == "." { v.as_str() } else { rel };
                format!("{rel}={real}")
            })
            .collect();
        let steps: Vec<String> = followed
            .iter()
            .filter(|p| {
                paths::is_within(&p.dest, &input)
                    || p.sources.iter().any(|(s, _)| paths::is_within(s, &input))
            })
            .map(|p| p.described(&file))
            .collect();
        let label = format!("{input} ({})", steps.join("; "));
        inv.assembled
            .push((label, files.into_iter().map(|(_, r)| r).collect()));
        inputs.extend(named);
    }
    inv.inputs = inputs;
}

/// The last segment of a repository path.
fn last(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::super::resolve::Origin;
    use super::super::tree_copy::Source;
    use super::*;

    fn invocation(file: &str, line: u32, inputs: &[&str]) -> Invocation {
        Invocation {
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            ..Invocation::new(Origin {
                file: file.into(),
                line,
            })
        }
    }

    fn step(by: &str, line: u32, from: &str, to: &str) -> TreeCopy {
        TreeCopy {
            line,
            by: by.into(),
            dest: Word::lit(format!("{CALLER}/{to}")),
            dest_dir: false,
            no_target_dir: false,
            sources: vec![Source {
                path: Word::lit(format!("{CALLER}/{from}")),
                written: from.into(),
                slash: false,
                dot: false,
            }],
            recursive: by == "mv",
            excludes: Vec::new(),
            unmodelled: Vec::new(),
        }
    }

    fn index() -> Index {
        Index::new([
            "demo/README.md",
            "demo/config.yml",
            "demo/_ytt_lib1/app/config.yml",
            "demo/_ytt_lib1/app/values.yml",
        ])
    }

    #[test]
    fn a_rename_inside_the_input_is_the_tree_ytt_reads() {
        let index = index();
        let mut inv = invocation("demo/README.md", 7, &["demo"]);
        apply(
            &mut inv,
            &[step("mv", 5, "demo/_ytt_lib1", "demo/_ytt_lib")],
            &index,
            &[],
        );
        assert_eq!(
            inv.inputs,
            [
                "README.md=demo/README.md",
                "_ytt_lib/app/config.yml=demo/_ytt_lib1/app/config.yml",
                "_ytt_lib/app/values.yml=demo/_ytt_lib1/app/values.yml",
                "config.yml=demo/config.yml",
            ]
        );
        assert_eq!(
            inv.assembled[0].0,
            "demo (demo/_ytt_lib1 moved to demo/_ytt_lib, demo/README.md:5)"
        );
        // From the page's own directory too.
        let mut inv = invocation("demo/README.md", 7, &["demo"]);
        apply(
            &mut inv,
            &[step("mv", 5, "_ytt_lib1", "_ytt_lib")],
            &index,
            &[],
        );
        assert_eq!(inv.inputs.len(), 4);
        // A step on the old path of a page's corrected command, read where the folder is now.
        let mut inv = invocation("demo/README.md", 7, &["demo"]);
        let moves = [("guides/demo".to_string(), "demo".to_string())];
        let stale = step("mv", 5, "guides/demo/_ytt_lib1", "guides/demo/_ytt_lib");
        apply(&mut inv, std::slice::from_ref(&stale), &index, &moves);
        assert_eq!(inv.inputs.len(), 4, "{:?}", inv.inputs);
        let mut inv = invocation("demo/README.md", 7, &["demo"]);
        apply(&mut inv, &[stale], &index, &[]);
        assert_eq!(inv.inputs, ["demo"]);
    }

    #[test]
    fn a_copy_keeps_the_source_and_other_steps_change_nothing() {
        let index = index();
        let mut inv = invocation("demo/README.md", 7, &["demo"]);
        let mut copy = step("cp", 5, "demo/_ytt_lib1", "demo/_ytt_lib");
        copy.recursive = true;
        apply(&mut inv, &[copy.clone()], &index, &[]);
        assert_eq!(inv.inputs.len(), 6, "{:?}", inv.inputs);
        // Without `-r`, a directory is not copied: the step is not followed.
        copy.recursive = false;
        let mut inv = invocation("demo/README.md", 7, &["demo"]);
        apply(&mut inv, &[copy], &index, &[]);
        assert_eq!(inv.inputs, ["demo"]);
        // After the command, outside its input, of a source not there: nothing.
        for s in [
            step("mv", 9, "demo/_ytt_lib1", "demo/_ytt_lib"),
            step("mv", 5, "demo/_ytt_lib1", "elsewhere/_ytt_lib"),
            step("mv", 5, "demo/_ytt_lib2", "demo/_ytt_lib"),
        ] {
            let mut inv = invocation("demo/README.md", 7, &["demo"]);
            apply(&mut inv, &[s], &index, &[]);
            let moved_out = inv.inputs != ["demo"];
            // Moving the library out of the input leaves the rest of it.
            assert_eq!(moved_out, inv.inputs.len() == 2, "{:?}", inv.inputs);
        }
        // A file input is not a tree.
        let mut inv = invocation("demo/README.md", 7, &["demo/config.yml"]);
        apply(
            &mut inv,
            &[step("mv", 5, "demo/_ytt_lib1", "demo/_ytt_lib")],
            &index,
            &[],
        );
        assert_eq!(inv.inputs, ["demo/config.yml"]);
    }
}
