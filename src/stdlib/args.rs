//! Argument checks shared by the `@ytt:` modules, worded as ytt words them. ytt's builtins
//! take their arguments loosely and check them by hand, and every error they return is
//! prefixed with the builtin's name (`json.encode: expected exactly one argument`); these
//! helpers do the same, so each module only states what it expects.

use std::fmt::Display;

use starlark::values::{UnpackValue, Value, ValueLike};
use starlark_map::small_map::SmallMap;

use crate::eval::convert::starlark_to_value;
use crate::eval::errors::plain_message;
use crate::eval::fragment::anyhow_msg;
use crate::yaml::Value as YValue;

/// Positional arguments as the builtins receive them.
pub type Args<'v> = starlark::values::tuple::UnpackTuple<Value<'v>>;

/// Keyword arguments as the builtins receive them.
pub type Kwargs<'v> = SmallMap<String, Value<'v>>;

/// An error of builtin `name`: `name: msg`.
pub fn err(name: &str, msg: impl Display) -> starlark::Error {
    starlark::Error::new_other(anyhow_msg(format!("{name}: {msg}")))
}

/// An error carrying exactly `msg` (for messages that already name their origin).
pub fn plain_err(msg: impl Display) -> starlark::Error {
    starlark::Error::new_other(anyhow_msg(msg.to_string()))
}

/// Re-raises an error from code a builtin called, prefixed with the builtin's name as ytt
/// does (the inner call stack is dropped, as in ytt).
pub fn wrap(name: &str, e: &starlark::Error) -> starlark::Error {
    use crate::eval::run::{ErrorKind, KindedError};
    match ErrorKind::of_starlark(e) {
        ErrorKind::Template => err(name, plain_message(e)),
        // A load that fails stays one, whichever builtin it failed in.
        kind => starlark::Error::new_other(KindedError {
            kind,
            message: format!("{name}: {}", plain_message(e)),
        }),
    }
}

/// `got N arguments, want M`.
pub fn want_count(name: &str, args: &[Value<'_>], want: usize) -> starlark::Result<()> {
    if args.len() != want {
        return Err(err(
            name,
            format!("got {} arguments, want {}", args.len(), want),
        ));
    }
    Ok(())
}

/// The single argument of a builtin that says `expected exactly one argument` otherwise.
pub fn exactly_one<'v>(name: &str, args: &[Value<'v>]) -> starlark::Result<Value<'v>> {
    match args {
        [one] => Ok(*one),
        _ => Err(err(name, "expected exactly one argument")),
    }
}

/// Methods of ytt's values take no arguments.
pub fn no_args(name: &str, args: &[Value<'_>]) -> starlark::Result<()> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(err(name, "expected no argument"))
    }
}

/// A string argument (`expected a string, but was int`).
pub fn as_str<'v>(name: &str, v: Value<'v>) -> starlark::Result<&'v str> {
    v.unpack_str()
        .ok_or_else(|| err(name, format!("expected a string, but was {}", v.get_type())))
}

/// The plain value of an argument (ytt's `AsGoValue`).
pub fn as_plain(name: &str, v: Value<'_>) -> starlark::Result<YValue> {
    starlark_to_value(v).map_err(|e| wrap(name, &e))
}

/// A float from an int or a float (`expected float value, but was starlark.String`).
pub fn as_f64(name: &str, v: Value<'_>) -> starlark::Result<f64> {
    if let Some(f) = v.downcast_ref::<starlark::values::float::StarlarkFloat>() {
        return Ok(f.0);
    }
    if v.get_type() == "int" {
        if let Ok(Some(i)) = i64::unpack_value(v) {
            return Ok(i as f64);
        }
        if let Ok(f) = v.to_str().parse::<f64>() {
            return Ok(f);
        }
    }
    Err(err(
        name,
        format!("expected float value, but was {}", go_type(v)),
    ))
}

/// Rejects keyword arguments other than `allowed` (`invalid argument name: x`).
pub fn only_kwargs(name: &str, kwargs: &Kwargs<'_>, allowed: &[&str]) -> starlark::Result<()> {
    match kwargs.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(err(name, format!("invalid argument name: {k}"))),
        None => Ok(()),
    }
}

