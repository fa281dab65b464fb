//! Template-context insertion for the `end`-block rewriter, mirroring ytt's
//! `ProgramAST`: a def whose body references the start/set-node
//! instructions gets a start-ctx call first and `return <end_ctx>()` last;
//! its returns that come after the first such reference are wrapped in
//! `<end_ctx>(...)`, as ytt's single pass over the def does.

use super::super::lex::{Kind, Tok};
use super::{err, Pass, Res, INDENT};

impl Pass<'_> {
    /// Completes the innermost def when its block closes at `line`.
    pub(super) fn end_def(&mut self, line: u32) -> Res<()> {
        let indent = INDENT.repeat(self.indent() + 1);
        let (Some(d), Some(tpl)) = (self.defs.pop(), self.opts.tpl.as_ref()) else {
            return Ok(());
        };
        if !d.uses_tpl {
            return Ok(());
        }
        let Some(ctx) = self.ctx_type.clone() else {
            return err((d.line, 1), "expected r.ctxType to be set");
        };
        if let Some(slot) = self.out.get_mut(d.slot) {
            slot.text = format!("{indent}{}({ctx})", tpl.start_ctx);
            slot.keep = true;
        }
        let end = format!("{indent}return {}()", tpl.end_ctx);
        self.push(end, line);
        Ok(())
    }
    pub(super) fn wrap_return(&self, stmt: &[Tok], ins: &mut Vec<(usize, String)>) {
        let (Some(tpl), Some(d)) = (self.opts.tpl.as_ref(), self.defs.last()) else {
            return;
        };
        if !d.uses_tpl {
            return;
        }
        match (stmt.first(), stmt.get(1), stmt.last()) {
            (Some(ret), None, _) => ins.push((ret.end, format!(" {}()", tpl.end_ctx))),
            (_, Some(x0), Some(x1)) => {
                let tuple = stmt.iter().any(|t| t.kind == Kind::Comma && t.depth == 0);
                let (open, close) = if tuple { ("((", "))") } else { ("(", ")") };
                ins.push((x0.start, format!("{}{open}", tpl.end_ctx)));
                ins.push((x1.end, close.to_string()));
            }
            _ => {}
        }
    }

    pub(super) fn scan_ctx_type(&mut self, stmt: &[Tok]) {
        let Some(tpl) = self.opts.tpl.as_ref() else {
            return;
        };
        for w in stmt.windows(4) {
            let kinds = [w[0].kind, w[1].kind, w[2].kind, w[3].kind];
            if kinds == [Kind::Ident, Kind::Open, Kind::Str, Kind::Close]
                && self.text(&w[0]) == tpl.set_ctx_type
            {
                self.ctx_type = Some(self.text(&w[2]).to_string());
            }
        }
    }

    /// Marks the innermost def as building nodes if `toks` reference the
    /// start/set-node instructions (not as attribute or keyword names).
    pub(super) fn scan_mentions(&mut self, toks: &[Tok]) {
        let Some(tpl) = self.opts.tpl.as_ref() else {
            return;
        };
        let hit = toks.iter().enumerate().any(|(i, t)| {
            let word = self.text(t);
            t.kind == Kind::Ident
                && (word == tpl.start_node || word == tpl.set_node)
                && !(i > 0 && toks.get(i - 1).map(|p| p.kind) == Some(Kind::Dot))
                && toks.get(i + 1).map(|n| n.kind) != Some(Kind::Assign)
        });
        if let Some(d) = self.defs.last_mut().filter(|_| hit) {
            d.uses_tpl = true;
        }
    }

    /// Scans only parameter default values of a def header.
    pub(super) fn scan_defaults(&mut self, header: &[Tok]) {
        let mut from = None;
        for (i, t) in header.iter().enumerate() {
            match (t.kind, t.depth) {
                (Kind::Assign, 1) => from = Some(i + 1),
                (Kind::Comma, 1) | (Kind::Close, 0) => {
                    if let Some(f) = from.take() {
                        self.scan_mentions(header.get(f..i).unwrap_or_default());
                    }
                }
                _ => {}
            }
        }
    }
}
