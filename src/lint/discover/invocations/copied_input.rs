//! A `-f` file an earlier copy of the same script put where the command reads it (round
//! forty-seven's N47-2: `cp config.yml app.tmpl.yml "${DEST}"/`, then `cd "${DEST}" && ytt -f
//! config.yml -f app.tmpl.yml`). The folder is made at run time, but what ytt reads there is
//! the copied repository file, by the name the copy gives it: the command reads the source
//! (which, when it is not committed either, is judged as any absent input: the user's copy of
//! a committed example, ...). A folder a recursive copy fills is [`super::assembled`]'s.
//!
//! Only an input in the folder the command runs in, that the command would otherwise be
//! skipped for, is traced (what
//! [`super::missing`] stands in for, a copy a later step edits, stays as it is), and only a
//! copy whose destination is certainly a directory (written with a trailing `/`,
//! `-t DIR`, several sources, a directory of the repository or one an earlier `mkdir` of
//! the script made) is read as copying into it; `cp a.yml b.yml` names the copy itself.

use super::index::Binding;
use super::missing::{self, Absent, Given};
use super::resolve::{caller_bases, substitute, Origin, Repo};
use super::snippet::CALLER;
use super::tree_copy::TreeCopy;
use super::word::Word;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// [`traced`], only for a file of the folder the command runs in, where nothing else stands in
/// for it (a committed file a later step edits, `edited_copy.rs`) and the command would be
/// skipped for reading what is made at run time.
pub fn instead_of_skip(
    name: &str,
    path: &Word,
    cwd: &Word,
    b: &Binding,
    origin: &Origin,
    repo: &Repo,
) -> Option<(String, Word, Option<Assumption>)> {
    let full = substitute(&path.relative_to(cwd), b).normalized();
    let target = full.repo_path().filter(|p| !repo.index.exists(p))?;
    // The command runs in the folder the copies fill (`cd "$DEST" && ytt -f config.yml`, a
    // container's working directory mounted from it): a path into such a folder from
    // elsewhere is left to the layout of the folder's own readers.
    let here = substitute(cwd, b).normalized().repo_path();
    if here.as_deref() != Some(paths::parent(&target)) {
        return None;
    }
    let judged = missing::judge(&full, &path.to_string(), Given::File, &[], repo, false);
    if !matches!(judged, Absent::Skip(_)) {
        return None;
    }
    copied_to(name, &target, b, origin, repo)
}

/// The input `name` + `path` of the command at `origin` (run from `cwd`) as the repository
/// file an earlier copy put there: its `name=` and its path (the name kept as the copy names
/// the file when the copy renames it); `None` when the input is in the repository or no copy
/// made it. A copy written after the command's line (the command in a function the script
/// calls after the copy) is taken too, under an assumption that says so.
pub fn traced(
    name: &str,
    path: &Word,
    cwd: &Word,
    b: &Binding,
    origin: &Origin,
    repo: &Repo,
) -> Option<(String, Word, Option<Assumption>)> {
    let full = substitute(&path.relative_to(cwd), b).normalized();
    let target = full.repo_path().filter(|p| !repo.index.exists(p))?;
    copied_to(name, &target, b, origin, repo)
}

/// [`traced`] for the repository path `target` the input resolves to, which no committed file
/// holds.
fn copied_to(
    name: &str,
    target: &str,
    b: &Binding,
    origin: &Origin,
    repo: &Repo,
) -> Option<(String, Word, Option<Assumption>)> {
    let before = |c: &TreeCopy| c.line <= origin.line;
    let (source, assumed) = match source(target, b, origin, repo, &before) {
        Some((s, _)) => (s, None),
        None => {
            let (s, line) = source(target, b, origin, repo, &|c: &TreeCopy| !before(c))?;
            let a = Assumption::new(
                AssumptionKind::MissingInput,
                format!(
                    "{target} is taken as the copy of {s} that {}:{line} makes, a line after the command's (its function called after the copy)",
                    origin.file
                ),
            );
            (s, Some(a))
        }
    };
    let renamed = paths_name(&source) != paths_name(target);
    let name = if name.is_empty() && renamed {
        format!("{}=", paths_name(target))
    } else {
        name.to_string()
    };
    Some((
        name,
        Word::lit(format!("{}/{source}", super::word::REPO)),
        assumed,
    ))
}

