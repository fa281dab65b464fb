//! Per-module evaluation state, stored as the Starlark module's extra value so the instruction
//! functions of any template (including functions loaded from other files) reach the module
//! being evaluated: the stack of evaluation contexts, the module's result, and the slots that
//! keep annotation arguments (matchers, validation functions) alive for later stages.

use std::cell::RefCell;
use std::fmt;

use allocative::Allocative;
use starlark::eval::Evaluator;
use starlark::starlark_complex_values;
use starlark::values::{
    starlark_value, Freeze, FreezeResult, Freezer, FrozenValue, NoSerialize, ProvidesStaticType,
    StarlarkValue, Trace, Tracer, Value,
};

use super::build::{Built, Ctx};
use crate::yaml::{AnnValue, Handle};

#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct TplState<'v> {
    pub module_id: u32,
    #[allocative(skip)]
    pub ctxs: RefCell<Vec<Ctx>>,
    #[allocative(skip)]
    pub slots: RefCell<Vec<Value<'v>>>,
    #[allocative(skip)]
    pub result: RefCell<Option<Built>>,
}

#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct FrozenTplState {
    pub module_id: u32,
    #[allocative(skip)]
    pub slots: Vec<FrozenValue>,
}

starlark_complex_values!(TplState);

unsafe impl<'v> Trace<'v> for TplState<'v> {
    fn trace(&mut self, tracer: &Tracer<'v>) {
        for v in self.slots.get_mut().iter_mut() {
            tracer.trace(v);
        }
    }
}

impl<'v> Freeze for TplState<'v> {
    type Frozen = FrozenTplState;
    fn freeze(self, freezer: &Freezer) -> FreezeResult<FrozenTplState> {
        let mut slots = Vec::new();
        for v in self.slots.into_inner() {
            slots.push(freezer.freeze(v)?);
        }
        Ok(FrozenTplState {
            module_id: self.module_id,
            slots,
        })
    }
}

impl fmt::Display for TplState<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<template state>")
    }
}

impl fmt::Display for FrozenTplState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<template state>")
    }
}

#[starlark_value(type = "tplstate")]
impl<'v> StarlarkValue<'v> for TplState<'v> {}

#[starlark_value(type = "tplstate")]
impl<'v> StarlarkValue<'v> for FrozenTplState {
    type Canonical = TplState<'v>;
}

impl<'v> TplState<'v> {
    pub fn new(module_id: u32) -> TplState<'v> {
        TplState {
            module_id,
            ctxs: RefCell::new(Vec::new()),
            slots: RefCell::new(Vec::new()),
            result: RefCell::new(None),
        }
    }

    /// Keeps a Starlark value and returns the handle that reaches it.
    pub fn keep(&self, v: Value<'v>) -> Handle {
        let mut slots = self.slots.borrow_mut();
        slots.push(v);
        Handle {
            module: self.module_id,
            slot: (slots.len() - 1) as u32,
        }
    }

    /// An annotation argument: plain scalars by value, anything else by handle.
    pub fn ann_value(&self, v: Value<'v>) -> AnnValue {
        use crate::yaml::Value as Y;
        if v.is_none() {
            return AnnValue::Scalar(Y::Null);
        }
        if let Some(b) = v.unpack_bool() {
            return AnnValue::Scalar(Y::Bool(b));
        }
        if let Some(s) = v.unpack_str() {
            return AnnValue::Scalar(Y::String(s.to_string()));
        }
        if let Some(i) = v.unpack_i32() {
            return AnnValue::Scalar(Y::Int(i as i64));
        }
        AnnValue::Starlark(self.keep(v))
    }
}

/// The state of the module `eval` is evaluating.
pub fn current<'v, 'a>(eval: &Evaluator<'v, 'a, '_>) -> Option<&'v TplState<'v>> {
    let v = eval.module().extra_value()?;
    match TplState::from_value(v)? {
        either::Either::Left(s) => Some(s),
        either::Either::Right(_) => None,
    }
}
