//! The evaluation context of one template run (ytt's `EvaluationCtx`): a stack of open nodes
//! rebuilt from flat `start_node(tag)` calls. Starting a node closes every open node that is
//! not one of its ancestors; a closed node is attached to its parent, so the finished tree keeps
//! the order in which nodes were started.

use std::collections::HashMap;
use std::sync::Arc;

use super::convert::NodeVal;
use crate::template::nodes::{NodeTable, Tag, TplKind, ROOT};
use crate::yaml::{Annotations, Array, ArrayItem, DocSet, Document, Map, MapItem, Value};

/// The template a context builds from: its node table and options.
#[derive(Debug)]
pub struct TemplateRt {
    /// The template's name (the one its evaluation entered, see [`super::progress`]).
    pub file: std::sync::Arc<str>,
    pub nodes: Arc<NodeTable>,
    pub implicit_map_key_overrides: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Yaml,
    Text,
}

/// A node being built.
#[derive(Debug)]
pub enum Open {
    DocSet(DocSet),
    Doc(Document),
    Map(Map),
    MapItem(MapItem),
    Array(Array),
    ArrayItem(ArrayItem),
    TextRoot(String),
    Text(String),
}

/// What a finished context yields.
#[derive(Debug)]
pub enum Built {
    None,
    DocSet(DocSet),
    Map(Map),
    Array(Array),
    Text(String),
}

#[derive(Debug)]
struct OpenNode {
    tag: Tag,
    node: Open,
    /// `template.replace()` was called on this node: these take its place in the parent.
    replacement: Option<Replacement>,
}

#[derive(Debug)]
enum Replacement {
    Docs(Vec<Document>),
    MapItems(Vec<MapItem>),
    ArrayItems(Vec<ArrayItem>),
}

type Res<T> = Result<T, String>;

/// One evaluation context.
#[derive(Debug)]
pub struct Ctx {
    tpl: Arc<TemplateRt>,
    dialect: Dialect,
    stack: Vec<OpenNode>,
    root: Option<Open>,
    root_init: bool,
    pending_anns: HashMap<Tag, Annotations>,
    pending_keys: HashMap<Tag, Value>,
}

impl Ctx {
    pub fn new(tpl: Arc<TemplateRt>, dialect: Dialect) -> Ctx {
        Ctx {
            tpl,
            dialect,
            stack: Vec::new(),
            root: None,
            root_init: false,
            pending_anns: HashMap::new(),
            pending_keys: HashMap::new(),
        }
    }

    /// Whether this context belongs to template `tpl` (ytt keeps one stack per template).
    pub fn of(&self, tpl: &Arc<TemplateRt>) -> bool {
        Arc::ptr_eq(&self.tpl, tpl)
    }

    pub fn set_pending_annotations(&mut self, tag: Tag, anns: Annotations) {
        let slot = self.pending_anns.entry(tag).or_default();
        for a in anns.0 {
            slot.set(a);
        }
    }

    pub fn set_pending_key(&mut self, tag: Tag, key: Value) {
        self.pending_keys.insert(tag, key);
    }

    fn fresh(&mut self, tag: Tag) -> Res<Open> {
        let n = self
            .tpl
            .nodes
            .get(tag)
            .ok_or_else(|| format!("expected to find node tag {tag}"))?;
        let anns = self.pending_anns.remove(&tag).unwrap_or_default();
        let pos = n.pos.clone();
        Ok(match &n.kind {
            TplKind::DocSet => Open::DocSet(DocSet {
                pos,
                anns,
                ..DocSet::default()
            }),
            TplKind::Doc { injected } => {
                let mut d = Document::new(Value::Null, pos);
                d.anns = anns;
                d.injected = *injected;
                Open::Doc(d)
            }
            TplKind::Map => Open::Map(Map {
                pos,
                anns,
                ..Map::default()
            }),
            TplKind::MapItem { key } => {
                let key = self
                    .pending_keys
                    .remove(&tag)
                    .unwrap_or_else(|| key.clone());
                let mut it = MapItem::new(key, Value::Null, pos);
                it.anns = anns;
                Open::MapItem(it)
            }
            TplKind::Array => Open::Array(Array {
                pos,
                anns,
                ..Array::default()
            }),
            TplKind::ArrayItem => {
                let mut it = ArrayItem::new(Value::Null, pos);
                it.anns = anns;
                Open::ArrayItem(it)
            }
            TplKind::TextRoot => Open::TextRoot(String::new()),
            TplKind::Text { .. } => Open::Text(String::new()),
        })
    }

