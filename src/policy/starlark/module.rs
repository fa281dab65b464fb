//! `@yttlint:policy`, the module a policy loads: `violation(message, path=[...],
//! severity="error")` makes one violation, a struct with those three fields, which
//! `check(obj)` returns in a list. `path` is a list of keys and indexes into the object; the
//! finding is placed at the template line that wrote that field (or its nearest written
//! ancestor).
//!
//! ```python
//! load("@yttlint:policy", "violation")
//!
//! def check(obj):
//!   return [violation("no team label", path=["metadata", "labels"], severity="warning")]
//! end
//! ```

use starlark::environment::{FrozenModule, GlobalsBuilder};
use starlark::starlark_module;
use starlark::values::list::{AllocList, ListRef};
use starlark::values::tuple::TupleRef;
use starlark::values::{Heap, Value};
use starlark_map::small_map::SmallMap;

use crate::eval::structs::{struct_fields, YttStruct};
use crate::stdlib::args::{err, Args, Kwargs};

/// The name `load()` gives the module.
pub const NAME: &str = "@yttlint:policy";

/// The severities a violation may have.
pub const SEVERITIES: &[&str] = &["error", "warning", "info"];

/// The module.
pub fn module() -> Option<FrozenModule> {
    crate::stdlib::module_from(register)
}

#[starlark_module]
fn register(builder: &mut GlobalsBuilder) {
    /// A violation of a policy: `violation(message, path=[...], severity="error")`.
    fn violation<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        const FN: &str = "violation";
        let mut message = None;
        let mut path = None;
        let mut severity = None;
        for (i, v) in args.items.into_iter().enumerate() {
            match i {
                0 => message = Some(v),
                1 => path = Some(v),
                2 => severity = Some(v),
                _ => {
                    return Err(err(
                        FN,
                        "expected at most 3 arguments: message, path, severity",
                    ))
                }
            }
        }
        for (k, v) in kwargs {
            let slot = match k.as_str() {
                "message" => &mut message,
                "path" => &mut path,
                "severity" => &mut severity,
                other => {
                    return Err(err(
                        FN,
                        format!(
                            "unexpected keyword \"{other}\"; expected message, path or severity"
                        ),
                    ))
                }
            };
            if slot.replace(v).is_some() {
                return Err(err(FN, format!("{k} is given twice")));
            }
        }
        let Some(message) = message.filter(|m| m.unpack_str().is_some()) else {
            return Err(err(FN, "expected a string message as the first argument"));
        };
        let path = match path {
            None => heap.alloc(AllocList(Vec::<Value>::new())),
            Some(p) => {
                steps_of(p).map_err(|m| err(FN, m))?;
                p
            }
        };
        let severity = match severity {
            None => heap.alloc_str("error").to_value(),
            Some(s) if s.unpack_str().is_some_and(|s| SEVERITIES.contains(&s)) => s,
            Some(s) => {
                return Err(err(
                    FN,
                    format!(
                        "severity is {s}; expected one of: {}",
                        SEVERITIES.join(", ")
                    ),
                ))
            }
        };
        let mut fields = SmallMap::new();
        fields.insert("message".to_string(), message);
        fields.insert("path".to_string(), path);
        fields.insert("severity".to_string(), severity);
        Ok(heap.alloc_complex(YttStruct::new(fields)))
    }
}

/// A step of a violation's path.
#[derive(Clone, Debug, PartialEq)]
pub enum PathStep {
    Key(String),
    Index(usize),
}

/// The steps of a path value: a list or tuple of strings and non-negative integers.
pub fn steps_of(v: Value<'_>) -> Result<Vec<PathStep>, String> {
    let items: Vec<Value> = if let Some(list) = ListRef::from_value(v) {
        list.content().to_vec()
    } else if let Some(tuple) = TupleRef::from_value(v) {
        tuple.content().to_vec()
    } else {
        return Err(format!(
            "path is a {}; expected a list of keys and indexes",
            v.get_type()
        ));
    };
    items
        .into_iter()
        .map(|item| {
            if let Some(s) = item.unpack_str() {
                return Ok(PathStep::Key(s.to_string()));
            }
            match item.unpack_i32() {
                Some(i) => usize::try_from(i)
                    .map(PathStep::Index)
                    .map_err(|_| format!("path holds the index {i}; expected 0 or more")),
                None => Err(format!(
                    "path holds a {}; expected strings (keys) and integers (indexes)",
                    item.get_type()
                )),
            }
        })
        .collect()
}

/// A violation read back from what `check()` returned: its message, path and severity.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub message: String,
    pub path: Vec<PathStep>,
    pub severity: String,
}

/// The violation `v` is, or why it is none.
pub fn violation_of(v: Value<'_>) -> Result<Violation, String> {
    let not_one = || {
        format!(
            "a {} is not a violation (made with violation(...))",
            v.get_type()
        )
    };
    let fields = struct_fields(v).ok_or_else(not_one)?;
    let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
    let message = get("message")
        .and_then(|m| m.unpack_str())
        .ok_or_else(not_one)?;
    let path = match get("path") {
        Some(p) => steps_of(p)?,
        None => Vec::new(),
    };
    let severity = get("severity")
        .and_then(|s| s.unpack_str())
        .filter(|s| SEVERITIES.contains(s))
        .unwrap_or("error");
    Ok(Violation {
        message: message.to_string(),
        path,
        severity: severity.to_string(),
    })
}
