//! The committed example of a file a template loads (round thirty-seven's R37-1): a folder whose
//! template loads `addon.lib.yaml` while the repository commits that library only as
//! `addon.lib.template.yaml` (its `INSERT-TOKEN-HERE` for the user to fill) holds the text the
//! user's copy starts from, as [`crate::lint::discover::invocations::example_beside`] takes
//! `P.template` beside a missing input `P`. The job gives the example under the loaded name, in
//! place of its own (the user's step: copy and fill it), and what it finds assumes
//! `example-values`: a finding that rests on the copy is a warning naming the example, never a
//! certain error; the example's own text is the copy's only as far as the user left it.
//!
//! Bounded: a relative load (`load("addon.lib.yaml", …)`, `../lib/x.star`) of a file the
//! command does not give, by a template or Starlark file it does give, and an example of that
//! file beside it among the command's files, which no file loads by its own name.

use crate::files::{paths, InputFile};
use crate::lint::discover::invocations::example_beside;
use crate::lint::discover::loads;
use crate::lint::job::inputs::Names;
use crate::report::{Assumption, AssumptionKind, Subject};

/// `inputs` with each example of a loaded file the inputs lack named as that file; `names`
/// learns the new names and the stand-ins.
pub fn stand_in(mut inputs: Vec<InputFile>, names: &mut Names) -> Vec<InputFile> {
    let code = |f: &InputFile| {
        [".yml", ".yaml", ".star"]
            .iter()
            .any(|e| f.rel_path.ends_with(e))
            && f.data.contains("load(")
    };
    let mut wanted: Vec<String> = Vec::new();
    for f in inputs.iter().filter(|f| code(f)) {
        let starlark = f.rel_path.ends_with(".star");
        for (_, module) in loads::relative_loads(&f.data, starlark) {
            let Some(w) = loads::normalize(&paths::join(paths::parent(&f.rel_path), &module))
            else {
                continue;
            };
            if !wanted.contains(&w) {
                wanted.push(w);
            }
        }
    }
    let given = |inputs: &[InputFile], n: &str| inputs.iter().any(|f| f.rel_path == n);
    for w in &wanted {
        if given(&inputs, w) {
            continue;
        }
        let example = example_beside::candidates(w)
            .into_iter()
            .find(|c| given(&inputs, c) && !wanted.contains(c));
        let Some(example) = example else { continue };
        let Some(f) = inputs.iter_mut().find(|f| f.rel_path == example) else {
            continue;
        };
        if names.stand_in(&example, w) {
            f.rel_path = w.clone();
        }
    }
    inputs
}

/// The assumption that `copy`, a file a template of the root loads, is the user's copy of
/// `example`.
pub fn assumption(copy: &str, example: &str) -> Assumption {
    Assumption::new(
        AssumptionKind::ExampleValues,
        format!(
            "{copy}, which a template loads, is the user's copy of {example}, the example \
             committed beside it; linted with the example"
        ),
    )
    .about(Subject::StandIn {
        example: example.to_string(),
        copy: copy.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_of_a_loaded_file_takes_its_name() {
        let mut names = Names::default();
        for f in [
            "addon.yaml",
            "addon.lib.template.yaml",
            "other.template.yaml",
            "a.yaml",
        ] {
            names.add_file(f, format!("overlays/{f}"), &std::sync::Arc::from(""));
        }
        names.add_file(
            "l.lib.tpl.yaml",
            "overlays/l.lib.tpl.yaml".into(),
            &std::sync::Arc::from(""),
        );
        let inputs = vec![
            InputFile::new(
                "addon.yaml",
                "#@ load(\"addon.lib.yaml\", \"objects\")\na: #@ objects()\n",
            ),
            InputFile::new("addon.lib.template.yaml", "#@ def objects():\n#@ end\n"),
            InputFile::new("other.template.yaml", "b: 1\n"),
        ];
        let out = stand_in(inputs, &mut names);
        let got: Vec<&str> = out.iter().map(|f| f.rel_path.as_str()).collect();
        assert_eq!(got, ["addon.yaml", "addon.lib.yaml", "other.template.yaml"]);
        assert_eq!(
            names.stood_in(),
            [(
                "overlays/addon.lib.yaml".to_string(),
                "overlays/addon.lib.template.yaml".to_string()
            )]
        );
        assert_eq!(
            names.repo_path("addon.lib.yaml"),
            Some("overlays/addon.lib.template.yaml")
        );
        assert_eq!(names.repo_path("addon.lib.template.yaml"), None);

        // The loaded file given, or the example loaded by its own name: nothing changes.
        let inputs = vec![
            InputFile::new(
                "a.yaml",
                "#@ load(\"l.lib.yaml\", \"x\")\n#@ load(\"l.lib.tpl.yaml\", \"y\")\n",
            ),
            InputFile::new("l.lib.tpl.yaml", "#@ def y():\n#@ end\n"),
        ];
        let out = stand_in(inputs, &mut names);
        assert_eq!(out[1].rel_path, "l.lib.tpl.yaml");
    }
}
