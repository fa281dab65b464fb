//! Coverage of templates by scenarios, on the linter's side: what a job's evaluation executed
//! (in repository paths), and the jobs of each root merged. Jobs run in threads or in worker
//! processes and may come from the result cache: the coverage travels with the job's outcome.

use std::collections::BTreeMap;

use crate::library::Workspace;
use crate::lint::job::inputs::Names;
use crate::lint::job::model::{Job, JobKind};
use crate::report::coverage::{Coverage, RootCoverage};

/// What the job's evaluation executed; `complete` when it finished without an error. Files
/// outside the repository are left out.
pub fn of_job(workspace: &Workspace, names: &Names, complete: bool) -> Coverage {
    let resolved = workspace
        .env
        .coverage
        .resolve(&workspace.env.line_maps.borrow());
    let mut out = Coverage {
        complete,
        files: Vec::new(),
    };
    for mut f in resolved {
        let Some(path) = names.repo_path(&f.file) else {
            continue;
        };
        f.file = path.to_string();
        out.add(f);
    }
    out
}

/// The coverage of every root that recorded it, in root order: the root's jobs merged. A root
/// with a job that recorded nothing (it failed before evaluating, or its worker died) is not
/// complete.
pub fn by_root(jobs: &[Job], recorded: &[Option<Coverage>]) -> Vec<RootCoverage> {
    let mut roots: BTreeMap<&str, RootCoverage> = BTreeMap::new();
    for (job, coverage) in jobs.iter().zip(recorded) {
        if job.kind != JobKind::Root || !job.coverage {
            continue;
        }
        roots
            .entry(job.root.as_str())
            .or_insert_with(|| RootCoverage::new(&job.root))
            .merge(coverage.as_ref());
    }
    roots.into_values().collect()
}
