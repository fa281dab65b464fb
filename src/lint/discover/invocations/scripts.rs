//! Shell scripts: `*.sh` and `*.bash` files, and files without an extension whose first line
//! is a `sh`, `bash`, `zsh` or `ksh` shebang. A script runs from wherever it is started (the
//! repository root, its own directory, or a CI build directory holding the repository).

use std::path::Path;

use super::snippet::{Snippet, CALLER};
use super::word::Word;

/// Whether a repository file may be a shell script, by its name alone (the shebang of a file
/// without an extension is read by [`snippet`]).
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.ends_with(".sh") || name.ends_with(".bash") {
        return true;
    }
    !name.contains('.')
}

/// Whether `text` starts with a shebang of a POSIX-like shell.
pub fn has_shell_shebang(text: &str) -> bool {
    let Some(first) = text.lines().next() else {
        return false;
    };
    let Some(cmd) = first.strip_prefix("#!") else {
        return false;
    };
    let mut words = cmd.split_whitespace();
    let Some(program) = words.next() else {
        return false;
    };
    let program = match program.rsplit('/').next() {
        Some("env") => words.find(|w| !w.starts_with('-')).unwrap_or(""),
        Some(p) => p,
        None => "",
    };
    matches!(program, "sh" | "bash" | "zsh" | "ksh" | "dash")
}

/// Whether the file at repository-relative `path`, with `text`, is a shell script.
pub fn is_script(path: &str, text: &str) -> bool {
    path.ends_with(".sh") || path.ends_with(".bash") || has_shell_shebang(text)
}

/// The script at repository-relative `path` with its text, if it is one.
pub fn snippet(path: &str, text: &str) -> Option<Snippet> {
    if !is_script(path, text) {
        return None;
    }
    Some(Snippet::new(path, 0, text.to_string(), Word::lit(CALLER)))
}

/// Reads a candidate file, at most `max` bytes; `None` for unreadable or binary files.
pub fn read(repo: &Path, path: &str, max: usize) -> Option<String> {
    let abs = repo.join(path);
    // One `lstat`: a file that is no link is its own destination, a link's destination is
    // looked at too (its kind, its size). The read checks the open handle either way.
    let own = std::fs::symlink_metadata(&abs).ok()?;
    let destination = if crate::platform::fs::is_link(&own) {
        std::fs::metadata(&abs).ok()?
    } else {
        own.clone()
    };
    if !destination.is_file() || destination.len() > max as u64 {
        return None;
    }
    let policy = crate::files::repo_policy::of(repo);
    let bytes = crate::files::read_with(&abs, &own, &policy).ok()?.ok()?;
    if bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shebangs_of_shells() {
        assert!(has_shell_shebang("#!/bin/bash\n"));
        assert!(has_shell_shebang("#!/usr/bin/env -S bash -e\n"));
        assert!(has_shell_shebang("#! /bin/sh\n"));
        assert!(!has_shell_shebang("#!/usr/bin/env python3\n"));
        assert!(!has_shell_shebang("echo hi\n"));
        assert!(candidate("ci/configure"));
        assert!(candidate("hack/build.sh"));
        assert!(!candidate("config/values.yml"));
        assert!(snippet("ci/configure", "#!/bin/bash\nytt -f x\n").is_some());
        assert!(snippet("ci/README", "ytt -f x\n").is_none());
    }
}
