//! The imgpkg bundles the repository's commands push from its folders: `imgpkg push -b
//! IMAGE[:TAG] -f DIR` (in a script, a Makefile's recipe, a CI step or a README's block;
//! `--bundle`, `--file` and their `=` forms, any other flag such as `--lock-output`). A
//! Package that fetches that image (`spec.template.spec.fetch[].imgpkgBundle.image`, the same
//! repository at any tag or digest) renders the folder's files: its ytt paths are relative to
//! `DIR` (see `discover::package`).
//!
//! ```text
//! README.md   imgpkg push -b ghcr.io/me/app-bundle:${VERSION} -f bundle
//! repo/packages/app/1.0.0.yaml
//!             fetch: [{imgpkgBundle: {image: ghcr.io/me/app-bundle:1.0.0}}]
//!             template: [{ytt: {}}]          # renders bundle/
//! ```
//!
//! Only a push of one literal folder is read (several `-f` merge into one bundle, whose root
//! no single folder is), and only an image whose repository is written literally (the tag may
//! be a variable): anything else says nothing of where a Package's files are.

use super::env::Env;
use super::resolve::{caller_bases, rebase};
use super::shell::{follow, Context};
use super::snippet::CALLER;
use super::word::{Piece, Word, REPO};
use super::Calls;
use crate::lint::discover::invocations::index::Index;
use crate::lint::repo::walk::Kind;

/// One `imgpkg push -b` command, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Push {
    pub line: u32,
    /// The image repository it pushes to, without tag or digest.
    pub image: String,
    /// Its one `-f` argument.
    pub dir: Word,
    /// The working directory (`None`: unknown).
    pub cwd: Option<Word>,
}

/// A bundle pushed from a folder of the repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pushed {
    /// The image repository, without tag or digest.
    pub image: String,
    /// The repository folder pushed (`.` for the top).
    pub dir: String,
    /// Where the command is: `file:line`.
    pub origin: String,
}

/// The push of `imgpkg ARGS` at `line`, when it pushes a bundle to a known repository from
/// one path.
pub fn parse(line: u32, args: &[Word], env: &Env) -> Option<Push> {
    if args.first().and_then(Word::literal).as_deref() != Some("push") {
        return None;
    }
    let mut image = None;
    let mut files = Vec::new();
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        let Some(flag) = flag_of(a) else { continue };
        let value = match a.split_once('=') {
            Some((_, v)) if a.literal_prefix().starts_with("--") || flag.len() == 2 => Some(v),
            _ => it.next().cloned(),
        };
        match flag.as_str() {
            "-b" | "--bundle" => image = value,
            "-f" | "--file" => files.extend(value),
            _ => {}
        }
    }
    let [dir] = <[Word; 1]>::try_from(files).ok()?;
    Some(Push {
        line,
        image: repository(&image?)?,
        dir,
        cwd: env.cwd.clone(),
    })
}

/// The flag a word starts (`-b`, `--bundle`, from `--bundle=x` or `-b=x` too).
fn flag_of(w: &Word) -> Option<String> {
    let p = w.literal_prefix();
    if !p.starts_with('-') {
        return None;
    }
    Some(p.split('=').next().unwrap_or(p).to_string())
}

/// The repository of an image reference, without its tag or digest, when it is written
/// literally up to them: `ghcr.io/me/b:${VERSION}` is `ghcr.io/me/b`, `${REG}/b:1` is unknown.
pub fn repository(image: &Word) -> Option<String> {
    let (text, whole) = match image.literal() {
        Some(t) => (t, true),
        None => match image.0.first() {
            Some(Piece::Lit { text, .. }) => (text.clone(), false),
            _ => return None,
        },
    };
    let name = text.split('@').next().unwrap_or(&text);
    let last = name.rsplit('/').next().unwrap_or(name);
    let repo = match last.find(':') {
        Some(at) => &name[..name.len() - last.len() + at],
        // An untagged repository is known only when nothing follows it.
        None if whole && !text.contains('@') => name,
        None if text.contains('@') => name,
        None => return None,
    };
    (!repo.is_empty() && !repo.ends_with('/')).then(|| repo.to_string())
}

