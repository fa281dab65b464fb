//! Static checks of a rule's paths against KubeVirt's Go types: fields that do not exist, a
//! rule kind that does not fit the field (an integer rule on a string, an enum on a number), a
//! `valid` that exists on every VM and so never skips, `[*]` without a `valid` guard, argument
//! paths that can yield several values.

use crate::pos::Pos;
use crate::yaml::{Map, MapItem, Value};

use super::annotation::{Issue, PathArg, Rule};
use super::check::{paths, similar, warning};
use super::jsonpath::{find, Node};
use super::schema::{Basic, Schema, Ty, TyId};
use super::value::View;

/// The shape of a path over the Go types, as far as it can be followed statically.
struct Shape {
    /// The type of the values yielded, when known.
    leaf: Option<TyId>,
    /// The path can yield several values (`[*]`, slices, filters, `..`).
    multi: bool,
}

fn shape(schema: &Schema, steps: &[Node]) -> Result<Shape, String> {
    let mut ty = Some(schema.vm);
    let mut multi = false;
    for step in steps {
        let Some(cur) = ty else { break };
        let d = schema.deref(cur);
        ty = match (step, schema.ty(d)) {
            (Node::Field(name), Ty::Struct { name: sname, .. }) => match schema.field(d, name) {
                Some(f) => Some(f.ty),
                None => return Err(unknown_field(schema, d, sname, name)),
            },
            (Node::Field(_), Ty::Map(e)) => Some(*e),
            (Node::Array(p), Ty::Slice(e)) => {
                multi |= !(p[1].derived || (p[1].known && p[1].value == p[0].value + 1));
                Some(*e)
            }
            (Node::Filter { .. }, Ty::Slice(e)) => {
                multi = true;
                Some(*e)
            }
            (_, Ty::Opaque) => None,
            (Node::Recursive | Node::Wildcard | Node::Union(_), _) => {
                multi = true;
                None
            }
            _ => None,
        };
    }
    Ok(Shape { leaf: ty, multi })
}

fn unknown_field(schema: &Schema, d: TyId, sname: &str, name: &str) -> String {
    let close: Vec<&str> = schema
        .field_names(d)
        .into_iter()
        .filter(|f| similar(f, name))
        .collect();
    let hint = match close.first() {
        Some(c) => format!("; did you mean {c:?}?"),
        None => String::new(),
    };
    format!("KubeVirt's v1.{sname} has no field {name:?}{hint}")
}

pub(crate) fn check_types(rule: &Rule, schema: &Schema, out: &mut Vec<Issue>) {
    for (key, p) in paths(rule) {
        if !p.path.expr.starts_with(['.', '[']) {
            continue;
        }
        let Some(steps) = p.path.template.single_action() else {
            continue;
        };
        match shape(schema, steps) {
            Err(m) => {
                let h = "the validator drops fields it does not know when it reads the VM, so the \
                         path never resolves (checked against kubevirt.io/api core/v1)";
                out.push(warning(
                    p.at,
                    format!("{}: {key:?}: {m}", rule.label()),
                    Some(h.into()),
                ));
            }
            Ok(s) => {
                if key == "path" {
                    kind_fits(rule, schema, &s, p, out);
                    if s.multi && rule.valid.is_none() {
                        let m = format!(
                            "{}: \"path\" {:?} can match no element, and has no \"valid\" guard",
                            rule.label(),
                            p.raw
                        );
                        let h = "a VirtualMachine without such elements is rejected (\"no values \
                                 were found\"); add \"valid\" with the same path to skip it";
                        out.push(warning(p.at, m, Some(h.into())));
                    }
                } else if key != "valid" && s.multi {
                    let m = format!(
                        "{}: {key:?} {:?} can yield several values",
                        rule.label(),
                        p.raw
                    );
                    let h = "an argument path must yield exactly one value, or the validator \
                             rejects the VirtualMachine";
                    out.push(warning(p.at, m, Some(h.into())));
                }
            }
        }
    }
    if let Some(v) = &rule.valid {
        valid_never_skips(rule, schema, v, out);
    }
}

