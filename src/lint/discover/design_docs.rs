//! Design documents: a directory named `proposals`, `rfcs` or `enhancements` (or `proposal`,
//! `rfc`, `keps`) holds write-ups of features, whose YAML files illustrate a ytt that may not
//! exist yet (carvel-dev/carvel's `proposals/ytt/` uses annotations ytt never had). Nobody
//! runs them, so discovery makes no root of them on its own: a repository command that runs
//! one, or a root in `.yttlint.yaml`, still does. A directory whose README is a proposal (its
//! first lines give its status as a proposal's stages, `- Status: Scoping | **Pre-Alpha** |
//! In Alpha | ... | Rejected`) is one too, whatever its name (round fifteen's R15A-3: a
//! repository of design documents whose `ytt/001-schemas/` illustrates a schema syntax ytt
//! never had).

use std::collections::BTreeSet;
use std::path::Path;

use crate::lint::repo::walk::RepoFile;

/// Directory names that hold design documents (compared in lower case).
const NAMES: [&str; 6] = [
    "proposals",
    "proposal",
    "rfcs",
    "rfc",
    "enhancements",
    "keps",
];

/// The design directory a repository-relative path lies in (the path up to it), if any.
pub fn dir_of(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let at = parts
        .iter()
        .position(|c| NAMES.contains(&c.to_ascii_lowercase().as_str()))?;
    // The last component of a file's path is its name, not a directory.
    (at + 1 < parts.len()).then(|| parts[..=at].join("/"))
}

/// At most this many READMEs are read for a proposal's status.
const MAX_PAGES: usize = 64;
/// The largest README read.
const MAX_PAGE_BYTES: usize = 256 << 10;
/// A proposal's status is in this many of its first lines.
const HEAD_LINES: usize = 40;

/// The directories of `repo` whose README is a proposal.
fn proposal_dirs(repo: &Path, files: &[RepoFile]) -> BTreeSet<String> {
    files
        .iter()
        .filter(|f| {
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            name.eq_ignore_ascii_case("readme.md")
        })
        .take(MAX_PAGES)
        .filter(|f| {
            crate::lint::discover::invocations::scripts::read(repo, &f.path, MAX_PAGE_BYTES)
                .is_some_and(|text| is_proposal(&text))
        })
        .map(|f| crate::files::paths::parent(&f.path).to_string())
        .collect()
}

/// Whether a page is a proposal: among its first lines, its status as a choice of stages
/// (`Status: Draft | In Review | Accepted | Rejected`), as design proposals give it.
fn is_proposal(text: &str) -> bool {
    const STAGES: [&str; 6] = [
        "rejected",
        "accepted",
        "draft",
        "scoping",
        "in review",
        "proposed",
    ];
    text.lines().take(HEAD_LINES).any(|line| {
        let line = line
            .trim_start_matches(['-', '*', ' ', '\t'])
            .to_ascii_lowercase();
        let Some(rest) = line.strip_prefix("status:") else {
            return false;
        };
        rest.matches('|').count() >= 2 && STAGES.iter().filter(|s| rest.contains(*s)).count() >= 2
    })
}

/// The proposal directory among `dirs` that holds `path`, if any.
fn in_proposal(path: &str, dirs: &BTreeSet<String>) -> Option<String> {
    dirs.iter()
        .find(|d| *d != "." && crate::files::paths::is_within(path, d))
        .cloned()
}

/// `files` without the ytt files of design directories, and the notes that say which
/// directories were left out.
pub fn set_aside(repo: &Path, files: &[RepoFile]) -> (Vec<RepoFile>, Vec<String>) {
    let proposals = proposal_dirs(repo, files);
    let mut dirs = BTreeSet::new();
    let kept = files
        .iter()
        .filter(|f| {
            match (
                f.kind.is_ytt(),
                dir_of(&f.path).or_else(|| in_proposal(&f.path, &proposals)),
            ) {
                (true, Some(dir)) => {
                    dirs.insert(dir);
                    false
                }
                _ => true,
            }
        })
        .cloned()
        .collect();
    let notes = dirs
        .into_iter()
        .map(|d| {
            format!(
                "{d}: design documents, not linted unless a repository command runs them (list a directory under roots in .yttlint.yaml to lint it)"
            )
        })
        .collect();
    (kept, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    #[test]
    fn design_directories_are_found_by_name() {
        assert_eq!(
            dir_of("proposals/ytt/001-schemas/example.yaml"),
            Some("proposals".to_string())
        );
        assert_eq!(
            dir_of("docs/RFCs/0002/values.yml"),
            Some("docs/RFCs".to_string())
        );
        assert_eq!(dir_of("config/proposals.yml"), None);
        assert_eq!(dir_of("config/app.yml"), None);
    }

    #[test]
    fn a_page_that_gives_a_proposal_s_status_is_a_proposal() {
        let page = "---\ntags: schema\n---\n# Schemas\n\n- Status: Scoping | **Pre-Alpha** | In Alpha | In Beta | GA | Rejected\n- Originating Issue: #103\n";
        assert!(is_proposal(page));
        assert!(is_proposal(
            "# X\n**Status:** Draft | In Review | Accepted | Rejected\n"
        ));
        // A status that is not a choice of a proposal's stages.
        assert!(!is_proposal("# App\n- Status: stable\n"));
        assert!(!is_proposal("# App\nStatus: build | test | deploy\n"));
        // Too far down the page.
        let late = format!(
            "{}Status: Draft | Accepted | Rejected\n",
            "text\n".repeat(50)
        );
        assert!(!is_proposal(&late));
    }

    #[test]
    fn the_files_under_a_proposal_s_page_are_set_aside() {
        let dir = std::env::temp_dir().join(format!("yttlint-proposal-{}", std::process::id()));
        let pages = dir.join("ytt/001-schemas");
        std::fs::create_dir_all(&pages).unwrap();
        std::fs::write(
            pages.join("README.md"),
            "# Schemas\n- Status: Scoping | **Pre-Alpha** | In Alpha | GA | Rejected\n",
        )
        .unwrap();
        let files = [
            RepoFile::for_test("ytt/001-schemas/README.md", Kind::Other),
            RepoFile::for_test("ytt/001-schemas/example.yaml", Kind::YttYaml),
            RepoFile::for_test("config/app.yml", Kind::YttYaml),
        ];
        let (kept, notes) = set_aside(&dir, &files);
        let kept: Vec<&str> = kept.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(kept, vec!["ytt/001-schemas/README.md", "config/app.yml"]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("ytt/001-schemas: design documents"),
            "{notes:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
