//! Another project's files inside the repository: a directory that `vendir.yml` (or
//! `vendir.lock.yml`) syncs from elsewhere (`git`, `helmChart`, `http`, an image ...). Its
//! scripts, READMEs and Package resources are that project's, not this repository's commands,
//! and its directories of ytt files are no roots of their own: its files are linted only as far
//! as a command outside it reads them (as that command's inputs, with their findings there).
//! What is left out is said once per directory. ytt's own file tests (a template, a `+++` line,
//! then the expected output) are no ytt input either (`repo::filetest`); the walk sets them
//! aside, and each directory holding some gets one note.

use std::collections::BTreeMap;
use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::discover::invocations::scripts;
use crate::lint::discover::vendir::Target;
use crate::lint::discover::{Discovery, Reason};
use crate::lint::repo::filetest::is_filetest;
use crate::lint::repo::walk::{Kind, RepoFile};

/// The synced third-party directory that holds `path`, if any.
pub fn holding<'t>(targets: &'t [Target], path: &str) -> Option<&'t Target> {
    targets
        .iter()
        .find(|t| t.synced && t.third_party && t.dir != "." && is_within(path, &t.dir))
}

/// Drops from `d` what lies in a third-party directory that nothing outside it reads (roots of
/// its layout or its own Package resources, libraries no kept root reads), and says once per
/// directory what was left out: its ytt files read by no command, and `commands`, the files in
/// it whose ytt commands were not taken as the repository's.
pub fn leave_out(d: &mut Discovery, files: &[RepoFile], commands: &[String]) {
    let third: Vec<Target> = d
        .vendir
        .iter()
        .filter(|t| t.synced && t.third_party && t.dir != ".")
        .cloned()
        .collect();
    if third.is_empty() {
        return;
    }
    let own = |r: &crate::lint::discover::Root| match &r.reason {
        Reason::Topmost => holding(&third, &r.path).is_none(),
        Reason::Package { file, .. } => holding(&third, file).is_none(),
        _ => true,
    };
    d.roots.retain(own);
    // The notes about its files (design documents ...) give way to the one below.
    d.notes.retain(|n| {
        let first = n.split([':', ' ']).next().unwrap_or("");
        holding(&third, first).is_none()
    });
    let read = |p: &str| {
        d.roots
            .iter()
            .any(|r| r.inputs.iter().any(|i| is_within(p, i) || is_within(i, p)))
    };
    let libraries = std::mem::take(&mut d.libraries);
    d.libraries = libraries
        .into_iter()
        .filter(|l| holding(&third, &l.path).is_none() || read(&l.path))
        .collect();
    for t in &third {
        let unread = files
            .iter()
            .filter(|f| f.kind.is_ytt() && is_within(&f.path, &t.dir))
            .filter(|f| !read(&f.path))
            .count();
        let ran: Vec<&str> = commands
            .iter()
            .filter(|c| is_within(c, &t.dir))
            .map(String::as_str)
            .collect();
        if unread == 0 && ran.is_empty() {
            continue;
        }
        let mut left = Vec::new();
        if unread > 0 {
            left.push(format!(
                "{unread} ytt {} no command of the repository reads",
                if unread == 1 { "file" } else { "files" }
            ));
        }
        if !ran.is_empty() {
            let shown: Vec<&str> = ran.iter().take(3).copied().collect();
            let more = match ran.len() {
                n if n > 3 => format!(" and {} more", n - 3),
                _ => String::new(),
            };
            left.push(format!(
                "the ytt commands in {}{more} (that project's, not this repository's)",
                shown.join(", ")
            ));
        }
        d.notes.push(format!(
            "{} is another project's, synced by vendir ({}:{}): linted only where the repository's own commands read it; left out: {}",
            t.dir,
            t.file,
            t.line,
            left.join("; ")
        ));
    }
}

/// One note per directory holding ytt file tests the walk set aside.
pub fn filetest_notes(repo: &Path, files: &[RepoFile], targets: &[Target]) -> Vec<String> {
    let mut by_dir: BTreeMap<&str, usize> = BTreeMap::new();
    for f in files.iter().filter(|f| f.kind == Kind::Other) {
        let ext = f.path.rsplit('.').next().unwrap_or("");
        if !matches!(ext, "yml" | "yaml" | "txt") || holding(targets, &f.path).is_some() {
            continue;
        }
        let Some(text) = scripts::read(repo, &f.path, 1 << 20) else {
            continue;
        };
        if is_filetest(&text) && (ext != "txt" || text.contains("(@")) {
            *by_dir.entry(paths::parent(&f.path)).or_default() += 1;
        }
    }
    by_dir
        .into_iter()
        .map(|(dir, n)| {
            format!(
                "{dir}: {n} {} ytt's file tests (a template, a `+++` line, the expected output): no ytt input, not linted",
                if n == 1 { "file is one of" } else { "files are" }
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(dir: &str, third_party: bool) -> Target {
        Target {
            file: "vendir.yml".to_string(),
            line: 5,
            dir: dir.to_string(),
            synced: true,
            third_party,
        }
    }

    #[test]
    fn only_a_synced_fetched_directory_is_another_projects() {
        let t = [target("src/tool", true), target("config/own", false)];
        assert!(holding(&t, "src/tool/hack/test.sh").is_some());
        assert!(holding(&t, "src/toolbox/x.yml").is_none());
        assert!(holding(&t, "config/own/x.yml").is_none());
        let top = [target(".", true)];
        assert!(holding(&top, "x.yml").is_none());
    }
}
