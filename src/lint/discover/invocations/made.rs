//! The paths the repository's commands make, gathered from every command followed (see
//! [`super::outputs`]) and from the files a README shows as YAML to write ("create
//! `values.yml` with:" and a block), and which of them makes a path a `ytt` command reads. A
//! path made anywhere in the repository's commands counts as made: a script may need another
//! script or a README step to run first, and the linter does not know the order a user runs
//! them in.

use super::compiled;

use super::index::Index;
use super::outputs::{Made, Written};
use super::resolve::caller_bases;
use super::snippet::CALLER;
use super::word::{Piece, Word, REPO};
use crate::files::paths;

/// A path made by a command of the file `file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadeAt {
    pub file: String,
    pub made: Made,
}

impl MadeAt {
    /// Where the command is (`install.sh:8`).
    pub fn origin(&self) -> String {
        format!("{}:{}", self.file, self.made.line)
    }

    /// How a message names the command (`` `helm` (harbor/install.sh:8) ``).
    pub fn described(&self) -> String {
        format!("`{}` ({})", self.made.by, self.origin())
    }

    /// Whether the command is one a document shows (a README step).
    pub fn documented(&self) -> bool {
        crate::lint::discover::provenance::source_of(&self.file) == crate::report::Source::Document
    }

    /// The text it writes.
    pub fn text(&self) -> Option<&Written> {
        self.made.text.as_ref()
    }
}

/// The command that copies `file` elsewhere (`cp -R .catalog/tool/$V/scripts/* clusters/x/`),
/// whose commands are then meant to run in the copy, if any.
pub fn copier<'a>(made: &'a [MadeAt], file: &str) -> Option<&'a MadeAt> {
    let file = format!("{REPO}/{file}");
    made.iter().find(|m| {
        let Some(from) = &m.made.from else {
            return false;
        };
        let sources = match from.strip_prefix(CALLER) {
            Some(rest) => caller_bases(paths::parent(&m.file))
                .into_iter()
                .map(|mut base| {
                    base.extend(&rest);
                    base.normalized()
                })
                .collect(),
            None => vec![from.normalized()],
        };
        sources.iter().any(|s| {
            let re = pattern(s);
            compiled::regex(&format!("{re}(/.*)?$")).is_some_and(|r| r.is_match(&file))
        })
    })
}

/// A regular expression for a path word as it is held (a repository path starts with
/// [`REPO`]): unknown parts stand for one segment, globs are globs.
fn pattern(w: &Word) -> String {
    // The path's segments: each one's regular expression, and its text when all of it is
    // literal.
    let mut segs: Vec<(String, Option<String>)> = vec![(String::new(), Some(String::new()))];
    for p in &w.0 {
        match p {
            Piece::Lit { text, glob } => {
                for (k, part) in text.split('/').enumerate() {
                    if k > 0 {
                        segs.push((String::new(), Some(String::new())));
                    }
                    let Some((re, lit)) = segs.last_mut() else {
                        continue;
                    };
                    for c in part.chars() {
                        match c {
                            '*' if *glob => re.push_str("[^/]*"),
                            '?' if *glob => re.push_str("[^/]"),
                            c => re.push_str(&regex::escape(&c.to_string())),
                        }
                    }
                    if *glob && part.contains(['*', '?']) {
                        *lit = None;
                    } else if let Some(l) = lit {
                        l.push_str(part);
                    }
                }
            }
            Piece::Unknown(_) => {
                if let Some((re, lit)) = segs.last_mut() {
                    re.push_str("[^/]+");
                    *lit = None;
                }
            }
        }
    }
    // A version directory (`0.3.2/`): a catalog's copy takes whichever version the
    // environment names (`${TS_VERSION:-0.3.2}`), not only the default.
    let body: Vec<String> = segs
        .into_iter()
        .map(|(re, lit)| match lit {
            Some(l) if is_version(&l) => "[^/]+".to_string(),
            _ => re,
        })
        .collect();
    format!("^{}", body.join("/"))
        .trim_end_matches('/')
        .to_string()
}

/// Whether a path segment names a version: `0.3.2`, `v1.4`.
fn is_version(seg: &str) -> bool {
    let parts: Vec<&str> = seg.strip_prefix('v').unwrap_or(seg).split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// How closely a made path matches a path read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fit {
    /// A directory above it is made (`mkdir -p out`, `git clone ... lib`).
    Within,
    /// The path itself.
    Exact,
}

/// The command that makes a path, how well, and the repository file it copies there.
#[derive(Clone, Copy, Debug)]
pub struct Maker<'a> {
    pub at: &'a MadeAt,
    pub fit: Fit,
    /// The made path is known: no part of it known only at run time stands for a literal
    /// part of the path read (`mkdir -p "build/$name"` may make `build/app/x.yml`, or not).
    pub certain: bool,
}

