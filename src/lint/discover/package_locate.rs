//! Where a Package's or App's ytt paths lie in the repository: each path under the first of
//! the directories its fetch may have landed in ([`locate`]), those of its step, of the step
//! before it (for `-`) and of its `valuesFrom` ([`place`]). A folder the caller refuses (a
//! Package's own folder, which its unknown fetch path does not name) is told apart from a
//! path found nowhere.

use std::path::Path;

use crate::files::paths;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::package::{add_values, push_new, PackageYtt};

/// The paths of one ytt step: its own, those of the step before it (for `-`), its values.
pub struct Step<'a> {
    pub wanted: &'a [&'a str],
    pub previous: &'a [&'a str],
    pub values: &'a [&'a str],
}

/// Finds the paths of `step` under `bases` into `pkg`; true when one was found only as a
/// folder holding the resource itself, which `accept` refused.
pub fn place(
    base: &Path,
    index: &Index,
    bases: &[String],
    accept: &dyn Fn(&str, &str) -> bool,
    step: &Step,
    pkg: &mut PackageYtt,
) -> bool {
    let mut held_own = false;
    let mut find = |p: &str| match locate(base, bases, p, accept) {
        Located::Found(f) => Some(f),
        Located::Refused => {
            held_own = true;
            None
        }
        Located::Nowhere => None,
    };
    for &p in step.wanted {
        if p == "-" {
            let found: Vec<Option<String>> = step.previous.iter().map(|q| find(q)).collect();
            if found.is_empty() || found.iter().any(Option::is_none) {
                pkg.previous_step = true;
            }
            for f in found.into_iter().flatten() {
                push_new(&mut pkg.inputs, f);
            }
            continue;
        }
        match find(p) {
            Some(found) => push_new(&mut pkg.inputs, found),
            None => pkg.missing.push(p.to_string()),
        }
    }
    for &p in step.values {
        match find(p) {
            Some(found) => add_values(base, index, pkg, found),
            None => pkg.given_values = true,
        }
    }
    held_own
}

/// Where a bundle path was found.
pub enum Located {
    Found(String),
    /// Only where `accept` refused it.
    Refused,
    Nowhere,
}

/// The first of `bases` under which the bundle path `p` exists, as a repository-relative path,
/// that `accept` takes (given the base and the path found).
pub fn locate(
    base: &Path,
    bases: &[String],
    p: &str,
    accept: &dyn Fn(&str, &str) -> bool,
) -> Located {
    if p == "-" || p.is_empty() {
        return Located::Nowhere;
    }
    let mut refused = false;
    for b in bases {
        let abs = paths::absolute(&base.join(b), Path::new(p));
        let Some(rel) = paths::relative(base, &abs) else {
            continue;
        };
        if !abs.exists() {
            continue;
        }
        if accept(b, &rel) {
            return Located::Found(rel);
        }
        refused = true;
    }
    if refused {
        Located::Refused
    } else {
        Located::Nowhere
    }
}
