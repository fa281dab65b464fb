//! Compiles a parsed YAML template into ytt-dialect Starlark: one line per instruction, each
//! remembering the template line it came from. `#@` lines above a node become code, `#@` at the
//! end of a node's line sets its value, other `#@name` comments become annotations; every node
//! is rebuilt at run time by `start_node(tag)` / `set_node(tag)` calls against the node table.

use std::sync::Arc;

use super::nodes::{NodeTable, Tag, TplKind, TplNode, ROOT};
use super::text::{parse_text, TextNode};
use crate::pos::Pos;
use crate::yaml::{Comment, DocSet, Value};

/// Names of the runtime functions a template calls, unique per template (`__ytt_tpl3_...`).
#[derive(Clone, Debug)]
pub struct Instructions {
    pub prefix: String,
}

impl Instructions {
    pub fn new(id: u32) -> Instructions {
        Instructions {
            prefix: format!("__ytt_tpl{id}_"),
        }
    }

    pub fn name(&self, op: &str) -> String {
        let mut name = String::with_capacity(self.prefix.len() + op.len());
        name.push_str(&self.prefix);
        name.push_str(op);
        name
    }

    /// `prefix` `op` `(args)`, built in place (a template compiles one call per node: the
    /// formatting machinery was a noticeable part of the compile).
    fn call(&self, op: &str, args: &str) -> String {
        let mut call = String::with_capacity(self.prefix.len() + op.len() + args.len() + 2);
        call.push_str(&self.prefix);
        call.push_str(op);
        call.push('(');
        call.push_str(args);
        call.push(')');
        call
    }
}

/// One line of generated code and the template line it stands for.
#[derive(Clone, Debug)]
pub struct CodeLine {
    pub code: String,
    pub src: Option<Pos>,
}

/// A template compiled to ytt-dialect code.
#[derive(Debug)]
pub struct Compiled {
    pub file: Arc<str>,
    pub instructions: Instructions,
    pub code: Vec<CodeLine>,
    pub nodes: NodeTable,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct CompileOpts {
    pub ignore_unknown_comments: bool,
}

/// A compile error: ytt's message and where it points.
#[derive(Clone, Debug)]
pub struct CompileError {
    pub message: String,
    pub pos: Pos,
    /// A plain `#` comment ytt does not accept (the rest are errors of the template's code).
    pub unknown_comment: bool,
}

const NODE_KEYWORDS: [(&str, &str); 5] = [
    ("if/end", "if"),
    ("else/end", "else"),
    ("elif/end", "elif"),
    ("for/end", "for"),
    ("def/end", "def"),
];

/// What a comment means to the template compiler.
enum Meta {
    Comment,
    Code(String),
    Value(String),
    Annotation { name: String, content: String },
}

/// Classifies one comment the way ytt does (`node_line` decides between code and value).
fn classify(c: &Comment, node_line: Option<u32>, opts: CompileOpts) -> Result<Meta, CompileError> {
    let data = c.data.as_str();
    if let Some(rest) = data.strip_prefix('!') {
        let _ = rest;
        return Ok(Meta::Comment);
    }
    if let Some(rest) = data.strip_prefix('@') {
        let (name, content) = match rest.split_once(' ') {
            Some((n, c)) => (n, c.to_string()),
            None => (rest, String::new()),
        };
        return Ok(match name {
            "" => {
                if c.pos.is_known() && node_line == Some(c.pos.line) {
                    Meta::Value(content)
                } else {
                    Meta::Code(content)
                }
            }
            "comment" => Meta::Comment,
            "template/code" => Meta::Code(content),
            "template/value" => Meta::Value(content),
            _ => Meta::Annotation {
                name: name.to_string(),
                content,
            },
        });
    }
    if opts.ignore_unknown_comments {
        return Ok(Meta::Comment);
    }
    Err(CompileError {
        message: format!(
            "Failed to parse line {}: '#{}': Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)",
            c.pos.as_int_string(),
            data
        ),
        pos: c.pos.clone(),
        unknown_comment: true,
    })
}

/// A node being compiled: its kind and what it holds.
struct Source<'a> {
    kind: TplKind,
    pos: Pos,
    comments: &'a [Comment],
    children: Vec<Child<'a>>,
    /// Whether the node carries a YAML value of its own (for the "both values" check).
    has_value: bool,
}

