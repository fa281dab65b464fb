//! ytt's standard library: the `@ytt:` modules a template can `load()` that need nothing of the
//! library being evaluated, one file each, and the universe of builtins. The modules that do
//! live in the layers above: `@ytt:assert`'s validation half in `validate::assert_module`,
//! `@ytt:data` and `@ytt:library` in `library`.

pub mod args;
pub mod assert;
pub mod assert_extra;
pub mod assert_format;
pub mod assert_rules;
pub mod assertion;
pub mod base64;
pub mod bound;
pub mod builtin_hash;
pub mod decoded;
pub mod duration;
pub mod gobuiltins;
pub mod godict;
pub mod goformat;
pub mod goindex;
pub mod golike;
pub mod golist_pop;
pub mod goops;
pub mod goorder;
pub mod gopercent;
pub mod gopow;
pub mod gosort;
pub mod gostr;
pub mod gostriter;
pub mod ip;
pub mod json;
pub mod json_decode;
pub mod kwargs;
pub mod math;
pub mod md5;
pub mod nested_load;
pub mod overlay;
pub mod regexp;
pub mod regexp_go;
pub mod sha256;
pub mod struct_like;
pub mod structs;
pub mod template;
pub mod toml;
pub mod toml_encode;
pub mod url;
pub mod url_escape;
pub mod url_parse;
pub mod version;
pub mod yaml;

use std::cell::OnceCell;

use starlark::environment::{FrozenModule, Globals, GlobalsBuilder, LibraryExtension};

use crate::eval::run::GlobalsFor;

/// The globals of one evaluation environment, built when first needed: the builtins this crate
/// defines for every module, and the full universe (with the Starlark crate's builtins, whose
/// registration parses their documentation) only for modules that name one of those.
#[derive(Default)]
pub struct Universe {
    own: OnceCell<Globals>,
    full: OnceCell<Globals>,
}

impl GlobalsFor for Universe {
    fn wide(&self, code: &str) -> bool {
        gobuiltins::names_crate_builtin(code)
    }

    fn globals(&self, wide: bool) -> &Globals {
        if wide {
            self.full.get_or_init(globals)
        } else {
            self.own.get_or_init(own_globals)
        }
    }
}

/// The universe without the Starlark crate's builtins: what a module that names none of them
/// sees the same way.
fn own_globals() -> Globals {
    GlobalsBuilder::new()
        .with(gobuiltins::register_constants)
        .with(gobuiltins::register_own)
        .with(register_go_universe)
        .build()
}

/// The builtins of starlark-go's universe this crate defines beside `gobuiltins`' own.
fn register_go_universe(builder: &mut GlobalsBuilder) {
    goops::register(builder);
    goindex::register(builder);
    goorder::register(builder);
    gostr::register(builder);
    nested_load::register(builder);
    kwargs::register(builder);
}

/// The globals every template and Starlark file sees (starlark-go's universe, as ytt has it).
pub fn globals() -> starlark::environment::Globals {
    let crate_globals =
        GlobalsBuilder::extended_by(&[LibraryExtension::Print, LibraryExtension::SetType]).build();
    GlobalsBuilder::new()
        .with(|b| gobuiltins::register_universe(b, &crate_globals))
        .with(register_go_universe)
        .build()
}

/// Builds a module holding the members `f` registers.
pub fn module_from(f: impl FnOnce(&mut GlobalsBuilder)) -> Option<FrozenModule> {
    let g = GlobalsBuilder::new().with(f).build();
    FrozenModule::from_globals(&g).ok()
}

/// The static `@ytt:` module called `name`, if there is one.
pub fn static_module(name: &str) -> Option<FrozenModule> {
    let register: fn(&mut GlobalsBuilder) = match name {
        "base64" => base64::register,
        "ip" => ip::register,
        "json" => json::register,
        "math" => math::register,
        "md5" => md5::register,
        "overlay" => overlay::register,
        "regexp" => regexp::register,
        "sha256" => sha256::register,
        "struct" => structs::register,
        "template" => template::register,
        "toml" => toml::register,
        "url" => url::register,
        "version" => version::register,
        "yaml" => yaml::register,
        _ => return None,
    };
    module_from(|b| b.namespace(name, register))
}
