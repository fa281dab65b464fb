//! A library's analysis kept by the thread that made it, for the next job with the same files.
//! Roots of one product often differ only in the data values their commands give: the
//! corpus repository has 99 roots, of which 37 have the same files (paths and bytes) as an
//! earlier root of their family (the nine educates configurations, the tanzu-framework
//! providers of each infrastructure, a package's `default` and `unit` configurations), and
//! the plan runs a family on one worker, one root after the other. Static analysis reads the
//! workspace's files and options alone, and the data values given from outside only when the
//! library has no schema ([`super::values_docs`]); its result names workspace paths, which
//! are the same for every root whose files are the same. So [`super::analyse`] looks a root's
//! workspace up here by a SHA-256 of all of that, and a root after the first of its family
//! takes the first one's analysis instead of making it again.
//!
//! A thread keeps the last [`KEPT`] analyses (a family's roots run one after the other; a
//! few entries catch a member that another root's job interrupts).

use std::cell::RefCell;
use std::collections::VecDeque;

use sha2::{Digest, Sha256};

use super::{Analysis, Outside};
use crate::library::Workspace;

/// How many analyses one thread keeps.
const KEPT: usize = 4;

thread_local! {
    static DONE: RefCell<VecDeque<([u8; 32], Analysis)>> = const { RefCell::new(VecDeque::new()) };
}

/// The fingerprint of an analysis: the workspace's files (paths, bytes, marks) and options,
/// the library's directory, whether its callers are all in sight, and the data values given
/// from outside when the analysis reads them (`outside`: `None` when it does not, the library
/// having a schema).
pub fn key(ws: &Workspace, dir: &str, closed: bool, outside: Option<&Outside>) -> [u8; 32] {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(env!("CARGO_PKG_VERSION").as_bytes());
    field(dir.as_bytes());
    field(&[u8::from(closed)]);
    field(format!("{:?}", ws.opts).as_bytes());
    field(format!("{outside:?}").as_bytes());
    for f in &ws.files {
        field(f.rel_path.as_bytes());
        field(f.orig_path.as_bytes());
        field(f.data.as_bytes());
        field(f.raw.as_deref().unwrap_or_default());
        field(f.unreadable.as_deref().unwrap_or_default().as_bytes());
        let marks = format!(
            "{:?} {:?} {:?} {} {}",
            f.marked_type,
            f.marked_template,
            f.marked_for_output,
            f.raw.is_some(),
            f.unreadable.is_some()
        );
        field(marks.as_bytes());
    }
    h.finalize().into()
}

/// The analysis kept for `key`.
pub fn get(key: &[u8; 32]) -> Option<Analysis> {
    DONE.with(|d| {
        d.borrow()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, a)| a.clone())
    })
}

/// Keeps `analysis` for `key`, dropping the oldest kept beyond [`KEPT`].
pub fn keep(key: [u8; 32], analysis: &Analysis) {
    DONE.with(|d| {
        let mut d = d.borrow_mut();
        d.retain(|(k, _)| *k != key);
        if d.len() >= KEPT {
            d.pop_front();
        }
        d.push_back((key, analysis.clone()));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::InputFile;
    use crate::library::EvalOpts;

    fn ws(files: &[(&str, &str)]) -> Workspace {
        let inputs = files.iter().map(|(n, t)| InputFile::new(n, t)).collect();
        Workspace::new(inputs, EvalOpts::default())
    }

    #[test]
    fn the_key_changes_with_any_path_byte_mark_or_outside_value() {
        let base = key(&ws(&[("a.star", "x = 1\n")]), "", true, None);
        assert_eq!(base, key(&ws(&[("a.star", "x = 1\n")]), "", true, None));
        assert_ne!(base, key(&ws(&[("b.star", "x = 1\n")]), "", true, None));
        assert_ne!(base, key(&ws(&[("a.star", "x = 2\n")]), "", true, None));
        assert_ne!(base, key(&ws(&[("a.star", "x = 1\n")]), "", false, None));
        assert_ne!(base, key(&ws(&[("a.star", "x = 1\n")]), "lib", true, None));
        let mut marked = ws(&[("a.star", "x = 1\n")]);
        marked.files[0].marked_for_output = Some(true);
        assert_ne!(base, key(&marked, "", true, None));
        let known = Outside::Known(Vec::new());
        assert_ne!(
            base,
            key(&ws(&[("a.star", "x = 1\n")]), "", true, Some(&known))
        );
        // Two files are not one file with their texts joined.
        let two = key(&ws(&[("a.star", "x"), ("b", "y")]), "", true, None);
        let one = key(&ws(&[("a.star", "xb"), ("", "y")]), "", true, None);
        assert_ne!(two, one);
    }

    #[test]
    fn a_kept_analysis_is_found_by_its_key_and_the_oldest_goes_first() {
        let analysis = |n: usize| Analysis {
            declares: vec![format!("values-{n}.yml")],
            ..Analysis::default()
        };
        for n in 0..=KEPT {
            keep([n as u8; 32], &analysis(n));
        }
        assert!(get(&[0; 32]).is_none());
        for n in 1..=KEPT {
            let found = get(&[n as u8; 32]).map(|a| a.declares);
            assert_eq!(found, Some(vec![format!("values-{n}.yml")]));
        }
    }
}
