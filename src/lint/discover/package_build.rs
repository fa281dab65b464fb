//! Whether `kctrl package release` renders a PackageBuild's ytt paths as committed. kctrl
//! gives the template no data values, so what fails there fails the release; unless a file of
//! those paths is made before the release, by a step the repository runs (a Makefile's
//! `sed … values.yml.tpl > config/values.yml`). Such a file is not committed: the
//! repository's `.gitignore` names it. Then the ytt paths lack an input, as an assumption.

use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::scripts;
use crate::lint::repo::walk::RepoFile;
use crate::report::{Assumption, AssumptionKind};

/// The assumption that a file the repository's `.gitignore` files name under one of `inputs`
/// is made at run time, when there is one.
pub fn made_inside(repo: &Path, files: &[RepoFile], inputs: &[String]) -> Option<Assumption> {
    let ignores: Vec<(String, String)> = files
        .iter()
        .filter(|f| f.path == ".gitignore" || f.path.ends_with("/.gitignore"))
        .filter_map(|f| Some((f.path.clone(), scripts::read(repo, &f.path, 1 << 20)?)))
        .collect();
    in_rules(&ignores, inputs)
}

/// [`made_inside`] over `.gitignore` files given as (repository path, text).
fn in_rules(ignores: &[(String, String)], inputs: &[String]) -> Option<Assumption> {
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
                if is_within(&path, input) && path != *input && !path.contains('*') {
                    return Some(Assumption::new(
                        AssumptionKind::MissingInput,
                        format!(
                            "{path} is made before the release and not committed ({file}:{} ignores it); linted without it",
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

    #[test]
    fn a_file_the_repository_ignores_under_the_ytt_paths_is_made_before_the_release() {
        let ignores = vec![
            (
                ".gitignore".to_string(),
                "build/\n# made by make\nsvc/config/values.yml\n".to_string(),
            ),
            ("svc/.gitignore".to_string(), "*.tgz\nout/\n".to_string()),
        ];
        let a = in_rules(&ignores, &["svc/config".to_string()]);
        assert_eq!(
            a.map(|a| a.message),
            Some(
                "svc/config/values.yml is made before the release and not committed (.gitignore:3 ignores it); linted without it"
                    .to_string()
            )
        );
        assert_eq!(in_rules(&ignores, &["other".to_string()]), None);
        // A name without a slash counts in the ytt directory when it names a ytt file;
        // globs are not followed.
        assert_eq!(in_rules(&ignores, &["lib".to_string()]), None);
        let named = vec![(
            ".gitignore".to_string(),
            "values.yml
"
            .to_string(),
        )];
        assert_eq!(
            in_rules(&named, &["lib".to_string()]).map(|a| a.kind),
            Some(AssumptionKind::MissingInput)
        );
    }
}
