//! The files a kapp-controller App renders together with what it fetches. An App whose ytt
//! paths are not in the repository fetches another repository (or a URL) and renders its
//! files there: `0/config/job.yaml` of its first fetch, `1/<branch>` of its second (a file
//! named at run time, `#@ "1/{}".format(...)`), `.git/refs/heads/main` of the clone. The
//! repository often keeps copies of the templates beside the App (round sixteen's R16A-2: an
//! App Accelerator's `resources/app.yaml` with `resources/job.yaml`, which reads the fetched
//! file with `data.read`). Rendered in a layout root without the fetched files, such a copy
//! fails for want of an input only kapp-controller gives: the copies are read only with
//! inputs the repository does not hold, so they make no root of their own and are checked
//! on their own (parse, compile, annotations), never evaluated with a guessed command.
//!
//! The rule: an App (`kappctrl.k14s.io`) with a fetch and a ytt step, which
//! [`super::package`] does not render (its paths are not here), some of whose paths name by
//! their file name a ytt file in the App's own folder (the copies) while others name nothing
//! the folder holds or are written as templates (the fetched inputs).
//!
//! Bounded: the first four documents of a file, [`MAX_PATHS`] paths of a step.

use crate::files::paths;
use crate::lint::discover::invocations::index::Index;
use crate::lint::repo::yaml_doc::{documents, get, items, string};

/// Paths of one step read at most.
const MAX_PATHS: usize = 256;

/// An App's copies of the templates it renders with fetched inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// The App's file and the line of its document.
    pub file: String,
    pub line: u32,
    pub name: String,
    /// The repository's copies (`resources/job.yaml`).
    pub copies: Vec<String>,
    /// The paths it renders that the repository does not hold, as written (`1/<a template>`).
    pub fetched: Vec<String>,
}

impl Fetched {
    /// Why the copies are not evaluated.
    pub fn reason(&self) -> String {
        let app = if self.name.is_empty() {
            "the App".to_string()
        } else {
            format!("App {}", self.name)
        };
        format!(
            "{app} renders {} with what it fetches ({}), which the repository does not hold: kapp-controller renders them there; checked on their own",
            self.copies.join(", "),
            self.fetched.join(", ")
        )
    }
}

/// The Apps of the file `file` (text `text`) whose ytt paths name copies in its folder and
/// fetched inputs; `rendered`: the lines of the documents [`super::package`] renders, left
/// out; `is_ytt`: whether a repository path is a ytt file.
pub fn apps(
    file: &str,
    text: &str,
    index: &Index,
    rendered: &[u32],
    is_ytt: impl Fn(&str) -> bool,
) -> Vec<Fetched> {
    let dir = paths::parent(file);
    let mut out = Vec::new();
    for doc in documents(file, text).iter().take(4) {
        let v = &doc.value;
        let line = doc.pos.line.max(1);
        let api = string(get(v, "apiVersion")).unwrap_or("");
        if string(get(v, "kind")) != Some("App")
            || !api.starts_with("kappctrl.k14s.io/")
            || rendered.contains(&line)
        {
            continue;
        }
        let Some(spec) = get(v, "spec") else { continue };
        if items(get(spec, "fetch")).is_empty() {
            continue;
        }
        let Some(ytt) = items(get(spec, "template"))
            .into_iter()
            .find_map(|s| get(s, "ytt"))
        else {
            continue;
        };
        let mut copies: Vec<String> = Vec::new();
        let mut fetched: Vec<String> = Vec::new();
        for p in items(get(ytt, "paths")).into_iter().take(MAX_PATHS) {
            let Some(p) = p.as_str() else {
                // Written as a template (`#@ "1/{}".format(...)`): named at run time.
                fetched.push("<a path named at run time>".to_string());
                continue;
            };
            let clean = p.trim_start_matches("./");
            let name = clean.rsplit('/').next().unwrap_or(clean);
            let copy = paths::join(dir, name);
            let named_file = name.contains('.') && !name.starts_with('.');
            if named_file && copy != file && is_ytt(&copy) && !index.exists(clean) {
                if !copies.contains(&copy) {
                    copies.push(copy);
                }
            } else if !index.exists(clean) {
                fetched.push(p.to_string());
            }
        }
        if copies.is_empty() || fetched.is_empty() {
            continue;
        }
        let name = string(get(v, "metadata").and_then(|m| get(m, "name"))).unwrap_or("");
        out.push(Fetched {
            file: file.to_string(),
            line,
            name: name.to_string(),
            copies,
            fetched,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const APP: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: runner\nspec:\n  fetch:\n  - git:\n      url: https://example.invalid/jobs\n  - http:\n      url: https://example.invalid/sha\n  template:\n  - ytt:\n      paths:\n      - 0/config/job.yaml\n      - 0/config/values.yaml\n      - #@ \"1/{}\".format(data.values.branch)\n  deploy:\n  - kapp: {}\n";

    fn ytt(p: &str) -> bool {
        ["deploy/job.yaml", "deploy/values.yaml", "deploy/app.yaml"].contains(&p)
    }

    #[test]
    fn an_apps_copies_rendered_with_fetched_inputs() {
        let index = Index::new(["deploy/job.yaml", "deploy/values.yaml", "deploy/app.yaml"]);
        let got = apps("deploy/app.yaml", APP, &index, &[], ytt);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].copies, ["deploy/job.yaml", "deploy/values.yaml"]);
        assert_eq!(got[0].fetched, ["<a path named at run time>"]);
        assert_eq!(got[0].name, "runner");
        assert!(got[0].reason().contains("deploy/job.yaml"));
        // Rendered by `package` (its paths are here): left to it.
        let line = got[0].line;
        assert!(apps("deploy/app.yaml", APP, &index, &[line], ytt).is_empty());
    }

    #[test]
    fn no_copies_or_nothing_fetched_is_no_such_app() {
        // Every path has its copy: nothing says the copies need more than they are.
        let all = APP.replace("      - #@ \"1/{}\".format(data.values.branch)\n", "");
        let index = Index::new(["deploy/job.yaml", "deploy/values.yaml", "deploy/app.yaml"]);
        assert!(apps("deploy/app.yaml", &all, &index, &[], ytt).is_empty());
        // No copy in the App's folder: the App is another repository's business.
        let index = Index::new(["deploy/app.yaml"]);
        assert!(apps("deploy/app.yaml", APP, &index, &[], |p| p
            == "deploy/app.yaml")
        .is_empty());
    }
}
