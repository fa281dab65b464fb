//! An example that stands in for the user's copy of it (`values.yml`, a copy of
//! `values-tmpl.yml`) but that the command also gives as committed, inside a directory it
//! renders: `ytt -f ./REPO -f values.yml` reads the repository's `values-tmpl.yml` as it is,
//! whatever the user writes in the copy (round thirteen's LR13A-2, where a plain `#` comment
//! of the example fails every such command). A finding in that file rests on its committed
//! text, not on the stand-in: the stand-in's assumption does not bear on it.

use crate::lint::job::Job;
use crate::report::{Certainty, Diagnostic};

/// Whether one of the job's `-f` inputs is a directory that holds the repository file `file`.
fn inside_an_input(job: &Job, file: &str) -> bool {
    let Ok(flags) = &job.flags else {
        return false;
    };
    flags.files.iter().take(10_000).any(|arg| {
        let path = crate::files::input::path_of(arg);
        let Ok(rel) = std::path::Path::new(path).strip_prefix(&job.repo) else {
            return false;
        };
        let rel = rel.to_string_lossy();
        let rel = rel.trim_end_matches('/');
        let dir = if rel.is_empty() || rel == "." {
            ""
        } else {
            rel
        };
        dir != file && (dir.is_empty() || file.starts_with(&format!("{dir}/")))
    })
}

/// `c` without the stand-in assumptions about the file of `d`, when the job also gives that
/// file as committed.
pub fn settle(job: &Job, d: &Diagnostic, c: &mut Certainty) {
    let Some(file) = d.span.as_ref().map(|s| s.file.as_str()) else {
        return;
    };
    if !c.assumed.iter().any(|a| a.stand_in() == Some(file)) || !inside_an_input(job, file) {
        return;
    }
    c.assumed.retain(|a| a.stand_in() != Some(file));
}