enum Child<'a> {
    Node(Source<'a>),
    Scalar(Value),
}

/// The node of a collection (document set, map or array) with one child per element.
fn collection_source<'a>(
    kind: TplKind,
    pos: &Pos,
    comments: &'a [Comment],
    children: Vec<Child<'a>>,
) -> Source<'a> {
    Source {
        kind,
        pos: pos.clone(),
        comments,
        has_value: !children.is_empty(),
        children,
    }
}

/// The node of one element (document, map item or array item) holding `value`.
fn element_source<'a>(
    kind: TplKind,
    pos: &Pos,
    comments: &'a [Comment],
    value: &'a Value,
) -> Child<'a> {
    let mut children = Vec::new();
    source_of_value(value, &mut children);
    Child::Node(Source {
        kind,
        pos: pos.clone(),
        comments,
        has_value: !matches!(value, Value::Null),
        children,
    })
}

fn source_of_value<'a>(v: &'a Value, out: &mut Vec<Child<'a>>) {
    match v {
        Value::Map(m) => {
            let items = m.items.iter().map(|it| {
                let kind = TplKind::MapItem {
                    key: it.key.clone(),
                };
                element_source(kind, &it.pos, &it.comments, &it.value)
            });
            let map = collection_source(TplKind::Map, &m.pos, &m.comments, items.collect());
            out.push(Child::Node(map));
        }
        Value::Array(a) => {
            let items = a
                .items
                .iter()
                .map(|it| element_source(TplKind::ArrayItem, &it.pos, &it.comments, &it.value));
            let array = collection_source(TplKind::Array, &a.pos, &a.comments, items.collect());
            out.push(Child::Node(array));
        }
        other => out.push(Child::Scalar(other.clone())),
    }
}

fn source_of_docset(ds: &DocSet) -> Source<'_> {
    let docs = ds.items.iter().map(|d| {
        let kind = TplKind::Doc {
            injected: d.injected,
        };
        element_source(kind, &d.pos, &d.comments, &d.value)
    });
    collection_source(TplKind::DocSet, &ds.pos, &ds.comments, docs.collect())
}

struct Compiler<'a> {
    ins: Instructions,
    opts: CompileOpts,
    nodes: NodeTable,
    code: Vec<CodeLine>,
    file: &'a Arc<str>,
    /// The template's text ("" when not known): where text-templated strings' code is.
    source: &'a str,
}

/// Compiles a parsed YAML template. `id` makes the instruction names unique.
pub fn compile_yaml(
    ds: &DocSet,
    file: &Arc<str>,
    id: u32,
    opts: CompileOpts,
) -> Result<Compiled, CompileError> {
    compile_yaml_in(ds, file, id, opts, "")
}

/// [`compile_yaml`] of a template whose text is `source`: the code of its text-templated
/// strings points at the lines that hold it (see [`super::text_lines`]).
pub fn compile_yaml_in(
    ds: &DocSet,
    file: &Arc<str>,
    id: u32,
    opts: CompileOpts,
    source: &str,
) -> Result<Compiled, CompileError> {
    let ins = Instructions::new(id);
    let mut c = Compiler {
        ins: ins.clone(),
        opts,
        nodes: NodeTable::default(),
        code: Vec::new(),
        file,
        source,
    };
    c.emit(ins.call("set_ctx_type", "\"yaml\""), None);
    c.emit(ins.call("start_ctx", "\"yaml\""), None);
    let src = source_of_docset(ds);
    c.build(&src, ROOT, false)?;
    c.emit(ins.call("end_doc", ""), None);
    Ok(Compiled {
        file: file.clone(),
        instructions: ins,
        code: c.code,
        nodes: c.nodes,
    })
}

