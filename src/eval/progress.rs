//! Where an evaluation is: a watcher set around an evaluation hears of every file the
//! evaluation enters (a template, a Starlark module, a library's file) and returns to, and of
//! the template line of each YAML node it starts, so that a process that dies inside an
//! evaluation (out of memory, out of time) can be said to have died at that file and line.
//!
//! The line is the cheapest the evaluator knows: the last node a template started (a node's
//! value is evaluated after its start, so a value that never finishes is on its node's line;
//! code in a function is placed at the node that called it). A Starlark module (`.star`) has no
//! nodes: its findings name the file, at its first line.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// Told where the evaluation is.
pub trait Watcher {
    /// The evaluation is now in `file` (a library file's name), at `line` (0: not known yet);
    /// `None`: it is in no file (between files, or done).
    fn file(&self, file: Option<&str>, line: u32);
    /// The evaluation is now at `line` of the file it was last said to be in.
    fn line(&self, line: u32);
}

thread_local! {
    static WATCHER: RefCell<Option<Box<dyn Watcher>>> = const { RefCell::new(None) };
    /// The file the watcher was last told of (empty: none) and the line it was at.
    static CURRENT: RefCell<String> = const { RefCell::new(String::new()) };
    static LINE: Cell<u32> = const { Cell::new(0) };
    /// Where each file entered was when the next was entered, to go back to.
    static ENTERED: RefCell<Vec<(String, u32)>> = const { RefCell::new(Vec::new()) };
    /// The text of the `Arc<str>` a template last named [`CURRENT`] with (null when not
    /// known): the same template's next nodes are then compared by address alone.
    static SAME: Cell<*const u8> = const { Cell::new(std::ptr::null()) };
}

/// Runs `body` with `watcher` told where the evaluation is.
pub fn watch<R>(watcher: impl Watcher + 'static, body: impl FnOnce() -> R) -> R {
    let old = WATCHER.with(|w| w.replace(Some(Box::new(watcher))));
    let _restore = Restore(old);
    body()
}

/// Puts the previous watcher back, even when the body panics.
struct Restore(Option<Box<dyn Watcher>>);

impl Drop for Restore {
    fn drop(&mut self) {
        let old = self.0.take();
        WATCHER.with(|w| *w.borrow_mut() = old);
    }
}

/// The evaluation of `file` until the value is dropped.
pub struct Entered(());

/// Notes that the evaluation enters `file`, until the returned value is dropped.
pub fn enter(file: &str) -> Entered {
    let before = CURRENT.with(|c| c.borrow().clone());
    ENTERED.with(|e| e.borrow_mut().push((before, LINE.get())));
    tell_file(file, 0);
    Entered(())
}

impl Drop for Entered {
    fn drop(&mut self) {
        let back = ENTERED.with(|e| e.borrow_mut().pop());
        // A panic leaves the watcher with the place it happened in.
        if let (Some((file, line)), false) = (back, std::thread::panicking()) {
            tell_file(&file, line);
        }
    }
}

/// Notes that the evaluation is at `line` of `file` (a template's name, as it entered it):
/// called for every node a template starts, so the usual case (the same template as the last
/// call) costs a comparison of addresses.
pub fn at(file: &Arc<str>, line: u32) {
    let text = file.as_ptr();
    if SAME.get() != text {
        let same = CURRENT.with(|c| *c.borrow() == **file);
        if !same {
            tell_file(file, line);
            SAME.set(text);
            return;
        }
        SAME.set(text);
    }
    if LINE.get() != line {
        LINE.set(line);
        WATCHER.with(|w| {
            if let Some(watcher) = w.borrow().as_ref() {
                watcher.line(line);
            }
        });
    }
}

/// Tells the watcher that the evaluation is in `file` (empty: none) at `line`.
fn tell_file(file: &str, line: u32) {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        c.clear();
        c.push_str(file);
    });
    LINE.set(line);
    SAME.set(std::ptr::null());
    WATCHER.with(|w| {
        if let Some(watcher) = w.borrow().as_ref() {
            watcher.file((!file.is_empty()).then_some(file), line);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// Records what it hears as `file:line` (`-` for no file, `+N` for a line alone).
    struct Heard(Rc<RefCell<Vec<String>>>);

    impl Watcher for Heard {
        fn file(&self, file: Option<&str>, line: u32) {
            self.0
                .borrow_mut()
                .push(format!("{}:{line}", file.unwrap_or("-")));
        }
        fn line(&self, line: u32) {
            self.0.borrow_mut().push(format!("+{line}"));
        }
    }

    #[test]
    fn the_watcher_hears_of_files_entered_and_returned_to() {
        let heard = Rc::new(RefCell::new(Vec::new()));
        watch(Heard(heard.clone()), || {
            let _a = enter("a.yml");
            {
                let _b = enter("b.star");
            }
        });
        let _unwatched = enter("c.yml");
        assert_eq!(*heard.borrow(), ["a.yml:0", "b.star:0", "a.yml:0", "-:0"]);
    }

    #[test]
    fn lines_of_nodes_and_of_a_function_from_another_template() {
        let heard = Rc::new(RefCell::new(Vec::new()));
        let a: Arc<str> = Arc::from("a.yml");
        let lib: Arc<str> = Arc::from("lib.yml");
        watch(Heard(heard.clone()), || {
            let _a = enter("a.yml");
            at(&a, 3);
            at(&a, 3);
            at(&a, 5);
            {
                let _star = enter("s.star");
            }
            // A fragment function of lib.yml builds its nodes, then a.yml goes on.
            at(&lib, 2);
            at(&a, 6);
        });
        assert_eq!(
            *heard.borrow(),
            [
                "a.yml:0",
                "+3",
                "+5",
                "s.star:0",
                "a.yml:5",
                "lib.yml:2",
                "a.yml:6",
                "-:0"
            ]
        );
    }
}
