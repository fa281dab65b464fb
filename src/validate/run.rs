//! Checking a document's validations, as ytt's validation run does: the nodes are visited
//! parent first; each node's validations (the schema's, then `@assert/validate`) are checked in
//! turn, `not_null` first; a null value skips a validation unless it has `not_null=True`;
//! `when=` decides whether the rules run at all. Every violation is collected.
//!
//! All annotations are read before any rule runs, so a malformed one is reported as such
//! rather than after some violations.

use starlark::collections::SmallMap;
use starlark::values::Value as SValue;

use super::parse::{param_count, parse, Check, Validation};
use super::{Invalidation, Violation, ASSERT_VALIDATE};
use crate::eval::convert::{value_to_starlark, MapAs};
use crate::eval::errors::plain_message;
use crate::eval::overlay_host::StarlarkHost;
use crate::eval::structs::YttStruct;
use crate::pos::Pos;
use crate::stdlib::golike::{repr, str_of};
use crate::yaml::{Annotation, Document, Value};

/// Deeper documents are not walked further (their nesting is bounded by the parser anyway).
const MAX_DEPTH: usize = 10_000;

/// A node's type in the schema, as the walk needs it (the schema layer implements it).
pub trait NodeType {
    /// The node's `@schema/validation`, or the string defaults that apply to it.
    fn validation(&self) -> Option<&Annotation>;
    /// Where the schema declares the node.
    fn pos(&self) -> &Pos;
    /// The type of the map item with this key, or of the array items with `None`; nothing
    /// below an `any` type.
    fn child(&self, key: Option<&Value>) -> Option<&dyn NodeType>;
}

/// A node with validations, found by the walk.
struct Entry<'d> {
    path: String,
    /// `{key}` of spec 000's messages: the map key or the array index.
    key: String,
    value: &'d Value,
    parent: Option<&'d Value>,
    pos: Pos,
    /// Where the schema declared the node, when its type came from a schema.
    schema_pos: Option<Pos>,
    schema: Option<&'d Annotation>,
    assert: Option<&'d Annotation>,
}

/// One step from a document's root down to a node: a map key or an array index.
enum Step<'d> {
    Key(&'d Value),
    Index(usize),
}

struct Walker<'d> {
    entries: Vec<Entry<'d>>,
    /// Checking output documents: only `@assert/validate`, never the schema.
    with_asserts: bool,
    /// The steps to the node being visited (its path is only spelled out for an entry).
    trail: Vec<Step<'d>>,
}

impl<'d> Walker<'d> {
    /// The visited node's path (`a.b[0].c`) and key (`{key}`: the map key or array index; `0`
    /// for the document).
    fn path_and_key(&self) -> (String, String) {
        let mut path = String::new();
        for step in &self.trail {
            match step {
                Step::Key(k) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&str_of(k));
                }
                Step::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        let key = match self.trail.last() {
            Some(Step::Key(k)) => str_of(k),
            Some(Step::Index(i)) => i.to_string(),
            None => "0".to_string(),
        };
        (path, key)
    }

    fn visit(
        &mut self,
        value: &'d Value,
        parent: Option<&'d Value>,
        pos: &Pos,
        anns: &'d crate::yaml::Annotations,
        ty: Option<&'d dyn NodeType>,
    ) {
        let schema = ty.and_then(|t| t.validation());
        let assert = anns.get(ASSERT_VALIDATE).filter(|_| self.with_asserts);
        if schema.is_some() || assert.is_some() {
            let (path, key) = self.path_and_key();
            self.entries.push(Entry {
                path,
                key,
                value,
                parent,
                pos: pos.clone(),
                schema_pos: ty.map(|t| t.pos().clone()),
                schema,
                assert,
            });
        }
        if self.trail.len() > MAX_DEPTH {
            return;
        }
        match value {
            Value::Map(m) => {
                for item in &m.items {
                    let child_ty = ty.and_then(|t| t.child(Some(&item.key)));
                    self.trail.push(Step::Key(&item.key));
                    self.visit(&item.value, Some(value), &item.pos, &item.anns, child_ty);
                    self.trail.pop();
                }
            }
            Value::Array(a) => {
                let item_ty = ty.and_then(|t| t.child(None));
                for (i, item) in a.items.iter().enumerate() {
                    self.trail.push(Step::Index(i));
                    self.visit(&item.value, Some(value), &item.pos, &item.anns, item_ty);
                    self.trail.pop();
                }
            }
            _ => {}
        }
    }
}

/// What to check in a document.
pub struct Target<'d> {
    pub doc: &'d Document,
    /// The schema's type of the document (data values with a schema).
    pub ty: Option<&'d dyn NodeType>,
    /// Whether `@assert/validate` annotations on the nodes count (data values documents and,
    /// beyond ytt, output documents; not schema defaults).
    pub asserts: bool,
}

