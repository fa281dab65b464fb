//! A job's static analysis, as findings and as [`Usage`]: what the job's library declares and
//! reads of its data values and which of its findings sit in code nothing runs, for the
//! findings that need every job (`lint/post/unused_values.rs`, `lint/post/stale.rs`). A value
//! is unused only when no root that includes its declaration reads it; a stale finding only
//! when no root runs its code. Usage travels in [`crate::lint::job::JobOutcome`], through
//! worker processes and the caches, with repository paths.

use serde::{Deserialize, Serialize};

use crate::analysis::conditions::Tested;
use crate::analysis::value_reads::ReadPath;
use crate::analysis::Outside;
use crate::library::Workspace;
use crate::lint::job::inputs::Names;
use crate::lint::job::span_at;
use crate::report::{Diagnostic, Rule, Severity, Span};

/// What a job's library declares and reads of its data values, and its stale findings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Repository files that declare the library's data values (a schema, a `@data/values`
    /// document).
    pub declares: Vec<String>,
    /// Every read of data values in the library.
    pub reads: Vec<ReadPath>,
    /// The repository directories that hold the library's files.
    pub dirs: Vec<String>,
    /// The values of its `data-value-unused` findings: where each is declared, and its path.
    pub unused: Vec<(Span, Vec<String>)>,
    /// Repository directories of private libraries it hands data values whole; a `_ytt_lib`
    /// directory stands for every library in it.
    pub handed_over: Vec<String>,
    /// Its findings in code nothing runs.
    pub stale: Vec<(Rule, Span)>,
}

impl Usage {
    /// Every repository path the usage names.
    pub fn paths(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.declares.iter().map(String::as_str).collect();
        out.extend(self.dirs.iter().map(String::as_str));
        out.extend(self.handed_over.iter().map(String::as_str));
        out.extend(self.unused.iter().map(|(s, _)| s.file.as_str()));
        out.extend(self.stale.iter().map(|(_, s)| s.file.as_str()));
        out
    }

    /// The usage with every repository path passed through `place` (a copy of a library kept
    /// under another directory).
    pub fn placed(mut self, place: &dyn Fn(&str) -> String) -> Usage {
        let all = self.declares.iter_mut().chain(&mut self.dirs);
        for f in all.chain(&mut self.handed_over) {
            *f = place(f);
        }
        for (s, _) in &mut self.unused {
            s.file = place(&s.file);
        }
        for (_, s) in &mut self.stale {
            s.file = place(&s.file);
        }
        self
    }
}

/// The static findings of the workspace's library (see [`crate::analysis`]), given
/// `outside`, and its usage. `closed`: every caller of its code is in sight (a root), so a
/// finding in code nothing runs is a warning that says so.
pub fn static_findings(
    ws: &Workspace,
    names: &Names,
    outside: &Outside,
    closed: bool,
) -> (Vec<Diagnostic>, Usage, Vec<Tested>) {
    let analysis = crate::analysis::analyse(ws, "", outside, closed);
    let tested = analysis.tested;
    let mut usage = Usage {
        reads: analysis.reads,
        dirs: repo_dirs(ws, names),
        declares: repo_files(names, &analysis.declares),
        handed_over: analysis
            .handed_over
            .iter()
            .filter_map(|dir| repo_dir(ws, names, dir))
            .collect(),
        ..Usage::default()
    };
    for (path, pos) in &analysis.unused {
        if let Some(span) = span_at(names, pos) {
            usage.unused.push((span, path.clone()));
        }
    }
    let mut out = Vec::new();
    for f in analysis.findings {
        let Some(mut span) = span_at(names, &f.pos) else {
            continue;
        };
        if f.stale {
            usage.stale.push((f.rule, span.clone()));
        }
        span.end_column = span.column + f.width;
        // The finding's own file is where its span is (a name two files share is told apart
        // there); other files by name.
        let place = |file: &str| match f.pos.file.as_deref() == Some(file) {
            true => Some(span.file.clone()),
            false => names.repo_path(file).map(str::to_string),
        };
        let fix = f.fix.and_then(|fix| fix.placed(&place));
        let mut d = Diagnostic::new(f.rule, f.message).at(span).with_fix(fix);
        if f.stale {
            d.severity = Severity::Warning;
        }
        if f.on_inputs {
            d.basis = Some(crate::report::Basis::Inputs);
        }
        if f.rule == crate::analysis::undefined::RULE {
            // A name the file does not define fails it whatever the inputs (as the
            // evaluation's own compile error does).
            d.basis = Some(crate::report::Basis::Text);
        }
        for (message, pos) in &f.related {
            if let Some(span) = span_at(names, pos) {
                d = d.with_related(message.clone(), span);
            }
        }
        out.push(d);
    }
    (out, usage, tested)
}

/// Only what the library declares and reads (and the data values it tests as conditions): for
/// a scenario whose files are not the ones the root's first scenario analyses.
pub fn reads_only(ws: &Workspace, names: &Names) -> (Usage, Vec<Tested>) {
    let (reads, tested) = crate::analysis::reads_and_tested(ws, "");
    let usage = Usage {
        reads,
        dirs: repo_dirs(ws, names),
        declares: repo_files(
            names,
            &crate::analysis::value_reads::declaring_files(ws, ""),
        ),
        ..Usage::default()
    };
    (usage, tested)
}

/// The repository files of workspace names: every file of a name two inputs give (a values
/// file `-f deploy/values.yaml` gives beside the root's own `values.yaml` declares too).
fn repo_files(names: &Names, files: &[String]) -> Vec<String> {
    let mut out: Vec<String> = files
        .iter()
        .flat_map(|f| names.all_repo_paths(f))
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The repository directories of the workspace's files.
fn repo_dirs(ws: &Workspace, names: &Names) -> Vec<String> {
    let mut out: Vec<String> = ws
        .files
        .iter()
        .flat_map(|f| names.all_repo_paths(&f.rel_path))
        .map(|p| crate::files::paths::parent(p).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The repository directory of the workspace directory `dir`, from a file inside it.
fn repo_dir(ws: &Workspace, names: &Names, dir: &str) -> Option<String> {
    ws.files.iter().find_map(|f| {
        let rest = f.rel_path.strip_prefix(dir)?.strip_prefix('/')?;
        let repo = names.repo_path(&f.rel_path)?;
        let base = repo.strip_suffix(rest)?.trim_end_matches('/');
        Some(base.to_string())
    })
}
