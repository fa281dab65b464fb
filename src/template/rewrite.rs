//! Rewrites ytt's `end`-delimited Starlark dialect into ordinary
//! indentation-based Starlark accepted by the `starlark` crate.
//!
//! Besides re-indenting blocks, the rewriter translates `while` loops into a
//! `for` over a runtime-provided endless iterable, fills empty blocks with
//! `pass`, reports ytt's block-structure errors, and (when instruction names
//! are given) inserts the template-context calls ytt adds to functions that
//! build template nodes. Helper modules: `rewrite_lex.rs` (scanner),
//! `rewrite_pass.rs` (block pass, with `rewrite_tuple_for.rs` for a `for` over a bare tuple) and `rewrite_space.rs` (blank space as starlark-go and ytt read it).

use std::fmt;

#[path = "rewrite_lex.rs"]
mod lex;
#[path = "rewrite_pass.rs"]
mod pass;
#[path = "rewrite_space.rs"]
mod space;

pub(crate) use space::trim_string_lines;

/// The round brackets of Starlark code (strings and comments skipped), as pairs of the byte
/// offsets of `(` and of its matching `)`, ordered by the opening one.
pub(crate) fn paren_pairs(src: &str) -> Vec<(usize, usize)> {
    let lexed = lex::lex(src);
    let bytes = src.as_bytes();
    let mut open = Vec::new();
    let mut pairs = Vec::new();
    for t in &lexed.toks {
        match (t.kind, bytes.get(t.start)) {
            (lex::Kind::Open, Some(b'(')) => open.push(t.start),
            (lex::Kind::Open, _) => open.push(usize::MAX),
            (lex::Kind::Close, _) => {
                if let Some(o) = open.pop().filter(|o| *o != usize::MAX) {
                    pairs.push((o, t.start));
                }
            }
            _ => {}
        }
    }
    pairs.sort_unstable();
    pairs
}

/// The byte offset of the innermost bracket of `src` still open at byte `before` (strings and
/// comments skipped): where an expression that a parse error finds unclosed starts.
pub(crate) fn unclosed_bracket(src: &str, before: usize) -> Option<usize> {
    let lexed = lex::lex(src.get(..before)?);
    let mut open = Vec::new();
    for t in &lexed.toks {
        match t.kind {
            lex::Kind::Open => open.push(t.start),
            lex::Kind::Close => {
                open.pop();
            }
            _ => {}
        }
    }
    open.pop()
}

/// Full identifiers of the template instructions used for context insertion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TplNames {
    pub start_node: String,
    pub set_node: String,
    pub start_ctx: String,
    pub end_ctx: String,
    pub set_ctx_type: String,
}

impl TplNames {
    /// Names as ytt generates them for template number `id`.
    pub fn for_template(id: u32) -> Self {
        let name = |op: &str| format!("__ytt_tpl{id}_{op}");
        TplNames {
            start_node: name("start_node"),
            set_node: name("set_node"),
            start_ctx: name("start_ctx"),
            end_ctx: name("end_ctx"),
            set_ctx_type: name("set_ctx_type"),
        }
    }
}

/// Options of [`rewrite`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewriteOpts {
    /// Name of a zero-argument callable returning an endless iterable;
    /// `while c:` becomes `for _ in <while_iter>():` plus a break check.
    pub while_iter: String,
    /// When set, defs that build template nodes get context calls.
    pub tpl: Option<TplNames>,
}

impl Default for RewriteOpts {
    fn default() -> Self {
        RewriteOpts {
            while_iter: "__ytt_while".to_string(),
            tpl: None,
        }
    }
}

/// Result of [`rewrite`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// Indentation-based Starlark; every line ends with `\n`.
    pub code: String,
    /// `line_map[i]` is the 1-based input line output line `i + 1` stems from.
    pub line_map: Vec<u32>,
}

/// A ytt-dialect syntax error, positioned (1-based) in the input. Like ytt,
/// errors detected at a newline (missing colon, unexpected `end`) point at
/// the start of the following line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewriteError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for RewriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for RewriteError {}

