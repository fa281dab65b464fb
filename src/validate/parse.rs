//! Reading an `@assert/validate` or `@schema/validation` annotation into rules, with ytt's
//! messages for malformed ones, plus spec 000's additions: a third tuple item (a message
//! template), the named rules ytt lacks, and the `("description", argument)` form of a named
//! rule.

use starlark::docs::{DocItem, DocMember};
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, Value as SValue};

use crate::eval::convert::{starlark_to_value, value_to_starlark, MapAs};
use crate::eval::overlay_host::StarlarkHost;
use crate::pos::Pos;
use crate::stdlib::args::{is_callable, is_sequence};
use crate::stdlib::assert_extra::{self, ExtraRule};
use crate::stdlib::assert_rules::{length_bound, plain_items, Rule};
use crate::stdlib::assertion::rule_of;
use crate::stdlib::yaml::round_trip;
use crate::yaml::{AnnValue, Annotation};

/// How a rule checks a value.
#[derive(Clone, Debug)]
pub enum Check<'v> {
    /// A Starlark function (or an assertion's `check`) called with the value.
    Call(SValue<'v>),
    /// A named rule, checked without Starlark.
    Builtin(Rule),
}

/// One rule of a validation.
#[derive(Clone, Debug)]
pub struct RuleSpec<'v> {
    /// What a valid value is ("must be: ...").
    pub desc: String,
    /// The named rule's keyword (`min_len`), or `None` for a custom rule.
    pub name: Option<String>,
    pub check: Check<'v>,
    /// Spec 000's message template (`{key}`, `{value}`, `{desc}`, `{failure}`).
    pub message: Option<String>,
    /// `not_null` runs first and stops the others when it fails.
    pub critical: bool,
}

/// A parsed validation annotation.
#[derive(Clone, Debug)]
pub struct Validation<'v> {
    pub rules: Vec<RuleSpec<'v>>,
    pub when: Option<SValue<'v>>,
    pub not_null: bool,
    pub pos: Pos,
}

/// The named rules of ytt, in the order their rules run.
const YTT_NAMES: &[&str] = &[
    "min_len",
    "max_len",
    "min",
    "max",
    "not_null",
    "one_not_null",
    "one_of",
];

fn resolve<'v>(host: &mut StarlarkHost<'_, 'v, '_, '_>, v: &AnnValue) -> Option<SValue<'v>> {
    match v {
        AnnValue::Scalar(s) => Some(value_to_starlark(s, host.eval.heap(), MapAs::Dict)),
        AnnValue::Starlark(h) => host.resolve(*h),
    }
}

/// Reads `ann`; the error is the text after "Invalid @name annotation - ".
pub fn parse<'v>(
    ann: &Annotation,
    host: &mut StarlarkHost<'_, 'v, '_, '_>,
) -> Result<Validation<'v>, String> {
    let at = ann.pos.as_compact();
    if ann.args.is_empty() && ann.kwargs.is_empty() {
        return Err(format!(
            "expected annotation to have 2-tuple as argument(s), but found no arguments (by {at})"
        ));
    }
    let unavailable = || format!("the annotation's values are no longer available (at {at})");
    let mut rules = Vec::new();
    for arg in &ann.args {
        let v = resolve(host, arg).ok_or_else(unavailable)?;
        rules.push(custom_rule(v, &at, host.eval.heap())?);
    }
    let mut when = None;
    let mut not_null = false;
    let mut named: Vec<(usize, RuleSpec<'v>)> = Vec::new();
    for (name, arg) in &ann.kwargs {
        let v = resolve(host, arg).ok_or_else(unavailable)?;
        let heap = host.eval.heap();
        if name == "when" {
            if !is_callable(v) {
                return Err(format!(
                    "expected keyword argument \"when\" to be a function, but was {} (at {at})",
                    v.get_type()
                ));
            }
            when = Some(v);
            continue;
        }
        let order = YTT_NAMES
            .iter()
            .chain(assert_extra::NAMES)
            .position(|n| n == name)
            .ok_or_else(|| format!("unknown keyword argument {name:?} (at {at})"))?;
        let (desc, v) = described(name, v);
        if name == "not_null" {
            not_null = match v.unpack_bool() {
                Some(b) => b,
                None => {
                    return Err(format!(
                    "expected keyword argument \"not_null\" to be a boolean, but was {} (at {at})",
                    v.get_type()
                ))
                }
            };
            if !not_null {
                named.retain(|(_, r)| r.name.as_deref() != Some("not_null"));
                continue;
            }
        }
        let mut rule = named_rule(name, v, &at, heap)?;
        if let Some(d) = desc {
            rule.desc = d;
        }
        named.retain(|(_, r)| r.name.as_deref() != Some(name.as_str()));
        named.push((order, rule));
    }
    named.sort_by_key(|(order, _)| *order);
    rules.extend(named.into_iter().map(|(_, r)| r));
    Ok(Validation {
        rules,
        when,
        not_null,
        pos: ann.pos.clone(),
    })
}

