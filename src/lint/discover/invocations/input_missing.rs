//! The `input-missing` finding of a command one of whose inputs does not exist: at the
//! command's line, under a root named after the inputs, with the command's provenance (an
//! error when the command is certain).

use super::index::Index;
use super::made::{self, MadeAt};
use super::resolve::{MissingInput, Skipped};
use super::shell::Entered;
use crate::files::paths;
use crate::lint::discover::provenance::source_of;
use crate::lint::discover::vendir::Target;
use crate::report::{Basis, Diagnostic, Provenance, Rule, Severity, Span};
use std::collections::BTreeSet;

/// The finding.
pub fn finding(m: &MissingInput) -> Diagnostic {
    let shown: Vec<String> = m.paths.iter().map(|(p, _)| p.clone()).collect();
    let what = match shown.as_slice() {
        [one] => format!("input {one} of the ytt command does not exist"),
        many => format!("inputs {} of the ytt command do not exist", many.join(", ")),
    };
    // A script a page runs: at the script's command, the page's line that runs it beside.
    let at = m.written.as_ref().unwrap_or(&m.origin);
    let mut d = Diagnostic::new(
        Rule::InputMissing,
        format!("{what}, and no command of the repository makes it"),
    )
    .at(Span::point(&at.file, at.line, 1));
    if m.written.is_some() {
        d = d.with_related(
            format!("the command runs from here ({})", m.origin),
            Span::point(&m.origin.file, m.origin.line, 1),
        );
    }
    let hints: Vec<String> = m
        .paths
        .iter()
        .filter_map(|(p, near)| near.as_ref().map(|n| format!("{n} (for {p})")))
        .collect();
    d = match hints.as_slice() {
        [] => d.with_help(
            "ytt stops with \"no such file or directory\": fix the path, or remove the command",
        ),
        [one] => d.with_help(format!(
            "did you mean {}?",
            one.split(" (for ").next().unwrap_or(one)
        )),
        many => d.with_help(format!("did you mean {}?", many.join(", "))),
    };
    let origin = m.origin.to_string();
    let mut p = Provenance::of(source_of(&origin), Some(origin));
    for a in &m.assumed {
        p.assume(a.clone());
    }
    d.certainty = Some(p.certainty(Basis::Command));
    if m.fails && m.written.is_none() {
        // Lowered to a warning by `post::certainty` when it assumes something.
        d.severity = Severity::Error;
    }
    d.root = Some(shown.join(" + "));
    d
}

/// Why a command whose inputs are missing is not reported: it is another project's (in a
/// directory `vendir sync` fills) or meant to run in a copy (a command of the repository
/// copies its script elsewhere); `None` when it is reported.
pub fn excused(m: &MissingInput, vendir: &[Target], made: &[MadeAt]) -> Option<String> {
    let file = &m.origin.file;
    if let Some(t) = vendir.iter().find(|t| paths::is_within(file, &t.dir)) {
        return Some(format!(
            "{file} is another project's, which `vendir sync` writes ({}:{})",
            t.file, t.line
        ));
    }
    let c = made::copier(made, file)?;
    Some(format!(
        "{file} is copied elsewhere by {}, where its paths are meant to exist",
        c.described()
    ))
}

/// The note that says in the report why a page's command is not linted, when it is excused
/// because a command of the repository copies the page elsewhere (`why`, from [`excused`]):
/// its reader's procedure is never dropped without a trace (round fifty-three's N53-2, where
/// the trace was only in `--list-roots`). A script's command copied elsewhere is the common
/// way a catalog's scripts are installed, and stays in `--list-roots` alone.
pub fn excused_note(m: &MissingInput, why: &str) -> Option<Diagnostic> {
    if source_of(&m.origin.file) != crate::report::Source::Document {
        return None;
    }
    let shown: Vec<&str> = m.paths.iter().map(|(p, _)| p.as_str()).collect();
    let d = Diagnostic::new(
        Rule::NeedsInput,
        format!(
            "the page's ytt command is not linted: {} is not in the repository from where the \
             page is, and {why}",
            shown.join(", ")
        ),
    )
    .at(Span::point(&m.origin.file, m.origin.line, 1))
    .with_help(
        "if the command runs here, list it in .yttlint.yaml with the files it reads (`roots:`)",
    );
    Some(d)
}

