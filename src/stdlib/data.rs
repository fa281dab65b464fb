//! `@ytt:data`: `data.values` (the library's data values as a struct), `data.list()` (the
//! library's files) and `data.read(path)` (a file's content).

use starlark::environment::{FrozenModule, GlobalsBuilder, Module};
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::list::AllocList;
use starlark::values::Value;
use starlark_map::small_map::SmallMap;

use crate::eval::convert::{value_to_starlark, MapAs};
use crate::eval::structs::YttStruct;
use crate::library::Library;

fn lib_of<'a>(eval: &Evaluator<'_, 'a, '_>) -> Option<&'a crate::eval::run::LibEnv> {
    eval.extra
        .and_then(|e| e.downcast_ref::<crate::eval::run::LibEnv>())
}

#[starlark_module]
fn register(builder: &mut GlobalsBuilder) {
    fn list<'v>(
        #[starlark(require = pos, default = "")] path: &str,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let _ = path;
        let files: Vec<String> = lib_of(eval)
            .map(|env| {
                let mut names: Vec<String> = env.sources.borrow().keys().cloned().collect();
                names.sort();
                names
            })
            .unwrap_or_default();
        let heap = eval.heap();
        Ok(heap.alloc(AllocList(
            files.iter().map(|f| heap.alloc_str(f).to_value()),
        )))
    }

    fn read<'v>(
        #[starlark(require = pos)] path: &str,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let content = lib_of(eval).and_then(|env| {
            let p = path.trim_start_matches('/');
            env.sources.borrow().get(p).cloned()
        });
        match content {
            Some(c) => Ok(eval.heap().alloc_str(&c).to_value()),
            None => Err(starlark::Error::new_other(anyhow::Error::msg(format!(
                "Expected to find file '{path}'"
            )))),
        }
    }
}

/// Builds the `@ytt:data` module for a library.
pub fn module(lib: &Library) -> Option<FrozenModule> {
    let fns = FrozenModule::from_globals(&GlobalsBuilder::new().with(register).build()).ok()?;
    Module::with_temp_heap(|module| {
        let heap = module.heap();
        let values = value_to_starlark(&lib.data_values.borrow(), heap, MapAs::Struct);
        let values = if values.is_none() {
            heap.alloc_complex(YttStruct::new(SmallMap::new()))
        } else {
            values
        };
        let mut fields = SmallMap::new();
        fields.insert("values".to_string(), values);
        module.import_public_symbols(&fns);
        fields.insert("list".to_string(), module.get("list")?);
        fields.insert("read".to_string(), module.get("read")?);
        module.set("data", heap.alloc_complex(YttStruct::new(fields)));
        module.freeze().ok()
    })
}