/// The bundles the commands of `texts` (repository path, kind, text) push from folders of
/// the repository, each file's commands followed as the shell runs them (its variables, `cd`s
/// and the scripts it runs); a page's blocks run from where the page says.
pub(super) fn all(texts: &[(String, Kind, String)], calls: Calls) -> Vec<Pushed> {
    let (set, index, ..) = calls;
    let pushes = |t: &str| t.contains("imgpkg") && t.contains("push");
    let mut out: Vec<Pushed> = Vec::new();
    for (path, kind, text) in texts.iter().filter(|(_, _, t)| pushes(t)) {
        for snippet in super::snippets_with(path, *kind, text, calls, &pushes, &pushes) {
            let script = Word::lit(format!("{REPO}/{}", snippet.file));
            let ctx = Context {
                script,
                line_offset: snippet.line_offset,
            };
            let Ok(f) = follow(&snippet.text, &ctx, snippet.env(), set, None) else {
                continue;
            };
            for p in f
                .pushes
                .iter()
                .filter_map(|p| resolve(p, &snippet.file, index))
            {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The repository folder `push` (found in `file`) pushes, when the index holds it as a folder.
pub fn resolve(push: &Push, file: &str, index: &Index) -> Option<Pushed> {
    let cwd = push.cwd.as_ref()?;
    let bases: Vec<Word> = if cwd.literal_prefix().starts_with(CALLER) {
        caller_bases(crate::files::paths::parent(file))
    } else {
        vec![Word::lit(REPO)]
    };
    bases.iter().find_map(|base| {
        let at = push.dir.relative_to(&rebase(cwd, base));
        let rel = at.repo_path()?;
        let rel = rel.trim_end_matches('/');
        let rel = if rel.is_empty() { "." } else { rel };
        index.is_dir(rel).then(|| Pushed {
            image: push.image.clone(),
            dir: rel.to_string(),
            origin: format!("{file}:{}", push.line),
        })
    })
}

/// The one folder pushed as `image` (a reference with any tag or digest): none when no
/// command pushes it, or commands push it from different folders.
pub fn pushed_as<'p>(pushed: &'p [Pushed], image: &str) -> Option<&'p Pushed> {
    let repo = repository(&Word::lit(image))?;
    let mut found = pushed.iter().filter(|p| p.image == repo);
    let first = found.next()?;
    found.all(|p| p.dir == first.dir).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(parts: &[(&str, bool)]) -> Word {
        let mut w = Word::default();
        for (t, known) in parts {
            match known {
                true => w.push_lit(t, false),
                false => w.0.push(Piece::Unknown(t.to_string())),
            }
        }
        w
    }

    fn at_top() -> Env {
        Env::at(Word::lit(REPO))
    }

    #[test]
    fn the_repository_is_the_reference_without_tag_or_digest() {
        let r = |parts: &[(&str, bool)]| repository(&word(parts));
        assert_eq!(
            r(&[("ghcr.io/me/b:", true), ("${VERSION}", false)]).as_deref(),
            Some("ghcr.io/me/b")
        );
        assert_eq!(
            r(&[("localhost:5000/me/b:1.0", true)]).as_deref(),
            Some("localhost:5000/me/b")
        );
        assert_eq!(
            r(&[("reg.io/b@sha256:00", true)]).as_deref(),
            Some("reg.io/b")
        );
        assert_eq!(r(&[("reg.io/b", true)]).as_deref(), Some("reg.io/b"));
        // The repository itself is not known.
        assert_eq!(r(&[("${REG}", false), ("/b:1", true)]), None);
        assert_eq!(r(&[("reg.io/", true), ("${NAME}", false)]), None);
    }

    #[test]
    fn a_push_of_one_folder_is_read_in_every_spelling() {
        let w = |s: &str| Word::lit(s);
        let p = parse(
            3,
            &[
                w("push"),
                w("-b"),
                word(&[("ghcr.io/me/b:", true), ("$V", false)]),
                w("-f"),
                w("bundle"),
                w("--lock-output"),
                w("lock.yml"),
            ],
            &at_top(),
        );
        let p = p.expect("read");
        assert_eq!(p.image, "ghcr.io/me/b");
        assert_eq!(p.dir, w("bundle"));
        let p = parse(
            1,
            &[w("push"), w("--bundle=reg.io/b:1"), w("--file=./pkg/")],
            &at_top(),
        )
        .expect("read");
        assert_eq!((p.image.as_str(), p.dir), ("reg.io/b", w("./pkg/")));
        // An image, not a bundle; two folders merged; another verb.
        assert_eq!(
            parse(
                1,
                &[w("push"), w("-i"), w("r/i:1"), w("-f"), w("d")],
                &at_top()
            ),
            None
        );
        let two = [
            w("push"),
            w("-b"),
            w("r/b:1"),
            w("-f"),
            w("a"),
            w("-f"),
            w("b"),
        ];
        assert_eq!(parse(1, &two, &at_top()), None);
        assert_eq!(
            parse(
                1,
                &[w("pull"), w("-b"), w("r/b:1"), w("-o"), w("d")],
                &at_top()
            ),
            None
        );
    }

    #[test]
    fn the_folder_is_resolved_from_the_working_directory_and_must_exist() {
        let index = Index::new(["bundle/config/a.yml", "pkg/b/x.yml"]);
        let push = |dir: &str, cwd: &str| Push {
            line: 2,
            image: "r/b".into(),
            dir: Word::lit(dir),
            cwd: Some(Word::lit(cwd)),
        };
        let top = REPO.to_string();
        let got = resolve(&push("bundle", &top), "README.md", &index).expect("found");
        assert_eq!(
            (got.dir.as_str(), got.origin.as_str()),
            ("bundle", "README.md:2")
        );
        let inside = format!("{REPO}/pkg");
        assert_eq!(
            resolve(&push("./b/", &inside), "s.sh", &index).map(|p| p.dir),
            Some("pkg/b".to_string())
        );
        assert_eq!(resolve(&push("nothere", &top), "s.sh", &index), None);
        assert_eq!(
            resolve(&push("bundle/config/a.yml", &top), "s.sh", &index),
            None
        );
    }

    #[test]
    fn an_image_pushed_from_two_folders_names_neither() {
        let p = |dir: &str| Pushed {
            image: "r/b".into(),
            dir: dir.into(),
            origin: "s.sh:1".into(),
        };
        let one = [p("bundle"), p("bundle")];
        assert_eq!(
            pushed_as(&one, "r/b:0.0.2").map(|p| p.dir.as_str()),
            Some("bundle")
        );
        assert_eq!(pushed_as(&one, "r/other:1"), None);
        assert_eq!(pushed_as(&[p("a"), p("b")], "r/b@sha256:1"), None);
    }
}
