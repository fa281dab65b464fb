//! The Starlark of every file of a library, parsed without evaluating: YAML and text templates
//! compiled as the engine compiles them, `.star` files after the `end`-block rewrite. Each unit
//! keeps the line map back to its template, so findings point at the line the author wrote.
//! Files that do not parse or compile are left out: the library check and the evaluation report
//! those.

use std::sync::{Arc, OnceLock};

use starlark::codemap::Span;
use starlark::syntax::AstModule;

use crate::eval::run::{dialect, to_starlark};
use crate::files::{FileType, InputFile};
use crate::library::Workspace;
use crate::pos::Pos;
use crate::template::compile::{compile_text, compile_yaml_in, CompileOpts};
use crate::template::rewrite::{rewrite, RewriteOpts};

/// One parsed file.
pub struct Unit<'a> {
    pub file: &'a InputFile,
    /// Shared with the evaluation that parsed it, when one did.
    pub ast: Arc<AstModule>,
    /// Index = generated line (0-based): the template line (1-based) it stands for.
    lines: Vec<Option<u32>>,
    /// The file's lines ([`crate::pos::lines`]) and the offsets of its LFs, made the first time
    /// a position is asked for: findings ask for many, and each used to walk the text.
    text_lines: OnceLock<Lines>,
}

/// Where the lines of a file are.
struct Lines {
    spans: Vec<crate::pos::LineSpan>,
    lf: Vec<usize>,
}

impl Lines {
    fn of(data: &str) -> Lines {
        Lines {
            spans: crate::pos::lines(data).collect(),
            lf: data.match_indices('\n').map(|(i, _)| i).collect(),
        }
    }

    /// The text of line `line` (from 1) of `data` as [`crate::pos::lines`] counts lines
    /// (`""` for line 0 and past the end).
    fn text<'t>(&self, data: &'t str, line: u32) -> &'t str {
        let index = line.checked_sub(1).and_then(|l| usize::try_from(l).ok());
        index
            .and_then(|i| self.spans.get(i))
            .map_or("", |l| &data[l.start..l.end])
    }

    /// Where line `line` (from 1) starts when only LFs end lines (the text's length past the
    /// last line).
    fn start(&self, data: &str, line: u32) -> usize {
        match (line as usize).checked_sub(2) {
            None => 0,
            Some(n) => self.lf.get(n).map_or(data.len(), |i| i + 1),
        }
    }
}

impl<'a> Unit<'a> {
    /// The file's name as positions carry it.
    pub fn name(&self) -> Arc<str> {
        Arc::from(self.file.rel_path.as_str())
    }

    /// The template position of `span`; the column is where `needle` appears on that line
    /// (the first non-blank character when it does not).
    pub fn pos(&self, span: Span, needle: &str) -> Option<Pos> {
        let at = self.ast.file_span(span).resolve_span();
        let line = (*self.lines.get(at.begin.line)?)?;
        let text = self.source_line(line);
        let col = match text.find(needle).filter(|_| !needle.is_empty()) {
            Some(i) => i,
            None => text.len() - text.trim_start().len(),
        };
        let offset = self.line_start(line) + col;
        let col = text[..col].chars().count() as u32 + 1;
        Some(Pos::new(&self.name(), line, col, offset as u32))
    }

    /// The byte offset in the file where template line `line` (1-based) starts.
    fn line_start(&self, line: u32) -> usize {
        self.text_lines().start(&self.file.data, line)
    }

    fn text_lines(&self) -> &Lines {
        self.text_lines.get_or_init(|| Lines::of(&self.file.data))
    }

    /// Like [`Unit::pos`], but `needle` is looked for inside the text of `span` where the
    /// template line shows it (`.b` of `y.b` in `x.b or y.b`), else as [`Unit::pos`] does.
    pub fn pos_within(&self, span: Span, needle: &str) -> Option<Pos> {
        let mut pos = self.pos(span, needle)?;
        let code = self.ast.file_span(span).source_span().to_string();
        let text = self.source_line(pos.line);
        // The chain where it starts a word (`app.x` is not inside `data.values.app.x`).
        let found = text
            .match_indices(code.as_str())
            .map(|(start, _)| start)
            .find(|&start| {
                !text[..start]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            })
            .and_then(|start| Some(start + text[start..start + code.len()].find(needle)?));
        if let Some(at) = found {
            pos.col = text[..at].chars().count() as u32 + 1;
        }
        Some(pos)
    }

