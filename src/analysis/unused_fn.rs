//! `unused-function`: a top-level `def` nothing calls: a private one (`_name`) that its own
//! file never reads, or any function of a template (templates cannot be loaded, so nothing
//! else can call it).

use super::index::Index;
use super::{walk, Finding};
use crate::report::Rule;

pub const RULE: Rule = Rule::UnusedFunction;

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for unit in index.all.iter().take(index.own) {
        let candidates: Vec<_> = walk::defs(&unit.ast)
            .into_iter()
            .filter(|def| {
                let name = walk::original(&def.name.ident);
                let callable_elsewhere = unit.loadable() && !name.starts_with('_');
                !(callable_elsewhere || name.starts_with("__ytt"))
            })
            .collect();
        let names: Vec<&str> = candidates.iter().map(|d| d.name.ident.as_str()).collect();
        let read = walk::read_among(&unit.ast, &names);
        for def in candidates {
            let name = walk::original(&def.name.ident);
            if read.contains(def.name.ident.as_str()) {
                continue;
            }
            if let Some(pos) = unit.pos(def.name.span, name) {
                let why = if unit.loadable() {
                    "it is private to its file"
                } else {
                    "a template cannot be loaded"
                };
                let width = unit.width(&pos, name);
                found.push(
                    Finding::new(
                        RULE,
                        format!("function {name} is never called ({why})"),
                        pos,
                    )
                    .wide(width),
                );
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    #[test]
    fn private_and_template_functions_nothing_calls_are_found() {
        let star = "def _used():\n  return 1\nend\ndef _unused():\n  return 2\nend\n\
                    def public():\n  return _used()\nend\n";
        let tpl = "#@ def labels():\n#@   return {}\n#@ end\n#@ def used():\n#@   return 1\n#@ end\na: #@ used()\n";
        let lib = "#@ def helper():\n#@   return 1\n#@ end\n";
        let found = findings(
            &[("h.star", star), ("t.yml", tpl), ("h.lib.yml", lib)],
            super::RULE,
        );
        assert_eq!(
            found,
            [
                "h.star:4:5 function _unused is never called (it is private to its file)",
                "t.yml:1:8 function labels is never called (a template cannot be loaded)",
            ]
        );
    }
}
