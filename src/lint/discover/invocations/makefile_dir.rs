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
    // Every word `is_make` takes holds `make` or `MAKE`: a line without either needs no split.
    let may_run_make = |t: &str| t.contains("make") || t.contains("MAKE");
    for text in texts.filter(|t| t.len() <= MAX_TEXT && may_run_make(t)) {
        for line in text.lines().filter(|l| may_run_make(l)) {
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
}
