//! Scalars in YAML output: how each value becomes text, which style go-yaml v2 picks for it
//! (plain, single-quoted, double-quoted or literal block) and how each style is written.
//!
//! Strings with a line feed ask for a literal block, strings that read back as themselves ask
//! for plain style, all other strings ask for double quotes; the emitter then downgrades the
//! request according to what the text's characters allow (plain -> single -> double quotes,
//! literal -> double quotes). Lines are never folded: ytt's emitter has no width limit.

use super::emit::{Ctx, Emitter};
use super::emit_resolve::plain_reads_back_as_str;
use super::go_float::format_float_g;
use super::node::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// The text of a scalar value and the style its encoder asks for.
pub(super) fn scalar_text(v: &Value) -> (String, Style) {
    match v {
        Value::Null => ("null".to_string(), Style::Plain),
        Value::Bool(b) => (b.to_string(), Style::Plain),
        Value::Int(i) => (i.to_string(), Style::Plain),
        Value::Uint(u) => (u.to_string(), Style::Plain),
        Value::Float(f) => (format_float_g(*f), Style::Plain),
        Value::String(s) => {
            let style = if s.contains('\n') {
                Style::Literal
            } else if plain_reads_back_as_str(s) {
                Style::Plain
            } else {
                Style::DoubleQuoted
            };
            (s.clone(), style)
        }
        // Collections never reach here; print something harmless rather than panic.
        Value::Map(_) => ("{}".to_string(), Style::Plain),
        Value::Array(_) => ("[]".to_string(), Style::Plain),
    }
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Characters libyaml may write unescaped (tab, DEL, C1 controls, BOM, non-characters and
/// everything outside the Basic Multilingual Plane are not).
fn is_printable(c: char) -> bool {
    let u = u32::from(c);
    c == '\n'
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

/// What the characters of a scalar allow.
pub(super) struct ScalarAnalysis {
    pub(super) multiline: bool,
    flow_plain: bool,
    block_plain: bool,
    single_quoted: bool,
    block: bool,
}

impl ScalarAnalysis {
    pub(super) fn of(text: &str) -> ScalarAnalysis {
        if text.is_empty() {
            return ScalarAnalysis {
                multiline: false,
                flow_plain: false,
                block_plain: true,
                single_quoted: true,
                block: false,
            };
        }
        let chars: Vec<char> = text.chars().collect();
        let mut block_ind = text.starts_with("---") || text.starts_with("...");
        let mut flow_ind = block_ind;
        let (mut line_breaks, mut special) = (false, false);
        let (mut leading_space, mut leading_break) = (false, false);
        let (mut trailing_space, mut trailing_break) = (false, false);
        let (mut break_space, mut space_break) = (false, false);
        let (mut prev_space, mut prev_break) = (false, false);
        let mut preceded_by_ws = true;
        let last = chars.len() - 1;
        for (i, &c) in chars.iter().enumerate() {
            let followed_by_ws = chars.get(i + 1).is_none_or(|n| is_blank(*n));
            if i == 0 {
                match c {
                    '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\''
                    | '"' | '%' | '@' | '`' => {
                        flow_ind = true;
                        block_ind = true;
                    }
                    '?' | ':' => {
                        flow_ind = true;
                        block_ind |= followed_by_ws;
                    }
                    '-' if followed_by_ws => {
                        flow_ind = true;
                        block_ind = true;
                    }
                    _ => {}
                }
            } else {
                match c {
                    ',' | '?' | '[' | ']' | '{' | '}' => flow_ind = true,
                    ':' => {
                        flow_ind = true;
                        block_ind |= followed_by_ws;
                    }
                    '#' if preceded_by_ws => {
                        flow_ind = true;
                        block_ind = true;
                    }
                    _ => {}
                }
            }
            special |= !is_printable(c);
            if c == ' ' {
                leading_space |= i == 0;
                trailing_space |= i == last;
                break_space |= prev_break;
                prev_space = true;
                prev_break = false;
            } else if is_break(c) {
                line_breaks = true;
                leading_break |= i == 0;
                trailing_break |= i == last;
                space_break |= prev_space;
                prev_space = false;
                prev_break = true;
            } else {
                prev_space = false;
                prev_break = false;
            }
            preceded_by_ws = is_blank(c) || is_break(c) || c == '\0';
        }
        let edge = leading_space || leading_break || trailing_space || trailing_break;
        let no_plain = edge || break_space || space_break || special || line_breaks;
        ScalarAnalysis {
            multiline: line_breaks,
            flow_plain: !(no_plain || flow_ind),
            block_plain: !(no_plain || block_ind),
            single_quoted: !(break_space || space_break || special),
            block: !(trailing_space || space_break || special),
        }
    }
}

impl Emitter {
    pub(super) fn scalar(&mut self, text: &str, requested: Style, ctx: Ctx) {
        let a = ScalarAnalysis::of(text);
        let flow = self.flow_level > 0;
        let mut style = requested;
        if ctx.simple_key && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain {
            let allowed = if flow { a.flow_plain } else { a.block_plain };
            if !allowed || (text.is_empty() && (flow || ctx.simple_key)) {
                style = Style::SingleQuoted;
            }
        }
        if style == Style::SingleQuoted && !a.single_quoted {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!a.block || flow || ctx.simple_key) {
            style = Style::DoubleQuoted;
        }
        self.push_indent(true, false);
        match style {
            Style::Plain => self.write_plain(text),
            Style::SingleQuoted => self.write_single_quoted(text),
            Style::DoubleQuoted => self.write_double_quoted(text),
            Style::Literal => self.write_literal(text),
        }
        self.pop_indent();
    }

    fn write_plain(&mut self, text: &str) {
        if !self.whitespace {
            self.put(' ');
        }
        // Plain style is never chosen for text with line breaks, so characters go out as is.
        for c in text.chars() {
            self.put(c);
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, text: &str) {
        self.write_indicator("'", true, false, false);
        let mut in_breaks = false;
        for c in text.chars() {
            if c == ' ' {
                self.put(c);
            } else if is_break(c) {
                if !in_breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                in_breaks = true;
            } else {
                if in_breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                in_breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_quoted(&mut self, text: &str) {
        self.write_indicator("\"", true, false, false);
        // libyaml checks for a byte order mark at the start of the whole value (not at each
        // character), so such a value has every character escaped.
        let starts_with_bom = text.starts_with('\u{feff}');
        for c in text.chars() {
            if starts_with_bom || !is_printable(c) || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                for e in escape(c).chars() {
                    self.put(e);
                }
            } else {
                self.put(c);
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        if text.starts_with(' ') || text.starts_with(is_break) {
            self.write_indicator("2", false, false, false);
        }
        if let Some(chomp) = chomping_indicator(text) {
            self.write_indicator(chomp, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut in_breaks = true;
        for c in text.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                in_breaks = true;
            } else {
                if in_breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                in_breaks = false;
            }
        }
    }
}

/// `-` (strip) when the text does not end with a line break, `+` (keep) when it ends with two
/// or is a single line break, nothing (clip) when it ends with exactly one.
fn chomping_indicator(text: &str) -> Option<&'static str> {
    let mut rev = text.chars().rev();
    match (rev.next(), rev.next()) {
        (None, _) => Some("-"),
        (Some(last), _) if !is_break(last) => Some("-"),
        (Some(_), None) => Some("+"),
        (Some(_), Some(prev)) if is_break(prev) => Some("+"),
        _ => None,
    }
}

/// The escape sequence (without its backslash) for a character in a double-quoted scalar.
fn escape(c: char) -> String {
    let named = match c {
        '\0' => "0",
        '\u{7}' => "a",
        '\u{8}' => "b",
        '\t' => "t",
        '\n' => "n",
        '\u{b}' => "v",
        '\u{c}' => "f",
        '\r' => "r",
        '\u{1b}' => "e",
        '"' => "\"",
        '\\' => "\\",
        '\u{85}' => "N",
        '\u{a0}' => "_",
        '\u{2028}' => "L",
        '\u{2029}' => "P",
        _ => "",
    };
    if !named.is_empty() {
        return named.to_string();
    }
    let u = u32::from(c);
    if u <= 0xFF {
        format!("x{u:02X}")
    } else if u <= 0xFFFF {
        format!("u{u:04X}")
    } else {
        format!("U{u:08X}")
    }
}

#[cfg(test)]
#[path = "emit_scalar_tests.rs"]
mod tests;
