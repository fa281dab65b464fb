//! `@ytt:overlay`: `apply(left, *rights)` runs the overlay engine on fragments inside a
//! template, and the matcher builders `index`, `map_key`, `subset`, `and_op`, `or_op`, `not_op`
//! (plus `all`) return functions of `(key_or_index, left, right)` for `@overlay/match by=`.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::coerce::Coerce;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_complex_value;
use starlark::starlark_module;
use starlark::values::{
    starlark_value, Demand, Freeze, NoSerialize, StarlarkValue, Trace, Value, ValueLike,
};

use crate::eval::convert::starlark_to_value;
use crate::eval::errors::plain_message;
use crate::eval::fragment::{FragData, Fragment};
use crate::eval::host::Extra;
use crate::eval::overlay_host::{go_type, NativeMatch, StarlarkHost};
use crate::overlay::{
    apply, map_key_matches_left, subset_matches_left, Fragment as OFragment, Left, NativeMatcher,
};
use crate::yaml::Value as YValue;

/// An error of a `@ytt:overlay` function: an overlay error, whatever its wording.
fn err(message: String) -> starlark::Error {
    starlark::Error::new_other(crate::eval::run::KindedError {
        kind: crate::eval::run::ErrorKind::Overlay,
        message,
    })
}

/// What a matcher tests.
#[derive(Debug, Clone)]
enum Kind {
    Index(i64),
    MapKey(String),
    Subset(YValue),
    And,
    Or,
    Not,
}

impl Kind {
    fn name(&self) -> &'static str {
        match self {
            Kind::Index(_) => "overlay.index_matcher",
            Kind::MapKey(_) => "overlay.map_key_matcher",
            Kind::Subset(_) => "overlay.subset_matcher",
            Kind::And => "overlay.and_op",
            Kind::Or | Kind::Not => "overlay.or_op",
        }
    }
}

/// A matcher function made by one of the builders; `ops` holds the matchers `and_op`,
/// `or_op` and `not_op` combine.
#[derive(Debug, Trace, Freeze, Coerce, ProvidesStaticType, NoSerialize, Allocative)]
#[repr(C)]
pub struct MatcherGen<V: starlark::values::ValueLifetimeless> {
    #[trace(unsafe_ignore)]
    #[freeze(identity)]
    #[allocative(skip)]
    kind: Kind,
    ops: Vec<V>,
    /// The same matcher for the host to run on the nodes, when every operand is a builder's.
    #[trace(unsafe_ignore)]
    #[freeze(identity)]
    #[allocative(skip)]
    native: Option<Arc<NativeMatcher>>,
}

starlark_complex_value!(pub Matcher);

impl<V: starlark::values::ValueLifetimeless> fmt::Display for MatcherGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in function {}>", self.kind.name())
    }
}

fn as_bool(v: Value<'_>) -> starlark::Result<bool> {
    v.unpack_bool()
        .ok_or_else(|| err(format!("expected starlark.Bool, but was {}", go_type(v))))
}

impl<'v, V: ValueLike<'v>> MatcherGen<V> {
    fn run(&self, args: &[Value<'v>], eval: &mut Evaluator<'v, '_, '_>) -> starlark::Result<bool> {
        match &self.kind {
            Kind::Index(want) => {
                let got = args[0]
                    .unpack_i32()
                    .map(i64::from)
                    .ok_or_else(|| err(format!("expected int, but was {}", go_type(args[0]))))?;
                Ok(got == *want)
            }
            Kind::MapKey(name) => {
                let matched = with_left(args[1], |left| {
                    with_left(args[2], |right| map_key_matches_left(name, left, right))
                })??;
                matched.map_err(err)
            }
            Kind::Subset(expected) => {
                with_left(args[1], |left| subset_matches_left(left, expected))
            }
            Kind::And | Kind::Or | Kind::Not => {
                for op in &self.ops {
                    let r = as_bool(eval.eval_function(op.to_value(), args, &[])?)?;
                    match &self.kind {
                        Kind::And if !r => return Ok(false),
                        Kind::Or if r => return Ok(true),
                        Kind::Not => return Ok(!r),
                        _ => {}
                    }
                }
                Ok(matches!(self.kind, Kind::And))
            }
        }
    }
}

/// `f` of the value `v` as the comparisons read it: the map or array of a fragment borrowed
/// (the overlay engine hands each document to a matcher written in Starlark as a fragment),
/// anything else converted.
fn with_left<R>(v: Value<'_>, f: impl FnOnce(Left<'_>) -> R) -> starlark::Result<R> {
    if let Some(fragment) = v.downcast_ref::<Fragment>() {
        match &*fragment.data {
            FragData::Map(m) => return Ok(f(Left::Map(m))),
            FragData::Array(a) => return Ok(f(Left::Array(a))),
            FragData::Null | FragData::DocSet(_) => {}
        }
    }
    let value = starlark_to_value(v)?;
    Ok(f(Left::Value(&value)))
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for MatcherGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    /// starlark-go hashes a builtin by its name (a builtin may be a dict key).
    fn write_hash(
        &self,
        hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        crate::stdlib::builtin_hash::by_name(self.kind.name(), hasher)
    }

    fn provide(&'v self, demand: &mut Demand<'_, 'v>) {
        if let Some(native) = &self.native {
            demand.provide_value(NativeMatch(native.clone()));
        }
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let pos: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let name = self.kind.name();
        if pos.len() != 3 {
            return Err(err(format!("{name}: expected exactly 3 arguments")));
        }
        let r = self
            .run(&pos, eval)
            .map_err(|e| err(format!("{name}: {}", plain_message(&e))))?;
        Ok(Value::new_bool(r))
    }
}

