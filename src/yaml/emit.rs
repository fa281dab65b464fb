//! YAML output exactly as ytt prints it: each document is marshalled on its own by ytt's fork
//! of go-yaml v2 (2-space indentation, sequences flush with their parent key, `{}`/`[]` for
//! empty collections, no line folding) and documents are joined with `---` lines.
//!
//! The emitter keeps the same layout state as libyaml (current column, indentation stack,
//! whether the last thing written was whitespace or indentation), because that state alone
//! decides where line breaks and separating spaces go. Scalar styles live in `emit_scalar`.

use super::emit_scalar::{scalar_text, ScalarAnalysis};
use super::node::{Array, DocSet, Document, Map, Value};

/// The whole standard output of `ytt` for an evaluated document set (`-o yaml`, the default).
///
/// Documents that were injected by the parser, or whose value is null, an empty map or an
/// empty array, are left out. The remaining documents are separated by `---` lines; an empty
/// result prints nothing at all.
pub fn docset_to_yaml(ds: &DocSet) -> String {
    documents_to_yaml(&ds.items)
}

/// [`docset_to_yaml`] of some documents.
pub fn documents_to_yaml(docs: &[Document]) -> String {
    let mut out = String::new();
    for (i, doc) in printed_documents(docs).enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(&value_to_yaml(&doc.value));
    }
    out
}

/// The documents ytt prints: not injected and not empty (null, `{}` or `[]`).
pub fn printed_documents(docs: &[Document]) -> impl Iterator<Item = &Document> {
    docs.iter()
        .filter(|d| !d.injected && !is_empty_document_value(&d.value))
}

/// ytt skips a document whose value is null or an empty map or array.
pub fn is_empty_document_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Map(m) => m.items.is_empty(),
        Value::Array(a) => a.items.is_empty(),
        _ => false,
    }
}

/// go-yaml's `Marshal` of a single value: always ends with a newline (`null\n`, `{}\n`, ...).
///
/// `yaml.encode()` in templates prints through a document set, so it yields `""` for `None`
/// and for an empty YAML fragment (use [`docset_to_yaml`] for those), while a Starlark `{}` or
/// `[]` is printed by this function as `{}\n` / `[]\n`.
pub fn value_to_yaml(v: &Value) -> String {
    let mut e = Emitter::new();
    e.node(v, Ctx::default());
    // Document end: finish the last line.
    e.write_indent();
    e.out
}

/// Where a node sits, as far as layout decisions are concerned.
#[derive(Clone, Copy, Default)]
pub(super) struct Ctx {
    /// The node is a mapping key or value.
    pub(super) mapping: bool,
    /// The node is a key written without the `? ` indicator.
    pub(super) simple_key: bool,
}

/// Layout state of the emitter.
pub(super) struct Emitter {
    pub(super) out: String,
    /// Characters written on the current line.
    pub(super) column: usize,
    /// Current indentation; -1 before the root node.
    pub(super) indent: i32,
    indents: Vec<i32>,
    /// The last character written was whitespace (no separating space needed).
    pub(super) whitespace: bool,
    /// Only indentation has been written on the current line so far.
    pub(super) indention: bool,
    pub(super) flow_level: usize,
}

impl Emitter {
    pub(super) fn new() -> Emitter {
        Emitter {
            out: String::new(),
            column: 0,
            indent: -1,
            indents: Vec::new(),
            whitespace: true,
            indention: true,
            flow_level: 0,
        }
    }

    pub(super) fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    pub(super) fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// Writes a line break found inside a scalar: `\n` as the output line break, any other
    /// break character (LS, PS) as itself.
    pub(super) fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    pub(super) fn push_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { 2 } else { 0 };
        } else if !indentless {
            self.indent += 2;
        }
    }

    pub(super) fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    /// Starts a new line (unless already at a fresh one) and pads it to the indentation.
    pub(super) fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    pub(super) fn write_indicator(
        &mut self,
        text: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in text.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    pub(super) fn node(&mut self, v: &Value, ctx: Ctx) {
        match v {
            Value::Map(m) if m.items.is_empty() => self.empty_flow("{", "}"),
            Value::Array(a) if a.items.is_empty() => self.empty_flow("[", "]"),
            Value::Map(m) => self.block_mapping(m),
            Value::Array(a) => self.block_sequence(a, ctx),
            scalar => {
                let (text, requested) = scalar_text(scalar);
                self.scalar(&text, requested, ctx);
            }
        }
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.push_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    fn block_sequence(&mut self, a: &Array, ctx: Ctx) {
        // A sequence that is a mapping value starts on the key's column (`key:\n- a`).
        let indentless = ctx.mapping && !self.indention;
        self.push_indent(false, indentless);
        for item in &a.items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(&item.value, Ctx::default());
        }
        self.pop_indent();
    }

    fn block_mapping(&mut self, m: &Map) {
        self.push_indent(false, false);
        for item in &m.items {
            self.write_indent();
            if is_simple_key(&item.key) {
                let key_ctx = Ctx {
                    mapping: true,
                    simple_key: true,
                };
                self.node(&item.key, key_ctx);
                self.write_indicator(":", false, false, false);
            } else {
                // Long or multi-line keys and non-empty collections use `? key` / `: value`.
                self.write_indicator("?", true, false, true);
                self.node(&item.key, mapping_ctx());
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(&item.value, mapping_ctx());
        }
        self.pop_indent();
    }
}

fn mapping_ctx() -> Ctx {
    Ctx {
        mapping: true,
        simple_key: false,
    }
}

/// A key can be written as `key: value` when it is a one-line scalar of at most 128 bytes or an
/// empty collection.
fn is_simple_key(key: &Value) -> bool {
    match key {
        Value::Map(m) => m.items.is_empty(),
        Value::Array(a) => a.items.is_empty(),
        scalar => {
            let (text, _) = scalar_text(scalar);
            !ScalarAnalysis::of(&text).multiline && text.len() <= 128
        }
    }
}

#[cfg(test)]
#[path = "emit_tests.rs"]
mod tests;
