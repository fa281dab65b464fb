//! The committed example beside an input the repository does not hold: `P.template`,
//! `P.example`, `P.sample` or `P.tmpl` next to a gitignored (or missing) `P` is the text the
//! user's own `P` starts from (round sixteen's LR16A-1: `values/default.yaml` gitignored,
//! `values/default.yaml.template` committed, whatever `P`'s name says of it). A command that
//! reads `P` is linted with the example in its place, assuming `example-values`: what fails
//! with it is a warning that names the example, never a certain error. A values file's
//! examples of other spellings (`values-example.yml`) are [`super::missing`]'s.
//!
//! The example's name may also put the word before the extension (`addon.lib.template.yaml`
//! beside `addon.lib.yaml`, `values.tpl.yml` beside `values.yml`: round thirty-seven's R37-1);
//! a job takes it for a file a template loads as well ([`crate::lint::job::loaded_example`]).
//!
//! Bounded: `P` a repository path naming a file ytt reads as a template or Starlark (`.yml`,
//! `.yaml`, `.star`), the example a file of the repository beside it.

use super::index::Index;
use crate::report::{Assumption, AssumptionKind, Subject};

/// The suffixes of an example beside the file it stands for.
const SUFFIXES: [&str; 4] = [".template", ".example", ".sample", ".tmpl"];

/// The words an example's name puts before the extension (`NAME.template.yaml`).
const INFIXES: [&str; 5] = [".template", ".tpl", ".example", ".sample", ".tmpl"];

/// The extensions of the files ytt reads as a template or Starlark.
const READ: [&str; 3] = [".yml", ".yaml", ".star"];

/// The committed example beside `path` (`values/default.yaml.template`), if the repository
/// holds one and `path` names a YAML or Starlark file.
pub fn example(path: &str, index: &Index) -> Option<String> {
    candidates(path).into_iter().find(|p| index.is_file(p))
}

/// The names an example of `path` may have beside it, in the order they are preferred: each
/// suffix (`P.template`), then each word before the extension (`NAME.template.yaml`). None
/// unless `path` names a YAML or Starlark file by a plain relative path.
pub fn candidates(path: &str) -> Vec<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some(ext) = READ
        .iter()
        .find(|e| name.len() > e.len() && name.ends_with(*e))
    else {
        return Vec::new();
    };
    if path.split('/').any(|s| s == ".." || s.is_empty()) {
        return Vec::new();
    }
    let stem = &path[..path.len() - ext.len()];
    let mut out: Vec<String> = SUFFIXES.iter().map(|s| format!("{path}{s}")).collect();
    out.extend(INFIXES.iter().map(|i| format!("{stem}{i}{ext}")));
    out
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
        // The word before the extension.
        let index = Index::new([
            "overlays/addon.lib.template.yaml",
            "cfg/values.tpl.yml",
            "cfg/values.yml.example",
        ]);
        assert_eq!(
            example("overlays/addon.lib.yaml", &index).as_deref(),
            Some("overlays/addon.lib.template.yaml")
        );
        // A suffix is preferred.
        assert_eq!(
            example("cfg/values.yml", &index).as_deref(),
            Some("cfg/values.yml.example")
        );
        assert_eq!(example("overlays/addon.yaml", &index), None);
        let index = Index::new(["values/default.yaml.template", "cfg/settings.json.template"]);
        // Not a file ytt reads as YAML or Starlark, no example beside it, a directory.
        assert_eq!(example("cfg/settings.json", &index), None);
        assert_eq!(example("values/other.yaml", &index), None);
        assert_eq!(example("values", &index), None);
        let a = assumption("values/default.yaml", "values/default.yaml.template");
        assert_eq!(a.kind, AssumptionKind::ExampleValues);
    }
}
