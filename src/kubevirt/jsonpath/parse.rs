//! The parser of kubectl's JSONPath templates (`k8s.io/client-go/util/jsonpath`), accepting and
//! rejecting what it does: `{...}` actions between plain text, `.field`, `..`, `[*]`, `[i]`,
//! `[a:b:c]`, `['key']`, unions `[a,b]`, filters `[?(@.x == "y")]`, quoted text, numbers,
//! booleans and the identifiers `range` / `end`. Error messages are client-go's.

use super::{Node, Param, Template};

/// Parses a whole template.
pub fn parse_template(text: &str) -> Result<Template, String> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
        start: 0,
    };
    let mut root = Vec::new();
    loop {
        if p.peek() == Some('{') {
            if p.pos > p.start {
                root.push(Node::Text(p.consume()));
            }
            p.pos += 1;
            p.consume();
            let mut list = Vec::new();
            p.inside(&mut list)?;
            root.push(Node::List(list));
            continue;
        }
        if p.next().is_none() {
            break;
        }
    }
    if p.pos > p.start {
        root.push(Node::Text(p.consume()));
    }
    Ok(Template { nodes: root })
}

/// Go's `parseAction`: the first list of `{text}`.
fn parse_action(text: &str) -> Result<Vec<Node>, String> {
    let t = parse_template(&format!("{{{text}}}"))?;
    match t.nodes.into_iter().next() {
        Some(Node::List(list)) => Ok(list),
        _ => Ok(Vec::new()),
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    start: usize,
}

fn is_terminator(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => matches!(
            c,
            ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
        ),
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

/// Go's `%#U` rendering of a character: `U+007B '{'`.
fn go_rune(c: char) -> String {
    format!("U+{:04X} '{}'", c as u32, c)
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn consume(&mut self) -> String {
        let s: String = self.chars[self.start..self.pos].iter().collect();
        self.start = self.pos;
        s
    }

    /// Go's `parseInsideAction`, as a loop; returns after the closing `}`.
    fn inside(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        loop {
            if self.at("}") {
                self.pos += 1;
                self.consume();
                return Ok(());
            }
            if self.at("[?(") {
                self.filter(cur)?;
                continue;
            }
            if self.at("..") {
                self.recursive(cur)?;
                continue;
            }
            match self.next() {
                None | Some('\r') | Some('\n') => return Err("unclosed action".to_string()),
                Some(' ') | Some('@') | Some('$') => {
                    self.consume();
                }
                Some('[') => self.array(cur)?,
                Some(q @ ('"' | '\'')) => self.quote(cur, q)?,
                Some('.') => self.field(cur),
                Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                    self.pos -= 1;
                    self.number(cur)?;
                }
                Some(c) if is_alphanumeric(c) => {
                    self.pos -= 1;
                    self.identifier(cur);
                }
                Some(c) => return Err(format!("unrecognized character in action: {}", go_rune(c))),
            }
        }
    }

    fn identifier(&mut self, cur: &mut Vec<Node>) {
        while !is_terminator(self.peek()) {
            self.pos += 1;
        }
        let value = self.consume();
        cur.push(match value.as_str() {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            _ => Node::Identifier(value),
        });
    }

    fn recursive(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        if matches!(cur.last(), Some(Node::Recursive)) {
            return Err("invalid multiple recursive descent".to_string());
        }
        self.pos += 2;
        self.consume();
        cur.push(Node::Recursive);
        if self.peek().is_some_and(is_alphanumeric) {
            self.field(cur);
        }
        Ok(())
    }

    fn number(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        while matches!(self.peek(), Some(c) if c == '.' || c.is_ascii_digit()) {
            self.pos += 1;
        }
        let value = self.consume();
        if let Ok(i) = value.parse::<i64>() {
            cur.push(Node::Int(i));
        } else if let Some(f) = go_float(&value) {
            cur.push(Node::Float(f));
        } else {
            return Err(format!("cannot parse number {value}"));
        }
        Ok(())
    }

    fn array(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated array".to_string()),
                Some(']') => break,
                _ => {}
            }
        }
        let all = self.consume();
        let inner: String = {
            let cs: Vec<char> = all.chars().collect();
            cs[1..cs.len() - 1].iter().collect()
        };
        let text = if inner == "*" { ":".to_string() } else { inner };
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 1 {
            let mut union = Vec::new();
            for part in parts {
                union.push(parse_action(&format!("[{}]", part.trim_matches(' ')))?);
            }
            cur.push(Node::Union(union));
            return Ok(());
        }
        if let Some(key) = dict_key(&text) {
            cur.extend(parse_action(&format!(".{key}"))?);
            return Ok(());
        }
        cur.push(Node::Array(slice_params(&text)?));
        Ok(())
    }

    fn filter(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        self.pos += 3;
        self.consume();
        let (mut begin, mut end) = (false, false);
        let mut pair = '\0';
        loop {
            let r = self.next();
            match r {
                None | Some('\n') => return Err("unterminated filter".to_string()),
                Some(q @ ('"' | '\'')) => {
                    if !begin {
                        begin = true;
                        pair = q;
                        continue;
                    }
                    let escaped = self.pos >= 2 && self.chars[self.pos - 2] == '\\';
                    if !escaped && q == pair {
                        end = true;
                    }
                }
                Some(')') if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err("unclosed array expect ]".to_string());
        }
        let all = self.consume();
        let cs: Vec<char> = all.chars().collect();
        let text: String = cs[..cs.len() - 2].iter().collect();
        match split_filter(&text) {
            None => {
                let left = parse_action(&text)?;
                cur.push(Node::Filter {
                    left,
                    right: Vec::new(),
                    op: "exists".to_string(),
                });
            }
            Some((l, op, r)) => {
                let left = parse_action(l)?;
                let right = parse_action(r)?;
                cur.push(Node::Filter {
                    left,
                    right,
                    op: op.to_string(),
                });
            }
        }
        Ok(())
    }

    fn quote(&mut self, cur: &mut Vec<Node>, end: char) -> Result<(), String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated quoted string".to_string()),
                Some(c) if c == end && self.chars[self.pos - 2] != '\\' => break,
                _ => {}
            }
        }
        let value = self.consume();
        match unquote(&value) {
            Some(s) => {
                cur.push(Node::Text(s));
                Ok(())
            }
            None => Err(format!("unquote string {value} error invalid syntax")),
        }
    }

    fn field(&mut self, cur: &mut Vec<Node>) {
        self.consume();
        loop {
            match self.peek() {
                Some('\\') => {
                    self.pos += 1;
                    if self.peek().is_some() {
                        self.pos += 1;
                    }
                }
                c if is_terminator(c) => break,
                _ => self.pos += 1,
            }
        }
        let value = self.consume();
        if value == "*" {
            cur.push(Node::Wildcard);
        } else {
            cur.push(Node::Field(value.replace('\\', "")));
        }
    }
}

