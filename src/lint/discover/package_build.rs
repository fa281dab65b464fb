//! Whether `kctrl package release` renders a PackageBuild's ytt paths as committed. kctrl
//! gives the template no data values, so what fails there fails the release; unless a file of
//! those paths is made before the release, by a step the repository runs (a Makefile's
//! `sed … values.yml.tpl > config/values.yml`). Such a file is not committed: the
//! repository's `.gitignore` names it. Then the ytt paths lack an input, as an assumption.
//! An ignored name that no command of the repository writes (the stock `pip-log.txt` of a
//! Python `.gitignore`) is made by nothing: no assumption (round fifty-one's N51-3).

use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::invocations::{scripts, writes};
use crate::lint::repo::walk::RepoFile;
use crate::report::{Assumption, AssumptionKind};

/// The assumption that a file the repository's `.gitignore` files name under one of `inputs`
/// is made at run time by a command of the repository, when there is one.
pub fn made_inside(
    repo: &Path,
    files: &[RepoFile],
    index: &Index,
    inputs: &[String],
) -> Option<Assumption> {
    let ignores: Vec<(String, String)> = files
        .iter()
        .filter(|f| f.path == ".gitignore" || f.path.ends_with("/.gitignore"))
        .filter_map(|f| Some((f.path.clone(), scripts::read(repo, &f.path, 1 << 20)?)))
        .collect();
    in_rules(&ignores, inputs, &|p| writes::writer(repo, files, index, p))
}

/// [`made_inside`] over `.gitignore` files given as (repository path, text), `writer` telling
/// where a command writes a path.
fn in_rules(
    ignores: &[(String, String)],
    inputs: &[String],
    writer: &dyn Fn(&str) -> Option<String>,
) -> Option<Assumption> {
    for (file, text) in ignores {
        let dir = paths::parent(file);
        for (n, line) in text.lines().map(str::trim).enumerate() {
            if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
                continue;
            }
            let rule = line.trim_end_matches('/');
            let rooted = rule.starts_with('/') || rule.contains('/');
            for input in inputs {
                // A rule with a slash is rooted at its file's directory; one without matches
                // a name at any depth, so in the input itself too: a ytt file's name only
                // (`values.yml`, not `build/` or `.DS_Store`).
                let path = match rooted {
                    true => paths::join(dir, rule.trim_start_matches('/')),
                    false if ytt_name(rule) => paths::join(input, rule),
                    false => continue,
                };
                if !is_within(&path, input) || path == *input || path.contains('*') {
                    continue;
                }
                if let Some(by) = writer(&path) {
                    return Some(Assumption::new(
                        AssumptionKind::MissingInput,
                        format!(
                            "{path} is made before the release ({by} writes it) and not committed ({file}:{} ignores it); linted without it",
                            n + 1
                        ),
                    ));
                }
            }
        }
    }
    None
}

/// Whether a file name is one of ytt's inputs by its extension.
fn ytt_name(name: &str) -> bool {
    [".yml", ".yaml", ".star", ".txt"]
        .iter()
        .any(|e| name.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path is written, by the same command.
    fn writes_all(_: &str) -> Option<String> {
        Some("Makefile:4".to_string())
    }

    #[test]
    fn a_file_the_repository_ignores_under_the_ytt_paths_is_made_before_the_release() {
        let ignores = vec![
            (
                ".gitignore".to_string(),
                "build/\n# made by make\nsvc/config/values.yml\n".to_string(),
            ),
            ("svc/.gitignore".to_string(), "*.tgz\nout/\n".to_string()),
        ];
        let a = in_rules(&ignores, &["svc/config".to_string()], &writes_all);
        assert_eq!(
            a.map(|a| a.message),
            Some(
                "svc/config/values.yml is made before the release (Makefile:4 writes it) and not committed (.gitignore:3 ignores it); linted without it"
                    .to_string()
            )
        );
        assert_eq!(
            in_rules(&ignores, &["other".to_string()], &writes_all),
            None
        );
        // A name without a slash counts in the ytt directory when it names a ytt file;
        // globs are not followed.
        assert_eq!(in_rules(&ignores, &["lib".to_string()], &writes_all), None);
        let named = vec![(
            ".gitignore".to_string(),
            "values.yml
"
            .to_string(),
        )];
        assert_eq!(
            in_rules(&named, &["lib".to_string()], &writes_all).map(|a| a.kind),
            Some(AssumptionKind::MissingInput)
        );
    }

    #[test]
    fn an_ignored_name_no_command_writes_is_made_by_nothing() {
        let ignores = vec![(
            ".gitignore".to_string(),
            "# Installer logs
pip-log.txt
svc/config/values.yml
"
            .to_string(),
        )];
        let inputs = ["svc/config".to_string()];
        assert_eq!(in_rules(&ignores, &inputs, &|_| None), None);
        // Only the name a command writes counts.
        let values = |p: &str| (p == "svc/config/values.yml").then(|| "gen.sh:2".to_string());
        let a = in_rules(&ignores, &inputs, &values).map(|a| a.message);
        assert!(
            a.as_deref().is_some_and(|m| m.starts_with(
                "svc/config/values.yml is made before the release (gen.sh:2 writes it)"
            )),
            "{a:?}"
        );
    }
}