/// Spec 000's `name=("a description", argument)`: a 2-tuple whose first item is a string.
/// For `one_of`/`one_not_null`, whose argument may itself be a tuple, only when the second
/// item is a sequence.
fn described<'v>(name: &str, v: SValue<'v>) -> (Option<String>, SValue<'v>) {
    let Some(t) = TupleRef::from_value(v) else {
        return (None, v);
    };
    match t.content() {
        [d, arg] if d.unpack_str().is_some() => {
            let seq_arg = matches!(arg.get_type(), "list" | "tuple" | "dict");
            if matches!(name, "one_of" | "one_not_null") && !seq_arg {
                return (None, v);
            }
            (d.unpack_str().map(str::to_string), *arg)
        }
        _ => (None, v),
    }
}

fn custom_rule<'v>(v: SValue<'v>, at: &str, heap: Heap<'v>) -> Result<RuleSpec<'v>, String> {
    let Some(t) = TupleRef::from_value(v) else {
        return Err(format!(
            "expected annotation to have 2-tuple as argument(s), but found: {} (by {at})",
            go_repr(v, 0)
        ));
    };
    let items = t.content();
    // Spec 000 allows a third item: the violation message.
    let message = match items {
        [_, _] => None,
        [_, _, m] => match m.unpack_str() {
            Some(m) => Some(m.to_string()),
            None => {
                return Err(format!(
                "expected third item in the tuple to be a message (string), but was {} (at {at})",
                m.get_type()
            ))
            }
        },
        _ => {
            return Err(format!(
                "expected 2-tuple, but found tuple with length {} (by {at})",
                items.len()
            ))
        }
    };
    let Some(desc) = items[0].unpack_str() else {
        return Err(format!(
            "expected first item in the 2-tuple to be a string describing a valid value, but was {} (at {at})",
            items[0].get_type()
        ));
    };
    let check = assertion(items[1], heap).map_err(|e| format!("{e} (at {at})"))?;
    Ok(RuleSpec {
        desc: desc.to_string(),
        name: None,
        check,
        message,
        critical: false,
    })
}

/// A function, or a value with a callable `check` attribute (an assertion).
fn assertion<'v>(v: SValue<'v>, heap: Heap<'v>) -> Result<Check<'v>, String> {
    if let Some(rule) = rule_of(v) {
        return Ok(Check::Builtin(rule.clone()));
    }
    if is_callable(v) {
        return Ok(Check::Call(v));
    }
    let t = v.get_type();
    if matches!(
        t,
        "string" | "int" | "float" | "bool" | "NoneType" | "list" | "tuple"
    ) {
        return Err(format!(
            "expected second item in tuple to be an assertion function or assertion object, but was a {t}"
        ));
    }
    match v.get_attr("check", heap) {
        Ok(Some(c)) if is_callable(c) => Ok(Check::Call(c)),
        Ok(Some(c)) => Err(format!(
            "expected struct with attribute check(), but was {}",
            c.get_type()
        )),
        _ => Err(format!(
            "expected second item in tuple to be an assertion function or assertion object, but was a {t}"
        )),
    }
}