    /// Like [`Unit::pos`] for an identifier, `span` being its use and `word` its name as the
    /// author wrote it: the same occurrence of the word on the template line (the compiler
    /// copies a template's code as written, so the uses before it on the generated line are
    /// the ones before it there), else the first.
    pub fn pos_of_word(&self, span: Span, word: &str) -> Option<Pos> {
        let mut pos = self.pos(span, word)?;
        let fs = self.ast.file_span(span);
        let source = fs.file.source();
        let line_begin = fs.file.line_span(fs.file.find_line(span.begin())).begin();
        let code = source.get(line_begin.get() as usize..span.begin().get() as usize)?;
        let generated = fs.file.source_span(span);
        let nth = word_starts(code, generated).count();
        let text = self.source_line(pos.line);
        if let Some(at) = word_starts(text, word).nth(nth) {
            pos.col = text[..at].chars().count() as u32 + 1;
            pos.offset = (self.line_start(pos.line) + at) as u32;
        }
        Some(pos)
    }

    /// How many characters `needle` covers at `pos` (0 when it is not there).
    pub fn width(&self, pos: &Pos, needle: &str) -> u32 {
        let text = self.source_line(pos.line);
        let start: usize = text
            .chars()
            .take((pos.col as usize).saturating_sub(1))
            .map(char::len_utf8)
            .sum();
        if !needle.is_empty() && text[start..].starts_with(needle) {
            needle.chars().count() as u32
        } else {
            0
        }
    }

    /// The source line `line` (1-based) of the file.
    pub fn source_line(&self, line: u32) -> &str {
        self.text_lines().text(&self.file.data, line)
    }

    /// The template lines (first, last) that the code of `span` stands for, if any of its
    /// generated lines comes from the template.
    pub fn lines_of(&self, span: Span) -> Option<(u32, u32)> {
        let at = self.ast.file_span(span).resolve_span();
        let mapped: Vec<u32> = (at.begin.line..=at.end.line)
            .filter_map(|l| *self.lines.get(l)?)
            .collect();
        Some((*mapped.iter().min()?, *mapped.iter().max()?))
    }

    /// Whether this file can be loaded by others (`.star`, `*.lib.yml`, `*.lib.txt`).
    pub fn loadable(&self) -> bool {
        self.file.is_library()
    }
}

/// The byte offsets where `word` starts as a whole identifier in `text`.
fn word_starts<'t>(text: &'t str, word: &'t str) -> impl Iterator<Item = usize> + 't {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !text[..at].chars().next_back().is_some_and(ident)
                && !text[at + word.len()..].chars().next().is_some_and(ident)
        })
}

/// The units of the library rooted at `dir` of the workspace, in the library's file order,
/// and how many of its code files (templates and `.star` files) did not parse or compile:
/// what those read and call is not in sight.
pub fn units<'a>(ws: &'a Workspace, dir: &str) -> (Vec<Unit<'a>>, usize) {
    let mut out = Vec::new();
    let mut failed = 0;
    for f in ws.accessible(dir) {
        match code_unit(ws, f) {
            Ok(Some(u)) => out.push(u),
            Ok(None) => {}
            Err(Unparsed) => failed += 1,
        }
    }
    (out, failed)
}

/// A code file that does not parse or compile (or is too deep or unreadable).
struct Unparsed;

/// The unit of a file the evaluation already parsed (see `LibEnv::keep_asts`).
fn evaluated<'a>(ws: &'a Workspace, f: &'a InputFile) -> Option<Unit<'a>> {
    // The evaluation keeps parses by file name: of two files with one name (`-f base -f pr`,
    // each with a `pipeline.yml`) it kept the last, which may not be this one.
    let named = |g: &&InputFile| g.rel_path == f.rel_path;
    if ws.files.iter().filter(named).nth(1).is_some() {
        return None;
    }
    let ast = ws.env.asts.borrow_mut().remove(&f.rel_path)?;
    let map = ws.env.line_maps.borrow().get(&f.rel_path).cloned()?;
    let lines = map
        .lines
        .iter()
        .map(|p| p.as_ref().map(|p| p.line))
        .collect();
    Some(Unit {
        file: f,
        ast,
        lines,
        text_lines: OnceLock::new(),
    })
}

