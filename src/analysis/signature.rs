//! A function's parameters, from a `def` in the repository or a native function's declaration,
//! and the check of a call's arguments against them (Starlark's rules: too many positional
//! arguments, an unknown keyword, a required parameter not given).

use starlark::docs::DocParams;
use starlark::syntax::ast::{ArgumentP, AstArgument, AstParameter, Expr, ParameterP};

use crate::template::named_after_star::NAMED_FN;

/// What a function accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    /// Parameters that can be given by position, in order.
    pub positional: Vec<String>,
    /// Parameters that can be given by name.
    pub named: Vec<String>,
    /// Parameters without a default value.
    pub required: Vec<String>,
    pub star_args: bool,
    pub star_kwargs: bool,
}

impl Signature {
    /// A native function's signature; `None` when it reads `*args` itself (as most of ytt's
    /// functions do, to give ytt's own messages), where the declaration says nothing.
    pub fn from_doc(name: &str, p: &DocParams) -> Option<Signature> {
        if p.args.is_some() {
            return None;
        }
        let positional: Vec<String> = p
            .pos_only
            .iter()
            .chain(&p.pos_or_named)
            .map(|d| d.name.clone())
            .collect();
        let named: Vec<String> = p
            .pos_or_named
            .iter()
            .chain(&p.named_only)
            .map(|d| d.name.clone())
            .collect();
        let required = p
            .pos_only
            .iter()
            .chain(&p.pos_or_named)
            .chain(&p.named_only)
            .filter(|d| d.default_value.is_none())
            .map(|d| d.name.clone())
            .collect();
        Some(Signature {
            name: name.to_string(),
            positional,
            named,
            required,
            star_args: false,
            star_kwargs: p.kwargs.is_some(),
        })
    }

    /// The signature of a `def` (or `lambda`).
    pub fn from_params(name: &str, params: &[AstParameter]) -> Signature {
        let mut sig = Signature {
            name: name.to_string(),
            positional: Vec::new(),
            named: Vec::new(),
            required: Vec::new(),
            star_args: false,
            star_kwargs: false,
        };
        let mut keyword_only = false;
        for p in params {
            match &p.node {
                ParameterP::Normal(id, _, default) => {
                    if !keyword_only {
                        sig.positional.push(id.ident.clone());
                    }
                    sig.named.push(id.ident.clone());
                    if default.is_none() {
                        sig.required.push(id.ident.clone());
                    }
                }
                ParameterP::Args(..) => {
                    sig.star_args = true;
                    keyword_only = true;
                }
                ParameterP::NoArgs => keyword_only = true,
                ParameterP::KwArgs(..) => sig.star_kwargs = true,
                ParameterP::Slash => sig.named.clear(),
            }
        }
        sig
    }

    /// What is wrong with a call with `args`, if anything.
    pub fn check(&self, args: &[AstArgument]) -> Option<String> {
        let mut positional = 0;
        let mut names: Vec<&str> = Vec::new();
        let mut spread = false;
        for a in args {
            match &a.node {
                ArgumentP::Positional(_) => positional += 1,
                ArgumentP::Named(n, _) => names.push(n.node.as_str()),
                ArgumentP::KwArgs(e) => {
                    spread = true;
                    // The named arguments after a `*` spread, over several lines, made one
                    // mapping (`template::named_after_star`): the call's own names.
                    if let Expr::Call(f, inner) = &e.node {
                        if matches!(&f.node, Expr::Identifier(id) if id.ident == NAMED_FN) {
                            names.extend(inner.args.iter().filter_map(|a| match &a.node {
                                ArgumentP::Named(n, _) => Some(n.node.as_str()),
                                _ => None,
                            }));
                        }
                    }
                }
                ArgumentP::Args(_) => spread = true,
            }
        }
        for n in &names {
            if !self.star_kwargs && self.named.is_empty() {
                return Some(format!(
                    "{}() takes no keyword arguments ({n}= given)",
                    self.name
                ));
            }
            if !self.star_kwargs && !self.named.iter().any(|p| p == n) {
                let hint = super::suggest(n, &self.named)
                    .map(|s| format!(" (did you mean {s}?)"))
                    .unwrap_or_default();
                return Some(format!("{}() has no parameter named {n}{hint}", self.name));
            }
        }
        if spread {
            return None;
        }
        if !self.star_args && positional > self.positional.len() {
            return Some(format!(
                "{}() takes at most {} positional argument{}, {} given",
                self.name,
                self.positional.len(),
                if self.positional.len() == 1 { "" } else { "s" },
                positional
            ));
        }
        let given = |p: &String| {
            self.positional.iter().take(positional).any(|q| q == p) || names.contains(&p.as_str())
        };
        let missing: Vec<&String> = self.required.iter().filter(|p| !given(p)).collect();
        if !missing.is_empty() {
            let list: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
            return Some(format!(
                "{}() is missing the argument{} {}",
                self.name,
                if list.len() == 1 { "" } else { "s" },
                list.join(", ")
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starlark::syntax::ast::{Expr, Stmt};
    use starlark::syntax::AstModule;

    /// The signature of the first def and the problems of each call of `f` after it.
    fn problems(src: &str) -> Vec<Option<String>> {
        let ast =
            AstModule::parse("t.star", src.to_string(), &crate::eval::run::dialect()).unwrap();
        let Stmt::Statements(stmts) = &ast.statement().node else {
            panic!("statements")
        };
        let Stmt::Def(def) = &stmts[0].node else {
            panic!("def")
        };
        let sig = Signature::from_params("f", &def.params);
        stmts[1..]
            .iter()
            .map(|s| match &s.node {
                Stmt::Expression(e) => match &e.node {
                    Expr::Call(_, args) => sig.check(&args.args),
                    _ => panic!("call"),
                },
                _ => panic!("expression"),
            })
            .collect()
    }

    #[test]
    fn calls_are_checked_like_starlark_does() {
        let found = problems(
            "def f(a, b=1, *rest, c=2, **kw):\n  pass\nf(1)\nf(1, 2, 3, c=1, z=2)\nf()\nf(b=2)\nf(*x)\n",
        );
        assert_eq!(found[0], None);
        assert_eq!(found[1], None);
        assert_eq!(found[2].as_deref(), Some("f() is missing the argument a"));
        assert_eq!(found[3].as_deref(), Some("f() is missing the argument a"));
        assert_eq!(found[4], None);
        let found = problems("def f(name, port=80):\n  pass\nf('a', 1, 2)\nf('a', prot=1)\n");
        assert_eq!(
            found[0].as_deref(),
            Some("f() takes at most 2 positional arguments, 3 given")
        );
        assert_eq!(
            found[1].as_deref(),
            Some("f() has no parameter named prot (did you mean port?)")
        );
    }
}
