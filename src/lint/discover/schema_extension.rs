//! A layout root whose data values schema only extends another one is rendered with the
//! sibling directory that holds that schema.
//!
//! A `#@data/values-schema` document one of whose top-level items carries
//! `@overlay/match missing_ok=True` (or whose document says so for all its items with
//! `@overlay/match-child-defaults missing_ok=True`) extends a schema given before it: it adds
//! keys to it (and may change the defaults of others), and alone it is no whole schema. ytt's own examples keep such a directory (`prod/`) beside the one
//! holding the base schema (`config/`) and run `ytt -f config -f prod`. When the topmost
//! directories found from the layout include such an extension and exactly one sibling (same
//! parent directory) holds a base schema, the two become one root, the base first, as ytt
//! needs it. Nothing changes when no sibling or several siblings hold a base schema, nor
//! when other template directories sit beside them (each rendered on its own, as a wrapper
//! tool's prototypes are). A
//! directory checked on its own (its files only supplement others) is checked the same way,
//! with the sibling's schema files before its own.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::files::paths::{self, is_within};
use crate::library::plain::{comment_annotation, doc_has_annotation};
use crate::lint::config::Config;
use crate::lint::discover::{Library, Reason, Root};
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::yaml::node::{Comment, Value};
use crate::yaml::parse::{parse, ParseOpts};

/// What the schema documents of a directory hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Schemas {
    /// A schema document declares at least one key of its own.
    base: bool,
    /// A schema document only adds to another schema (each item `missing_ok=True`).
    extension: bool,
}

/// Whether comments carry an `@overlay/match...` annotation with `missing_ok=True`.
fn missing_ok(comments: &[Comment], annotation: &str) -> bool {
    comments.iter().any(|c| {
        comment_annotation(c) == Some(annotation)
            && c.data.replace(' ', "").contains("missing_ok=True")
    })
}

/// The schema documents of one file's text.
fn schemas_of(path: &str, text: &str) -> Schemas {
    let mut found = Schemas::default();
    if !text.contains("data/values-schema") {
        return found;
    }
    let file: Arc<str> = Arc::from(path);
    let Ok(ds) = parse(text, &file, &ParseOpts::default()) else {
        return found;
    };
    for d in ds
        .items
        .iter()
        .filter(|d| doc_has_annotation(&d.comments, "data/values-schema"))
    {
        let Value::Map(m) = &d.value else {
            continue;
        };
        if m.items.is_empty() {
            continue;
        }
        let all = missing_ok(&d.comments, "overlay/match-child-defaults");
        if all
            || m.items
                .iter()
                .any(|i| missing_ok(&i.comments, "overlay/match"))
        {
            found.extension = true;
        } else {
            found.base = true;
        }
    }
    found
}

/// Files read at most this long to tell their schema documents (a longer one is not joined).
const MAX: usize = 4 << 20;

/// The text of the repository file `path`, read as the repository's files are (no link out of
/// it, nothing longer than [`MAX`]).
fn read(config: &Config, path: &str) -> Option<String> {
    crate::lint::discover::invocations::scripts::read(&config.dir, path, MAX)
}

/// What the schema documents of the ytt files under `dir` hold.
fn schemas_under(config: &Config, files: &[RepoFile], dir: &str) -> Schemas {
    let mut all = Schemas::default();
    for f in files
        .iter()
        .filter(|f| f.kind == Kind::YttYaml && is_within(&f.path, dir))
    {
        if let Some(text) = read(config, &f.path) {
            let s = schemas_of(&f.path, &text);
            all.base |= s.base;
            all.extension |= s.extension;
        }
    }
    all
}

/// Whether a template (a ytt file that is not only overlays, values, schemas or code) sits
/// under `parent` outside the directories `apart`: another rendering beside them.
fn templates_beside(config: &Config, files: &[RepoFile], parent: &str, apart: &[&str]) -> bool {
    files
        .iter()
        .filter(|f| f.kind == Kind::YttYaml && is_within(&f.path, parent))
        .filter(|f| !apart.iter().any(|d| is_within(&f.path, d)))
        .any(|f| {
            read(config, &f.path).is_some_and(|t| {
                crate::lint::repo::supplementary::supplement(&f.path, &t).is_none()
            })
        })
}