/// The unit of one file, if it is a template or Starlark file that parses.
pub fn unit<'a>(ws: &'a Workspace, f: &'a InputFile) -> Option<Unit<'a>> {
    code_unit(ws, f).ok().flatten()
}

/// The unit of one file: `Ok(None)` for a file that holds no code (plain YAML, other files),
/// `Err` for code that does not parse or compile.
fn code_unit<'a>(ws: &'a Workspace, f: &'a InputFile) -> Result<Option<Unit<'a>>, Unparsed> {
    if let Some(u) = evaluated(ws, f) {
        return Ok(Some(u));
    }
    if f.unreadable.is_some() {
        let code = f.file_type() == FileType::Starlark || f.is_template() || f.is_library();
        return if code { Err(Unparsed) } else { Ok(None) };
    }
    let name: Arc<str> = Arc::from(f.rel_path.as_str());
    let templated = f.is_template() || f.is_library();
    let (code, lines) = match f.file_type() {
        FileType::Yaml if templated => {
            let (ds, templating) = ws.templating(f, ws.opts.strict).map_err(|_| Unparsed)?;
            if !templating {
                return Ok(None);
            }
            let opts = CompileOpts {
                ignore_unknown_comments: true,
            };
            let compiled = compile_yaml_in(&ds, &name, ws.env.template_id(), opts, &f.data)
                .map_err(|_| Unparsed)?;
            let (code, map) = to_starlark(&compiled).map_err(|_| Unparsed)?;
            (
                code,
                map.lines
                    .iter()
                    .map(|p| p.as_ref().map(|p| p.line))
                    .collect(),
            )
        }
        FileType::Text if templated => {
            let compiled =
                compile_text(&f.data, &name, ws.env.template_id()).map_err(|_| Unparsed)?;
            let (code, map) = to_starlark(&compiled).map_err(|_| Unparsed)?;
            (
                code,
                map.lines
                    .iter()
                    .map(|p| p.as_ref().map(|p| p.line))
                    .collect(),
            )
        }
        FileType::Starlark => {
            let opts = RewriteOpts {
                while_iter: "__ytt_while".to_string(),
                tpl: None,
            };
            // A CR alone is a line break, as starlark-go reads it (`library::star_code`).
            let src =
                crate::template::keywords::rename_reserved(&crate::pos::lone_cr_as_lf(&f.data));
            let out = rewrite(&src, &opts).map_err(|_| Unparsed)?;
            let lines = out.line_map.iter().map(|l| Some(*l)).collect();
            (
                crate::template::nested_load::rewrite_runtime(&out.code),
                lines,
            )
        }
        _ => return Ok(None),
    };
    // Code nested too deeply to walk is the evaluation's to report (`eval::nesting`).
    if crate::eval::nesting::too_deep(&code).is_some() {
        return Err(Unparsed);
    }
    let ast = AstModule::parse(&f.rel_path, code, &dialect()).map_err(|_| Unparsed)?;
    Ok(Some(Unit {
        file: f,
        ast: Arc::new(ast),
        lines,
        text_lines: OnceLock::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::Lines;

    #[test]
    fn the_line_index_answers_as_walking_the_text_did() {
        let text = "a: 1\r\n#@ x = 2\rb: 3\n\nc: |\n  d\r\n";
        let lines = Lines::of(text);
        for line in 0..9u32 {
            let walked = crate::pos::line_span(text, line).map_or("", |l| &text[l.start..l.end]);
            assert_eq!(lines.text(text, line), walked, "text of line {line}");
            let start = match (line as usize).checked_sub(2) {
                None => 0,
                Some(n) => text
                    .match_indices('\n')
                    .nth(n)
                    .map_or(text.len(), |(i, _)| i + 1),
            };
            assert_eq!(lines.start(text, line), start, "start of line {line}");
        }
        assert_eq!(lines.text(text, 2), "#@ x = 2");
        assert_eq!(lines.start(text, 2), 6);
    }
}
