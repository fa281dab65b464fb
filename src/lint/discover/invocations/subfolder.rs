//! A page's command that belongs to a subfolder of the page's directory. A page often shows
//! the commands of a project kept in a folder below it (`redis/guide.md` shows `ytt --file
//! deployment/db.yaml --file overlays/label.yaml`, whose files are in
//! `redis/automation/`), without saying where to run them. When the inputs the command misses
//! from the page's directory all exist (or lie in a directory a `vendir.yml` there fills,
//! which `vendir sync` makes) under exactly one folder below it, and none of its inputs
//! exists from the page's directory, the command is that folder's:
//! it runs from there, assuming it (`working-directory`: the page does not say where), and
//! its inputs are not missing. Inputs that match nowhere, or in several folders, leave the
//! command as it was (a missing input is reported).
//!
//! Bounded: only the page's own directory tree is searched, at most [`MAX_DEPTH`] folders
//! below the page and [`MAX_SCANNED`] of its paths.

use super::index::Index;
use super::resolve::{MissingInput, Outcome};
use crate::files::paths;
use crate::lint::discover::vendir::{self, Target};
use crate::report::{Assumption, AssumptionKind};
use std::collections::BTreeSet;

/// How many folders below the page's directory the command's folder may be.
pub const MAX_DEPTH: usize = 4;

/// How many paths under the page's directory are read to find the folder.
pub const MAX_SCANNED: usize = 20_000;

/// How many folders that hold one of the missing inputs are weighed.
const MAX_CANDIDATES: usize = 64;

/// The one folder below `page_dir` under which every input `missing` names (as missed from
/// `page_dir`) exists or lies in a directory `vendir sync` makes; `None` when there is no such
/// folder, or more than one, or an input is not below `page_dir`.
pub fn folder(
    missing: &MissingInput,
    page_dir: &str,
    index: &Index,
    vendir: &[Target],
) -> Option<String> {
    // An input that exists from the page's directory says the page is written for it: the
    // other inputs are missing there (`-f app/nginx -f overlay/namespace`, with only a test
    // folder holding both).
    if missing.found > 0 {
        return None;
    }
    let rel: Vec<&str> = missing
        .paths
        .iter()
        .map(|(p, _)| below(p, page_dir))
        .collect::<Option<_>>()?;
    if rel.is_empty() {
        return None;
    }
    let entries = index.entries_below(page_dir, MAX_SCANNED);
    let mut candidates: BTreeSet<&str> = BTreeSet::new();
    for p in &rel {
        let tail = format!("/{p}");
        for e in &entries {
            let Some(dir) = e.strip_suffix(tail.as_str()) else {
                continue;
            };
            let depth = below(dir, page_dir).map_or(0, |d| d.split('/').count());
            if dir != page_dir && (1..=MAX_DEPTH).contains(&depth) {
                candidates.insert(dir);
            }
            if candidates.len() > MAX_CANDIDATES {
                return None;
            }
        }
    }
    let holds = |dir: &str, p: &str| {
        let at = paths::join(dir, p);
        index.exists(&at) || vendir::unsynced(vendir, &at).is_some_and(|t| t.dir != dir)
    };
    let mut fits = candidates
        .into_iter()
        .filter(|dir| rel.iter().all(|p| holds(dir, p)));
    let one = fits.next()?;
    fits.next().is_none().then(|| one.to_string())
}

/// `path` relative to `dir` when it lies below it (`dir` itself is no path below it).
fn below<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir == "." {
        return (path != ".").then_some(path);
    }
    path.strip_prefix(dir)?
        .strip_prefix('/')
        .filter(|r| !r.is_empty())
}