/// `^'([^']*)'$`
fn dict_key(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    (!inner.contains('\'')).then_some(inner)
}

/// `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$` and client-go's reading of it.
fn slice_params(text: &str) -> Result<[Param; 3], String> {
    let groups: Vec<&str> = text.split(':').collect();
    let ok_group = |g: &str| {
        let digits = g.strip_prefix('-').unwrap_or(g);
        digits.chars().all(|c| c.is_ascii_digit())
    };
    if groups.len() > 3 || !groups.iter().all(|g| ok_group(g)) {
        return Err(format!("invalid array index {text}"));
    }
    let mut params = [Param::default(); 3];
    for i in 0..3 {
        let present = i < groups.len();
        let raw = groups.get(i).copied().unwrap_or("");
        // group 0 is matched without its colon; groups 1 and 2 keep theirs in Go
        let nonempty_in_go = if i == 0 { !raw.is_empty() } else { present };
        if nonempty_in_go {
            if i > 0 && raw.is_empty() {
                params[i].known = false;
            } else {
                params[i].known = true;
                params[i].value = raw
                    .parse()
                    .map_err(|_| format!("array index {raw} is not a number"))?;
            }
        } else if i == 1 {
            // Go's int wraps: `[9223372036854775807]` ends at the smallest int (found by
            // fuzzing `kubevirt_annotation`; an overflow check panicked here).
            params[1] = Param {
                known: true,
                value: params[0].value.wrapping_add(1),
                derived: true,
            };
        } else {
            params[i].known = false;
            params[i].value = 0;
        }
    }
    Ok(params)
}

