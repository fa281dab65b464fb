//! The walk's errors (an entry it cannot read, an ignore file it cannot parse) in words that
//! name repository paths. The `ignore` crate's own text names absolute paths twice
//! (`/home/runner/work/app/app/closed: IO error for operation on
//! /home/runner/work/app/app/closed: Permission denied (os error 13)`), a machine path that
//! has no place in what the linter prints; here it is `closed: permission denied`.

use std::path::Path;

use crate::files::paths::{self, OUTSIDE};

/// `err` of a walk of `base` in words, its paths relative to `base`.
pub fn describe(base: &Path, err: &ignore::Error) -> String {
    match err {
        ignore::Error::Partial(errs) => errs
            .iter()
            .map(|e| describe(base, e))
            .collect::<Vec<_>>()
            .join("; "),
        ignore::Error::WithLineNumber { line, err } => {
            format!("line {line}: {}", describe(base, err))
        }
        ignore::Error::WithPath { path, err } => {
            format!("{}: {}", shown(base, path), describe(base, err))
        }
        ignore::Error::WithDepth { err, .. } => describe(base, err),
        ignore::Error::Loop { ancestor, child } => format!(
            "{} leads back to {}, a directory above it",
            shown(base, child),
            shown(base, ancestor)
        ),
        // The I/O error's own text may name the path again: only its kind is said.
        ignore::Error::Io(e) => io_words(e),
        ignore::Error::Glob { glob, err } => match glob {
            Some(g) => format!("invalid pattern {g:?}: {err}"),
            None => format!("invalid pattern: {err}"),
        },
        ignore::Error::UnrecognizedFileType(t) => format!("unknown file type {t:?}"),
        ignore::Error::InvalidDefinition => "invalid file type definition".to_string(),
    }
}

/// `path` relative to `base`, or [`OUTSIDE`].
fn shown(base: &Path, path: &Path) -> String {
    paths::relative(base, path).unwrap_or_else(|| OUTSIDE.to_string())
}

/// What went wrong, without the path: `permission denied`, `no such file or directory`.
fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        kind => kind.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn paths_are_the_repository_s_and_the_io_text_is_left_out() {
        let base = Path::new("/work/app");
        let io = std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "IO error for operation on /work/app/closed: Permission denied (os error 13)",
        );
        let err = ignore::Error::WithPath {
            path: PathBuf::from("/work/app/closed"),
            err: Box::new(ignore::Error::WithDepth {
                depth: 1,
                err: Box::new(ignore::Error::Io(io)),
            }),
        };
        assert_eq!(describe(base, &err), "closed: permission denied");
        let err = ignore::Error::Partial(vec![
            ignore::Error::WithPath {
                path: PathBuf::from("/work/app/.gitignore"),
                err: Box::new(ignore::Error::WithLineNumber {
                    line: 3,
                    err: Box::new(ignore::Error::Glob {
                        glob: Some("a[".into()),
                        err: "unclosed character class".into(),
                    }),
                }),
            },
            ignore::Error::Loop {
                ancestor: PathBuf::from("/work"),
                child: PathBuf::from("/work/app/up"),
            },
        ]);
        assert_eq!(
            describe(base, &err),
            ".gitignore: line 3: invalid pattern \"a[\": unclosed character class; up leads back to <outside the repository>, a directory above it"
        );
    }
}
