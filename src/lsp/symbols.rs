//! What a file defines at the top level (what a `load()` can import from it) and where, read
//! with the static analysis' own parser: templates compiled as the engine compiles them, the
//! positions mapped back to the lines the author wrote.

use std::path::{Path, PathBuf};

use starlark::syntax::ast::Stmt;

use crate::analysis::{units, walk};
use crate::files::InputFile;
use crate::library::{EvalOpts, Workspace};

/// A top-level name and its position (line and character column, from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub is_def: bool,
    pub line: u32,
    pub column: u32,
}

/// The top-level names of the file `name` (its repository path, for its type) with `text`;
/// empty when it does not parse.
pub fn symbols(name: &str, text: &str) -> Vec<Symbol> {
    let ws = Workspace::new(vec![InputFile::new(name, text)], EvalOpts::default());
    let Some(file) = ws.files.first() else {
        return Vec::new();
    };
    let Some(unit) = units::unit(&ws, file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for s in walk::top_level(&unit.ast) {
        let mut add = |ident: &str, span, is_def| {
            if let Some(pos) = unit.pos(span, ident) {
                out.push(Symbol {
                    name: ident.to_string(),
                    is_def,
                    line: pos.line,
                    column: pos.col,
                });
            }
        };
        match &s.node {
            Stmt::Def(d) => add(&d.name.ident, d.name.span, true),
            Stmt::Assign(a) => a.lhs.visit_lvalue(|id| add(&id.ident, id.span, false)),
            _ => {}
        }
    }
    // The first binding of a name is where it is defined.
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.name.clone()));
    out
}

/// The file a `load(path)` in the file `from` names: relative to its directory, `/path` from
/// the library root `root`, `@lib:path` in the `_ytt_lib/lib` of its directory or of one
/// above it (up to the repository `repo`). `None` for `@ytt:` modules and missing files.
pub fn load_target(repo: &Path, root: &Path, from: &Path, path: &str) -> Option<PathBuf> {
    if path.starts_with("@ytt:") {
        return None;
    }
    let dir = from.parent()?;
    let found = if let Some(rest) = path.strip_prefix('@') {
        let (lib, p) = rest.split_once(':')?;
        let mut d = Some(dir);
        let mut hit = None;
        while let Some(cur) = d {
            let candidate = cur.join("_ytt_lib").join(lib);
            if candidate.is_dir() {
                hit = Some(candidate.join(p.trim_start_matches('/')));
                break;
            }
            if cur == repo {
                break;
            }
            d = cur.parent();
        }
        hit?
    } else if let Some(rest) = path.strip_prefix('/') {
        root.join(rest)
    } else {
        dir.join(path)
    };
    let found = crate::files::lexical_absolute(Path::new("/"), &found);
    (found.starts_with(repo) && found.is_file()).then_some(found)
}

/// The `_ytt_lib/name` directory `library.get(name)` in `from` means (in its directory or
/// one above it, up to `repo`).
pub fn library_dir(repo: &Path, from: &Path, name: &str) -> Option<PathBuf> {
    let mut d = from.parent();
    while let Some(cur) = d {
        let candidate = cur.join("_ytt_lib").join(name.trim_start_matches('@'));
        if candidate.is_dir() {
            return Some(candidate);
        }
        if cur == repo {
            return None;
        }
        d = cur.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_names_of_templates_and_starlark() {
        let star = "x = 1\n\ndef helper(a):\n  return a\nend\n";
        let names: Vec<(String, u32)> = symbols("lib/h.star", star)
            .into_iter()
            .map(|s| (s.name, s.line))
            .collect();
        assert_eq!(names, [("x".into(), 1), ("helper".into(), 3)]);
        let yaml = "#@ def labels():\napp: x\n#@ end\n---\na: #@ labels()\n";
        let s = symbols("t.lib.yml", yaml);
        assert_eq!(s[0].name, "labels");
        assert_eq!((s[0].line, s[0].column), (1, 8));
    }
}
