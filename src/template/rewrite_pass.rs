//! The block-structure pass of the `end`-block rewriter: walks logical lines,
//! keeps a stack of open blocks, re-indents statements, translates `while`
//! loops and inserts template-context calls into defs that build nodes.

use super::lex::{Kind, Lexed, LogicalLine, Tok};
use super::{RewriteError, RewriteOpts, Rewritten};

#[path = "rewrite_ctx.rs"]
mod ctx;
#[path = "rewrite_tuple_for.rs"]
mod tuple_for;

const INDENT: &str = "    ";

/// Words that may not follow a `.` (ytt's keywords and reserved words).
const KEYWORDS: &[&str] = &[
    "and", "break", "continue", "def", "elif", "else", "for", "if", "in", "lambda", "load", "not",
    "or", "pass", "return", "while", "as", "class", "del", "except", "finally", "from", "global",
    "import", "is", "nonlocal", "raise", "try", "with", "yield",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    If,
    Else,
    For,
    Def,
    While,
    Other,
}

struct Frame {
    kind: BlockKind,
    stmts: usize,
    /// Position of the newline that opened the block (for the EOF error).
    open: (u32, u32),
}

struct DefState {
    uses_tpl: bool,
    /// Index of the placeholder output line reserved for the start-ctx call.
    slot: usize,
    line: u32,
}

struct Out {
    text: String,
    line: u32,
    keep: bool,
}

pub(crate) struct Pass<'a> {
    src: &'a str,
    opts: &'a RewriteOpts,
    lx: Lexed,
    line_starts: Vec<usize>,
    out: Vec<Out>,
    frames: Vec<Frame>,
    defs: Vec<DefState>,
    ctx_type: Option<String>,
}

type Res<T> = Result<T, RewriteError>;

fn err<T>(pos: (u32, u32), message: impl Into<String>) -> Res<T> {
    Err(RewriteError {
        line: pos.0,
        col: pos.1,
        message: message.into(),
    })
}

