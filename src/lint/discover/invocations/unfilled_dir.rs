//! A values directory committed without values (`app/values/.gitkeep`: git keeps no empty
//! directory) that a command of the repository fills (`cat > app/values/x.yaml <<EOF` in a
//! `configure.sh`): a `--data-values-file app/values/` reads what that command writes at run
//! time, as it would if the directory were not committed at all (round twenty-five's R25-1).
//! Without this, the committed state, which the documented order never reaches, was linted as
//! the input, and the schema's required values were certain errors.

use super::index::Index;
use super::made::{self, MadeAt};
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// The command that writes a file into the one directory of `found` when the directory holds
/// no data values file.
pub(super) fn filler<'a>(
    found: &[String],
    made: &'a [MadeAt],
    index: &Index,
) -> Option<&'a MadeAt> {
    let [dir] = found else {
        return None;
    };
    if !index.is_dir(dir) || index.files_under(dir).any(is_values_file) {
        return None;
    }
    made.iter().find(|m| {
        made::places(m, index)
            .iter()
            .filter_map(|(place, _)| place.repo_path())
            .any(|p| fills(&p, dir, &m.file))
    })
}

/// Whether the file `made` (a repository path, as the linter places the command that writes
/// it) lies in `dir`: there, or, written by a script inside the tree that holds `dir`, relative
/// to that tree's top, where the script runs from (`clusters/a/scripts/configure.sh` writing
/// `app/values/x.yaml` fills `clusters/a/app/values`).
fn fills(made: &str, dir: &str, script: &str) -> bool {
    if paths::is_within(made, dir) && made != dir {
        return true;
    }
    let within = paths::parent(made);
    let Some(top) = dir.strip_suffix(within).and_then(|t| t.strip_suffix('/')) else {
        return false;
    };
    within != "." && paths::is_within(script, top)
}

/// What is assumed of the values of `dir`, which `m` fills.
pub(super) fn assumption(dir: &str, m: &MadeAt) -> Assumption {
    Assumption::new(
        AssumptionKind::RuntimeValues,
        format!(
            "{dir}/ holds no values file in the repository; {} writes its values at run time, \
             which the linter does not have",
            m.described()
        ),
    )
}

/// Whether ytt reads a file of a `--data-values-file` directory: its YAML and JSON files.
fn is_values_file(path: &str) -> bool {
    [".yml", ".yaml", ".json"].iter().any(|e| path.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_directory_without_values_files_is_unfilled() {
        let kept = Index::new(["app/values/.gitkeep", "app/config/schema.yaml"]);
        let filled = Index::new(["app/values/.gitkeep", "app/values/x.yaml"]);
        let dir = vec!["app/values".to_string()];
        // Nothing writes into it: it is what it is.
        assert!(filler(&dir, &[], &kept).is_none());
        assert!(filler(&dir, &[], &filled).is_none());
        assert!(filler(&[], &[], &kept).is_none());
        assert!(is_values_file("a/b.yml") && is_values_file("b.json"));
        assert!(fills("app/values/x.yaml", "app/values", "configure.sh"));
        assert!(fills(
            "app/values/x.yaml",
            "clusters/a/app/values",
            "clusters/a/s/configure.sh"
        ));
        assert!(!fills(
            "app/values/x.yaml",
            "clusters/a/app/values",
            "clusters/b/s/configure.sh"
        ));
        assert!(!fills(
            "app/values/x.yaml",
            "clusters/a/app/other",
            "clusters/a/s/configure.sh"
        ));
        assert!(!fills(
            "x.yaml",
            "clusters/a/values",
            "clusters/a/s/configure.sh"
        ));
        assert!(!is_values_file(".gitkeep"));
    }
}
