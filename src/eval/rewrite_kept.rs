//! The `end`-block rewrite of a template's joined Starlark code ([`crate::template::rewrite`],
//! then the runtime rewrites of `nested_load`), kept by the thread that made it.
//!
//! Both rewrites depend on the code and the instruction names alone, and the same code comes
//! back within a run: the static analysis and the evaluation of one job compile the same
//! templates, and the roots of one family (configurations vendored side by side) hold the same
//! files. On the corpus repository about a third of the rewrites were of code rewritten
//! before by the same worker (`callgrind`: the rewrites took about 7 % of a worker's
//! instructions). A rewrite that fails is not kept (its error is made again).

use std::cell::RefCell;
use std::sync::Arc;

use crate::shared_cache::ByteLru;
use crate::template::rewrite::{rewrite, RewriteError, RewriteOpts};

/// Bytes of code whose rewrite one thread keeps, at most. The same job compiles a template
/// for its static analysis and then for its evaluation, one after the other, so a small cache
/// finds most repeats: with 4 MiB a lint of the corpus repository peaked 11 MiB higher.
const KEPT_BYTES: usize = 1 << 20;

/// The rewritten code and, for each of its lines, the line of the joined code it stems from
/// (1-based).
#[derive(Clone)]
pub struct Kept {
    pub code: Arc<str>,
    pub line_map: Arc<[u32]>,
}

thread_local! {
    /// The rewrites by the joined code and the names the rewrite puts in.
    static KEPT: RefCell<ByteLru<Kept>> = RefCell::new(ByteLru::new(KEPT_BYTES));
}

/// `source` rewritten with `opts`: this thread's earlier rewrite of the same code and names,
/// else a new one (kept).
pub fn rewritten(source: &str, opts: &RewriteOpts) -> Result<Kept, RewriteError> {
    let names = names_of(opts);
    if let Some(kept) = KEPT.with(|k| k.borrow_mut().get(source, &names, 0)) {
        return Ok(kept);
    }
    let out = rewrite(source, opts)?;
    let kept = Kept {
        code: Arc::from(crate::template::nested_load::rewrite_runtime(&out.code)),
        line_map: Arc::from(out.line_map),
    };
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.keeps(source) {
            k.put(&Arc::from(source), &Arc::from(names), 0, kept.clone());
        }
    });
    Ok(kept)
}

/// Every name of `opts`, one a line (a name never holds a line break).
fn names_of(opts: &RewriteOpts) -> String {
    let mut names = opts.while_iter.clone();
    if let Some(t) = &opts.tpl {
        for n in [
            &t.start_node,
            &t.set_node,
            &t.start_ctx,
            &t.end_ctx,
            &t.set_ctx_type,
        ] {
            names.push('\n');
            names.push_str(n);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::rewrite::TplNames;

    fn opts(id: u32) -> RewriteOpts {
        RewriteOpts {
            tpl: Some(TplNames::for_template(id)),
            ..RewriteOpts::default()
        }
    }

    #[test]
    fn a_kept_rewrite_is_the_rewrite_of_the_same_code_and_names() {
        let code = "def f():\n  x = 1\nend\nif True:\n  y = 2\nend";
        let first = rewritten(code, &opts(3)).unwrap();
        let again = rewritten(code, &opts(3)).unwrap();
        let direct = rewrite(code, &opts(3)).unwrap();
        assert_eq!(
            &*again.code,
            crate::template::nested_load::rewrite_runtime(&direct.code)
        );
        assert_eq!(&*again.line_map, direct.line_map.as_slice());
        assert!(Arc::ptr_eq(&first.code, &again.code));
        // Other names are another rewrite.
        let other = rewritten(code, &opts(4)).unwrap();
        assert!(!Arc::ptr_eq(&first.code, &other.code));
        assert_eq!(
            &*other.code,
            crate::template::nested_load::rewrite_runtime(&rewrite(code, &opts(4)).unwrap().code)
        );
    }

    #[test]
    fn a_failed_rewrite_fails_again() {
        let code = "if True:\n  x = 1\nend\nend";
        let e = rewritten(code, &opts(1)).err();
        assert_eq!(e, rewrite(code, &opts(1)).err());
        assert!(e.is_some());
        assert_eq!(rewritten(code, &opts(1)).err(), e);
    }
}
