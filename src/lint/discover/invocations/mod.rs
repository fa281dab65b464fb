//! How the repository runs ytt: every `ytt` command in its shell scripts, Makefiles, GitHub
//! workflows, GitLab CI files, Taskfiles, kuttl tests, Concourse tasks and READMEs, followed without
//! running anything (see [`shell`]) and resolved into what the linter can evaluate (see
//! [`resolve`]), or skipped with a reason.

pub mod ci;
pub mod commands;
pub mod concourse;
pub mod educates;
pub mod env;
pub mod expand;
pub mod flow;
pub mod index;
pub mod instance;
pub mod kuttl;
pub mod links;
pub mod make;
pub mod readme;
pub mod resolve;
pub mod script_set;
pub mod scripts;
pub mod shell;
pub mod snippet;
pub mod taskfile;
pub mod word;
pub mod ytt_args;

use std::collections::BTreeSet;
use std::path::Path;

use self::index::Index;
use self::resolve::{Invocation, Outcome, Repo, Skipped};
use self::script_set::ScriptSet;
use self::shell::{Call, Entered};
use self::snippet::Snippet;
use super::vendir::Target;
use crate::files::paths;
use crate::lint::repo::walk::{Kind, RepoFile};

/// What the repository's own ways of running ytt give.
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub invocations: Vec<Invocation>,
    pub skipped: Vec<Skipped>,
    /// Files that hold at least one `ytt` command.
    pub sources: Vec<String>,
    /// Repository paths deployed as they are (`kapp deploy -f config/`), with the command
    /// (`kapp deploy at deploy.sh:4`).
    pub deployed: Vec<(String, String)>,
}

/// The snippets of one file, by what it is.
fn snippets_of(path: &str, kind: Kind, text: &str, set: &ScriptSet, index: &Index) -> Vec<Snippet> {
    // Text that runs ytt, or deploys files as they are (which says they are no ytt input).
    let wanted = |t: &str| set.mentioned_in(t) || deploys_files(t);
    if !wanted(text) {
        return Vec::new();
    }
    if ci::is_workflow(path) {
        return ci::workflow(path, text, &wanted);
    }
    if ci::is_action(path) {
        return ci::action(path, text, &wanted);
    }
    if ci::is_gitlab(path) {
        return ci::gitlab(path, text, &wanted);
    }
    if make::candidate(path) {
        return make::snippets(path, text, &wanted);
    }
    if taskfile::candidate(path) {
        return taskfile::snippets(path, text);
    }
    if readme::candidate(path) {
        // Only the ytt commands a README shows: the scripts it names run on their own.
        return readme::snippets(path, text, &|t| t.contains("ytt") && set.mentioned_in(t));
    }
    if educates::candidate(path) {
        let exercises = paths::join(educates::workshop_dir(path), "exercises");
        return educates::snippets(path, text, index.is_dir(&exercises), &|t| {
            t.contains("ytt") && set.mentioned_in(t)
        });
    }
    if kind == Kind::PlainYaml {
        let mut out = Vec::new();
        if kuttl::candidate(text) {
            out.extend(kuttl::snippets(path, text));
        }
        if concourse::candidate(text) {
            out.extend(concourse::snippets(path, text));
        }
        return out;
    }
    scripts::snippet(path, text).into_iter().collect()
}

/// Whether text may deploy files without ytt (`kapp deploy`, `kubectl apply`).
fn deploys_files(text: &str) -> bool {
    text.contains("kapp deploy")
        || text.contains("kubectl apply")
        || text.contains("kubectl create")
}

/// Whether a walked file (repository path and kind) may hold ytt commands.
pub fn worth_reading(path: &str, kind: Kind) -> bool {
    if ci::is_workflow(path) || ci::is_action(path) || ci::is_gitlab(path) {
        return true;
    }
    match kind {
        Kind::PlainYaml => true,
        Kind::Other => {
            scripts::candidate(path)
                || make::candidate(path)
                || readme::candidate(path)
                || educates::candidate(path)
        }
        _ => false,
    }
}

