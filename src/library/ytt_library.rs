//! `@ytt:library`: `library.get(name, alias=, ...)` returns a private library (from the
//! `_ytt_lib` directory next to the calling file) that can be given data values
//! (`with_data_values`, `with_data_values_schema`), evaluated (`eval()` returns its documents),
//! asked for its final values (`data_values()`) or for a symbol (`export(name, path=)`).

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::environment::{FrozenModule, Module};
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_simple_value;
use starlark::values::{starlark_value, NoSerialize, StarlarkValue, Value};

use super::envelope::{Envelope, LibRef};
use super::exec::{Current, EvalResult, LibExec};
use super::schema_docs::{compute_schema, doc_error};
use crate::eval::convert::{starlark_to_value, value_to_starlark, MapAs};
use crate::eval::fragment::{FragData, Fragment};
use crate::eval::host::Extra;
use crate::eval::overlay_host::StarlarkHost;
use crate::eval::run::{ErrorKind, EvalError};
use crate::overlay::plain_merge_overlay;
use crate::pos::Pos;
use crate::schema::args::ArgTable;
use crate::schema::SchemaDoc;
use crate::stdlib::args::wrap;
use crate::yaml::{DocSet, Document};

fn err(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow::Error::msg(msg))
}

fn extra<'a>(eval: &Evaluator<'_, 'a, '_>) -> starlark::Result<Current<'a>> {
    Current::of(eval.extra.and_then(|e| e.downcast_ref::<Extra>()))
        .ok_or_else(|| err("library module used outside of a library".into()))
}

/// Template option overrides given to `library.get`.
#[derive(Clone, Debug, Default)]
struct Overrides {
    ignore_unknown_comments: Option<bool>,
    implicit_map_key_overrides: Option<bool>,
    strict: Option<bool>,
    skip_validation: bool,
}

/// A private library as `library.get` returns it.
#[derive(Clone, Debug, ProvidesStaticType, NoSerialize, Allocative)]
struct LibraryValue {
    #[allocative(skip)]
    inner: Arc<LibState>,
}

#[derive(Debug)]
struct LibState {
    dir: String,
    name: LibRef,
    values: Vec<Envelope>,
    schemas: Vec<SchemaDoc>,
    overrides: Overrides,
}

starlark_simple_value!(LibraryValue);

impl fmt::Display for LibraryValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<library>")
    }
}

const METHODS: [&str; 5] = [
    "with_data_values",
    "with_data_values_schema",
    "eval",
    "export",
    "data_values",
];

#[starlark_value(type = "library")]
impl<'v> StarlarkValue<'v> for LibraryValue {
    fn get_attr(&self, attribute: &str, heap: starlark::values::Heap<'v>) -> Option<Value<'v>> {
        let name = METHODS.iter().find(|m| **m == attribute)?;
        Some(heap.alloc_simple(LibFn {
            kind: FnKind::Method(name),
            lib: Some(self.inner.clone()),
        }))
    }

    fn dir_attr(&self) -> Vec<String> {
        METHODS.iter().map(|m| m.to_string()).collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FnKind {
    Get,
    Method(&'static str),
}

/// `library.get` or a method of a library value.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
struct LibFn {
    #[allocative(skip)]
    kind: FnKind,
    #[allocative(skip)]
    lib: Option<Arc<LibState>>,
}

starlark_simple_value!(LibFn);

impl fmt::Display for LibFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            FnKind::Get => f.write_str("<built-in function library.get>"),
            FnKind::Method(m) => write!(f, "<built-in function library.{m}>"),
        }
    }
}

fn bool_arg(v: Value<'_>) -> starlark::Result<bool> {
    v.unpack_bool()
        .ok_or_else(|| err(format!("expected starlark.Bool, but was {}", v.get_type())))
}

fn str_arg(v: Value<'_>) -> starlark::Result<String> {
    v.unpack_str().map(str::to_string).ok_or_else(|| {
        err(format!(
            "expected starlark.String, but was {}",
            v.get_type()
        ))
    })
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for LibFn {
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
        let pos: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let named: Vec<(String, Value<'v>)> = args
            .names_map()?
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), *v))
            .collect();
        match (self.kind, &self.lib) {
            // ytt wraps each builtin's error in its name (`library.get: ...`).
            (FnKind::Get, _) => get(pos, named, eval).map_err(|e| wrap("library.get", &e)),
            (FnKind::Method(m), Some(lib)) => {
                let desc = lib.name.as_string();
                match m {
                    "with_data_values" => with_values(lib, pos, named, eval)
                        .map_err(|e| wrap("library.with_data_values", &e)),
                    "with_data_values_schema" => with_schema(lib, pos, eval)
                        .map_err(|e| wrap("library.with_data_values_schema", &e)),
                    "eval" => {
                        no_args(&pos, &named)?;
                        let result = run(lib, eval).map_err(|e| {
                            e.map_message(|m| {
                                format!("library.eval: Evaluating library '{desc}': {m}")
                            })
                            .into_starlark()
                        })?;
                        let frag = FragData::DocSet(DocSet {
                            items: result.output.docs.items,
                            ..DocSet::default()
                        });
                        Ok(eval.heap().alloc(Fragment::new(frag)))
                    }
                    "data_values" => {
                        no_args(&pos, &named)?;
                        let values = final_values(lib, eval).map_err(|e| {
                            e.map_message(|m| {
                                format!("library.export: Exporting from library '{desc}': {m}")
                            })
                            .into_starlark()
                        })?;
                        Ok(value_to_starlark(&values.value, eval.heap(), MapAs::Struct))
                    }
                    _ => export(lib, pos, named, eval).map_err(|e| {
                        err(format!(
                            "library.export: Exporting from library '{desc}': {e}"
                        ))
                    }),
                }
            }
            (FnKind::Method(_), None) => Err(err("library method without a library".into())),
        }
    }
}

