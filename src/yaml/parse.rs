//! The position-aware YAML parser: source text to a `DocSet`, behaving like ytt's
//! `yamlmeta.Parser` on top of its go-yaml v2 fork. A source that does not begin with `---`
//! gets an implicit first document (at line 1); every map item, array item and document keeps
//! its position; comments are attached to nodes as ytt does, and comments left below the last
//! node of the stream end up in an extra, injected document. Errors carry go-yaml's messages
//! with ytt's line correction (`yaml: line 3: did not find expected key`).

use std::collections::VecDeque;
use std::sync::Arc;

use libyaml_safer::{ErrorKind, Mark};

use crate::pos::Pos;
use crate::yaml::comments::{self, LineIndex};
use crate::yaml::compose::{Between, ComposeError, Composer, TokenInfo};
use crate::yaml::decode::{node_budget, Decoder, PosOf};
use crate::yaml::node::{Comment, DocSet, Document, Value};
use crate::yaml::{bom, breaks, gaps, gotags};

/// Parser options.
#[derive(Clone, Debug, Default)]
pub struct ParseOpts {
    /// ytt's `--strict`: reject plain scalars whose YAML 1.1 reading is ambiguous.
    pub strict: bool,
}

/// A YAML error: `message` is what ytt prints after `Unmarshaling YAML template '<file>': `.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub message: String,
    pub pos: Pos,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The text ytt puts in front of a source that does not start with a document marker.
const PREFIX: &str = "---\n";

/// Maps marks in the parsed text (possibly prefixed) to positions in the source.
struct PosMap {
    file: Arc<str>,
    prefixed: bool,
}

impl PosMap {
    fn shift(&self) -> u64 {
        if self.prefixed {
            PREFIX.len() as u64
        } else {
            0
        }
    }

    /// 1-based source line of a 0-based line of the parsed text.
    fn line(&self, line0: u64) -> u32 {
        let line = if self.prefixed { line0 } else { line0 + 1 };
        u32::try_from(line).unwrap_or(u32::MAX)
    }

    fn at(&self, line0: u64, col0: u64, index: u64) -> Pos {
        let col = u32::try_from(col0 + 1).unwrap_or(u32::MAX);
        let offset = u32::try_from(index.saturating_sub(self.shift())).unwrap_or(u32::MAX);
        Pos::new(&self.file, self.line(line0), col, offset)
    }
}

impl PosOf for PosMap {
    fn pos_of(&self, mark: Mark) -> Pos {
        self.at(mark.line, mark.column, mark.index)
    }
}

