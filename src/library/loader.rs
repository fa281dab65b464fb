//! `load()` for one file of a library: `@ytt:` modules, files of the library by path relative
//! to the loading file's directory (or to the library root with a leading `/`), and files of
//! private libraries (`@name:path`). Paths never leave the run's files; each file is evaluated
//! once per library evaluation, and load cycles are errors.

use std::collections::HashMap;

use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;

use super::exec::LibExec;
use super::tree::dir_of;
use crate::eval::host::{Extra, FileCtx};
use crate::eval::run::{eval_code, ErrorKind, EvalError, KindedError};
use crate::files::{FileType, InputFile};

pub struct Loader<'a> {
    exec: &'a LibExec<'a>,
    ctx: FileCtx,
}

/// A `load()` that fails, as a Starlark error of kind `kind`.
fn err(kind: ErrorKind, message: String) -> starlark::Error {
    starlark::Error::new_other(KindedError { kind, message })
}

/// The kind of a `load()` whose file fails: a load error, unless the file fails in a way of
/// its own (its YAML, its comments, its data values, a limit).
fn loading(inner: ErrorKind) -> ErrorKind {
    match inner {
        // A file that does not compile is reported as it is, wherever it is loaded from.
        ErrorKind::Overlay => ErrorKind::Load,
        // It failed evaluating: that rests on the inputs, as the failure itself does.
        ErrorKind::Template => ErrorKind::LoadEvaluation,
        other => other,
    }
}

impl<'a> Loader<'a> {
    pub fn new(exec: &'a LibExec<'a>, ctx: FileCtx) -> Loader<'a> {
        Loader { exec, ctx }
    }

    /// Finds the file a `load()` names and the context it is evaluated in.
    fn locate(&self, path: &str) -> Result<(&'a InputFile, FileCtx), String> {
        let tree = self.exec.ws.tree();
        let (mut ctx, mut file_path) = (self.ctx.clone(), path);
        if let Some(rest) = path.strip_prefix('@') {
            let Some((lib, p)) = rest.split_once(':') else {
                return Err("Expected library path to be in format '@name:path' e.g. '@github.com/vmware-tanzu/test:test.star' or '@ytt:base64'".into());
            };
            let dir = tree.find_private(&self.ctx.dir, lib)?;
            ctx = FileCtx {
                root: dir.clone(),
                dir,
            };
            file_path = p;
        }
        let base = match file_path.strip_prefix('/') {
            Some(rest) => {
                file_path = rest;
                ctx.root.clone()
            }
            None => ctx.dir.clone(),
        };
        let f = tree.find_file(&base, file_path)?;
        if !f.is_library() {
            return Err(format!(
                "Expected file '{}' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)",
                f.rel_path
            ));
        }
        Ok((
            f,
            FileCtx {
                root: ctx.root,
                dir: dir_of(&f.rel_path).to_string(),
            },
        ))
    }

    /// Evaluates a library file (once) and returns its module. A second run of an evaluation
    /// (`eval::index_retry`) evaluates each file it loads anew, once for that run.
    pub fn module(&self, f: &InputFile) -> Result<FrozenModule, EvalError> {
        let key = f.rel_path.clone();
        let again = crate::eval::index_retry::run_number();
        if let Some(run) = again {
            let mut kept = self.exec.modules_again.borrow_mut();
            if kept.0 != run {
                *kept = (run, HashMap::new());
            }
            if let Some(m) = kept.1.get(&key) {
                return Ok(m.clone());
            }
        } else if let Some(m) = self.exec.modules.borrow().get(&key) {
            return Ok(m.clone());
        }
        if self.exec.loading.borrow().contains(&key) {
            return Err(EvalError::new(ErrorKind::Load, "cycle in load graph", None));
        }
        let ctx = FileCtx {
            root: self.ctx.root.clone(),
            dir: dir_of(&f.rel_path).to_string(),
        };
        self.exec.loading.borrow_mut().push(key.clone());
        let result = match f.file_type() {
            FileType::Starlark => self.eval_star(f, ctx),
            FileType::Yaml | FileType::Text => self
                .exec
                .eval_file(f, ctx)
                .and_then(|(_, m)| m.map_or_else(crate::eval::run::empty_module, Ok)),
            FileType::Unknown => Err(EvalError::new(
                ErrorKind::Load,
                format!("File '{}' type is not a known", f.rel_path),
                None,
            )),
        };
        self.exec.loading.borrow_mut().pop();
        let module = result?;
        match again {
            Some(_) => self
                .exec
                .modules_again
                .borrow_mut()
                .1
                .insert(key, module.clone()),
            None => self.exec.modules.borrow_mut().insert(key, module.clone()),
        };
        Ok(module)
    }

    fn eval_star(&self, f: &InputFile, ctx: FileCtx) -> Result<FrozenModule, EvalError> {
        super::readable(f)?;
        let rel = f.rel_path.as_str();
        // ytt reports a rewrite error of a module without a position.
        let (code, mut map) = super::star_code::star_code(&f.data, &rel.into())
            .map_err(|e| EvalError { pos: None, ..e })?;
        map.bare_lines = true;
        let env = &self.exec.ws.env;
        env.line_maps
            .borrow_mut()
            .insert(rel.to_string(), std::sync::Arc::new(map));
        let loader = Loader::new(self.exec, ctx.clone());
        let extra = Extra {
            host: self.exec,
            ctx,
        };
        eval_code(
            env,
            &self.exec.ws.globals,
            &loader,
            &extra,
            rel,
            code,
            |_| {},
        )
        .map(|(_, m)| m)
        .map_err(|e| e.map_message(|m| format!("Evaluating starlark template: {m}")))
    }

    fn builtin(&self, name: &str) -> starlark::Result<FrozenModule> {
        let module = match name {
            "data" => {
                if let Some(crash) = super::ytt_data::crash(self.exec) {
                    return Err(err(ErrorKind::Template, crash));
                }
                super::ytt_data::module(self.exec, &self.ctx)
            }
            "library" => super::ytt_library::module(),
            "assert" => crate::validate::assert_module::module(),
            _ => crate::stdlib::static_module(name),
        };
        module.ok_or_else(|| {
            err(ErrorKind::Load, format!(
                "cannot load @ytt:{name}: builtin ytt library does not have module '{name}' (hint: is it available in newer version of ytt?)"
            ))
        })
    }
}

impl FileLoader for Loader<'_> {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        if let Some(name) = path.strip_prefix("@ytt:") {
            return self.builtin(name);
        }
        let (file, ctx) = self
            .locate(path)
            .map_err(|e| err(ErrorKind::Load, format!("cannot load {path}: {e}")))?;
        Loader::new(self.exec, ctx).module(file).map_err(|e| {
            err(
                loading(e.kind),
                format!("cannot load {path}: {}", e.message),
            )
        })
    }
}