fn no_args(pos: &[Value<'_>], named: &[(String, Value<'_>)]) -> starlark::Result<()> {
    if !pos.is_empty() || !named.is_empty() {
        return Err(err("expected no arguments".into()));
    }
    Ok(())
}

fn get<'v>(
    pos: Vec<Value<'v>>,
    named: Vec<(String, Value<'v>)>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    if pos.len() != 1 {
        return Err(err("expected exactly one argument".into()));
    }
    let path = str_arg(pos[0])?;
    let mut alias = String::new();
    let mut overrides = Overrides::default();
    for (k, v) in named {
        match k.as_str() {
            "alias" => alias = str_arg(v)?,
            "ignore_unknown_comments" => overrides.ignore_unknown_comments = Some(bool_arg(v)?),
            "implicit_map_key_overrides" => {
                overrides.implicit_map_key_overrides = Some(bool_arg(v)?)
            }
            "strict" => overrides.strict = Some(bool_arg(v)?),
            "dangerous_data_values_disable_validation" => overrides.skip_validation = bool_arg(v)?,
            other => return Err(err(format!("Unexpected kwarg '{other}'"))),
        }
    }
    if path.starts_with('@') {
        return Err(err(format!(
            "Expected library '{path}' to be specified without '@'"
        )));
    }
    let x = extra(eval)?;
    let dir = x
        .exec
        .ws
        .tree()
        .find_private(&x.ctx.dir, &path)
        // A library the command does not give is a load that fails (it rests on the files
        // the command gives, not on data values).
        .map_err(|message| {
            starlark::Error::new_other(crate::eval::run::KindedError {
                kind: crate::eval::run::ErrorKind::Load,
                message,
            })
        })?;
    let state = LibState {
        dir,
        name: LibRef { path, alias },
        values: x.exec.child_values.clone(),
        schemas: x.exec.child_schemas.clone(),
        overrides,
    };
    Ok(eval.heap().alloc_simple(LibraryValue {
        inner: Arc::new(state),
    }))
}

fn derive(lib: &LibState, values: Vec<Envelope>, schemas: Vec<SchemaDoc>) -> LibraryValue {
    LibraryValue {
        inner: Arc::new(LibState {
            dir: lib.dir.clone(),
            name: lib.name.clone(),
            values,
            schemas,
            overrides: lib.overrides.clone(),
        }),
    }
}

fn with_values<'v>(
    lib: &LibState,
    pos: Vec<Value<'v>>,
    named: Vec<(String, Value<'v>)>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    if pos.len() != 1 {
        return Err(err("expected exactly one argument".into()));
    }
    let mut plain = false;
    for (k, v) in named {
        match k.as_str() {
            "plain" => plain = bool_arg(v)?,
            other => return Err(err(format!("unexpected keyword argument '{other}'"))),
        }
    }
    let value = starlark_to_value(pos[0])?;
    let mut doc = Document::new(value, Pos::unknown());
    if plain {
        doc = plain_merge_overlay(&doc).map_err(err)?;
    }
    let env = Envelope::new(doc).map_err(err)?;
    let mut values = lib.values.clone();
    values.push(env);
    Ok(eval
        .heap()
        .alloc_simple(derive(lib, values, lib.schemas.clone())))
}

fn with_schema<'v>(
    lib: &LibState,
    pos: Vec<Value<'v>>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    if pos.len() != 1 {
        return Err(err("expected exactly one argument".into()));
    }
    let value = starlark_to_value(pos[0])?;
    let doc = Document::new(value, Pos::unknown());
    let x = extra(eval)?;
    let args = ArgTable::resolve(
        &doc,
        &mut StarlarkHost {
            eval,
            env: &x.exec.ws.env,
        },
    );
    let sd = SchemaDoc::new(doc, args, x.exec.opts.extensions)
        .map_err(|e| err(doc_error(x.exec, e).message))?;
    let mut schemas = lib.schemas.clone();
    schemas.push(sd);
    Ok(eval
        .heap()
        .alloc_simple(derive(lib, lib.values.clone(), schemas)))
}