/// ytt's check `\A\s*---\s+` (Go's `\s` is ASCII whitespace without vertical tab).
fn starts_with_doc_marker(src: &str) -> bool {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c');
    let rest = src.trim_start_matches(is_space);
    rest.strip_prefix("---")
        .and_then(|r| r.chars().next())
        .is_some_and(is_space)
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// The text handed to libyaml, its tokens when the text alone cannot tell them (see
/// `yaml::gaps`), and the end of a block scalar whose last line break was added by us.
/// libyaml-safer panics on a block scalar (or a `\` escape) running into the end of input
/// without a line break, so such a source gets one appended; the block scalar then drops it
/// again unless libyaml would have kept a line break of its own.
fn prepare(src: &str, prefixed: bool, scan: bool) -> (String, Option<TokenInfo>, Option<usize>) {
    let data = if prefixed {
        format!("{PREFIX}{src}")
    } else {
        src.to_string()
    };
    if !data.is_empty() && !data.ends_with(is_break) {
        let last_line = data.rsplit(is_break).next().unwrap_or("");
        let mut appended = data.clone();
        appended.push('\n');
        let tokens = TokenInfo::scan(&appended);
        let eof_block = tokens.last_block.filter(|(_, end)| *end == appended.len());
        if eof_block.is_some() || data.ends_with('\\') {
            let trim = eof_block.and_then(|(start, end)| {
                let header: String = appended.get(start + 1..)?.chars().take(2).collect();
                let keep = header.contains('+');
                let strip = header.contains('-');
                let content_last = last_line.chars().any(|c| c != ' ');
                (keep || (!strip && content_last)).then_some(end)
            });
            return (appended, Some(tokens), trim);
        }
    }
    let tokens = (scan || gaps::needs_scan(&data)).then(|| TokenInfo::scan(&data));
    (data, tokens, None)
}

/// Parses a YAML stream the way ytt does. libyaml-safer has a few internal panics on odd
/// input; they are caught and reported as a generic YAML error. A tag that ytt's scanner reads
/// further than libyaml's (over `,`, `[` or `]`) is widened and the text read again.
/// A byte-order mark is an ordinary character to ytt (see `yaml::bom`).
pub fn parse(src: &str, file: &Arc<str>, opts: &ParseOpts) -> Result<DocSet, ParseError> {
    match bom::stand_in(src) {
        None => parse_text(src, file, opts),
        Some((text, c)) => match parse_text(&text, file, opts) {
            Ok(mut set) => {
                bom::restore(&mut set, c);
                Ok(set)
            }
            Err(e) => Err(ParseError {
                message: bom::restore_text(&e.message, c),
                pos: e.pos,
            }),
        },
    }
}

/// [`parse`] of a text without byte-order marks.
fn parse_text(src: &str, file: &Arc<str>, opts: &ParseOpts) -> Result<DocSet, ParseError> {
    let mut text = std::borrow::Cow::Borrowed(src);
    for _ in 0..TAG_WIDENINGS {
        match parse_with(&text, file, opts, false) {
            Ok(set) => return Ok(set),
            Err(stop) => match stop.short_tag.and_then(|at| gotags::widened(&text, at)) {
                Some(widened) => text = std::borrow::Cow::Owned(widened),
                None => return Err(stop.error),
            },
        }
    }
    parse_with(&text, file, opts, false).map_err(|stop| stop.error)
}

/// How many tags of one text are widened at most (each costs a parse).
const TAG_WIDENINGS: usize = 16;

/// Why a parse stopped: the error, and where a tag starts that libyaml ended before a `,`,
/// `[` or `]` (go-yaml reads on).
#[derive(Debug)]
struct Stopped {
    error: ParseError,
    short_tag: Option<usize>,
}

impl From<ParseError> for Stopped {
    fn from(error: ParseError) -> Stopped {
        Stopped {
            error,
            short_tag: None,
        }
    }
}

/// [`parse`] of the text as it is, with libyaml's scanner for the tokens whether or not the
/// text needs it (`scan`).
fn parse_with(src: &str, file: &Arc<str>, opts: &ParseOpts, scan: bool) -> Result<DocSet, Stopped> {
    let run = std::panic::AssertUnwindSafe(|| parse_stream(src, file, opts, scan));
    match std::panic::catch_unwind(run) {
        Ok(result) => result,
        Err(_) => {
            let short_tag = gotags::panicking_tag(src);
            let error = short_tag.and_then(|tag| tag_before_comma(src, file, tag));
            Err(Stopped {
                error: error.unwrap_or_else(|| ParseError {
                    message: "yaml: unknown problem parsing YAML content".to_string(),
                    pos: Pos::new(file, 1, 1, 0),
                }),
                short_tag,
            })
        }
    }
}

/// The message of libyaml-safer's panic that [`parse`] turns into ytt's error.
const TAG_PANIC: &str = "TODO: What is expected here?";

/// Installs a panic hook that keeps the YAML library's known, caught panic off standard error
/// (the error it becomes is reported instead); every other panic is reported as before.
pub fn quiet_known_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<&str>() != Some(&TAG_PANIC) {
            previous(info);
        }
    }));
}

/// The error for a tag (starting at byte `tag`) that a `,` ends in a flow collection, on which
/// libyaml-safer panics: a scanner error at the `,`, as go-yaml words it when it stops there.
fn tag_before_comma(src: &str, file: &Arc<str>, tag: usize) -> Option<ParseError> {
    let at = gotags::libyaml_end(src, tag)?;
    let line = src.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let line = u32::try_from(line).unwrap_or(u32::MAX);
    Some(ParseError {
        message: format!("yaml: line {line}: did not find expected whitespace or line break"),
        pos: Pos::new(file, line, 1, u32::try_from(at).unwrap_or(u32::MAX)),
    })
}

