//! `ytt -o pos`: every printed document as an outline of keys and array indexes, each line
//! prefixed by the source position of the node it shows (`  stdin.yml:6 |   clients:`).
//!
//! The position column is right-aligned; it widens (to the position's length plus 10) the first
//! time a longer position appears and then stays that wide for the rest of the output.

use super::emit::{printed_documents, value_to_yaml};
use super::go_float::format_float_g;
use super::node::{DocSet, Value};
use crate::pos::Pos;

/// The whole standard output of `ytt -o pos` for an evaluated document set.
pub fn docset_to_pos(ds: &DocSet) -> String {
    let mut p = PosPrinter {
        out: String::new(),
        width: 0,
    };
    for doc in printed_documents(&ds.items) {
        let prefix = p.position(&doc.pos);
        p.out.push_str(&format!("{prefix}[doc]\n"));
        p.node(&doc.value, "  ");
    }
    p.out
}

struct PosPrinter {
    out: String,
    width: usize,
}

/// A scalar as `yaml.Marshal` prints it, without the final newline; `None` for collections.
fn leaf_text(v: &Value) -> Option<String> {
    match v {
        Value::Map(_) | Value::Array(_) => None,
        _ => {
            let text = value_to_yaml(v);
            Some(text.strip_suffix('\n').unwrap_or(&text).to_string())
        }
    }
}

/// A map key as Go's `%s` prints it (non-strings get Go's bad-verb notation).
pub fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Null => "%!s(<nil>)".to_string(),
        Value::Bool(b) => format!("%!s(bool={b})"),
        Value::Int(i) => format!("%!s(int={i})"),
        Value::Uint(u) => format!("%!s(uint64={u})"),
        Value::Float(f) => {
            let text = match format_float_g(*f).as_str() {
                ".inf" => "+Inf".to_string(),
                "-.inf" => "-Inf".to_string(),
                ".nan" => "NaN".to_string(),
                other => other.to_string(),
            };
            format!("%!s(float64={text})")
        }
        Value::Map(_) | Value::Array(_) => "%!s(PANIC=String method: unsupported)".to_string(),
    }
}

impl PosPrinter {
    fn pad(&mut self, text: &str) -> String {
        if text.len() > self.width {
            self.width = text.len() + 10;
        }
        let fill = self.width.saturating_sub(text.chars().count());
        format!("{}{text} | ", " ".repeat(fill))
    }

    /// The position column for a node: empty when the position is unknown.
    fn position(&mut self, pos: &Pos) -> String {
        if !pos.is_known() {
            return String::new();
        }
        let text = match &pos.file {
            Some(f) if !f.is_empty() => format!("{f}:{}", pos.line),
            _ => pos.line.to_string(),
        };
        self.pad(&text)
    }

    fn node(&mut self, v: &Value, indent: &str) {
        let deeper = format!("{indent}  ");
        match v {
            Value::Map(m) => {
                for item in &m.items {
                    let prefix = self.position(&item.pos);
                    let key = key_text(&item.key);
                    match leaf_text(&item.value) {
                        Some(text) if !text.contains('\n') => {
                            self.out
                                .push_str(&format!("{prefix}{indent}{key}: {text}\n"));
                        }
                        _ => {
                            self.out.push_str(&format!("{prefix}{indent}{key}:\n"));
                            self.node(&item.value, &deeper);
                        }
                    }
                }
            }
            Value::Array(a) => {
                for (n, item) in a.items.iter().enumerate() {
                    let prefix = self.position(&item.pos);
                    match leaf_text(&item.value) {
                        Some(text) if !text.contains('\n') => {
                            self.out
                                .push_str(&format!("{prefix}{indent}[{n}] {text}\n"));
                        }
                        _ => {
                            self.out.push_str(&format!("{prefix}{indent}[{n}]\n"));
                            self.node(&item.value, &deeper);
                        }
                    }
                }
            }
            scalar => {
                let text = leaf_text(scalar).unwrap_or_default();
                let line = format!("{}{indent}{text}\n", self.pad(""));
                // ytt passes this line to Printf as the format string itself.
                self.out.push_str(&go_printf_without_args(&line));
            }
        }
    }
}

/// What Go's `Printf(s)` prints when `s` has no arguments: `%%` is `%`, any other verb is
/// reported as missing (`%!d(MISSING)`), a trailing `%` as `%!(NOVERB)`.
fn go_printf_without_args(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        while let Some(&f) = chars.peek() {
            if "+-# 0123456789.".contains(f) {
                chars.next();
            } else {
                break;
            }
        }
        match chars.next() {
            None => out.push_str("%!(NOVERB)"),
            Some('%') => out.push('%'),
            Some(verb) => out.push_str(&format!("%!{verb}(MISSING)")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::docset_to_pos;
    use crate::pos::Pos;
    use crate::yaml::emit_testutil::{arr, b, docset, map, s};
    use crate::yaml::node::Value;
    use std::sync::Arc;

    fn at(line: u32) -> Pos {
        let file: Arc<str> = Arc::from("stdin.yml");
        Pos::new(&file, line, 1, 0)
    }

    fn set_pos(v: &mut Value, lines: &[u32]) {
        match v {
            Value::Map(m) => m
                .items
                .iter_mut()
                .zip(lines)
                .for_each(|(i, l)| i.pos = at(*l)),
            Value::Array(a) => a
                .items
                .iter_mut()
                .zip(lines)
                .for_each(|(i, l)| i.pos = at(*l)),
            _ => {}
        }
    }

    #[test]
    fn outline_from_array_output_position_case() {
        // From filetests-yamltemplate/ytt-library__overlay__array-output-position.
        let mut item = map(vec![("needsSecret", b(false))]);
        set_pos(&mut item, &[14]);
        let mut clients = arr(vec![item]);
        set_pos(&mut clients, &[7]);
        let mut root = map(vec![("clients", clients)]);
        set_pos(&mut root, &[6]);
        let mut clients3 = arr(vec![s("something")]);
        set_pos(&mut clients3, &[43]);
        let mut root3 = map(vec![("clients", clients3)]);
        set_pos(&mut root3, &[31]);
        let mut ds = docset(vec![s("test1"), root, root3, s("a\nb"), s("50%")]);
        for (doc, line) in ds.items.iter_mut().zip([45, 5, 30, 50, 51]) {
            doc.pos = at(line);
        }
        let want = "          stdin.yml:45 | [doc]\n                       |   test1\n           stdin.yml:5 | [doc]\n           stdin.yml:6 |   clients:\n           stdin.yml:7 |     [0]\n          stdin.yml:14 |       needsSecret: false\n          stdin.yml:30 | [doc]\n          stdin.yml:31 |   clients:\n          stdin.yml:43 |     [0] something\n          stdin.yml:50 | [doc]\n                       |   |-\n  a\n  b\n          stdin.yml:51 | [doc]\n                       |   50%!\n(MISSING)";
        assert_eq!(docset_to_pos(&ds), want);
    }
}