    fn should_wrap(&self, node: &Open) -> bool {
        match self.dialect {
            Dialect::Yaml => matches!(node, Open::Doc(_) | Open::MapItem(_) | Open::ArrayItem(_)),
            Dialect::Text => !matches!(node, Open::TextRoot(_)),
        }
    }

    pub fn start_node(&mut self, tag: Tag) -> Res<()> {
        let node = self.fresh(tag)?;
        if !self.root_init {
            if self.should_wrap(&node) {
                let parent = self.tpl.nodes.parent(tag);
                if parent == ROOT {
                    return Err(format!("expected to find parent of node tag {tag}"));
                }
                self.start_node(parent)?;
            } else {
                self.root_init = true;
            }
        }
        if let Some(top) = self.stack.last() {
            let common = self.tpl.nodes.common_parent(top.tag, tag);
            self.unwind_to(common)?;
            if let (
                Some(OpenNode {
                    node: Open::Map(m), ..
                }),
                Open::MapItem(item),
            ) = (self.stack.last_mut(), &node)
            {
                let earlier = !m.items.is_empty();
                override_key(m, item, earlier, self.tpl.implicit_map_key_overrides, true)?;
            }
        }
        self.stack.push(OpenNode {
            tag,
            node,
            replacement: None,
        });
        Ok(())
    }

    fn unwind_to(&mut self, tag: Tag) -> Res<()> {
        if !self.stack.iter().any(|n| n.tag == tag) {
            return Err(format!("expected to find node tag {tag} when unwinding"));
        }
        while self.stack.last().map(|n| n.tag) != Some(tag) {
            self.close_top()?;
        }
        Ok(())
    }

    /// Pops the top node and attaches it to its parent (or makes it the root).
    fn close_top(&mut self) -> Res<()> {
        let Some(child) = self.stack.pop() else {
            return Ok(());
        };
        let Some(parent) = self.stack.last_mut() else {
            self.root = Some(child.node);
            return Ok(());
        };
        attach(&mut parent.node, child)
    }

    /// `set_node(tag)` without a value: the template's own scalar.
    pub fn set_default(&mut self, tag: Tag) -> Res<()> {
        let v = self
            .tpl
            .nodes
            .get(tag)
            .and_then(|n| n.default_value.clone())
            .unwrap_or(Value::Null);
        self.set_value(NodeVal::Value(v))
    }

    /// `set_node(tag, value)`: sets the value of the current node.
    pub fn set_value(&mut self, v: NodeVal) -> Res<()> {
        let top = self
            .stack
            .last_mut()
            .ok_or_else(|| "expected a node to set a value on".to_string())?;
        let val = match v {
            NodeVal::Noop => return Ok(()),
            NodeVal::DocSet(_) => {
                // ytt's own word order differs for array items.
                let allowed = match top.node {
                    Open::ArrayItem(_) => "maps, arrays, or scalars",
                    _ => "arrays, maps, or scalars",
                };
                return Err(format!(
                    "{} can only contain {allowed}; this is a document set",
                    container_name(&top.node)
                ));
            }
            NodeVal::Value(v) => v,
        };
        match &mut top.node {
            Open::Doc(d) => d.value = val,
            Open::MapItem(i) => i.value = val,
            Open::ArrayItem(i) => i.value = val,
            Open::Text(t) => match val {
                Value::String(s) => *t = s,
                other => {
                    return Err(format!(
                        "cannot set non-string value ({}), consider using str(...) to convert to string",
                        super::fragment::go_type_name(&other)
                    ))
                }
            },
            Open::DocSet(_) => return Err("cannot set value on a document set".into()),
            Open::Map(_) => return Err("cannot set value on a map".into()),
            Open::Array(_) => return Err("cannot set value on an array".into()),
            Open::TextRoot(_) => return Err("cannot set value on a noderoot".into()),
        }
        Ok(())
    }

