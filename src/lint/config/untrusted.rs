//! The repository is untrusted input (in CI it is often a pull request from a fork): the ytt
//! flags it gives in `.yttlint.yaml` may shape the evaluation, but not write files, read the
//! environment, or read files outside the repository. Checked here before anything is read:
//! output flags, environment flags (unless the command line allows the prefix with
//! `--allow-env`), symlink permissions, and every path (`-f`, `--data-values-file`,
//! `--data-value-file`) against the repository, through symlinks.

use std::path::Path;

use crate::files::paths;
use crate::lint::config::parse::split_lib_ref;
use crate::ytt_flags::TemplateArgs;

/// A flag the repository may not give: the index of the offending entry among the flags, and
/// why.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub entry: Option<usize>,
    pub message: String,
}

/// Whether the absolute `path` stays inside the repository `repo`: lexically, and, when it
/// exists, once every symlink on the way is resolved; `.git`, `.hg` and `.svn` are outside.
pub fn inside(repo: &Path, path: &Path) -> bool {
    let abs = paths::absolute(repo, path);
    if paths::relative(repo, &abs).is_none() {
        return false;
    }
    // Resolved once per thread and repository: every flag of every root is checked.
    let repo_real = crate::files::repo_policy::real(repo);
    match std::fs::canonicalize(&abs) {
        Ok(real) => crate::files::open::inside(repo, &repo_real, &real),
        // Not there (yet): where it would be is inside, unless in a version control
        // directory; reading it reports it missing.
        Err(_) => crate::files::open::inside(repo, repo, &abs),
    }
}

/// Whether `--allow-env` prefixes allow `prefix` (the prefix itself, or a longer one below it:
/// `APP_DB` reads only variables that `APP` allows).
fn env_allowed(prefix: &str, allowed: &[String]) -> bool {
    allowed
        .iter()
        .any(|a| prefix == a || prefix.starts_with(&format!("{a}_")))
}

/// Checks flags `parsed` from `raw`, read from the repository at `repo`; their paths are
/// relative to `base`. `allow_env` are the prefixes the command line allows.
pub fn check_args(
    parsed: &TemplateArgs,
    raw: &[String],
    base: &Path,
    repo: &Path,
    allow_env: &[String],
) -> Result<(), Refused> {
    let refuse = |flags: &[&str], value: Option<&str>, message: String| Refused {
        entry: entry_of(raw, flags, value),
        message,
    };
    for (set, flag) in [
        (parsed.output_files.as_deref(), "--output-files"),
        (
            parsed.emptied_output_directory.as_deref(),
            "--dangerous-emptied-output-directory",
        ),
    ] {
        if let Some(dir) = set {
            return Err(refuse(
                &[flag],
                Some(dir),
                format!("{flag} writes files; output flags are not accepted from the repository"),
            ));
        }
    }
    if let Some(dst) = parsed.allow_symlink_destination.first() {
        return Err(refuse(
            &["--allow-symlink-destination"],
            Some(dst),
            "--allow-symlink-destination lets symlinks lead anywhere; it is not accepted from the repository".into(),
        ));
    }
    if parsed.allow_all_symlinks {
        return Err(refuse(
            &["--dangerous-allow-all-symlink-destinations"],
            None,
            "--dangerous-allow-all-symlink-destinations lets symlinks lead anywhere; it is not accepted from the repository".into(),
        ));
    }
    for (prefixes, flag) in [
        (&parsed.dv_env, "--data-values-env"),
        (&parsed.dv_env_yaml, "--data-values-env-yaml"),
    ] {
        for prefix in prefixes {
            let name = split_lib_ref(prefix).1;
            if !env_allowed(name, allow_env) {
                return Err(refuse(
                    &[flag],
                    Some(prefix),
                    format!(
                        "{flag} {prefix} reads the environment, which the repository may not do; allow the prefix on the command line with --allow-env {name}"
                    ),
                ));
            }
        }
    }
    let outside = |flag: &str, arg: &str, path: &str| {
        if path.starts_with("http://") || path.starts_with("https://") {
            return Some(format!(
                "{flag} {arg} reads from the network; only files inside the repository are accepted"
            ));
        }
        (path != "-" && !inside(repo, &base.join(path))).then(|| {
            format!(
                "{flag} {arg} reads a file outside the repository; only files inside it are accepted"
            )
        })
    };
    for arg in &parsed.files {
        let path = arg.split_once('=').map_or(arg.as_str(), |(_, p)| p);
        if let Some(message) = outside("-f", arg, path) {
            return Err(refuse(&["-f", "--file"], Some(arg), message));
        }
    }
    for arg in &parsed.dv_files {
        let rest = split_lib_ref(arg).1;
        let path = rest.strip_prefix("+:").unwrap_or(rest);
        if let Some(message) = outside("--data-values-file", arg, path) {
            return Err(refuse(&["--data-values-file"], Some(arg), message));
        }
    }
    for arg in &parsed.dv_file {
        let path = arg.split_once('=').map_or(arg.as_str(), |(_, p)| p);
        if let Some(message) = outside("--data-value-file", arg, path) {
            return Err(refuse(&["--data-value-file"], Some(arg), message));
        }
    }
    Ok(())
}

