//! What the evaluation of a file needs from the layer that runs it (the library evaluation),
//! reached by native functions through the evaluator's `extra`. The engine's layers sit on one
//! another (eval, then stdlib, validate, schema, library): lower layers see the library only
//! through [`Host`], so no module below `library` imports it.

use starlark::any::{AnyLifetime, ProvidesStaticType};
use starlark::environment::FrozenModule;

use super::limits::Limits;
use super::run::LibEnv;

/// The library evaluation a file belongs to, as the layers below it see it.
pub trait Host {
    /// What all evaluations of the run share (sources, limits, frozen template states).
    fn env(&self) -> &LibEnv;
    /// The limits of this library evaluation.
    fn limits(&self) -> &Limits;
    /// The library's root directory.
    fn root(&self) -> &str;
    /// Loads the module at `path` as `load()` does from a file evaluated in `ctx`.
    fn load(&self, ctx: &FileCtx, path: &str) -> starlark::Result<FrozenModule>;
    /// The host itself, for the modules the library layer defines (`@ytt:data`,
    /// `@ytt:library`), which downcast it to their own type.
    fn upper(&self) -> &dyn AnyLifetime<'_>;
}

/// Where a file is evaluated: the root of its library (for `/`-paths) and its own directory.
#[derive(Clone, Debug)]
pub struct FileCtx {
    pub root: String,
    pub dir: String,
}

/// What native functions reach through the evaluator's `extra`: the host and the directory
/// context of the file being evaluated.
#[derive(ProvidesStaticType)]
pub struct Extra<'a> {
    pub host: &'a dyn Host,
    pub ctx: FileCtx,
}
