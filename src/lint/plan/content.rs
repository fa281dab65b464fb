//! Which private libraries are copies of each other, known before any job runs.
//!
//! A worker checks identical copies of a library once ([`crate::lint::job::copies`]), but
//! only the copies it runs itself: with the copies' jobs in their roots' groups, the two
//! workers of the corpus repository both checked most of its 33 library contents (about 1 G
//! instructions of about 28 G). The walk already read every file's text and fingerprinted it
//! ([`crate::lint::repo::walk::RepoFile::digest`]), so the plan fingerprints each library
//! from its files' paths inside it and their fingerprints, and from the flags that change its
//! check; [`crate::lint::plan::affinity`] then runs the copies in the group of the first.
//!
//! The fingerprint only places jobs: two libraries it wrongly calls copies are still checked
//! each in full (the worker's own key is a SHA-256 of the files it reads), so a collision
//! costs time, never a finding.

use std::hash::{BuildHasher, Hasher};

use crate::files::paths;
use crate::lint::discover::Library;
use crate::lint::repo::walk::RepoFile;

/// The walk's files by path, for the lookups of many libraries.
pub struct Index<'a> {
    by_path: Vec<(&'a str, u64)>,
}

impl<'a> Index<'a> {
    pub fn new(files: &'a [RepoFile]) -> Index<'a> {
        let mut by_path: Vec<(&str, u64)> =
            files.iter().map(|f| (f.path.as_str(), f.digest)).collect();
        by_path.sort_unstable();
        Index { by_path }
    }

    /// The fingerprint of `lib`'s files (every file below its directory, or the files it
    /// names) and of `how` (the flags and options its check depends on).
    pub fn library(&self, lib: &Library, how: &str) -> u64 {
        let mut h = foldhash::fast::FixedState::with_seed(0x5954_544c_494e_5402).build_hasher();
        h.write(how.as_bytes());
        h.write_u8(0xff);
        let mut file = |name: &str, digest: u64| {
            h.write(name.as_bytes());
            h.write_u8(0);
            h.write_u64(digest);
        };
        if lib.files.is_empty() {
            let dir = format!("{}/", lib.path);
            let from = self.by_path.partition_point(|(p, _)| *p < dir.as_str());
            for (p, d) in self.by_path[from..]
                .iter()
                .take_while(|(p, _)| p.starts_with(&dir))
            {
                file(&p[dir.len()..], *d);
            }
        } else {
            let base = if lib.files.iter().any(|f| f == &lib.path) {
                paths::parent(&lib.path)
            } else {
                lib.path.as_str()
            };
            for f in &lib.files {
                let digest = self
                    .by_path
                    .binary_search_by(|(p, _)| (*p).cmp(f.as_str()))
                    .ok()
                    .and_then(|i| self.by_path.get(i))
                    .map_or(0, |(_, d)| *d);
                file(&paths::between(base, f), digest);
            }
        }
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::{text_digest, Kind};

    fn file(path: &str, text: &str) -> RepoFile {
        RepoFile {
            digest: text_digest(text),
            ..RepoFile::for_test(path, Kind::YttYaml)
        }
    }

    fn lib(path: &str, files: &[&str]) -> Library {
        Library {
            path: path.into(),
            parent: String::new(),
            partial: None,
            flags: Vec::new(),
            files: files.iter().map(|f| f.to_string()).collect(),
        }
    }

    #[test]
    fn copies_match_and_any_difference_tells_them_apart() {
        let files = vec![
            file("a/_ytt_lib/l/x.yml", "x: 1"),
            file("a/_ytt_lib/l/y.star", "y = 2"),
            file("a/_ytt_lib/l2/x.yml", "x: 1"),
            file("b/_ytt_lib/l/x.yml", "x: 1"),
            file("b/_ytt_lib/l/y.star", "y = 2"),
            file("c/_ytt_lib/l/x.yml", "x: 1"),
            file("c/_ytt_lib/l/y.star", "y = 3"),
            file("d/_ytt_lib/l/x.yml", "x: 1"),
            file("d/_ytt_lib/l/z.star", "y = 2"),
        ];
        let index = Index::new(&files);
        let of = |p: &str| index.library(&lib(p, &[]), "");
        assert_eq!(of("a/_ytt_lib/l"), of("b/_ytt_lib/l"));
        // Another text, another name, fewer files: not copies (`l` is not a prefix of `l2`).
        assert_ne!(of("a/_ytt_lib/l"), of("c/_ytt_lib/l"));
        assert_ne!(of("a/_ytt_lib/l"), of("d/_ytt_lib/l"));
        assert_ne!(of("a/_ytt_lib/l"), of("a/_ytt_lib/l2"));
        // Checked another way: not copies.
        let a = lib("a/_ytt_lib/l", &[]);
        assert_ne!(index.library(&a, ""), index.library(&a, "strict"));
        // Some files only, named by their path inside the library.
        let some = |p: &str| index.library(&lib(p, &[&format!("{p}/x.yml")]), "");
        assert_eq!(some("a/_ytt_lib/l"), some("b/_ytt_lib/l"));
        assert_eq!(some("a/_ytt_lib/l"), of("a/_ytt_lib/l2"));
        assert_ne!(some("a/_ytt_lib/l"), of("a/_ytt_lib/l"));
    }
}