/// Checks every validation in `target`; an error is a malformed annotation or a failing
/// `when=` (ytt stops there).
pub fn check(
    target: &Target<'_>,
    host: &mut StarlarkHost<'_, '_, '_, '_>,
) -> Result<Vec<Invalidation>, String> {
    let mut walker = Walker {
        entries: Vec::new(),
        with_asserts: target.asserts,
        trail: Vec::new(),
    };
    let doc = target.doc;
    walker.visit(&doc.value, None, &doc.pos, &doc.anns, target.ty);
    let entries = walker.entries;
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let mut parsed: Vec<Vec<Validation<'_>>> = Vec::with_capacity(entries.len());
    for e in &entries {
        let mut vs = Vec::new();
        if let Some(a) = e.schema {
            vs.push(parse(a, host).map_err(|m| format!("Invalid @{} annotation - {m}", a.name))?);
        }
        parsed.push(vs);
    }
    for (e, vs) in entries.iter().zip(parsed.iter_mut()) {
        if let Some(a) = e.assert {
            vs.push(
                parse(a, host)
                    .map_err(|m| format!("Invalid @{ASSERT_VALIDATE} annotation - {m}"))?,
            );
        }
    }
    let root = value_to_starlark(&doc.value, host.eval.heap(), MapAs::Fragment);
    let mut out = Vec::new();
    for (e, vs) in entries.iter().zip(&parsed) {
        for v in vs {
            if let Some(inv) = check_one(e, v, root, host)? {
                out.push(inv);
            }
        }
    }
    Ok(out)
}

fn check_one<'v>(
    e: &Entry<'_>,
    v: &Validation<'v>,
    root: SValue<'v>,
    host: &mut StarlarkHost<'_, 'v, '_, '_>,
) -> Result<Option<Invalidation>, String> {
    let heap = host.eval.heap();
    let value = value_to_starlark(e.value, heap, MapAs::Fragment);
    if value.is_none() && !v.not_null {
        return Ok(None);
    }
    if let Some(when) = v.when {
        let at = |m: String| format!("Validating {}: {m}", e.path);
        let mut args = vec![value];
        match param_count(when) {
            Some(1) => {}
            Some(2) => {
                let parent = e
                    .parent
                    .map(|p| value_to_starlark(p, heap, MapAs::Fragment))
                    .unwrap_or_else(SValue::new_none);
                let mut fields = SmallMap::new();
                fields.insert("parent".to_string(), parent);
                fields.insert("root".to_string(), root);
                args.push(heap.alloc(YttStruct::new(fields)));
            }
            n => {
                return Err(at(format!(
                    "Failed to evaluate when=: function must accept 1 or 2 arguments ({} given)",
                    n.map_or("?".to_string(), |n| n.to_string())
                )))
            }
        }
        let r = host
            .eval
            .eval_function(when, &args, &[])
            .map_err(|err| at(format!("Failure evaluating when=: {}", plain_message(&err))))?;
        match r.unpack_bool() {
            Some(true) => {}
            Some(false) => return Ok(None),
            None => return Err(at(format!("want when= to be bool, got {}", r.get_type()))),
        }
    }
    let mut rules: Vec<_> = v.rules.iter().collect();
    rules.sort_by_key(|r| !r.critical);
    let mut violations = Vec::new();
    for r in rules {
        let failure = match &r.check {
            Check::Builtin(rule) => rule.check_node(e.value).err().map(|m| trim(&m)),
            Check::Call(f) => match host.eval.eval_function(*f, &[value], &[]) {
                Err(err) => Some(trim(&plain_message(&err))),
                Ok(res) if res.unpack_bool() == Some(true) => None,
                Ok(_) => Some(String::new()),
            },
        };
        let Some(found) = failure else {
            continue;
        };
        let failure_text = if found.is_empty() {
            "returned False".to_string()
        } else {
            found.clone()
        };
        let fill = |template: &str| {
            template
                .replace("{key}", &e.key)
                .replace("{value}", &repr(e.value))
                .replace("{desc}", &r.desc)
                .replace("{failure}", &failure_text)
        };
        let message = match &r.message {
            Some(m) => fill(m),
            None => fill("\"{key}\" requires a valid value: {desc}; {failure}."),
        };
        violations.push(Violation {
            rule_pos: v.pos.clone(),
            description: r.desc.clone(),
            found: if r.message.is_some() {
                message.clone()
            } else {
                found
            },
            rule: r.name.clone(),
            message,
        });
        if r.critical {
            break;
        }
    }
    if violations.is_empty() {
        return Ok(None);
    }
    Ok(Some(Invalidation {
        path: if e.path.is_empty() {
            "(document)".to_string()
        } else {
            e.path.clone()
        },
        value_pos: e.pos.clone(),
        from_default: e.schema_pos.as_ref().is_some_and(|p| *p == e.pos),
        violations,
    }))
}

/// The failure message without starlark-go's `fail: ` / `check: ` prefix.
fn trim(m: &str) -> String {
    let m = m.strip_prefix("fail: ").unwrap_or(m);
    m.strip_prefix("check: ").unwrap_or(m).to_string()
}
