//! `@ytt:url`: escaping of path segments and query values, query strings to and from dicts
//! of lists, and `parse(url)`, whose `@ytt:url.value` has `user` (an `@ytt:url.user` with
//! `name`, `password` and `string()`, or None), `string()`, `hostname()` and
//! `without_user()`. Neither value turns into YAML by itself (`hint: use .string()`).

use std::collections::BTreeMap;
use std::fmt;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::environment::{GlobalsBuilder, Methods, MethodsBuilder};
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::dict::AllocDict;
use starlark::values::list::AllocList;
use starlark::values::none::NoneOr;
use starlark::values::{starlark_value, Demand, Heap, NoSerialize, StarlarkValue, Value};

use super::args::{as_plain, as_str, err, exactly_one, Args};
use super::url_escape::{escape, unescape, Part};
use super::url_parse::{Url, User};
use crate::eval::convert::ConversionHint;
use crate::eval::fragment::go_type_name;
use crate::yaml::Value as YValue;

fn hint(type_name: &str) -> ConversionHint {
    ConversionHint(format!(
        "{type_name} does not automatically encode (hint: use .string())"
    ))
}

/// `@ytt:url.value`.
#[derive(Clone, Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct UrlValue {
    #[allocative(skip)]
    url: Url,
}

starlark_simple_value!(UrlValue);

impl fmt::Display for UrlValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

starlark::methods_static!(URL_VALUE_METHODS = url_value_methods);

/// ytt's names of this struct, in its order.
const URL_VALUE_NAMES: &[&str] = &["user", "without_user", "string", "hostname"];

#[starlark_value(type = "@ytt:url.value")]
impl<'v> StarlarkValue<'v> for UrlValue {
    crate::struct_like!(URL_VALUE_NAMES);

    fn get_methods() -> Option<&'static Methods> {
        Some(URL_VALUE_METHODS.methods())
    }

    fn provide(&'v self, demand: &mut Demand<'_, 'v>) {
        demand.provide_value(super::struct_like::StructNames(URL_VALUE_NAMES));
        demand.provide_value(hint("@ytt:url.value"));
    }
}

#[starlark_module]
fn url_value_methods(builder: &mut MethodsBuilder) {
    #[starlark(attribute)]
    fn user(this: &UrlValue) -> starlark::Result<NoneOr<UrlUser>> {
        Ok(match &this.url.user {
            Some(u) => NoneOr::Other(UrlUser { user: u.clone() }),
            None => NoneOr::None,
        })
    }

    fn string(this: &UrlValue) -> starlark::Result<String> {
        Ok(this.url.to_url_string())
    }

    fn hostname(this: &UrlValue) -> starlark::Result<String> {
        Ok(this.url.hostname())
    }

    fn without_user(this: &UrlValue) -> starlark::Result<UrlValue> {
        Ok(UrlValue {
            url: this.url.without_user(),
        })
    }
}

/// `@ytt:url.user`.
#[derive(Clone, Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct UrlUser {
    #[allocative(skip)]
    user: User,
}

starlark_simple_value!(UrlUser);

impl fmt::Display for UrlUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

starlark::methods_static!(URL_USER_METHODS = url_user_methods);

/// ytt's names of this struct, in its order.
const URL_USER_NAMES: &[&str] = &["name", "password", "string"];

#[starlark_value(type = "@ytt:url.user")]
impl<'v> StarlarkValue<'v> for UrlUser {
    crate::struct_like!(URL_USER_NAMES);

    fn get_methods() -> Option<&'static Methods> {
        Some(URL_USER_METHODS.methods())
    }

    fn provide(&'v self, demand: &mut Demand<'_, 'v>) {
        demand.provide_value(super::struct_like::StructNames(URL_USER_NAMES));
        demand.provide_value(hint("@ytt:url.user"));
    }
}

#[starlark_module]
fn url_user_methods(builder: &mut MethodsBuilder) {
    #[starlark(attribute)]
    fn name(this: &UrlUser) -> starlark::Result<String> {
        Ok(this.user.name.clone())
    }

    #[starlark(attribute)]
    fn password(this: &UrlUser) -> starlark::Result<NoneOr<String>> {
        Ok(match &this.user.password {
            Some(p) => NoneOr::Other(p.clone()),
            None => NoneOr::None,
        })
    }

    fn string(this: &UrlUser) -> starlark::Result<String> {
        Ok(this.user.to_url_string())
    }
}