    /// `template.replace(value)`: the current document, map item or array item is replaced by
    /// the documents, items or array items of `value`.
    pub fn replace(&mut self, v: NodeVal) -> Res<()> {
        if self.dialect == Dialect::Text {
            return Err("unsupported operation".into());
        }
        let n = self.stack.len();
        if n < 2 {
            return Err("expected to replace document value, map item or array item, but was not enough parents".into());
        }
        let (before, last) = self.stack.split_at_mut(n - 1);
        let parent = &mut before[n - 2];
        let cur = &mut last[0];
        let repl = match (&cur.node, v) {
            (_, NodeVal::Noop) => return Ok(()),
            (Open::Doc(_), NodeVal::DocSet(ds)) => Replacement::Docs(ds.items),
            (Open::Doc(_), NodeVal::Value(Value::Array(a))) => Replacement::Docs(
                a.items
                    .into_iter()
                    .map(|i| Document::new(i.value, crate::pos::Pos::unknown()))
                    .collect(),
            ),
            (Open::Doc(_), NodeVal::Value(other)) => {
                return Err(format!(
                    "expected value to be document set, but was {}",
                    other.type_name()
                ))
            }
            (Open::MapItem(cur_item), NodeVal::Value(Value::Map(m))) => {
                let Open::Map(pm) = &mut parent.node else {
                    return Err("expected parent of map item to be a map".into());
                };
                let strict = m.pos.is_known() || m.items.iter().any(|i| i.pos.is_known());
                let mut items = m.items;
                for it in items.iter_mut() {
                    if !it.pos.is_known() {
                        it.pos = cur_item.pos.clone();
                        place_unknown(&mut it.value, &cur_item.pos, 0);
                    }
                    // ytt's map still holds the item being replaced.
                    override_key(pm, it, true, self.tpl.implicit_map_key_overrides, strict)?;
                }
                Replacement::MapItems(items)
            }
            (Open::MapItem(_), NodeVal::Value(other)) => {
                return Err(format!(
                    "expected value to be map, but was {}",
                    other.type_name()
                ))
            }
            (Open::ArrayItem(cur_item), NodeVal::Value(Value::Array(a))) => {
                let mut items = a.items;
                for it in items.iter_mut() {
                    if !it.pos.is_known() {
                        it.pos = cur_item.pos.clone();
                        place_unknown(&mut it.value, &cur_item.pos, 0);
                    }
                }
                Replacement::ArrayItems(items)
            }
            (Open::ArrayItem(_), NodeVal::Value(other)) => {
                return Err(format!(
                    "expected value to be array, but was {}",
                    other.type_name()
                ))
            }
            (_, NodeVal::DocSet(_)) | (_, NodeVal::Value(_)) => {
                return Err("expected to replace document value, map item or array item".into())
            }
        };
        cur.replacement = Some(repl);
        Ok(())
    }

    /// Closes every open node and returns the root.
    pub fn finish(mut self) -> Res<Built> {
        while !self.stack.is_empty() {
            self.close_top()?;
        }
        Ok(match self.root {
            None => Built::None,
            Some(Open::DocSet(d)) => Built::DocSet(d),
            Some(Open::Map(m)) => Built::Map(m),
            Some(Open::Array(a)) => Built::Array(a),
            Some(Open::TextRoot(t)) => Built::Text(t),
            Some(other) => return Err(format!("unexpected root value {other:?}")),
        })
    }
}

fn container_name(n: &Open) -> &'static str {
    match n {
        Open::Doc(_) => "documents",
        Open::MapItem(_) => "map items",
        Open::ArrayItem(_) => "array items",
        _ => "nodes",
    }
}

