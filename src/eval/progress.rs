//! Which file an evaluation is in: a watcher set around an evaluation hears of every file the
//! evaluation enters (a template, a Starlark module, a library's file) and returns to, so that
//! a process that dies inside an evaluation (out of memory, out of time) can be said to have
//! died in that file.

use std::cell::RefCell;

type Watcher = Box<dyn Fn(&str)>;

thread_local! {
    static WATCHER: RefCell<Option<Watcher>> = const { RefCell::new(None) };
    static FILES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Runs `body` with `watcher` told the name of each file evaluation enters or returns to.
pub fn watch<R>(watcher: impl Fn(&str) + 'static, body: impl FnOnce() -> R) -> R {
    let old = WATCHER.with(|w| w.replace(Some(Box::new(watcher))));
    let _restore = Restore(old);
    body()
}

/// Puts the previous watcher back, even when the body panics.
struct Restore(Option<Watcher>);

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
    FILES.with(|f| f.borrow_mut().push(file.to_string()));
    tell(file);
    Entered(())
}

impl Drop for Entered {
    fn drop(&mut self) {
        let back = FILES.with(|f| {
            let mut files = f.borrow_mut();
            files.pop();
            files.last().cloned()
        });
        // A panic leaves the watcher with the file it happened in.
        if let (Some(file), false) = (back, std::thread::panicking()) {
            tell(&file);
        }
    }
}

fn tell(file: &str) {
    WATCHER.with(|w| {
        if let Some(watcher) = w.borrow().as_ref() {
            watcher(file);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn the_watcher_hears_of_files_entered_and_returned_to() {
        let heard = Rc::new(RefCell::new(Vec::new()));
        let h = heard.clone();
        watch(
            move |f| h.borrow_mut().push(f.to_string()),
            || {
                let _a = enter("a.yml");
                {
                    let _b = enter("b.star");
                }
            },
        );
        let _unwatched = enter("c.yml");
        assert_eq!(*heard.borrow(), ["a.yml", "b.star", "a.yml"]);
    }
}
