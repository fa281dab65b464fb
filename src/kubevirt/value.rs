//! Typed values: a VirtualMachine's YAML seen through KubeVirt's Go types, as the validator's
//! JSONPath sees the decoded struct, plus the validator's "reference VM".
//!
//! A field absent from the YAML is still there in Go: a zero scalar, an empty struct, a nil
//! pointer, slice or map. The reference VM is a VM where every pointer under
//! `spec.template.spec.domain` is allocated and every slice there holds 64 (16 for ports, 8 for
//! NTP servers) zero elements; the validator looks a path up there when the VM lacks it.

use std::rc::Rc;

use crate::pos::Pos;
use crate::yaml::Value;

use super::schema::{Basic, Schema, Ty, TyId};

/// Where a typed value comes from.
#[derive(Clone, Debug)]
pub enum Data<'a> {
    /// A YAML node of the VM.
    Yaml(&'a Value),
    /// Absent from the VM's YAML: Go's zero value (nil for pointers, slices, maps).
    Missing,
    /// A value of the reference VM.
    Ref(RefState),
    /// A value computed by the webhook (CPU defaults) or written in the path itself.
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(Rc<str>),
}

/// The reference VM's state at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefState {
    /// Inside `spec.template.spec.domain`, where everything is allocated.
    pub in_domain: bool,
    /// This pointer, slice or map is allocated (not nil).
    pub alloc: bool,
    /// The length of this slice, when allocated.
    pub len: u8,
}

impl RefState {
    pub fn root() -> RefState {
        RefState {
            in_domain: false,
            alloc: true,
            len: 0,
        }
    }
}

/// A typed value and the nearest position of the VM's YAML.
#[derive(Clone, Debug)]
pub struct Node<'a> {
    pub ty: TyId,
    pub data: Data<'a>,
    pub at: Option<&'a Pos>,
    /// The webhook set this value (CPU topology defaults to 1).
    pub defaulted: bool,
}

/// Evaluation context: the type table and the policies that shape the view.
pub struct View<'s> {
    pub schema: &'s Schema,
    /// Apply the webhook's CPU defaults (sockets/cores/threads 0 -> 1 when `cpu` is given).
    pub cpu_defaults: bool,
}

fn yaml_get<'a>(map: &'a Value, key: &str) -> Option<(&'a Value, &'a Pos)> {
    let Value::Map(m) = map else { return None };
    let exact = m.items.iter().find(|i| i.key.as_str() == Some(key));
    // Go's encoding/json matches keys case-insensitively when no exact match exists
    let item = exact.or_else(|| {
        m.items
            .iter()
            .find(|i| i.key.as_str().is_some_and(|k| k.eq_ignore_ascii_case(key)))
    })?;
    Some((&item.value, &item.pos))
}

/// Slice lengths of the reference VM, by Go field name.
fn ref_len(go_field: &str) -> u8 {
    match go_field {
        "Ports" => 16,
        "NTPServers" => 8,
        _ => 64,
    }
}

impl<'s> View<'s> {
    pub fn root<'a>(&self, vm: &'a Value, at: &'a Pos) -> Node<'a> {
        Node {
            ty: self.schema.vm,
            data: Data::Yaml(vm),
            at: Some(at),
            defaulted: false,
        }
    }

    pub fn ref_root<'a>(&self) -> Node<'a> {
        Node {
            ty: self.schema.vm,
            data: Data::Ref(RefState::root()),
            at: None,
            defaulted: false,
        }
    }

    /// The value is a nil pointer.
    pub fn is_nil(&self, n: &Node) -> bool {
        if !matches!(self.schema.ty(n.ty), Ty::Ptr(_)) {
            return false;
        }
        match &n.data {
            Data::Yaml(Value::Null) | Data::Missing => true,
            Data::Ref(r) => !r.alloc,
            _ => false,
        }
    }

