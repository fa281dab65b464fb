//! `wrong-arguments`: a call to a `@ytt:` module function or to a function defined in the
//! repository with too many positional arguments, a keyword the function does not have, or a
//! required argument missing.

use starlark::syntax::ast::Expr;

use super::index::Index;
use super::signature::Signature;
use super::{walk, ytt_modules, Finding};

pub const RULE: &str = "wrong-arguments";

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for (i, unit) in index.all.iter().enumerate().take(index.own) {
        for e in walk::exprs(&unit.ast) {
            let Expr::Call(callee, args) = &e.node else {
                continue;
            };
            let (sig, needle, defined_at) = match &callee.node {
                Expr::Identifier(id) => {
                    let Some((t, def)) = index.function(i, &id.ident) else {
                        continue;
                    };
                    let name = walk::original(&id.ident);
                    let sig = Signature::from_params(name, &def.params);
                    // Where it is defined: looked up only for a call with a problem.
                    (sig, format!("{name}("), Some((t, def)))
                }
                Expr::Dot(obj, f) => {
                    let Expr::Identifier(id) = &obj.node else {
                        continue;
                    };
                    let Some(m) = index.ytt_alias(i, &id.ident) else {
                        continue;
                    };
                    let Some(sig) = ytt_modules::module(m).and_then(|m| m.functions.get(&f.node))
                    else {
                        continue;
                    };
                    let mut sig = sig.clone();
                    sig.name = format!("{}.{}", walk::original(&id.ident), f.node);
                    let needle = format!("{}(", sig.name);
                    (sig, needle, None)
                }
                _ => continue,
            };
            let Some(problem) = sig.check(&args.args) else {
                continue;
            };
            if let Some(pos) = unit.pos(e.span, &needle) {
                let width = unit.width(&pos, &sig.name);
                let mut finding = Finding::new(RULE, problem, pos).wide(width);
                let at = defined_at
                    .and_then(|(t, def)| index.all[t].pos(def.name.span, &def.name.ident));
                if let Some(at) = at {
                    finding
                        .related
                        .push((format!("{} is defined here", sig.name), at));
                }
                found.push(finding);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::findings;

    #[test]
    fn calls_of_repository_and_ytt_functions_are_checked() {
        let helpers = "def labels(name, tier=\"web\"):\n  return {\"app\": name}\nend\n";
        let tpl = "#@ load(\"helpers.star\", \"labels\")\n#@ load(\"@ytt:base64\", \"base64\")\n\
                   #@ def local(a):\n#@   return a\n#@ end\n\
                   a: #@ labels(\"a\", teir=\"x\")\nb: #@ labels()\nc: #@ local(1, 2)\n\
                   d: #@ base64.encode()\ne: #@ labels(\"a\", \"b\")\n";
        let found = findings(&[("helpers.star", helpers), ("t.yml", tpl)], super::RULE);
        assert_eq!(
            found,
            [
                "t.yml:6:7 labels() has no parameter named teir (did you mean tier?)",
                "t.yml:7:7 labels() is missing the argument name",
                "t.yml:8:7 local() takes at most 1 positional argument, 2 given",
            ]
        );
    }
}
