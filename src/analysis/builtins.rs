//! The signatures of the Starlark builtins of ytt's universe, as ytt's Starlark (starlark-go)
//! accepts them, checked against the reference binary: most take their arguments by position
//! only; `int`, `sorted` also by name; `dict` takes keywords; `print`, `fail` and `zip` take
//! any number of positional arguments, `min` and `max` one or more.

use super::signature::Signature;

/// Positional-only parameters, the first `required` of them required.
fn positional(name: &str, params: &[&str], required: usize) -> Signature {
    Signature {
        name: name.to_string(),
        positional: params.iter().map(|p| p.to_string()).collect(),
        named: Vec::new(),
        required: params[..required].iter().map(|p| p.to_string()).collect(),
        star_args: false,
        star_kwargs: false,
    }
}

/// Parameters by position or name, the first `required` of them required.
fn either(name: &str, params: &[&str], required: usize) -> Signature {
    Signature {
        named: params.iter().map(|p| p.to_string()).collect(),
        ..positional(name, params, required)
    }
}

/// Any number of positional arguments and the keywords `named`.
fn variadic(name: &str, named: &[&str]) -> Signature {
    Signature {
        named: named.iter().map(|p| p.to_string()).collect(),
        star_args: true,
        ..positional(name, &[], 0)
    }
}

/// The signature of the universe builtin `name`, if ytt has one by that name.
pub fn signature(name: &str) -> Option<Signature> {
    Some(match name {
        "len" | "str" | "type" | "repr" | "hash" | "dir" => positional(name, &["x"], 1),
        "any" | "all" | "reversed" => positional(name, &["iterable"], 1),
        "chr" => positional(name, &["i"], 1),
        "ord" => positional(name, &["s"], 1),
        "bool" | "float" => positional(name, &["x"], 0),
        "list" | "tuple" | "set" => positional(name, &["iterable"], 0),
        "hasattr" => positional(name, &["x", "name"], 2),
        "getattr" => positional(name, &["x", "name", "default"], 2),
        "range" => positional(name, &["start_or_stop", "stop", "step"], 1),
        "enumerate" => positional(name, &["iterable", "start"], 1),
        "int" => either(name, &["x", "base"], 1),
        "sorted" => either(name, &["iterable", "key", "reverse"], 1),
        "dict" => Signature {
            star_kwargs: true,
            ..positional(name, &["pairs"], 0)
        },
        "print" | "fail" => variadic(name, &["sep"]),
        // At least one positional argument ("min requires at least one positional argument").
        "min" | "max" => Signature {
            named: vec!["key".to_string()],
            star_args: true,
            ..positional(name, &["iterable"], 1)
        },
        "zip" => variadic(name, &[]),
        _ => return None,
    })
}
