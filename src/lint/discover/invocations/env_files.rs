//! The environment files of a repository: direnv's `.envrc` and the files it sources
//! (`.envrc.secrets`, `.envrc.secrets.template`), dotenv's `.env` and `.env.example`. For
//! `ytt --data-values-env PREFIX`, whose data values are the environment's `PREFIX_…`
//! variables (`PREFIX_registry__user` gives `registry.user`), the variables these files set
//! are the values the command gets (round sixteen's LR16A-2): a key none of them sets is not
//! given, where before any key might have been. Only the names are kept: a value may be a
//! secret, and the reader's own copy of a template holds other values anyway.

use super::resolve::DataValue;
use super::word::Word;
use super::ytt_args::ValueKind;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// The most environment files read from one repository.
pub const MAX_FILES: usize = 64;

/// The most names kept of one file.
const MAX_NAMES: usize = 256;

/// An environment file: its repository path and the names of the variables it sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvFile {
    pub path: String,
    pub names: Vec<String>,
}

/// Whether the repository path names an environment file.
pub fn is_env_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == ".envrc" || name == ".env" || name.starts_with(".envrc.") || name.starts_with(".env.")
}

/// The file at `path` with the names of the variables its text sets (`export NAME=…` or
/// `NAME=…`, one a line), in order, each once.
pub fn read(path: &str, text: &str) -> EnvFile {
    let mut names: Vec<String> = Vec::new();
    for line in text.lines().take(10_000) {
        let line = line.trim();
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
        if names.len() >= MAX_NAMES {
            break;
        }
    }
    EnvFile {
        path: path.to_string(),
        names,
    }
}

/// The keys `--data-values-env prefix` gets from the environment files of directory `dir` and
/// the directories above it (`registry.user` for `PREFIX_registry__user`), and the files that
/// set them; empty when none sets a variable of the prefix.
pub fn prefixed(files: &[EnvFile], dir: &str, prefix: &str) -> (Vec<String>, Vec<String>) {
    let mut keys: Vec<String> = Vec::new();
    let mut from: Vec<String> = Vec::new();
    for f in files {
        let at = paths::parent(&f.path);
        if !paths::is_within(dir, at) {
            continue;
        }
        let mut any = false;
        for name in &f.names {
            let Some(rest) = name
                .strip_prefix(prefix)
                .and_then(|r| r.strip_prefix('_'))
                .filter(|r| !r.is_empty())
            else {
                continue;
            };
            let key = rest.split("__").collect::<Vec<_>>().join(".");
            any = true;
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        if any {
            from.push(f.path.clone());
        }
    }
    (keys, from)
}

/// What `--data-values-env prefix`, run from `cwd`, gets: the keys the environment files
/// there set for the prefix, each given at run time, and the assumption that these are all;
/// `None` when none sets one (any key may be given).
pub fn given(prefix: &Word, cwd: &Word, files: &[EnvFile]) -> Option<(Vec<DataValue>, Assumption)> {
    let p = prefix.literal()?;
    let (keys, from) = prefixed(files, &cwd.repo_path()?, &p);
    if keys.is_empty() {
        return None;
    }
    let values = given_at_run_time(keys);
    let named: Vec<String> = from.iter().map(|f| format!("`{f}`")).collect();
    let assumption = Assumption::new(
        AssumptionKind::EnvironmentFiles,
        format!(
            "the environment's `{p}_` variables are the ones {} set{}",
            named.join(", "),
            if named.len() == 1 { "s" } else { "" }
        ),
    )
    .about(Subject::EnvironmentFiles {
        prefix: p.clone(),
        files: from,
    });
    Some((values, assumption))
}

/// The data values `--data-values-env` gives for `keys`, each known only at run time.
pub(super) fn given_at_run_time(keys: Vec<String>) -> Vec<DataValue> {
    keys.into_iter()
        .map(|key| DataValue {
            kind: ValueKind::String,
            key,
            value: None,
            written: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_files_are_direnv_s_and_dotenv_s() {
        for p in [
            ".envrc",
            "ops/.envrc.secrets.template",
            ".env",
            "app/.env.example",
        ] {
            assert!(is_env_file(p), "{p}");
        }
        for p in ["envrc", "ops/env.sh", ".environment", "a/.envoy.yaml"] {
            assert!(!is_env_file(p), "{p}");
        }
    }

    #[test]
    fn a_prefix_s_variables_are_its_keys() {
        let top = read(
            ".envrc",
            "source_env_if_exists .envrc.secrets\nexport CFG_registry__username=\nexport CFG_registry__username=again\nPATH=$PWD/bin:$PATH\n",
        );
        assert_eq!(top.names, ["CFG_registry__username", "PATH"]);
        let secrets = read(
            ".envrc.secrets.template",
            "export CFG_registry__password=\nexport CFGX_other=1\n# export CFG_commented=1\n",
        );
        let nested = read("other/.env", "CFG_only_there=1\n");
        let files = [top, secrets, nested];
        let (keys, from) = prefixed(&files, "deploy", "CFG");
        assert_eq!(keys, ["registry.username", "registry.password"]);
        assert_eq!(from, [".envrc", ".envrc.secrets.template"]);
        let (keys, _) = prefixed(&files, "other/app", "CFG");
        assert!(keys.contains(&"only_there".to_string()), "{keys:?}");
        assert_eq!(prefixed(&files, ".", "NONE"), (vec![], vec![]));
    }
}
