//! What a library reads of its data values and which files declare them, in a form that
//! outlives the evaluation: plain paths that the findings needing every root can compare
//! (`data-value-unused` is judged over every root that includes a declaration, and
//! `data-value-undeclared` without a schema only for keys nothing reads).
//!
//! Also the private libraries a library hands its data values whole
//! (`library.get("child").with_data_values(data.values)`): their schemas declare what the
//! parent passes, whether or not their own templates read it.

use starlark::syntax::ast::{ArgumentP, AssignTarget, AstExpr, AstLiteral, Expr, Stmt};

use super::index::Index;
use super::value_refs::Seg;
use super::walk;
use crate::files::FileType;
use crate::library::plain::doc_has_annotation;
use crate::library::tree::dir_of;
use crate::library::Workspace;

/// A read of data values: the keys after `data.values` (`None`: a computed key). An empty
/// path reads them all.
pub type ReadPath = Vec<Option<String>>;

/// Every read of data values in the library's own files (see [`super::value_refs`]).
pub fn reads(index: &Index<'_>) -> Vec<ReadPath> {
    let mut out: Vec<ReadPath> = index
        .value_refs()
        .iter()
        .map(|r| {
            r.segs
                .iter()
                .map(|s| match s {
                    Seg::Key(k) => Some(k.clone()),
                    Seg::Dynamic => None,
                })
                .collect()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether the read `read` reads the value at `path`: they agree on every key they both have
/// (a read of a map reads what is below it; a read below a value reads the value). A computed
/// key, and a declared `_` (an any-key map's item), match any key.
pub fn covers(read: &[Option<String>], path: &[String]) -> bool {
    read.iter()
        .zip(path)
        .all(|(r, p)| r.as_ref().is_none_or(|r| r == p || p == "_"))
}

/// The files of the library rooted at `dir` that declare its data values: a document of them
/// is `@data/values-schema` or `@data/values` (workspace paths, in file order).
pub fn declaring_files(ws: &Workspace, dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    for f in ws.accessible(dir) {
        if f.file_type() != FileType::Yaml || !f.is_template() || !f.data.contains("@data/") {
            continue;
        }
        let Ok(ds) = ws.parse(f, ws.opts.strict) else {
            continue;
        };
        let declares = ds.items.iter().any(|d| {
            doc_has_annotation(&d.comments, "data/values")
                || doc_has_annotation(&d.comments, "data/values-schema")
        });
        if declares {
            out.push(f.rel_path.clone());
        }
    }
    out
}

/// The private libraries (workspace directories) that the library's files hand data values
/// whole: `with_data_values(data.values)`, or a map of them, on `library.get("name")`; or a
/// value whose keys are not written there (a function's parameter, a decoded file: round
/// sixteen's R16A-1, a whole custom resource handed to the library), which its schema must
/// declare every key of. When the name is not a string written there, the file's `_ytt_lib`
/// directory: any of them.
pub fn handed_over(index: &Index<'_>) -> Vec<String> {
    let all = index.value_refs();
    let mut out = Vec::new();
    for i in 0..index.own {
        let unit = &index.all[i];
        walk::each_expr(&unit.ast, &mut |e| {
            let Expr::Call(f, args) = &e.node else {
                return;
            };
            let Expr::Dot(lib, method) = &f.node else {
                return;
            };
            let first = args.args.first().and_then(|a| match &a.node {
                ArgumentP::Positional(x) => Some(x),
                _ => None,
            });
            let whole = first.is_some_and(|x| {
                all.iter()
                    .any(|r| r.unit == i && !r.probe && r.span == x.span)
            });
            if method.node != "with_data_values" || !(whole || first.is_some_and(opaque)) {
                return;
            }
            let dir = dir_of(&unit.file.rel_path);
            let private = if dir.is_empty() {
                "_ytt_lib".to_string()
            } else {
                format!("{dir}/_ytt_lib")
            };
            out.push(match library_name(index, i, lib) {
                Some(name) => format!("{private}/{name}"),
                None => private,
            });
        });
    }
    out.sort();
    out.dedup();
    out
}

/// Whether the keys of the value `x` are not written at the call: anything but a dict, a list
/// or a literal (`{"a": 1}`, `dict(a=1)`, `struct.make(a=1)` name theirs).
fn opaque(x: &AstExpr) -> bool {
    match &x.node {
        Expr::Dict(_) | Expr::List(_) | Expr::Literal(_) => false,
        Expr::Call(f, args) => {
            let named = |n: &str| match &f.node {
                Expr::Identifier(id) => id.ident == n,
                Expr::Dot(_, m) => m.node == n,
                _ => false,
            };
            let keyed = args
                .args
                .iter()
                .all(|a| matches!(a.node, ArgumentP::Named(..)));
            !((named("dict") || named("make")) && keyed)
        }
        _ => true,
    }
}

/// The name in `library.get("name")`, written there or bound once to it.
fn library_name(index: &Index<'_>, i: usize, e: &AstExpr) -> Option<String> {
    let call = match &e.node {
        Expr::Identifier(id) if index.bound_once(i, &id.ident) => walk::stmts(&index.all[i].ast)
            .into_iter()
            .find_map(|s| match &s.node {
                Stmt::Assign(a) => match &a.lhs.node {
                    AssignTarget::Identifier(lhs) if lhs.ident == id.ident => Some(&a.rhs),
                    _ => None,
                },
                _ => None,
            })?,
        _ => e,
    };
    let Expr::Call(f, args) = &call.node else {
        return None;
    };
    let Expr::Dot(module, get) = &f.node else {
        return None;
    };
    let Expr::Identifier(module) = &module.node else {
        return None;
    };
    if get.node != "get" || index.ytt_alias(i, &module.ident) != Some("library") {
        return None;
    }
    match &args.args.first()?.node {
        ArgumentP::Positional(x) => match &x.node {
            Expr::Literal(AstLiteral::String(s)) => Some(s.node.clone()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::InputFile;
    use crate::library::EvalOpts;

    fn workspace(files: &[(&str, &str)]) -> Workspace {
        let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
        Workspace::new(inputs, EvalOpts::default())
    }

    #[test]
    fn reads_are_paths_with_computed_keys_open() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.app.port\n\
                   b: #@ data.values.tags[k]\nc: #@ str(data.values)\n";
        let ws = workspace(&[("t.yml", tpl)]);
        let found = reads(&Index::new(&ws, ""));
        let key = |k: &str| Some(k.to_string());
        assert_eq!(
            found,
            [
                vec![],
                vec![key("app"), key("port")],
                vec![key("tags"), None]
            ]
        );
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(covers(&found[1], &path(&["app", "port"])));
        assert!(!covers(&found[1], &path(&["app", "name"])));
        assert!(covers(&found[2], &path(&["tags", "x", "y"])));
        assert!(covers(
            &[key("db"), key("a"), key("host")],
            &path(&["db", "_", "host"])
        ));
        assert!(covers(&[key("app")], &path(&["app", "name"])));
    }

    #[test]
    fn declaring_files_have_a_values_or_schema_document() {
        let ws = workspace(&[
            ("schema.yml", "#@data/values-schema\n---\na: 1\n"),
            ("values.yml", "#@data/values\n---\na: 2\n"),
            ("t.yml", "a: 1\n"),
            ("_ytt_lib/l/values.yml", "#@data/values\n---\nb: 1\n"),
        ]);
        assert_eq!(declaring_files(&ws, ""), ["schema.yml", "values.yml"]);
    }

    #[test]
    fn libraries_given_data_values_whole_are_found() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:library\", \"library\")\n\
                   #@ lib = library.get(\"named\")\n\
                   --- #@ lib.with_data_values(data.values.child).eval()\n\
                   --- #@ library.get(data.values.kind).with_data_values(data.values, plain=True).eval()\n\
                   --- #@ library.get(\"other\").with_data_values({\"a\": 1}).eval()\n\
                   --- #@ library.get(\"made\").with_data_values(struct.make(a=1)).eval()\n";
        let ws = workspace(&[("config/main.yml", tpl)]);
        assert_eq!(
            handed_over(&Index::new(&ws, "")),
            ["config/_ytt_lib", "config/_ytt_lib/named"]
        );
        // R16A-1: an object whose keys the call does not write (a function's parameter, a
        // decoded file) is handed over whole as well.
        let star = "load(\"@ytt:library\", \"library\")\nload(\"@ytt:json\", \"json\")\n\
                    def sync(parent):\n  return library.get(\"widget\").with_data_values(parent, plain=True).eval()\nend\n\
                    def from_file(text):\n  return library.get(\"gadget\").with_data_values(json.decode(text)).eval()\nend\n\
                    def fixed():\n  return library.get(\"fixed\").with_data_values({\"size\": 1}).eval()\nend\n";
        let ws = workspace(&[("handler.star", star)]);
        assert_eq!(
            handed_over(&Index::new(&ws, "")),
            ["_ytt_lib/gadget", "_ytt_lib/widget"]
        );
    }
}
