//! The directory a Makefile's recipes run in (round fifteen's LR15A-1). `make` reads the
//! `Makefile` of the directory it runs in (or the one `make -C DIR` enters), and runs each
//! recipe there: a recipe's `ytt -f config` reads `config` beside the Makefile, and when
//! nothing there holds it and no command of the repository makes it, ytt stops with "no such
//! file or directory", as for a script whose other commands show where it runs (see
//! `settled.rs`). A sample's Makefile copied from a sibling that has a `config/` folder is
//! the case met.
//!
//! Not for a file that other Makefiles include (`common.mk`: its recipes run where the
//! including Makefile is), nor for a Makefile that a command of the repository names with
//! `make -f PATH` (its recipes run where that command runs), nor for a recipe that changes
//! directory first (`cd sub && ytt ...`).

use super::snippet::Snippet;
use super::word::Word;

/// The longest text read for `make -f` (a file longer is not searched).
const MAX_TEXT: usize = 1 << 20;

/// The Makefiles (repository paths) that a text of the repository runs with `make -f PATH`
/// (`--file`, `--makefile`), as that text names them, `./` left out.
pub fn named_with_f<'t>(texts: impl Iterator<Item = &'t str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Every word `is_make` takes holds `make` or `MAKE`: only the lines that hold either are
    // split, found by searching the whole text for the two (most lines of most texts hold
    // neither).
    let lower = memchr::memmem::Finder::new("make");
    let upper = memchr::memmem::Finder::new("MAKE");
    for text in texts.filter(|t| t.len() <= MAX_TEXT) {
        for line in lines_with(text, &lower, &upper) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(at) = words.iter().position(|w| is_make(w)) else {
                continue;
            };
            let mut rest = words[at + 1..].iter();
            while let Some(w) = rest.next() {
                let named = match *w {
                    "-f" | "--file" | "--makefile" => rest.next().copied(),
                    _ => w
                        .strip_prefix("--file=")
                        .or_else(|| w.strip_prefix("--makefile="))
                        .or_else(|| w.strip_prefix("-f").filter(|v| !v.is_empty())),
                };
                if let Some(p) = named {
                    let p = p.trim_matches(|c| c == '"' || c == '\'');
                    let p = p.strip_prefix("./").unwrap_or(p).to_string();
                    if !p.is_empty() && !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// The lines of `text` (as `str::lines` cuts them) that hold a match of `lower` or `upper`,
/// in order, each once.
fn lines_with<'t>(
    text: &'t str,
    lower: &memchr::memmem::Finder<'_>,
    upper: &memchr::memmem::Finder<'_>,
) -> Vec<&'t str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut from = 0;
    // The next match of each at or after `from` (`None`: no more).
    let mut next_lower = lower.find(bytes);
    let mut next_upper = upper.find(bytes);
    while from < bytes.len() {
        if next_lower.is_some_and(|at| at < from) {
            next_lower = lower.find(&bytes[from..]).map(|at| at + from);
        }
        if next_upper.is_some_and(|at| at < from) {
            next_upper = upper.find(&bytes[from..]).map(|at| at + from);
        }
        let Some(hit) = next_lower.into_iter().chain(next_upper).min() else {
            break;
        };
        let start = memchr::memrchr(b'\n', &bytes[..hit]).map_or(0, |at| at + 1);
        let end = memchr::memchr(b'\n', &bytes[hit..]).map_or(bytes.len(), |at| at + hit);
        // Cut at ASCII bytes: always a character boundary.
        let line = &text[start..end];
        let ended = end < bytes.len();
        lines.push(line.strip_suffix('\r').filter(|_| ended).unwrap_or(line));
        from = end + 1;
    }
    lines
}

/// Whether a word runs make.
fn is_make(w: &str) -> bool {
    matches!(w, "make" | "gmake" | "$(MAKE)" | "${MAKE}") || w.ends_with("/make")
}

/// Whether the command `cwd` of `snippet` runs in the Makefile's own directory, known: the
/// snippet is a Makefile's recipe (`Makefile`, `makefile`, `GNUmakefile`; not an included
/// `*.mk`), the command has not changed directory, and no command of the repository runs the
/// Makefile from elsewhere with `make -f` (`named`, see [`named_with_f`]).
pub fn runs_here(snippet: &Snippet, cwd: Option<&Word>, named: &[String]) -> bool {
    let file = snippet.file.as_str();
    let name = file.rsplit('/').next().unwrap_or(file);
    if !matches!(name, "Makefile" | "makefile" | "GNUmakefile") {
        return false;
    }
    if cwd != Some(&snippet.cwd) {
        return false;
    }
    // A name that could be this Makefile's (`make -f deploy/Makefile`, or
    // `-f ../a/Makefile` from a sibling): its recipes may run elsewhere.
    !named.iter().any(|n| {
        let tail = n.trim_start_matches("../");
        n == file || tail == file || (tail.contains('/') && file.ends_with(&format!("/{tail}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::word::REPO;

    fn recipe(file: &str, dir: &str) -> Snippet {
        Snippet::new(
            file,
            0,
            "ytt -f config\n".into(),
            Word::lit(format!("{REPO}/{dir}")),
        )
    }

    #[test]
    fn a_makefile_s_recipe_runs_in_its_directory_unless_run_from_elsewhere() {
        let s = recipe("samples/a/Makefile", "samples/a");
        let here = Word::lit(format!("{REPO}/samples/a"));
        assert!(runs_here(&s, Some(&here), &[]));
        // A recipe that changed directory first.
        let sub = Word::lit(format!("{REPO}/samples/a/sub"));
        assert!(!runs_here(&s, Some(&sub), &[]));
        assert!(!runs_here(&s, None, &[]));
        // An included file runs where the including Makefile is.
        let mk = recipe("samples/a/common.mk", "samples/a");
        assert!(!runs_here(&mk, Some(&here), &[]));
        // Run with `make -f` by another file.
        let named = named_with_f(["cd ci && make -f ../samples/a/Makefile deploy\n"].into_iter());
        assert_eq!(named, ["../samples/a/Makefile"]);
        assert!(!runs_here(&s, Some(&here), &named));
        let named = named_with_f(["\t$(MAKE) --file=./samples/a/Makefile x\n"].into_iter());
        assert_eq!(named, ["samples/a/Makefile"]);
        assert!(!runs_here(&s, Some(&here), &named));
        // Another Makefile named: this one still runs here.
        let named = named_with_f(["make -f other/Makefile\nmake -C samples/a\n"].into_iter());
        assert!(runs_here(&s, Some(&here), &named));
    }

    #[test]
    fn the_lines_searched_are_those_str_lines_gives_that_mention_make() {
        let lower = memchr::memmem::Finder::new("make");
        let upper = memchr::memmem::Finder::new("MAKE");
        let text = "make a\r\nnone\n\tx $(MAKE) -f b make\n\nlast make\r";
        let by_lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("make") || l.contains("MAKE"))
            .collect();
        assert_eq!(lines_with(text, &lower, &upper), by_lines);
        assert_eq!(by_lines.len(), 3);
        assert!(lines_with("no such word\n", &lower, &upper).is_empty());
        assert_eq!(lines_with("MAKE\n", &lower, &upper), ["MAKE"]);
        assert_eq!(lines_with("é make", &lower, &upper), ["é make"]);
        // Both in one line: the line once.
        let named = named_with_f(["make -f a MAKE -f b\n$(MAKE) -fc\n"].into_iter());
        assert_eq!(named, ["a", "b", "c"]);
    }
}
