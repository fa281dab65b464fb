//! The sandbox the policies run in: the evaluation runtime of templates
//! ([`crate::eval`]) with the same limits (steps, heap, time: [`Limits::default`], as a
//! library evaluation of the same process has them), the same universe of builtins and the
//! same `@ytt:` modules that need no library (`@ytt:data` and `@ytt:library` have none to
//! read), plus `@yttlint:policy`. `load()` reaches only the `.star` files of the policy
//! directories, from the texts read before the job (see [`super::files`]): a policy can read
//! no other file, and nothing of the environment.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use starlark::any::{AnyLifetime, ProvidesStaticType};
use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;

use super::files::Source;
use crate::eval::host::{Extra, FileCtx, Host};
use crate::eval::limits::Limits;
use crate::eval::run::{eval_code, ErrorKind, EvalError, KindedError, LibEnv};
use crate::stdlib::Universe;

/// The policies of one job: their sources, the environment their evaluations share, and the
/// modules already evaluated.
#[derive(ProvidesStaticType)]
pub struct PolicyHost<'a> {
    pub env: LibEnv,
    globals: Universe,
    dirs: &'a [String],
    sources: &'a [Source],
    modules: RefCell<HashMap<String, FrozenModule>>,
    loading: RefCell<Vec<String>>,
}

impl<'a> PolicyHost<'a> {
    pub fn new(dirs: &'a [String], sources: &'a [Source]) -> PolicyHost<'a> {
        PolicyHost::with_limits(dirs, sources, Limits::default())
    }

    /// A sandbox with other limits than a template's (for tests).
    pub fn with_limits(
        dirs: &'a [String],
        sources: &'a [Source],
        limits: Limits,
    ) -> PolicyHost<'a> {
        PolicyHost {
            env: LibEnv::new(limits),
            globals: Universe::default(),
            dirs,
            sources,
            modules: RefCell::default(),
            loading: RefCell::default(),
        }
    }

    /// Whether `path` is one of the policy directories' files.
    pub fn has_source(&self, path: &str) -> bool {
        self.sources.iter().any(|s| s.path == path)
    }

    /// Where the file `path` is evaluated: its policy directory and its own directory.
    pub fn ctx_of(&self, path: &str) -> FileCtx {
        let root = self
            .dirs
            .iter()
            .find(|d| crate::files::paths::is_within(path, d))
            .cloned()
            .unwrap_or_default();
        FileCtx {
            root,
            dir: crate::files::paths::parent(path).to_string(),
        }
    }

    /// The module of the policy file `path`, evaluated once.
    pub fn module(&self, path: &str) -> Result<FrozenModule, EvalError> {
        if let Some(m) = self.modules.borrow().get(path) {
            return Ok(m.clone());
        }
        if self.loading.borrow().iter().any(|p| p == path) {
            return Err(EvalError::new(ErrorKind::Load, "cycle in load graph", None));
        }
        let source = self
            .sources
            .iter()
            .find(|s| s.path == path)
            .ok_or_else(|| EvalError::new(ErrorKind::Load, format!("{path} was not read"), None))?;
        let text = source
            .text
            .as_ref()
            .map_err(|why| EvalError::new(ErrorKind::Load, why.clone(), None))?;
        let file: Arc<str> = Arc::from(path);
        let (code, map) = crate::library::star_code::star_code(text, &file)?;
        self.env
            .line_maps
            .borrow_mut()
            .insert(path.to_string(), Arc::new(map));
        self.env
            .sources
            .borrow_mut()
            .insert(path.to_string(), Arc::from(text.as_str()));
        let ctx = self.ctx_of(path);
        let loader = PolicyLoader {
            host: self,
            ctx: ctx.clone(),
        };
        let extra = Extra { host: self, ctx };
        self.loading.borrow_mut().push(path.to_string());
        let result = eval_code(
            &self.env,
            &self.globals,
            &loader,
            &extra,
            path,
            code,
            |_| {},
        );
        self.loading.borrow_mut().pop();
        let module = result?.1;
        self.modules
            .borrow_mut()
            .insert(path.to_string(), module.clone());
        Ok(module)
    }

    /// The repository path of the `.star` file `path` names from the context `ctx`: relative
    /// to the loading file's directory, or with a leading `/` to its policy directory; it
    /// must be a `.star` file under one of the policy directories.
    fn resolve(&self, ctx: &FileCtx, path: &str) -> Result<String, String> {
        if !path.ends_with(".star") {
            return Err("a policy can load only .star files of the policy directories and @ytt: or @yttlint: modules".to_string());
        }
        let (base, rest) = match path.strip_prefix('/') {
            Some(rest) => (ctx.root.as_str(), rest),
            None => (ctx.dir.as_str(), path),
        };
        let mut parts: Vec<&str> = base
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        for part in rest.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err("the path leads outside the repository".to_string());
                    }
                }
                p => parts.push(p),
            }
        }
        let full = parts.join("/");
        let inside = self
            .dirs
            .iter()
            .any(|d| crate::files::paths::is_within(&full, d));
        if !inside || !self.sources.iter().any(|s| s.path == full) {
            return Err(format!(
                "{full} is not a .star file of the policy directories ({})",
                self.dirs.join(", ")
            ));
        }
        Ok(full)
    }

    /// What `load(path)` gives in the context `ctx`.
    fn load_in(&self, ctx: &FileCtx, path: &str) -> starlark::Result<FrozenModule> {
        let fail = |kind: ErrorKind, message: String| {
            starlark::Error::new_other(KindedError { kind, message })
        };
        if path == super::module::NAME {
            return super::module::module()
                .ok_or_else(|| fail(ErrorKind::Load, format!("cannot load {path}")));
        }
        if let Some(name) = path.strip_prefix("@ytt:") {
            let module = match name {
                "data" | "library" => None,
                "assert" => crate::validate::assert_module::module(),
                _ => crate::stdlib::static_module(name),
            };
            return module.ok_or_else(|| {
                fail(
                    ErrorKind::Load,
                    format!("cannot load {path}: a policy has the @ytt: modules that need no library (not data, library), and @yttlint:policy"),
                )
            });
        }
        let full = self
            .resolve(ctx, path)
            .map_err(|e| fail(ErrorKind::Load, format!("cannot load {path}: {e}")))?;
        self.module(&full).map_err(|e| {
            fail(
                ErrorKind::Load,
                format!("cannot load {path}: {}", e.message),
            )
        })
    }
}

