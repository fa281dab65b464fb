//! The committed example beside an input the repository does not hold: `P.template`,
//! `P.example`, `P.sample` or `P.tmpl` next to a gitignored (or missing) `P` is the text the
//! user's own `P` starts from (round sixteen's LR16A-1: `values/default.yaml` gitignored,
//! `values/default.yaml.template` committed, whatever `P`'s name says of it). A command that
//! reads `P` is linted with the example in its place, assuming `example-values`: what fails
//! with it is a warning that names the example, never a certain error. A values file's
//! examples of other spellings (`values-example.yml`) are [`super::missing`]'s.
//!
//! Bounded: `P` a repository path naming a file ytt reads as a template or Starlark (`.yml`,
//! `.yaml`, `.star`), the example a file of the repository beside it.

use super::index::Index;
use crate::report::{Assumption, AssumptionKind, Subject};

/// The suffixes of an example beside the file it stands for.
const SUFFIXES: [&str; 4] = [".template", ".example", ".sample", ".tmpl"];

/// The committed example beside `path` (`values/default.yaml.template`), if the repository
/// holds one and `path` names a YAML or Starlark file.
pub fn example(path: &str, index: &Index) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let read = [".yml", ".yaml", ".star"]
        .iter()
        .any(|e| name.len() > e.len() && name.ends_with(e));
    if !read || path.split('/').any(|s| s == ".." || s.is_empty()) {
        return None;
    }
    SUFFIXES
        .iter()
        .map(|s| format!("{path}{s}"))
        .find(|p| index.is_file(p))
}

/// The assumption that `path` is the user's copy of `example`.
pub fn assumption(path: &str, example: &str) -> Assumption {
    Assumption::new(
        AssumptionKind::ExampleValues,
        format!(
            "{path} is the user's copy of {example}, the example committed beside it; linted with the example"
        ),
    )
    .about(Subject::StandIn {
        example: example.to_string(),
        copy: path.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_example_beside_the_users_file_stands_in_for_it() {
        let index = Index::new([
            "values/default.yaml.template",
            "config/app.yml.example",
            "lib/helpers.star.tmpl",
            "cfg/settings.json.template",
            "other/x.yaml.sample",
        ]);
        assert_eq!(
            example("values/default.yaml", &index).as_deref(),
            Some("values/default.yaml.template")
        );
        assert_eq!(
            example("config/app.yml", &index).as_deref(),
            Some("config/app.yml.example")
        );
        assert_eq!(
            example("lib/helpers.star", &index).as_deref(),
            Some("lib/helpers.star.tmpl")
        );
        assert_eq!(
            example("other/x.yaml", &index).as_deref(),
            Some("other/x.yaml.sample")
        );
        // Not a file ytt reads as YAML or Starlark, no example beside it, a directory.
        assert_eq!(example("cfg/settings.json", &index), None);
        assert_eq!(example("values/other.yaml", &index), None);
        assert_eq!(example("values", &index), None);
        let a = assumption("values/default.yaml", "values/default.yaml.template");
        assert_eq!(a.kind, AssumptionKind::ExampleValues);
    }
}