/// The repository path of the file copied to `target` by the last copy `taken` says may
/// have run before the command at `origin` (and that copy's line), the
/// values known at run time that the command's paths were bound to (`b`) bound alike, and a
/// copy written from the caller's directory (a script's own) tried from each directory it
/// may be started from.
fn source(
    target: &str,
    b: &Binding,
    origin: &Origin,
    repo: &Repo,
    taken: &dyn Fn(&TreeCopy) -> bool,
) -> Option<(String, u32)> {
    let bases = caller_bases(paths::parent(&origin.file));
    let copies: Vec<&TreeCopy> = repo
        .copies
        .iter()
        .filter(|c| taken(c) && c.by != "rsync")
        .collect();
    for (k, copy) in copies.iter().enumerate().rev() {
        let mut tried: Vec<Option<&Word>> = vec![None];
        if copy.dest.strip_prefix(CALLER).is_some() {
            tried = bases.iter().map(Some).collect();
        }
        for base in tried {
            let at = |w: &Word| rebased(w, b, base);
            let Some(dest) = at(&copy.dest) else {
                continue;
            };
            let into = copy.dest_dir
                || copy.sources.len() > 1
                || repo.index.is_dir(&dest)
                || made_dir(&dest, copy, &copies[..k], (b, base, origin), repo);
            for s in &copy.sources {
                let Some(from) = at(&s.path) else {
                    continue;
                };
                if s.path.has_glob() {
                    continue;
                }
                let lands = if into {
                    paths::join(&dest, paths_name(&from))
                } else {
                    dest.clone()
                };
                if lands == target && !repo.index.is_dir(&from) {
                    return Some((from, copy.line));
                }
            }
            // A later copy to the same path made it; an earlier one is overwritten.
            if !into && dest == target {
                return None;
            }
        }
    }
    None
}

/// The repository path a copy's word names: its run-time values bound by `b`, the caller's
/// directory replaced by `base`.
fn rebased(w: &Word, b: &Binding, base: Option<&Word>) -> Option<String> {
    let w = substitute(w, b);
    let w = match (w.strip_prefix(CALLER), base) {
        (Some(rest), Some(base)) => {
            let mut out = base.clone();
            out.extend(&rest);
            out
        }
        _ => w,
    };
    w.normalized().repo_path()
}

/// Whether an earlier `mkdir` of the script, or an earlier copy into it, made `dest`.
fn made_dir(
    dest: &str,
    copy: &TreeCopy,
    earlier: &[&TreeCopy],
    (b, base, origin): (&Binding, Option<&Word>, &Origin),
    repo: &Repo,
) -> bool {
    let same = |w: &Word| rebased(w, b, base).as_deref() == Some(dest);
    earlier
        .iter()
        .any(|c| same(&c.dest) && (c.dest_dir || c.sources.len() > 1))
        || repo.made.iter().any(|m| {
            m.file == origin.file
                && m.made.by == "mkdir"
                && m.made.line <= copy.line
                && same(&m.made.path)
        })
}

