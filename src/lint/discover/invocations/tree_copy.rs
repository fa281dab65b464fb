//! What a `cp`, `mv` or `rsync` command copies into a directory, as written, for
//! [`super::assembled`] to lay out the folder a later `ytt -f` reads (and for
//! [`super::moved_tree`] to move files within the folder a later `ytt -f` reads): each source with its
//! trailing slash kept (rsync's `dir/` copies the directory's contents, `dir` the directory
//! itself; `dir/.` is the contents for `cp` too), whether directories are copied at all
//! (`-r`, `-a`), rsync's `--exclude` patterns, and the options whose effect on the layout is
//! not modelled (`--include`, `--filter`, `--relative`...), which the layout then assumes away.

use super::env::Env;
use super::shell::Interp;
use super::word::{Piece, Word};

/// The most copies recorded in one script.
const MAX_COPIES: usize = 1_000;

/// One copy command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeCopy {
    /// The line of the command.
    pub line: u32,
    /// `cp`, `mv` or `rsync`.
    pub by: String,
    /// Where it copies to, from the working directory made absolute (normalized).
    pub dest: Word,
    /// The destination is written as a directory (`build/pre/`, `-t build/pre`).
    pub dest_dir: bool,
    /// `cp -T`: the destination is the copy itself, never a directory to copy into.
    pub no_target_dir: bool,
    pub sources: Vec<Source>,
    /// Directories are copied (`-r`, `-R`, `-a`; `mv` always moves them).
    pub recursive: bool,
    /// rsync's `--exclude` patterns.
    pub excludes: Vec<String>,
    /// Options whose effect on the layout is not modelled, as written.
    pub unmodelled: Vec<String>,
}

/// One source of a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The path, from the working directory made absolute (normalized).
    pub path: Word,
    /// As written.
    pub written: String,
    /// Written with a trailing `/`.
    pub slash: bool,
    /// Written as `dir/.`: its contents, for `cp` and `rsync` alike.
    pub dot: bool,
}

/// rsync options that take a value as the next word.
const RSYNC_VALUED: [&str; 14] = [
    "--exclude",
    "--include",
    "--filter",
    "--exclude-from",
    "--include-from",
    "--files-from",
    "-f",
    "-e",
    "--rsh",
    "--chmod",
    "--chown",
    "--compare-dest",
    "--link-dest",
    "--copy-dest",
];

/// rsync options that change which files go where, beyond what is modelled.
const RSYNC_UNMODELLED: [&str; 8] = [
    "--include",
    "--filter",
    "--exclude-from",
    "--include-from",
    "--files-from",
    "-f",
    "--relative",
    "-R",
];

impl<'t> Interp<'t> {
    /// Records what a `cp`, `mv` or `rsync` command line copies.
    pub(super) fn tree_copy(&mut self, line: u32, fields: &[Word], env: &Env) {
        let Some(name) = fields.first().and_then(Word::literal) else {
            return;
        };
        let tool = name.rsplit('/').next().unwrap_or(&name).to_string();
        if tool != "cp" && tool != "mv" && tool != "rsync" {
            return;
        }
        let Some(cwd) = &env.cwd else {
            return;
        };
        if self.tree_copies.len() >= MAX_COPIES {
            return;
        }
        let Some(copy) = parse(line, &tool, &fields[1..], cwd) else {
            return;
        };
        self.tree_copies.push(copy);
    }
}

