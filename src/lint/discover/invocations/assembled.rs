//! A folder the repository's own commands assemble by copying, read by a later `ytt -f` of
//! the same recipe or script (round fifteen's R15B-1: `rsync -a ./external/_ytt_lib ./src/
//! build/pre`, then `ytt -f build/pre`). The folder is not in the repository; what ytt reads
//! there is the copied sources together, laid out as the copies lay them out, so the command
//! is linted with each copied file named by its path in the folder (`-f
//! _ytt_lib/greeter/cm.yml=external/_ytt_lib/greeter/cm.yml`, `-f main.yml=src/main.yml`).
//!
//! The layout follows each tool's rule: rsync copies `dir` as the directory itself and `dir/`
//! as its contents; `cp -r dir dest` copies the directory into `dest` when `dest` exists (an
//! earlier `mkdir` or copy made it, it is written `dest/`, or several sources go there) and
//! makes `dest` a copy of `dir` when it does not; `dir/.` is the contents for both. rsync's
//! `--exclude` patterns of plain segments and `*` are applied. What the layout cannot know
//! exactly is said as an assumption (`missing-input`, never a certain error): a source known
//! only at run time or not in the repository, a glob (expanded over the committed files),
//! `cp dir/` (GNU copies the directory, BSD its contents: GNU is assumed), an exclude pattern
//! or an option not modelled, files another tool writes into the folder.

use std::collections::BTreeMap;

use super::resolve::{caller_bases, Origin, Repo};
use super::snippet::CALLER;
use super::tree_copy::{Source, TreeCopy};
use super::word::Word;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// The most files one assembled folder is given as.
const MAX_FILES: usize = 2_000;
/// The most sources followed into one folder (each lists the repository's files once): a
/// folder filled from more is not assembled.
const MAX_SOURCES: usize = 256;

/// The files of a folder ytt reads, by how their names end (the rest it leaves out unless a
/// file mark says otherwise: a command with file marks is not assembled).
const YTT_KINDS: [&str; 4] = [".yml", ".yaml", ".star", ".txt"];

/// The tools whose outputs in the folder are its layout, not files made at run time.
const LAYOUT_TOOLS: [&str; 7] = ["cp", "rsync", "mkdir", "mv", "install", "ln", "touch"];

/// What stands in for an assembled folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Assembly {
    /// The `-f` inputs: each copied file named by its path in the folder (`name=path`).
    pub inputs: Vec<String>,
    /// The repository paths copied there.
    pub sources: Vec<String>,
    /// What the layout assumes, when it is not known exactly.
    pub assumption: Option<Assumption>,
    /// How a root names the folder: `build/pre (copied from external/_ytt_lib, src)`.
    pub label: String,
}

