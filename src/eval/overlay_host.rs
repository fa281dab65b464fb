//! The overlay engine's [`OverlayHost`] over the Starlark evaluator: annotation handles are
//! resolved to the values the templates kept (in the module being evaluated, or in a frozen
//! module of the same run), and matchers, `expects=` and `via=` functions are called with maps
//! and arrays as YAML fragments, as ytt calls them. Also the two overlay steps of a library
//! evaluation that run outside any template: data values and overlay post-processing.

use starlark::environment::Module;
use starlark::eval::Evaluator;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Value as SValue, ValueLike};

use super::convert::{starlark_to_value, value_to_starlark, MapAs};
use super::errors::plain_message;
use super::host::{Extra, FileCtx, Host};
use super::run::{ErrorKind, EvalError, LibEnv};
use super::state::{current, FrozenTplState, TplState};
use crate::overlay::{
    apply_exact, post_process_counted as overlay_post_process, AssertReturned, FileDocs,
    HandleKind, HostError, NativeMatcher, OverlayError, OverlayHost, Returned,
};
use crate::yaml::{AnnValue, DocSet, Document, Handle, Value};

/// What a matcher value built by `@ytt:overlay` provides (through `StarlarkValue::provide`)
/// so that the host can run it on the nodes without converting them.
#[derive(Debug, Clone, starlark::any::ProvidesStaticType)]
pub struct NativeMatch(pub std::sync::Arc<NativeMatcher>);

/// Calls Starlark values for the overlay engine with an evaluator.
pub struct StarlarkHost<'e, 'v, 'a, 'x> {
    pub eval: &'e mut Evaluator<'v, 'a, 'x>,
    pub env: &'e LibEnv,
}

/// Go's type name of a Starlark value, as ytt prints it in overlay messages.
pub fn go_type(v: SValue<'_>) -> String {
    match v.get_type() {
        "NoneType" => "starlark.NoneType".into(),
        "bool" => "starlark.Bool".into(),
        "int" => "starlark.Int".into(),
        "float" => "starlark.Float".into(),
        "string" => "starlark.String".into(),
        "list" => "*starlark.List".into(),
        "tuple" => "starlark.Tuple".into(),
        "dict" => "*starlark.Dict".into(),
        "struct" => "*starlarkstruct.Struct".into(),
        "yamlfragment" => "*yamltemplate.StarlarkFragment".into(),
        "function" => "*starlark.Function".into(),
        other => other.to_string(),
    }
}

fn host_err(e: starlark::Error) -> HostError {
    HostError(plain_message(&e))
}

impl<'v> StarlarkHost<'_, 'v, '_, '_> {
    /// The Starlark value behind a handle.
    pub fn resolve(&mut self, h: Handle) -> Option<SValue<'v>> {
        if let Some(state) = current(self.eval) {
            if state.module_id == h.module {
                return state.slots.borrow().get(h.slot as usize).copied();
            }
        }
        let states = self.env.frozen_states.borrow();
        let owned = states.get(&h.module)?;
        let state = owned.value().downcast_ref::<FrozenTplState>()?;
        let frozen = *state.slots.get(h.slot as usize)?;
        // Keep the module that owns the value alive as long as this evaluator's heap.
        self.eval.frozen_heap().add_reference(owned.owner());
        Some(frozen.to_value())
    }

    fn arg(&self, v: &Value) -> SValue<'v> {
        value_to_starlark(v, self.eval.heap(), MapAs::Fragment)
    }

    fn call(&mut self, h: Handle, args: &[SValue<'v>]) -> Result<SValue<'v>, HostError> {
        let f = self
            .resolve(h)
            .ok_or_else(|| HostError::from("annotation value is no longer available"))?;
        self.eval.eval_function(f, args, &[]).map_err(host_err)
    }

    fn returned(v: SValue<'_>) -> Returned {
        match v.unpack_bool() {
            Some(b) => Returned::Bool(b),
            None => Returned::Other(go_type(v)),
        }
    }
}

fn scalar_of(v: SValue<'_>) -> Option<Value> {
    if v.is_none() {
        return Some(Value::Null);
    }
    match v.get_type() {
        "bool" | "int" | "float" | "string" => starlark_to_value(v).ok(),
        _ => None,
    }
}

impl OverlayHost for StarlarkHost<'_, '_, '_, '_> {
    fn kind(&mut self, value: Handle) -> HandleKind {
        let Some(v) = self.resolve(value) else {
            return HandleKind::Other("starlark.Value".into());
        };
        if let Some(list) = ListRef::from_value(v) {
            return HandleKind::List(
                list.iter()
                    .map(|x| AnnValue::Scalar(scalar_of(x).unwrap_or(Value::Null)))
                    .collect(),
            );
        }
        if let Some(s) = scalar_of(v) {
            return HandleKind::Scalar(s);
        }
        match v.get_type() {
            "tuple" | "dict" | "struct" | "yamlfragment" => HandleKind::Other(go_type(v)),
            _ => HandleKind::Callable,
        }
    }

    fn call_matcher(
        &mut self,
        func: Handle,
        key: &Value,
        left: &Value,
        right: &Value,
    ) -> Result<Returned, HostError> {
        if let Some(native) = self
            .resolve(func)
            .and_then(|f| f.request_value::<NativeMatch>())
        {
            if let Some(b) = native.0.matches(key, left, right) {
                return Ok(Returned::Bool(b));
            }
        }
        let args = [self.arg(key), self.arg(left), self.arg(right)];
        let r = self.call(func, &args)?;
        Ok(Self::returned(r))
    }

    fn call_expects(&mut self, func: Handle, count: i64) -> Result<Returned, HostError> {
        let n = self.eval.heap().alloc(count);
        let r = self.call(func, &[n])?;
        Ok(Self::returned(r))
    }

    fn call_via(&mut self, func: Handle, left: &Value, right: &Value) -> Result<Value, HostError> {
        let args = [self.arg(left), self.arg(right)];
        let r = self.call(func, &args)?;
        starlark_to_value(r).map_err(host_err)
    }

    fn call_assert_via(
        &mut self,
        func: Handle,
        left: &Value,
        right: &Value,
    ) -> Result<AssertReturned, HostError> {
        let args = [self.arg(left), self.arg(right)];
        let r = self.call(func, &args)?;
        if r.is_none() {
            return Ok(AssertReturned::None);
        }
        if let Some(b) = r.unpack_bool() {
            return Ok(AssertReturned::Bool(b));
        }
        let items: Option<Vec<SValue>> = match ListRef::from_value(r) {
            Some(l) => Some(l.iter().collect()),
            None => TupleRef::from_value(r).map(|t| t.iter().collect()),
        };
        if let Some([ok, msg]) = items.as_deref() {
            if let (Some(ok), Some(msg)) = (ok.unpack_bool(), msg.unpack_str()) {
                return Ok(AssertReturned::Pair(ok, msg.to_string()));
            }
        }
        Ok(AssertReturned::Other)
    }
}

fn overlay_error(e: OverlayError) -> EvalError {
    EvalError::new(ErrorKind::Overlay, e.message, e.pos)
}

/// Runs `f` with a host over a fresh evaluator (for overlays applied outside templates).
pub fn with_host<T>(exec: &dyn Host, f: impl FnOnce(&mut StarlarkHost<'_, '_, '_, '_>) -> T) -> T {
    Module::with_temp_heap(|module| {
        // Fragment functions called as `via=` build YAML through a template state.
        let state = TplState::new(exec.env().module_id());
        module.set_extra_value(module.heap().alloc_complex(state));
        let extra = Extra {
            host: exec,
            ctx: FileCtx {
                root: exec.root().to_string(),
                dir: exec.root().to_string(),
            },
        };
        let hook = exec.env().coverage.hook();
        let mut eval = Evaluator::new(&module);
        eval.extra = Some(&extra);
        exec.env().limits.apply(&mut eval);
        exec.env().coverage.attach(&mut eval, &hook);
        let mut host = StarlarkHost {
            eval: &mut eval,
            env: exec.env(),
        };
        f(&mut host)
    })
}

/// A host for the overlay steps that run outside templates, where every annotation value
/// belongs to a frozen module: each call gets its own short-lived heap, so the fragments made
/// for one matcher call are freed before the next (a library with N overlays over N documents
/// would otherwise keep N² copies of documents until the step ends). Matchers built by
/// `@ytt:overlay` run on the nodes without a heap at all.
struct FreshHost<'e> {
    exec: &'e dyn Host,
}

