//! Tanzu CLI provider overlays kept outside a `providers/` tree. A TKG provider overlay
//! loads the provider tree's own library (`load("lib/helpers.star", …)`,
//! `load("lib/validate.star", …)`), which only the Tanzu CLI's providers folder
//! (`~/.config/tanzu/tkg/providers`) holds. A repository that keeps such overlays in folders
//! of its own (a copy to put into that tree) and whose pages point at the Tanzu CLI (`tanzu
//! cluster create`, the providers folder, "Tanzu CLI") renders them with that tool, not with
//! `ytt -f DIR`: the overlay's directory is the Tanzu CLI's [`Wrapper`] case, as a file under
//! `providers/` is (`wrappers.rs`), told by what the file loads, not by its path. A load of
//! that library the repository itself holds next to the file is no sign.
//!
//! Bounded: at most [`MAX_PAGES`] pages and [`MAX_FILES`] ytt files are read, each at most
//! [`MAX_BYTES`] long.

use std::collections::HashSet;
use std::path::Path;

use crate::files::paths;
use crate::lint::discover::invocations::{readme, scripts};
use crate::lint::discover::loads;
use crate::lint::discover::wrappers::Wrapper;
use crate::lint::repo::walk::{Kind, RepoFile};

/// The provider tree's library modules, as its overlays load them.
const LIBRARY: [&str; 2] = ["lib/helpers.star", "lib/validate.star"];

/// What a page says that points at the Tanzu CLI (compared lowercased).
const POINTERS: [&str; 4] = [
    "tanzu cluster create",
    ".config/tanzu/tkg/providers",
    ".tkg/providers",
    "tanzu cli",
];

/// The most pages read for a pointer at the Tanzu CLI.
const MAX_PAGES: usize = 200;

/// The most ytt files read for their loads.
const MAX_FILES: usize = 5_000;

/// The longest file read.
const MAX_BYTES: usize = 1 << 20;

/// The directories of the provider overlays kept outside a `providers/` tree, as the Tanzu
/// CLI's wrappers; none when no page of the repository points at the Tanzu CLI.
pub fn overlays(repo: &Path, files: &[RepoFile]) -> Vec<Wrapper> {
    let mut out: Vec<Wrapper> = Vec::new();
    // The pages first: they are few, and without a pointer no ytt file needs reading.
    if !points_at_tanzu_cli(repo, files) {
        return out;
    }
    let held_paths: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let held = |p: &str| held_paths.contains(p);
    let loading = files
        .iter()
        .filter(|f| matches!(f.kind, Kind::YttYaml | Kind::Starlark))
        .take(MAX_FILES)
        .filter_map(|f| {
            let text = scripts::read(repo, &f.path, MAX_BYTES)?;
            // A load of the library names its file: most files need no parse of their loads.
            let named = LIBRARY
                .iter()
                .any(|l| text.contains(l.trim_start_matches("lib/")));
            (named && loads_library(&f.path, &text, &held)).then_some(f)
        });
    for f in loading {
        let dir = paths::parent(&f.path).to_string();
        if out.iter().any(|w| w.dir == dir) {
            continue;
        }
        out.push(Wrapper {
            tool: "the Tanzu CLI (TKG)",
            dir,
            marker: f.path.clone(),
            gives: "the provider tree's library (`lib/helpers.star`, `lib/validate.star`), its data values and the rest of the tree (`~/.config/tanzu/tkg/providers`, to which the repository's pages point)",
            binds: &[],
        });
    }
    out
}

/// Whether the ytt file at `path` of text `text` loads the provider tree's library, which
/// the repository does not hold where ytt would look (`held`: whether it holds a path).
fn loads_library(path: &str, text: &str, held: &dyn Fn(&str) -> bool) -> bool {
    let starlark = path.ends_with(".star");
    let dir = paths::parent(path);
    loads::relative_loads(text, starlark)
        .into_iter()
        .any(|(_, module)| {
            let bare = module.trim_start_matches("./");
            LIBRARY.contains(&bare)
                && loads::normalize(&paths::join(dir, &module)).is_none_or(|p| !held(&p))
        })
}

/// Whether a page of the repository points at the Tanzu CLI.
fn points_at_tanzu_cli(repo: &Path, files: &[RepoFile]) -> bool {
    files
        .iter()
        .filter(|f| readme::candidate(&f.path))
        .take(MAX_PAGES)
        .filter_map(|f| scripts::read(repo, &f.path, MAX_BYTES))
        .any(|text| {
            let lower = text.to_ascii_lowercase();
            POINTERS.iter().any(|p| lower.contains(p))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"lib/helpers.star\", \"image_repo\")\n---\nkind: ConfigMap\n";

    #[test]
    fn an_overlay_loading_the_provider_library_it_lacks_is_the_tanzu_clis() {
        let none = |_: &str| false;
        assert!(loads_library("windows/debug/overlay.yaml", OVERLAY, &none));
        let validate = "load(\"./lib/validate.star\", \"check\")\n";
        assert!(loads_library("a/b.star", validate, &none));
        // The repository holds the library beside it: an ordinary load.
        let held = |p: &str| p == "windows/debug/lib/helpers.star";
        assert!(!loads_library("windows/debug/overlay.yaml", OVERLAY, &held));
        // Another library, or the name in a comment line of YAML.
        let other = "#@ load(\"lib/other.star\", \"x\")\n# load(\"lib/helpers.star\", \"y\")\n";
        assert!(!loads_library("a/overlay.yaml", other, &none));
    }
}
