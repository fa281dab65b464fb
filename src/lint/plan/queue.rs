//! How the groups of jobs ([`crate::lint::plan::affinity`]) are shared out between the
//! workers of a run, so that each worker sees files it has seen before.
//!
//! What a worker keeps between jobs (parsed YAML by text, checked copies of a private library,
//! compiled schemas) serves only the jobs that worker runs. Neighbouring roots of a repository
//! (`config/dev` and `config/prod`, the configurations of one product vendored side by side)
//! share most of their files; handed out one group at a time to whichever worker is free, they
//! are spread over all the workers and each parses and checks them again (with two workers on
//! the corpus repository, about a sixth more CPU than with one).
//!
//! So the groups, in the order of their paths, are cut into families of neighbours
//! ([`families`]: where the paths on either side have least in common, until no family is
//! more than one worker's share of the work), and a worker takes a whole family at a time,
//! the heaviest first. Cutting the path-ordered groups into one run per worker instead split
//! the family that straddled the middle (on the corpus repository, the educates
//! configurations: the worker that finished its own run first took the rest of them from the
//! back of the other's). Once no family is left, an idle worker takes from the back of the
//! family with the most work left, so no worker sits idle while another has work; that splits
//! only the last families, the lightest.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Mutex;

use crate::lint::job::Job;

/// Groups of job indexes: families not yet started, and the family each worker is in.
pub struct Queue {
    state: Mutex<State>,
}

/// A family's groups left, in path order, each with its weight.
type Family = VecDeque<(Vec<usize>, u64)>;

struct State {
    /// The families no worker has started, heaviest first.
    pending: VecDeque<Family>,
    /// What is left of the family each worker is in.
    current: Vec<Family>,
}

impl Queue {
    /// `groups` (each a list of indexes into `jobs`) shared out between `workers` workers.
    pub fn new(jobs: &[Job], groups: Vec<Vec<usize>>, workers: usize) -> Queue {
        let path = |g: &Vec<usize>| {
            g.first()
                .and_then(|&i| jobs.get(i))
                .map_or("", |j| j.root.as_str())
        };
        let mut sorted: Vec<(&str, Vec<usize>)> =
            groups.into_iter().map(|g| (path(&g), g)).collect();
        // Stable: groups of the same path keep their order, so the run is the same every time.
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        let paths: Vec<&str> = sorted.iter().map(|(p, _)| *p).collect();
        let weights: Vec<u64> = sorted
            .iter()
            .map(|(_, g)| crate::lint::plan::affinity::weight(jobs, g))
            .collect();
        let ranges = families(&paths, &weights, workers.max(1));
        let mut weighed: Vec<(u64, Family)> = Vec::with_capacity(ranges.len());
        let mut groups = sorted.into_iter().map(|(_, g)| g).zip(weights);
        for r in ranges {
            let family: Family = groups.by_ref().take(r.len()).collect();
            let total = family.iter().map(|(_, w)| *w).fold(0, u64::saturating_add);
            weighed.push((total, family));
        }
        // Stable: families of equal weight keep their path order.
        weighed.sort_by_key(|(w, _)| std::cmp::Reverse(*w));
        let mut current = Vec::new();
        current.resize_with(workers.max(1), VecDeque::new);
        Queue {
            state: Mutex::new(State {
                pending: weighed.into_iter().map(|(_, f)| f).collect(),
                current,
            }),
        }
    }

