//! Safe fixes are safe (issue 40): every fix `yttlint --fix` applies (the safe ones) is applied
//! to the fixtures, and every root renders the same bytes on standard output with the same exit
//! status before and after. Each fixture repository (the fixtures as one repository, and each
//! directory of them with its own `.yttlint.yaml`) is linted from a copy; its roots come from
//! `--list-roots` (their inputs and flags) and are rendered in their directory by `yttlint
//! template`, or, in the ignored variant, by the reference ytt named by `YTT_REFERENCE` (see
//! `difftest.rs`). Scenarios' values are not given: a root that needs them fails alike before
//! and after. The corpus gets the same comparison from `scripts/fix-safety.sh` (run by
//! `.ci/run`, where `../shared` is).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::util::temp::copy_tree;
use crate::util::{command, repo_root, yttlint, TempDir};

/// What renders a root: `yttlint template`, or a reference ytt.
#[derive(Clone)]
pub enum Renderer {
    Yttlint,
    Ytt(PathBuf),
}

/// One root as ytt is run on it: the directory it runs in and its arguments.
#[derive(Debug)]
pub struct RootCommand {
    pub name: String,
    dir: PathBuf,
    args: Vec<String>,
}

/// A render: the exit status and the bytes of standard output.
type Render = (i32, Vec<u8>);