fn kind_fits(rule: &Rule, schema: &Schema, s: &Shape, p: &PathArg, out: &mut Vec<Issue>) {
    let Some(leaf) = s.leaf else { return };
    let go = schema.go_name(leaf);
    let problem = match (rule.kind.as_str(), schema.ty(leaf)) {
        ("integer", Ty::Basic { kind, go }) => match kind {
            Basic::Int | Basic::Float if int_convertible(go) => None,
            _ => Some(format!(
                "an integer rule on a {go} field always fails (\"mismatching type\")"
            )),
        },
        ("integer", Ty::Quantity) => None,
        ("integer", Ty::Ptr(inner)) if *schema.ty(*inner) == Ty::Quantity => None,
        ("integer", Ty::Opaque) => None,
        ("integer", _) => Some(format!(
            "an integer rule on a {go} field always fails (\"mismatching type\")"
        )),
        (
            "string" | "enum" | "regex",
            Ty::Basic {
                kind: Basic::String,
                ..
            }
            | Ty::Opaque,
        ) => None,
        ("string" | "enum" | "regex", _) => Some(format!(
            "a {} rule on a {go} field checks the text \"<{go} Value>\", not the value",
            rule.kind
        )),
        _ => None,
    };
    if let Some(m) = problem {
        out.push(warning(p.at, format!("{}: {m}", rule.label()), None));
    }
}

/// The Go types `toInt64` converts.
pub fn int_convertible(go: &str) -> bool {
    matches!(
        go,
        "int" | "int32" | "int64" | "uint" | "uint32" | "uint64" | "float32" | "float64"
    )
}

fn valid_never_skips(rule: &Rule, schema: &Schema, v: &PathArg, out: &mut Vec<Issue>) {
    let view = View {
        schema,
        cpu_defaults: false,
    };
    let empty = minimal_vm();
    let pos = Pos::default();
    let root = view.root(&empty, &pos);
    if find(&view, &v.path.template, &root).is_ok_and(|vals| !vals.is_empty()) {
        let m = format!(
            "{}: \"valid\" {:?} exists on every VirtualMachine, so the rule is never skipped",
            rule.label(),
            v.raw
        );
        let h = "for the validator a nil pointer, an empty list or an unset scalar counts as \
                 present; point \"valid\" at something optional, e.g. an element's field with [*]";
        out.push(warning(v.at, m, Some(h.to_string())));
    }
}

/// `spec: {template: {spec: {domain: {}}}}`: the least a VirtualMachine holds.
fn minimal_vm() -> Value {
    let nest = |key: &str, value: Value| {
        let mut m = Map::default();
        m.items.push(MapItem::new(
            Value::String(key.to_string()),
            value,
            Pos::default(),
        ));
        Value::Map(Box::new(m))
    };
    let domain = nest("domain", Value::Map(Box::default()));
    nest("spec", nest("template", nest("spec", domain)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubevirt::annotation::read;
    use crate::kubevirt::check::check;
    use crate::report::Severity;

    fn warnings(text: &str) -> Vec<String> {
        let schema = Schema::load().unwrap();
        let mut a = read(text);
        check(&mut a, &schema);
        a.issues
            .into_iter()
            .filter(|i| i.severity == Severity::Warning)
            .map(|i| i.message)
            .collect()
    }

    #[test]
    fn type_and_guard_warnings() {
        let w = warnings(
            r#"[{"name": "c", "path": "jsonpath::.spec.domain.cpu.corez", "rule": "integer", "message": "m", "min": 1}]"#,
        );
        assert!(
            w[0].contains("has no field \"corez\"; did you mean \"cores\"?"),
            "{w:?}"
        );
        let w = warnings(
            r#"[{"name": "c", "path": "jsonpath::.spec.domain.cpu.cores", "rule": "enum", "message": "m", "values": ["1"]}]"#,
        );
        assert!(w[0].contains("\"<uint32 Value>\""), "{w:?}");
        let w = warnings(
            r#"[{"name": "c", "path": "jsonpath::.spec.domain.machine.type", "rule": "integer", "message": "m", "min": 1}]"#,
        );
        assert!(w[0].contains("always fails"), "{w:?}");
        let w = warnings(
            r#"[{"name": "c", "valid": "jsonpath::.spec.domain.cpu", "path": "jsonpath::.spec.domain.cpu.cores", "rule": "integer", "message": "m", "min": 1}]"#,
        );
        assert!(w[0].contains("never skipped"), "{w:?}");
        let w = warnings(
            r#"[{"name": "c", "path": "jsonpath::.spec.domain.devices.disks[*].name", "rule": "string", "message": "m", "minLength": 1}]"#,
        );
        assert!(w[0].contains("no \"valid\" guard"), "{w:?}");
    }
}
