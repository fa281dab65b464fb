//! Token-aware scanner for ytt's Starlark dialect, used by the `end`-block
//! rewriter. It does not validate Starlark; it only knows enough about
//! strings, comments, brackets and line continuations to split the source
//! into logical lines made of coarse tokens with byte offsets and positions.

/// Coarse token classes; everything the rewriter does not care about is `Op`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Str,
    Num,
    Op,
    Open,
    Close,
    Colon,
    Semi,
    Comma,
    Dot,
    Assign,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    pub line: u32,
    /// Bracket depth before this token (an opening bracket has the outer depth).
    pub depth: u32,
}

/// A statement line: tokens `toks` (indexes into the token vector), the line
/// of its first token and the byte offset where it ends (its terminating
/// newline, or the end of the source).
#[derive(Debug, Clone)]
pub(crate) struct LogicalLine {
    pub toks: std::ops::Range<usize>,
    pub first_line: u32,
    pub last_line: u32,
    pub end: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct LexError {
    pub offset: usize,
    pub message: String,
}

#[derive(Debug, Default)]
pub(crate) struct Lexed {
    pub toks: Vec<Tok>,
    pub lines: Vec<LogicalLine>,
    /// First lexical error; tokens and lines before it are still valid.
    pub error: Option<LexError>,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

struct Scanner<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    depth: u32,
    out: Lexed,
    ll_start: usize,
    ll_line: u32,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: Kind, start: usize) {
        if self.out.toks.len() == self.ll_start {
            self.ll_line = self.line_at(start);
        }
        let depth = match kind {
            Kind::Close => self.depth.saturating_sub(1),
            _ => self.depth,
        };
        let line = self.line_at(start);
        self.out.toks.push(Tok {
            kind,
            start,
            end: self.pos,
            line,
            depth,
        });
    }

    /// Line of `offset`; tokens never span lines except strings, whose start
    /// line is wanted, so tracking the line of the token start suffices.
    fn line_at(&self, offset: usize) -> u32 {
        let extra = self
            .src
            .get(offset..self.pos)
            .map_or(0, |s| s.iter().filter(|b| **b == b'\n').count() as u32);
        self.line.saturating_sub(extra)
    }

    fn close_line(&mut self, end: usize) {
        if self.out.toks.len() > self.ll_start {
            self.out.lines.push(LogicalLine {
                toks: self.ll_start..self.out.toks.len(),
                first_line: self.ll_line,
                last_line: self.line,
                end,
            });
            self.ll_start = self.out.toks.len();
        }
    }

    fn fail(&mut self, offset: usize, message: &str) {
        self.out.error = Some(LexError {
            offset,
            message: message.to_string(),
        });
    }

    /// Scans a string literal whose opening quote is at `self.pos`.
    fn string(&mut self, start: usize) -> bool {
        let quote = self.peek(0);
        let triple = self.peek(1) == quote && self.peek(2) == quote;
        self.pos += if triple { 3 } else { 1 };
        let mut run = 0;
        loop {
            let c = self.peek(0);
            if self.pos >= self.src.len() {
                self.fail(start, "unexpected EOF in string");
                return false;
            }
            self.pos += 1;
            if c == b'\n' {
                if !triple {
                    self.fail(start, "unexpected newline in string");
                    return false;
                }
                self.line += 1;
            }
            if c == quote {
                run += 1;
                if !triple || run == 3 {
                    return true;
                }
                continue;
            }
            run = 0;
            if c == b'\\' {
                if self.pos >= self.src.len() {
                    self.fail(start, "unexpected EOF in string");
                    return false;
                }
                if self.peek(0) == b'\n' {
                    self.line += 1;
                }
                self.pos += 1;
            }
        }
    }

