//! A folder of snippets whose private library a vendir configuration fills elsewhere: a
//! library repository ships `snippets/templates/` (each `library.get("k8s-lib/…")`) beside a
//! `snippets/vendir.yml` that a consuming project copies, which fills `app/_ytt_lib/k8s-lib`
//! there. In the library's own checkout nothing is synced and the path is relative to a
//! project that does not exist, so `ytt -f snippets/templates` fails "Could not find private
//! library": a failure of an input `vendir sync` makes, not of the templates. Such an inferred
//! root is not evaluated until the sync, as a root that reads an unsynced directory is not
//! (`vendir::consumed_target`); its files are still checked on their own.

use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::files::repo_text::read_repo_text;
use crate::lint::discover::vendir::Target;
use crate::lint::discover::{Reason, Root};
use crate::lint::repo::walk::RepoFile;

/// The unsynced vendir directory `…/_ytt_lib/NAME` that the inferred `root` loads as its
/// library NAME, when a configuration in the root's folder or above fills it and the root
/// holds no `_ytt_lib` of its own.
pub fn filled_library<'t>(
    dir: &Path,
    files: &[RepoFile],
    root: &Root,
    targets: &'t [Target],
) -> Option<&'t Target> {
    if root.reason != Reason::Topmost {
        return None;
    }
    // Most repositories have no such configuration: look at the root's files only when one
    // above it fills a private library.
    let candidates: Vec<(&Target, &str)> = targets
        .iter()
        .filter(|t| !t.synced && is_within(&root.path, paths::parent(&t.file)))
        .filter_map(|t| library_name(&t.dir).map(|name| (t, name)))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let own: Vec<&RepoFile> = files
        .iter()
        .filter(|f| f.kind.is_ytt() && root.inputs.iter().any(|i| is_within(&f.path, i)))
        .collect();
    if own
        .iter()
        .any(|f| f.path.split('/').any(|c| c == "_ytt_lib"))
    {
        return None;
    }
    let texts: Vec<String> = own
        .iter()
        .filter_map(|f| read_repo_text(dir, &f.path))
        .collect();
    candidates
        .into_iter()
        .find(|(_, name)| texts.iter().any(|text| loads(text, name)))
        .map(|(t, _)| t)
}

/// NAME of a directory `…/_ytt_lib/NAME`.
fn library_name(dir: &str) -> Option<&str> {
    let (parent, name) = dir.rsplit_once('/')?;
    let lib = parent.rsplit('/').next()?;
    (lib == "_ytt_lib" && !name.is_empty()).then_some(name)
}

/// Whether `text` loads the private library `name`: `library.get("name…")` or
/// `load("@name:…")`.
fn loads(text: &str, name: &str) -> bool {
    ['"', '\''].iter().any(|q| {
        let get = text.contains("library.get(")
            && (text.contains(&format!("{q}{name}{q}")) || text.contains(&format!("{q}{name}/")));
        get || text.contains(&format!("{q}@{name}:"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_name_is_the_directory_under_ytt_lib() {
        assert_eq!(
            library_name("ytt/snippets/ytt/common/_ytt_lib/k8s-lib"),
            Some("k8s-lib")
        );
        assert_eq!(library_name("_ytt_lib/k8s-lib"), Some("k8s-lib"));
        assert_eq!(library_name("vendor/k8s-lib"), None);
        assert_eq!(library_name("k8s-lib"), None);
    }

    #[test]
    fn a_template_loads_a_library_by_get_or_by_load() {
        let get =
            "#@ load(\"@ytt:library\", \"library\")\n--- #@ library.get(\"k8s-lib/ns\").eval()\n";
        assert!(loads(get, "k8s-lib"));
        assert!(!loads(get, "k8s"));
        assert!(loads("#@ load('@k8s-lib:fns.star', 'f')\n", "k8s-lib"));
        // The name alone, without a `library.get`, is not a load.
        assert!(!loads("name: \"k8s-lib\"\n", "k8s-lib"));
    }
}
