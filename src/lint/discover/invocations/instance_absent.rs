//! A command none of whose `-f` inputs exists (round nine's LA-6): a values-like file the
//! repository does not hold is taken for the user's own when the command reads templates
//! beside it (`ytt -f config -f my-values.yml`); when every input is such a file and nothing
//! of the repository makes it (`ytt -f config/values-schema.yml --data-values-schema-inspect`
//! in a package template copied without its schema), ytt stops with "no such file or
//! directory" and the command is reported as `input-missing`, as one missing template is.

use super::super::word::Word;
use super::super::{made, missing};
use super::{shown_path, Building, Repo};

/// Records `full` (written `written`, run from `cwd`), a values-like input the repository
/// does not hold, when it names a place in the repository and no command of the repository
/// makes it (what a command makes is given at run time).
pub(super) fn record(at: &mut Building, full: &Word, written: &Word, cwd: &Word, repo: &Repo) {
    if full.repo_path().is_none() || made::maker(repo.made, full, repo.index).is_some() {
        return;
    }
    // A values or schema file is a YAML file; a name without the extension (`$dir/upstream`
    // with `$dir` left empty) or one that starts as a flag (`${opts}` split into `-f -f`) is
    // the linter's guess at an expansion, not a file the command names.
    let shown = shown_path(full);
    let yaml = shown.ends_with(".yml") || shown.ends_with(".yaml");
    if !yaml || written.literal_prefix().starts_with('-') {
        return;
    }
    let evident =
        at.settled || missing::evident(full, written, cwd, None, at.page.as_deref(), repo.index);
    at.absent_values.push((shown, None, evident));
}

/// Makes the absent values-like inputs missing ones when they are all the command reads:
/// no input exists, none is made at run time, read on standard input or left unknown (an
/// unresolved variable may name a file that exists).
pub(super) fn all_missing(at: &mut Building) {
    let named = at
        .inv
        .unknown
        .iter()
        .filter(|u| u.starts_with("-f "))
        .count();
    if at.absent_values.is_empty()
        || named != at.absent_values.len()
        || !at.missing.is_empty()
        || !at.inv.inputs.is_empty()
        || !at.inv.values_docs.is_empty()
        || at.generated
        || at.stdin
        || !at.problems.is_empty()
    {
        return;
    }
    at.missing = std::mem::take(&mut at.absent_values);
    // A values file a reader may keep anywhere: where the page's reader stands is not shown.
    at.elsewhere = true;
    let shown: Vec<&str> = at.missing.iter().map(|m| m.0.as_str()).collect();
    at.inv
        .unknown
        .retain(|u| !shown.iter().any(|s| u.starts_with(&format!("-f {s} "))));
}
