//! `load()` for one file of a library: `@ytt:` modules, and library files by path relative to
//! the loading file (or to the library root with a leading `/`), never outside the library;
//! each file is evaluated once, and load cycles are errors.

use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;

use super::Library;
use crate::eval::run::{eval_code, EvalError};
use crate::files::FileType;
use crate::template::rewrite::{rewrite, RewriteOpts};

pub struct Loader<'a> {
    lib: &'a Library,
    dir: String,
}

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::Error::msg(msg))
}

/// Joins `path` to `dir`, resolving `.` and `..`; `None` if it leaves the library.
pub fn resolve(dir: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = if let Some(rest) = path.strip_prefix('/') {
        let _ = rest;
        Vec::new()
    } else {
        dir.split('/').filter(|p| !p.is_empty()).collect()
    };
    for piece in path.split('/') {
        match piece {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

impl<'a> Loader<'a> {
    pub fn new(lib: &'a Library, file: &str) -> Loader<'a> {
        let dir = match file.rfind('/') {
            Some(i) => file[..i].to_string(),
            None => String::new(),
        };
        Loader { lib, dir }
    }

    fn load_file(&self, path: &str) -> starlark::Result<FrozenModule> {
        let Some(rel) = resolve(&self.dir, path) else {
            return Err(err(format!(
                "cannot load {path}: Expected to find file within the library"
            )));
        };
        if let Some(m) = self.lib.modules.borrow().get(&rel) {
            return Ok(m.clone());
        }
        if self.lib.loading.borrow().contains(&rel) {
            return Err(err(format!("cannot load {path}: cycle in load graph")));
        }
        let Some(file) = self.lib.file(&rel) else {
            return Err(err(format!(
                "cannot load {path}: Expected to find file '{rel}' (hint: only files included via -f flag are available)"
            )));
        };
        self.lib.loading.borrow_mut().push(rel.clone());
        let result = match file.file_type() {
            FileType::Starlark => self.eval_star(&rel, &file.data),
            FileType::Yaml | FileType::Text => self.lib.eval_file(file).map(|(_, m)| m),
            FileType::Unknown => Err(EvalError {
                message: format!("File '{rel}' is not a known file type"),
                pos: None,
            }),
        };
        self.lib.loading.borrow_mut().pop();
        let module = result.map_err(|e| err(format!("cannot load {path}: {}", e.message)))?;
        self.lib.modules.borrow_mut().insert(rel, module.clone());
        Ok(module)
    }

    fn eval_star(&self, rel: &str, src: &str) -> Result<FrozenModule, EvalError> {
        let opts = RewriteOpts {
            while_iter: "__ytt_while".to_string(),
            tpl: None,
        };
        let src = crate::template::keywords::rename_reserved(src);
        let out = rewrite(&src, &opts).map_err(|e| EvalError {
            message: e.message.clone(),
            pos: None,
        })?;
        let mut map = crate::eval::run::LineMap::default();
        for l in &out.line_map {
            map.lines
                .push(Some(crate::pos::Pos::new(&rel.into(), *l, 1, 0)));
            map.code.push(String::new());
        }
        self.lib
            .env
            .line_maps
            .borrow_mut()
            .insert(rel.to_string(), std::sync::Arc::new(map));
        let loader = Loader::new(self.lib, rel);
        eval_code(
            &self.lib.env,
            &self.lib.globals,
            &loader,
            rel,
            out.code,
            |_| {},
        )
        .map(|(_, m)| m)
    }
}

impl FileLoader for Loader<'_> {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        if let Some(name) = path.strip_prefix("@ytt:") {
            if name == "data" {
                return crate::stdlib::data::module(self.lib)
                    .ok_or_else(|| err(format!("cannot load {path}: building module failed")));
            }
            return crate::stdlib::static_module(name).ok_or_else(|| {
                err(format!(
                    "cannot load {path}: builtin ytt library '{name}' not found"
                ))
            });
        }
        self.load_file(path)
    }
}
