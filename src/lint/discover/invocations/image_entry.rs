//! Scripts a container image runs: a Dockerfile `COPY`s templates (or one file) of the
//! repository to an image path (`COPY templates /opt/greeter/templates`) and a script it also
//! copies (its `CMD`, or one that script runs) renders them there (`ytt -f
//! /opt/greeter/templates/`), rounds forty-five's R45-1 and N45-1. The script's absolute paths
//! under a copy's destination are the repository's files the copy took, so its command renders
//! those files: each such path (an argument, the working directory, a file the script writes
//! there) is mapped back to the repository path, when what it names exists there (a file the
//! script writes into a copied folder, its parent). A here-document of data values the script
//! writes into a folder its command renders before the command is given as those values,
//! their `$VAR`s given at run time (see `learned.rs`).
//!
//! What the linter takes from the Dockerfile: the build context is the Dockerfile's own
//! folder (else the repository's top, when the source exists only there); a relative
//! destination is under the stage's `WORKDIR`, unknown without one; a copy from another stage
//! (`--from`), of a URL, a glob or a variable gives nothing. Each stage (`FROM`) is an image
//! of its own: a script maps only the copies of a stage that copies it.
//!
//! An Educates workshop session is such an image too: it holds the repository's `workshop/`
//! folder at `/opt/workshop`, where the instructions' commands find it (round fifty's N50-3).

use super::index::Index;
use super::made::MadeAt;
use super::missing;
use super::resolve::Invocation;
use super::shell::Call;
use super::word::{Piece, Word, REPO};
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// The most stages read from all Dockerfiles of a repository.
const MAX_STAGES: usize = 256;

/// One copy of a stage: the absolute image path and the repository path it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Copy {
    image: String,
    repo: String,
    dir: bool,
}

/// One stage of a Dockerfile, or one container a `docker run` starts: where it is and what
/// it holds of the repository.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// The Dockerfile and the line (from 1) of the stage's `FROM`, or the `docker run`.
    origin: String,
    copies: Vec<Copy>,
    /// What mapping its paths assumes (the directory a `docker run` mounts from).
    assumed: Option<Assumption>,
    /// Scripts it runs that it holds no copy of, and the absolute folder they run from,
    /// against which their relative paths are mapped (a Katacoda session's, `katacoda.rs`).
    runs: Vec<String>,
    home: Option<String>,
}

impl Image {
    /// Whether the image holds the repository file `file` (a script it may run): a copy of
    /// it, or of a folder above it.
    fn holds(&self, file: &str) -> bool {
        self.runs.iter().any(|r| r == file)
            || self.copies.iter().any(|c| {
                if c.dir {
                    paths::is_within(file, &c.repo)
                } else {
                    c.repo == file
                }
            })
    }

    /// The repository path of the image path `path` (absolute, normalized), by the copy
    /// with the longest destination that holds it.
    fn repo_path(&self, path: &str) -> Option<String> {
        let path = path.trim_end_matches('/');
        self.copies
            .iter()
            .filter_map(|c| {
                if path == c.image {
                    Some((c.image.len(), c.repo.clone()))
                } else {
                    let rest = path.strip_prefix(&c.image)?.strip_prefix('/')?;
                    c.dir.then(|| (c.image.len(), paths::join(&c.repo, rest)))
                }
            })
            .max_by_key(|(n, _)| *n)
            .map(|(_, p)| p)
    }
}

/// The stages of the Dockerfiles among `texts` that copy files of the repository to
/// absolute image paths, and the containers their pages and scripts start with folders of
/// the repository mounted (see [`mounts`]).
pub fn images<K>(texts: &[(String, K, String)], index: &Index) -> Vec<Image> {
    let mut out: Vec<Image> = Vec::new();
    for (path, _, text) in texts {
        let found = if super::image_build::candidate(path) {
            stages(path, text, index)
        } else if text.contains("docker run") || text.contains("podman run") {
            mounts(path, text, index)
        } else if super::katacoda::candidate(path) {
            super::katacoda::scenario(path, text)
                .map(|sc| session(path, sc))
                .into_iter()
                .collect()
        } else if super::educates::candidate(path) && text.contains(WORKSHOP) {
            workshop(path, index)
                .filter(|w| !out.contains(w))
                .into_iter()
                .collect()
        } else {
            continue;
        };
        for image in found {
            if out.len() >= MAX_STAGES {
                return out;
            }
            if !image.copies.is_empty() {
                out.push(image);
            }
        }
    }
    out
}

