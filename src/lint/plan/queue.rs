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
//! So the groups, in the order of their paths, are cut into one run of neighbours per worker,
//! each cut where the paths on either side have least in common near an even share of the
//! jobs. A worker takes its own run from the front; once it is empty, it takes from the back
//! of the run with the most jobs left, so no worker sits idle while another has work.

use std::collections::VecDeque;
use std::sync::Mutex;

use crate::lint::job::Job;

/// Groups of job indexes, one run of neighbouring groups per worker.
pub struct Queue {
    runs: Mutex<Vec<VecDeque<Vec<usize>>>>,
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
        let weights: Vec<usize> = sorted
            .iter()
            .map(|(_, g)| crate::lint::plan::affinity::weight(jobs, g))
            .collect();
        let cuts = cuts(&paths, &weights, workers.max(1));
        let mut runs: Vec<VecDeque<Vec<usize>>> = Vec::new();
        let mut run = VecDeque::new();
        for (i, (_, g)) in sorted.into_iter().enumerate() {
            if cuts.contains(&i) {
                runs.push(std::mem::take(&mut run));
            }
            run.push_back(g);
        }
        runs.push(run);
        runs.resize_with(workers.max(1), VecDeque::new);
        Queue {
            runs: Mutex::new(runs),
        }
    }

    /// The next group for worker `worker`: the front of its own run, else the back of the run
    /// with the most jobs left; `None` when every run is empty.
    pub fn next(&self, worker: usize) -> Option<Vec<usize>> {
        let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = runs.get_mut(worker).and_then(VecDeque::pop_front) {
            return Some(g);
        }
        let left = |r: &VecDeque<Vec<usize>>| r.iter().map(Vec::len).sum::<usize>();
        let fullest = runs
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.is_empty())
            .max_by_key(|(i, r)| (left(r), std::cmp::Reverse(*i)))
            .map(|(i, _)| i)?;
        runs.get_mut(fullest).and_then(VecDeque::pop_back)
    }
}

/// Where the path-ordered groups are cut into `workers` runs: before the groups at the
/// returned indexes. Each cut is near an even share of the jobs (within a quarter of a share),
/// where the paths on either side have the shortest common prefix (nearest the even share
/// among equals); with no boundary that near, at the nearest one.
fn cuts(paths: &[&str], weights: &[usize], workers: usize) -> Vec<usize> {
    let total: usize = weights.iter().sum();
    let share = total as f64 / workers as f64;
    let mut before = Vec::with_capacity(weights.len() + 1);
    let mut sum = 0;
    for w in weights {
        before.push(sum);
        sum += w;
    }
    let mut out: Vec<usize> = Vec::new();
    for k in 1..workers {
        let ideal = share * k as f64;
        let key = |i: usize| {
            let off = (before[i] as f64 - ideal).abs();
            let near = off <= share / 4.0;
            let common = if near {
                common_prefix(paths[i - 1], paths[i])
            } else {
                0
            };
            (!near, common, off)
        };
        let best = (1..paths.len())
            .filter(|&i| out.last().is_none_or(|&last| i > last))
            .min_by(|&a, &b| {
                let (ka, kb) = (key(a), key(b));
                (ka.0, ka.1)
                    .cmp(&(kb.0, kb.1))
                    .then(ka.2.total_cmp(&kb.2))
                    .then(a.cmp(&b))
            });
        if let Some(i) = best {
            out.push(i);
        }
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
        // Once its own run is empty, a worker takes from the back of the other's.
        let q = Queue::new(&jobs, (0..jobs.len()).map(|i| vec![i]).collect(), 2);
        assert_eq!(
            drain(&q, 0),
            vec![vec![1], vec![3], vec![4], vec![5], vec![2], vec![0]]
        );
    }

    #[test]
    fn the_cut_falls_between_families_near_the_middle() {
        // An even share is 4.5 jobs: "a" and "b" part within a quarter of it.
        let roots = [
            "a/1", "a/2", "a/3", "a/4", "b/1", "b/2", "b/3", "b/4", "b/5",
        ];
        let paths: Vec<&str> = roots.to_vec();
        assert_eq!(cuts(&paths, &[1; 9], 2), vec![4]);
        // No family boundary: the even share.
        assert_eq!(cuts(&["a", "b", "c", "d"], &[1; 4], 2), vec![2]);
        // No boundary within a quarter of a share: the nearest.
        assert_eq!(cuts(&["a", "b", "c"], &[1, 1, 4], 2), vec![2]);
        assert_eq!(cuts(&["a", "b", "c", "d"], &[1; 4], 1), Vec::<usize>::new());
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
