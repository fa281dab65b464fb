//! Makefile text made by a macro (round forty-six's N46-1): a `define NAME … endef` block
//! instantiated with `$(eval $(call NAME,ARG,…))`, often once per item of a list
//! (`$(foreach APP,$(APPS),$(eval $(call render-app,$(APP))))`). As make does, `call` replaces
//! the block's `$(1)`, `$(2)`… (and `$1`) with its arguments, `$(0)` with the macro's name, and
//! `$$` with `$`; `eval` reads the result as Makefile text, whose rules and recipes are then
//! the file's own. Each line made keeps the line of the block it comes from, so that a recipe
//! is named where it is written. The list of a `foreach` and the arguments are evaluated as
//! [`super::make_wildcard::evaluate`] does; a list or argument known only at run time makes
//! nothing. Any other reference in the block is left for the file's own expansion later.

use std::collections::HashMap;

use super::make::matching;
use super::make_wildcard::{evaluate, split_args, Walk};

/// The most lines the macros of one Makefile make.
pub const MAX_LINES: usize = 20_000;
/// How deep `foreach` and `eval` nest.
const MAX_DEPTH: usize = 8;

/// Logical lines of a Makefile, each with the line it starts on.
pub type Lines = Vec<(u32, String)>;

/// The blocks of a Makefile, by name.
pub type Defines = HashMap<String, Lines>;

/// The name a `define` line opens (`define NAME`, `define NAME =`, `override define NAME`).
pub fn opened(line: &str) -> Option<String> {
    let line = line
        .trim_start()
        .trim_start_matches("override ")
        .trim_start_matches("export ");
    let rest = line.strip_prefix("define")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let name = rest.split_whitespace().next()?;
    Some(name.to_string())
}

/// Whether a line closes a block (`endef`, with nothing but a comment after it).
pub fn closes(line: &str) -> bool {
    let t = line.trim();
    t == "endef" || t.starts_with("endef ") || t.starts_with("endef#")
}

/// The Makefile lines an `$(eval $(call NAME,…))` line makes (also inside `$(foreach …)`),
/// with the lines they come from; `None` for any other line, or one whose list or arguments
/// are not known.
pub fn instantiated(
    line: &str,
    defines: &Defines,
    vars: &HashMap<String, String>,
    walk: &Walk,
) -> Option<Vec<(u32, String)>> {
    let text = line.replace("\\\n", " ");
    let inner = sole_reference(text.trim())?;
    let mut out = Vec::new();
    expand_eval(inner, defines, vars, walk, 0, &mut out)?;
    (!out.is_empty()).then_some(out)
}

/// The inside of a text that is one reference `$(…)`.
fn sole_reference(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('$')?;
    let end = matching(rest, '(', ')')?;
    (end + 1 == rest.len()).then(|| &rest[1..end])
}

/// `eval TEXT` or `foreach VAR,LIST,TEXT` into `out`.
fn expand_eval(
    inner: &str,
    defines: &Defines,
    vars: &HashMap<String, String>,
    walk: &Walk,
    depth: usize,
    out: &mut Vec<(u32, String)>,
) -> Option<()> {
    if depth > MAX_DEPTH || out.len() > MAX_LINES {
        return None;
    }
    let (function, args) = inner.split_once(char::is_whitespace)?;
    match function {
        "eval" => {
            let call = sole_reference(args.trim())?;
            let (f, call_args) = call.split_once(char::is_whitespace)?;
            if f != "call" {
                return None;
            }
            let parts = split_args(call_args);
            let name = evaluate(parts.first()?.trim(), vars, walk, 0)?;
            let body = defines.get(name.trim())?;
            let mut positional: Vec<String> = vec![name.trim().to_string()];
            for a in &parts[1..] {
                positional.push(evaluate(a, vars, walk, 0)?);
            }
            for (n, l) in body {
                out.push((*n, called(l, &positional)));
            }
            Some(())
        }
        "foreach" => {
            let parts = split_args(args.trim_start());
            let [var, list, body] = parts.as_slice() else {
                return None;
            };
            let list = evaluate(list, vars, walk, 0)?;
            let body = sole_reference(body.trim())?;
            for item in list.split_whitespace() {
                let mut scope = vars.clone();
                scope.insert(var.trim().to_string(), item.to_string());
                expand_eval(body, defines, &scope, walk, depth + 1, out)?;
            }
            Some(())
        }
        _ => None,
    }
}