/// Where an Educates session holds the workshop's files (the repository's `workshop/`
/// folder, beside `content/`).
const WORKSHOP: &str = "/opt/workshop";

/// The session of the Educates workshop whose instructions page is `page`: it holds the
/// workshop's folder at [`WORKSHOP`], so a page's `ytt -f /opt/workshop/setup/x.yaml` renders
/// the repository's `workshop/setup/x.yaml` (round fifty's N50-3).
fn workshop(page: &str, index: &Index) -> Option<Image> {
    let repo = paths::join(super::educates::workshop_dir(page), "workshop");
    index.is_dir(&repo).then(|| Image {
        origin: repo.clone(),
        copies: vec![Copy {
            image: WORKSHOP.to_string(),
            repo,
            dir: true,
        }],
        ..Image::default()
    })
}

/// The session of the Katacoda scenario whose `index.json` is `path`: it holds each asset
/// at its target and runs the scenario's scripts from `/root` (round fifty-three's N53-1).
fn session(path: &str, sc: super::katacoda::Scenario) -> Image {
    Image {
        origin: path.to_string(),
        copies: sc
            .assets
            .into_iter()
            .map(|(image, repo)| Copy {
                image,
                repo,
                dir: false,
            })
            .collect(),
        runs: sc.scripts,
        home: Some(super::katacoda::HOME.to_string()),
        ..Image::default()
    }
}

/// The stages of one Dockerfile at repository path `path`.
fn stages(path: &str, text: &str, index: &Index) -> Vec<Image> {
    let dir = paths::parent(path);
    let mut out: Vec<Image> = Vec::new();
    // The stage's working directory, when known (absolute).
    let mut workdir: Option<String> = None;
    for (start, body) in super::image_build::instructions(text) {
        let joined: Vec<&str> = body
            .iter()
            .map(|l| l.trim().trim_end_matches('\\').trim())
            .collect();
        let line = joined.join(" ");
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((&line, ""));
        match word.to_ascii_uppercase().as_str() {
            "FROM" => {
                workdir = None;
                out.push(Image {
                    origin: format!("{path}:{}", start + 1),
                    ..Image::default()
                });
            }
            "WORKDIR" => {
                let w = rest.trim().trim_matches('"');
                workdir = if w.contains('$') {
                    None
                } else if w.starts_with('/') {
                    Some(normalize(w))
                } else {
                    workdir.map(|d| normalize(&format!("{d}/{w}")))
                };
            }
            "COPY" | "ADD" => {
                if let Some(stage) = out.last_mut() {
                    copy(stage, rest, dir, workdir.as_deref(), index);
                }
            }
            _ => {}
        }
    }
    out
}