/// A boolean keyword argument, `default` when absent.
pub fn kwarg_bool(
    name: &str,
    kwargs: &Kwargs<'_>,
    key: &str,
    default: bool,
) -> starlark::Result<bool> {
    match kwargs.get(key) {
        None => Ok(default),
        Some(v) => v.unpack_bool().ok_or_else(|| {
            err(
                name,
                format!("expected starlark.Bool, but was {}", go_type(*v)),
            )
        }),
    }
}

/// An int keyword argument, 0 when absent.
pub fn kwarg_i64(name: &str, kwargs: &Kwargs<'_>, key: &str) -> starlark::Result<i64> {
    match kwargs.get(key) {
        None => Ok(0),
        Some(v) if v.get_type() == "int" => match i64::unpack_value(*v) {
            Ok(Some(i)) => Ok(i),
            _ => Err(err(name, "expected int64 value")),
        },
        Some(_) => Err(err(name, "expected starlark.Int")),
    }
}

/// The `indent=` keyword argument of an encoder (0 when absent), bounded to 0..=8 as ytt
/// bounds it (CWE-409).
pub fn kwarg_indent(name: &str, kwargs: &Kwargs<'_>) -> starlark::Result<usize> {
    match usize::try_from(kwarg_i64(name, kwargs, "indent")?) {
        Ok(i) if i <= 8 => Ok(i),
        _ => Err(err(name, "indent value must be between 0 and 8")),
    }
}

/// The one plain value an encoder (`json.encode`, `toml.encode`) takes, once its keyword
/// arguments are checked against `allowed`.
pub fn encoder_value(
    name: &str,
    args: &Args<'_>,
    kwargs: &Kwargs<'_>,
    allowed: &[&str],
) -> starlark::Result<YValue> {
    let v = exactly_one(name, &args.items)?;
    only_kwargs(name, kwargs, allowed)?;
    as_plain(name, v)
}

/// The one string argument of a builtin such as `json.decode` or `base64.encode`.
pub fn one_str<'v>(name: &str, args: &Args<'v>) -> starlark::Result<&'v str> {
    as_str(name, exactly_one(name, &args.items)?)
}

/// Whether a value can be called (functions, lambdas, builtins, bound methods).
pub fn is_callable(v: Value<'_>) -> bool {
    v.get_type() == "function"
}

/// Go's `%T` of a Starlark value as ytt's messages show it.
pub fn go_type(v: Value<'_>) -> String {
    let t = v.get_type();
    let go = match t {
        "string" => "starlark.String",
        "int" => "starlark.Int",
        "float" => "starlark.Float",
        "bool" => "starlark.Bool",
        "NoneType" => "starlark.NoneType",
        "tuple" => "starlark.Tuple",
        "list" => "*starlark.List",
        "dict" => "*starlark.Dict",
        "set" => "*starlark.Set",
        "struct" => "*core.StarlarkStruct",
        "yamlfragment" => "*yamltemplate.StarlarkFragment",
        "function" if v.to_repr().starts_with("<built-in") => "*starlark.Builtin",
        "function" => "*starlark.Function",
        other => return other.to_string(),
    };
    go.to_string()
}

/// starlark-go's `Type()` of a value where the crate names it otherwise: a builtin is
/// `builtin_function_or_method` (the values of `@ytt:url`, `@ytt:ip` and `@ytt:assert` keep
/// their own types, `@ytt:url.value`, as in ytt).
pub fn go_type_name(v: Value<'_>) -> String {
    match v.get_type() {
        "native_method" => "builtin_function_or_method".to_string(),
        "function" if v.to_repr().starts_with("<built-in") => {
            "builtin_function_or_method".to_string()
        }
        t => t.to_string(),
    }
}

/// Whether a value is a sequence for ytt (iterable with a length; not a string).
pub fn is_sequence<'v>(v: Value<'v>, heap: starlark::values::Heap<'v>) -> bool {
    v.get_type() != "string" && v.length().is_ok() && v.iterate(heap).is_ok()
}