fn parse_stream(
    src: &str,
    file: &Arc<str>,
    opts: &ParseOpts,
    scan: bool,
) -> Result<DocSet, Stopped> {
    let prefixed = !starts_with_doc_marker(src);
    let (data, tokens, trim) = prepare(src, prefixed, scan);
    let pm = PosMap {
        file: file.clone(),
        prefixed,
    };
    let lines = LineIndex::new(&data);
    let mut gap_scan = comments::GapScan::default();
    let (mut pending, between) = match &tokens {
        Some(tokens) => {
            let mut all = Vec::new();
            gap_scan.scan_to(&data, &tokens.spans, data.len(), &lines, &mut all);
            (VecDeque::from(all), Between::Scanned(tokens))
        }
        None => (VecDeque::new(), Between::Text(&data, &lines)),
    };
    let mut composer = Composer::new(data.as_bytes(), between, trim);

    let mut set = DocSet::default();
    // The lines (0-based, of `data`) of the documents whose start ytt looks up.
    let mut doc_lines: Vec<u64> = Vec::new();
    let mut leftover: Vec<Comment> = Vec::new();
    // Alias expansion is bounded for the stream as a whole, not document by document.
    let mut budget = node_budget(src.len());
    loop {
        let raw = match composer.next_document() {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
                let shift = pm.shift() as usize;
                let short_tag = short_tag(&e, &data).and_then(|at| at.checked_sub(shift));
                let error = compose_error(e, &pm);
                return Err(Stopped { error, short_tag });
            }
        };
        let first = set.items.is_empty();
        let pos = if first && pm.line(raw.start.line) == 0 {
            Pos::unknown()
        } else {
            doc_lines.push(raw.start.line);
            pm.pos_of(raw.start)
        };
        let fixed_pos = if prefixed && !pos.is_known() {
            Pos::new(file, 1, 1, 0)
        } else {
            pos.clone()
        };
        let mut decoder = Decoder::new(&raw, opts.strict, &pm, budget);
        let value = decoder
            .root(&fixed_pos)
            .map_err(|e| located(e.message, &pm, e.mark))?;
        budget = decoder.remaining();
        if tokens.is_none() {
            let mut found = Vec::new();
            let spans = composer.take_spans();
            gap_scan.scan_to(&data, &spans, raw.end_index, &lines, &mut found);
            pending.extend(found);
        }
        let mut doc = Document::new(value, pos);
        doc.comments = std::mem::take(&mut leftover);
        let mut own = Vec::new();
        while pending.front().is_some_and(|c| c.offset < raw.end_index) {
            if let Some(c) = pending.pop_front() {
                let cpos = pm.at(c.line, c.col, c.offset as u64);
                own.push(Comment {
                    data: c.data,
                    pos: cpos,
                });
            }
        }
        leftover = comments::assign(&mut doc, own);
        doc.pos = fixed_pos;
        set.items.push(doc);
    }
    if !leftover.is_empty() {
        let mut end = Document::new(Value::Null, Pos::unknown());
        end.comments = leftover;
        end.injected = true;
        set.items.push(end);
    }
    if let Some(error) = breaks::ytt_crash(src, prefixed, &set, &doc_lines, file) {
        return Err(error.into());
    }
    Ok(set)
}

/// Where the tag starts that libyaml refused because a `,`, `[` or `]` follows it (go-yaml
/// takes those into the tag).
fn short_tag(e: &ComposeError, data: &str) -> Option<usize> {
    let ComposeError::Yaml(e) = e else {
        return None;
    };
    if e.context() != Some("while scanning a tag")
        || e.problem() != "did not find expected whitespace or line break"
    {
        return None;
    }
    let next = data.as_bytes().get(e.problem_mark()?.index as usize)?;
    let start = e.context_mark()?.index as usize;
    (matches!(next, b',' | b'[' | b']') && data.as_bytes().get(start) == Some(&b'!'))
        .then_some(start)
}

fn located(message: String, pm: &PosMap, mark: Mark) -> ParseError {
    ParseError {
        message,
        pos: pm.pos_of(mark),
    }
}

fn compose_error(e: ComposeError, pm: &PosMap) -> ParseError {
    match e {
        ComposeError::Message(m, mark) => located(m, pm, mark),
        ComposeError::Yaml(e) => yaml_error(&e, pm),
        ComposeError::Parser(problem, mark) => worded(problem, (mark, Mark::default()), false, pm),
    }
}

/// go-yaml's wording for a libyaml error: the line is the problem mark's (1-based for scanner
/// errors, 0-based for parser errors, as go-yaml has it), else the context mark's; then ytt
/// shifts it back by one when it prefixed the source with `---`.
fn yaml_error(e: &libyaml_safer::Error, pm: &PosMap) -> ParseError {
    let problem = e.problem_mark().unwrap_or_default();
    let context = e.context_mark().unwrap_or_default();
    let problem_text = if e.problem().is_empty() {
        "unknown problem parsing YAML content"
    } else {
        e.problem()
    };
    let scanner = e.kind() == ErrorKind::Scanner;
    worded(problem_text, (problem, context), scanner, pm)
}

/// go-yaml's wording of a libyaml error's `problem_text` at its problem and context marks (see
/// [`yaml_error`]).
fn worded(
    problem_text: &str,
    (problem, context): (Mark, Mark),
    scanner: bool,
    pm: &PosMap,
) -> ParseError {
    let line = if problem.line != 0 {
        problem.line + u64::from(scanner)
    } else {
        context.line
    };
    let mark = if problem.line != 0 || context.line == 0 {
        problem
    } else {
        context
    };
    let mut pos = pm.pos_of(mark);
    let message = if line != 0 {
        let shown = line as i64 - i64::from(pm.prefixed);
        if shown > 0 {
            pos.line = u32::try_from(shown).unwrap_or(u32::MAX);
        }
        format!("yaml: line {shown}: {problem_text}")
    } else {
        format!("yaml: {problem_text}")
    };
    ParseError { message, pos }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
