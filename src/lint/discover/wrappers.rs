//! Tools that wrap ytt and give the templates inputs of their own: myks (a data values schema
//! with `myks` and `environment`, library files), gflows (its libraries and settings), TAP's
//! tanzu-sync (values from its secrets), and the Tanzu CLI's provider tree for TKG (files
//! copied into `~/.config/tanzu/tkg/providers` and rendered with the rest of that tree; kept
//! elsewhere, by what they load: [`crate::lint::discover::tkg_overlays`]), a kpt
//! package's function pipeline ([`crate::lint::discover::kpt`]). A
//! directory such a tool renders is not what `ytt -f DIR` renders: a root inferred inside it
//! assumes the tool's inputs away, and says so.

use crate::files::paths::{self, is_within};
use crate::lint::repo::walk::RepoFile;

/// A directory a tool renders with inputs of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapper {
    /// The tool's name.
    pub tool: &'static str,
    /// The directory it renders (repository-relative, `.` for the repository).
    pub dir: String,
    /// The file that says so.
    pub marker: String,
    /// What the tool gives that the linter does not have.
    pub gives: &'static str,
    /// Names the tool binds for the templates it renders (shalm's `self`): a template's use
    /// of one is not an undefined name, only one the linter cannot evaluate.
    pub binds: &'static [&'static str],
}

impl Wrapper {
    /// The assumption a root inferred inside it makes, in words.
    pub fn assumption(&self) -> String {
        format!(
            "{} renders these files ({}) and gives them {}, which the linter does not have",
            self.tool, self.marker, self.gives
        )
    }
}

/// The directories wrapper tools render, by the files that mark them (shalm's charts also by
/// what their `Chart.star` says: [`crate::lint::discover::shalm`]).
pub fn find(repo: &std::path::Path, files: &[RepoFile]) -> Vec<Wrapper> {
    let mut out: Vec<Wrapper> = Vec::new();
    let mut add = |w: Wrapper| {
        if !out.iter().any(|o| o.dir == w.dir && o.tool == w.tool) {
            out.push(w);
        }
    };
    for f in files {
        let name = name_of(&f.path);
        let dir = paths::parent(&f.path);
        if matches!(name, ".myks.yaml" | ".myks.yml") {
            add(Wrapper {
                tool: "myks",
                dir: dir.to_string(),
                marker: f.path.clone(),
                gives:
                    "a data values schema of its own (`myks`, `environment`, ...) and library files",
                binds: &[],
            });
        }
        if matches!(name, "config.yml" | "config.yaml") && name_of(dir) == ".gflows" {
            add(Wrapper {
                tool: "gflows",
                dir: dir.to_string(),
                marker: f.path.clone(),
                gives: "its libraries and settings",
                binds: &[],
            });
        }
        if let Some(sync) = tanzu_sync_dir(&f.path) {
            add(Wrapper {
                tool: "tanzu-sync",
                dir: sync,
                marker: f.path.clone(),
                gives: "data values from its secrets",
                binds: &[],
            });
        }
        if let Some(tree) = provider_tree(&f.path) {
            add(Wrapper {
                tool: "the Tanzu CLI (TKG)",
                dir: tree,
                marker: f.path.clone(),
                gives: "the rest of its provider tree (`~/.config/tanzu/tkg/providers`), its data values and library files",
                binds: &[],
            });
        }
    }
    for chart in crate::lint::discover::shalm::charts(repo, files) {
        add(chart);
    }
    for package in crate::lint::discover::kpt::packages(repo, files) {
        add(package);
    }
    for overlay in crate::lint::discover::tkg_overlays::overlays(repo, files) {
        add(overlay);
    }
    out.sort_by(|a, b| a.dir.cmp(&b.dir).then(a.tool.cmp(b.tool)));
    out
}

/// The last part of a repository path.
fn name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The wrapper whose directory holds `path`, the innermost first.
pub fn around<'w>(wrappers: &'w [Wrapper], path: &str) -> Option<&'w Wrapper> {
    wrappers
        .iter()
        .filter(|w| is_within(path, &w.dir))
        .max_by_key(|w| w.dir.len())
}

/// `.../tanzu-sync` for a file of tanzu-sync's own tree (`tanzu-sync/app/config/...`).
fn tanzu_sync_dir(path: &str) -> Option<String> {
    let i = path.find("tanzu-sync/app/config/")?;
    if i > 0 && !path[..i].ends_with('/') {
        return None;
    }
    Some(path[..i + "tanzu-sync".len()].to_string())
}

/// `.../providers` for a file of a TKG provider tree: `providers/config_default.yaml`, or a
/// file under `providers/ytt/` or `providers/infrastructure-*/`.
fn provider_tree(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let i = parts.iter().rposition(|p| *p == "providers")?;
    let next = parts.get(i + 1)?;
    let marked = *next == "config_default.yaml"
        || (*next == "ytt" && parts.len() > i + 2)
        || (next.starts_with("infrastructure-") && parts.len() > i + 2);
    marked.then(|| parts[..=i].join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    fn file(path: &str) -> RepoFile {
        RepoFile::for_test(path, Kind::Other)
    }

    #[test]
    fn each_tool_is_found_by_its_marker() {
        let files: Vec<RepoFile> = [
            ".myks.yaml",
            "prototypes/app/ytt/deploy.yaml",
            "ci/.gflows/config.yml",
            "gitops/tanzu-sync/app/config/.tanzu-managed/sync.yaml",
            "tkg/providers/ytt/03_customizations/x.yaml",
            "tkg/providers/config_default.yaml",
            "other/providers/README.md",
        ]
        .iter()
        .map(|p| file(p))
        .collect();
        let all = find(std::path::Path::new("/nonexistent"), &files);
        let found: Vec<(&str, &str)> = all.iter().map(|w| (w.tool, w.dir.as_str())).collect();
        assert_eq!(
            found,
            [
                ("myks", "."),
                ("gflows", "ci/.gflows"),
                ("tanzu-sync", "gitops/tanzu-sync"),
                ("the Tanzu CLI (TKG)", "tkg/providers"),
            ]
        );
        let w = all;
        assert_eq!(
            around(&w, "tkg/providers/ytt/03_customizations").map(|w| w.tool),
            Some("the Tanzu CLI (TKG)")
        );
        assert_eq!(around(&w, "prototypes/app").map(|w| w.tool), Some("myks"));
    }
}
