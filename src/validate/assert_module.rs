//! Spec 000's additions to `@ytt:assert`: the builders of the extended rules
//! (`assert.starts_with("x")`, `assert.format("hostname")`, ...), `assert.validate(key, value,
//! rules..., named rules..., when=)`, the programmatic form of `@assert/validate`, and
//! `assert.valid(node)`, which checks the `@assert/validate` rules carried by a YAML fragment and
//! its descendants. Both fail with every violation's message.

use starlark::environment::{FrozenModule, GlobalsBuilder};
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::{Heap, Value};

use super::run::{check, Target};
use super::{Invalidation, ASSERT_VALIDATE};
use crate::eval::convert::{starlark_to_node, starlark_to_value, NodeVal};
use crate::eval::host::Extra;
use crate::eval::overlay_host::StarlarkHost;
use crate::eval::state::current;
use crate::pos::Pos;
use crate::stdlib::args::{err, Args, Kwargs};
use crate::stdlib::assert_extra::{build, ExtraRule};
use crate::stdlib::assert_rules::Rule;
use crate::stdlib::assertion::Assertion;
use crate::yaml::{Annotation, Document, Map, MapItem, Value as YValue};

/// `@ytt:assert`: ytt's functions (`crate::stdlib::assert`) and spec 000's additions.
pub fn module() -> Option<FrozenModule> {
    crate::stdlib::module_from(|b| {
        b.namespace("assert", |b| {
            crate::stdlib::assert::register(b);
            register(b);
        })
    })
}

fn extra_rule<'v>(heap: Heap<'v>, name: &str, arg: YValue) -> starlark::Result<Value<'v>> {
    let rule: ExtraRule = build(name, &arg).map_err(|m| err(&format!("assert.{name}"), m))?;
    Ok(heap.alloc(Assertion::new(Rule::Extra(rule))))
}

/// `assert.<name>(arg)`: the rule of one plain argument.
fn one_arg_rule<'v>(heap: Heap<'v>, name: &str, args: &Args<'v>) -> starlark::Result<Value<'v>> {
    extra_rule(heap, name, one_arg(name, args)?)
}

fn one_arg(name: &str, args: &Args<'_>) -> starlark::Result<YValue> {
    match args.items[..] {
        [v] => starlark_to_value(v).map_err(|e| err(&format!("assert.{name}"), e)),
        _ => Err(err(
            &format!("assert.{name}"),
            format!("got {} arguments, want 1", args.items.len()),
        )),
    }
}

/// Every violation as spec 000's message, one per line.
fn messages(invalid: &[Invalidation]) -> String {
    invalid
        .iter()
        .flat_map(|i| i.violations.iter().map(|v| v.message.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the validations of `doc` in the evaluator of the calling template.
fn run_checks<'v>(
    name: &str,
    doc: &Document,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let env = match eval.extra.and_then(|e| e.downcast_ref::<Extra>()) {
        Some(x) => x.host.env(),
        None => return Err(err(name, "not available outside a library evaluation")),
    };
    let target = Target {
        doc,
        ty: None,
        asserts: true,
    };
    let mut host = StarlarkHost { eval, env };
    let invalid = check(&target, &mut host).map_err(|m| err(name, m))?;
    if invalid.is_empty() {
        Ok(Value::new_bool(true))
    } else {
        Err(err(name, format!("fail: {}", messages(&invalid))))
    }
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn starts_with<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "starts_with", &args)
    }

    fn ends_with<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "ends_with", &args)
    }

    fn contains<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "contains", &args)
    }

    fn matches<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "matches", &args)
    }

    fn format<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "format", &args)
    }

    fn multiple_of<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "multiple_of", &args)
    }

    fn len<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        one_arg_rule(heap, "len", &args)
    }

    fn even<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        if !args.items.is_empty() {
            return Err(err("assert.even", "got arguments, want none"));
        }
        extra_rule(heap, "even", YValue::Bool(true))
    }

    fn odd<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        if !args.items.is_empty() {
            return Err(err("assert.odd", "got arguments, want none"));
        }
        extra_rule(heap, "odd", YValue::Bool(true))
    }

    fn unique<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        if !args.items.is_empty() {
            return Err(err("assert.unique", "got arguments, want none"));
        }
        extra_rule(heap, "unique", YValue::Bool(true))
    }

    fn validate<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.validate";
        let [key, value, rules @ ..] = &args.items[..] else {
            return Err(err(NAME, "expected a key, a value and rules"));
        };
        let Some(key) = key.unpack_str() else {
            return Err(err(
                NAME,
                format!("expected key to be a string, but was {}", key.get_type()),
            ));
        };
        let value = starlark_to_value(*value).map_err(|e| err(NAME, e))?;
        let Some(state) = current(eval) else {
            return Err(err(NAME, "not available here"));
        };
        let pos = Pos::unknown();
        let ann = Annotation {
            name: ASSERT_VALIDATE.to_string(),
            args: rules.iter().map(|r| state.ann_value(*r)).collect(),
            kwargs: kwargs
                .iter()
                .map(|(k, v)| (k.clone(), state.ann_value(*v)))
                .collect(),
            pos: pos.clone(),
        };
        let mut item = MapItem::new(YValue::String(key.to_string()), value, pos.clone());
        item.anns.set(ann);
        let doc = Document::new(
            YValue::Map(Box::new(Map {
                items: vec![item],
                ..Map::default()
            })),
            pos,
        );
        run_checks(NAME, &doc, eval)
    }

    fn valid<'v>(
        #[starlark(args)] args: Args<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "assert.valid";
        let [node] = args.items[..] else {
            return Err(err(
                NAME,
                format!("got {} arguments, want 1", args.items.len()),
            ));
        };
        let docs = match starlark_to_node(node).map_err(|e| err(NAME, e))? {
            NodeVal::Value(v) => vec![Document::new(v, Pos::unknown())],
            NodeVal::DocSet(ds) => ds.items,
            NodeVal::Noop => Vec::new(),
        };
        for doc in &docs {
            run_checks(NAME, doc, eval)?;
        }
        Ok(Value::new_bool(true))
    }
}