impl Host for PolicyHost<'_> {
    fn env(&self) -> &LibEnv {
        &self.env
    }

    fn limits(&self) -> &Limits {
        &self.env.limits
    }

    fn root(&self) -> &str {
        ""
    }

    fn load(&self, ctx: &FileCtx, path: &str) -> starlark::Result<FrozenModule> {
        self.load_in(ctx, path)
    }

    fn upper(&self) -> &dyn AnyLifetime<'_> {
        self
    }
}

/// The `load()` of one policy file.
struct PolicyLoader<'h, 'a> {
    host: &'h PolicyHost<'a>,
    ctx: FileCtx,
}

impl FileLoader for PolicyLoader<'_, '_> {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        self.host.load_in(&self.ctx, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(path: &str, text: &str) -> Source {
        Source {
            path: path.into(),
            text: Ok(text.into()),
        }
    }

    #[test]
    fn loads_reach_only_the_policy_directories() {
        let dirs = vec!["policies".to_string()];
        let sources = vec![
            source("policies/team.star", "x = 1\n"),
            source("policies/lib/h.star", "y = 2\n"),
        ];
        let host = PolicyHost::new(&dirs, &sources);
        let ctx = host.ctx_of("policies/team.star");
        assert_eq!(ctx.root, "policies");
        assert_eq!(
            host.resolve(&ctx, "lib/h.star").unwrap(),
            "policies/lib/h.star"
        );
        assert_eq!(
            host.resolve(&ctx, "/lib/h.star").unwrap(),
            "policies/lib/h.star"
        );
        assert!(host.resolve(&ctx, "../config/x.star").is_err());
        assert!(host.resolve(&ctx, "../../../etc/passwd.star").is_err());
        assert!(host.resolve(&ctx, "values.yml").is_err());
        assert!(host.load_in(&ctx, "@ytt:data").is_err());
        assert!(host.load_in(&ctx, "@ytt:yaml").is_ok());
        assert!(host.load_in(&ctx, "@yttlint:policy").is_ok());
        assert!(host.module("policies/lib/h.star").is_ok());
    }
}