/// The layout roots `top`, each one whose schema only extends a sibling's joined with that
/// sibling (see the module's doc).
pub fn join(config: &Config, files: &[RepoFile], top: Vec<Root>) -> Vec<Root> {
    let single = |r: &Root| {
        r.reason == Reason::Topmost
            && r.path != "."
            && r.inputs.len() == 1
            && r.inputs[0] == r.path
            && r.args.is_empty()
            && r.scenarios.is_empty()
    };
    let schemas: BTreeMap<usize, Schemas> = top
        .iter()
        .enumerate()
        .filter(|(_, r)| single(r))
        .map(|(i, r)| (i, schemas_under(config, files, &r.path)))
        .collect();
    // Each extension-only root with the one sibling holding a base schema.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (&i, s) in &schemas {
        if !s.extension || s.base {
            continue;
        }
        let parent = paths::parent(&top[i].path);
        let bases: Vec<usize> = schemas
            .iter()
            .filter(|(&j, t)| j != i && t.base && paths::parent(&top[j].path) == parent)
            .map(|(&j, _)| j)
            .collect();
        // Other template directories beside them are rendered on their own (the prototypes
        // of a wrapper tool): the parent is no one rendering.
        if let [base] = bases[..] {
            let apart = [top[base].path.as_str(), top[i].path.as_str()];
            if !templates_beside(config, files, parent, &apart) {
                pairs.push((base, i));
            }
        }
    }
    // A base that several extensions extend is rendered once with each.
    let used: Vec<usize> = pairs.iter().flat_map(|&(b, e)| [b, e]).collect();
    let mut out: Vec<Root> = top
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, r)| r.clone())
        .collect();
    for (b, e) in pairs {
        let inputs = vec![top[b].path.clone(), top[e].path.clone()];
        let mut root = Root::found(&top[b].path, Reason::Topmost);
        root.name = inputs.join(" + ");
        root.inputs = inputs;
        out.push(root);
    }
    out
}

/// The ytt files a directory checked on its own holds (its list, or every ytt file under it).
fn library_files(lib: &Library, files: &[RepoFile]) -> Vec<String> {
    if !lib.files.is_empty() {
        return lib.files.clone();
    }
    files
        .iter()
        .filter(|f| f.kind.is_ytt() && is_within(&f.path, &lib.path))
        .map(|f| f.path.clone())
        .collect()
}

/// The directories checked on their own (`partial`), each one whose schema only extends a
/// sibling's (another such directory, or a layout root in `top`) checked with the sibling's
/// schema files first, from their parent directory: the keys the sibling declares are known
/// to its references.
pub fn join_libraries(
    config: &Config,
    files: &[RepoFile],
    partial: Vec<Library>,
    top: &[Root],
) -> Vec<Library> {
    let mut dirs: Vec<(String, Vec<String>)> = partial
        .iter()
        .map(|l| (l.path.clone(), library_files(l, files)))
        .collect();
    dirs.extend(
        top.iter()
            .filter(|r| r.reason == Reason::Topmost && r.inputs.len() == 1 && r.inputs[0] == r.path)
            .map(|r| {
                let own = files
                    .iter()
                    .filter(|f| f.kind.is_ytt() && is_within(&f.path, &r.path))
                    .map(|f| f.path.clone())
                    .collect();
                (r.path.clone(), own)
            }),
    );
    let schema_of = |paths: &[String]| {
        let mut all = Schemas::default();
        for p in paths
            .iter()
            .filter(|p| p.ends_with(".yml") || p.ends_with(".yaml"))
        {
            if let Some(text) = read(config, p) {
                let s = schemas_of(p, &text);
                all.base |= s.base;
                all.extension |= s.extension;
            }
        }
        all
    };
    let kinds: Vec<Schemas> = dirs.iter().map(|(_, f)| schema_of(f)).collect();
    partial
        .into_iter()
        .enumerate()
        .map(|(i, mut lib)| {
            let k = kinds[i];
            if !k.extension || k.base || lib.path == "." {
                return lib;
            }
            let parent = paths::parent(&lib.path).to_string();
            let bases: Vec<usize> = (0..dirs.len())
                .filter(|&j| j != i && kinds[j].base && paths::parent(&dirs[j].0) == parent)
                .collect();
            let [base] = bases[..] else {
                return lib;
            };
            // Other template directories beside them are rendered on their own.
            let apart = [dirs[base].0.as_str(), lib.path.as_str()];
            if templates_beside(config, files, &parent, &apart) {
                return lib;
            }
            // The sibling's schema files, then the directory's own.
            let mut joined: Vec<String> = dirs[base]
                .1
                .iter()
                .filter(|p| read(config, p).is_some_and(|t| schemas_of(p, &t).base))
                .cloned()
                .collect();
            joined.extend(dirs[i].1.iter().cloned());
            lib.files = joined;
            lib.parent = paths::parent(&parent).to_string();
            lib.path = parent;
            lib
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_marked_missing_ok_extends() {
        let ext = "#@data/values-schema\n---\n#@overlay/match missing_ok=True\nx: \"\"\n";
        assert_eq!(
            schemas_of("p/s.yml", ext),
            Schemas {
                base: false,
                extension: true
            }
        );
        // An item that overrides a default beside one it adds: still an extension.
        let both = "#@data/values-schema\n---\nname: demo\n#@overlay/match missing_ok=True\nx: 1\n";
        assert!(schemas_of("c/s.yml", both).extension);
        let base = "#@data/values-schema\n---\nname: demo\nx: 1\n";
        assert_eq!(
            schemas_of("c/s.yml", base),
            Schemas {
                base: true,
                extension: false
            }
        );
        let defaults = "#@data/values-schema\n#@overlay/match-child-defaults missing_ok=True\n---\na: 1\nb: 2\n";
        assert!(schemas_of("d/s.yml", defaults).extension);
        assert_eq!(
            schemas_of("v.yml", "#@data/values\n---\na: 1\n"),
            Schemas::default()
        );
    }
}