/// One line of a block as `call` makes it: `$(N)`, `${N}` and `$N` the N-th argument (empty
/// past the last), `$$` a `$`; any other reference as written.
fn called(line: &str, positional: &[String]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let Some(open) = after.chars().next() else {
            out.push('$');
            rest = after;
            break;
        };
        match open {
            '$' => {
                out.push('$');
                rest = &after[1..];
            }
            '(' | '{' => {
                let close = if open == '(' { ')' } else { '}' };
                let Some(end) = matching(after, open, close) else {
                    out.push('$');
                    out.push_str(after);
                    return out;
                };
                let name = &after[1..end];
                match argument(name, positional) {
                    Some(v) => out.push_str(v),
                    // Another reference: its own arguments replaced too (`$(call f,$(1))`).
                    None => {
                        out.push('$');
                        out.push(open);
                        out.push_str(&called(name, positional));
                        out.push(close);
                    }
                }
                rest = after.get(end + 1..).unwrap_or("");
            }
            c if c.is_ascii_digit() => {
                out.push_str(argument(&c.to_string(), positional).unwrap_or(""));
                rest = &after[1..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The argument a positional reference names (`1`: the first), `""` past the last.
fn argument<'a>(name: &str, positional: &'a [String]) -> Option<&'a str> {
    let n: usize = name.trim().parse().ok()?;
    Some(positional.get(n).map_or("", String::as_str))
}

#[cfg(test)]
mod tests {
    use super::super::index::Index;
    use super::*;

    #[test]
    fn a_call_replaces_arguments_and_dollars() {
        let args = vec!["render-app".to_string(), "web".to_string()];
        assert_eq!(
            called("render-$(1): $$(APPSDIR)/$1/x ${1} $(2) $(N)", &args),
            "render-web: $(APPSDIR)/web/x web  $(N)"
        );
        assert_eq!(called("$(call f,$(1),$$(X))", &args), "$(call f,web,$(X))");
        assert_eq!(called("$(0) $$$$", &args), "render-app $$");
        assert_eq!(opened("define render-app"), Some("render-app".into()));
        assert_eq!(opened("define X :="), Some("X".into()));
        assert_eq!(opened("defined = 1"), None);
        assert!(closes("endef") && closes("endef # x") && !closes("endefs"));
    }

    #[test]
    fn eval_in_a_foreach_makes_the_block_per_item() {
        let index = Index::new(std::iter::empty::<&str>());
        let walk = Walk {
            index: &index,
            dir: ".",
        };
        let mut defines = Defines::new();
        defines.insert(
            "render-app".into(),
            vec![
                (6, "render-$(1):".into()),
                (7, "\t$$(YTT) --file apps/$(1)/templates".into()),
            ],
        );
        let mut vars = HashMap::new();
        vars.insert("APPS".to_string(), "web api".to_string());
        let line = "$(foreach APP,$(APPS), \\\n\t$(eval $(call render-app,$(APP))) \\\n)";
        let made = instantiated(line, &defines, &vars, &walk).unwrap();
        assert_eq!(
            made,
            vec![
                (6, "render-web:".to_string()),
                (7, "\t$(YTT) --file apps/web/templates".to_string()),
                (6, "render-api:".to_string()),
                (7, "\t$(YTT) --file apps/api/templates".to_string()),
            ]
        );
        let one = instantiated("$(eval $(call render-app,db))", &defines, &vars, &walk).unwrap();
        assert_eq!(one[0].1, "render-db:");
        // An unknown macro, a list known only at run time, another function: nothing.
        assert_eq!(
            instantiated("$(eval $(call other,db))", &defines, &vars, &walk),
            None
        );
        assert_eq!(
            instantiated(
                "$(foreach A,$(shell ls),$(eval $(call render-app,$(A))))",
                &defines,
                &vars,
                &walk
            ),
            None
        );
        assert_eq!(
            instantiated("$(info $(call render-app,x))", &defines, &vars, &walk),
            None
        );
    }

    #[test]
    fn a_recipe_in_a_block_is_the_file_s_own() {
        let text = "YTT ?= ytt\nCHARTS := api worker\nREPLICAS ?= 3\n\n\
                    define chart\n.PHONY: chart-$(1)\nchart-$(1):\n\t$$(YTT) \\\n\t  -v replicas=$$(REPLICAS) \\\n\t  -f charts/$(1) > out/$(1).yml\nendef\n\n\
                    $(foreach C,$(CHARTS), \\\n  $(eval $(call chart,$(C))) \\\n)\n";
        let s = super::super::make::snippets("Makefile", text, &|t| t.contains("ytt"));
        let texts: Vec<(u32, &str)> = s.iter().map(|s| (s.line_offset, s.text.as_str())).collect();
        assert_eq!(
            texts,
            [
                (
                    7,
                    "ytt \\\n\t  -v replicas=3 \\\n\t  -f charts/api > out/api.yml"
                ),
                (
                    7,
                    "ytt \\\n\t  -v replicas=3 \\\n\t  -f charts/worker > out/worker.yml"
                ),
            ]
        );
    }
}
