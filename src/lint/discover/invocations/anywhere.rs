//! A command whose every path is absolute reads the same files from any directory. A script
//! that sets `SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)` and `cd`s in one branch of an
//! `if` only (`else cd "$SCRIPT_DIR/../packaging"`) leaves its working directory unknown
//! after the `fi`, but `ytt -f "$SCRIPT_DIR/../config"` there names its input from the
//! script's own directory: the working directory does not matter to it, and the command is
//! resolved as written (round twelve's R12A-2).

use super::outputs::Stdin;
use super::resolve::{split_name, split_values_prefix};
use super::snippet::CALLER;
use super::word::{Word, REPO};
use super::ytt_args::YttArgs;

/// Whether `w` names the same path from any working directory: the repository's or the
/// file system's root, or the home directory. A path from the caller's directory is not
/// (the caller's directory is the unknown working directory).
fn absolute(w: &Word) -> bool {
    let prefix = w.literal_prefix();
    (prefix.starts_with(REPO) || prefix.starts_with('/') || w.in_home())
        && !prefix.starts_with(CALLER)
}

/// Whether the command reads every file by an absolute path (standard input aside), so that
/// an unknown working directory does not change what it reads. A command with no input path
/// at all does not count.
pub fn reads_absolute_paths(args: &YttArgs, stdin: Option<&Stdin>) -> bool {
    let files: Vec<Word> = args
        .files
        .iter()
        .map(|f| split_name(f).1)
        .filter(|p| p.literal().as_deref() != Some("-"))
        .collect();
    if files.is_empty() {
        return false;
    }
    let values = args.values_files.iter().map(|v| split_values_prefix(v).1);
    let value_files = args.value_files.iter().map(|(_, p)| p.clone());
    let piped = match stdin {
        Some(Stdin::File(w)) => Some(w.clone()),
        _ => None,
    };
    files
        .iter()
        .cloned()
        .chain(values)
        .chain(value_files)
        .chain(piped)
        .all(|w| absolute(&w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::ytt_args::{parse, Command};

    fn args(words: &[Word]) -> YttArgs {
        match parse(words) {
            Command::Render(a) => *a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn paths_from_the_script_s_directory_do_not_depend_on_the_working_directory() {
        let dir = |rest: &str| Word::lit(format!("{REPO}/cluster-setup/{rest}"));
        let a = args(&[
            Word::lit("-f"),
            dir("../kapp/config"),
            Word::lit("--data-values-file"),
            dir("values.yml"),
            Word::lit("-f"),
            Word::lit("-"),
        ]);
        assert!(reads_absolute_paths(&a, None));
        // One relative path, or a path from the caller's directory, reads from the unknown
        // working directory.
        let b = args(&[
            Word::lit("-f"),
            dir("config"),
            Word::lit("-f"),
            Word::lit("overlay.yml"),
        ]);
        assert!(!reads_absolute_paths(&b, None));
        let c = args(&[Word::lit("-f"), Word::lit(format!("{CALLER}/config"))]);
        assert!(!reads_absolute_paths(&c, None));
        let d = args(&[Word::lit("-f"), Word::lit("-")]);
        assert!(!reads_absolute_paths(&d, None));
    }
}
