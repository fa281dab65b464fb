//! shalm charts. shalm (github.com/wonderix/shalm) is a tool that wraps ytt: a chart is a
//! directory with a `Chart.star` (shalm's own Starlark, Python-indented, without ytt's `end`)
//! whose `init(self, ...)` fills the chart object; shalm renders the chart's `ytt-templates/`,
//! or the directories `Chart.star` hands to `self.ytt(...)` (with `inject(..., self=self)`),
//! with a variable `self` bound to that object. So the templates read a name no ytt command
//! gives them, and what they render rests on values only shalm computes. A directory with a
//! `Chart.star` that shows one of shalm's signs (its entry point `def init(self`, a call of
//! `self.ytt(` or `inject(`, a `ytt-templates/` beside it) is a [`Wrapper`] that binds `self`.

use std::path::Path;

use crate::files::paths;
use crate::lint::discover::invocations::scripts;
use crate::lint::discover::wrappers::Wrapper;
use crate::lint::repo::walk::RepoFile;

/// A `Chart.star` read at most this long.
const MAX: usize = 1 << 20;

/// The names shalm binds for the templates it renders.
pub const BINDS: [&str; 1] = ["self"];

/// The shalm charts of the repository, as wrappers of ytt.
pub fn charts(repo: &Path, files: &[RepoFile]) -> Vec<Wrapper> {
    files
        .iter()
        .filter(|f| f.path.rsplit('/').next() == Some("Chart.star"))
        .filter_map(|f| {
            let dir = paths::parent(&f.path);
            let text = scripts::read(repo, &f.path, MAX)?;
            let templates = match dir {
                "" | "." => "ytt-templates/".to_string(),
                d => format!("{d}/ytt-templates/"),
            };
            let beside = files.iter().any(|g| g.path.starts_with(&templates));
            is_chart(&text, beside).then(|| Wrapper {
                tool: "shalm",
                dir: if dir.is_empty() { "." } else { dir }.to_string(),
                marker: f.path.clone(),
                gives: "the chart object `self` (the values its `init` computes) and the directories it injects",
                binds: &BINDS,
            })
        })
        .collect()
}

/// Whether a `Chart.star` of text `text` is shalm's (`templates`: a `ytt-templates/`
/// directory is beside it).
fn is_chart(text: &str, templates: bool) -> bool {
    let entry = text.lines().any(|l| {
        l.strip_prefix("def init(")
            .is_some_and(|rest| rest.trim_start().starts_with("self"))
    });
    entry || templates || text.contains("self.ytt(") || text.contains("inject(")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shalm_s_chart_is_told_by_its_entry_point_its_calls_or_its_templates() {
        assert!(is_chart(
            "def init(self, domain=\"x\"):\n  self.domain = domain\n",
            false
        ));
        assert!(is_chart("def init( self ):\n  pass\n", false));
        assert!(is_chart(
            "def template(self):\n  return self.ytt(\"overlays\")\n",
            false
        ));
        assert!(is_chart("x = 1\n", true));
        // A Chart.star of something else.
        assert!(!is_chart("def init(ctx):\n  return ctx\n", false));
        assert!(!is_chart("load(\"@ytt:data\", \"data\")\n", false));
    }
}