/// The command that makes `target` (a normalized path word: a repository path, an absolute
/// path, a path in the home directory), the best fit first, with the repository path of what
/// it copies (or renders) there.
pub fn maker<'a>(
    made: &'a [MadeAt],
    target: &Word,
    index: &Index,
) -> Option<(Maker<'a>, Option<String>)> {
    let vague = target.unknowns().next().is_some();
    let target = target.normalized().to_string();
    let mut best: Option<(Maker, Option<String>)> = None;
    for m in made {
        for (place, from) in places(m, index) {
            let Some(fit) = fits(&place, &target) else {
                continue;
            };
            let certain = vague || place.unknowns().next().is_none();
            let better = best
                .as_ref()
                .is_none_or(|(b, _)| (fit, certain) > (b.fit, b.certain));
            if better {
                best = Some((
                    Maker {
                        at: m,
                        fit,
                        certain,
                    },
                    from,
                ));
            }
        }
    }
    best
}

/// Whether a command of the repository makes `target` itself as a copy or a rendering of a
/// file the repository holds (`cp values-example.yml "$DIR/values.yml"`, `envsubst < t.yaml >
/// "$ENV.yaml"`): that file stands in for it, whatever parts of its path are known only at
/// run time.
pub fn from_committed(made: &[MadeAt], target: &Word, index: &Index) -> bool {
    committed_maker(made, target, index).is_some()
}

/// [`from_committed`] for a rendering alone (a copy whose path is known only at run time is
/// the reader's, see `documented_example.rs`).
pub fn rendered_from_committed(made: &[MadeAt], target: &Word, index: &Index) -> bool {
    committed_maker(made, target, index).is_some_and(|m| m.made.rendered.is_some())
}

/// The command that makes `target` itself from a file the repository holds.
fn committed_maker<'a>(made: &'a [MadeAt], target: &Word, index: &Index) -> Option<&'a MadeAt> {
    let (m, from) = maker(made, &target.normalized(), index)?;
    (m.fit == Fit::Exact && from.is_some()).then_some(m.at)
}

/// The paths a made path stands for, each with the repository path of what is copied (or
/// rendered) there: a path made from the caller's directory, from each directory its script
/// may run in (a copy only from where its source exists).
pub(super) fn places(m: &MadeAt, index: &Index) -> Vec<(Word, Option<String>)> {
    let from_at = |base: Option<&Word>| -> Option<Option<String>> {
        // A rendered template stands where a copy's source does, but does not decide where
        // its command runs: a copy is made only from where its source exists.
        let copy = m.made.from.is_some();
        let Some(from) = m.made.from.as_ref().or(m.made.rendered.as_ref()) else {
            return Some(None);
        };
        let full = match (from.strip_prefix(CALLER), base) {
            (Some(rest), Some(b)) => {
                let mut w = b.clone();
                w.extend(&rest);
                w.normalized()
            }
            _ => from.normalized(),
        };
        let in_build_dir = || {
            let p = full.repo_path()?;
            ci_job(&m.file).then(|| input_file(&p, index)).flatten()
        };
        match full.repo_path() {
            // Copied from a file of the repository: only from where it exists.
            Some(p) if index.exists(&p) => Some(Some(p)),
            // In a CI job's build directory, from the input that holds the repository.
            Some(_) if in_build_dir().is_some() => Some(in_build_dir()),
            Some(_) if copy && base.is_some() => None,
            _ => Some(None),
        }
    };
    match m.made.path.strip_prefix(CALLER) {
        Some(rest) => caller_bases(paths::parent(&m.file))
            .into_iter()
            .filter_map(|base| {
                let from = from_at(Some(&base))?;
                let mut w = base;
                w.extend(&rest);
                Some((w.normalized(), from))
            })
            .collect(),
        None => from_at(None)
            .map(|f| vec![(m.made.path.normalized(), f)])
            .unwrap_or_default(),
    }
}

/// Whether a command is a CI job's (a workflow, a GitLab job, a Concourse task): it starts in a
/// build directory that holds its inputs, each a directory named after it.
fn ci_job(file: &str) -> bool {
    crate::lint::discover::provenance::source_of(file) == crate::report::Source::Ci
}

/// The repository file a path of a CI build directory names (`repo/templates/x.yaml`, from the
/// input `repo` that holds the repository): its first segment is no directory of the
/// repository, and the rest is a file of it.
fn input_file(path: &str, index: &Index) -> Option<String> {
    let (first, rest) = path.split_once('/')?;
    (!index.exists(first) && index.is_file(rest)).then(|| rest.to_string())
}

