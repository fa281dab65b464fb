//! ytt's rules for a symlink it lists: allowed only when its destination is under an
//! `--allow-symlink-destination` path (or with `--dangerous-allow-all-symlink-destinations`),
//! and its words when the destination cannot be resolved (Go's `filepath.EvalSymlinks`: the
//! first missing path of the chain, or a loop).

use std::path::{Path, PathBuf};

use super::{lexical_absolute, ReadPolicy};

/// ytt's check of a symlink against `--allow-symlink-destination`.
pub(super) fn allowed(p: &Path, policy: &ReadPolicy) -> Result<(), String> {
    if policy.allow_all_symlinks {
        return Ok(());
    }
    let dst = std::fs::canonicalize(p).map_err(|e| format!("Eval symlink: {}", io_msg(p, &e)))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    for allowed in &policy.allowed_destinations {
        let allowed = lexical_absolute(&cwd, Path::new(allowed));
        if dst.starts_with(&allowed) {
            return Ok(());
        }
    }
    Err(format!(
        "Expected symlink file '{}' -> '{}' to be allowed, but was not (hint: symlinks are disallowed as a security feature, use '--allow-symlink-destination' flags to override)",
        p.display(),
        dst.display()
    ))
}

/// The text of an error resolving the symlink `p`, as ytt (Go's `filepath.EvalSymlinks`)
/// words it: the first path of the chain that does not exist, or a loop.
fn io_msg(p: &Path, e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => format!(
            "lstat {}: no such file or directory",
            missing_in_chain(p).display()
        ),
        _ if crate::platform::fs::is_loop(e) => "EvalSymlinks: too many links".to_string(),
        _ => e.to_string(),
    }
}

/// The first path that does not exist on the way from the symlink `p` to its destination,
/// as `EvalSymlinks` names it (a link's target is taken from the link's directory).
fn missing_in_chain(p: &Path) -> PathBuf {
    let mut at = p.to_path_buf();
    for _ in 0..255 {
        let Ok(target) = std::fs::read_link(&at) else {
            break;
        };
        let dir = at.parent().unwrap_or(Path::new(""));
        let next = go_clean(&dir.join(target));
        // The first of its leading paths that is missing, if one is.
        let mut prefix = PathBuf::new();
        for c in next.components() {
            prefix.push(c);
            if std::fs::symlink_metadata(&prefix).is_err() {
                return prefix;
            }
        }
        at = next;
    }
    at
}

/// `p` with `.` and `x/..` removed without the disk (Go's `filepath.Clean`, for relative and
/// absolute paths).
fn go_clean(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().map(|c| c.as_os_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_cleaned_as_go_cleans_them() {
        assert_eq!(go_clean(Path::new("c/./x/../y")), PathBuf::from("c/y"));
        assert_eq!(go_clean(Path::new("../a/..")), PathBuf::from(".."));
        assert_eq!(go_clean(Path::new("/../a")), PathBuf::from("/a"));
    }

    #[test]
    #[cfg(unix)]
    fn a_refused_symlink_is_worded_as_ytt_words_it() {
        let base = std::env::temp_dir().join(format!("yttlint-symlink-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("c")).unwrap();
        let link = |to: &str, at: &str| crate::platform::fs::symlink(Path::new(to), &base.join(at));
        link("nowhere", "c/x").unwrap();
        link("y", "c/z").unwrap();
        link("z", "c/y").unwrap();
        let refused = |name: &str| allowed(&base.join(name), &ReadPolicy::default()).unwrap_err();
        assert_eq!(
            refused("c/x"),
            format!(
                "Eval symlink: lstat {}: no such file or directory",
                base.join("c/nowhere").display()
            )
        );
        assert_eq!(refused("c/y"), "Eval symlink: EvalSymlinks: too many links");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
