//! First stage of the YAML parser: a token pre-scan (sequence-entry marks and the source spans
//! covered by tokens, used to find comments) and the composition of libyaml events into a raw
//! node graph per document, with anchors and aliases resolved as go-yaml does while parsing.

use std::collections::HashMap;

use libyaml_safer::{Event, EventData, Mark, Parser, ScalarStyle, Scanner, TokenData};

use crate::yaml::chunked::Chunked;
use crate::yaml::comments::LineIndex;
use crate::yaml::gaps;

/// Deepest nesting accepted; deeper input is rejected instead of exhausting the stack.
pub(crate) const MAX_DEPTH: usize = 300;

/// What the token pre-scan learned about the source.
#[derive(Default)]
pub(crate) struct TokenInfo {
    /// Marks of `-`, `[` and `,` tokens (each may introduce a sequence item), in source order.
    pub entries: Vec<Mark>,
    /// Byte ranges covered by tokens with content, in source order, and whether the token was a
    /// directive (whose trailing comment go-yaml swallows).
    pub spans: Vec<(usize, usize, bool)>,
    /// Start and end of the last block scalar (`|`/`>`) token.
    pub last_block: Option<(usize, usize)>,
}

impl TokenInfo {
    /// Scans `data` completely (stopping quietly at a scanner error: the event parser reports
    /// it at the right moment). It also stops where collections nest far deeper than
    /// [`MAX_DEPTH`] (the composer rejects that input): libyaml's scanner spends time in the
    /// nesting depth on every token, so scanning on would be quadratic.
    pub fn scan(data: &str) -> TokenInfo {
        let mut info = TokenInfo::default();
        let mut scanner: Scanner<Chunked<'_>> = Scanner::new();
        scanner.set_input(Chunked::new(data.as_bytes()));
        let mut depth = 0usize;
        for token in scanner.by_ref() {
            let Ok(token) = token else { break };
            match token.data {
                TokenData::FlowSequenceStart
                | TokenData::FlowMappingStart
                | TokenData::BlockSequenceStart
                | TokenData::BlockMappingStart => depth += 1,
                TokenData::FlowSequenceEnd | TokenData::FlowMappingEnd | TokenData::BlockEnd => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
            if depth > 2 * MAX_DEPTH {
                break;
            }
            let (start, end) = (
                token.start_mark.index as usize,
                token.end_mark.index as usize,
            );
            let directive = matches!(
                token.data,
                TokenData::VersionDirective { .. } | TokenData::TagDirective { .. }
            );
            match token.data {
                TokenData::Scalar {
                    style: ScalarStyle::Literal | ScalarStyle::Folded,
                    ..
                } => info.last_block = Some((start, end)),
                TokenData::BlockEntry | TokenData::FlowEntry | TokenData::FlowSequenceStart => {
                    info.entries.push(token.start_mark)
                }
                TokenData::StreamEnd => break,
                _ => {}
            }
            if end > start {
                info.spans.push((start, end, directive));
            }
        }
        info.spans.sort_by_key(|s| s.0);
        info
    }

    /// The mark go-yaml's fork records for a sequence item starting at `index`: the last `-`,
    /// `[` or `,` token before it.
    fn entry_before(&self, index: u64) -> Option<Mark> {
        let n = self.entries.partition_point(|m| m.index < index);
        n.checked_sub(1).and_then(|i| self.entries.get(i)).copied()
    }
}

#[derive(Debug)]
pub(crate) enum RawKind {
    Scalar {
        value: String,
        tag: Option<String>,
        plain_implicit: bool,
    },
    /// Items with the mark of their `-`/`[`/`,` token.
    Seq(Vec<(Mark, usize)>),
    Map(Vec<(usize, usize)>),
    Alias {
        name: String,
        target: usize,
    },
}

#[derive(Debug)]
pub(crate) struct RawNode {
    pub kind: RawKind,
    pub mark: Mark,
}

/// One document's node graph (an arena: aliases point at earlier nodes by index).
#[derive(Debug)]
pub(crate) struct RawDoc {
    pub nodes: Vec<RawNode>,
    pub root: usize,
    /// Mark of the document start event.
    pub start: Mark,
    /// Byte index of the document end event: comments before it were read with this document.
    pub end_index: usize,
    /// Anchors as defined at the end of the document.
    pub anchors: HashMap<String, usize>,
}

/// Errors while composing: a libyaml error, a go-yaml message with the mark it refers to, or
/// a problem go-yaml's parser has where libyaml's has none, worded as a libyaml parser error.
pub(crate) enum ComposeError {
    Yaml(libyaml_safer::Error),
    Message(String, Mark),
    Parser(&'static str, Mark),
}

/// go-yaml's problem with a `%YAML` directive of another version than 1.1.
const INCOMPATIBLE: &str = "found incompatible YAML document";

impl From<libyaml_safer::Error> for ComposeError {
    fn from(e: libyaml_safer::Error) -> Self {
        ComposeError::Yaml(e)
    }
}

/// Where the composer learns what lies between events: a full token scan, or the text itself
/// (see `yaml::gaps`), whose scalar spans it then collects.
pub(crate) enum Between<'a> {
    Scanned(&'a TokenInfo),
    Text(&'a str, &'a LineIndex<'a>),
}

pub(crate) struct Composer<'a> {
    parser: Parser<Chunked<'a>>,
    between: Between<'a>,
    /// Byte index where the text behind the last event read ends.
    last_end: usize,
    /// Spans of the scalar tokens read since the last [`Composer::take_spans`] (text mode).
    spans: Vec<(usize, usize, bool)>,
    /// End index of a block scalar that must lose one trailing line break (the one appended to
    /// the source to keep libyaml-safer away from end-of-input without a line break).
    trim_block_ending_at: Option<usize>,
}

struct DocBuilder {
    nodes: Vec<RawNode>,
    anchors: HashMap<String, usize>,
}

impl DocBuilder {
    fn push(&mut self, kind: RawKind, mark: Mark, anchor: Option<String>) -> usize {
        let idx = self.nodes.len();
        self.nodes.push(RawNode { kind, mark });
        if let Some(a) = anchor {
            self.anchors.insert(a, idx);
        }
        idx
    }
}

impl<'a> Composer<'a> {
    pub fn new(data: &'a [u8], between: Between<'a>, trim: Option<usize>) -> Composer<'a> {
        let mut parser = Parser::new();
        parser.set_input(Chunked::new(data));
        Composer {
            parser,
            between,
            last_end: 0,
            spans: Vec::new(),
            trim_block_ending_at: trim,
        }
    }

