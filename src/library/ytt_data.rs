//! `@ytt:data`: `data.values` (the library's data values as a struct), `data.list([path])`
//! (the library's files) and `data.read(path)` (a file's content). `list` and `read` resolve
//! paths from the directory of the file that loaded the module, `/`-paths from its library's
//! root, as ytt does.

use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::environment::{FrozenModule, Module};
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_simple_value;
use starlark::values::list::AllocList;
use starlark::values::{starlark_value, NoSerialize, StarlarkValue, Value};
use starlark_map::small_map::SmallMap;

use super::exec::{Current, LibExec};
use super::tree::strip_dir;
use crate::eval::convert::{value_to_starlark, MapAs};
use crate::eval::host::{Extra, FileCtx};
use crate::eval::structs::{FrozenYttStruct, YttStruct};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Allocative)]
enum Kind {
    List,
    Read,
}

/// `data.list` or `data.read`, bound to the directory context of the loading file.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
struct DataFn {
    kind: Kind,
    root: String,
    dir: String,
}

starlark_simple_value!(DataFn);

impl fmt::Display for DataFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::List => f.write_str("<built-in function data.list>"),
            Kind::Read => f.write_str("<built-in function data.read>"),
        }
    }
}

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::Error::msg(msg))
}

impl DataFn {
    fn list(&self, path: &str, exec: &LibExec<'_>) -> Result<Vec<String>, String> {
        let tree = exec.ws.tree();
        let (mut lib, from_root, path) = match path.strip_prefix('/') {
            Some(rest) => (self.root.clone(), true, rest),
            None => (self.dir.clone(), false, path),
        };
        if !path.is_empty() {
            lib = tree.find_library(&lib, path)?;
        }
        Ok(tree
            .accessible(&lib)
            .iter()
            .map(|f| {
                let rel = strip_dir(&lib, &f.rel_path).unwrap_or(&f.rel_path);
                if from_root {
                    format!("/{rel}")
                } else {
                    rel.to_string()
                }
            })
            .collect())
    }

    fn read(&self, path: &str, exec: &LibExec<'_>) -> Result<String, String> {
        let (lib, path) = match path.strip_prefix('/') {
            Some(rest) => (&self.root, rest),
            None => (&self.dir, path),
        };
        let f = exec.ws.tree().find_file(lib, path)?;
        if let Some(message) = &f.unreadable {
            return Err(message.to_string());
        }
        // A binary file keeps its bytes (see `eval::bytestr`).
        Ok(match &f.raw {
            Some(bytes) => crate::eval::bytestr::from_bytes(bytes).into_owned(),
            None => f.data.to_string(),
        })
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for DataFn {
    /// starlark-go hashes a builtin by its name (a builtin may be a dict key).
    fn write_hash(
        &self,
        hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        crate::stdlib::builtin_hash::by_name(&self.to_string(), hasher)
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        args.no_named_args()?;
        let pos: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let exec = eval
            .extra
            .and_then(|e| Current::of(e.downcast_ref::<Extra>()))
            .map(|x| x.exec)
            .ok_or_else(|| err("data module used outside of a library".into()))?;
        let path_arg = |v: &Value<'v>| {
            v.unpack_str()
                .map(str::to_string)
                .ok_or_else(|| format!("expected a string, but was {}", v.get_type()))
        };
        let heap = eval.heap();
        // starlark-go puts the builtin's name in front of its error.
        let name = match self.kind {
            Kind::List => "data.list",
            Kind::Read => "data.read",
        };
        let named = |message: String| err(format!("{name}: {message}"));
        match self.kind {
            Kind::List => {
                if pos.len() > 1 {
                    return Err(named("expected exactly zero or one argument".into()));
                }
                let path = match pos.first() {
                    Some(v) => path_arg(v).map_err(named)?,
                    None => String::new(),
                };
                let files = self.list(&path, exec).map_err(named)?;
                Ok(heap.alloc(AllocList(
                    files.iter().map(|f| heap.alloc_str(f).to_value()),
                )))
            }
            Kind::Read => {
                if pos.len() != 1 {
                    return Err(named("expected exactly one argument".into()));
                }
                let path = path_arg(&pos[0]).map_err(named)?;
                let content = self.read(&path, exec).map_err(named)?;
                Ok(heap.alloc_str(&content).to_value())
            }
        }
    }
}

/// The frozen module holding `values`, the library's data values as a struct: built once per
/// library evaluation.
fn values_module(exec: &LibExec<'_>) -> Option<FrozenModule> {
    if let Some(m) = exec.data_values.borrow().as_ref() {
        return Some(m.clone());
    }
    let built = Module::with_temp_heap(|module| {
        let values = value_to_starlark(&exec.values_map(), module.heap(), MapAs::Struct);
        module.set("values", values);
        module.freeze().ok()
    })?;
    *exec.data_values.borrow_mut() = Some(built.clone());
    Some(built)
}

/// ytt's crash on loading `@ytt:data` when the data values hold a key that is not a string
/// (see [`super::struct_keys`]): looked for until the module is built once.
pub fn crash(exec: &LibExec<'_>) -> Option<String> {
    if exec.data_values.borrow().is_some() {
        return None;
    }
    super::struct_keys::crash(&exec.values.value)
}

/// Builds the `@ytt:data` module a file in `ctx` of the library evaluation `exec` loads.
pub fn module(exec: &LibExec<'_>, ctx: &FileCtx) -> Option<FrozenModule> {
    let shared = values_module(exec)?;
    Module::with_temp_heap(|module| {
        let heap = module.heap();
        // `values` points into the shared module's heap, which this module keeps alive. Data
        // values are always a map, hence a struct; anything else is converted here.
        let values = match shared.get("values").ok()?.downcast::<FrozenYttStruct>() {
            Ok(typed) => typed.owned_frozen_value(module.frozen_heap()).to_value(),
            Err(_) => value_to_starlark(&exec.values_map(), heap, MapAs::Struct),
        };
        let mut fields = SmallMap::new();
        fields.insert("values".to_string(), values);
        for kind in [Kind::List, Kind::Read] {
            let name = if kind == Kind::List { "list" } else { "read" };
            let f = heap.alloc_simple(DataFn {
                kind,
                root: ctx.root.clone(),
                dir: ctx.dir.clone(),
            });
            fields.insert(name.to_string(), f);
        }
        module.set("data", heap.alloc_complex(YttStruct::new(fields)));
        module.freeze().ok()
    })
}