/// Every `ytt` command of the repository at `repo`, resolved.
pub fn find(repo: &Path, files: &[RepoFile], index: &Index, vendir: &[Target]) -> Found {
    let name = repo
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    let texts: Vec<(String, Kind, String)> = files
        .iter()
        .filter(|f| worth_reading(&f.path, f.kind))
        .filter_map(|f| {
            let text = scripts::read(repo, &f.path, shell::MAX_SCRIPT)?;
            Some((f.path.clone(), f.kind, text))
        })
        .collect();
    // A Makefile or script linked from elsewhere runs where its link is.
    let mut texts = texts;
    for (link, target) in links::linked_commands(repo, files, index) {
        if let Some(text) = scripts::read(repo, &target, shell::MAX_SCRIPT) {
            texts.push((link, Kind::Other, text));
        }
    }
    find_in(&name, &texts, index, vendir)
}

/// Every `ytt` command of the files `texts` (repository path, kind, text: the files worth
/// reading, as [`find`] read them) of the repository named `name`, resolved against `index`.
pub fn find_in(
    name: &str,
    texts: &[(String, Kind, String)],
    index: &Index,
    vendir: &[Target],
) -> Found {
    let ctx = Repo {
        index,
        vendir,
        name,
    };
    let set = ScriptSet::new(
        texts
            .iter()
            .filter(|(p, _, t)| scripts::is_script(p, t))
            .map(|(p, _, t)| (p.clone(), t.clone())),
    );
    let mut followed: Vec<(Snippet, Vec<Call>)> = Vec::new();
    let mut deployed: Vec<(String, String)> = Vec::new();
    let mut entered: BTreeSet<Entered> = BTreeSet::new();
    for (path, kind, text) in texts {
        for snippet in snippets_of(path, *kind, text, &set, index) {
            let script = word::Word::lit(format!("{}/{}", word::REPO, snippet.file));
            let sctx = shell::Context {
                script,
                line_offset: snippet.line_offset,
            };
            let Ok(f) = shell::follow(&snippet.text, &sctx, snippet.env(), &set, None) else {
                continue;
            };
            entered.extend(f.entered.into_iter().filter(|e| entered_file(e) != path));
            for d in &f.deploys {
                for p in resolve::deployed(d, &snippet, index) {
                    deployed.push((p, format!("`{}` at {}:{}", d.tool, snippet.file, d.line)));
                }
            }
            followed.push((snippet, f.calls));
        }
    }
    let mut found = Found {
        deployed,
        ..Found::default()
    };
    for (snippet, calls) in followed {
        let path = &snippet.file;
        let whole = set.get(path).is_some();
        let mut any = false;
        let prefer = resolve::preferred_base(&calls, &snippet, &ctx);
        for call in &calls {
            // A script or function another file runs takes its arguments from there: what it
            // runs on its own with arguments nobody gave is not a root.
            let elsewhere = match &call.uncalled {
                Some(name) => entered.contains(&Entered::Function {
                    file: path.clone(),
                    name: name.clone(),
                }),
                None => {
                    whole
                        && call.uses_arguments()
                        && entered.contains(&Entered::Script(path.clone()))
                }
            };
            any = true;
            if elsewhere {
                continue;
            }
            for outcome in resolve::resolve_from(call, &snippet, &ctx, prefer.as_ref()) {
                match outcome {
                    Outcome::Found(inv) => found.invocations.push(inv),
                    Outcome::Skipped(s) => found.skipped.push(s),
                    Outcome::Ignored => {}
                }
            }
        }
        if any && found.sources.last() != Some(path) {
            found.sources.push(path.clone());
        }
    }
    found.invocations.dedup();
    found.skipped.dedup();
    found
}

/// The file an entry of [`Entered`] names.
fn entered_file(e: &Entered) -> &str {
    match e {
        Entered::Script(f) | Entered::Function { file: f, .. } => f,
    }
}