    /// The scalar token spans read so far (in source order), when reading from the text.
    pub fn take_spans(&mut self) -> Vec<(usize, usize, bool)> {
        std::mem::take(&mut self.spans)
    }

    fn event(&mut self) -> Result<Event, libyaml_safer::Error> {
        let ev = self.parser.parse()?;
        // A collection's end event spans the token after it (a single-pair mapping in a flow
        // sequence ends at the `,` that follows): only its start is behind the reader.
        let end = match ev.data {
            EventData::MappingEnd | EventData::SequenceEnd => ev.start_mark,
            _ => ev.end_mark,
        };
        self.last_end = end.index as usize;
        Ok(ev)
    }

    /// The mark of the `-`, `[` or `,` token introducing the sequence item whose first event
    /// starts at `item`; `from` is where the text holding it starts.
    fn entry(&self, from: usize, item: Mark) -> Mark {
        match &self.between {
            Between::Scanned(tokens) => tokens.entry_before(item.index),
            Between::Text(text, lines) => {
                gaps::last_entry(text, from, item.index as usize).map(|index| {
                    let (line, column) = lines.line_col(index);
                    let mut mark = Mark::default();
                    (mark.index, mark.line, mark.column) = (index as u64, line, column);
                    mark
                })
            }
        }
        .unwrap_or(item)
    }

