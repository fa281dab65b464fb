//! `load-unknown-name`: a `load()` of a name that the loaded file (or `@ytt:` module) does not
//! define. ytt fails on it when a scenario evaluates the loading file; this finds it in files
//! no scenario reaches.

use super::index::{Index, Target};
use super::{walk, Finding};
use crate::report::Rule;

pub const RULE: Rule = Rule::LoadUnknownName;

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for (i, unit) in index.all.iter().enumerate().take(index.own) {
        for load in walk::loads(&unit.ast) {
            let path = &load.module.node;
            let (defined, what): (Vec<String>, String) = match index.target(i, path) {
                Target::Ytt(m) => (vec![m.to_string()], format!("module {path}")),
                Target::File(t) => (
                    walk::globals(&index.all[t].ast)
                        .into_iter()
                        .map(|n| walk::original(&n).to_string())
                        .filter(|n| !n.starts_with('_'))
                        .collect(),
                    format!("file {}", index.all[t].file.rel_path),
                ),
                Target::Unknown => continue,
            };
            for arg in &load.args {
                let their = walk::original(&arg.their.node).to_string();
                if their.starts_with('_') || defined.contains(&their) {
                    continue;
                }
                let hint = super::suggest(&their, &defined)
                    .map(|s| format!(" (did you mean {s}?)"))
                    .unwrap_or_default();
                let needle = format!("\"{their}\"");
                if let Some(pos) = unit.pos(arg.their.span, &needle) {
                    let message = format!("load() of {their}: {what} does not define it{hint}");
                    let width = unit.width(&pos, &needle);
                    found.push(Finding::new(RULE, message, pos).wide(width));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    #[test]
    fn names_a_file_or_module_does_not_define_are_found() {
        let helpers = "def labels(name):\n  return {\"app\": name}\nend\nPORT = 80\n";
        let tpl = "#@ load(\"helpers.star\", \"labels\", \"lables2\", \"PORT\")\n\
                   #@ load(\"@ytt:overlay\", \"overlays\")\n#@ load(\"missing.star\", \"x\")\n\
                   a: #@ labels(\"a\")\n";
        let found = findings(&[("helpers.star", helpers), ("t.yml", tpl)], super::RULE);
        assert_eq!(
            found,
            [
                "t.yml:1:35 load() of lables2: file helpers.star does not define it (did you mean labels?)",
                "t.yml:2:25 load() of overlays: module @ytt:overlay does not define it (did you mean overlay?)",
            ]
        );
    }

    #[test]
    fn a_files_own_assert_is_defined_and_a_missing_one_named_as_written() {
        let checks = "def assert(ok, why):\n  return ok\nend\n";
        let other = "def check(ok):\n  return ok\nend\n";
        let tpl = "#@ load(\"checks.star\", \"assert\")\n\
                   #@ load(\"other.star\", \"assert\")\n\
                   a: #@ assert(True, \"x\")\n";
        let found = findings(
            &[
                ("checks.star", checks),
                ("other.star", other),
                ("t.yml", tpl),
            ],
            super::RULE,
        );
        assert_eq!(
            found,
            ["t.yml:2:23 load() of assert: file other.star does not define it"]
        );
    }
}
