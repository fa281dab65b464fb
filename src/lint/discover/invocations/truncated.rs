//! A command whose standard output a `>` redirection writes into its own inputs (`ytt -f
//! config > config/rendered.yaml`, a script that regenerates a file inside the folder it
//! renders): the shell empties the file before ytt starts, so ytt reads it empty, whatever the
//! repository holds there (the command's last output, committed). The command is linted
//! without it, as ytt runs it: a file mark `NAME:exclude=true` under the name ytt gives the
//! file in that folder. An append (`>> f`) leaves the file as it is, and another command's
//! output is that command's (round fifty-one's N51-1: the committed output read as an input
//! gave a false `duplicate-object`). A file `-f` names itself and the redirection overwrites
//! (`ytt -f pipeline.yml -f lib.yml > pipeline.yml`, round sixteen) is the page's slip, not a
//! folder's leftover: it is still linted as committed, the template the author meant.

use crate::files::paths::is_within;

use super::resolve::{Invocation, Origin, Repo};
use super::shell::Call;
use super::word::Word;

/// The repository files that the `>` redirection of the command `call` (at `origin`) empties,
/// the paths it names from the caller's directory taken from `root`.
pub fn emptied(call: &Call, origin: &Origin, root: &Word, repo: &Repo) -> Vec<String> {
    let at = call
        .written
        .clone()
        .unwrap_or_else(|| (origin.file.clone(), call.line));
    repo.made
        .iter()
        .filter(|m| m.file == origin.file && m.made.line == call.line && m.made.by == "ytt")
        .filter(|m| {
            m.made.stdout.as_ref().is_some_and(|s| {
                !s.appended
                    && s.written
                        .clone()
                        .unwrap_or_else(|| (m.file.clone(), m.made.line))
                        == at
            })
        })
        .filter_map(|m| super::resolve::rebase(&m.made.path, root).repo_path())
        .filter(|p| repo.index.exists(p))
        .collect()
}

/// Leaves out of `inv` the repository files in `emptied` (the paths, repository-relative, its
/// own `>` redirection writes) that its input folders hold, as ytt reads them: empty.
pub fn leave_out(inv: &mut Invocation, emptied: &[String]) {
    for target in emptied {
        if inv.inputs.iter().any(|i| i == target) {
            continue;
        }
        // `-f name=path` gives its files under another name: not a folder's listing.
        let folder = inv
            .inputs
            .iter()
            .filter(|i| !i.contains('='))
            .find(|dir| dir.as_str() != target.as_str() && is_within(target, dir));
        let Some(dir) = folder else {
            continue;
        };
        let name = match dir.as_str() {
            "." => target.clone(),
            d => target[d.len() + 1..].to_string(),
        };
        let mark = format!("{name}:exclude=true");
        if !inv.file_marks.contains(&mark) {
            inv.file_marks.push(mark);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn inv(inputs: &[&str]) -> Invocation {
        let mut i = Invocation::new(Origin {
            file: "build.sh".into(),
            line: 2,
        });
        i.inputs = inputs.iter().map(|s| s.to_string()).collect();
        i
    }

    #[test]
    fn a_file_inside_an_input_folder_gets_a_mark_under_its_name_there() {
        let mut i = inv(&["config"]);
        leave_out(&mut i, &["config/out/rendered.yaml".to_string()]);
        assert_eq!(i.file_marks, vec!["out/rendered.yaml:exclude=true"]);
        assert_eq!(i.inputs, vec!["config"]);
    }

    #[test]
    fn the_top_folder_names_the_file_by_its_whole_path() {
        let mut i = inv(&["."]);
        leave_out(&mut i, &["gen/rendered.yaml".to_string()]);
        assert_eq!(i.file_marks, vec!["gen/rendered.yaml:exclude=true"]);
    }

    #[test]
    fn a_file_named_itself_is_kept() {
        let mut i = inv(&["app.yaml", "rendered.yaml"]);
        leave_out(&mut i, &["rendered.yaml".to_string()]);
        assert_eq!(i.inputs, vec!["app.yaml", "rendered.yaml"]);
        assert!(i.file_marks.is_empty());
    }

    #[test]
    fn an_output_outside_the_inputs_changes_nothing() {
        let mut i = inv(&["config", "config-extra/x.yaml"]);
        leave_out(&mut i, &["out/rendered.yaml".to_string()]);
        leave_out(&mut i, &["config-extra/y.yaml".to_string()]);
        assert!(i.file_marks.is_empty());
        assert_eq!(i.inputs.len(), 2);
    }
}