impl FreshHost<'_> {
    /// The native form of a matcher held by a frozen module, if it has one.
    fn native(&self, h: Handle) -> Option<std::sync::Arc<NativeMatcher>> {
        let states = self.exec.env().frozen_states.borrow();
        let state = states
            .get(&h.module)?
            .value()
            .downcast_ref::<FrozenTplState>()?;
        let frozen = *state.slots.get(h.slot as usize)?;
        frozen
            .to_value()
            .request_value::<NativeMatch>()
            .map(|n| n.0)
    }
}

impl OverlayHost for FreshHost<'_> {
    fn kind(&mut self, value: Handle) -> HandleKind {
        with_host(self.exec, |host| host.kind(value))
    }

    fn call_matcher(
        &mut self,
        func: Handle,
        key: &Value,
        left: &Value,
        right: &Value,
    ) -> Result<Returned, HostError> {
        if let Some(b) = self
            .native(func)
            .and_then(|native| native.matches(key, left, right))
        {
            return Ok(Returned::Bool(b));
        }
        with_host(self.exec, |host| host.call_matcher(func, key, left, right))
    }

    fn call_expects(&mut self, func: Handle, count: i64) -> Result<Returned, HostError> {
        with_host(self.exec, |host| host.call_expects(func, count))
    }

    fn call_via(&mut self, func: Handle, left: &Value, right: &Value) -> Result<Value, HostError> {
        with_host(self.exec, |host| host.call_via(func, left, right))
    }

    fn call_assert_via(
        &mut self,
        func: Handle,
        left: &Value,
        right: &Value,
    ) -> Result<AssertReturned, HostError> {
        with_host(self.exec, |host| host.call_assert_via(func, left, right))
    }
}

/// Overlays one data values document onto another (ytt's exact-match mode).
pub fn overlay_values(
    exec: &dyn Host,
    left: Document,
    right: Document,
) -> Result<Document, EvalError> {
    with_host(exec, |host| apply_exact(left, &right, host)).map_err(overlay_error)
}

/// Applies the overlay documents of a library's files to the other documents.
pub fn post_process(
    exec: &dyn Host,
    files: Vec<(String, DocSet)>,
) -> Result<Vec<(String, DocSet)>, EvalError> {
    let files: Vec<FileDocs> = files
        .into_iter()
        .map(|(file, docs)| FileDocs { file, docs })
        .collect();
    let mut host = FreshHost { exec };
    let (out, matched) = overlay_post_process(files, &mut host).map_err(overlay_error)?;
    exec.env().overlay_matches.borrow_mut().extend(matched);
    Ok(out.into_iter().map(|f| (f.file, f.docs)).collect())
}
