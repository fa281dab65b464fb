//! The shell options that change what a glob expands to: `shopt -s nullglob` (bash), `setopt
//! nullglob` / `setopt null_glob` (zsh, whose option names ignore case and underscores), and
//! zsh's `set -o nullglob`, make a glob that matches nothing expand to nothing (see
//! `glob_loop.rs`); `shopt -u`, `unsetopt` and `set +o` take it back. Bash's `set -o
//! nullglob` is an error that sets nothing, so `set -o` counts only in a zsh script (its
//! `#!` line names zsh). `shopt -s failglob` is not modelled: a loop over a glob that
//! matches nothing then does not run at all, and the glob's `input-missing` finding, which
//! the linter keeps, names the cause of the failure.

use super::env::Env;
use super::shell::Interp;
use super::word::Word;

/// Whether an option name is zsh's or bash's `nullglob`.
fn is_nullglob(name: &str) -> bool {
    let folded: String = name
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    folded == "nullglob"
}

/// What a command does to `nullglob`: `Some(true)` sets it, `Some(false)` unsets it.
fn nullglob_change(name: &str, args: &[String], zsh: bool) -> Option<bool> {
    let names = |from: usize| args.iter().skip(from).any(|a| is_nullglob(a));
    match name {
        "shopt" => {
            let set = match args.first().map(String::as_str) {
                Some("-s") => true,
                Some("-u") => false,
                _ => return None,
            };
            names(1).then_some(set)
        }
        "setopt" => names(0).then_some(true),
        "unsetopt" => names(0).then_some(false),
        "set" if zsh => {
            let mut change = None;
            let mut it = args.iter().peekable();
            while let Some(a) = it.next() {
                let set = match a.as_str() {
                    "-o" => true,
                    "+o" => false,
                    _ => continue,
                };
                if it.peek().is_some_and(|n| is_nullglob(n)) {
                    change = Some(set);
                }
            }
            change
        }
        _ => None,
    }
}

/// Whether a script's text starts with a `#!` line that runs zsh.
fn zsh_script(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("");
    first.starts_with("#!")
        && first
            .split(|c: char| c == '/' || c.is_whitespace())
            .any(|w| w == "zsh")
}

impl<'t> Interp<'t> {
    /// Follows a command that may set or unset `nullglob` (`name` its literal name, `args`
    /// its words); a word the linter does not know changes nothing.
    pub(super) fn shell_option(&self, name: &str, args: &[Word], env: &mut Env) {
        if !matches!(name, "shopt" | "setopt" | "unsetopt" | "set") {
            return;
        }
        let Some(args) = args.iter().map(Word::literal).collect::<Option<Vec<_>>>() else {
            return;
        };
        let text = match self.here {
            Some(p) => p.text.as_str(),
            None => std::str::from_utf8(self.src).unwrap_or(""),
        };
        if let Some(set) = nullglob_change(name, &args, zsh_script(text)) {
            env.nullglob = set;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn bash_and_zsh_spellings_of_nullglob() {
        assert_eq!(
            nullglob_change("shopt", &words("-s nullglob"), false),
            Some(true)
        );
        assert_eq!(
            nullglob_change("shopt", &words("-s extglob nullglob"), false),
            Some(true)
        );
        assert_eq!(
            nullglob_change("shopt", &words("-u nullglob"), false),
            Some(false)
        );
        assert_eq!(nullglob_change("shopt", &words("-s failglob"), false), None);
        assert_eq!(nullglob_change("shopt", &words("nullglob"), false), None);
        assert_eq!(
            nullglob_change("setopt", &words("NULL_GLOB"), false),
            Some(true)
        );
        assert_eq!(
            nullglob_change("unsetopt", &words("nullglob"), false),
            Some(false)
        );
        // Bash refuses `set -o nullglob`; zsh takes it.
        assert_eq!(nullglob_change("set", &words("-o nullglob"), false), None);
        assert_eq!(
            nullglob_change("set", &words("-e -o nullglob"), true),
            Some(true)
        );
        assert_eq!(
            nullglob_change("set", &words("+o nullglob"), true),
            Some(false)
        );
        assert_eq!(nullglob_change("set", &words("-o pipefail"), true), None);
    }

    #[test]
    fn a_zsh_script_is_known_by_its_first_line() {
        assert!(zsh_script("#!/bin/zsh\nset -o nullglob\n"));
        assert!(zsh_script("#!/usr/bin/env zsh\n"));
        assert!(!zsh_script("#!/bin/bash\n# zsh\n"));
        assert!(!zsh_script("set -o nullglob\n"));
    }
}