/// The last segment of a path.
fn paths_name(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::super::index::Index;
    use super::super::tree_copy::Source;
    use super::super::word::REPO;
    use super::*;

    fn repo_word(p: &str) -> Word {
        Word::lit(format!("{REPO}/{p}"))
    }

    fn copy(line: u32, sources: &[&str], dest: &str, dest_dir: bool) -> TreeCopy {
        TreeCopy {
            line,
            by: "cp".into(),
            dest: repo_word(dest),
            dest_dir,
            no_target_dir: false,
            sources: sources
                .iter()
                .map(|s| Source {
                    path: repo_word(s),
                    written: (*s).to_string(),
                    slash: false,
                    dot: false,
                })
                .collect(),
            recursive: false,
            excludes: Vec::new(),
            unmodelled: Vec::new(),
        }
    }

    fn traced_at(line: u32, input: &str, cwd: &str, repo: &Repo) -> Option<(String, String)> {
        let origin = Origin {
            file: "init.sh".into(),
            line,
        };
        traced(
            "",
            &Word::lit(input),
            &repo_word(cwd),
            &Binding::default(),
            &origin,
            repo,
        )
        .map(|(n, w, _)| (n, w.to_string()))
    }

    #[test]
    fn a_file_copied_into_a_folder_is_its_source() {
        let index = Index::new(["app.tmpl.yml", "config.yml.sample", "init.sh"]);
        let copies = [
            copy(5, &["config.yml", "app.tmpl.yml"], "dest", false),
            copy(6, &["app.tmpl.yml"], "out/renamed.yml", false),
        ];
        let repo = Repo {
            copies: &copies,
            ..Repo::new(&index, &[], "r")
        };
        assert_eq!(
            traced_at(7, "app.tmpl.yml", "dest", &repo),
            Some((String::new(), "app.tmpl.yml".into()))
        );
        // Not committed either: the source, for the absent input's judge.
        assert_eq!(
            traced_at(7, "config.yml", "dest", &repo),
            Some((String::new(), "config.yml".into()))
        );
        // A copy that renames the file keeps the name it gives.
        assert_eq!(
            traced_at(7, "out/renamed.yml", ".", &repo),
            Some(("renamed.yml=".into(), "app.tmpl.yml".into()))
        );
        // Before the copy (a function called after it): taken under an assumption.
        let origin = Origin {
            file: "init.sh".into(),
            line: 3,
        };
        let (_, w, a) = traced(
            "",
            &Word::lit("app.tmpl.yml"),
            &repo_word("dest"),
            &Binding::default(),
            &origin,
            &repo,
        )
        .unwrap();
        assert_eq!(w.to_string(), "app.tmpl.yml");
        assert!(a.unwrap().message.contains("init.sh:5 makes"));
        // A file no copy put there: nothing.
        assert_eq!(traced_at(7, "other.yml", "dest", &repo), None);
        // A committed input is the repository's.
        assert_eq!(traced_at(7, "app.tmpl.yml", ".", &repo), None);
    }

    #[test]
    fn a_script_s_copies_from_its_caller_s_directory_are_placed_as_its_command() {
        let index = Index::new(["app.tmpl.yml", "init.sh"]);
        let caller = |p: &str| Word::lit(format!("{CALLER}/{p}"));
        let mut c = copy(4, &[], "x", true);
        c.dest = caller("dest");
        c.sources = vec![Source {
            path: caller("app.tmpl.yml"),
            written: "app.tmpl.yml".into(),
            slash: false,
            dot: false,
        }];
        let copies = [c];
        let repo = Repo {
            copies: &copies,
            ..Repo::new(&index, &[], "r")
        };
        assert_eq!(
            traced_at(5, "app.tmpl.yml", "dest", &repo),
            Some((String::new(), "app.tmpl.yml".into()))
        );
    }

    #[test]
    fn one_source_lands_in_a_folder_only_when_it_is_one() {
        let index = Index::new(["app.yml"]);
        // `cp app.yml dest`: `dest` is the copy, not a folder.
        let copies = [copy(2, &["app.yml"], "dest", false)];
        let repo = Repo {
            copies: &copies,
            ..Repo::new(&index, &[], "r")
        };
        assert_eq!(traced_at(3, "app.yml", "dest", &repo), None);
        // Written `dest/`: a folder.
        let copies = [copy(2, &["app.yml"], "dest", true)];
        let repo = Repo {
            copies: &copies,
            ..Repo::new(&index, &[], "r")
        };
        assert_eq!(
            traced_at(3, "app.yml", "dest", &repo),
            Some((String::new(), "app.yml".into()))
        );
    }
}
