//! The standalone check of a private library (`_ytt_lib/<name>`), run even when nothing uses
//! the library. It does not evaluate templates (a library may need data values only its users
//! give), so it covers what can be known without them:
//!
//! - every YAML file parses (YAML syntax, ytt's comment rules when compiled);
//! - every YAML and text template compiles to Starlark, and that Starlark (after the `end`
//!   block rewrite) parses;
//! - every Starlark module's code rewrites and parses;
//! - the library's `@data/values-schema` documents are well formed (they are evaluated, as ytt
//!   does to build the schema).
//!
//! Name resolution, `load()` targets and everything at run time are left to the evaluation of
//! the roots that use the library. Every problem found is returned, not just the first.

use std::sync::Arc;

use starlark::syntax::AstModule;

use crate::eval::errors::format_error;
use crate::eval::run::{dialect, to_starlark, ErrorKind, EvalError, LineMap};
use crate::files::{FileType, InputFile};
use crate::library::Workspace;
use crate::template::compile::{compile_text, compile_yaml_in, CompileOpts, Compiled};

/// The problems of the library made of the workspace's files (the library is its root).
pub fn check(ws: &Workspace) -> Vec<EvalError> {
    let mut errors = Vec::new();
    for f in ws.accessible("") {
        if let Err(e) = check_file(ws, f) {
            errors.push(e);
        }
    }
    // Building the schema parses every file again: a YAML error already found is not repeated.
    if let Err(e) = ws.data_values_schema() {
        if !errors
            .iter()
            .any(|o| o.message == e.message && o.pos == e.pos)
        {
            errors.push(e);
        }
    }
    errors
}

fn check_file(ws: &Workspace, f: &InputFile) -> Result<(), EvalError> {
    if matches!(
        f.file_type(),
        FileType::Yaml | FileType::Text | FileType::Starlark
    ) {
        crate::library::readable(f)?;
    }
    let name: Arc<str> = Arc::from(f.rel_path.as_str());
    let templated = f.is_template() || f.is_library();
    match f.file_type() {
        FileType::Yaml => {
            let (ds, templating) = ws.templating(f, ws.opts.strict)?;
            if !templated || !templating {
                return Ok(());
            }
            let opts = CompileOpts {
                ignore_unknown_comments: ws.opts.ignore_unknown_comments,
            };
            let compiled = compile_yaml_in(&ds, &name, ws.env.template_id(), opts, &f.data)
                .map_err(|e| crate::library::exec::compile_error(&f.rel_path, e))?;
            parse_compiled(ws, &compiled)
        }
        FileType::Text if templated => {
            let compiled = compile_text(&f.data, &name, ws.env.template_id()).map_err(|e| {
                EvalError::new(
                    ErrorKind::Syntax,
                    format!("Parsing text template '{}': {}", f.rel_path, e.message),
                    Some(e.pos),
                )
            })?;
            parse_compiled(ws, &compiled)
        }
        FileType::Starlark => parse_starlark(ws, f, &name),
        _ => Ok(()),
    }
}

/// Parses the Starlark a template compiled to; errors point at template lines.
fn parse_compiled(ws: &Workspace, compiled: &Compiled) -> Result<(), EvalError> {
    let (code, map) = to_starlark(compiled)?;
    let file = compiled.file.to_string();
    parse_code(ws, &file, code, map)
}

fn parse_starlark(ws: &Workspace, f: &InputFile, name: &Arc<str>) -> Result<(), EvalError> {
    let (code, map) = crate::library::star_code::star_code(&f.data, name)?;
    parse_code(ws, &f.rel_path, code, map)
}

fn parse_code(ws: &Workspace, file: &str, code: String, map: LineMap) -> Result<(), EvalError> {
    ws.env
        .line_maps
        .borrow_mut()
        .insert(file.to_string(), Arc::new(map));
    if let Some((line, depth)) = crate::eval::nesting::too_deep(&code) {
        return Err(crate::eval::nesting::error(&ws.env, file, line, depth));
    }
    let ast = AstModule::parse(file, code, &dialect()).map_err(|e| format_error(&e, &ws.env))?;
    if ws.env.keep_asts.get() {
        ws.env
            .asts
            .borrow_mut()
            .insert(file.to_string(), Arc::new(ast));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::EvalOpts;

    fn problems(files: &[(&str, &str)]) -> Vec<String> {
        let inputs = files.iter().map(|(p, d)| InputFile::new(p, d)).collect();
        let ws = Workspace::new(inputs, EvalOpts::default());
        check(&ws)
            .into_iter()
            .map(|e| {
                let at = e.pos.map(|p| p.as_compact()).unwrap_or_default();
                format!("{at} {}", e.message.lines().next().unwrap_or(""))
            })
            .collect()
    }

    #[test]
    fn a_sound_library_has_no_problems() {
        let found = problems(&[
            ("values.yml", "#@data/values-schema\n---\nport: 80\n"),
            (
                "svc.yml",
                "#@ load(\"@ytt:data\", \"data\")\nport: #@ data.values.port\n",
            ),
            ("helpers.star", "def f(x):\n  return x\nend\n"),
            ("t.txt", "(@= str(1) @)\n"),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn every_broken_file_is_reported_without_evaluating() {
        let found = problems(&[
            ("a.yml", "a: [\n"),
            ("b.yml", "#@ if True\nb: 1\n#@ end\n"),
            ("c.star", "def f(:\n"),
            ("d.yml", "d: #@ undefined_name\n"),
            ("e.yml", "# plain comment\ne: #@ 1\n"),
        ]);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].starts_with("a.yml:"), "{found:?}");
        assert!(
            found[1].starts_with("b.yml:2 got newline, want ':'"),
            "{found:?}"
        );
        assert!(found[2].starts_with("c.star:"), "{found:?}");
        assert!(found[3].starts_with("e.yml:1"), "{found:?}");
    }

    #[test]
    fn a_broken_schema_is_reported() {
        let found = problems(&[(
            "s.yml",
            "#@data/values-schema\n---\n#@schema/nullable\nports: []\n",
        )]);
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