/// The command's outcomes run from `dir`, marked as assumed there: `None` when an input is
/// missing from there too, or when nothing is found or skipped there (the command stays as
/// it was).
pub fn placed(out: Vec<Outcome>, missing: &MissingInput, dir: &str) -> Option<Vec<Outcome>> {
    let usable = |o: &Outcome| matches!(o, Outcome::Found(_) | Outcome::Skipped(_));
    if out.is_empty() || !out.iter().all(usable) {
        return None;
    }
    let shown: Vec<&str> = missing.paths.iter().map(|(p, _)| p.as_str()).collect();
    let why = format!(
        "{} does not say where to run its command, whose inputs {} are not in the page's \
         directory: run from {dir}, the one folder below it that holds them",
        missing.origin,
        shown.join(", ")
    );
    let assumed = Assumption::new(AssumptionKind::WorkingDirectory, why);
    Some(
        out.into_iter()
            .map(|o| match o {
                Outcome::Skipped(mut s) => {
                    s.reason =
                        format!("run from {dir} (the page does not say where): {}", s.reason);
                    Outcome::Skipped(s)
                }
                other => other.assuming(&assumed),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn missing(paths: &[&str]) -> MissingInput {
        MissingInput {
            origin: Origin {
                file: "guide/page.md".into(),
                line: 6,
            },
            paths: paths.iter().map(|p| (p.to_string(), None)).collect(),
            found: 0,
            claims: Vec::new(),
            evident: true,
            assumed: Vec::new(),
            written: None,
            dir_claims: true,
            fails: true,
            corrected: None,
        }
    }

    fn target(dir: &str) -> Target {
        Target {
            file: "guide/auto/vendir.yml".into(),
            line: 4,
            dir: dir.into(),
            synced: false,
            third_party: true,
        }
    }

    #[test]
    fn the_one_folder_holding_every_missing_input_is_the_commands() {
        let index = Index::new([
            "guide/page.md",
            "guide/auto/deployment/db.yaml",
            "guide/auto/overlays/label.yaml",
            "guide/other/overlays/label.yaml",
        ]);
        let m = missing(&["guide/deployment/db.yaml", "guide/overlays/label.yaml"]);
        assert_eq!(
            folder(&m, "guide", &index, &[]).as_deref(),
            Some("guide/auto")
        );
        // A page at the top searches the whole repository.
        let m = missing(&["deployment/db.yaml"]);
        let top = Index::new(["page.md", "auto/deployment/db.yaml"]);
        assert_eq!(folder(&m, ".", &top, &[]).as_deref(), Some("auto"));
    }

    #[test]
    fn a_directory_vendir_makes_counts_as_held() {
        let index = Index::new(["guide/auto/overlays/label.yaml", "guide/auto/vendir.yml"]);
        let m = missing(&["guide/vendor/up/op.yaml", "guide/overlays/label.yaml"]);
        let t = [target("guide/auto/vendor/up")];
        assert_eq!(
            folder(&m, "guide", &index, &t).as_deref(),
            Some("guide/auto")
        );
        // Without the vendir target, nothing holds the operator.
        assert_eq!(folder(&m, "guide", &index, &[]), None);
    }

    #[test]
    fn inputs_held_nowhere_together_or_in_two_folders_stay_missing() {
        // No folder holds both (`-f deployment/namespace.yaml -f redis`).
        let index = Index::new(["guide/auto/deployment/namespace.yaml"]);
        let m = missing(&["guide/deployment/namespace.yaml", "guide/redis"]);
        assert_eq!(folder(&m, "guide", &index, &[]), None);
        // Another input exists from the page's directory: the page is written for it.
        let index = Index::new(["guide/app/x.yaml", "guide/test/overlay/ns/a.yaml"]);
        let mut m = missing(&["guide/overlay/ns"]);
        assert_eq!(
            folder(&m, "guide", &index, &[]).as_deref(),
            Some("guide/test")
        );
        m.found = 1;
        assert_eq!(folder(&m, "guide", &index, &[]), None);
        // Two folders hold it: the page does not say which.
        let index = Index::new(["guide/a/db.yaml", "guide/b/db.yaml"]);
        assert_eq!(
            folder(&missing(&["guide/db.yaml"]), "guide", &index, &[]),
            None
        );
        // Outside the page's directory, or too deep below it: not searched.
        let index = Index::new(["other/db.yaml", "guide/a/b/c/d/e/db.yaml"]);
        assert_eq!(
            folder(&missing(&["guide/db.yaml"]), "guide", &index, &[]),
            None
        );
        assert_eq!(folder(&missing(&["db.yaml"]), "guide", &index, &[]), None);
    }
}
