//! Identical copies of a private library are checked once per thread. Repositories vendor the
//! same library under many roots (every configuration of cf-for-k8s carries the same five,
//! tanzu-framework the same providers): the corpus repository has 220 private libraries with
//! 33 different contents. The standalone check of a library ([`crate::lint::job::libcheck`], the static
//! analysis, the annotation check) depends only on its files (their paths inside the library
//! and their bytes), the evaluation options and which checks run; its findings, with their
//! paths made relative to the library, are the same for every copy.
//!
//! A job whose files were all read (nothing refused) looks its library up by a SHA-256 of all
//! of that; a result is kept only when nothing in it names a place outside the library (every
//! span in the library, no message quoting the library's repository path).

use std::cell::RefCell;
use std::collections::HashMap;

use sha2::{Digest, Sha256};

use crate::library::Workspace;
use crate::lint::job::model::Job;
use crate::lint::job::usage::Usage;
use crate::report::{Diagnostic, RootOutcome};

/// How many library results one thread keeps.
const KEPT: usize = 256;

/// A library check's findings and usage (paths relative to the library) and outcome.
type Checked = (Vec<Diagnostic>, RootOutcome, Option<Usage>);

thread_local! {
    static DONE: RefCell<HashMap<[u8; 32], Checked>> = RefCell::new(HashMap::new());
}

/// The fingerprint of a library check: the files, the options and what `checks` names.
pub fn key(ws: &Workspace, checks: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(env!("CARGO_PKG_VERSION").as_bytes());
    field(checks.as_bytes());
    field(format!("{:?}", ws.opts).as_bytes());
    for f in &ws.files {
        field(f.rel_path.as_bytes());
        field(f.orig_path.as_bytes());
        field(f.data.as_bytes());
        field(f.raw.as_deref().unwrap_or_default());
        field(f.unreadable.as_deref().unwrap_or_default().as_bytes());
        let marks = format!(
            "{:?} {:?} {:?} {}",
            f.marked_type,
            f.marked_template,
            f.marked_for_output,
            f.raw.is_some()
        );
        field(marks.as_bytes());
    }
    h.finalize().into()
}

/// The result kept for `key`, its paths placed under `job`'s library.
pub fn get(key: &[u8; 32], job: &Job) -> Option<Checked> {
    let (found, status, usage) = DONE.with(|d| d.borrow().get(key).cloned())?;
    let prefix = format!("{}/", job.root);
    let place = |file: &str| format!("{prefix}{file}");
    let placed = found.into_iter().map(|d| with_files(d, &place)).collect();
    // The library's own directory is kept as `.`.
    let place_dir = |path: &str| match path {
        "." => job.root.clone(),
        _ => place(path),
    };
    Some((placed, status, usage.map(|u| u.placed(&place_dir))))
}

/// Keeps `found` (before the job's root and scenario are set on it) and `usage` for `key`,
/// when all of it is about files of `job`'s library.
pub fn keep(
    key: [u8; 32],
    job: &Job,
    found: &[Diagnostic],
    status: RootOutcome,
    usage: Option<&Usage>,
) {
    let prefix = format!("{}/", job.root);
    let inside = |file: &str| file.starts_with(&prefix);
    let movable = found.iter().all(|d| {
        d.span.as_ref().is_some_and(|s| inside(&s.file))
            && d.related.iter().all(|r| inside(&r.span.file))
            && d.fix.iter().flat_map(|f| &f.edits).all(|e| inside(&e.file))
            && !d.message.contains(&job.root)
            && !d.help.as_deref().unwrap_or_default().contains(&job.root)
            && d.root.is_none()
            && d.object.is_none()
    });
    let usage_movable = usage.is_none_or(|u| u.paths().iter().all(|p| inside(p) || *p == job.root));
    if !movable || !usage_movable || job.root.is_empty() {
        return;
    }
    let relative: Vec<Diagnostic> = found
        .iter()
        .cloned()
        .map(|d| with_files(d, &|file| file[prefix.len()..].to_string()))
        .collect();
    DONE.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() >= KEPT {
            d.clear();
        }
        let within = |path: &str| path.strip_prefix(&prefix).unwrap_or(".").to_string();
        let usage = usage.map(|u| u.clone().placed(&within));
        d.insert(key, (relative, status, usage));
    });
}

fn with_files(mut d: Diagnostic, place: &dyn Fn(&str) -> String) -> Diagnostic {
    if let Some(s) = &mut d.span {
        s.file = place(&s.file);
    }
    for r in &mut d.related {
        r.span.file = place(&r.span.file);
    }
    if let Some(fix) = &mut d.fix {
        for e in &mut fix.edits {
            e.file = place(&e.file);
        }
    }
    d
}