/// ytt's map key override (`MapItemOverride.Apply`): `item` is about to join `map`, which
/// holds items (`earlier`, as ytt's map counts them) or none. A collection key fails as
/// ytt's Go map fails on it (see [`super::map_key`]); a repeated key replaces the earlier
/// item when overrides are implicit, the item carries `@yaml/map-key-override`, or the check
/// is not strict.
fn override_key(
    map: &mut Map,
    item: &MapItem,
    earlier: bool,
    implicit: bool,
    strict: bool,
) -> Res<()> {
    if let Some(panic) = super::map_key::unhashable(&item.key, earlier) {
        return Err(panic);
    }
    if let Some(idx) = map.items.iter().position(|i| i.key == item.key) {
        if implicit || item.anns.has("yaml/map-key-override") || !strict {
            map.items.remove(idx);
            return Ok(());
        }
        return Err(format!(
            "expected key '{}' to not be specified again (unless 'yaml/map-key-override' annotation is added)",
            crate::yaml::scalar_key_string(&item.key)
        ));
    }
    Ok(())
}

fn attach(parent: &mut Open, child: OpenNode) -> Res<()> {
    if let Some(repl) = child.replacement {
        return match (parent, repl) {
            (Open::DocSet(d), Replacement::Docs(docs)) => {
                d.items.extend(docs);
                Ok(())
            }
            (Open::Map(m), Replacement::MapItems(items)) => {
                m.items.extend(items);
                Ok(())
            }
            (Open::Array(a), Replacement::ArrayItems(items)) => {
                a.items.extend(items);
                Ok(())
            }
            _ => Err("replacement does not fit its parent".into()),
        };
    }
    match (parent, child.node) {
        (Open::DocSet(d), Open::Doc(doc)) => d.items.push(doc),
        (Open::Map(m), Open::MapItem(it)) => m.items.push(it),
        (Open::Array(a), Open::ArrayItem(it)) => a.items.push(it),
        (Open::Doc(d), Open::Map(m)) => d.value = Value::Map(Box::new(m)),
        (Open::Doc(d), Open::Array(a)) => d.value = Value::Array(Box::new(a)),
        (Open::MapItem(i), Open::Map(m)) => i.value = Value::Map(Box::new(m)),
        (Open::MapItem(i), Open::Array(a)) => i.value = Value::Array(Box::new(a)),
        (Open::ArrayItem(i), Open::Map(m)) => i.value = Value::Map(Box::new(m)),
        (Open::ArrayItem(i), Open::Array(a)) => i.value = Value::Array(Box::new(a)),
        (Open::TextRoot(t), Open::Text(s)) => t.push_str(&s),
        (p, c) => {
            return Err(format!(
                "{} can only contain {}; this is a {}",
                open_name(p),
                open_children(p),
                open_name(&c)
            ))
        }
    }
    Ok(())
}

fn open_name(n: &Open) -> &'static str {
    match n {
        Open::DocSet(_) => "document set",
        Open::Doc(_) => "document",
        Open::Map(_) => "map",
        Open::MapItem(_) => "map item",
        Open::Array(_) => "array",
        Open::ArrayItem(_) => "array item",
        Open::TextRoot(_) => "text root",
        Open::Text(_) => "text",
    }
}

fn open_children(n: &Open) -> &'static str {
    match n {
        Open::DocSet(_) => "documents",
        Open::Map(_) => "map items",
        Open::Array(_) => "array items",
        _ => "arrays, maps, or scalars",
    }
}

/// Gives the nodes of a value converted from Starlark (which have no position) the position
/// of the template node that produced them, as ytt does for `template.replace()`; nodes of
/// fragments keep their own.
fn place_unknown(v: &mut Value, pos: &crate::pos::Pos, depth: usize) {
    if depth > 1000 {
        return;
    }
    match v {
        Value::Map(m) if !m.pos.is_known() => {
            m.pos = pos.clone();
            for i in m.items.iter_mut().filter(|i| !i.pos.is_known()) {
                i.pos = pos.clone();
                place_unknown(&mut i.value, pos, depth + 1);
            }
        }
        Value::Array(a) if !a.pos.is_known() => {
            a.pos = pos.clone();
            for i in a.items.iter_mut().filter(|i| !i.pos.is_known()) {
                i.pos = pos.clone();
                place_unknown(&mut i.value, pos, depth + 1);
            }
        }
        _ => {}
    }
}
