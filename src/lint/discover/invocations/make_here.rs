//! The directories a Makefile names with make's own idioms, known where the linter knows where
//! the recipe runs: `$(CURDIR)` and `$(shell pwd)` (the directory make runs in, the Makefile's
//! as the recipes are read), the Makefile's own directory (`$(shell dirname $(realpath
//! $(firstword $(MAKEFILE_LIST))))`, `$(dir $(abspath $(lastword $(MAKEFILE_LIST))))`,
//! `$(patsubst %/,%,$(dir …))`), and the repository's top (`$(shell git rev-parse
//! --show-toplevel)`). Round thirty's R30-3: values files named from them were taken as given
//! at run time.
//!
//! `$(firstword $(MAKEFILE_LIST))` is the Makefile make was asked to read, which an included
//! `*.mk` file is not; `$(lastword …)` is the file being read only until it includes another,
//! so it is known only in a Makefile that includes none.

use super::word::{Word, REPO};

/// What the idioms name for one Makefile.
pub struct Here {
    /// Where its recipes run, and the directory it is in.
    pub dir: Word,
    /// It is the Makefile make reads first (not an included `*.mk`).
    pub first: bool,
    /// It includes no other makefile.
    pub last: bool,
}

impl Here {
    /// For the Makefile at `path` with `text`, run in `dir`.
    pub fn of(path: &str, text: &str, dir: Word) -> Here {
        let includes = text.lines().any(|l| {
            let l = l.trim_start();
            ["include ", "-include ", "sinclude "]
                .iter()
                .any(|p| l.starts_with(p))
        });
        Here {
            dir,
            first: !path.ends_with(".mk"),
            last: !includes,
        }
    }

    /// The directory the reference `r` (the text inside `$(…)`) names, and whether make's
    /// `dir` function leaves a `/` after it; `None` when it is no idiom known here.
    pub fn names(&self, r: &str) -> Option<(Word, bool)> {
        let r = r.split_whitespace().collect::<Vec<_>>().join(" ");
        match r.as_str() {
            "CURDIR" | "shell pwd" => return Some((self.dir.clone(), false)),
            "shell git rev-parse --show-toplevel" => return Some((Word::lit(REPO), false)),
            _ => {}
        }
        let lists = [
            ("firstword", self.first),
            ("lastword", self.last && self.first),
        ];
        for (word, _) in lists.iter().filter(|(_, known)| *known) {
            let list = format!("$({word} $(MAKEFILE_LIST))");
            for f in ["realpath", "abspath"] {
                let file = format!("$({f} {list})");
                if r == format!("shell dirname {file}")
                    || r == format!("patsubst %/,%,$(dir {file})")
                {
                    return Some((self.dir.clone(), false));
                }
                if r == format!("dir {file}") {
                    return Some((self.dir.clone(), true));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_makefile_s_own_directory_by_make_s_idioms() {
        let ops = Word::lit(format!("{REPO}/ops"));
        let here = Here::of("ops/Makefile", "X := 1\n", ops.clone());
        let at = |slash| Some((ops.clone(), slash));
        assert_eq!(
            here.names("shell dirname $(realpath $(firstword $(MAKEFILE_LIST)))"),
            at(false)
        );
        assert_eq!(
            here.names("shell  dirname $(realpath $(lastword $(MAKEFILE_LIST)))"),
            at(false)
        );
        assert_eq!(
            here.names("patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST))))"),
            at(false)
        );
        assert_eq!(
            here.names("dir $(abspath $(lastword $(MAKEFILE_LIST)))"),
            at(true)
        );
        assert_eq!(here.names("CURDIR"), at(false));
        assert_eq!(
            here.names("shell git rev-parse --show-toplevel"),
            Some((Word::lit(REPO), false))
        );
        assert_eq!(here.names("shell date"), None);
        // An included file is not the first of the list; after an include, the last is
        // another file.
        let mk = Here::of("ops/rules.mk", "", ops.clone());
        assert!(mk
            .names("shell dirname $(realpath $(firstword $(MAKEFILE_LIST)))")
            .is_none());
        let including = Here::of("Makefile", "include rules.mk\n", Word::lit(REPO));
        assert!(including
            .names("shell dirname $(realpath $(lastword $(MAKEFILE_LIST)))")
            .is_none());
        assert!(including
            .names("shell dirname $(realpath $(firstword $(MAKEFILE_LIST)))")
            .is_some());
    }
}
