//! `wrong-arguments`: a call to a `@ytt:` module function, to a function defined in the
//! repository or to a Starlark builtin (`len`, `range`, ... unless the file binds the name
//! itself) with too many positional arguments, a keyword the function does not have, or a
//! required argument missing.

use crate::report::Rule;
use starlark::syntax::ast::Expr;

use super::index::Index;
use super::signature::Signature;
use super::{builtins, walk, ytt_modules, Finding};

pub const RULE: Rule = Rule::WrongArguments;

pub fn check(index: &Index<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for (i, unit) in index.all.iter().enumerate().take(index.own) {
        for e in walk::exprs(&unit.ast) {
            let Expr::Call(callee, args) = &e.node else {
                continue;
            };
            let (sig, needle, defined_at) = match &callee.node {
                Expr::Identifier(id) => match index.function(i, &id.ident) {
                    Some((t, def)) => {
                        let name = walk::original(&id.ident);
                        let sig = Signature::from_params(name, &def.params);
                        // Where it is defined: looked up only for a call with a problem.
                        (sig, format!("{name}("), Some((t, def)))
                    }
                    None => {
                        // A builtin, unless the name is bound anywhere in the file.
                        let Some(sig) = builtins::signature(&id.ident)
                            .filter(|_| !index.bindings[i].contains_key(&id.ident))
                        else {
                            continue;
                        };
                        let needle = format!("{}(", sig.name);
                        (sig, needle, None)
                    }
                },
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

    #[test]
    fn calls_of_builtins_are_checked_as_ytt_accepts_them() {
        let tpl = "a: #@ len()\nb: #@ len([1], [2])\nc: #@ str(x=1)\n\
                   d: #@ sorted([1], revers=True)\ne: #@ getattr(d, \"k\")\n\
                   f: #@ range(1, 2, 3, 4)\ng: #@ int(x=\"1\", base=10)\nh: #@ dict([], a=1)\n\
                   i: #@ min([1], key=len)\nj: #@ zip([1], [2], [3])\nk: #@ enumerate([1], start=1)\n\
                   l: #@ fail(\"x\", sepp=\",\")\nm: #@ hasattr(d)\nn: #@ sorted(*args)\n\
                   o: #@ max(key=len)\np: #@ min(1, 2, 3)\nq: #@ max()\n";
        let found = findings(&[("t.yml", tpl)], super::RULE);
        assert_eq!(
            found,
            [
                "t.yml:1:7 len() is missing the argument x",
                "t.yml:2:7 len() takes at most 1 positional argument, 2 given",
                "t.yml:3:7 str() takes no keyword arguments (x= given)",
                "t.yml:4:7 sorted() has no parameter named revers (did you mean reverse?)",
                "t.yml:6:7 range() takes at most 3 positional arguments, 4 given",
                "t.yml:11:7 enumerate() takes no keyword arguments (start= given)",
                "t.yml:12:7 fail() has no parameter named sepp (did you mean sep?)",
                "t.yml:13:7 hasattr() is missing the argument name",
                "t.yml:15:7 max() is missing the argument iterable",
                "t.yml:17:7 max() is missing the argument iterable",
            ]
        );
    }

    #[test]
    fn named_arguments_after_a_spread_over_several_lines_are_checked() {
        // Over several lines the named arguments after `*args` become one `**` mapping
        // (`template::named_after_star`); their names are still the call's.
        let tpl = "#@ s = []\n\
                   #@ def f(a, tier=1):\n#@   return a\n#@ end\n#@ args = [1]\n\
                   #@ a = f(*args,\n#@   teir=2)\n\
                   #@ b = sorted(*args,\n#@   revers=True)\n\
                   #@ c = f(*args, teir=2)\n\
                   #@ d = f(*args,\n#@   tier=2)\nx: 1\n";
        let found = findings(&[("t.yml", tpl)], super::RULE);
        assert_eq!(
            found,
            [
                "t.yml:6:8 f() has no parameter named teir (did you mean tier?)",
                "t.yml:8:8 sorted() has no parameter named revers (did you mean reverse?)",
                "t.yml:10:8 f() has no parameter named teir (did you mean tier?)",
            ]
        );
    }

    #[test]
    fn builtins_the_file_binds_itself_are_not_checked() {
        let tpl = "#@ def len(a, b):\n#@   return a\n#@ end\n#@ load(\"x.star\", \"str\")\n\
                   #@ def f(range):\n#@   return range()\n#@ end\n\
                   a: #@ len(1, 2)\nb: #@ str()\nc: #@ range()\n";
        let found = findings(
            &[("t.yml", tpl), ("x.star", "def str():\n  return 1\nend\n")],
            super::RULE,
        );
        assert!(found.is_empty(), "{found:?}");
    }
}