impl Compiler<'_> {
    fn emit(&mut self, code: String, src: Option<Pos>) {
        self.code.push(CodeLine { code, src });
    }

    fn build(
        &mut self,
        node: &Source<'_>,
        parent: Tag,
        text_strings: bool,
    ) -> Result<(), CompileError> {
        let line = node.pos.is_known().then_some(node.pos.line);
        let mut blocks = Vec::new();
        let mut values = Vec::new();
        let mut anns = Vec::new();
        let mut kept = Vec::new();
        let mut needs_end = 0;
        for c in node.comments {
            match classify(c, line, self.opts)? {
                Meta::Comment => {}
                Meta::Value(v) => {
                    if node.has_value {
                        return Err(CompileError {
                            message: format!(
                                "Expected YAML node at {} to have either computed or YAML value, but found both",
                                c.pos.as_line_string()
                            ),
                            pos: c.pos.clone(),
                            unknown_comment: false,
                        });
                    }
                    values.push((v, c.pos.clone()));
                }
                Meta::Code(mut code) => {
                    if needs_end > 0 {
                        return Err(CompileError {
                            message: format!(
                                "Unexpected code at {} after use of '*/end', expected YAML node",
                                c.pos.as_line_string()
                            ),
                            pos: c.pos.clone(),
                            unknown_comment: false,
                        });
                    }
                    let indent_len = code.len() - code.trim_start().len();
                    for (kw, repl) in NODE_KEYWORDS {
                        if code[indent_len..].starts_with(kw) {
                            needs_end += 1;
                            code.replace_range(indent_len..indent_len + kw.len(), repl);
                        }
                    }
                    blocks.push((code, c.pos.clone()));
                }
                Meta::Annotation { name, content } => {
                    kept.push(c.clone());
                    anns.push((name, content, c.pos.clone()));
                }
            }
        }

        let text_strings = text_strings
            || anns
                .iter()
                .any(|(n, _, _)| n == "yaml/text-templated-strings");
        let default_value = node.children.iter().find_map(|c| match c {
            Child::Scalar(v) => Some(v.clone()),
            Child::Node(_) => None,
        });
        let tag = self.nodes.add(TplNode {
            kind: node.kind.clone(),
            parent,
            pos: node.pos.clone(),
            default_value,
            comments: kept,
        });

        for (code, pos) in blocks {
            self.emit(code, Some(pos));
        }
        for (name, content, pos) in &anns {
            let collected = self.ins.call("collect_node_annotation", content);
            let call = self.ins.call(
                "start_node_annotation",
                &format!("{tag}, \"{name}\", {collected}"),
            );
            self.emit(call, Some(pos.clone()));
        }
        if let TplKind::MapItem {
            key: Value::String(k),
        } = &node.kind
        {
            if text_strings {
                self.build_string(k, &node.pos, tag, "set_map_item_key")?;
            }
        }
        self.emit(
            self.ins.call("start_node", &tag.to_string()),
            Some(node.pos.clone()),
        );

        if !values.is_empty() {
            for (v, pos) in values {
                let call = self.ins.call("set_node", &format!("{tag}, ({v})"));
                self.emit(call, Some(pos));
            }
        } else {
            for child in &node.children {
                match child {
                    Child::Node(n) => self.build(n, tag, text_strings)?,
                    Child::Scalar(Value::String(s)) if text_strings => {
                        self.build_string(s, &node.pos, tag, "set_node")?;
                    }
                    Child::Scalar(_) => {
                        let call = self.ins.call("set_node", &tag.to_string());
                        self.emit(call, Some(node.pos.clone()));
                    }
                }
            }
        }
        if needs_end > 0 {
            self.emit("end".to_string(), None);
        }
        Ok(())
    }

    /// Compiles a string with `(@ @)` templating into inline text-template code whose result is
    /// handed to `op` (`set_node` or `set_map_item_key`) for `tag`.
    fn build_string(&mut self, s: &str, pos: &Pos, tag: Tag, op: &str) -> Result<(), CompileError> {
        let pieces = parse_text(s).map_err(|e| CompileError {
            message: e.message.clone(),
            pos: pos.clone(),
            unknown_comment: false,
        })?;
        let lines = super::text_lines::piece_lines(
            self.source,
            pos.offset as usize,
            pos.line,
            s.len(),
            &pieces,
        );
        let line_of = |piece: usize, rel: u32| -> Pos {
            let mut p = pos.clone();
            if p.is_known() {
                match lines.get(piece).copied().flatten() {
                    Some(line) => p.line = line,
                    None => p.line += rel.saturating_sub(1),
                }
            }
            p
        };
        self.emit(self.ins.call("set_ctx_type", "\"text\""), None);
        self.emit(self.ins.call("start_ctx", "\"text\""), None);
        let root = self.nodes.add(TplNode {
            kind: TplKind::TextRoot,
            parent: ROOT,
            pos: pos.clone(),
            default_value: None,
            comments: Vec::new(),
        });
        self.emit(
            self.ins.call("start_node", &root.to_string()),
            Some(pos.clone()),
        );
        emit_text_pieces(self, &pieces, root, &line_of);
        let end = self.ins.call("end_ctx", "");
        let call = self.ins.call(op, &format!("{tag}, ({end})"));
        self.emit(call, Some(pos.clone()));
        self.emit(self.ins.call("set_ctx_type", "\"yaml\""), None);
        Ok(())
    }
}