/// `url.Values.Encode()` of a map of string lists: keys sorted, each value `key=value`.
fn encode_query(name: &str, v: &YValue) -> starlark::Result<String> {
    let YValue::Map(map) = v else {
        return Err(err(
            name,
            format!("expected argument to be a map, but was {}", go_type_name(v)),
        ));
    };
    let mut params: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for item in &map.items {
        let YValue::String(key) = &item.key else {
            return Err(err(
                name,
                format!(
                    "expected map key to be string, but was {}",
                    go_type_name(&item.key)
                ),
            ));
        };
        let YValue::Array(values) = &item.value else {
            return Err(err(
                name,
                format!(
                    "expected map value to be array, but was {}",
                    go_type_name(&item.value)
                ),
            ));
        };
        let mut strings = Vec::new();
        for v in &values.items {
            match &v.value {
                YValue::String(s) => strings.push(s.as_str()),
                other => {
                    return Err(err(
                        name,
                        format!(
                            "expected array value to be string, but was {}",
                            go_type_name(other)
                        ),
                    ))
                }
            }
        }
        params.insert(key, strings);
    }
    let mut out = Vec::new();
    for (key, values) in params {
        let key = escape(key, Part::QueryComponent);
        for v in values {
            out.push(format!("{key}={}", escape(v, Part::QueryComponent)));
        }
    }
    Ok(out.join("&"))
}

/// `url.ParseQuery` (with `;` read as `&`, as ytt does): keys to their values.
fn decode_query(query: &str) -> Result<BTreeMap<String, Vec<String>>, String> {
    let query = query.replace(';', "&");
    let mut params: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut first_err = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match (
            unescape(key, Part::QueryComponent),
            unescape(value, Part::QueryComponent),
        ) {
            (Ok(k), Ok(v)) => params.entry(k).or_default().push(v),
            (Err(e), _) | (_, Err(e)) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(params),
    }
}

fn string_fn<'v>(
    name: &str,
    args: &Args<'v>,
    heap: Heap<'v>,
    f: impl FnOnce(&str) -> Result<String, String>,
) -> starlark::Result<Value<'v>> {
    let s = as_str(name, exactly_one(name, &args.items)?)?;
    let out = f(s).map_err(|m| err(name, m))?;
    Ok(heap.alloc_str(&out).to_value())
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn path_segment_encode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        string_fn("url.path_segment_encode", &args, heap, |s| {
            Ok(escape(s, Part::PathSegment))
        })
    }

    fn path_segment_decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        string_fn("url.path_segment_decode", &args, heap, |s| {
            unescape(s, Part::PathSegment)
        })
    }

    fn query_param_value_encode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        string_fn("url.query_param_value_encode", &args, heap, |s| {
            Ok(escape(s, Part::QueryComponent))
        })
    }

    fn query_param_value_decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        string_fn("url.query_param_value_decode", &args, heap, |s| {
            unescape(s, Part::QueryComponent)
        })
    }

    fn query_params_encode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "url.query_params_encode";
        let v = as_plain(NAME, exactly_one(NAME, &args.items)?)?;
        Ok(heap.alloc_str(&encode_query(NAME, &v)?).to_value())
    }

    fn query_params_decode<'v>(
        #[starlark(args)] args: Args<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const NAME: &str = "url.query_params_decode";
        let s = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        let params = decode_query(s).map_err(|m| err(NAME, m))?;
        Ok(heap.alloc(AllocDict(params.into_iter().map(|(k, vs)| {
            let list = heap.alloc(AllocList(vs.iter().map(|v| heap.alloc_str(v).to_value())));
            (heap.alloc_str(&k).to_value(), list)
        }))))
    }

    fn parse<'v>(#[starlark(args)] args: Args<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        const NAME: &str = "url.parse";
        let s = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        let url = Url::parse(s).map_err(|m| err(NAME, m))?;
        Ok(heap.alloc(UrlValue { url }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_split_on_ampersands_and_semicolons() {
        let q = decode_query("y=2&x=1&y=3;z").unwrap_or_default();
        let flat: Vec<(String, Vec<String>)> = q.into_iter().collect();
        assert_eq!(
            flat,
            vec![
                ("x".to_string(), vec!["1".to_string()]),
                ("y".to_string(), vec!["2".to_string(), "3".to_string()]),
                ("z".to_string(), vec![String::new()]),
            ]
        );
        assert_eq!(
            decode_query("a=%zz&b=1"),
            Err("invalid URL escape \"%zz\"".into())
        );
    }
}
