//! Evaluates a JSONPath template over typed values exactly as client-go walks Go values:
//! nil pointers on the way are skipped (and "not found" when nothing is left), a nil pointer as
//! the last step is a result, `[*]` over an empty slice yields nothing without error, an index
//! out of range is an error.

use std::rc::Rc;

use crate::pos::Pos;
use crate::yaml::Value;

use super::super::schema::{Basic, Ty};
use super::super::value::{Data, Node as Val, View};
use super::{Node, Param, Template};

/// An evaluation error (client-go's message) and the VM position nearest to where it happened.
#[derive(Clone, Debug)]
pub struct EvalError<'a> {
    pub message: String,
    pub at: Option<&'a Pos>,
}

/// The values a path yields, in order.
pub type Found<'a> = Vec<Val<'a>>;

type Res<'a> = Result<Vec<Val<'a>>, EvalError<'a>>;

/// Go's `FindResults`: every value the template yields from `root`.
pub fn find<'a>(view: &View, t: &Template, root: &Val<'a>) -> Res<'a> {
    let mut out = Vec::new();
    for node in &t.nodes {
        out.extend(walk(view, vec![root.clone()], node, 0)?);
    }
    Ok(out)
}

fn first_at<'a>(vals: &[Val<'a>]) -> Option<&'a Pos> {
    vals.iter().find_map(|v| v.at)
}

fn err<'a>(message: String, at: &[Val<'a>]) -> EvalError<'a> {
    EvalError {
        message,
        at: first_at(at),
    }
}

fn literal<'a>(input: &[Val<'a>], ty: usize, data: Data<'a>) -> Vec<Val<'a>> {
    input
        .iter()
        .map(|v| Val {
            ty,
            data: data.clone(),
            at: v.at,
            defaulted: false,
        })
        .collect()
}

fn list<'a>(view: &View, input: Vec<Val<'a>>, steps: &[Node], depth: usize) -> Res<'a> {
    let mut cur = input;
    for step in steps {
        cur = walk(view, cur, step, depth)?;
    }
    Ok(cur)
}

fn walk<'a>(view: &View, input: Vec<Val<'a>>, node: &Node, depth: usize) -> Res<'a> {
    if depth > 32 {
        return Err(err("path nested too deeply".to_string(), &input));
    }
    let s = view.schema;
    match node {
        Node::List(steps) => list(view, input, steps, depth + 1),
        Node::Text(t) => Ok(vec![Val {
            ty: s.string,
            data: Data::Text(Rc::from(t.as_str())),
            at: first_at(&input),
            defaulted: false,
        }]),
        Node::Field(name) => field(view, input, name),
        Node::Array(params) => array(view, input, params),
        Node::Filter { left, right, op } => filter(view, input, left, right, op, depth),
        Node::Int(i) => Ok(literal(&input, s.int, Data::Int(*i))),
        Node::Float(f) => Ok(literal(&input, s.float, Data::Float(*f))),
        Node::Bool(b) => Ok(literal(&input, s.boolean, Data::Bool(*b))),
        Node::Wildcard => Ok(input
            .iter()
            .filter_map(|v| view.indirect(v))
            .flat_map(|v| view.children(&v))
            .collect()),
        Node::Recursive => Ok(recursive(view, input, 0)),
        Node::Union(lists) => {
            let mut out = Vec::new();
            for l in lists {
                out.extend(list(view, input.clone(), l, depth + 1)?);
            }
            Ok(out)
        }
        Node::Identifier(name) => match name.as_str() {
            "range" => Ok(input),
            "end" => Err(err("not in range, nothing to end".to_string(), &input)),
            _ => Err(err(format!("unrecognized identifier {name}"), &input)),
        },
    }
}

fn field<'a>(view: &View, input: Vec<Val<'a>>, name: &str) -> Res<'a> {
    if input.is_empty() {
        return Ok(input);
    }
    let found: Vec<Val<'a>> = input
        .iter()
        .filter_map(|v| view.indirect(v))
        .filter_map(|v| view.field(&v, name))
        .collect();
    if found.is_empty() {
        return Err(err(format!("{name} is not found"), &input));
    }
    Ok(found)
}