/// The folder `target` (an input of the command at `origin`, not in the repository) as the
/// copies of the same snippet before the command assemble it, if any copies there.
pub fn layout(target: &Word, origin: &Origin, repo: &Repo) -> Option<Assembly> {
    let target_text = target.normalized().literal()?;
    let bases = caller_bases(paths::parent(&origin.file));
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut sources: Vec<String> = Vec::new();
    let mut doubts: Vec<String> = Vec::new();
    let mut by: Vec<String> = Vec::new();
    let mut followed = 0usize;
    let copies: Vec<&TreeCopy> = repo
        .copies
        .iter()
        .filter(|c| c.line <= origin.line)
        .collect();
    for (k, copy) in copies.iter().enumerate() {
        let Some((base, prefix)) = placed(copy, &target_text, &bases) else {
            continue;
        };
        by.push(format!("`{}` ({}:{})", copy.by, origin.file, copy.line));
        for o in &copy.unmodelled {
            doubts.push(format!("`{}` option `{o}` is not followed", copy.by));
        }
        let (excludes, unknown): (Vec<&String>, Vec<&String>) =
            copy.excludes.iter().partition(|p| modelled(p));
        for p in unknown {
            doubts.push(format!("the exclude pattern `{p}` is not followed"));
        }
        let exists = dest_exists(copy, &copies[..k], origin, repo, base.as_ref());
        for s in &copy.sources {
            followed += 1;
            if followed > MAX_SOURCES {
                return None;
            }
            let path = rebased(&s.path, base.as_ref());
            let found: Vec<String> = if path.has_glob() {
                let found = repo.index.glob(&path);
                doubts.push(format!(
                    "`{}` is taken as the committed files it matches",
                    s.written
                ));
                found
            } else {
                match path.repo_path() {
                    Some(p) if repo.index.exists(&p) => vec![p],
                    Some(p) => {
                        doubts.push(format!(
                            "{p} is not in the repository (made at run time?) and is left out"
                        ));
                        continue;
                    }
                    None => {
                        doubts.push(format!(
                            "`{}` is known only at run time or outside the repository and is left out",
                            s.written
                        ));
                        continue;
                    }
                }
            };
            let into = exists || copy.sources.len() > 1 || found.len() > 1;
            if copy.by == "cp" && s.slash && !s.dot && into {
                doubts.push(format!(
                    "`cp` of `{}` copies the directory itself (GNU cp; BSD cp copies its contents)",
                    s.written
                ));
            }
            for p in found {
                let is_dir = repo.index.is_dir(&p);
                if is_dir && !copy.recursive {
                    continue;
                }
                let contents = is_dir && contents_of(&copy.by, s);
                let top = if contents || !into || copy.no_target_dir {
                    prefix.clone()
                } else {
                    paths::join(&prefix, last(&p))
                };
                // The path below the transfer's root that rsync's patterns see.
                let transfer = if contents {
                    String::new()
                } else {
                    last(&p).to_string()
                };
                if !sources.contains(&p) {
                    sources.push(p.clone());
                }
                let listed: Vec<(String, String)> = if is_dir {
                    repo.index
                        .files_under(&p)
                        .take(MAX_FILES + 1)
                        .map(|f| {
                            let rel = f.strip_prefix(&format!("{p}/")).unwrap_or(f);
                            (f.to_string(), rel.to_string())
                        })
                        .collect()
                } else {
                    vec![(p.clone(), String::new())]
                };
                for (file, rel) in listed {
                    // ytt reads these kinds of files of a folder, and leaves out the others.
                    if !YTT_KINDS.iter().any(|k| file.ends_with(k)) {
                        continue;
                    }
                    let seen = joined(&transfer, &rel);
                    if excludes.iter().any(|pat| excluded(pat, &seen)) {
                        continue;
                    }
                    let name = joined(&top, &rel);
                    if name == "." || name.is_empty() {
                        return None;
                    }
                    files.insert(name, file);
                    if files.len() > MAX_FILES {
                        return None;
                    }
                }
            }
        }
    }
    if files.is_empty() {
        return None;
    }
    // ytt's `name=path` syntax holds one `=`.
    if files
        .iter()
        .any(|(n, p)| n.contains('=') || p.contains('='))
    {
        return None;
    }
    for m in repo.made.iter().filter(|m| {
        m.file == origin.file
            && m.made.line <= origin.line
            && !LAYOUT_TOOLS.contains(&m.made.by.as_str())
    }) {
        let within = bases.iter().any(|b| {
            rebased(&m.made.path, Some(b))
                .literal()
                .is_some_and(|p| p == target_text || p.starts_with(&format!("{target_text}/")))
        });
        if within {
            doubts.push(format!(
                "what {} writes there at run time is not linted",
                m.described()
            ));
        }
    }
    let shown = target.repo_path().unwrap_or_else(|| target.to_string());
    by.dedup();
    doubts.dedup();
    let assumption = (!doubts.is_empty()).then(|| {
        Assumption::new(
            AssumptionKind::MissingInput,
            format!(
                "{shown} is the folder {} assemble(s) from {}, laid out as copied: {}",
                by.join(", "),
                sources.join(", "),
                doubts.join("; ")
            ),
        )
    });
    Some(Assembly {
        inputs: files.into_iter().map(|(n, p)| format!("{n}={p}")).collect(),
        label: format!("{shown} (copied from {})", sources.join(", ")),
        sources,
        assumption,
    })
}

