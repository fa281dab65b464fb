//! The plan's estimate of a job's work, by which the queue ([`crate::lint::plan::queue`])
//! shares the jobs out between workers.
//!
//! Counted in jobs, the corpus repository's educates configurations (171 of its 319 jobs,
//! most of them small library checks) weighed more than half of the run, though they take
//! about a third of its time; so the run of neighbours was cut inside them, and both workers
//! parsed their large manifests. A job's work grows with the text it reads, but a worker
//! parses a text once however many jobs and paths read it ([`crate::yaml::shared`],
//! [`crate::yaml::renamed`]): so a job's estimate is the bytes of the texts under its inputs
//! that no earlier job of the plan read ([`crate::lint::repo::walk::RepoFile::size`] and
//! `digest`), plus [`BASE`] for what every job costs whatever it reads.
//!
//! The files are visited at most [`VISITS`] times in all (a repository of many roots over
//! many files); beyond that a job counts every byte under its inputs, from running totals.
//! The estimate only places jobs: a wrong one costs time, never a finding.

use std::collections::HashSet;

use crate::lint::repo::walk::RepoFile;

/// What a job costs besides the text it reads (starting the evaluation, its report), in
/// bytes of text of about the same work.
pub const BASE: u64 = 4 << 10;

/// How many files the estimates of one plan visit at most.
pub const VISITS: usize = 4_000_000;

/// The walk's files in path order, with the running total of their sizes, and the texts
/// the jobs estimated so far read.
pub struct Sizes<'a> {
    files: Vec<(&'a str, u64, u64)>,
    /// `before[i]`: the sizes of the files before `files[i]`; one more entry, the total.
    before: Vec<u64>,
    seen: HashSet<u64>,
    visits: usize,
}

impl<'a> Sizes<'a> {
    pub fn new(files: &'a [RepoFile]) -> Sizes<'a> {
        let mut files: Vec<(&str, u64, u64)> = files
            .iter()
            .map(|f| (f.path.as_str(), f.size, f.digest))
            .collect();
        files.sort_unstable();
        let mut before = Vec::with_capacity(files.len() + 1);
        let mut sum = 0u64;
        for (_, size, _) in &files {
            before.push(sum);
            sum = sum.saturating_add(*size);
        }
        before.push(sum);
        Sizes {
            files,
            before,
            seen: HashSet::new(),
            visits: 0,
        }
    }

    /// The indexes of the files at `path` and below it (every file for `""` or `.`).
    fn under(&self, path: &str) -> [std::ops::Range<usize>; 2] {
        let path = path.trim_end_matches('/');
        if path.is_empty() || path == "." {
            return [0..self.files.len(), 0..0];
        }
        let own = match self.files.binary_search_by(|(p, _, _)| (*p).cmp(path)) {
            Ok(i) => i..i + 1,
            Err(_) => 0..0,
        };
        // What sorts between `path/` and `path0` ('0' follows '/').
        let (dir, end) = (format!("{path}/"), format!("{path}0"));
        let from = self.files.partition_point(|(p, _, _)| *p < dir.as_str());
        let to = self.files.partition_point(|(p, _, _)| *p < end.as_str());
        [own, from..to.max(from)]
    }

    /// The estimate of a job reading `inputs`, after the jobs estimated before it.
    pub fn job<'p>(&mut self, inputs: impl IntoIterator<Item = &'p str>) -> u64 {
        let mut cost = BASE;
        for input in inputs {
            for range in self.under(input) {
                let bytes = if self.visits.saturating_add(range.len()) <= VISITS {
                    self.visits += range.len();
                    let mut new = 0u64;
                    for &(_, size, digest) in self.files.get(range).unwrap_or(&[]) {
                        // Not read by the walk (0): nothing to parse, nothing to remember.
                        if digest != 0 && self.seen.insert(digest) {
                            new = new.saturating_add(size);
                        }
                    }
                    new
                } else {
                    let at = |i: usize| self.before.get(i).copied().unwrap_or(0);
                    at(range.end).saturating_sub(at(range.start))
                };
                cost = cost.saturating_add(bytes);
            }
        }
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    fn file(path: &str, text: &str) -> RepoFile {
        RepoFile {
            size: text.len() as u64,
            digest: crate::lint::repo::walk::text_digest(text),
            ..RepoFile::for_test(path, Kind::YttYaml)
        }
    }

    #[test]
    fn a_job_counts_the_texts_under_its_inputs_that_no_job_before_it_read() {
        let files = vec![
            file("a/x.yml", "0123456789"),
            file("a/sub/y.yml", "01234567890123456789"),
            file("a-b/z.yml", "abcd"),
            file("a0/w.yml", "efgh"),
            file("ab.yml", "ijkl"),
            file("b.yml", "mno"),
            // The same text as a/x.yml under another root.
            file("c/x.yml", "0123456789"),
        ];
        let mut s = Sizes::new(&files);
        assert_eq!(s.job(["a/sub"]), BASE + 20);
        // No neighbour with a longer name, nothing counted twice.
        assert_eq!(s.job(["a", "b.yml", "a/x.yml"]), BASE + 13);
        assert_eq!(s.job(["c"]), BASE);
        assert_eq!(s.job(["missing"]), BASE);
        assert_eq!(Sizes::new(&files).job(["."]), BASE + 45);
        assert_eq!(Sizes::new(&files).job([""]), BASE + 45);
        assert_eq!(Sizes::new(&[]).job(["a"]), BASE);
    }

    #[test]
    fn beyond_its_visits_a_job_counts_every_byte() {
        let files = vec![file("a/x.yml", "0123456789"), file("c/x.yml", "0123456789")];
        let mut s = Sizes::new(&files);
        s.visits = VISITS;
        assert_eq!(s.job(["a"]), BASE + 10);
        assert_eq!(s.job(["c"]), BASE + 10);
        assert_eq!(s.job(["."]), BASE + 20);
    }
}
