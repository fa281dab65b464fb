//! Whether a script deploys, after a `ytt --output-files DIR` (or
//! `--dangerous-emptied-output-directory DIR`) command, the directory it wrote as one: a
//! later `kapp deploy -f DIR` or `kubectl apply -f DIR` of the same script (or of a part of
//! it, `DIR/step-1`, or of a directory above it that the tool reads through). Only then do
//! the objects of the command's different output files meet in one stream (round
//! seventeen's R17B-1: a folder of variants, each rendered into its own file and compared
//! with `diff`, never deployed together). See [`OutputDeploy`] for what is recorded.

use super::index::Index;
use super::shell::{Call, Deploy};
use super::word::Word;
use super::ytt_args::{self, Command};
use crate::files::paths;
use crate::lint::config::output_deploy::OutputDeploy;

/// At most this many deploying commands are looked at per command (hostile scripts).
const MAX_DEPLOYS: usize = 64;

/// The first later command of `deploys` (the script `file`'s) that deploys what `call`
/// writes to its output directory, as the repository directories of its `inputs` whose
/// outputs it deploys.
pub fn find(
    call: &Call,
    deploys: &[Deploy],
    file: &str,
    inputs: &[String],
    index: &Index,
) -> Option<OutputDeploy> {
    let Command::Render(args) = ytt_args::parse(&call.args) else {
        return None;
    };
    let out = shown(args.output_dir.as_ref()?, call.cwd.as_ref());
    for d in deploys
        .iter()
        .filter(|d| d.line >= call.line)
        .take(MAX_DEPLOYS)
    {
        for p in &d.paths {
            let (path, flat) = without_glob(&shown(p, d.cwd.as_ref()));
            let recursive = d.recursive && !flat;
            let Some(sub) = part(&out, &path, recursive) else {
                continue;
            };
            let dirs = covered(inputs, &sub, index);
            if !dirs.is_empty() {
                return Some(OutputDeploy {
                    file: file.to_string(),
                    line: d.line,
                    tool: d.tool.clone(),
                    dirs,
                    recursive,
                });
            }
        }
    }
    None
}

/// A path as written, made from `cwd` and normalised (`out/` and `./out` are `out`).
fn shown(word: &Word, cwd: Option<&Word>) -> String {
    let at = match cwd {
        Some(c) => word.relative_to(c),
        None => word.normalized(),
    };
    at.to_string().trim_end_matches('/').to_string()
}

/// A deployed path without a last segment that is a glob of files (`out/*`, `out/*.yaml`):
/// the directory, and whether only its own files are meant.
fn without_glob(path: &str) -> (String, bool) {
    match path.rsplit_once('/') {
        Some((dir, last)) if last.starts_with('*') && !last.contains('/') => {
            (dir.to_string(), true)
        }
        _ => (path.to_string(), false),
    }
}

/// The part of the output directory `out` that deploying `path` reads: `""` for all of it,
/// `step-1` for `out/step-1`; `None` when it reads none of it.
fn part(out: &str, path: &str, recursive: bool) -> Option<String> {
    if path == out {
        return Some(String::new());
    }
    if let Some(rest) = path.strip_prefix(out).and_then(|r| r.strip_prefix('/')) {
        return Some(rest.to_string());
    }
    let above = path == "." || out.strip_prefix(path).is_some_and(|r| r.starts_with('/'));
    (above && recursive).then(String::new)
}

/// The repository directories of `inputs` whose files' outputs lie in the output
/// directory's part `sub`: a directory input's `sub` folder, a file input's own folder (its
/// output is named by its base name, at the top).
fn covered(inputs: &[String], sub: &str, index: &Index) -> Vec<String> {
    let mut dirs = Vec::new();
    for input in inputs {
        let path = crate::files::input::path_of(input);
        let dir = if index.is_dir(path) {
            if sub.is_empty() {
                path.to_string()
            } else {
                paths::join(path, sub)
            }
        } else if sub.is_empty() && index.is_file(path) {
            paths::parent(path).to_string()
        } else {
            continue;
        };
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(text: &str, line: u32) -> Call {
        let words: Vec<Word> = text.split_whitespace().map(Word::lit).collect();
        Call::new(line, words, Some(Word::lit(".")))
    }

    fn deploy(tool: &str, path: &str, line: u32, recursive: bool) -> Deploy {
        Deploy {
            line,
            tool: tool.into(),
            paths: vec![Word::lit(path)],
            cwd: Some(Word::lit(".")),
            recursive,
        }
    }

    #[test]
    fn finds_a_later_deploy_of_the_directory_or_of_a_part() {
        let index = Index::new(["templates/step-1/a.yml", "templates/step-2/b.yml"]);
        let inputs = vec!["templates".to_string()];
        let c = call("-f templates --output-files out/", 3);
        let all = find(
            &c,
            &[deploy("kapp deploy", "./out", 4, true)],
            "r.sh",
            &inputs,
            &index,
        );
        let all = all.expect("deployed");
        assert_eq!(
            (all.dirs.clone(), all.recursive, all.line),
            (vec!["templates".to_string()], true, 4)
        );
        let one = find(
            &c,
            &[deploy("kubectl apply", "out/step-1/", 5, false)],
            "r.sh",
            &inputs,
            &index,
        );
        assert_eq!(
            one.map(|d| d.dirs),
            Some(vec!["templates/step-1".to_string()])
        );
        // Before the command, of another directory, or above it without recursion: not it.
        let not_it = [
            deploy("kapp deploy", "out", 2, true),
            deploy("kapp deploy", "outer", 4, true),
            deploy("kubectl apply", ".", 4, false),
        ];
        for d in not_it {
            assert!(find(&c, &[d], "r.sh", &inputs, &index).is_none());
        }
        let glob = find(
            &c,
            &[deploy("kapp deploy", "out/*", 4, true)],
            "r.sh",
            &inputs,
            &index,
        );
        assert_eq!(glob.map(|d| d.recursive), Some(false));
    }

    #[test]
    fn a_command_without_an_output_directory_has_none() {
        let index = Index::new(["config/a.yml"]);
        let c = call("-f config", 1);
        let d = [deploy("kapp deploy", "config", 2, true)];
        assert!(find(&c, &d, "r.sh", &["config".to_string()], &index).is_none());
    }
}
