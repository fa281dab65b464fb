//! The files that may hold `ytt` commands (scripts, Makefiles, CI files, READMEs) that
//! discovery could not read: permission denied, not UTF-8, too large, a symlink that leads out
//! of the repository or nowhere, a named pipe or device. Each is a `script-unread` note naming
//! the file and why (never its content), and discovery goes on with the others: the commands
//! it holds are not known, so the roots they run are not learned from it.
//!
//! A file that is not text is only said when it mentions `ytt` (a binary of the repository is
//! no script); a file too large only when it is one by its name or its `#!` line.

use std::io::Read;
use std::path::Path;

use super::index::Index;
use crate::report::{Diagnostic, Rule, Span};

/// Why the walked regular file `path` (worth reading) was not read as text, at most `max`
/// bytes; `None` when it was, or there is nothing to say.
pub fn why_file(repo: &Path, path: &str, max: usize) -> Option<String> {
    let abs = repo.join(path);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.is_file() {
        return why_entry(repo, path, None);
    }
    if meta.len() > max as u64 {
        let named = path.ends_with(".sh") || path.ends_with(".bash");
        return (named || super::make::candidate(path) || starts_with_shebang(&abs))
            .then(|| format!("it is larger than {} KiB", max >> 10));
    }
    let policy = crate::files::ReadPolicy::repository(repo);
    let bytes = match crate::files::read_with(&abs, &meta, &policy) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => return why_entry(repo, path, None),
        Err(_) => return Some(io_reason(&abs)),
    };
    let mentions = bytes.windows(3).any(|w| w == b"ytt");
    if bytes.contains(&0) {
        return mentions.then(|| "it holds a NUL byte, as a binary file does".to_string());
    }
    match std::str::from_utf8(&bytes) {
        Ok(_) => None,
        Err(e) => mentions.then(|| {
            format!(
                "it is not UTF-8 (an invalid byte at offset {})",
                e.valid_up_to()
            )
        }),
    }
}

/// Why the walked entry `path`, not a regular file (a symlink, a named pipe, a device), was
/// not read; `None` for a link to a file of the repository (read at the link, `links.rs`),
/// when `index` says which files the walk listed.
pub fn why_entry(repo: &Path, path: &str, index: Option<&Index>) -> Option<String> {
    let abs = repo.join(path);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !crate::platform::fs::is_link(&meta) {
        let kind = crate::files::open::special_kind(meta.file_type()).unwrap_or("not a file");
        return Some(format!("it is {kind}, not a regular file"));
    }
    let (Ok(real), Ok(top)) = (std::fs::canonicalize(&abs), std::fs::canonicalize(repo)) else {
        return Some("it is a symlink that leads nowhere".to_string());
    };
    let Ok(inside) = real.strip_prefix(&top) else {
        return Some("it is a symlink that leads outside the repository".to_string());
    };
    let target = inside.to_str().map(|t| t.replace('\\', "/"));
    if let (Some(index), Some(t)) = (index, &target) {
        if index.is_file(t) {
            return None;
        }
    }
    let what = match std::fs::metadata(&real) {
        Ok(m) if m.is_file() => "a file the linter does not read (ignored or excluded)",
        Ok(m) if m.is_dir() => "a directory",
        _ => "something that is not a regular file",
    };
    Some(format!("it is a symlink to {what}"))
}

/// Whether the walked entry `path`, which is not a regular file (a link, a named pipe), is
/// worth a note: a script by its extension or place (`hack/`, `scripts/`, `bin/`, `ci/`), a
/// Makefile or a CI file. A link named `LICENSE` or `README.md` to a file above the
/// repository is common in a sub-project and holds no command it runs.
pub fn worth_a_note(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let in_scripts = dir.split('/').any(|d| {
        matches!(
            d,
            "hack" | "scripts" | "script" | "bin" | "ci" | ".ci" | "tools"
        )
    });
    name.ends_with(".sh")
        || name.ends_with(".bash")
        || super::make::candidate(path)
        || super::ci::is_workflow(path)
        || super::ci::is_action(path)
        || super::ci::is_gitlab(path)
        || (in_scripts && !name.contains('.'))
}

/// The `script-unread` finding of `path`.
pub fn finding(path: &str, why: &str) -> Diagnostic {
    let mut d = Diagnostic::new(
        Rule::ScriptUnread,
        format!(
            "{path} may hold ytt commands, but it was not read: {why}; the roots it runs are not learned from it"
        ),
    )
    .at(Span::point(path, 1, 1));
    d.root = Some(path.to_string());
    d
}

/// Why opening `abs` failed, in words that name no path.
fn io_reason(abs: &Path) -> String {
    match crate::platform::fs::open_read_nofollow(abs) {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            "permission denied".to_string()
        }
        _ => "it cannot be read".to_string(),
    }
}

/// Whether the file `abs` starts with `#!` (read without following a link).
fn starts_with_shebang(abs: &Path) -> bool {
    let Ok(file) = crate::platform::fs::open_read_nofollow(abs) else {
        return false;
    };
    let mut head = [0u8; 2];
    file.take(2).read_exact(&mut head).is_ok() && head == *b"#!"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binaries_that_do_not_mention_ytt_are_no_scripts() {
        let dir = std::env::temp_dir().join(format!("yttlint-unread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("tool"), b"\x7fELF\0\0binary").unwrap();
        std::fs::write(dir.join("render"), b"#!/bin/sh\nytt -f config\n\0").unwrap();
        std::fs::write(dir.join("latin.sh"), b"# caf\xe9\nytt -f config\n").unwrap();
        std::fs::write(dir.join("big.sh"), "#\n".repeat(600)).unwrap();
        std::fs::write(dir.join("big"), "x".repeat(1200)).unwrap();
        std::fs::write(dir.join("ok.sh"), "ytt -f config\n").unwrap();
        let why = |p: &str| why_file(&dir, p, 1024);
        assert_eq!(why("tool"), None);
        assert_eq!(
            why("render").as_deref(),
            Some("it holds a NUL byte, as a binary file does")
        );
        assert_eq!(
            why("latin.sh").as_deref(),
            Some("it is not UTF-8 (an invalid byte at offset 5)")
        );
        assert_eq!(why("big.sh").as_deref(), Some("it is larger than 1 KiB"));
        assert_eq!(why("big"), None, "no script by its name or first line");
        assert_eq!(why("ok.sh"), None);
        assert_eq!(why("missing.sh"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