/// An absolute image path with `.` and `..` segments and repeated `/` resolved.
fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for s in p.split('/') {
        match s {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The words of a `COPY`/`ADD`: its flags left out; the exec form (`["a", "b"]`) read as
/// JSON.
fn copy_words(rest: &str) -> Option<Vec<String>> {
    let rest = rest.trim();
    let mut words: Vec<String> = Vec::new();
    let mut tail = rest;
    while tail.starts_with("--") {
        let (flag, after) = tail.split_once(char::is_whitespace).unwrap_or((tail, ""));
        if flag.starts_with("--from") {
            return None;
        }
        tail = after.trim_start();
    }
    if tail.starts_with('[') {
        let serde_json::Value::Array(items) = serde_json::from_str(tail).ok()? else {
            return None;
        };
        for v in items {
            words.push(v.as_str()?.to_string());
        }
    } else {
        words.extend(tail.split_whitespace().map(str::to_string));
    }
    Some(words)
}

/// Records the copies of one `COPY`/`ADD` of a stage whose Dockerfile is in `dir`.
fn copy(stage: &mut Image, rest: &str, dir: &str, workdir: Option<&str>, index: &Index) {
    let Some(words) = copy_words(rest) else {
        return;
    };
    let Some((dest, sources)) = words.split_last() else {
        return;
    };
    if sources.is_empty() || dest.contains('$') {
        return;
    }
    let into_dir = dest.ends_with('/') || sources.len() > 1;
    let dest = if dest.starts_with('/') {
        normalize(dest)
    } else {
        match workdir {
            Some(w) => normalize(&format!("{w}/{dest}")),
            None => return,
        }
    };
    for s in sources {
        if s.contains(['$', '*', '?', '[']) || s.contains("://") || s.starts_with('/') {
            continue;
        }
        let s = s.trim_end_matches('/');
        let s = s.strip_prefix("./").unwrap_or(s);
        // The build context: the Dockerfile's folder, else the repository's top.
        let Some(repo) = [paths::join(dir, s), s.to_string()]
            .into_iter()
            .find(|p| !p.split('/').any(|x| x == "..") && index.exists(p))
        else {
            continue;
        };
        let is_dir = index.is_dir(&repo);
        // A folder's contents go into the destination; a file into it when it is a folder.
        let image = if !is_dir && into_dir {
            let name = repo.rsplit('/').next().unwrap_or(&repo);
            normalize(&format!("{dest}/{name}"))
        } else {
            dest.clone()
        };
        let c = Copy {
            image,
            repo,
            dir: is_dir,
        };
        if !stage.copies.contains(&c) {
            stage.copies.push(c);
        }
    }
}

/// The containers the `docker run` (or `podman run`) lines of the file at `path` start, with
/// the folders of the reader's directory they bind-mount (`-v $PWD/config:/work/config`,
/// `--volume "$(pwd)/scripts":/work/scripts:ro`, `--mount
/// type=bind,source=$(pwd)/x,target=/work/x`), round thirty-seven's N37-1. The reader's
/// directory (`$PWD`) is the file's own folder, else the repository's top: the one that holds
/// the most of the mounted folders, an assumption each command mapped through them names.
fn mounts(path: &str, text: &str, index: &Index) -> Vec<Image> {
    let mut out = Vec::new();
    for (start, body) in super::image_build::instructions(text) {
        let line = body
            .iter()
            .map(|l| l.trim().trim_end_matches('\\').trim())
            .collect::<Vec<&str>>()
            .join(" ");
        let Some(at) = line.find("docker run").or_else(|| line.find("podman run")) else {
            continue;
        };
        let words: Vec<String> = line[at..]
            .split_whitespace()
            .map(|w| w.replace(['"', '\''], ""))
            .collect();
        let mut binds: Vec<(String, String)> = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let value = match w.as_str() {
                "-v" | "--volume" | "--mount" => words.get(i + 1).map(String::as_str),
                _ => w
                    .strip_prefix("--volume=")
                    .or_else(|| w.strip_prefix("--mount="))
                    .or_else(|| w.strip_prefix("-v=")),
            };
            if let Some(b) = value.and_then(bind) {
                binds.push(b);
            }
        }
        if binds.is_empty() {
            continue;
        }
        let here = paths::parent(path).to_string();
        let held = |base: &str| {
            binds
                .iter()
                .filter(|(src, _)| index.is_dir(&paths::join(base, src)) || src.is_empty())
                .count()
        };
        let base = if held(&here) >= held(".") {
            here
        } else {
            ".".to_string()
        };
        let mut image = Image {
            origin: format!("{path}:{}", start + 1),
            ..Image::default()
        };
        for (src, dest) in &binds {
            let repo = if src.is_empty() {
                base.clone()
            } else {
                paths::join(&base, src)
            };
            if !index.is_dir(&repo) {
                continue;
            }
            image.copies.push(Copy {
                image: dest.clone(),
                repo,
                dir: true,
            });
        }
        if image.copies.is_empty() {
            continue;
        }
        let shown = if base == "." {
            "the repository's top"
        } else {
            base.as_str()
        };
        image.assumed = Some(Assumption::new(
            AssumptionKind::WorkingDirectory,
            format!(
                "the `docker run` at {} mounts folders of the reader's directory (`$PWD`): run from {shown}, which holds them",
                image.origin
            ),
        ));
        out.push(image);
    }
    out
}

/// A bind mount of a folder of the reader's directory: the folder (relative, empty for the
/// directory itself) and the absolute path it is mounted at.
fn bind(spec: &str) -> Option<(String, String)> {
    let (src, dest) = if spec.contains("type=bind") || spec.contains("source=") {
        let mut src = None;
        let mut dest = None;
        for part in spec.split(',') {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            match k {
                "source" | "src" => src = Some(v),
                "target" | "destination" | "dst" => dest = Some(v),
                _ => {}
            }
        }
        (src?, dest?)
    } else {
        let (src, rest) = spec.split_once(':')?;
        (src, rest.split(':').next()?)
    };
    let rel = ["$PWD", "${PWD}", "$(pwd)", "`pwd`", "."]
        .iter()
        .find_map(|p| src.strip_prefix(p))?;
    if !(rel.is_empty() || rel.starts_with('/')) || !dest.starts_with('/') || dest.contains('$') {
        return None;
    }
    let rel = rel.trim_matches('/');
    let rel = rel.strip_prefix("./").unwrap_or(rel);
    if rel.split('/').any(|s| s == ".." || s == ".") || rel.contains(['$', '*', '`']) {
        return None;
    }
    Some((rel.to_string(), normalize(dest)))
}

/// `word` with an absolute image path (or the path of its `NAME=` form) mapped to the
/// repository path the image's copies give, when that path exists (`exists`).
fn mapped_word(word: &Word, image: &Image, exists: &dyn Fn(&str) -> bool) -> Option<Word> {
    let Some(Piece::Lit { text, glob }) = word.0.first() else {
        return None;
    };
    let (name, path) = match text.split_once('=') {
        Some((n, p)) if p.starts_with('/') && !n.contains('/') => (Some(n), p),
        _ => (None, text.as_str()),
    };
    // A relative path of a script run from a known folder (a Katacoda session's `/root`).
    let at_home;
    let path = match (&image.home, path.starts_with('/')) {
        (_, true) => path,
        (Some(home), false) if !path.starts_with('$') => {
            at_home = format!("{home}/{path}");
            at_home.as_str()
        }
        _ => return None,
    };
    // Only the literal part of the path is mapped: it ends at its last `/` when an unknown
    // piece follows (`/opt/t/$ENV.yaml`).
    let whole = word.0.len() == 1;
    let (known, tail) = if whole {
        (path, "")
    } else {
        match path.rfind('/') {
            Some(at) => (&path[..at], &path[at..]),
            None => return None,
        }
    };
    let repo = image.repo_path(&normalize(known))?;
    if !exists(&repo) {
        return None;
    }
    let mut w = Word::default();
    if let Some(n) = name {
        w.push_lit(&format!("{n}="), false);
    }
    w.push_lit(REPO, false);
    if repo != "." {
        w.push_lit("/", false);
        w.push_lit(&repo, *glob);
    }
    if path.ends_with('/') && whole {
        w.push_lit("/", false);
    }
    w.push_lit(tail, *glob);
    w.0.extend(word.0.iter().skip(1).cloned());
    Some(w)
}

/// ytt's flags whose value is a path (or `NAME=path`, `KEY=path`).
const PATH_FLAGS: [&str; 4] = ["-f", "--file", "--data-values-file", "--data-value-file"];

/// A path flag joined to its value (`--file=/opt/t`) with the value mapped as
/// [`mapped_word`] maps it.
fn joined_flag(word: &Word, image: &Image, exists: &dyn Fn(&str) -> bool) -> Option<Word> {
    let flag = PATH_FLAGS
        .iter()
        .find(|f| f.starts_with("--") && word.literal_prefix().starts_with(&format!("{f}=")))?;
    let value = word.strip_prefix(&format!("{flag}="))?;
    let mapped = mapped_word(&value, image, exists)?;
    let mut w = Word::lit(format!("{flag}="));
    w.extend(&mapped);
    Some(w)
}

/// `call`, found in the repository file `file`, with the image paths of its arguments and
/// its working directory mapped to the repository's, when an image holds the script the
/// command is written in; with that image (its place in `images`), when one was mapped.
pub fn mapped(call: &Call, file: &str, images: &[Image], index: &Index) -> (Call, Option<usize>) {
    let written = call.written.as_ref().map_or(file, |(f, _)| f.as_str());
    let exists = |p: &str| index.exists(p);
    let is_dir = |p: &str| index.is_dir(p);
    // A container's own command line runs outside it: the file that starts it is not one of
    // its scripts.
    let started_here = |i: &Image| {
        i.origin
            .strip_prefix(written)
            .is_some_and(|r| r.starts_with(':'))
    };
    let held = images
        .iter()
        .enumerate()
        .filter(|(_, i)| i.holds(written) && !started_here(i));
    for (at, image) in held {
        let mut out = call.clone();
        let mut any = false;
        // Only the paths of ytt's path flags: a data value that spells an image path
        // (`-v dir=/opt/t`) stays the text it is.
        for i in 0..out.args.len() {
            let after_flag = i > 0
                && out.args[i - 1]
                    .literal()
                    .is_some_and(|f| PATH_FLAGS.contains(&f.as_str()));
            let mapped = if after_flag {
                mapped_word(&out.args[i], image, &exists)
            } else {
                joined_flag(&out.args[i], image, &exists)
            };
            if let Some(w) = mapped {
                out.args[i] = w;
                any = true;
            }
        }
        if let Some(w) = out
            .cwd
            .as_ref()
            .and_then(|c| mapped_word(c, image, &is_dir))
        {
            out.cwd = Some(w);
            any = true;
        }
        if any {
            return (out, Some(at));
        }
    }
    (call.clone(), None)
}

/// `made`, written by the repository file `file`, with an image path a stage that copies
/// `file` maps to a folder of the repository made the repository's path there.
pub fn map_made(made: &mut MadeAt, images: &[Image], index: &Index) {
    let parent_is_dir = |p: &str| index.is_dir(paths::parent(p)) && !p.is_empty();
    for image in images.iter().filter(|i| i.holds(&made.file)) {
        if let Some(w) = mapped_word(&made.made.path, image, &parent_is_dir) {
            made.made.path = w;
            return;
        }
    }
}

/// Gives `inv`, a command a script runs on what `image` holds of the repository, what the
/// mapping assumes, and the data values a here-document of the same script writes, before
/// the command, into a folder it renders (`cat << EOF > /opt/t/values.yaml` before `ytt -f
/// /opt/t/`).
pub fn give_written(inv: &mut Invocation, made: &[MadeAt], image: &Image, index: &Index) {
    if let Some(a) = &image.assumed {
        if !inv.assumptions.contains(a) {
            inv.assumptions.push(a.clone());
        }
    }
    let from = &image.origin;
    let dirs: Vec<String> = inv
        .inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p))
        .filter(|p| index.is_dir(p))
        .map(str::to_string)
        .collect();
    for m in made {
        if m.file != inv.origin.file || m.made.line >= inv.origin.line {
            continue;
        }
        let (Some(w), Some(path)) = (m.made.text.as_ref(), m.made.path.repo_path()) else {
            continue;
        };
        if index.exists(&path)
            || !missing::is_values_text(&w.text)
            || !dirs.iter().any(|d| paths::is_within(&path, d))
        {
            continue;
        }
        let doc = super::added::written_doc(m, w);
        if inv.values_docs.contains(&doc) {
            continue;
        }
        inv.values_docs.push(doc);
        if w.expanded {
            let a = Assumption::new(
                AssumptionKind::RuntimeValues,
                format!(
                    "{path} is written in the image of {from} by {} with values known only at run time",
                    m.origin()
                ),
            );
            if !inv.assumptions.contains(&a) {
                inv.assumptions.push(a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_s_docker_run_mounts_folders_of_the_reader_s_directory() {
        let index = Index::new([
            "README.md",
            "config/values.yaml",
            "scripts/install.sh",
            "packages/app/cm.yaml",
        ]);
        let page = "# Install\n```\ndocker run --rm -v $PWD/config:/work/config \\\n  --volume \"$(pwd)/scripts\":/work/scripts:ro \\\n  --mount type=bind,source=${PWD}/packages,target=/work/packages -it boot install\n```\n";
        let images = mounts("README.md", page, &index);
        assert_eq!(images.len(), 1, "{images:?}");
        let i = &images[0];
        assert_eq!(i.origin, "README.md:3");
        assert!(i.holds("scripts/install.sh"));
        assert_eq!(
            i.repo_path("/work/packages/app/cm.yaml"),
            Some("packages/app/cm.yaml".into())
        );
        assert_eq!(i.repo_path("/work/config"), Some("config".into()));
        assert!(i.assumed.is_some());
        // A mount of another place, or of a folder the repository does not hold, is none.
        for other in [
            "docker run -v /etc/x:/work/x img\n",
            "docker run -v $HOME/.kube:/root/.kube img\n",
            "docker run -v $PWD/missing:/work/missing img\n",
            "docker run -v $PWD/../up:/work/up img\n",
        ] {
            assert!(mounts("README.md", other, &index).is_empty(), "{other}");
        }
        assert_eq!(bind("$PWD:/work"), Some((String::new(), "/work".into())));
    }

    const DOCKERFILE: &str = "FROM alpine\nCOPY start.sh /usr/local/bin/start\nCOPY templates /opt/greeter/templates\nWORKDIR /srv\nCOPY [\"values.yaml\", \"extra/\"]\nCMD [\"start\"]\n";

    fn index() -> Index {
        Index::new([
            "image/Dockerfile",
            "image/start.sh",
            "image/templates/a.yaml",
            "image/values.yaml",
        ])
    }

    #[test]
    fn a_stage_maps_its_copies_back_to_the_repository() {
        let texts = vec![("image/Dockerfile".to_string(), (), DOCKERFILE.to_string())];
        let images = images(&texts, &index());
        assert_eq!(images.len(), 1, "{images:?}");
        let i = &images[0];
        assert!(i.holds("image/start.sh"));
        // A file of a copied folder is in the image too; another is not.
        assert!(i.holds("image/templates/a.yaml"));
        assert!(!i.holds("image/other.sh"));
        assert_eq!(
            i.repo_path("/opt/greeter/templates/"),
            Some("image/templates".into())
        );
        assert_eq!(
            i.repo_path("/opt/greeter/templates/a.yaml"),
            Some("image/templates/a.yaml".into())
        );
        assert_eq!(
            i.repo_path("/srv/extra/values.yaml"),
            Some("image/values.yaml".into())
        );
        assert_eq!(i.repo_path("/opt/greeter"), None);
        assert_eq!(i.repo_path("/usr/local/bin/start/x"), None);
    }

    #[test]
    fn what_a_stage_cannot_map() {
        for text in [
            // Another stage's files.
            "FROM a AS b\nCOPY templates /t\nFROM alpine\nCOPY --from=b /t /t\nCOPY start.sh /s\n",
            // A relative destination without a working directory.
            "FROM alpine\nCOPY templates t\nCOPY start.sh /s\n",
            // A source the repository does not hold, a glob, a variable.
            "FROM alpine\nCOPY config /t\nCOPY *.yaml /t/\nCOPY $D /t\nCOPY start.sh /s\n",
        ] {
            let texts = vec![("image/Dockerfile".to_string(), (), text.to_string())];
            let images = images(&texts, &index());
            // No stage that holds the script maps `/t`.
            let mapped: Vec<Option<String>> = images
                .iter()
                .filter(|i| i.holds("image/start.sh"))
                .map(|i| i.repo_path("/t"))
                .collect();
            assert!(!mapped.is_empty(), "{text}: {images:?}");
            assert!(mapped.iter().all(Option::is_none), "{text}: {images:?}");
        }
    }

    #[test]
    fn a_script_s_command_on_the_image_s_paths_renders_the_repository_s() {
        let texts = vec![("image/Dockerfile".to_string(), (), DOCKERFILE.to_string())];
        let index = index();
        let images = images(&texts, &index);
        let call = Call::new(
            11,
            vec![
                Word::lit("-f"),
                Word::lit("/opt/greeter/templates/"),
                Word::lit("--data-values-file"),
                Word::lit("/srv/extra/values.yaml"),
                Word::lit("-f"),
                Word::lit("/etc/other.yaml"),
            ],
            None,
        );
        let (out, from) = mapped(&call, "image/start.sh", &images, &index);
        assert_eq!(from, Some(0));
        assert_eq!(out.args[1].repo_path().as_deref(), Some("image/templates"));
        assert_eq!(
            out.args[3].repo_path().as_deref(),
            Some("image/values.yaml")
        );
        assert_eq!(out.args[5], Word::lit("/etc/other.yaml"));
        // A path flag joined to its value is mapped; a data value spelling a path is not.
        let joined = Call::new(
            11,
            vec![
                Word::lit("--file=/opt/greeter/templates"),
                Word::lit("-v"),
                Word::lit("dir=/opt/greeter/templates"),
            ],
            None,
        );
        let (out, _) = mapped(&joined, "image/start.sh", &images, &index);
        let mut expected = Word::lit("--file=");
        expected.extend(&Word::lit(format!("{REPO}/image/templates")));
        assert_eq!(out.args[0], expected);
        assert_eq!(out.args[2], Word::lit("dir=/opt/greeter/templates"));
        // Another script, which no stage copies, keeps the image's paths.
        let (same, from) = mapped(&call, "deploy.sh", &images, &index);
        assert_eq!((same, from), (call, None));
    }
}