impl<'a> Pass<'a> {
    pub(crate) fn new(src: &'a str, opts: &'a RewriteOpts, lx: Lexed) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        Pass {
            src,
            opts,
            lx,
            line_starts,
            out: Vec::new(),
            frames: Vec::new(),
            defs: Vec::new(),
            ctx_type: None,
        }
    }

    pub(crate) fn run(mut self) -> Res<Rewritten> {
        let mut next = 1;
        let lines = std::mem::take(&mut self.lx.lines);
        for ll in &lines {
            self.gap(next, ll.first_line);
            self.logical(ll)?;
            next = ll.last_line + 1;
        }
        if let Some(e) = self.lx.error.take() {
            return err(self.pos_of(e.offset), e.message);
        }
        let total = if self.src.is_empty() {
            0
        } else {
            self.src.split('\n').count() as u32 - u32::from(self.src.ends_with('\n'))
        };
        self.gap(next, total + 1);
        if let Some(f) = self.frames.last() {
            return err(
                f.open,
                "mismatched set of block openings (if/else/elif/for/def) and closing (end)",
            );
        }
        let mut code = String::new();
        let mut line_map = Vec::new();
        for o in self.out.into_iter().filter(|o| o.keep) {
            code.push_str(&o.text);
            code.push('\n');
            line_map.push(o.line);
        }
        Ok(Rewritten { code, line_map })
    }

    fn text(&self, t: &Tok) -> &'a str {
        self.src.get(t.start..t.end).unwrap_or("")
    }

    fn pos_of(&self, offset: usize) -> (u32, u32) {
        let idx = self.line_starts.partition_point(|s| *s <= offset).max(1) - 1;
        let start = self.line_starts.get(idx).copied().unwrap_or(0);
        let col = self.src.get(start..offset).map_or(0, |s| s.chars().count());
        (idx as u32 + 1, col as u32 + 1)
    }

    fn tok_pos(&self, t: &Tok) -> (u32, u32) {
        self.pos_of(t.start)
    }

    /// Where ytt's scanner stands after consuming the newline ending `ll`.
    fn after(&self, ll: &LogicalLine) -> (u32, u32) {
        if ll.end < self.src.len() {
            (ll.last_line + 1, 1)
        } else {
            self.pos_of(self.src.len())
        }
    }

    fn indent(&self) -> usize {
        self.frames.len()
    }

    fn push(&mut self, text: String, line: u32) {
        self.out.push(Out {
            text,
            line,
            keep: true,
        });
    }

    /// Emits lines without statements (blank or comment-only) in `from..to`.
    fn gap(&mut self, from: u32, to: u32) {
        for line in from..to {
            let idx = line as usize - 1;
            let start = self.line_starts.get(idx).copied().unwrap_or(0);
            let end = self
                .line_starts
                .get(idx + 1)
                .map_or(self.src.len(), |e| e - 1);
            let raw = self.src.get(start..end).unwrap_or("").trim();
            let text = if raw.starts_with('#') {
                format!("{}{}", INDENT.repeat(self.indent()), raw)
            } else {
                String::new()
            };
            self.push(text, line);
        }
    }

    /// Copies `start..end` of the source starting a new output line at
    /// `indent`, splitting at source newlines and applying `inserts`.
    fn emit(
        &mut self,
        start: usize,
        end: usize,
        line: u32,
        indent: usize,
        ins: &[(usize, String)],
    ) {
        let bytes = self.src.as_bytes();
        let mut ins: Vec<&(usize, String)> =
            ins.iter().filter(|i| i.0 >= start && i.0 <= end).collect();
        ins.sort_by_key(|i| i.0);
        let (mut cur, mut line, mut i, mut k) = (INDENT.repeat(indent), line, start, 0);
        loop {
            while let Some((_, s)) = ins.get(k).filter(|x| x.0 <= i) {
                cur.push_str(s);
                k += 1;
            }
            if i >= end {
                break;
            }
            if bytes.get(i) == Some(&b'\n') {
                self.push(std::mem::take(&mut cur), line);
                line += 1;
                i += 1;
                continue;
            }
            let mut stop = ins.get(k).map_or(end, |x| x.0.min(end));
            if let Some(p) = bytes
                .get(i..stop)
                .and_then(|b| b.iter().position(|c| *c == b'\n'))
            {
                stop = i + p;
            }
            cur.push_str(self.src.get(i..stop).unwrap_or(""));
            i = stop;
        }
        self.push(cur, line);
    }

    fn logical(&mut self, ll: &LogicalLine) -> Res<()> {
        let toks: Vec<Tok> = self
            .lx
            .toks
            .get(ll.toks.clone())
            .unwrap_or_default()
            .to_vec();
        let Some(first) = toks.first() else {
            return Ok(());
        };
        self.check_tokens(&toks)?;
        let head = self.text(first);
        let colon = toks
            .iter()
            .position(|t| t.kind == Kind::Colon && t.depth == 0);
        let missing =
            "got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)";
        match head {
            "end" if toks.len() == 1 => {
                let Some(frame) = self.frames.pop() else {
                    return err(self.after(ll), "unexpected end");
                };
                self.finish(frame, ll.first_line)
            }
            "elif" | "else"
                if head == "elif" || toks.get(1).map(|t| t.kind) == Some(Kind::Colon) =>
            {
                let Some(ci) = colon else {
                    return err(self.after(ll), missing);
                };
                let Some(frame) = self.frames.pop() else {
                    return err(self.tok_pos(first), "unexpected end");
                };
                if frame.kind != BlockKind::If {
                    return err(
                        self.tok_pos(first),
                        format!("got {head}, want primary expression"),
                    );
                }
                self.finish(frame, ll.first_line)?;
                let kind = if head == "elif" {
                    BlockKind::If
                } else {
                    BlockKind::Else
                };
                self.compound(ll, &toks, ci, kind)
            }
            "else" => err(self.tok_pos(first), "got else, want primary expression"),
            "if" | "for" | "def" | "while" => {
                let Some(ci) = colon else {
                    return err(self.after(ll), missing);
                };
                let kind = match head {
                    "if" => BlockKind::If,
                    "for" => BlockKind::For,
                    "def" => BlockKind::Def,
                    _ => BlockKind::While,
                };
                self.compound(ll, &toks, ci, kind)
            }
            _ => {
                self.simple(ll, &toks, 0)?;
                if toks.last().map(|t| t.kind) == Some(Kind::Colon) {
                    // ytt opens a block after any line ending in ':'.
                    let open = self.pos_of(ll.end);
                    self.frames.push(Frame {
                        kind: BlockKind::Other,
                        stmts: 0,
                        open,
                    });
                }
                Ok(())
            }
        }
    }

    /// Rejects `pass`, keywords used as attribute names and stray `end`s.
    fn check_tokens(&self, toks: &[Tok]) -> Res<()> {
        for (i, t) in toks.iter().enumerate() {
            if t.kind != Kind::Ident {
                continue;
            }
            let word = self.text(t);
            let after_dot = i > 0 && toks.get(i - 1).map(|p| p.kind) == Some(Kind::Dot);
            let def_name = i == 1 && toks.first().map(|p| self.text(p)) == Some("def");
            if word == "pass" {
                return err(
                    self.tok_pos(t),
                    "use of reserved keyword 'pass' is not allowed",
                );
            }
            if (after_dot || def_name) && KEYWORDS.contains(&word) {
                let msg = format!(
                    "use of reserved keyword '{word}' is not allowed (expected identifier)"
                );
                return err(self.tok_pos(t), msg);
            }
            if word == "end" && toks.len() > 1 {
                let msg = if self.frames.is_empty() {
                    "unexpected end"
                } else if after_dot {
                    "not an identifier"
                } else {
                    "got outdent, want primary expression"
                };
                return err(self.tok_pos(t), msg);
            }
        }
        Ok(())
    }

    /// Handles `if`/`elif`/`else`/`for`/`def`/`while` headers, whose colon is
    /// `toks[ci]`; one-line forms are expanded into a block.
    fn compound(&mut self, ll: &LogicalLine, toks: &[Tok], ci: usize, kind: BlockKind) -> Res<()> {
        let (Some(first), Some(colon)) = (toks.first(), toks.get(ci)) else {
            return Ok(());
        };
        let inline = ci + 1 < toks.len();
        let indent = self.indent();
        let header = toks.get(1..ci).unwrap_or_default();
        if kind == BlockKind::Def {
            self.defs.push(DefState {
                uses_tpl: false,
                slot: 0,
                line: ll.first_line,
            });
            self.scan_defaults(header);
        } else {
            self.scan_mentions(header);
        }
        let header_end = if inline { colon.end } else { ll.end };
        let mut stmts = 0;
        if kind == BlockKind::While {
            let (Some(c0), Some(c1)) = (header.first(), header.last()) else {
                return err(self.tok_pos(colon), "got ':', want primary expression");
            };
            let rest = self.src.get(colon.end..header_end).unwrap_or("");
            let head = format!(
                "{}for _ in {}():{}",
                INDENT.repeat(indent),
                self.opts.while_iter,
                rest
            );
            self.push(head, ll.first_line);
            let ins = [
                (c0.start, "if not (".to_string()),
                (c1.end, "): break".to_string()),
            ];
            self.emit(c0.start, c1.end, c0.line, indent + 1, &ins);
            stmts = 1;
        } else {
            let ins = if kind == BlockKind::For {
                tuple_for::parens(header, self.src)
            } else {
                Vec::new()
            };
            self.emit(first.start, header_end, ll.first_line, indent, &ins);
        }
        if let Some(d) = self.defs.last_mut().filter(|_| kind == BlockKind::Def) {
            d.slot = self.out.len();
            self.out.push(Out {
                text: String::new(),
                line: ll.first_line,
                keep: false,
            });
        }
        let open = self.pos_of(ll.end);
        self.frames.push(Frame { kind, stmts, open });
        if inline {
            self.simple(ll, toks, ci + 1)?;
            if let Some(frame) = self.frames.pop() {
                self.finish(frame, ll.last_line)?;
            }
        }
        Ok(())
    }

    /// Closes a block: fills empty bodies and completes template contexts.
    fn finish(&mut self, frame: Frame, line: u32) -> Res<()> {
        let indent = INDENT.repeat(self.indent() + 1);
        if frame.stmts == 0 {
            self.push(format!("{indent}pass"), line);
        }
        if frame.kind != BlockKind::Def {
            return Ok(());
        }
        self.end_def(line)
    }

    /// Emits the simple statements `toks[from..]` at the current indent.
    fn simple(&mut self, ll: &LogicalLine, toks: &[Tok], from: usize) -> Res<()> {
        let Some(start) = toks.get(from) else {
            return Ok(());
        };
        let body = toks.get(from..).unwrap_or_default();
        let mut ins = Vec::new();
        for stmt in body.split(|t| t.kind == Kind::Semi && t.depth == 0) {
            self.scan_ctx_type(stmt);
            match stmt.first().map(|t| self.text(t)) {
                Some("return") => self.wrap_return(stmt, &mut ins),
                Some("load" | "break" | "continue") | None => {}
                Some(_) => self.scan_mentions(stmt),
            }
        }
        let indent = self.indent();
        self.emit(start.start, ll.end, start.line, indent, &ins);
        if let Some(f) = self.frames.last_mut() {
            f.stmts += 1;
        }
        Ok(())
    }
}