/// Where a copy's destination lies in the folder `target`: the caller's directory it was
/// resolved from (for a destination written from it), and the path below `target` (empty for
/// `target` itself); `None` when it copies elsewhere.
fn placed(copy: &TreeCopy, target: &str, bases: &[Word]) -> Option<(Option<Word>, String)> {
    let candidates: Vec<Option<Word>> = if copy.dest.strip_prefix(CALLER).is_some() {
        bases.iter().cloned().map(Some).collect()
    } else {
        vec![None]
    };
    for base in candidates {
        let Some(dest) = rebased(&copy.dest, base.as_ref()).literal() else {
            continue;
        };
        if dest == target {
            return Some((base, String::new()));
        }
        if let Some(rest) = dest.strip_prefix(&format!("{target}/")) {
            return Some((base, rest.trim_end_matches('/').to_string()));
        }
    }
    None
}

/// `w` with the caller's directory replaced by `base`.
fn rebased(w: &Word, base: Option<&Word>) -> Word {
    match (w.strip_prefix(CALLER), base) {
        (Some(rest), Some(b)) => {
            let mut out = b.clone();
            out.extend(&rest);
            out.normalized()
        }
        _ => w.normalized(),
    }
}

/// Whether a copy's destination exists before it runs: written as a directory, in the
/// repository, or made by an earlier command of the snippet (`mkdir -p`, a copy into it).
fn dest_exists(
    copy: &TreeCopy,
    earlier: &[&TreeCopy],
    origin: &Origin,
    repo: &Repo,
    base: Option<&Word>,
) -> bool {
    let dest = rebased(&copy.dest, base);
    let same = |w: &Word| rebased(w, base) == dest;
    copy.dest_dir
        || dest.repo_path().is_some_and(|p| repo.index.exists(&p))
        || earlier.iter().any(|c| same(&c.dest))
        || repo.made.iter().any(|m| {
            m.file == origin.file
                && m.made.by == "mkdir"
                && m.made.line <= copy.line
                && same(&m.made.path)
        })
}

/// Whether the linter follows an rsync pattern: plain segments with `*` and `?`, anchored
/// with `/` or not, a trailing `/` for directories only.
fn modelled(pattern: &str) -> bool {
    let p = pattern.trim_start_matches('/').trim_end_matches('/');
    !p.is_empty()
        && !p.contains("**")
        && !p.contains(['[', '\\'])
        && !pattern.starts_with("+ ")
        && !pattern.starts_with("- ")
}

/// Whether rsync's `--exclude PATTERN` leaves out the file at `path` (below the transfer's
/// root): the file or a directory above it
/// matches. A pattern with a `/` before its end is matched against whole trailing segments of
/// the path, or the whole path when it starts with `/`; one without, the last segment.
fn excluded(pattern: &str, path: &str) -> bool {
    let dir_only = pattern.ends_with('/');
    let anchored = pattern.starts_with('/');
    let pat: Vec<&str> = pattern
        .trim_start_matches('/')
        .trim_end_matches('/')
        .split('/')
        .collect();
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    // Each directory above the file (when the transfer is a directory), then the file.
    (1..=segs.len()).any(|end| {
        // The last segment is a file: a pattern for directories does not match it.
        if end == segs.len() && dir_only {
            return false;
        }
        let here = &segs[..end];
        if anchored {
            here.len() == pat.len() && here.iter().zip(&pat).all(|(s, p)| segment(p, s))
        } else {
            here.len() >= pat.len()
                && here[here.len() - pat.len()..]
                    .iter()
                    .zip(&pat)
                    .all(|(s, p)| segment(p, s))
        }
    })
}