    fn run(mut self) -> Lexed {
        while self.pos < self.src.len() {
            let start = self.pos;
            let c = self.peek(0);
            match c {
                b' ' | b'\t' | b'\r' | 0x0c => self.pos += 1,
                b'#' => {
                    while self.pos < self.src.len() && self.peek(0) != b'\n' {
                        self.pos += 1;
                    }
                }
                b'\n' => {
                    if self.depth == 0 {
                        self.close_line(start);
                    }
                    self.pos += 1;
                    self.line += 1;
                }
                b'\\' => {
                    let skip = if self.peek(1) == b'\r' { 2 } else { 1 };
                    if self.peek(skip) != b'\n' {
                        self.fail(start, "stray backslash in program");
                        break;
                    }
                    self.pos += skip + 1;
                    self.line += 1;
                }
                b'"' | b'\'' => {
                    if !self.string(start) {
                        break;
                    }
                    self.push(Kind::Str, start);
                }
                _ if is_ident_byte(c) && !c.is_ascii_digit() => {
                    while is_ident_byte(self.peek(0)) {
                        self.pos += 1;
                    }
                    let word = self.src.get(start..self.pos).unwrap_or_default();
                    let prefix = matches!(
                        word.to_ascii_lowercase().as_slice(),
                        b"r" | b"b" | b"rb" | b"br"
                    );
                    if prefix && matches!(self.peek(0), b'"' | b'\'') {
                        if !self.string(start) {
                            break;
                        }
                        self.push(Kind::Str, start);
                    } else {
                        self.push(Kind::Ident, start);
                    }
                }
                _ if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) => {
                    while is_ident_byte(self.peek(0)) || self.peek(0) == b'.' {
                        let e = matches!(self.peek(0), b'e' | b'E');
                        self.pos += 1;
                        if e && matches!(self.peek(0), b'+' | b'-') {
                            self.pos += 1;
                        }
                    }
                    self.push(Kind::Num, start);
                }
                _ => {
                    self.pos += 1;
                    let kind = match c {
                        b'(' | b'[' | b'{' => Kind::Open,
                        b')' | b']' | b'}' => Kind::Close,
                        b':' => Kind::Colon,
                        b';' => Kind::Semi,
                        b',' => Kind::Comma,
                        b'.' => Kind::Dot,
                        b'=' if self.peek(0) != b'=' => Kind::Assign,
                        _ => {
                            if matches!(c, b'*' | b'/' | b'<' | b'>') && self.peek(0) == c {
                                self.pos += 1;
                            }
                            if self.peek(0) == b'=' {
                                self.pos += 1;
                            }
                            Kind::Op
                        }
                    };
                    self.push(kind, start);
                    match kind {
                        Kind::Open => self.depth += 1,
                        Kind::Close => self.depth = self.depth.saturating_sub(1),
                        _ => {}
                    }
                }
            }
        }
        if self.out.error.is_none() {
            self.close_line(self.src.len());
        }
        self.out
    }
}

/// Splits `src` into tokens and logical lines.
pub(crate) fn lex(src: &str) -> Lexed {
    Scanner {
        src: src.as_bytes(),
        pos: 0,
        line: 1,
        depth: 0,
        // Generated code has about a token per six bytes: sized once instead of grown.
        out: Lexed {
            toks: Vec::with_capacity(src.len() / 6),
            ..Lexed::default()
        },
        ll_start: 0,
        ll_line: 1,
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(src: &str) -> Vec<(u32, u32, usize)> {
        let l = lex(src);
        assert!(l.error.is_none(), "{:?}", l.error);
        l.lines
            .iter()
            .map(|x| (x.first_line, x.last_line, x.toks.len()))
            .collect()
    }

    #[test]
    fn splits_logical_lines() {
        assert_eq!(lines("a = 1\nb = 2\n"), vec![(1, 1, 3), (2, 2, 3)]);
        assert_eq!(lines("f(1,\n  2)\n# c\nx"), vec![(1, 2, 6), (4, 4, 1)]);
        assert_eq!(lines("x = 1 + \\\n 2"), vec![(1, 2, 5)]);
        assert_eq!(lines("s = '''a\n#b\n'''\ny"), vec![(1, 3, 3), (4, 4, 1)]);
        assert_eq!(lines("s = r'\\'' # x\n"), vec![(1, 1, 3)]);
        assert_eq!(lines("s = 'é' + ünï\n"), vec![(1, 1, 5)]);
        assert_eq!(lines("x = a[1:2] == {b: c}"), vec![(1, 1, 14)]);
        assert_eq!(lines("x = 1e-5 ** 2"), vec![(1, 1, 5)]);
    }

    #[test]
    fn classifies_tokens() {
        let l = lex("f(a=1, b==2).c");
        let kinds: Vec<Kind> = l.toks.iter().map(|t| t.kind).collect();
        use Kind::*;
        assert_eq!(
            kinds,
            vec![Ident, Open, Ident, Assign, Num, Comma, Ident, Op, Num, Close, Dot, Ident]
        );
        assert_eq!(l.toks[2].depth, 1);
        assert_eq!(l.toks[9].depth, 0);
    }

    #[test]
    fn reports_string_errors() {
        let l = lex("x = 1\ny = 'abc\n");
        let e = l.error.unwrap();
        assert_eq!(e.message, "unexpected newline in string");
        assert_eq!(e.offset, 10);
        assert_eq!(l.lines.len(), 1);
        assert_eq!(
            lex("'''abc").error.unwrap().message,
            "unexpected EOF in string"
        );
        assert_eq!(
            lex("x \\ y").error.unwrap().message,
            "stray backslash in program"
        );
    }
}
