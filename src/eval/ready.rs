//! A compiled template made ready to run: its Starlark code, parsed (with starlark-go's
//! behaviour, see [`super::gocompat`]), its line map and its node table. None of it depends on
//! the evaluation: it is derived from the template's text, its name (positions carry it) and
//! the compile options (the code is compiled under one template id, [`CODE_TEMPLATE_ID`]), so
//! a thread that runs jobs one after the other keeps what it made, by those, and the same
//! template evaluated again (the language server's next run after an edit elsewhere, another
//! scenario of the root, a copy of a library vendored in another root) is neither compiled
//! nor parsed again. The cache is bounded by the bytes of template text it holds (see
//! [`crate::shared_cache`]), nothing unless the process asks ([`keep`]: the language server
//! and the command line's workers); failures are not kept.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use starlark::syntax::AstModule;

use super::instr::Op;
use super::run::{dialect, framed, to_starlark, EvalError, LibEnv, LineMap};
use crate::shared_cache::ByteLru;
use crate::template::compile::Compiled;
use crate::template::nodes::NodeTable;

/// A template ready to run. Cloning it is cheap (shared parts).
#[derive(Clone)]
pub struct Ready {
    /// The template's name, as positions carry it.
    pub file: Arc<str>,
    /// The Starlark code (the builtins a module gets are chosen from it).
    pub code: Arc<str>,
    pub ast: Arc<AstModule>,
    pub map: Arc<LineMap>,
    pub nodes: Arc<NodeTable>,
    /// The name of each instruction function in the code.
    pub names: Arc<[(Op, String)]>,
    /// Whether the code needs the wide globals ([`crate::eval::run::GlobalsFor::wide`]),
    /// asked at its first evaluation and kept with it: a kept template's code is not searched
    /// again at every evaluation.
    pub wide: Arc<OnceLock<bool>>,
}

impl Ready {
    /// Turns `compiled` into code and parses it. The line map goes into `env` first: a parse
    /// error points at the template line.
    pub fn new(env: &LibEnv, compiled: Compiled) -> Result<Ready, EvalError> {
        let (code, map) = to_starlark(&compiled).map_err(|e| framed(e, env))?;
        let map = Arc::new(map);
        env.line_maps
            .borrow_mut()
            .insert(compiled.file.to_string(), map.clone());
        let names: Arc<[(Op, String)]> = Op::ALL
            .iter()
            .map(|(op, n)| (*op, compiled.instructions.name(n)))
            .collect();
        let kept: Arc<str> = Arc::from(code.as_str());
        if let Some((line, depth)) = super::nesting::too_deep(&code) {
            return Err(super::nesting::error(env, &compiled.file, line, depth));
        }
        let ast = {
            let _entered = super::progress::enter(&compiled.file);
            super::gocompat::parse(&compiled.file, code, &dialect())
                .map_err(|e| super::errors::format_error(&e, env))?
        };
        Ok(Ready {
            file: compiled.file,
            code: kept,
            ast: Arc::new(ast),
            map,
            nodes: Arc::new(compiled.nodes),
            names,
            wide: Arc::new(OnceLock::new()),
        })
    }
}

/// Bytes of template text whose ready templates each thread started from now on keeps: none
/// unless the process asks ([`keep`]).
static BUDGET: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static KEPT: RefCell<ByteLru<Ready>> = RefCell::new(ByteLru::new(BUDGET.load(Ordering::Relaxed)));
}

/// Makes the threads started from now on keep the ready templates of up to `bytes` of
/// template text (a ready template takes about thirty times its text). The language server
/// asks for it (it evaluates the same templates run after run), and so do the command line's
/// workers, for less ([`WORKER_KEEPS`]: they share a memory limit): the roots of a repository
/// often vendor the same libraries, and a root's scenarios evaluate the same templates.
pub fn keep(bytes: usize) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// The template id the code of every template is compiled with. ytt numbers the templates
/// it compiles (`__ytt_tpl3_set_node`), and the number shows in messages, so the code of the
/// same text would differ from job to job, and from copy to copy of a library, by that number
/// alone. The code is compiled with this id instead, and ytt's number is put back where a
/// name is shown (see [`super::run::LibEnv::shown_names`]): a template vendored in several
/// roots is compiled and parsed once per thread while its text is kept. ytt's numbers start
/// at 2 (its counter starts at 1 and counts before it names), so 0 is never one of them.
pub const CODE_TEMPLATE_ID: u32 = 0;

/// The prefix of the instruction functions' names in the code (`__ytt_tpl` [`CODE_TEMPLATE_ID`]
/// `_`), replaced by ytt's where a name is shown.
pub const CODE_PREFIX: &str = "__ytt_tpl0_";

/// Bytes of template text whose ready templates a worker's thread keeps: about 15 MB of
/// memory (a ready template takes about thirty times its text). On the corpus repository it
/// is enough for every copy of a template to find the first while the next root runs.
pub const WORKER_KEEPS: usize = 512 << 10;

/// What the compile of a template depends on besides its text and name.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub template_id: u32,
    /// A text template (else YAML).
    pub text: bool,
    /// The YAML was parsed strictly.
    pub strict: bool,
    pub ignore_unknown_comments: bool,
}

