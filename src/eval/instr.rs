//! The instruction functions a compiled template calls (`__ytt_tplN_start_node` and friends).
//! Each is a callable value bound to its template's node table; it acts on the evaluation
//! contexts of the module being evaluated that belong to its template. ytt keeps a stack of
//! contexts per template: a function of a loaded file that returns before its first YAML node
//! (`if not x: return []`, which ytt leaves without `end_ctx`) leaves a context open on its own
//! file's stack, and the template that called it goes on with its own.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_simple_value;
use starlark::values::tuple::{AllocTuple, TupleRef};
use starlark::values::{starlark_value, NoSerialize, ProvidesStaticType, StarlarkValue, Value};

use super::build::{Built, Ctx, Dialect, TemplateRt};
use super::convert::{starlark_to_node, starlark_to_value, NodeVal};
use super::fragment::{anyhow_msg, FragData, Fragment};
use super::state::{current, TplState};
use crate::template::nodes::Tag;
use crate::yaml::{Annotation, Annotations};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Allocative)]
pub enum Op {
    SetCtxType,
    StartCtx,
    EndCtx,
    EndDoc,
    StartNodeAnnotation,
    CollectNodeAnnotation,
    StartNode,
    SetNode,
    SetMapItemKey,
}

impl Op {
    pub const ALL: [(Op, &'static str); 9] = [
        (Op::SetCtxType, "set_ctx_type"),
        (Op::StartCtx, "start_ctx"),
        (Op::EndCtx, "end_ctx"),
        (Op::EndDoc, "end_doc"),
        (Op::StartNodeAnnotation, "start_node_annotation"),
        (Op::CollectNodeAnnotation, "collect_node_annotation"),
        (Op::StartNode, "start_node"),
        (Op::SetNode, "set_node"),
        (Op::SetMapItemKey, "set_map_item_key"),
    ];
}

#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative)]
pub struct TplInstr {
    #[allocative(skip)]
    pub tpl: Arc<TemplateRt>,
    pub op: Op,
    pub name: String,
}

starlark_simple_value!(TplInstr);

impl fmt::Display for TplInstr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in function {}>", self.name)
    }
}

/// An error of instruction `name`. A Go panic ytt recovered (`(p) ...`) is shown as it is.
fn fail(name: &str, msg: impl fmt::Display) -> starlark::Error {
    let msg = msg.to_string();
    if panicked(&msg) {
        return starlark::Error::new_other(anyhow_msg(msg));
    }
    starlark::Error::new_other(anyhow_msg(format!("{name}: {msg}")))
}

/// Whether `msg` stands for a Go panic ytt's `ErrWrapper` recovered: a value that is no error
/// (`(p) …`) or an error with the backtrace appended. Such a message never gets the
/// function's name in front, as an error returned does.
fn panicked(msg: &str) -> bool {
    msg.starts_with("(p) ")
        || msg
            .lines()
            .next()
            .is_some_and(|l| l.ends_with(" (backtrace: goroutine 1 [running]:"))
}

fn tag_of(v: Value<'_>, name: &str) -> starlark::Result<Tag> {
    v.unpack_i32()
        .and_then(|i| u32::try_from(i).ok())
        .ok_or_else(|| fail(name, "expected starlark.Int"))
}

/// Wraps what a finished context built as the Starlark value a template function returns.
pub fn built_to_value<'v>(b: Built, eval: &mut Evaluator<'v, '_, '_>) -> Value<'v> {
    let heap = eval.heap();
    match b {
        Built::None => heap.alloc(Fragment::new(FragData::Null)),
        Built::DocSet(d) => heap.alloc(Fragment::new(FragData::DocSet(d))),
        Built::Map(m) => heap.alloc(Fragment::new(FragData::Map(m))),
        Built::Array(a) => heap.alloc(Fragment::new(FragData::Array(a))),
        Built::Text(t) => heap.alloc_str(&t).to_value(),
    }
}

