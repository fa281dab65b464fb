//! The order jobs are handed to threads and workers: the jobs of one root together.
//!
//! A root's scenarios and the standalone checks of its private libraries read the same files;
//! run one after another on the same thread, they find those files already parsed (see
//! [`crate::yaml::shared`]). So the jobs are cut into groups, a root with the jobs below its
//! directory, and a thread or worker takes a whole group at a time. The groups with the most
//! jobs go first, so that no long group starts last while the other threads sit idle.
//! Copies of one private library ([`crate::lint::plan::content`]) run in the group of the
//! first copy, wherever their roots are, so that one worker checks them and finds the check
//! done for all but the first ([`crate::lint::job::copies`]).
//! Results are still reported in job order; only the order of running changes.

use std::collections::HashMap;

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
    let mut groups = copies_together(jobs, groups);
    // Stable: equal groups keep their order, so the run is the same every time.
    groups.sort_by_key(|g| std::cmp::Reverse(weight(jobs, g)));
    groups
}

/// `groups` with every copy of a library moved to the group of its first copy (in the order
/// of `groups`, then of the jobs), after the jobs there; groups left empty are dropped.
fn copies_together(jobs: &[Job], groups: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let copy_of = |i: usize| jobs.get(i).and_then(|j| j.copy_of);
    let mut home: HashMap<u64, usize> = HashMap::new();
    let mut moved: Vec<(usize, usize)> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        for &i in group {
            if let Some(key) = copy_of(i) {
                let at = *home.entry(key).or_insert(g);
                if at != g {
                    moved.push((at, i));
                }
            }
        }
    }
    if moved.is_empty() {
        return groups;
    }
    let gone: std::collections::HashSet<usize> = moved.iter().map(|(_, i)| *i).collect();
    let mut groups: Vec<Vec<usize>> = groups
        .into_iter()
        .map(|g| g.into_iter().filter(|i| !gone.contains(i)).collect())
        .collect();
    for (at, i) in moved {
        if let Some(g) = groups.get_mut(at) {
            g.push(i);
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

/// The work of a group: the estimates of its jobs ([`crate::lint::plan::cost`]; a job
/// without one counts 1), a library's copy after the first in the group not counted (the
/// worker finds its check done).
pub fn weight(jobs: &[Job], group: &[usize]) -> u64 {
    let mut seen: Vec<u64> = Vec::new();
    group
        .iter()
        .filter_map(|&i| jobs.get(i))
        .filter(|j| match j.copy_of {
            Some(key) if seen.contains(&key) => false,
            Some(key) => {
                seen.push(key);
                true
            }
            None => true,
        })
        .map(|j| j.cost.max(1))
        .fold(0, u64::saturating_add)
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
    fn copies_of_a_library_join_the_group_of_the_first() {
        let copy = |root: &str, key: u64| Job {
            copy_of: Some(key),
            ..job(JobKind::Library, root)
        };
        let jobs = vec![
            job(JobKind::Root, "a"),
            job(JobKind::Root, "b"),
            job(JobKind::Root, "c"),
            copy("a/_ytt_lib/x", 1),
            copy("b/_ytt_lib/x", 1),
            copy("b/_ytt_lib/y", 2),
            copy("c/_ytt_lib/x", 1),
            copy("c/_ytt_lib/y", 2),
            copy("lone/_ytt_lib/x", 1),
        ];
        assert_eq!(
            groups(&jobs),
            vec![vec![0, 3, 4, 6, 8], vec![1, 5, 7], vec![2]]
        );
        // The copies after the first are not counted as work.
        assert_eq!(weight(&jobs, &[0, 3, 4, 6, 8]), 2);
        assert_eq!(weight(&jobs, &[1, 5, 7]), 2);
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