/// The last segment of a repository path.
fn last(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// `a/b`, where either may be empty.
fn joined(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}/{b}"),
    }
}

/// Whether one path segment matches a pattern segment of `*` and `?`.
fn segment(pattern: &str, seg: &str) -> bool {
    let re = super::index::glob_regex(pattern);
    super::compiled::regex(&format!("^{re}$")).is_some_and(|r| r.is_match(seg))
}

/// Whether a source directory is copied as its contents by `by`.
fn contents_of(by: &str, s: &Source) -> bool {
    s.dot || (by == "rsync" && s.slash)
}

#[cfg(test)]
mod tests {
    use super::super::index::Index;
    use super::super::word::REPO;
    use super::*;

    #[test]
    fn rsync_patterns_match_trailing_segments() {
        assert!(excluded("*/helm/", "qlever/helm/values.yaml"));
        assert!(excluded("*/helm/", "src/qlever/helm/values.yaml"));
        assert!(!excluded("*/helm/", "helm/values.yaml"));
        assert!(!excluded("*/helm/", "qlever/helm"));
        assert!(excluded("*.md", "gimie/README.md"));
        assert!(excluded("/gimie", "gimie/README.md"));
        assert!(!excluded("/gimie", "x/gimie/README.md"));
        assert!(modelled("*/helm/") && !modelled("**/x") && !modelled("[ab]"));
        let s = Source {
            path: Word::lit(format!("{REPO}/src")),
            written: "src/".into(),
            slash: true,
            dot: false,
        };
        assert!(contents_of("rsync", &s) && !contents_of("cp", &s));
    }

    #[test]
    fn a_folder_copied_together_is_laid_out_as_copied() {
        let index = Index::new([
            "external/_ytt_lib/greeter/cm.yml",
            "external/_ytt_lib/greeter/README.md",
            "src/main.yml",
            "src/chart/helm/values.yaml",
        ]);
        let copy = TreeCopy {
            line: 4,
            by: "rsync".into(),
            dest: Word::lit(format!("{REPO}/build/pre")),
            dest_dir: false,
            no_target_dir: false,
            sources: vec![
                Source {
                    path: Word::lit(format!("{REPO}/external/_ytt_lib")),
                    written: "./external/_ytt_lib".into(),
                    slash: false,
                    dot: false,
                },
                Source {
                    path: Word::lit(format!("{REPO}/src")),
                    written: "./src/".into(),
                    slash: true,
                    dot: false,
                },
            ],
            recursive: true,
            excludes: vec!["*/helm/".into(), "*.md".into()],
            unmodelled: Vec::new(),
        };
        let copies = [copy];
        let repo = Repo {
            copies: &copies,
            ..Repo::new(&index, &[], "r")
        };
        let origin = Origin {
            file: "justfile".into(),
            line: 5,
        };
        let target = Word::lit(format!("{REPO}/build/pre"));
        let a = layout(&target, &origin, &repo).unwrap();
        assert_eq!(
            a.inputs,
            [
                "_ytt_lib/greeter/cm.yml=external/_ytt_lib/greeter/cm.yml",
                "main.yml=src/main.yml"
            ]
        );
        assert!(a.assumption.is_none());
        // A command before the copy does not read it; another folder is not it.
        let before = Origin {
            file: "justfile".into(),
            line: 3,
        };
        assert!(layout(&target, &before, &repo).is_none());
        assert!(layout(&Word::lit(format!("{REPO}/out")), &origin, &repo).is_none());
        // The folder above it holds the copies one level down.
        let up = layout(&Word::lit(format!("{REPO}/build")), &origin, &repo).unwrap();
        assert_eq!(up.inputs[1], "pre/main.yml=src/main.yml");
    }
}