/// Emits the code for parsed text-template pieces under the text root `root`.
fn emit_text_pieces(
    c: &mut Compiler<'_>,
    pieces: &[TextNode],
    root: Tag,
    line_of: &dyn Fn(usize, u32) -> Pos,
) {
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            TextNode::Text { text, line, .. } => {
                let pos = line_of(i, *line);
                let tag = c.nodes.add(TplNode {
                    kind: TplKind::Text {
                        content: text.clone(),
                    },
                    parent: root,
                    pos: pos.clone(),
                    default_value: Some(Value::String(text.clone())),
                    comments: Vec::new(),
                });
                c.emit(
                    c.ins.call("start_node", &tag.to_string()),
                    Some(pos.clone()),
                );
                c.emit(c.ins.call("set_node", &tag.to_string()), Some(pos));
            }
            TextNode::Code {
                code, print, line, ..
            } => {
                let pos = line_of(i, *line);
                if *print {
                    let tag = c.nodes.add(TplNode {
                        kind: TplKind::Text {
                            content: String::new(),
                        },
                        parent: root,
                        pos: pos.clone(),
                        default_value: None,
                        comments: Vec::new(),
                    });
                    c.emit(
                        c.ins.call("start_node", &tag.to_string()),
                        Some(pos.clone()),
                    );
                    let call = c.ins.call("set_node", &format!("{tag}, ({code})"));
                    c.emit(call, Some(pos));
                } else {
                    for (i, l) in code.split('\n').enumerate() {
                        let mut p = pos.clone();
                        if p.is_known() {
                            p.line += i as u32;
                        }
                        c.emit(l.to_string(), Some(p));
                    }
                }
            }
        }
    }
}

/// Compiles a text template (`.txt` file) into code that evaluates to its text.
pub fn compile_text(src: &str, file: &Arc<str>, id: u32) -> Result<Compiled, CompileError> {
    let ins = Instructions::new(id);
    let pieces = parse_text(src).map_err(|e| CompileError {
        message: e.message.clone(),
        pos: Pos::new(file, e.line.max(1), e.col, 0),
        unknown_comment: false,
    })?;
    let mut c = Compiler {
        ins: ins.clone(),
        opts: CompileOpts::default(),
        nodes: NodeTable::default(),
        code: Vec::new(),
        file,
        source: "",
    };
    let top = Pos::new(file, 1, 1, 0);
    c.emit(ins.call("set_ctx_type", "\"text\""), None);
    c.emit(ins.call("start_ctx", "\"text\""), None);
    let root = c.nodes.add(TplNode {
        kind: TplKind::TextRoot,
        parent: ROOT,
        pos: top.clone(),
        default_value: None,
        comments: Vec::new(),
    });
    c.emit(ins.call("start_node", &root.to_string()), Some(top));
    let file_for = c.file.clone();
    emit_text_pieces(&mut c, &pieces, root, &|_, line| {
        Pos::new(&file_for, line, 1, 0)
    });
    c.emit(ins.call("end_doc", ""), None);
    Ok(Compiled {
        file: file.clone(),
        instructions: ins,
        code: c.code,
        nodes: c.nodes,
    })
}