/// A copy command's arguments read.
fn parse(line: u32, tool: &str, args: &[Word], cwd: &Word) -> Option<TreeCopy> {
    let rsync = tool == "rsync";
    let mut plain: Vec<&Word> = Vec::new();
    let mut copy = TreeCopy {
        line,
        by: tool.to_string(),
        dest: Word::lit(""),
        dest_dir: false,
        no_target_dir: false,
        sources: Vec::new(),
        recursive: false,
        excludes: Vec::new(),
        unmodelled: Vec::new(),
    };
    let mut target: Option<Word> = None;
    let mut i = 0;
    let mut options = true;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        let text = a.literal();
        let prefix = a.literal_prefix();
        if !options || !prefix.starts_with('-') || prefix == "-" {
            plain.push(a);
            continue;
        }
        if prefix == "--" && text.as_deref() == Some("--") {
            options = false;
            continue;
        }
        let Some(text) = text else {
            // An option with a value known only at run time (`--exclude=$X`).
            copy.unmodelled.push(a.to_string());
            continue;
        };
        let (flag, value) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (text.clone(), None),
        };
        let mut value = value;
        let valued = if rsync {
            RSYNC_VALUED.contains(&flag.as_str())
        } else {
            flag == "-t" || flag == "--target-directory"
        };
        if valued && value.is_none() {
            if let Some(next) = args.get(i) {
                i += 1;
                if !rsync {
                    target = Some(next.clone());
                    continue;
                }
                value = Some(next.literal().unwrap_or_else(|| next.to_string()));
            }
        }
        if !rsync {
            if flag == "--target-directory" {
                // `--target-directory=DIR`: a directory to copy into.
                if let Some(v) = value {
                    target = Some(Word::lit(v));
                }
                continue;
            }
            match flag.as_str() {
                "--recursive" | "--archive" => copy.recursive = true,
                "--no-target-directory" => copy.no_target_dir = true,
                f if f.starts_with("--") => {}
                f => {
                    let letters = &f[1..];
                    copy.recursive |= letters.contains(['r', 'R', 'a']);
                    copy.no_target_dir |= letters.contains('T');
                }
            }
            continue;
        }
        if flag == "--exclude" {
            if let Some(v) = value {
                copy.excludes.push(v);
            }
            continue;
        }
        if RSYNC_UNMODELLED.contains(&flag.as_str()) {
            copy.unmodelled.push(match value {
                Some(v) => format!("{flag} {v}"),
                None => flag,
            });
            continue;
        }
        match flag.as_str() {
            "--recursive" | "--archive" => copy.recursive = true,
            f if f.starts_with("--") => {}
            f => {
                let letters = &f[1..];
                copy.recursive |= letters.contains(['r', 'a']);
                if letters.contains('R') {
                    copy.unmodelled.push(f.to_string());
                }
            }
        }
    }
    // `mv` moves directories without being asked to.
    copy.recursive |= tool == "mv";
    let (dest, sources): (&Word, &[&Word]) = match &target {
        Some(t) => {
            copy.dest_dir = true;
            (t, &plain[..])
        }
        None => {
            let (d, s) = plain.split_last()?;
            (*d, s)
        }
    };
    if sources.is_empty() || !dest.names_file() {
        return None;
    }
    // A remote side (`host:path`) is no folder of this machine.
    let remote = |w: &Word| {
        let p = w.literal_prefix();
        p.split('/').next().is_some_and(|first| first.contains(':'))
    };
    if rsync && (remote(dest) || sources.iter().any(|s| remote(s))) {
        return None;
    }
    copy.dest_dir |= ends_with(dest, "/");
    copy.dest = dest.relative_to(cwd);
    copy.sources = sources
        .iter()
        .map(|s| Source {
            path: s.relative_to(cwd),
            written: s.to_string(),
            slash: ends_with(s, "/"),
            dot: ends_with(s, "/.") || ends_with(s, "/./"),
        })
        .collect();
    Some(copy)
}

/// Whether a word's last piece is literal text ending with `end`.
fn ends_with(w: &Word, end: &str) -> bool {
    matches!(w.0.last(), Some(Piece::Lit { text, .. }) if text.ends_with(end))
}

#[cfg(test)]
mod tests {
    use super::super::word::REPO;
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::lit).collect()
    }

    fn top() -> Word {
        Word::lit(REPO)
    }

    #[test]
    fn rsync_keeps_trailing_slashes_and_excludes() {
        let args =
            words("-av --exclude=*/helm/ --exclude tmp ./external/_ytt_lib ./src/ build/pre");
        let c = parse(4, "rsync", &args, &top()).unwrap();
        assert!(c.recursive);
        assert_eq!(c.excludes, ["*/helm/", "tmp"]);
        assert_eq!(c.dest.repo_path().as_deref(), Some("build/pre"));
        let s: Vec<(Option<String>, bool)> = c
            .sources
            .iter()
            .map(|s| (s.path.repo_path(), s.slash))
            .collect();
        assert_eq!(
            s,
            [
                (Some("external/_ytt_lib".into()), false),
                (Some("src".into()), true)
            ]
        );
        assert!(c.unmodelled.is_empty());
        let c = parse(4, "rsync", &words("-aR --include=*.yml a/ b"), &top()).unwrap();
        assert_eq!(c.unmodelled, ["-aR", "--include *.yml"]);
        assert!(parse(4, "rsync", &words("-a a/ host:/srv"), &top()).is_none());
    }

    #[test]
    fn cp_reads_its_target_directory_and_recursion() {
        let c = parse(2, "cp", &words("-t out -r a b/."), &top()).unwrap();
        assert!(c.dest_dir && c.recursive);
        assert_eq!(c.dest.repo_path().as_deref(), Some("out"));
        assert_eq!(c.sources.len(), 2);
        assert!(c.sources[1].dot);
        let c = parse(2, "cp", &words("a.yml out"), &top()).unwrap();
        assert!(!c.recursive && !c.dest_dir);
    }
}
