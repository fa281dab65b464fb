//! `unknown-module-attribute`: `assert.failed(...)`, `data.value`: a member that a `@ytt:`
//! module does not have. ytt fails only when the line runs; this finds it on every line.

use crate::report::Rule;
use starlark::syntax::ast::Expr;

use super::index::Index;
use super::{fixes, walk, ytt_modules, Finding};
use crate::fix::Fix;

pub const RULE: Rule = Rule::UnknownModuleAttribute;

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for (i, unit) in index.all.iter().enumerate().take(index.own) {
        for e in walk::exprs(&unit.ast) {
            let Expr::Dot(obj, attr) = &e.node else {
                continue;
            };
            let Expr::Identifier(id) = &obj.node else {
                continue;
            };
            let Some(m) = index.ytt_alias(i, &id.ident) else {
                continue;
            };
            let Some(module) = ytt_modules::module(m) else {
                continue;
            };
            if module.members.is_empty() || module.members.contains(&attr.node) {
                continue;
            }
            let local = walk::original(&id.ident);
            let hint = super::suggest(&attr.node, &module.members)
                .map(|s| format!(" (did you mean {local}.{s}?)"))
                .unwrap_or_default();
            let needle = format!("{local}.{}", attr.node);
            if let Some(pos) = unit.pos(e.span, &needle) {
                let message = format!("module @ytt:{m} has no member {}{hint}", attr.node);
                let width = unit.width(&pos, &needle);
                let fix = fixes::unique_suggestion(&attr.node, &module.members)
                    .filter(|_| width > 0)
                    .and_then(|s| {
                        let edit = fixes::replace_at(unit, &pos, local.len() + 1, &attr.node, &s)?;
                        // Unsafe: where the line runs, ytt's error becomes another one
                        // (`assert.failed` -> `assert.fail`) or a success (`data.value.x`).
                        Some(Fix::unsafe_(format!("Replace with `{local}.{s}`"), edit))
                    });
                found.push(Finding::new(RULE, message, pos).wide(width).fixed(fix));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    #[test]
    fn a_misspelled_member_is_found_in_a_branch_never_taken() {
        let star = "load(\"@ytt:assert\", \"assert\")\nload(\"@ytt:data\", \"data\")\n\
                    def check(v):\n  if len(v) != 16:\n    assert.failed(\"16 chars\")\n  end\n\
                    return data.value.key\nend\n";
        let found = findings(&[("values.star", star)], super::RULE);
        assert_eq!(
            found,
            [
                "values.star:5:5 module @ytt:assert has no member failed (did you mean assert.fail?)",
                "values.star:7:8 module @ytt:data has no member value (did you mean data.values?)",
            ]
        );
    }

    #[test]
    fn a_member_with_one_candidate_is_fixed() {
        let star = "load(\"@ytt:assert\", \"assert\")\nload(\"@ytt:data\", \"data\")\n\
                    def check(v):\n  if len(v) != 16:\n    assert.failed(\"16 chars\")\n  end\n\
                    return data.value.key\nend\n";
        assert_eq!(
            crate::analysis::testing::fixed(&[("values.star", star)], super::RULE),
            star.replace("assert.failed", "assert.fail")
                .replace("data.value.", "data.values.")
        );
    }

    #[test]
    fn templates_point_at_their_own_lines_and_shadowed_names_are_left_alone() {
        let tpl = "#@ load(\"@ytt:yaml\", \"yaml\")\n#@ load(\"@ytt:json\", j=\"json\")\n\
                   a: #@ yaml.encode({})\nb: #@ j.encodee({})\n\
                   #@ def f(yaml):\n#@   return yaml.anything\n#@ end\n";
        let found = findings(&[("t.yml", tpl)], super::RULE);
        assert_eq!(
            found,
            ["t.yml:4:7 module @ytt:json has no member encodee (did you mean j.encode?)"]
        );
    }
}