impl TplInstr {
    fn with_ctx<'v, R>(
        &self,
        state: &TplState<'v>,
        f: impl FnOnce(&mut Ctx) -> Result<R, String>,
    ) -> starlark::Result<R> {
        let mut ctxs = state.ctxs.borrow_mut();
        let ctx = ctxs
            .iter_mut()
            .rev()
            .find(|c| c.of(&self.tpl))
            .ok_or_else(|| fail(&self.name, "no template context is active"))?;
        f(ctx).map_err(|m| fail(&self.name, m))
    }

    /// Takes this template's innermost context off the stack.
    fn pop_ctx(&self, state: &TplState<'_>) -> starlark::Result<Ctx> {
        let mut ctxs = state.ctxs.borrow_mut();
        let at = ctxs
            .iter()
            .rposition(|c| c.of(&self.tpl))
            .ok_or_else(|| fail(&self.name, "unexpected ctx end"))?;
        Ok(ctxs.remove(at))
    }

    fn end_ctx<'v>(
        &self,
        state: &TplState<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let positional: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let ctx = self.pop_ctx(state)?;
        let built = ctx.finish().map_err(|m| fail(&self.name, m))?;
        match positional.first() {
            Some(v) => Ok(*v),
            None => Ok(built_to_value(built, eval)),
        }
    }

    fn start_annotation<'v>(
        &self,
        state: &TplState<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<()> {
        let [tag, name, collected] = args.positional(eval.heap())?;
        let tag = tag_of(tag, &self.name)?;
        let name = name.unpack_str().unwrap_or_default().to_string();
        let collected = TupleRef::from_value(collected)
            .ok_or_else(|| fail(&self.name, "expected collected annotation values"))?;
        let mut parts = collected.iter();
        let mut ann = Annotation {
            name: name.clone(),
            args: Vec::new(),
            kwargs: Vec::new(),
            pos: self
                .tpl
                .nodes
                .get(tag)
                .and_then(|n| {
                    n.comments.iter().find(|c| {
                        c.data
                            .strip_prefix('@')
                            .map(|d| d.split(' ').next() == Some(name.as_str()))
                            .unwrap_or(false)
                    })
                })
                .map(|c| c.pos.clone())
                .unwrap_or_default(),
        };
        if let Some(pos_args) = parts.next().and_then(TupleRef::from_value) {
            ann.args = pos_args.iter().map(|v| state.ann_value(v)).collect();
        }
        for kv in parts {
            if let Some(kv) = TupleRef::from_value(kv) {
                let content = kv.content();
                if let [k, v] = content {
                    let key = k.unpack_str().unwrap_or_default().to_string();
                    ann.kwargs.push((key, state.ann_value(*v)));
                }
            }
        }
        self.with_ctx(state, |ctx| {
            ctx.set_pending_annotations(tag, Annotations(vec![ann]));
            Ok(())
        })
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for TplInstr {
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let state = current(eval).ok_or_else(|| fail(&self.name, "no template state"))?;
        let none = Value::new_none();
        match self.op {
            Op::SetCtxType => Ok(none),
            Op::StartCtx => {
                let [kind] = args.positional(eval.heap())?;
                let dialect = match kind.unpack_str() {
                    Some("text") => Dialect::Text,
                    _ => Dialect::Yaml,
                };
                state
                    .ctxs
                    .borrow_mut()
                    .push(Ctx::new(self.tpl.clone(), dialect));
                Ok(none)
            }
            Op::EndCtx => self.end_ctx(state, args, eval),
            Op::EndDoc => {
                // The template's result is its first context (ytt's root context), whatever
                // a function that returned early left above it.
                let ctx = {
                    let mut ctxs = state.ctxs.borrow_mut();
                    let at = ctxs
                        .iter()
                        .position(|c| c.of(&self.tpl))
                        .ok_or_else(|| fail(&self.name, "unexpected ctx end"))?;
                    let root = ctxs.remove(at);
                    ctxs.retain(|c| !c.of(&self.tpl));
                    root
                };
                let built = ctx.finish().map_err(|m| fail(&self.name, m))?;
                *state.result.borrow_mut() = Some(built);
                Ok(none)
            }
            Op::CollectNodeAnnotation => {
                let heap = eval.heap();
                let positional: Vec<Value<'v>> = args.positions(heap)?.collect();
                let mut parts = vec![heap.alloc(AllocTuple(positional))];
                for (k, v) in args.names_map()? {
                    parts.push(heap.alloc((k.to_value(), v)));
                }
                Ok(heap.alloc(AllocTuple(parts)))
            }
            Op::StartNodeAnnotation => {
                self.start_annotation(state, args, eval)?;
                Ok(none)
            }
            Op::StartNode => {
                let [tag] = args.positional(eval.heap())?;
                let tag = tag_of(tag, &self.name)?;
                if let Some(node) = self.tpl.nodes.get(tag) {
                    super::progress::at(&self.tpl.file, node.pos.line);
                }
                self.with_ctx(state, |ctx| ctx.start_node(tag))?;
                Ok(none)
            }
            Op::SetNode => {
                let positional: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
                match positional.as_slice() {
                    [tag] => {
                        let tag = tag_of(*tag, &self.name)?;
                        self.with_ctx(state, |ctx| ctx.set_default(tag))?;
                    }
                    [_, v] => {
                        let val = starlark_to_node(*v).map_err(|e| fail(&self.name, e))?;
                        self.with_ctx(state, |ctx| ctx.set_value(val))?;
                    }
                    _ => return Err(fail(&self.name, "expected one or two arguments")),
                }
                Ok(none)
            }
            Op::SetMapItemKey => {
                let [tag, v] = args.positional(eval.heap())?;
                let tag = tag_of(tag, &self.name)?;
                let key = starlark_to_value(v).map_err(|e| fail(&self.name, e))?;
                self.with_ctx(state, |ctx| {
                    ctx.set_pending_key(tag, key);
                    Ok(())
                })?;
                Ok(none)
            }
        }
    }
}

/// `template.replace(value)` on the current context of the module being evaluated.
pub fn replace_current<'v>(v: Value<'v>, eval: &Evaluator<'v, '_, '_>) -> starlark::Result<()> {
    let state = current(eval).ok_or_else(|| fail("replace", "no template state"))?;
    let val: NodeVal = starlark_to_node(v)?;
    let mut ctxs = state.ctxs.borrow_mut();
    let ctx = ctxs
        .last_mut()
        .ok_or_else(|| fail("replace", "no template context is active"))?;
    ctx.replace(val).map_err(|m| {
        let m = if panicked(&m) {
            m
        } else {
            format!("template.replace: {m}")
        };
        starlark::Error::new_other(anyhow_msg(m))
    })
}