    /// Go's `template.Indirect`: follows pointers; `None` for a nil pointer.
    pub fn indirect<'a>(&self, n: &Node<'a>) -> Option<Node<'a>> {
        let mut out = n.clone();
        while let Ty::Ptr(inner) = self.schema.ty(out.ty) {
            if self.is_nil(&out) {
                return None;
            }
            out.ty = *inner;
            if let Data::Ref(r) = &mut out.data {
                r.alloc = r.in_domain;
            }
        }
        Some(out)
    }

    /// `.name` on a (non-pointer) value: a struct field or a map entry; `None` when there is none.
    pub fn field<'a>(&self, n: &Node<'a>, name: &str) -> Option<Node<'a>> {
        match self.schema.ty(n.ty) {
            Ty::Struct { name: sname, .. } => {
                let f = self.schema.field(n.ty, name)?;
                let mut child = Node {
                    ty: f.ty,
                    data: Data::Missing,
                    at: n.at,
                    defaulted: false,
                };
                match &n.data {
                    Data::Yaml(v) => {
                        if let Some((v, pos)) = yaml_get(v, &f.json) {
                            child.data = Data::Yaml(v);
                            child.at = Some(pos);
                        }
                    }
                    Data::Ref(r) => {
                        let in_domain = r.in_domain
                            || (sname == "VirtualMachineInstanceSpec" && f.json == "domain");
                        let alloc =
                            in_domain || (sname == "VirtualMachineSpec" && f.json == "template");
                        child.data = Data::Ref(RefState {
                            in_domain,
                            alloc,
                            len: if in_domain { ref_len(&f.go) } else { 0 },
                        });
                        if sname == "CDRomTarget" && f.json == "tray" {
                            child.data = Data::Text(Rc::from("closed"));
                        }
                    }
                    _ => {}
                }
                if sname == "CPU" && self.cpu_defaults && matches!(n.data, Data::Yaml(_)) {
                    self.cpu_default(&mut child, &f.json);
                }
                Some(child)
            }
            Ty::Map(elem) => match &n.data {
                Data::Yaml(v) => {
                    let Value::Map(m) = v else { return None };
                    let item = m.items.iter().find(|i| i.key.as_str() == Some(name))?;
                    Some(Node {
                        ty: *elem,
                        data: Data::Yaml(&item.value),
                        at: Some(&item.pos),
                        defaulted: false,
                    })
                }
                _ => None,
            },
            Ty::Opaque => match &n.data {
                Data::Yaml(v) => {
                    let Value::Map(m) = v else { return None };
                    let item = m.items.iter().find(|i| i.key.as_str() == Some(name))?;
                    Some(Node {
                        ty: n.ty,
                        data: Data::Yaml(&item.value),
                        at: Some(&item.pos),
                        defaulted: false,
                    })
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn cpu_default(&self, child: &mut Node, json: &str) {
        if !matches!(json, "cores" | "sockets" | "threads") {
            return;
        }
        let zero = matches!(
            &child.data,
            Data::Missing | Data::Yaml(Value::Null) | Data::Yaml(Value::Int(0))
        );
        if zero {
            child.data = Data::Int(1);
            child.defaulted = true;
        }
    }

    /// The elements of a (non-pointer) slice, or why it is not one.
    pub fn elements<'a>(&self, n: &Node<'a>) -> Result<Vec<Node<'a>>, String> {
        let elem = match self.schema.ty(n.ty) {
            Ty::Slice(e) => *e,
            Ty::Opaque => n.ty,
            _ => {
                return Err(format!(
                    "{} is not array or slice",
                    self.schema.go_name(n.ty)
                ))
            }
        };
        match &n.data {
            Data::Yaml(Value::Array(a)) => Ok(a
                .items
                .iter()
                .map(|i| Node {
                    ty: elem,
                    data: Data::Yaml(&i.value),
                    at: Some(&i.pos),
                    defaulted: false,
                })
                .collect()),
            Data::Ref(r) if r.alloc && r.in_domain => {
                let is_ptr = matches!(self.schema.ty(elem), Ty::Ptr(_));
                let state = RefState {
                    in_domain: true,
                    alloc: !is_ptr,
                    len: 64,
                };
                Ok((0..r.len)
                    .map(|_| Node {
                        ty: elem,
                        data: Data::Ref(state),
                        at: None,
                        defaulted: false,
                    })
                    .collect())
            }
            Data::Yaml(v) if matches!(self.schema.ty(n.ty), Ty::Opaque) && **v != Value::Null => {
                Err(format!("{} is not array or slice", v.type_name()))
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Everything `*` and `..` step into: struct fields, map values, slice elements.
    pub fn children<'a>(&self, n: &Node<'a>) -> Vec<Node<'a>> {
        match self.schema.ty(n.ty) {
            Ty::Struct { fields, .. } => fields
                .iter()
                .filter_map(|f| self.field(n, &f.json))
                .collect(),
            Ty::Map(_) | Ty::Opaque => match &n.data {
                Data::Yaml(Value::Map(m)) => m
                    .items
                    .iter()
                    .filter_map(|i| i.key.as_str().and_then(|k| self.field(n, k)))
                    .collect(),
                Data::Yaml(Value::Array(_)) => self.elements(n).unwrap_or_default(),
                _ => Vec::new(),
            },
            Ty::Slice(_) => self.elements(n).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// The value is a string in Go (a string kind, or an opaque YAML string).
    pub fn string_value(&self, n: &Node) -> Option<String> {
        let is_string = match self.schema.ty(n.ty) {
            Ty::Basic { kind, .. } => *kind == Basic::String,
            Ty::Opaque => matches!(n.data, Data::Yaml(Value::String(_))),
            _ => false,
        };
        if !is_string {
            return None;
        }
        Some(match &n.data {
            Data::Yaml(v) => scalar_text(v),
            Data::Text(t) => t.to_string(),
            Data::Int(i) => i.to_string(),
            _ => String::new(),
        })
    }

    /// Go's `reflect.Value.String()` for a value that is not a string: `<uint32 Value>`.
    pub fn go_rendering(&self, n: &Node) -> String {
        let name = match (self.schema.ty(n.ty), &n.data) {
            (Ty::Opaque, Data::Yaml(v)) => yaml_go_type(v).to_string(),
            _ => self.schema.go_name(n.ty),
        };
        format!("<{name} Value>")
    }
}

/// The text of a YAML scalar as the VM's author wrote it.
pub fn scalar_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        _ => crate::yaml::node::scalar_key_string(v),
    }
}

/// The Go type a YAML value decodes to as `interface{}`.
fn yaml_go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "interface {}",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Uint(_) | Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::Map(_) => "map[string]interface {}",
        Value::Array(_) => "[]interface {}",
    }
}
