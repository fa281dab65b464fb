//! ytt's assertion values, `@ytt:assert.assertion`: what `assert.min(3)` and the other
//! builders return. An assertion has one attribute, `check`: a function of one value that
//! returns `True` or fails with the rule's message. It refuses to become YAML (`did you mean
//! to call check()?`). Rust code gets at the rule with [`rule_of`] and checks values with
//! [`Rule::check_node`] or [`Rule::check_starlark`] without going through Starlark.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_simple_value;
use starlark::values::{
    starlark_value, Demand, Heap, NoSerialize, StarlarkValue, Value, ValueLike,
};

use super::assert_rules::Rule;
use crate::eval::convert::ConversionHint;
use crate::eval::errors::INTERNAL_LAMBDA;
use crate::eval::fragment::anyhow_msg;

/// The value of `assert.min(3)` and friends.
#[derive(Clone, Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct Assertion {
    #[allocative(skip)]
    rule: Arc<Rule>,
}

starlark_simple_value!(Assertion);

impl Assertion {
    pub fn new(rule: Rule) -> Assertion {
        Assertion {
            rule: Arc::new(rule),
        }
    }

    pub fn rule(&self) -> &Rule {
        &self.rule
    }
}

/// The rule of an assertion value.
pub fn rule_of(v: Value<'_>) -> Option<&Rule> {
    v.downcast_ref::<Assertion>().map(Assertion::rule)
}

impl fmt::Display for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

/// ytt's names of this struct, in its order.
const ASSERTION_NAMES: &[&str] = &["check"];

#[starlark_value(type = "@ytt:assert.assertion")]
impl<'v> StarlarkValue<'v> for Assertion {
    crate::struct_like!(ASSERTION_NAMES);

    fn get_attr(&self, attribute: &str, heap: Heap<'v>) -> Option<Value<'v>> {
        (attribute == "check").then(|| {
            heap.alloc(Check {
                rule: self.rule.clone(),
            })
        })
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        attribute == "check"
    }

    fn dir_attr(&self) -> Vec<String> {
        vec!["check".to_string()]
    }

    fn provide(&'v self, demand: &mut Demand<'_, 'v>) {
        demand.provide_value(super::struct_like::StructNames(ASSERTION_NAMES));
        demand.provide_value(ConversionHint(
            "@ytt:assert.assertion does not encode (did you mean to call check()?)".to_string(),
        ));
    }
}

/// `assertion.check`: a lambda of one parameter in ytt (a builtin for `one_not_null`).
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct Check {
    #[allocative(skip)]
    rule: Arc<Rule>,
}

starlark_simple_value!(Check);

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule.param() {
            Some(_) => f.write_str("<function lambda>"),
            None => write!(f, "<built-in function {}>", self.rule.builder()),
        }
    }
}

/// A failed check as an evaluation error (`fail: ...` as Starlark's `fail` raises it).
pub fn check_error(msg: String) -> starlark::Error {
    match msg.strip_prefix("fail: ") {
        Some(rest) => {
            starlark::Error::new_kind(starlark::ErrorKind::Fail(anyhow_msg(format!(" {rest}"))))
        }
        None => starlark::Error::new_other(anyhow_msg(msg)),
    }
}

fn lambda_error(msg: String) -> starlark::Error {
    starlark::Error::new_other(anyhow_msg(format!("function lambda {msg}")))
}

/// Binds the arguments of a check to its one parameter as starlark-go binds a lambda's.
fn bind_value<'v>(
    param: &str,
    args: &Arguments<'v, '_>,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    let pos: Vec<Value<'v>> = args.positions(heap)?.collect();
    if pos.len() > 1 {
        return Err(lambda_error(format!(
            "accepts 1 positional argument ({} given)",
            pos.len()
        )));
    }
    let mut bound = pos.first().copied();
    for (k, v) in args.names_map()? {
        if k.as_str() != param {
            return Err(lambda_error(format!(
                "got an unexpected keyword argument {}",
                k.as_str()
            )));
        }
        if bound.is_some() {
            return Err(lambda_error(format!(
                "got multiple values for parameter {param}"
            )));
        }
        bound = Some(v);
    }
    bound.ok_or_else(|| lambda_error(format!("missing 1 argument ({param})")))
}

#[starlark_value(type = "function")]
impl<'v> StarlarkValue<'v> for Check {
    fn name_for_call_stack(&self, _me: Value<'v>) -> String {
        match self.rule.param() {
            // Shown as ytt shows its own lambda: `in lambda` at `assert.max:1`.
            Some(_) => format!("{INTERNAL_LAMBDA}{}", self.rule.builder()),
            None => self.rule.builder().to_string(),
        }
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let value = match self.rule.param() {
            Some(param) => bind_value(param, args, heap)?,
            None => {
                let pos: Vec<Value<'v>> = args.positions(heap)?.collect();
                match pos[..] {
                    [one] => one,
                    _ => {
                        return Err(starlark::Error::new_other(anyhow_msg(format!(
                            "check: got {} arguments, want 1",
                            pos.len()
                        ))))
                    }
                }
            }
        };
        self.rule.check_starlark(value).map_err(check_error)?;
        Ok(Value::new_bool(true))
    }
}