/// The index of the entry of `raw` that gives one of `flags` (with `value`, when given):
/// `--flag value` (the flag's entry), `--flag=value`, or `-fvalue`.
fn entry_of(raw: &[String], flags: &[&str], value: Option<&str>) -> Option<usize> {
    raw.iter().enumerate().find_map(|(i, entry)| {
        let gives = flags.iter().any(|flag| {
            if entry == flag {
                return value.is_none_or(|v| raw.get(i + 1).is_some_and(|n| n == v));
            }
            let inline = if flag.starts_with("--") {
                entry.strip_prefix(&format!("{flag}="))
            } else {
                entry
                    .strip_prefix(flag)
                    .map(|r| r.strip_prefix('=').unwrap_or(r))
            };
            inline.is_some_and(|v| value.is_none_or(|want| v == want))
        });
        gives.then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn check(args: &[&str], allow_env: &[&str]) -> Result<(), Refused> {
        let raw: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let parsed = TemplateArgs::try_parse_from(
            std::iter::once("template".to_string()).chain(raw.clone()),
        )
        .unwrap();
        let repo = std::env::temp_dir();
        let allow: Vec<String> = allow_env.iter().map(|s| s.to_string()).collect();
        check_args(&parsed, &raw, &repo, &repo, &allow)
    }

    #[test]
    fn evaluation_flags_are_accepted() {
        assert_eq!(
            check(
                &[
                    "--ignore-unknown-comments",
                    "-f",
                    "config",
                    "--data-values-file",
                    "@lib:+:values.yml",
                    "-v",
                    "a=b",
                    "--data-value-file",
                    "cert=ca.pem",
                    "--strict",
                    "--file-mark",
                    "x.yml:type=data",
                ],
                &[]
            ),
            Ok(())
        );
    }

    #[test]
    fn output_environment_and_outside_paths_are_refused_naming_the_entry() {
        let cases: [(&[&str], usize, &str); 8] = [
            (&["--strict", "--output-files", "out"], 1, "writes files"),
            (
                &["--dangerous-emptied-output-directory=/tmp/x"],
                0,
                "writes files",
            ),
            (&["--data-values-env", "FAKE"], 0, "--allow-env FAKE"),
            (&["--data-values-env-yaml=@lib:FAKE"], 0, "--allow-env FAKE"),
            (&["-f", "env.txt=/proc/self/environ"], 0, "outside"),
            (&["--data-value-file", "k=/etc/passwd"], 0, "outside"),
            (&["--data-values-file", "+:../../x.yml"], 0, "outside"),
            (&["--allow-symlink-destination", "/"], 0, "anywhere"),
        ];
        for (args, entry, says) in cases {
            let r = check(args, &[]).unwrap_err();
            assert_eq!(r.entry, Some(entry), "{args:?}");
            assert!(r.message.contains(says), "{args:?}: {}", r.message);
        }
    }

    #[test]
    fn allowed_environment_prefixes() {
        assert_eq!(check(&["--data-values-env", "APP"], &["APP"]), Ok(()));
        assert_eq!(check(&["--data-values-env", "APP_DB"], &["APP"]), Ok(()));
        assert!(check(&["--data-values-env", "APPX"], &["APP"]).is_err());
    }
}
