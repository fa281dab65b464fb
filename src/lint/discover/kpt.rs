//! kpt packages. A directory with a `Kptfile` whose `pipeline:` lists functions (`mutators:`,
//! `validators:`) is rendered by `kpt fn render`: each function reads the package's YAML
//! resources and writes them back. A function that runs ytt builds its ytt input from the
//! resources (a template held in a field of a wrapper object, with the `load()` lines of the
//! `@ytt:` modules it needs prepended, and data values from another resource), so the files
//! are not what `ytt -f DIR` renders: a root inferred inside the package assumes the pipeline's
//! inputs away, and a `@ytt:` module name the files use without loading it rests on the
//! function ([`super::wrappers::Wrapper::binds`]).

use std::path::Path;

use crate::analysis::ytt_modules;
use crate::files::paths;
use crate::lint::discover::invocations::scripts;
use crate::lint::discover::wrappers::Wrapper;
use crate::lint::repo::walk::RepoFile;

/// A `Kptfile` read at most this long.
const MAX: usize = 1 << 20;

/// The kpt packages of the repository whose pipelines run functions, as wrappers of ytt.
pub fn packages(repo: &Path, files: &[RepoFile]) -> Vec<Wrapper> {
    files
        .iter()
        .filter(|f| f.path.rsplit('/').next() == Some("Kptfile"))
        .filter_map(|f| {
            let text = scripts::read(repo, &f.path, MAX)?;
            runs_functions(&text).then(|| {
                let dir = paths::parent(&f.path);
                Wrapper {
                    tool: "kpt",
                    dir: if dir.is_empty() { "." } else { dir }.to_string(),
                    marker: f.path.clone(),
                    gives: "the inputs its function pipeline builds from the package's resources",
                    binds: &ytt_modules::NAMES,
                }
            })
        })
        .collect()
}

/// Whether a Kptfile's text is kpt's (`kind: Kptfile`) and its `pipeline:` lists a function
/// (an `image:` or `exec:` under `mutators:` or `validators:`).
fn runs_functions(text: &str) -> bool {
    let kptfile = text.lines().any(|l| l.trim_end() == "kind: Kptfile");
    let mut in_pipeline = false;
    let mut in_list = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let top = !line.starts_with(' ') && !line.starts_with('\t');
        if top {
            in_pipeline = line.trim_end() == "pipeline:";
            in_list = false;
            continue;
        }
        if !in_pipeline {
            continue;
        }
        if matches!(trimmed.trim_end(), "mutators:" | "validators:") {
            in_list = true;
            continue;
        }
        let item = trimmed.strip_prefix("- ").unwrap_or(trimmed);
        if in_list && (item.starts_with("image:") || item.starts_with("exec:")) {
            return kptfile;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kptfile_with_a_function_pipeline_runs_functions() {
        let text = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n    - image: example.com/fn:v1\n      configPath: fn.yaml\n";
        assert!(runs_functions(text));
        let validators = "kind: Kptfile\npipeline:\n  validators:\n  - exec: ./check\n";
        assert!(runs_functions(validators));
    }

    #[test]
    fn a_kptfile_without_functions_or_another_kind_does_not() {
        assert!(!runs_functions(
            "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\ninfo:\n  description: d\n"
        ));
        assert!(!runs_functions("kind: Kptfile\npipeline: {}\n"));
        assert!(!runs_functions(
            "kind: Other\npipeline:\n  mutators:\n  - image: fn\n"
        ));
        assert!(!runs_functions(
            "kind: Kptfile\nother:\n  mutators:\n  - image: fn\n"
        ));
    }
}
