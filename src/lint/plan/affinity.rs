//! The order jobs are handed to threads and workers: the jobs of one root together.
//!
//! A root's scenarios and the standalone checks of its private libraries read the same files;
//! run one after another on the same thread, they find those files already parsed (see
//! [`crate::yaml::shared`]). So the jobs are cut into groups, a root with the jobs below its
//! directory, and a thread or worker takes a whole group at a time. The groups with the most
//! jobs go first, so that no long group starts last while the other threads sit idle.
//! Results are still reported in job order; only the order of running changes.

use crate::lint::job::{Job, JobKind};

/// The jobs' indexes cut into groups, in the order they should start.
pub fn groups(jobs: &[Job]) -> Vec<Vec<usize>> {
    // Each job joins the group of the deepest root job whose directory holds it.
    let mut roots: Vec<(&str, usize)> = jobs
        .iter()
        .enumerate()
        .filter(|(_, j)| j.kind == JobKind::Root)
        .map(|(i, j)| (j.root.as_str(), i))
        .collect();
    roots.sort();
    roots.dedup_by(|a, b| a.0 == b.0);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of_root: Vec<Option<usize>> = vec![None; roots.len()];
    for (i, job) in jobs.iter().enumerate() {
        let owner = match job.kind {
            JobKind::Root | JobKind::Library => owner(&roots, &job.root),
            JobKind::Plain | JobKind::Notice => None,
        };
        let slot = owner.and_then(|r| group_of_root.get_mut(r));
        match slot {
            Some(Some(g)) => groups[*g].push(i),
            Some(empty) => {
                *empty = Some(groups.len());
                groups.push(vec![i]);
            }
            None => groups.push(vec![i]),
        }
    }
    // Stable: equal groups keep their order, so the run is the same every time.
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    groups
}

/// The index in `roots` (sorted by path) of the deepest root at or above `path`.
fn owner(roots: &[(&str, usize)], path: &str) -> Option<usize> {
    let mut at = path;
    loop {
        if let Ok(i) = roots.binary_search_by(|(r, _)| (*r).cmp(at)) {
            return Some(i);
        }
        match at.rfind('/') {
            Some(cut) => at = &at[..cut],
            None if !at.is_empty() => at = "",
            None => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::config::Config;

    fn job(kind: JobKind, root: &str) -> Job {
        let mut j = Job::new(
            &Config::default_for(std::path::Path::new("/r")),
            root,
            Err(String::new()),
        );
        j.kind = kind;
        j
    }

    #[test]
    fn a_root_takes_its_libraries_and_scenarios() {
        let jobs = vec![
            job(JobKind::Root, "a"),
            job(JobKind::Root, "a-b"),
            job(JobKind::Library, "a-b/_ytt_lib/x"),
            job(JobKind::Library, "a/config/_ytt_lib/y"),
            job(JobKind::Root, "a"),
            job(JobKind::Library, "lone/_ytt_lib/z"),
            job(JobKind::Notice, "a"),
        ];
        assert_eq!(
            groups(&jobs),
            vec![vec![0, 3, 4], vec![1, 2], vec![5], vec![6]]
        );
    }

    #[test]
    fn the_deepest_root_wins_and_the_repository_root_holds_the_rest() {
        let jobs = vec![
            job(JobKind::Root, ""),
            job(JobKind::Root, "apps/web"),
            job(JobKind::Library, "apps/web/_ytt_lib/l"),
            job(JobKind::Library, "apps/other/_ytt_lib/l"),
        ];
        assert_eq!(groups(&jobs), vec![vec![0, 3], vec![1, 2]]);
    }
}