/// Converts ytt-dialect Starlark `code` into indentation-based Starlark.
pub fn rewrite(code: &str, opts: &RewriteOpts) -> Result<Rewritten, RewriteError> {
    let lexed = lex::lex(code);
    let spaced = space::tabs_as_spaces(code, &lexed);
    pass::Pass::new(&spaced, opts, lexed).run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use starlark::syntax::{AstModule, Dialect};

    #[test]
    fn the_innermost_open_bracket_before_a_point() {
        let code = "f(1, g(2) # ) \"(\"\nh()\n";
        let at = code.find("h()").unwrap();
        assert_eq!(unclosed_bracket(code, at), Some(1));
        assert_eq!(unclosed_bracket("a = [1, (2)", 11), Some(4));
        assert_eq!(unclosed_bracket("f(1)\n", 5), None);
    }

    fn opts() -> RewriteOpts {
        RewriteOpts::default()
    }

    fn tpl_opts() -> RewriteOpts {
        RewriteOpts {
            tpl: Some(TplNames::for_template(1)),
            ..RewriteOpts::default()
        }
    }

    fn parses(code: &str) {
        let dialect = Dialect {
            enable_top_level_stmt: true,
            ..Dialect::Extended
        };
        if let Err(e) = AstModule::parse("t.star", code.to_string(), &dialect) {
            panic!("output does not parse: {e}\n{code}");
        }
    }

    fn ok(src: &str, o: &RewriteOpts) -> Rewritten {
        let r = rewrite(src, o).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.code.lines().count(), r.line_map.len());
        parses(&r.code);
        r
    }

    fn fails(src: &str) -> (u32, u32, String) {
        let e = rewrite(src, &opts()).expect_err("expected an error");
        (e.line, e.col, e.message)
    }

    #[test]
    fn reindents_blocks() {
        let r = ok(
            "if x:\na = 1\nif y:\nb = 2\nend\nelif z:\nc = 3\nelse:\n  d = 4\nend\ne = 5",
            &opts(),
        );
        let want = "if x:\n    a = 1\n    if y:\n        b = 2\nelif z:\n    c = 3\nelse:\n    d = 4\ne = 5\n";
        assert_eq!(r.code, want);
        assert_eq!(r.line_map, vec![1, 2, 3, 4, 6, 7, 8, 9, 11]);
    }

    #[test]
    fn for_def_and_comments() {
        let src = "def f(x):\n  # doc\n  for i in x:\n\n  print(i) # c\nend\nreturn 1\nend";
        let r = ok(src, &opts());
        let want = "def f(x):\n    # doc\n    for i in x:\n\n        print(i) # c\n    return 1\n";
        assert_eq!(r.code, want);
        assert_eq!(r.line_map, vec![1, 2, 3, 4, 5, 7]);
    }

    #[test]
    fn a_for_over_a_bare_tuple_gets_its_parentheses() {
        let src = "for v in a, b:\nprint(v)\nend\nfor k, v in d.items():\nend\nfor x in f(a, b):\nend\nfor v in 1, 2: y = v";
        let r = ok(src, &opts());
        let want = "for v in (a, b):\n    print(v)\nfor k, v in d.items():\n    pass\nfor x in f(a, b):\n    pass\nfor v in (1, 2):\n    y = v\n";
        assert_eq!(r.code, want);
    }

    #[test]
    fn one_line_forms_need_no_end() {
        let r = ok(
            "def f(): return 1\nif True: x = f(); y = 2\nfor i in []: pass_ = i",
            &opts(),
        );
        let want =
            "def f():\n    return 1\nif True:\n    x = f(); y = 2\nfor i in []:\n    pass_ = i\n";
        assert_eq!(r.code, want);
        assert_eq!(r.line_map, vec![1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn empty_blocks_get_pass() {
        let r = ok(
            "if x:\nend\nif y:\n# nothing\nelse:\nend\nz = 1 if y else 2",
            &opts(),
        );
        let want =
            "if x:\n    pass\nif y:\n    # nothing\n    pass\nelse:\n    pass\nz = 1 if y else 2\n";
        assert_eq!(r.code, want);
        assert_eq!(r.line_map, vec![1, 2, 3, 4, 5, 5, 6, 7]);
    }

    #[test]
    fn multiline_tokens_kept_verbatim() {
        let src = "if x:\n  s = \"\"\"a\n  end\n    b:\"\"\"\n  t = [1,\n      2]  # ]\n  u = 1 + \\\n  2\nend";
        let r = ok(src, &opts());
        let want = "if x:\n    s = \"\"\"a\n  end\n    b:\"\"\"\n    t = [1,\n      2]  # ]\n    u = 1 + \\\n  2\n";
        assert_eq!(r.code, want);
        assert_eq!(r.line_map, vec![1, 2, 3, 4, 5, 6, 7, 8]);
        let r = ok("x = 'é:#' # ü:\nif 'ü':\n  y = r'\\'end'\nend", &opts());
        assert_eq!(r.code, "x = 'é:#' # ü:\nif 'ü':\n    y = r'\\'end'\n");
    }

    #[test]
    fn dict_and_lambda_colons_do_not_open_blocks() {
        let r = ok(
            "x = {1: 2,\n 3: 4}\nf = lambda a: a[1:]\nif {1: 2}[1]: y = 1",
            &opts(),
        );
        assert_eq!(
            r.code,
            "x = {1: 2,\n 3: 4}\nf = lambda a: a[1:]\nif {1: 2}[1]:\n    y = 1\n"
        );
    }

    #[test]
    fn while_becomes_for() {
        let src = "i = 0\nwhile i < 10: # loop\n  i += 1\n  if i == 2:\n    continue\n  end\n  if i > 5: break\nend\nwhile (i >\n 3): i -= 1";
        let r = ok(src, &opts());
        let want = "i = 0\nfor _ in __ytt_while(): # loop\n    if not (i < 10): break\n    i += 1\n    if i == 2:\n        continue\n    if i > 5:\n        break\nfor _ in __ytt_while():\n    if not ((i >\n 3)): break\n    i -= 1\n";
        assert_eq!(r.code, want);
        assert_eq!(r.line_map, vec![1, 2, 2, 3, 4, 5, 7, 7, 9, 9, 10, 10]);
        let o = RewriteOpts {
            while_iter: "loop_forever".into(),
            tpl: None,
        };
        assert!(ok("while True:\nend", &o)
            .code
            .starts_with("for _ in loop_forever():\n    if not (True): break\n"));
    }

    #[test]
    fn block_errors() {
        let missing =
            "got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)";
        assert_eq!(
            fails("if True:\nx = 1\nif True\ny = 2\nend\nend"),
            (4, 1, missing.into())
        );
        assert_eq!(fails("for x in y\n"), (2, 1, missing.into()));
        assert_eq!(fails("def f()"), (1, 8, missing.into()));
        let mismatched =
            "mismatched set of block openings (if/else/elif/for/def) and closing (end)";
        assert_eq!(
            fails("if a:\nx = 1\nif b:\ny\nend\n"),
            (1, 6, mismatched.into())
        );
        assert_eq!(
            fails("if a:\nend\nend\nx = 1"),
            (4, 1, "unexpected end".into())
        );
        assert_eq!(fails("end"), (1, 4, "unexpected end".into()));
        assert_eq!(fails("else:\n"), (1, 1, "unexpected end".into()));
        assert_eq!(
            fails("for x in y:\nelse:\nend"),
            (2, 1, "got else, want primary expression".into())
        );
        assert_eq!(
            fails("if a:\nelse:\nelse:\nend").2,
            "got else, want primary expression"
        );
        assert_eq!(
            fails("if a:\nelse\nend").2,
            "got else, want primary expression"
        );
    }

    #[test]
    fn reserved_word_errors() {
        let pass = "use of reserved keyword 'pass' is not allowed";
        assert_eq!(fails("if True:\n  pass\nend"), (2, 3, pass.into()));
        assert_eq!(fails("x = data.values.pass.key"), (1, 17, pass.into()));
        let and = "use of reserved keyword 'and' is not allowed (expected identifier)";
        assert_eq!(fails("x = data.values.and.key"), (1, 17, and.into()));
        assert_eq!(
            fails("def or(): return 1").2,
            "use of reserved keyword 'or' is not allowed (expected identifier)"
        );
        assert_eq!(fails("x = end"), (1, 5, "unexpected end".into()));
        assert_eq!(
            fails("if a:\nx = end\nend").2,
            "got outdent, want primary expression"
        );
        assert_eq!(fails("if a:\nx = a.end\nend").2, "not an identifier");
        assert_eq!(
            fails("x = 1\ny = 'abc\nend"),
            (2, 5, "unexpected newline in string".into())
        );
        assert_eq!(
            fails("if a:\nx = '''abc\nend").2,
            "unexpected EOF in string"
        );
        assert_eq!(fails("end\nx = '").2, "unexpected end");
    }

    #[test]
    fn ctx_insertion() {
        let src = "__ytt_tpl1_set_ctx_type(\"yaml\")\ndef f(x):\n  if not x: return None\n  __ytt_tpl1_start_node(1)\n  def g(): return 2\n  if x: return x, 1\n  h = lambda: 3\n  return\nend\ndef k():\n  return lambda: __ytt_tpl1_set_node(2, 3)\nend";
        let r = ok(src, &tpl_opts());
        let want = "__ytt_tpl1_set_ctx_type(\"yaml\")\ndef f(x):\n    __ytt_tpl1_start_ctx(\"yaml\")\n    if not x:\n        return None\n    __ytt_tpl1_start_node(1)\n    def g():\n        return 2\n    if x:\n        return __ytt_tpl1_end_ctx((x, 1))\n    h = lambda: 3\n    return __ytt_tpl1_end_ctx()\n    return __ytt_tpl1_end_ctx()\ndef k():\n    return lambda: __ytt_tpl1_set_node(2, 3)\n";
        assert_eq!(r.code, want);
        assert_eq!(
            r.line_map,
            vec![1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 7, 8, 9, 10, 11]
        );
    }

    #[test]
    fn ctx_nested_defs_and_lambdas() {
        let src = "__ytt_tpl1_set_ctx_type(\"text\")\ndef outer():\n  def inner(a=lambda: __ytt_tpl1_start_node(1)):\n    x = [lambda: __ytt_tpl1_set_node(1)]\n    return x # r\n  end\n  return inner\nend\ndef one(): f(lambda: __ytt_tpl1_start_node(2)); return 1";
        let r = ok(src, &tpl_opts());
        let want = "__ytt_tpl1_set_ctx_type(\"text\")\ndef outer():\n    def inner(a=lambda: __ytt_tpl1_start_node(1)):\n        __ytt_tpl1_start_ctx(\"text\")\n        x = [lambda: __ytt_tpl1_set_node(1)]\n        return __ytt_tpl1_end_ctx(x) # r\n        return __ytt_tpl1_end_ctx()\n    return inner\ndef one():\n    __ytt_tpl1_start_ctx(\"text\")\n    f(lambda: __ytt_tpl1_start_node(2)); return __ytt_tpl1_end_ctx(1)\n    return __ytt_tpl1_end_ctx()\n";
        assert_eq!(r.code, want);
        // Attribute and keyword names do not count; without opts nothing changes.
        let plain = "__ytt_tpl1_set_ctx_type(\"yaml\")\ndef f():\n  x.__ytt_tpl1_start_node(__ytt_tpl1_set_node=1)\n  return 1\nend";
        assert!(!ok(plain, &tpl_opts()).code.contains("start_ctx"));
        let src2 = "__ytt_tpl1_set_ctx_type(\"yaml\")\ndef f():\n  __ytt_tpl1_start_node(1)\nend";
        assert!(!ok(src2, &opts()).code.contains("start_ctx"));
        let e = rewrite("def f():\n  __ytt_tpl1_start_node(1)\nend", &tpl_opts())
            .expect_err("no ctx type");
        assert_eq!(e.message, "expected r.ctxType to be set");
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        for src in [
            "",
            "\n\n",
            "end end",
            ":",
            "(",
            ")))\n:",
            "if:",
            "while:",
            "else",
            "elif",
            "\\",
            "'",
            "x = 'é",
            "é\u{301}:\nend",
            "if x: if y: z",
            "def f(:\nend",
            "return",
            "x;;;",
            "\r\nif a:\r\n b\r\nend\r\n",
        ] {
            let _ = rewrite(src, &tpl_opts());
            let _ = rewrite(src, &opts());
        }
        assert_eq!(rewrite("", &opts()).map(|r| r.code), Ok(String::new()));
        assert_eq!(
            ok("\r\nif a:\r\n b\r\nend\r\n", &opts()).code,
            "\nif a:\r\n    b\r\n"
        );
    }

    #[test]
    fn tabs_are_blank_space_outside_strings_as_in_starlark_go() {
        // Trailing, between tokens, before a comment, indenting a body and a continuation line.
        let src = "def f(a,\n\tb):\n\tx = a\t+ b\t# c\t\n\treturn x\t\nend\t\ny = \"a\tb\" + '''\n\t'''\n";
        let out = ok(src, &opts());
        parses(&out.code);
        assert!(out.code.contains("\"a\tb\" + '''\n\t'''"), "{}", out.code);
        assert_eq!(out.code.matches('\t').count(), 2, "{}", out.code);
        // Positions stay: an error after a tab is at the column ytt gives.
        let e = rewrite("x = 1\n\tpass\n", &opts()).unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
    }
}