/// A child execution of `lib` with its final data values.
fn child<'a>(lib: &LibState, parent: &LibExec<'a>) -> Result<LibExec<'a>, EvalError> {
    let mut opts = parent.opts.clone();
    let o = &lib.overrides;
    if let Some(v) = o.ignore_unknown_comments {
        opts.ignore_unknown_comments = v;
    }
    if let Some(v) = o.implicit_map_key_overrides {
        opts.implicit_map_key_overrides = v;
    }
    if let Some(v) = o.strict {
        opts.strict = v;
    }
    opts.skip_validation |= o.skip_validation;
    let mut exec = LibExec::new(parent.ws, lib.dir.clone(), opts);
    let (mut my_schemas, mut child_schemas) = (Vec::new(), Vec::new());
    for sd in &lib.schemas {
        let Some(env) = sd.env.used_in(&lib.name) else {
            continue;
        };
        let sd = SchemaDoc {
            env,
            args: sd.args.clone(),
        };
        if sd.env.for_other_library() {
            child_schemas.push(sd);
        } else {
            my_schemas.push(sd);
        }
    }
    let (schema, mut found_schemas) = compute_schema(&exec, my_schemas)?;
    found_schemas.extend(child_schemas);
    let (mut mine, mut after, mut children) = (Vec::new(), Vec::new(), Vec::new());
    for env in &lib.values {
        let Some(m) = env.used_in(&lib.name) else {
            continue;
        };
        if m.for_other_library() {
            children.push(m);
        } else if m.after_lib_mod {
            after.push(m);
        } else {
            mine.push(m);
        }
    }
    mine.extend(after);
    let (values, mut found) = exec.compute_values(mine, &schema)?;
    found.extend(children);
    exec.set_values(values, found);
    exec.child_schemas = found_schemas;
    Ok(exec)
}

fn final_values(lib: &LibState, eval: &Evaluator<'_, '_, '_>) -> Result<Document, EvalError> {
    let x = extra(eval).map_err(|e| EvalError::new(ErrorKind::Template, e.to_string(), None))?;
    Ok(child(lib, x.exec)?.values)
}

/// Evaluates the library; its error keeps the kind it had inside (a schema, a validation, an
/// overlay of the library).
fn run(lib: &LibState, eval: &Evaluator<'_, '_, '_>) -> Result<EvalResult, EvalError> {
    let x = extra(eval).map_err(|e| EvalError::new(ErrorKind::Template, e.to_string(), None))?;
    let exec = child(lib, x.exec)?;
    exec.eval()
}

fn export<'v>(
    lib: &LibState,
    pos: Vec<Value<'v>>,
    named: Vec<(String, Value<'v>)>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> Result<Value<'v>, String> {
    if pos.len() != 1 {
        return Err("expected exactly one argument".into());
    }
    let symbol = str_arg(pos[0]).map_err(|e| e.to_string())?;
    let mut location = String::new();
    for (k, v) in named {
        match k.as_str() {
            "path" => location = str_arg(v).map_err(|e| e.to_string())?,
            other => return Err(format!("Unexpected keyword argument '{other}'")),
        }
    }
    if symbol.starts_with('_') {
        return Err("Symbols starting with '_' are private, and cannot be exported".into());
    }
    let result = run(lib, eval).map_err(|e| e.message)?;
    let found: Vec<&(String, FrozenModule)> = result
        .exports
        .iter()
        .filter(|(path, m)| {
            m.get_option(&symbol).ok().flatten().is_some()
                && (location.is_empty() || location == *path)
        })
        .collect();
    match found.as_slice() {
        [] => Err(format!(
            "Expected to find exported symbol '{symbol}', but did not"
        )),
        [(_, m)] => {
            let v = m
                .get(&symbol)
                .map_err(|e| format!("Exporting symbol '{symbol}': {e}"))?;
            // SAFETY: `owned_frozen_value` adds a reference from the module's frozen heap to
            // the owner of `v`, and the module being evaluated outlives every `Value<'v>`.
            let frozen = unsafe { v.owned_frozen_value(eval.frozen_heap()) };
            Ok(frozen.to_value())
        }
        many => Err(format!(
            "Expected to find exactly one exported symbol '{symbol}', but found multiple across files: {}",
            many.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The `@ytt:library` module.
pub fn module() -> Option<FrozenModule> {
    Module::with_temp_heap(|module| {
        let heap = module.heap();
        let get = heap.alloc_simple(LibFn {
            kind: FnKind::Get,
            lib: None,
        });
        let mut fields = starlark_map::small_map::SmallMap::new();
        fields.insert("get".to_string(), get);
        module.set(
            "library",
            heap.alloc_complex(crate::eval::structs::YttStruct::new(fields)),
        );
        module.freeze().ok()
    })
}