fn named_rule<'v>(
    name: &str,
    v: SValue<'v>,
    at: &str,
    heap: Heap<'v>,
) -> Result<RuleSpec<'v>, String> {
    let number = |v: SValue<'v>| {
        length_bound(v).map_err(|_| {
            format!(
                "expected keyword argument {name:?} to be a number, but was {} (at {at})",
                v.get_type()
            )
        })
    };
    let (desc, rule, critical) = match name {
        "min_len" => {
            let n = number(v)?;
            (format!("length >= {n}"), Rule::MinLen(n), false)
        }
        "max_len" => {
            let n = number(v)?;
            (format!("length <= {n}"), Rule::MaxLen(n), false)
        }
        "min" => (
            format!("a value >= {}", v.to_repr()),
            Rule::Min(round_trip(v)),
            false,
        ),
        "max" => (
            format!("a value <= {}", v.to_repr()),
            Rule::Max(round_trip(v)),
            false,
        ),
        "not_null" => ("not null".to_string(), Rule::NotNull, true),
        "one_not_null" => match v.unpack_bool() {
            Some(true) => (
                "exactly one of all children to be not null".to_string(),
                Rule::OneNotNull(None),
                false,
            ),
            Some(false) => return Err("one_not_null= cannot be False".to_string()),
            None if is_sequence(v, heap) => (
                format!("exactly one of {} to be not null", v.to_repr()),
                Rule::OneNotNull(Some(plain_items(v, heap))),
                false,
            ),
            None => {
                return Err(format!(
                    "expected True or a sequence of keys, but was a '{}'",
                    v.get_type()
                ))
            }
        },
        "one_of" => {
            if !is_sequence(v, heap) {
                return Err(format!(
                    "expected keyword argument one_of to be a sequence, but was {}",
                    v.get_type()
                ));
            }
            (
                format!("one of {}", v.to_repr()),
                Rule::OneOf(round_trip(v)),
                false,
            )
        }
        other => {
            let arg = starlark_to_value(v).map_err(|_| {
                format!(
                    "expected keyword argument {other:?} to be a plain value, but was {} (at {at})",
                    v.get_type()
                )
            })?;
            let extra: ExtraRule =
                assert_extra::build(other, &arg).map_err(|e| format!("{e} (at {at})"))?;
            (extra.description(), Rule::Extra(extra), false)
        }
    };
    Ok(RuleSpec {
        desc,
        name: Some(name.to_string()),
        check: Check::Builtin(rule),
        message: None,
        critical,
    })
}

/// starlark-go's `String()` of a value: functions print as `<function name>`.
fn go_repr(v: SValue<'_>, depth: usize) -> String {
    let items = |open: &str, close: &str, xs: Vec<SValue<'_>>| {
        let inner: Vec<String> = xs.into_iter().map(|x| go_repr(x, depth + 1)).collect();
        format!("{open}{}{close}", inner.join(", "))
    };
    if depth > 20 {
        return v.to_repr();
    }
    if let Some(t) = TupleRef::from_value(v) {
        let xs = t.content().to_vec();
        if xs.len() == 1 {
            return format!("({},)", go_repr(xs[0], depth + 1));
        }
        return items("(", ")", xs);
    }
    if let Some(l) = starlark::values::list::ListRef::from_value(v) {
        return items("[", "]", l.content().to_vec());
    }
    if is_callable(v) {
        let name = v.to_str();
        let short = name.rsplit('.').next().unwrap_or(&name).to_string();
        return format!("<function {short}>");
    }
    v.to_repr()
}

/// The number of parameters of a Starlark function (`when=` takes 1 or 2).
pub fn param_count(f: SValue<'_>) -> Option<usize> {
    match f.documentation() {
        DocItem::Member(DocMember::Function(doc)) => {
            let p = &doc.params;
            Some(
                p.pos_only.len()
                    + p.pos_or_named.len()
                    + p.named_only.len()
                    + usize::from(p.args.is_some())
                    + usize::from(p.kwargs.is_some()),
            )
        }
        _ => None,
    }
}
