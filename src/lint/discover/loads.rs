//! What the `load()`s of a found root say about where it is and what it needs. ytt looks a
//! relative load up next to the loading file, and an absolute one (`/helpers.star`) at the top
//! of the files it was given:
//!
//! - an absolute load that only resolves from an ancestor directory (a library keeping its
//!   helpers in `config/` and its templates in `config/overlay/`) makes that ancestor the root;
//! - a load of a file that is not where ytt looks, but that the repository holds elsewhere
//!   (`templates.lib.yml` in a sibling `lib/`), means the root's inputs are incomplete: whoever
//!   runs it passes that file with `-f` too. The root is then only checked, with one
//!   `needs-input` finding naming the file, instead of an evaluation that fails to load it.

use std::sync::LazyLock;

use regex::Regex;

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::index::Index;
use crate::lint::repo::walk::RepoFile;
use crate::report::{Diagnostic, Rule, Span};

/// A load a root cannot resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unresolved {
    /// The loading file and the line of the load.
    pub file: String,
    pub line: u32,
    /// The module as written.
    pub module: String,
    /// Where the repository holds a file of that name.
    pub elsewhere: Vec<String>,
}

/// What the loads of a root say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing: every load resolves, or fails for no file the repository holds.
    Fine,
    /// An absolute load resolves only from this ancestor of the root.
    Climb(String),
    Incomplete(Unresolved),
}

/// `load("module", ...)` in a template's code line or a Starlark file.
static LOAD: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"\bload\(\s*["']([^"'@][^"']*)["']"#).ok());

/// The relative loads of a ytt file's code (`#@ load("common.lib.yml", …)`; every line of a
/// Starlark file): each line and module as written. `@ytt:`, `@lib:` and absolute loads are
/// left out.
pub fn relative_loads(text: &str, starlark: bool) -> Vec<(u32, String)> {
    let Some(re) = LOAD.as_ref() else {
        return Vec::new();
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| starlark || line.trim_start().starts_with("#@"))
        // The pattern needs `load(`: most code lines are passed over without running it.
        .filter(|(_, line)| line.contains("load("))
        .filter_map(|(n, line)| {
            let module = re.captures(line)?.get(1)?.as_str();
            (!module.starts_with('/'))
                .then(|| (u32::try_from(n + 1).unwrap_or(u32::MAX), module.to_string()))
        })
        .collect()
}

/// The loads of the ytt files under the root directory `root`, judged against the repository.
pub fn judge(
    root: &str,
    files: &[RepoFile],
    index: &Index,
    read: &dyn Fn(&str) -> Option<String>,
) -> Verdict {
    let Some(re) = LOAD.as_ref() else {
        return Verdict::Fine;
    };
    for f in files
        .iter()
        .filter(|f| f.kind.is_ytt() && is_within(&f.path, root))
    {
        let Some(text) = read(&f.path) else { continue };
        if !text.contains("load(") {
            continue;
        }
        let starlark = f.path.ends_with(".star");
        for (n, line) in text.lines().enumerate() {
            let code = starlark || line.trim_start().starts_with("#@");
            if !code || !line.contains("load(") {
                continue;
            }
            let Some(module) = re.captures(line).and_then(|c| c.get(1)) else {
                continue;
            };
            let module = module.as_str();
            let wanted = match module.strip_prefix('/') {
                Some(abs) => paths::join(root, abs),
                None => paths::join(paths::parent(&f.path), module),
            };
            let wanted = normalize(&wanted);
            if wanted.as_deref().is_some_and(|w| index.is_file(w)) {
                continue;
            }
            if let Some(abs) = module.strip_prefix('/') {
                if let Some(up) = ancestor_holding(root, &f.path, abs, index) {
                    return Verdict::Climb(up);
                }
            }
            let name = module.rsplit('/').next().unwrap_or(module);
            let elsewhere: Vec<String> = files
                .iter()
                .filter(|g| g.path.rsplit('/').next() == Some(name))
                .filter(|g| !is_within(&g.path, root))
                .map(|g| g.path.clone())
                .take(3)
                .collect();
            if !elsewhere.is_empty() {
                return Verdict::Incomplete(Unresolved {
                    file: f.path.clone(),
                    line: u32::try_from(n + 1).unwrap_or(u32::MAX),
                    module: module.to_string(),
                    elsewhere,
                });
            }
        }
    }
    Verdict::Fine
}

/// The nearest ancestor of `root` (below the repository itself) holding `abs`.
fn ancestor_holding(root: &str, file: &str, abs: &str, index: &Index) -> Option<String> {
    let mut dir = root;
    while dir != "." {
        dir = paths::parent(dir);
        if dir != "." && is_within(file, dir) && index.is_file(&paths::join(dir, abs)) {
            return Some(dir.to_string());
        }
    }
    None
}

/// A repository path with `.` and `x/..` removed; `None` when it leaves the repository.
pub fn normalize(path: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            s => out.push(s),
        }
    }
    Some(out.join("/"))
}

/// The `needs-input` finding of a root whose load names a file held elsewhere.
pub fn finding(root: &str, u: &Unresolved) -> Diagnostic {
    let mut d = Diagnostic::new(
        Rule::NeedsInput,
        format!(
            "{} loads \"{}\", which is not in root {root} but in {}: the root needs that file as an input",
            u.file,
            u.module,
            u.elsewhere.join(", ")
        ),
    )
    .at(Span::point(&u.file, u.line, 1))
    .with_help(format!(
        "list the root in .yttlint.yaml with the file it loads (`args: [-f, ., -f, {}]`); until then it is only checked, not evaluated",
        paths::between(root, &u.elsewhere[0])
    ));
    d.root = Some(root.to_string());
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    fn file(path: &str) -> RepoFile {
        let kind = if path.ends_with(".star") {
            Kind::Starlark
        } else {
            Kind::YttYaml
        };
        RepoFile::for_test(path, kind)
    }

    #[test]
    fn loads_of_files_held_elsewhere_and_absolute_loads_from_an_ancestor() {
        let files = vec![
            file("examples/pipeline/p.yml"),
            file("shared/helpers/h.star"),
            file("config/helpers.star"),
            file("config/resources/r.yml"),
            file("app/t.yml"),
        ];
        let index = Index::new(files.iter().map(|f| f.path.as_str()));
        let read = |p: &str| {
            Some(match p {
                "examples/pipeline/p.yml" => "#@ load(\"h.star\", \"x\")\na: 1\n".to_string(),
                "config/resources/r.yml" => "#@ load(\"/helpers.star\", \"y\")\n".to_string(),
                "app/t.yml" => "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"nowhere.star\", \"z\")\n# load(\"h.star\")\n".to_string(),
                _ => String::new(),
            })
        };
        let Verdict::Incomplete(u) = judge("examples/pipeline", &files, &index, &read) else {
            panic!()
        };
        assert_eq!(u.line, 1);
        assert_eq!(u.elsewhere, vec!["shared/helpers/h.star"]);
        assert_eq!(
            judge("config/resources", &files, &index, &read),
            Verdict::Climb("config".into())
        );
        assert_eq!(judge("app", &files, &index, &read), Verdict::Fine);
        assert_eq!(judge("config", &files, &index, &read), Verdict::Fine);
    }
}
