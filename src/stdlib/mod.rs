//! ytt's standard library: the `@ytt:` modules a template can `load()`. Each module is one file;
//! static modules are built once per evaluation environment, `@ytt:data` per library.

pub mod assert;
pub mod data;
pub mod library;
pub mod overlay;
pub mod structs;
pub mod template;

use starlark::environment::{FrozenModule, GlobalsBuilder, LibraryExtension};

/// The globals every template and Starlark file sees (starlark-go's universe, as ytt has it).
pub fn globals() -> starlark::environment::Globals {
    GlobalsBuilder::extended_by(&[LibraryExtension::Print, LibraryExtension::SetType]).build()
}

/// Builds a module holding the members `f` registers.
pub fn module_from(f: impl FnOnce(&mut GlobalsBuilder)) -> Option<FrozenModule> {
    let g = GlobalsBuilder::new().with(f).build();
    FrozenModule::from_globals(&g).ok()
}

/// The static `@ytt:` module called `name`, if there is one.
pub fn static_module(name: &str) -> Option<FrozenModule> {
    match name {
        "struct" => module_from(|b| b.namespace("struct", structs::register)),
        "assert" => module_from(|b| b.namespace("assert", assert::register)),
        "overlay" => module_from(|b| b.namespace("overlay", overlay::register)),
        "template" => module_from(|b| b.namespace("template", template::register)),
        _ => None,
    }
}