    /// The next group for worker `worker`: the front of its family, else the front of the
    /// heaviest family not started, else the back of the family with the most work left;
    /// `None` when nothing is left.
    pub fn next(&self, worker: usize) -> Option<Vec<usize>> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let State { pending, current } = &mut *state;
        if let Some(own) = current.get_mut(worker) {
            if own.is_empty() {
                if let Some(family) = pending.pop_front() {
                    *own = family;
                }
            }
            if let Some((g, _)) = own.pop_front() {
                return Some(g);
            }
        }
        let left = |f: &Family| f.iter().map(|(_, w)| *w).fold(0, u64::saturating_add);
        let fullest = current
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.is_empty())
            .max_by_key(|(i, f)| (left(f), std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        match fullest {
            Some(i) => current
                .get_mut(i)
                .and_then(VecDeque::pop_back)
                .map(|(g, _)| g),
            // A worker beyond the first `workers` (none is) finds the families not started.
            None => pending.pop_front().and_then(|mut f| {
                let first = f.pop_front().map(|(g, _)| g);
                if !f.is_empty() {
                    pending.push_front(f);
                }
                first
            }),
        }
    }
}

/// The path-ordered groups cut into families of neighbours: while a family weighs more than
/// one worker's share of the whole (the whole list does, with two workers or more), it is cut
/// at every boundary inside it where the paths on either side have the least in common.
/// Each step makes more families, so there are at most as many steps as groups.
fn families(paths: &[&str], weights: &[u64], workers: usize) -> Vec<Range<usize>> {
    if paths.is_empty() {
        return Vec::new();
    }
    let mut before = Vec::with_capacity(weights.len() + 1);
    let mut sum = 0u64;
    for w in weights {
        before.push(sum);
        sum = sum.saturating_add(*w);
    }
    before.push(sum);
    let share = sum / workers.max(1) as u64;
    let weight = |r: &Range<usize>| {
        let at = |i: usize| before.get(i).copied().unwrap_or(0);
        at(r.end).saturating_sub(at(r.start))
    };
    // `common[i]`: what the paths of groups `i - 1` and `i` have in common.
    let common: Vec<usize> = (0..paths.len())
        .map(
            |i| match (i.checked_sub(1).and_then(|p| paths.get(p)), paths.get(i)) {
                (Some(a), Some(b)) => common_prefix(a, b),
                _ => 0,
            },
        )
        .collect();
    // One family at first: every group, cut below while one outweighs a share.
    let mut out: Vec<Range<usize>> = std::iter::once(0..paths.len()).collect();
    for _ in 0..paths.len() {
        let heavy = out
            .iter()
            .enumerate()
            .filter(|(_, r)| workers > 1 && r.len() > 1 && weight(r) > share)
            .max_by_key(|(i, r)| (weight(r), std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        let Some(at) = heavy else { break };
        let r = out.remove(at);
        let inside = || (r.start + 1..r.end).filter_map(|i| Some((i, *common.get(i)?)));
        let least = inside().map(|(_, c)| c).min().unwrap_or(0);
        let mut start = r.start;
        let mut parts = Vec::new();
        for (i, c) in inside() {
            if c == least {
                parts.push(start..i);
                start = i;
            }
        }
        parts.push(start..r.end);
        out.splice(at..at, parts);
    }
    out
}

/// The length in bytes of the common prefix of `a` and `b`.
fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::config::Config;

    fn job(root: &str) -> Job {
        Job::new(
            &Config::default_for(std::path::Path::new("/r")),
            root,
            Err(String::new()),
        )
    }

    fn drain(q: &Queue, worker: usize) -> Vec<Vec<usize>> {
        std::iter::from_fn(|| q.next(worker)).collect()
    }

    #[test]
    fn neighbours_go_to_the_same_worker() {
        let roots = ["b/dev", "a/dev", "b/prod", "a/prod", "a/test", "b/test"];
        let jobs: Vec<Job> = roots.iter().map(|r| job(r)).collect();
        let groups = (0..jobs.len()).map(|i| vec![i]).collect();
        let q = Queue::new(&jobs, groups, 2);
        let turns: Vec<Option<Vec<usize>>> = (0..7).map(|t| q.next(t % 2)).collect();
        let (a, b) = (Some(vec![1, 3, 4]), Some(vec![0, 2, 5]));
        let of = |w: usize| turns.iter().skip(w).step_by(2).flatten().flatten().copied();
        assert_eq!(Some(of(0).collect::<Vec<usize>>()), a);
        assert_eq!(Some(of(1).collect::<Vec<usize>>()), b);
        // A worker alone takes one whole family, then the next.
        let q = Queue::new(&jobs, (0..jobs.len()).map(|i| vec![i]).collect(), 2);
        assert_eq!(
            drain(&q, 0),
            vec![vec![1], vec![3], vec![4], vec![0], vec![2], vec![5]]
        );
        // Once no family is left, an idle worker takes from the back of another's.
        let q = Queue::new(&jobs, (0..jobs.len()).map(|i| vec![i]).collect(), 2);
        assert_eq!(q.next(0), Some(vec![1]));
        assert_eq!(q.next(1), Some(vec![0]));
        assert_eq!(drain(&q, 1), vec![vec![2], vec![5], vec![4], vec![3]]);
        assert_eq!(q.next(0), None);
    }

    #[test]
    fn families_are_cut_where_paths_part_until_none_outweighs_a_share() {
        // The educates family of the corpus: many jobs, few of them heavy. Cut in the middle
        // of the path order, it was split between the workers.
        let roots = [
            "cf__a", "cf__b", "ed__1", "ed__2", "ed__3", "ed__4", "ed__5", "ta__x", "ta__y",
        ];
        let paths: Vec<&str> = roots.to_vec();
        let w = [20, 20, 10, 10, 10, 10, 10, 25, 25];
        assert_eq!(families(&paths, &w, 2), vec![0..2, 2..7, 7..9]);
        // A family heavier than a share is cut again where its own paths part.
        let w = [1, 1, 40, 40, 1, 1, 1, 1, 1];
        assert_eq!(
            families(&paths, &w, 2),
            vec![0..2, 2..3, 3..4, 4..5, 5..6, 6..7, 7..9]
        );
        // One worker: one family. Nothing: none.
        assert_eq!(families(&paths, &w, 1), vec![0..9]);
        assert_eq!(families(&[], &[], 2), Vec::<Range<usize>>::new());
        // The heaviest family first, the next to the other worker, the rest as they finish.
        let jobs: Vec<Job> = roots
            .iter()
            .zip([20, 20, 10, 10, 10, 10, 10, 25, 25])
            .map(|(r, cost)| Job { cost, ..job(r) })
            .collect();
        let q = Queue::new(&jobs, (0..jobs.len()).map(|i| vec![i]).collect(), 2);
        assert_eq!(q.next(0), Some(vec![2]));
        assert_eq!(q.next(1), Some(vec![7]));
        assert_eq!(q.next(1), Some(vec![8]));
        assert_eq!(q.next(1), Some(vec![0]));
        assert_eq!(q.next(0), Some(vec![3]));
        // The family with most work left loses its back to the idle worker.
        assert_eq!(q.next(1), Some(vec![1]));
        assert_eq!(q.next(1), Some(vec![6]));
        assert_eq!(drain(&q, 0), vec![vec![4], vec![5]]);
    }

    #[test]
    fn an_idle_worker_takes_from_the_back_of_the_fullest_run() {
        let roots = ["a", "b", "c", "d", "e", "f"];
        let jobs: Vec<Job> = roots.iter().map(|r| job(r)).collect();
        let groups = vec![vec![0], vec![1, 2], vec![3], vec![4], vec![5]];
        let q = Queue::new(&jobs, groups, 3);
        let mut all: Vec<Vec<usize>> = drain(&q, 2);
        all.extend(drain(&q, 0));
        all.extend(drain(&q, 1));
        all.sort();
        assert_eq!(all, vec![vec![0], vec![1, 2], vec![3], vec![4], vec![5]]);
        assert_eq!(q.next(0), None);
        // More workers than groups: every group still runs once.
        let q = Queue::new(&jobs[..1], vec![vec![0]], 4);
        assert_eq!(drain(&q, 3), vec![vec![0]]);
        assert_eq!(q.next(0), None);
    }
}