fn array<'a>(view: &View, input: Vec<Val<'a>>, params: &[Param; 3]) -> Res<'a> {
    let mut out = Vec::new();
    for v in &input {
        let Some(v) = view.indirect(v) else { continue };
        let items = view
            .elements(&v)
            .map_err(|m| err(m, std::slice::from_ref(&v)))?;
        let len = items.len() as i64;
        let mut p = *params;
        if !p[0].known {
            p[0].value = 0;
        }
        if p[0].value < 0 {
            p[0].value += len;
        }
        if !p[1].known {
            p[1].value = len;
        }
        if p[1].value < 0 || (p[1].value == 0 && p[1].derived) {
            p[1].value += len;
        }
        if p[1].value == p[0].value {
            return Ok(out);
        }
        let bounds = |i: i64| format!("array index out of bounds: index {i}, length {len}");
        if p[0].value >= len || p[0].value < 0 {
            return Err(err(bounds(p[0].value), std::slice::from_ref(&v)));
        }
        if p[1].value > len || p[1].value < 0 {
            return Err(err(bounds(p[1].value - 1), std::slice::from_ref(&v)));
        }
        if p[0].value > p[1].value {
            let m = format!(
                "starting index {} is greater than ending index {}",
                p[0].value, p[1].value
            );
            return Err(err(m, std::slice::from_ref(&v)));
        }
        let step = if p[2].known {
            if p[2].value <= 0 {
                return Err(err(
                    "step must be > 0".to_string(),
                    std::slice::from_ref(&v),
                ));
            }
            p[2].value as usize
        } else {
            1
        };
        let slice = &items[p[0].value as usize..p[1].value as usize];
        out.extend(slice.iter().step_by(step).cloned());
    }
    Ok(out)
}

fn recursive<'a>(view: &View, input: Vec<Val<'a>>, depth: usize) -> Vec<Val<'a>> {
    let mut out = Vec::new();
    if depth > 40 {
        return out;
    }
    for v in input {
        let Some(v) = view.indirect(&v) else { continue };
        if let Some(text) = view.string_value(&v) {
            if !text.is_empty() {
                out.push(v);
            }
            continue;
        }
        let kids = view.children(&v);
        if !kids.is_empty() {
            out.push(v);
            out.extend(recursive(view, kids, depth + 1));
        }
    }
    out
}

fn filter<'a>(
    view: &View,
    input: Vec<Val<'a>>,
    left: &[Node],
    right: &[Node],
    op: &str,
    depth: usize,
) -> Res<'a> {
    let mut out = Vec::new();
    for v in &input {
        let items = match view.indirect(v) {
            Some(d) if matches!(view.schema.ty(d.ty), Ty::Slice(_) | Ty::Opaque) => view
                .elements(&d)
                .map_err(|m| err(m, std::slice::from_ref(v)))?,
            _ => {
                let m = format!(
                    "{} is not array or slice and cannot be filtered",
                    shown(view, v)
                );
                return Err(err(m, std::slice::from_ref(v)));
            }
        };
        for item in items {
            let lefts = list(view, vec![item.clone()], left, depth + 1);
            if op == "exists" {
                if lefts.is_ok_and(|l| !l.is_empty()) {
                    out.push(item);
                }
                continue;
            }
            let lefts = lefts?;
            let Some(l) = one(lefts, &item)? else {
                continue;
            };
            let Some(r) = one(list(view, vec![item.clone()], right, depth + 1)?, &item)? else {
                continue;
            };
            let pass =
                compare(view, &l, &r, op).map_err(|m| err(m, std::slice::from_ref(&item)))?;
            if pass {
                out.push(item);
            }
        }
    }
    Ok(out)
}

fn one<'a>(mut vals: Vec<Val<'a>>, at: &Val<'a>) -> Result<Option<Val<'a>>, EvalError<'a>> {
    match vals.len() {
        0 => Ok(None),
        1 => Ok(vals.pop()),
        _ => Err(err(
            "can only compare one element at a time".to_string(),
            std::slice::from_ref(at),
        )),
    }
}

fn shown(view: &View, v: &Val) -> String {
    if view.is_nil(v) {
        "<nil>".to_string()
    } else {
        view.go_rendering(v)
    }
}

/// A value as Go's template comparison functions see it.
#[derive(Clone, Debug, PartialEq)]
enum Scalar {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
}