impl Renderer {
    fn render(&self, root: &RootCommand) -> Render {
        let mut cmd = match self {
            Renderer::Yttlint => {
                let mut c = command(&root.dir);
                c.arg("template");
                c
            }
            Renderer::Ytt(ytt) => {
                let mut c = Command::new(ytt);
                c.current_dir(&root.dir);
                c
            }
        };
        let out = cmd
            .args(&root.args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot render {root:?}: {e}"));
        (out.status.code().unwrap_or(-1), out.stdout)
    }
}

/// `path` (repository-relative) as seen from the repository-relative directory `from`.
fn relative_to(from: &str, path: &str) -> String {
    if from == "." || from.is_empty() {
        return path.to_string();
    }
    if path == from {
        return ".".to_string();
    }
    if let Some(rest) = path.strip_prefix(&format!("{from}/")) {
        return rest.to_string();
    }
    let up = "../".repeat(from.split('/').count());
    format!("{up}{path}")
}

/// The roots `yttlint --list-roots` gives for the repository at `repo`, as ytt commands.
pub fn roots(repo: &Path) -> Vec<RootCommand> {
    let run = yttlint(repo, &["--list-roots", "--no-cache"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut out = Vec::new();
    for line in run.stdout.lines() {
        let Some((name, what)) = line.split_once('\t') else {
            continue;
        };
        if what.contains("checked on its own") || name.starts_with('(') {
            continue;
        }
        let part = |key: &str| {
            what.split("; ")
                .find_map(|p| p.strip_prefix(key))
                .map(str::to_string)
        };
        let inputs: Vec<String> = part("inputs: ")
            .map(|i| i.split(", ").map(str::to_string).collect())
            .unwrap_or_else(|| vec![name.to_string()]);
        let flags: Vec<String> = part("flags: ")
            .map(|f| f.split(' ').map(str::to_string).collect())
            .unwrap_or_default();
        // A root's name is its path, or a label of its inputs (`a.yaml + b.yaml`): then its
        // inputs are named from the repository.
        let (dir, from) = if repo.join(name).is_dir() {
            (repo.join(name), name.to_string())
        } else if !repo.join(name).is_file() {
            (repo.to_path_buf(), ".".to_string())
        } else {
            let parent = Path::new(name).parent().map_or(".".into(), |p| {
                let p = p.to_string_lossy().into_owned();
                if p.is_empty() {
                    ".".to_string()
                } else {
                    p
                }
            });
            (repo.join(&parent), parent)
        };
        let mut args = Vec::new();
        if !flags.iter().any(|f| f == "-f" || f.starts_with("--file")) {
            for i in &inputs {
                args.push("-f".to_string());
                args.push(relative_to(&from, i));
            }
        }
        args.extend(flags);
        out.push(RootCommand {
            name: name.to_string(),
            dir,
            args,
        });
    }
    out
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                if e.file_name() != ".yttlint-cache" {
                    todo.push(p);
                }
            } else if t.is_file() {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// What applying the fixes of `yttlint --fix FLAGS` to the repository at `repo` did: the files
/// it changed, and the roots whose render changed (`name: before -> after`).
pub struct Compared {
    pub files_changed: usize,
    pub roots: usize,
    pub differences: Vec<String>,
}

/// Renders every root of `repo`, runs `yttlint --fix` with `flags` there, renders again.
pub fn compare(repo: &Path, flags: &[&str], renderer: &Renderer) -> Compared {
    let roots = roots(repo);
    let before: Vec<Render> = roots.iter().map(|r| renderer.render(r)).collect();
    let files = snapshot(repo);
    let mut args = vec!["--fix", "--no-cache", "--quiet"];
    args.extend_from_slice(flags);
    let run = yttlint(repo, &args);
    assert!(run.code < 2, "yttlint --fix failed: {}", run.stderr);
    let after_files = snapshot(repo);
    let files_changed = after_files
        .iter()
        .filter(|(p, bytes)| files.get(*p) != Some(*bytes))
        .count();
    let mut differences = Vec::new();
    for (root, before) in roots.iter().zip(&before) {
        let after = renderer.render(root);
        if after != *before {
            differences.push(format!(
                "{}: exit status {} -> {}{}",
                root.name,
                before.0,
                after.0,
                if after.1 == before.1 {
                    ""
                } else {
                    ", output differs"
                }
            ));
        }
    }
    Compared {
        files_changed,
        roots: roots.len(),
        differences,
    }
}

/// The fixture repositories, in a fresh copy of `fixtures/`: the whole (what no nested
/// configuration claims) and each directory with its own `.yttlint.yaml`.
fn fixture_repositories(copy: &Path) -> Vec<PathBuf> {
    let mut out = vec![copy.to_path_buf()];
    let mut todo = vec![copy.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                let p = e.path();
                if p.join(".yttlint.yaml").is_file() {
                    out.push(p.clone());
                }
                todo.push(p);
            }
        }
    }
    out.sort();
    out
}

fn every_safe_fix_of_the_fixtures_keeps_the_render(renderer: &Renderer) {
    let dir = TempDir::new();
    let copy = dir.join("fixtures");
    copy_tree(&repo_root().join("fixtures"), &copy);
    let (mut changed, mut roots, mut differences) = (0, 0, Vec::new());
    for repo in fixture_repositories(&copy) {
        let c = compare(&repo, &[], renderer);
        changed += c.files_changed;
        roots += c.roots;
        let shown = repo.strip_prefix(&copy).unwrap().display().to_string();
        differences.extend(c.differences.iter().map(|d| format!("{shown}: {d}")));
    }
    eprintln!("{changed} files fixed; {roots} roots rendered before and after");
    assert!(
        differences.is_empty(),
        "safe fixes changed renders:\n{}",
        differences.join("\n")
    );
    assert!(
        changed >= 3,
        "only {changed} files were fixed: nothing compared"
    );
    assert!(roots >= 40, "only {roots} roots rendered");
}

#[test]
fn safe_fixes_keep_what_every_fixture_root_renders() {
    every_safe_fix_of_the_fixtures_keeps_the_render(&Renderer::Yttlint);
}

#[test]
#[ignore = "needs a reference ytt"]
fn safe_fixes_keep_what_the_reference_ytt_renders() {
    let ytt = std::env::var("YTT_REFERENCE").expect("YTT_REFERENCE names a ytt binary");
    every_safe_fix_of_the_fixtures_keeps_the_render(&Renderer::Ytt(PathBuf::from(ytt)));
}