/// Whether the made path `place` is `target` or a directory above it. An unknown part of the
/// made path stands for one path segment.
fn fits(place: &Word, target: &str) -> Option<Fit> {
    let mut re = String::from("^");
    // Literal pieces side by side are one text (they differ only in glob meaning).
    let mut lit = String::new();
    let shown = |text: &mut String| regex::escape(&Word::lit(std::mem::take(text)).to_string());
    for p in &place.0 {
        match p {
            Piece::Lit { text, .. } => lit.push_str(text),
            Piece::Unknown(_) => {
                re.push_str(&shown(&mut lit));
                re.push_str("[^/]+");
            }
        }
    }
    re.push_str(&shown(&mut lit));
    let base = re.trim_end_matches('/').to_string();
    if base == "^" || base == "^\\." {
        // The working directory itself (`mkdir -p .`): it makes nothing new.
        return None;
    }
    let exact = compiled::regex(&format!("{base}/?$"))?;
    if exact.is_match(target) {
        return Some(Fit::Exact);
    }
    let within = compiled::regex(&format!("{base}/"))?;
    within.is_match(target).then_some(Fit::Within)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(file: &str, path: Word, by: &str) -> MadeAt {
        MadeAt {
            file: file.into(),
            made: Made {
                line: 3,
                by: by.into(),
                path,
                from: None,
                text: None,
                rendered: None,
                stdout: None,
            },
        }
    }

    fn repo(p: &str) -> Word {
        Word::lit(format!("{REPO}/{p}"))
    }

    #[test]
    fn a_made_path_or_a_directory_above_it_makes_what_is_read() {
        let all = vec![
            made("hack/build.sh", repo("out/chart.yaml"), "helm"),
            made("hack/build.sh", repo("vendor"), "mkdir"),
            made(
                "README.md",
                Word::lit(format!("{CALLER}/values.yml")),
                "cat",
            ),
        ];
        let index = Index::new(["web/values-example.yml"]);
        let (m, _) = maker(&all, &repo("out/chart.yaml"), &index).unwrap();
        assert_eq!((m.at.made.by.as_str(), m.fit), ("helm", Fit::Exact));
        let (m, _) = maker(&all, &repo("vendor/lib/x.yml"), &index).unwrap();
        assert_eq!((m.at.made.by.as_str(), m.fit), ("mkdir", Fit::Within));
        assert!(maker(&all, &repo("vendored/x.yml"), &index).is_none());
        assert!(maker(&all, &repo("values.yml"), &index).is_some());
        assert!(maker(&all, &repo("ci/docs"), &index).is_none());
        // A copy is made only where its source exists.
        let mut copy = made(
            "web/README.md",
            Word::lit(format!("{CALLER}/values.yml")),
            "cp",
        );
        copy.made.from = Some(Word::lit(format!("{CALLER}/values-example.yml")));
        let copies = vec![copy];
        let (_, from) = maker(&copies, &repo("web/values.yml"), &index).unwrap();
        assert_eq!(from.as_deref(), Some("web/values-example.yml"));
        assert!(maker(&copies, &repo("values.yml"), &index).is_none());
    }

    #[test]
    fn an_unknown_part_stands_for_one_segment() {
        let mut p = repo("build/");
        p.0.push(Piece::Unknown("$NAME".into()));
        let all = vec![made("a.sh", p, "mkdir")];
        let index = Index::default();
        assert!(maker(&all, &repo("build/x/values.yml"), &index).is_some());
        assert!(maker(&all, &repo("config/x"), &index).is_none());
        let abs = vec![made("a.sh", Word::lit("/tmp/pkg"), "imgpkg")];
        let bundle = Word::lit("/tmp/pkg/config/_ytt_lib/bundle/config");
        assert!(maker(&abs, &bundle, &index).is_some());
    }

    #[test]
    fn a_script_copied_elsewhere_names_its_copier() {
        // `cp -R .catalog/tool/$V/scripts/* "clusters/$1/"`, run from the repository's top.
        let mut from = Word::lit(format!("{CALLER}/.catalog/tool/"));
        from.0.push(Piece::Unknown("$V".into()));
        from.push_lit("/scripts/*", true);
        let mut cp = made(
            "scripts/new-cluster.sh",
            Word::lit(format!("{CALLER}/clusters")),
            "cp",
        );
        cp.made.from = Some(from);
        let all = vec![cp];
        let found = copier(&all, ".catalog/tool/v1/scripts/render.sh");
        assert_eq!(
            found.map(MadeAt::origin).as_deref(),
            Some("scripts/new-cluster.sh:3")
        );
        assert!(copier(&all, ".catalog/tool/v1/config/render.sh").is_none());
        assert!(copier(&all, "tool/v1/scripts/render.sh").is_none());
        // A copy without a source copies nothing.
        let mkdir = vec![made("a.sh", repo(".catalog/tool"), "mkdir")];
        assert!(copier(&mkdir, ".catalog/tool/v1/scripts/render.sh").is_none());
        // `${TS_VERSION:-0.3.2}` expands to its default; the copy takes any version.
        let mut cp = made(
            "setup-repo.sh",
            Word::lit(format!("{CALLER}/clusters")),
            "cp",
        );
        cp.made.from = Some(Word::lit(format!("{CALLER}/.catalog/tool/0.3.2/eso/")));
        let all = vec![cp];
        assert!(copier(&all, ".catalog/tool/0.1.0/eso/scripts/deploy.sh").is_some());
        assert!(copier(&all, ".catalog/tool/0.1.0/vault/scripts/deploy.sh").is_none());
        assert!(
            is_version("0.3.2") && is_version("v1.4") && !is_version("1") && !is_version("a.b")
        );
    }
}
