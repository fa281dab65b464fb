//! What the starlark crate's own linter finds that ytt authors should hear about:
//! `unused-load` (a `load()`ed name nothing reads; warning) and `unreachable-code` (statements
//! after `return` or `fail()`; info). The crate's other lints are about its own dialect or
//! style, and the code a template compiles to would trip them.

use starlark::analysis::AstModuleLint;

use super::index::Index;
use super::Finding;

pub const UNUSED_LOAD: &str = "unused-load";
pub const UNREACHABLE: &str = "unreachable-code";

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for unit in index.all.iter().take(index.own) {
        for lint in unit.ast.lint(None) {
            let span = lint.location.span;
            let finding = match lint.short_name.as_str() {
                "unused-load" => {
                    let name = lint.original.trim_matches('"').to_string();
                    // The crate reports the load argument: `x` or `x="y"`.
                    let local = name.split('=').next().unwrap_or(&name).trim();
                    let local = super::walk::original(local).to_string();
                    if local.starts_with('_') {
                        continue;
                    }
                    unit.pos(span, &format!("\"{local}\"")).map(|pos| {
                        Finding::new(
                            UNUSED_LOAD,
                            format!("{local} is loaded but never used"),
                            pos,
                        )
                    })
                }
                "unreachable" => {
                    // Code the template compiler adds (the closing `return` of a function, a
                    // `pass` for an empty block) is not the author's.
                    let original = lint.original.trim();
                    if original.contains("__ytt_") || original == "pass" {
                        continue;
                    }
                    unit.pos(span, "").map(|pos| {
                        Finding::new(
                            UNREACHABLE,
                            "this code never runs: it follows a return or fail()".to_string(),
                            pos,
                        )
                    })
                }
                _ => None,
            };
            found.extend(finding);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    #[test]
    fn unused_loads_are_found() {
        let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n\
                   #@ load(\"@ytt:overlay\", \"overlay\")\n\
                   #@overlay/match by=overlay.all\n---\na: #@ data.values.a\n";
        let found = findings(&[("t.yml", tpl)], super::UNUSED_LOAD);
        assert_eq!(found, ["t.yml:2:22 yaml is loaded but never used"]);
    }

    #[test]
    fn code_after_return_or_fail_is_found() {
        let star =
            "def f(x):\n  return x\n  print(x)\nend\ndef g():\n  fail(\"no\")\n  return 1\nend\n\
                    def h(x):\n  if x:\n    return 1\n  end\n  return 2\nend\n";
        let found = findings(&[("f.star", star)], super::UNREACHABLE);
        assert_eq!(
            found,
            [
                "f.star:3:3 this code never runs: it follows a return or fail()",
                "f.star:7:3 this code never runs: it follows a return or fail()",
            ]
        );
        let tpl = "#@ def f(x):\n#@   return x\n#@ end\na: #@ f(1)\n\
                   #@ def g(x):\n#@   if x:\n#@     return 1\n#@   else:\n#@     return 2\n#@   end\n#@ end\nb: #@ g(1)\n";
        assert!(findings(&[("t.yml", tpl)], super::UNREACHABLE).is_empty());
    }
}