/// `^([^!<>=]+)([!<>=~]+)(.+?)$`
fn split_filter(text: &str) -> Option<(&str, &str, &str)> {
    let op_start = text.find(['!', '<', '>', '='])?;
    if op_start == 0 {
        return None;
    }
    let after = &text[op_start..];
    let op_len = after
        .find(|c: char| !matches!(c, '!' | '<' | '>' | '=' | '~'))
        .unwrap_or(after.len());
    // the operator group gives its last character back when nothing would be left for the right
    let op_len = if op_len == after.len() {
        op_len - 1
    } else {
        op_len
    };
    let right = &after[op_len..];
    if op_len == 0 || right.is_empty() || right.contains('\n') {
        return None;
    }
    Some((&text[..op_start], &after[..op_len], right))
}

/// Go's `strconv.ParseFloat` for the digit-and-dot texts `parseNumber` produces.
fn go_float(text: &str) -> Option<f64> {
    let body = text.trim_start_matches(['+', '-']);
    if body.is_empty() || body == "." || body.matches('.').count() > 1 {
        return None;
    }
    text.parse().ok()
}

/// client-go's `UnquoteExtend`: Go unquoting for '...' and "..." strings.
fn unquote(s: &str) -> Option<String> {
    let mut cs = s.chars();
    let q = cs.next()?;
    if s.len() < 2 || !s.ends_with(q) || (q != '"' && q != '\'') {
        return None;
    }
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if c == q {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = it.next()?;
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            '\'' | '"' => out.push(e),
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = (0..n).filter_map(|_| it.next()).collect();
                let v = u32::from_str_radix(&hex, 16).ok()?;
                out.push(char::from_u32(v)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(text: &str) -> Vec<Node> {
        match parse_template(text).unwrap().nodes.into_iter().next() {
            Some(Node::List(l)) => l,
            other => panic!("not a list: {other:?}"),
        }
    }

    #[test]
    fn fields_arrays_and_wrapping() {
        let l = list("{.spec.template.spec.domain.devices.disks[*].disk.bus}");
        assert_eq!(l[0], Node::Field("spec".into()));
        assert_eq!(l[4], Node::Field("devices".into()));
        let Node::Array(p) = &l[6] else {
            panic!("no array")
        };
        assert!(!p[0].known && !p[1].known);
        assert_eq!(l[8], Node::Field("bus".into()));
    }

    #[test]
    fn index_union_dict_and_filter() {
        let l = list("{.a[2]}");
        let Node::Array(p) = &l[1] else {
            panic!("no array")
        };
        assert_eq!((p[0].value, p[1].value, p[1].derived), (2, 3, true));
        let l = list("{.a['b.c']}");
        assert_eq!(l[1], Node::Field("b".into()));
        assert!(matches!(list("{.a[0,1]}")[1], Node::Union(_)));
        let l = list("{.disks[?(@.name==\"root\")]}");
        let Node::Filter { left, right, op } = &l[1] else {
            panic!("no filter")
        };
        assert_eq!(op, "==");
        assert_eq!(left[0], Node::Field("name".into()));
        assert_eq!(right[0], Node::Text("root".into()));
    }

    #[test]
    fn the_largest_index_wraps_as_go_does() {
        let l = list("{.a[9223372036854775807]}");
        let Node::Array(p) = &l[1] else {
            panic!("no array")
        };
        assert_eq!(
            (p[0].value, p[1].value, p[1].derived),
            (i64::MAX, i64::MIN, true)
        );
        assert_eq!(
            parse_template("{.a[9223372036854775808]}").unwrap_err(),
            "array index 9223372036854775808 is not a number"
        );
    }

    #[test]
    fn client_go_errors() {
        assert_eq!(parse_template("{.a").unwrap_err(), "unclosed action");
        assert_eq!(
            parse_template("{.a[x]}").unwrap_err(),
            "invalid array index x"
        );
        assert_eq!(parse_template("{.a[0}").unwrap_err(), "unterminated array");
        assert_eq!(
            parse_template("{.a{.b}}").unwrap_err(),
            "unrecognized character in action: U+007B '{'"
        );
        assert_eq!(
            parse_template("{....a}").unwrap_err(),
            "invalid multiple recursive descent"
        );
    }

    #[test]
    fn text_outside_actions() {
        let t = parse_template("{.spec.templatespec.x}").unwrap();
        assert_eq!(t.nodes.len(), 1);
        let t = parse_template("{.a}b").unwrap();
        assert_eq!(t.nodes[1], Node::Text("b".into()));
    }
}