fn matcher<'v>(kind: Kind, ops: Vec<Value<'v>>, eval: &Evaluator<'v, '_, '_>) -> Value<'v> {
    let native = native_of(&kind, &ops).map(Arc::new);
    eval.heap().alloc_complex(MatcherGen { kind, ops, native })
}

/// The matcher as the host runs it natively, if every operand is a builder's matcher.
fn native_of(kind: &Kind, ops: &[Value<'_>]) -> Option<NativeMatcher> {
    let operands = || -> Option<Vec<NativeMatcher>> {
        ops.iter()
            .map(|op| op.request_value::<NativeMatch>().map(|n| (*n.0).clone()))
            .collect()
    };
    Some(match kind {
        Kind::Index(i) => NativeMatcher::Index(*i),
        Kind::MapKey(name) => NativeMatcher::MapKey(name.clone()),
        Kind::Subset(v) => NativeMatcher::Subset(v.clone()),
        Kind::And => NativeMatcher::And(operands()?),
        Kind::Or => NativeMatcher::Or(operands()?),
        Kind::Not => NativeMatcher::Not(Box::new(operands()?.pop()?)),
    })
}

/// A value as the overlay engine takes it: documents as a document set, anything else as a
/// YAML value.
fn to_overlay(v: Value<'_>) -> starlark::Result<OFragment> {
    if let Some(f) = v.downcast_ref::<Fragment>() {
        if let FragData::DocSet(ds) = &*f.data {
            return Ok(OFragment::DocSet(ds.clone()));
        }
    }
    Ok(OFragment::Value(starlark_to_value(v)?))
}

fn from_overlay<'v>(f: OFragment, eval: &Evaluator<'v, '_, '_>) -> Value<'v> {
    let data = match f {
        OFragment::DocSet(ds) => FragData::DocSet(ds),
        OFragment::Value(YValue::Map(m)) => FragData::Map(*m),
        OFragment::Value(YValue::Array(a)) => FragData::Array(*a),
        OFragment::Value(YValue::Null) => FragData::Null,
        OFragment::Value(other) => {
            return crate::eval::convert::value_to_starlark(
                &other,
                eval.heap(),
                crate::eval::convert::MapAs::Fragment,
            )
        }
    };
    eval.heap().alloc(Fragment::new(data))
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn apply<'v>(
        #[starlark(args)] args: starlark::values::tuple::UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let mut items = args.items.into_iter();
        let Some(first) = items.next() else {
            return Err(err(
                "overlay.apply: expected exactly at least argument".into()
            ));
        };
        let mut left = to_overlay(first)?;
        let env = eval
            .extra
            .and_then(|e| e.downcast_ref::<Extra>())
            .map(|x| x.host.env())
            .ok_or_else(|| err("overlay.apply used outside of a library".into()))?;
        for right in items {
            let right = to_overlay(right)?;
            let mut host = StarlarkHost { eval, env };
            left = apply(left, &right, &mut host)
                .map_err(|e| err(format!("overlay.apply: {}", e.message)))?;
        }
        Ok(from_overlay(left, eval))
    }

    fn index<'v>(
        #[starlark(require = pos)] i: i32,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        Ok(matcher(Kind::Index(i64::from(i)), Vec::new(), eval))
    }

    fn all<'v>(
        #[starlark(require = pos)] key: Value<'v>,
        #[starlark(require = pos)] left: Value<'v>,
        #[starlark(require = pos)] right: Value<'v>,
    ) -> starlark::Result<bool> {
        let _ = (key, left, right);
        Ok(true)
    }

    fn map_key<'v>(
        #[starlark(require = pos)] name: &str,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        Ok(matcher(Kind::MapKey(name.to_string()), Vec::new(), eval))
    }

    fn subset<'v>(
        #[starlark(require = pos)] expected: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let expected = starlark_to_value(expected)?;
        Ok(matcher(Kind::Subset(expected), Vec::new(), eval))
    }

    fn and_op<'v>(
        #[starlark(args)] ops: starlark::values::tuple::UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        if ops.items.is_empty() {
            return Err(err("overlay.and_op: expected at least one argument".into()));
        }
        Ok(matcher(Kind::And, ops.items, eval))
    }

    fn or_op<'v>(
        #[starlark(args)] ops: starlark::values::tuple::UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        if ops.items.is_empty() {
            return Err(err("overlay.or_op: expected at least one argument".into()));
        }
        Ok(matcher(Kind::Or, ops.items, eval))
    }

    fn not_op<'v>(
        #[starlark(require = pos)] op: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        Ok(matcher(Kind::Not, vec![op], eval))
    }
}