    /// Reads the next document; `None` at the end of the stream.
    pub fn next_document(&mut self) -> Result<Option<RawDoc>, ComposeError> {
        let ev = self.event()?;
        match ev.data {
            EventData::StreamStart { .. } => return self.next_document(),
            EventData::StreamEnd => return Ok(None),
            // go-yaml's parser takes `%YAML 1.1` only (libyaml also takes 1.2).
            EventData::DocumentStart {
                version_directive: Some(v),
                ..
            } if (v.major, v.minor) != (1, 1) => {
                return Err(ComposeError::Parser(INCOMPATIBLE, ev.start_mark));
            }
            EventData::DocumentStart { .. } => {}
            _ => return Err(ComposeError::Message(unexpected(), ev.start_mark)),
        }
        let mut b = DocBuilder {
            nodes: Vec::new(),
            anchors: HashMap::new(),
        };
        let first = self.event()?;
        let root = self.node(&mut b, first, 0)?;
        let end = self.event()?;
        if !matches!(end.data, EventData::DocumentEnd { .. }) {
            return Err(ComposeError::Message(unexpected(), end.start_mark));
        }
        Ok(Some(RawDoc {
            nodes: b.nodes,
            root,
            start: ev.start_mark,
            end_index: end.start_mark.index as usize,
            anchors: b.anchors,
        }))
    }

    fn node(
        &mut self,
        b: &mut DocBuilder,
        ev: libyaml_safer::Event,
        depth: usize,
    ) -> Result<usize, ComposeError> {
        let mark = ev.start_mark;
        if depth > MAX_DEPTH {
            let msg = format!("yaml: exceeded max depth of {MAX_DEPTH}");
            return Err(ComposeError::Message(msg, mark));
        }
        match ev.data {
            EventData::Scalar {
                anchor,
                tag,
                mut value,
                plain_implicit,
                style,
                ..
            } => {
                if let Between::Text(text, _) = self.between {
                    let (start, end) = (mark.index as usize, ev.end_mark.index as usize);
                    let properties = anchor.is_some() || tag.is_some();
                    if let Some((s, e)) = gaps::scalar_span(text, start, end, properties) {
                        self.spans.push((s, e, false));
                    }
                }
                let block = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
                let at_end = self.trim_block_ending_at == Some(ev.end_mark.index as usize);
                if block && at_end && value.ends_with('\n') {
                    value.pop();
                }
                let kind = RawKind::Scalar {
                    value,
                    tag,
                    plain_implicit,
                };
                Ok(b.push(kind, mark, anchor))
            }
            EventData::Alias { anchor } => match b.anchors.get(&anchor) {
                Some(&target) => {
                    let kind = RawKind::Alias {
                        name: anchor,
                        target,
                    };
                    Ok(b.push(kind, mark, None))
                }
                None => Err(ComposeError::Message(
                    format!("yaml: unknown anchor '{anchor}' referenced"),
                    mark,
                )),
            },
            EventData::SequenceStart { anchor, .. } => {
                let idx = b.push(RawKind::Seq(Vec::new()), mark, anchor);
                let mut items = Vec::new();
                let mut from = mark.index as usize;
                loop {
                    let next = self.event()?;
                    if matches!(next.data, EventData::SequenceEnd) {
                        break;
                    }
                    let entry = self.entry(from, next.start_mark);
                    items.push((entry, self.node(b, next, depth + 1)?));
                    from = self.last_end;
                }
                b.nodes[idx].kind = RawKind::Seq(items);
                Ok(idx)
            }
            EventData::MappingStart { anchor, .. } => {
                let idx = b.push(RawKind::Map(Vec::new()), mark, anchor);
                let mut pairs = Vec::new();
                loop {
                    let next = self.event()?;
                    if matches!(next.data, EventData::MappingEnd) {
                        break;
                    }
                    let key = self.node(b, next, depth + 1)?;
                    let value_ev = self.event()?;
                    let value = self.node(b, value_ev, depth + 1)?;
                    pairs.push((key, value));
                }
                b.nodes[idx].kind = RawKind::Map(pairs);
                Ok(idx)
            }
            _ => Err(ComposeError::Message(unexpected(), mark)),
        }
    }
}

fn unexpected() -> String {
    "yaml: unknown problem parsing YAML content".to_string()
}
