//! Whether a command of the repository writes a given repository path (a redirection `>
//! config/values.yml`, a `cp`, a tool's `--output`; see [`super::outputs`]): asked of a file
//! the repository ignores, which is made at run time only if some step makes it (round
//! fifty-one's N51-3: the stock `pip-log.txt` line of a Python `.gitignore` is no step).
//!
//! Only the files worth reading for commands (scripts, Makefiles, CI files, READMEs...) that
//! name the path's file name are read and followed, as the shell runs them.

use std::path::Path;

use super::index::Index;
use super::resolve::{caller_bases, rebase};
use super::script_set::ScriptSet;
use super::shell::{follow, Context, MAX_SCRIPT};
use super::snippet::CALLER;
use super::word::{Word, REPO};
use super::{action_calls, reusable, scripts, snippets_with, worth_reading};
use crate::files::paths;
use crate::lint::repo::walk::RepoFile;

/// Where (`file:line`) a command of the repository at `repo` (whose files are `files`)
/// writes the repository path `path`, if one does.
pub fn writer(repo: &Path, files: &[RepoFile], index: &Index, path: &str) -> Option<String> {
    let name = path.rsplit('/').next().filter(|n| !n.is_empty())?;
    let texts: Vec<_> = files
        .iter()
        .filter(|f| worth_reading(&f.path, f.kind))
        .filter_map(|f| {
            let text = scripts::read(repo, &f.path, MAX_SCRIPT)?;
            text.contains(name).then(|| (f.path.clone(), f.kind, text))
        })
        .collect();
    let set = ScriptSet::new(
        texts
            .iter()
            .filter(|(p, _, t)| scripts::is_script(p, t))
            .map(|(p, _, t)| (p.clone(), t.clone())),
    );
    let callers = reusable::callers(&texts);
    let actions = action_calls::calls(&texts);
    let names = |t: &str| t.contains(name);
    for (file, kind, text) in &texts {
        let calls = (&set, index, &callers[..], &actions[..]);
        for snippet in snippets_with(file, *kind, text, calls, &names, &names) {
            let ctx = Context {
                script: Word::lit(format!("{REPO}/{}", snippet.file)),
                line_offset: snippet.line_offset,
            };
            let Ok(f) = follow(&snippet.text, &ctx, snippet.env(), &set, None) else {
                continue;
            };
            let writes = |w: &Word| made_at(w, &snippet.file).iter().any(|p| p == path);
            if let Some(m) = f.made.iter().find(|m| writes(&m.path)) {
                return Some(format!("{}:{}", snippet.file, m.line));
            }
        }
    }
    None
}

/// The repository paths a made path word of a command in `file` may name: one, or (run from
/// its caller's folder, unknown) each folder from the file's own up to the top.
fn made_at(w: &Word, file: &str) -> Vec<String> {
    match w.strip_prefix(CALLER) {
        Some(_) => caller_bases(paths::parent(file))
            .iter()
            .filter_map(|base| rebase(w, base).repo_path())
            .collect(),
        None => w.repo_path().into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_made_from_the_caller_s_folder_is_any_folder_above_the_file() {
        let w = Word::lit(format!("{CALLER}/config/values.yml"));
        assert_eq!(
            made_at(&w, "pkg/hack/gen.sh"),
            [
                "config/values.yml",
                "pkg/hack/config/values.yml",
                "pkg/config/values.yml"
            ]
        );
        let w = Word::lit(format!("{REPO}/pkg/./config/values.yml"));
        assert_eq!(made_at(&w, "Makefile"), ["pkg/config/values.yml"]);
    }
}