impl Variant {
    fn key(self) -> u64 {
        u64::from(self.template_id) << 3
            | u64::from(self.text) << 2
            | u64::from(self.strict) << 1
            | u64::from(self.ignore_unknown_comments)
    }
}

/// The template of `text` named `file` ready to run: this thread's when it made it under the
/// same `variant`, else `make`'s (kept when it succeeds).
pub fn shared(
    text: &Arc<str>,
    file: &Arc<str>,
    variant: Variant,
    make: impl FnOnce() -> Result<Ready, EvalError>,
) -> Result<Ready, EvalError> {
    let key = variant.key();
    if let Some(ready) = KEPT.with(|c| c.borrow_mut().get(text, file, key)) {
        return Ok(ready);
    }
    // What the compile keeps meanwhile (the code's rewrite, see `gocompat`) is released with
    // the text (see `shared_cache::release`).
    let mut ready = crate::shared_cache::derived_from(text, make)?;
    KEPT.with(|c| {
        let mut kept = c.borrow_mut();
        if kept.keeps(text) {
            // A copy is kept: its nodes lie together, where the parse left them among its own
            // temporaries (the static analysis walks the tree many times, faster so).
            ready.ast = Arc::new(AstModule::clone(&ready.ast));
            kept.put(text, file, key, ready.clone());
        }
    });
    Ok(ready)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::limits::Limits;
    use crate::template::compile::{compile_yaml, CompileOpts};
    use crate::yaml::parse::{parse, ParseOpts};

    fn variant(template_id: u32) -> Variant {
        Variant {
            template_id,
            text: false,
            strict: false,
            ignore_unknown_comments: false,
        }
    }

    /// [`shared`] of `text` named `file`, counting the templates it makes in `made`.
    fn ready(text: &Arc<str>, file: &str, v: Variant, made: &mut u32) -> Result<Ready, String> {
        let name: Arc<str> = Arc::from(file);
        shared(text, &name, v, || {
            *made += 1;
            let env = LibEnv::new(Limits::default());
            let ds = parse(text, &name, &ParseOpts::default()).map_err(|e| {
                EvalError::new(super::super::run::ErrorKind::YamlSyntax, e.message, None)
            })?;
            let compiled = compile_yaml(&ds, &name, v.template_id, CompileOpts::default())
                .map_err(|e| {
                    EvalError::new(super::super::run::ErrorKind::Syntax, e.message, None)
                })?;
            Ready::new(&env, compiled)
        })
        .map_err(|e| e.message)
    }

    /// `text` named `file` made ready twice (the second time from another copy of the text),
    /// with the count of templates made.
    fn made_twice(text: &str, file: &str, v: Variant) -> (Ready, Ready, u32) {
        keep(1 << 20);
        let mut made = 0;
        let first = ready(&Arc::from(text), file, v, &mut made).unwrap();
        let again = ready(&Arc::from(text), file, v, &mut made).unwrap();
        (first, again, made)
    }

    #[test]
    fn a_template_is_made_ready_once_per_text_name_and_variant() {
        let text: Arc<str> = Arc::from("#@ x = 1\na: #@ x * 2\n");
        let (first, again, mut made) = made_twice(&text, "a.yml", variant(3));
        assert_eq!(made, 1);
        assert!(Arc::ptr_eq(&first.ast, &again.ast));
        assert!(Arc::ptr_eq(&first.nodes, &again.nodes));
        // Another name, template id or text is made again.
        ready(&text, "b.yml", variant(3), &mut made).unwrap();
        let other_id = ready(&text, "a.yml", variant(4), &mut made).unwrap();
        ready(
            &Arc::from("#@ x = 2\na: #@ x\n"),
            "a.yml",
            variant(3),
            &mut made,
        )
        .unwrap();
        assert_eq!(made, 4);
        assert_ne!(first.names, other_id.names);
    }

    #[test]
    fn a_kept_template_is_asked_once_whether_it_needs_the_wide_globals() {
        let text = "#@ for i in range(2):\n- #@ i\n#@ end\n";
        let (first, again, made) = made_twice(text, "w.yml", variant(1));
        assert_eq!(made, 1);
        assert!(Arc::ptr_eq(&first.wide, &again.wide));
        let mut asked = 0;
        for r in [&first, &again] {
            // The answer the globals give (`stdlib`, a layer above, names `range` wide).
            let wide = *r.wide.get_or_init(|| {
                asked += 1;
                r.code.contains("range(")
            });
            assert!(wide);
        }
        assert_eq!(asked, 1);
    }

    #[test]
    fn the_code_prefix_is_the_one_the_compiler_gives_the_code_template_id() {
        let compiled = crate::template::compile::Instructions::new(CODE_TEMPLATE_ID);
        assert_eq!(compiled.prefix, CODE_PREFIX);
    }

    #[test]
    fn a_template_that_fails_is_not_kept() {
        keep(1 << 20);
        let text: Arc<str> = Arc::from("#@ x = = 1\na: 1\n");
        let mut made = 0;
        assert!(ready(&text, "bad.yml", variant(1), &mut made).is_err());
        assert!(ready(&text, "bad.yml", variant(1), &mut made).is_err());
        assert_eq!(made, 2);
    }
}