/// The missing inputs, each reported once: a script another runs is reported where the path
/// is written (in that script), not again at each line that runs it.
pub fn once_each(all: Vec<MissingInput>, entered: &BTreeSet<Entered>) -> Vec<MissingInput> {
    let key = |m: &MissingInput| -> Vec<String> { m.paths.iter().map(|p| p.0.clone()).collect() };
    let written_there =
        |m: &MissingInput| entered.contains(&Entered::Script(m.origin.file.clone()));
    let mut out: Vec<MissingInput> = Vec::new();
    for m in all {
        match out
            .iter_mut()
            .find(|o| key(o) == key(&m) && o.origin.file != m.origin.file)
        {
            Some(o) => {
                if written_there(&m) && !written_there(o) {
                    *o = m;
                }
            }
            None => out.push(m),
        }
    }
    out
}

/// The command, skipped: its other inputs are meant to be rendered with the missing one. A
/// missing path claims the nearest directory of the repository above it (not the top): the
/// command meant to render from there, so a file there is what it meant (moved), never left
/// over beside it. A missing folder (a last segment without an extension) claims only the
/// files directly in that directory: its sibling folders are other folders ytt would read
/// only if named, never what the command meant.
pub fn skip(m: MissingInput, index: &Index) -> Skipped {
    let shown: Vec<&str> = m.paths.iter().map(|(p, _)| p.as_str()).collect();
    let mut claims: Vec<String> = m
        .claims
        .iter()
        .filter(|c| !shown.contains(&c.as_str()))
        .cloned()
        .collect();
    for p in shown.iter().filter(|_| m.dir_claims) {
        let mut dir = paths::parent(p);
        while dir != "." && !index.is_dir(dir) {
            dir = paths::parent(dir);
        }
        if dir == "." {
            continue;
        }
        let meant: Vec<&str> = match folder_like(p) {
            true => index
                .files_under(dir)
                .filter(|f| paths::parent(f) == dir)
                .collect(),
            false => vec![dir],
        };
        for c in meant {
            if !claims.iter().any(|have| have == c) {
                claims.push(c.to_string());
            }
        }
    }
    Skipped {
        reason: format!("{} does not exist (input-missing)", shown.join(", ")),
        origin: m.origin,
        claims,
        placeholder: None,
        left_out: Vec::new(),
        got: None,
    }
}

/// Whether a missing path names a folder: its last segment has no extension (`services/api`,
/// not `values.yml`; a hidden name `.config` counts as a file's).
fn folder_like(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or(path);
    !last.is_empty() && !last.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    #[test]
    fn the_finding_is_at_the_command_and_names_what_was_meant() {
        let m = MissingInput {
            origin: Origin {
                file: "README.md".into(),
                line: 9,
            },
            paths: vec![(
                "user-provided/values-typo.yml".into(),
                Some("user-provided/values-a.yml".into()),
            )],
            found: 1,
            claims: vec!["config".into()],
            evident: true,
            assumed: Vec::new(),
            written: None,
            dir_claims: true,
            fails: false,
            corrected: None,
        };
        let d = finding(&m);
        assert_eq!(d.rule, Rule::InputMissing);
        // A warning by default: a step the linter does not see may make the file.
        assert_eq!(d.severity, Severity::Warning);
        let span = d.span.as_ref().unwrap();
        assert_eq!((span.file.as_str(), span.line), ("README.md", 9));
        assert_eq!(
            d.help.as_deref(),
            Some("did you mean user-provided/values-a.yml?")
        );
        let c = d.certainty.as_ref().unwrap();
        assert!(c.certain());
        assert_eq!(c.origin.as_deref(), Some("README.md:9"));
        // The missing file's directory exists: the command meant to render from there.
        let index = Index::new(["config/a.yml", "user-provided/values-a.yml"]);
        assert_eq!(
            skip(m.clone(), &index).claims,
            vec!["config", "user-provided"]
        );
        // A page's own command fails for certain: an error; one found only by what moved
        // claims no directory it does not read.
        let page = MissingInput {
            fails: true,
            corrected: None,
            dir_claims: false,
            ..m
        };
        assert_eq!(finding(&page).severity, Severity::Error);
        assert_eq!(skip(page, &index).claims, vec!["config"]);
    }

    #[test]
    fn a_missing_folder_claims_the_files_beside_it_not_its_sibling_folders() {
        let m = MissingInput {
            origin: Origin {
                file: "Makefile".into(),
                line: 2,
            },
            paths: vec![("services/gateway".into(), None)],
            found: 0,
            claims: Vec::new(),
            evident: true,
            assumed: Vec::new(),
            written: None,
            dir_claims: true,
            fails: false,
            corrected: None,
        };
        let index = Index::new([
            "services/common.yaml",
            "services/api/deploy.yaml",
            "services/worker/deploy.yaml",
        ]);
        assert_eq!(skip(m, &index).claims, vec!["services/common.yaml"]);
        assert!(folder_like("services/gateway"));
        assert!(!folder_like("config/values.yml"));
        assert!(!folder_like("config/.hidden"));
    }
}
