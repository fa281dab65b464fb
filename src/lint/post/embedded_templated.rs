//! A ytt document written as a string that holds another tool's template actions (`{{ }}`
//! outside its `#@` lines): that tool renders the outer file, and the string with it, before
//! ytt reads the result, so what the linter sees is not what ytt reads. The usual case is a
//! Helm chart's template (a file under `templates/` of a directory with a `Chart.yaml`) that
//! writes a TKG addon Secret whose `values.yaml: |` holds ytt data values filled in by Helm
//! (`replicas: {{ if eq .Values.plan "prod" }}3{{ else }}1{{ end }}`). The string's findings
//! then rest on the other tool (`other-template`, so they are notes), as a template file with
//! `{{ }}` lines is ([`crate::lint::job::certainty`]).

use crate::files::paths;
use crate::lint::repo::walk::RepoFile;
use crate::report::{Assumption, AssumptionKind};

/// The assumption a string `held` of the file at `outer`, of text `text`, makes when another
/// tool's template actions are in it (`files`: the repository's, to name Helm by its chart).
pub fn assumption(outer: &str, held: &str, text: &str, files: &[RepoFile]) -> Option<Assumption> {
    if !templated(text) {
        return None;
    }
    let tool = match helm_chart(outer, files) {
        Some(chart) => format!("Helm ({chart})"),
        None => "that tool".to_string(),
    };
    Some(Assumption::new(
        AssumptionKind::OtherTemplate,
        format!(
            "the string {held} holds another tool's template actions (`{{{{ }}}}`): {tool} renders {outer} before ytt reads the string"
        ),
    ))
}

/// Whether a line of `text` outside ytt's own comments holds a `{{ … }}` action.
fn templated(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        if t.starts_with("#@") || t.starts_with("#!") {
            return false;
        }
        t.find("{{")
            .is_some_and(|open| t[open + 2..].contains("}}"))
    })
}

/// The `Chart.yaml` of the Helm chart whose `templates/` holds the file at `path`.
fn helm_chart(path: &str, files: &[RepoFile]) -> Option<String> {
    let mut dir = paths::parent(path);
    while !dir.is_empty() && dir != "." {
        let name = dir.rsplit('/').next().unwrap_or(dir);
        let chart_dir = paths::parent(dir);
        if name == "templates" {
            let chart = match chart_dir {
                "" | "." => "Chart.yaml".to_string(),
                d => format!("{d}/Chart.yaml"),
            };
            if files.iter().any(|f| f.path == chart) {
                return Some(chart);
            }
        }
        dir = chart_dir;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::repo::walk::Kind;

    fn file(path: &str) -> RepoFile {
        RepoFile::for_test(path, Kind::Other)
    }

    #[test]
    fn a_string_with_go_template_actions_is_another_tool_s_first() {
        let files = [file("deploy/chart/Chart.yaml")];
        let text = "#@data/values\n---\ncsi:\n  replicas: {{ .Values.replicas }}\n";
        let a = assumption(
            "deploy/chart/templates/addons/csi.yaml",
            "`values.yaml` (deploy/chart/templates/addons/csi.yaml:7)",
            text,
            &files,
        );
        let a = a.map(|a| (a.kind, a.message));
        assert_eq!(
            a,
            Some((
                AssumptionKind::OtherTemplate,
                "the string `values.yaml` (deploy/chart/templates/addons/csi.yaml:7) holds another tool's template actions (`{{ }}`): Helm (deploy/chart/Chart.yaml) renders deploy/chart/templates/addons/csi.yaml before ytt reads the string".to_string()
            ))
        );
        // Not under a chart: some other tool.
        let other = assumption("x.yaml.tpl", "`v`", text, &[]);
        assert!(other.is_some_and(|a| a.message.contains("that tool renders x.yaml.tpl")));
    }

    #[test]
    fn ytt_s_own_lines_and_plain_braces_are_no_actions() {
        for text in [
            "#@data/values\n---\na: 1\n",
            "#@ x = \"{{ not helm }}\"\n---\na: 1\n",
            "#! {{ a comment }}\n---\na: 1\n",
            "#@data/values\n---\na: \"}} {{\"\n",
        ] {
            assert!(!templated(text), "{text}");
        }
        assert!(templated("---\na: {{- .x -}}\n"));
    }
}