fn scalar(view: &View, v: &Val) -> Result<Scalar, String> {
    let bad = || "invalid type for comparison".to_string();
    match (&v.data, view.schema.ty(v.ty)) {
        (Data::Int(i), _) => Ok(Scalar::Int(*i)),
        (Data::Float(f), _) => Ok(Scalar::Float(*f)),
        (Data::Bool(b), _) => Ok(Scalar::Bool(*b)),
        (Data::Text(t), _) => Ok(Scalar::Str(t.to_string())),
        (data, Ty::Basic { kind, go }) => {
            let yaml = match data {
                Data::Yaml(y) => Some(*y),
                _ => None,
            };
            Ok(match kind {
                Basic::String => Scalar::Str(view.string_value(v).unwrap_or_default()),
                Basic::Bool => Scalar::Bool(matches!(yaml, Some(Value::Bool(true)))),
                Basic::Float => Scalar::Float(match yaml {
                    Some(Value::Float(f)) => *f,
                    Some(Value::Int(i)) => *i as f64,
                    _ => 0.0,
                }),
                Basic::Int => {
                    let i = match yaml {
                        Some(Value::Int(i)) => *i,
                        _ => 0,
                    };
                    if go.starts_with('u') {
                        Scalar::Uint(i.max(0) as u64)
                    } else {
                        Scalar::Int(i)
                    }
                }
            })
        }
        (Data::Yaml(y), Ty::Opaque) => match y {
            Value::Bool(b) => Ok(Scalar::Bool(*b)),
            Value::Int(i) => Ok(Scalar::Int(*i)),
            Value::Float(f) => Ok(Scalar::Float(*f)),
            Value::String(s) => Ok(Scalar::Str(s.clone())),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

fn compare(view: &View, l: &Val, r: &Val, op: &str) -> Result<bool, String> {
    let (a, b) = (scalar(view, l)?, scalar(view, r)?);
    if op == "=~" {
        return match (&b, &a) {
            (Scalar::Str(pattern), Scalar::Str(data)) => super::super::re2::compile(pattern)
                .map(|re| re.is_match(data))
                .map_err(|e| format!("error parsing regexp: {e}")),
            _ => Err("regexp search only support string now".to_string()),
        };
    }
    let eq = equal(&a, &b)?;
    let less = || less(&a, &b);
    match op {
        "==" => Ok(eq),
        "!=" => Ok(!eq),
        "<" => less(),
        "<=" => Ok(less()? || eq),
        ">" => Ok(!(less()? || eq)),
        ">=" => Ok(!less()?),
        _ => Err(format!("unrecognized filter operator {op}")),
    }
}

fn equal(a: &Scalar, b: &Scalar) -> Result<bool, String> {
    Ok(match (a, b) {
        (Scalar::Bool(x), Scalar::Bool(y)) => x == y,
        (Scalar::Int(x), Scalar::Int(y)) => x == y,
        (Scalar::Uint(x), Scalar::Uint(y)) => x == y,
        (Scalar::Float(x), Scalar::Float(y)) => x == y,
        (Scalar::Str(x), Scalar::Str(y)) => x == y,
        (Scalar::Int(x), Scalar::Uint(y)) | (Scalar::Uint(y), Scalar::Int(x)) => {
            *x >= 0 && *x as u64 == *y
        }
        _ => return Err("incompatible types for comparison".to_string()),
    })
}

fn less(a: &Scalar, b: &Scalar) -> Result<bool, String> {
    Ok(match (a, b) {
        (Scalar::Int(x), Scalar::Int(y)) => x < y,
        (Scalar::Uint(x), Scalar::Uint(y)) => x < y,
        (Scalar::Float(x), Scalar::Float(y)) => x < y,
        (Scalar::Str(x), Scalar::Str(y)) => x < y,
        (Scalar::Int(x), Scalar::Uint(y)) => *x < 0 || (*x as u64) < *y,
        (Scalar::Uint(x), Scalar::Int(y)) => *y >= 0 && *x < *y as u64,
        (Scalar::Bool(_), _) | (_, Scalar::Bool(_)) => {
            return Err("invalid type for comparison".to_string())
        }
        _ => return Err("incompatible types for comparison".to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::super::compile;
    use super::*;
    use crate::kubevirt::schema::Schema;
    use crate::yaml::parse::{parse, ParseOpts};
    use std::sync::Arc;

    fn vm(src: &str) -> crate::yaml::DocSet {
        let f: Arc<str> = Arc::from("vm.yaml");
        parse(src, &f, &ParseOpts::default()).unwrap()
    }

    fn run(schema: &Schema, doc: &Value, path: &str) -> Result<Vec<String>, String> {
        let view = View {
            schema,
            cpu_defaults: false,
        };
        let p = compile(path).unwrap();
        let pos = Pos::default();
        let root = view.root(doc, &pos);
        find(&view, &p.template, &root)
            .map(|vals| {
                vals.iter()
                    .map(|v| view.string_value(v).unwrap_or_else(|| view.go_rendering(v)))
                    .collect()
            })
            .map_err(|e| e.message)
    }

    #[test]
    fn go_struct_semantics() {
        let s = Schema::load().unwrap();
        let ds = vm("spec:\n  template:\n    spec:\n      domain:\n        devices:\n          disks:\n          - {name: a, disk: {bus: virtio}}\n          - {name: b, cdrom: {bus: sata}}\n          - {name: c, disk: {}}\n");
        let d = &ds.items[0].value;
        assert_eq!(
            run(&s, d, "jsonpath::.spec.domain.devices.disks[*].disk.bus").unwrap(),
            vec!["virtio", ""]
        );
        // nil pointer leaf is a result, descending through it is "not found"
        assert_eq!(
            run(&s, d, "jsonpath::.spec.domain.cpu").unwrap(),
            vec!["<*v1.CPU Value>"]
        );
        assert_eq!(
            run(&s, d, "jsonpath::.spec.domain.cpu.cores").unwrap_err(),
            "cores is not found"
        );
        // a plain string field of an existing struct is present and empty
        assert_eq!(run(&s, d, "jsonpath::.spec.hostname").unwrap(), vec![""]);
        // [*] over an empty slice: nothing, no error; an index out of range: error
        assert!(run(&s, d, "jsonpath::.spec.domain.devices.gpus[*].name")
            .unwrap()
            .is_empty());
        assert!(run(&s, d, "jsonpath::.spec.domain.devices.disks[5]").is_err());
        // maps: a missing key is an error
        assert!(run(&s, d, "jsonpath::.metadata.labels.tier").is_err());
        // no leading dot: .spec.templatespec
        assert_eq!(
            run(&s, d, "jsonpath::spec.domain").unwrap_err(),
            "templatespec is not found"
        );
        assert_eq!(
            run(
                &s,
                d,
                "jsonpath::.spec.domain.devices.disks[?(@.name==\"b\")].cdrom.bus"
            )
            .unwrap(),
            vec!["sata"]
        );
        assert_eq!(
            run(&s, d, "jsonpath::.spec.domain.devices.disks[-1].name").unwrap(),
            vec!["c"]
        );
        // The largest and smallest indexes are out of bounds, as in client-go.
        assert_eq!(
            run(
                &s,
                d,
                "jsonpath::.spec.domain.devices.disks[9223372036854775807].name"
            )
            .unwrap_err(),
            "array index out of bounds: index 9223372036854775807, length 3"
        );
        assert_eq!(
            run(
                &s,
                d,
                "jsonpath::.spec.domain.devices.disks[-9223372036854775808].name"
            )
            .unwrap_err(),
            "array index out of bounds: index -9223372036854775805, length 3"
        );
    }

    #[test]
    fn reference_vm() {
        let s = Schema::load().unwrap();
        let view = View {
            schema: &s,
            cpu_defaults: false,
        };
        let root = view.ref_root();
        let p = compile("jsonpath::.spec.domain.devices.disks[*].disk.bus").unwrap();
        assert_eq!(find(&view, &p.template, &root).unwrap().len(), 64);
        let p = compile("jsonpath::.spec.domain.cpu.cores").unwrap();
        assert_eq!(find(&view, &p.template, &root).unwrap().len(), 1);
        let p = compile("jsonpath::.spec.domain.resources.requests.memory").unwrap();
        assert!(find(&view, &p.template, &root).is_err());
        let p = compile("jsonpath::.spec.livenessProbe.httpGet").unwrap();
        assert!(find(&view, &p.template, &root).is_err());
    }
}
