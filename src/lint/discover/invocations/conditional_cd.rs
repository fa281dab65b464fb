//! A `cd` that may not run: in `A || cd X` it runs only if `A` fails, in `[ -d X ] && cd X`
//! only if the test holds. The walk follows it (the directory it enters is the likely one),
//! but the commands after it run there by assumption: their findings assume the directory
//! (`working-directory`), naming the `cd` and what it depends on. Any other list (`cd X &&
//! ytt …`, `mkdir -p X && cd X`, `cd X || exit 1`) is followed as certain.

use tree_sitter::Node;

use super::env::Env;
use super::shell::Interp;
use crate::report::{Assumption, AssumptionKind};

/// The longest text of a command quoted in an assumption.
const MAX_QUOTED: usize = 80;

impl<'t> Interp<'t> {
    /// Follows a list (`A && B`, `A || B`, nested to the left), marking the working directory
    /// assumed when a part that runs only on a condition changes it.
    pub(super) fn list(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let mut prev: Option<Node<'t>> = None;
        let mut op: Option<&str> = None;
        for k in kids {
            if !k.is_named() {
                let t = self.text(k);
                if t == "&&" || t == "||" {
                    op = Some(t);
                }
                continue;
            }
            if k.kind() == "comment" {
                continue;
            }
            let why = match (op.take(), prev) {
                (Some("||"), Some(_)) => Some("fails"),
                (Some("&&"), Some(p)) if is_test(self, p) => Some("holds"),
                _ => None,
            };
            let before = env.cwd.clone();
            self.stmt(k, env);
            if let (Some(how), Some(p)) = (why, prev) {
                if env.cwd.is_some() && env.cwd != before {
                    env.cwd_assumed = Some(format!(
                        "the script's `{}` (line {}) runs only if `{}` {how}: the command \
                         after it is read as run in the directory it enters",
                        quoted(self.text(k)),
                        self.line(k),
                        quoted(self.text(p)),
                    ));
                }
            }
            prev = Some(k);
        }
    }
}

/// The assumption a command makes that runs after a `cd` that may not run; `why` says which.
pub fn assumption(why: &str) -> Assumption {
    Assumption::new(AssumptionKind::WorkingDirectory, why.to_string())
}

/// Whether a statement is a test: `[ … ]`, `[[ … ]]`, `test …`, negated or not.
fn is_test<'t>(it: &Interp<'t>, n: Node<'t>) -> bool {
    match n.kind() {
        "test_command" => true,
        "negated_command" => {
            let mut c = n.walk();
            let inner = n.named_children(&mut c).next();
            inner.is_some_and(|i| is_test(it, i))
        }
        "command" => {
            let mut c = n.walk();
            let name = n.named_children(&mut c).next();
            name.is_some_and(|k| matches!(it.text(k), "test" | "["))
        }
        _ => false,
    }
}

/// A command's text on one line, cut to [`MAX_QUOTED`] characters.
fn quoted(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(MAX_QUOTED) {
        Some((i, _)) => format!("{}…", &one[..i]),
        None => one,
    }
}

#[cfg(test)]
mod tests {
    use super::super::env::Env;
    use super::super::shell::{calls, Call, Context};
    use super::super::word::{Word, REPO};

    fn script(path: &str, src: &str) -> Vec<Call> {
        let ctx = Context {
            script: Word::lit(format!("{REPO}/{path}")),
            line_offset: 0,
        };
        let dir = crate::files::paths::parent(path);
        calls(src, &ctx, Env::at(Word::lit(format!("{REPO}/{dir}")))).unwrap_or_default()
    }

    fn shown(c: &Call) -> String {
        let args: Vec<String> = c.args.iter().map(|a| a.to_string()).collect();
        let cwd = c.cwd.as_ref().map_or("?".to_string(), |w| w.to_string());
        let assumed = if c.cwd_assumed.is_some() {
            " (assumed)"
        } else {
            ""
        };
        format!("{}@{cwd}{assumed}: {}", c.line, args.join(" "))
    }

    #[test]
    fn a_subshell_s_cd_holds_for_its_own_later_statements_only() {
        let found = script(
            "scripts/render.sh",
            "#!/bin/bash\n(\n  cd ../config\n  ytt -f . --file-mark 'x.yml:type=data'\n)\nytt -f a.yml\n( cd ../b; ytt -f . )\n",
        );
        let lines: Vec<String> = found.iter().map(shown).collect();
        assert_eq!(
            lines,
            vec![
                "4@config: -f . --file-mark x.yml:type=data",
                "6@scripts: -f a.yml",
                "7@b: -f ."
            ]
        );
    }

    #[test]
    fn a_cd_after_a_failure_or_a_test_is_assumed() {
        let found = script(
            "scripts/render.sh",
            "make -C ../x >/dev/null || cd ../config\nytt -f .\n",
        );
        let lines: Vec<String> = found.iter().map(shown).collect();
        assert_eq!(lines, vec!["2@config (assumed): -f ."]);
        let why = found[0].cwd_assumed.clone().unwrap_or_default();
        assert!(
            why.contains("`cd ../config` (line 1)")
                && why.contains("if `make -C ../x >/dev/null` fails"),
            "{why}"
        );

        let found = script(
            "scripts/render.sh",
            "[ -d ../config ] && cd ../config\nytt -f .\ncd /opt/deploy\nytt -f x.yml\n",
        );
        let lines: Vec<String> = found.iter().map(shown).collect();
        assert_eq!(
            lines,
            vec!["2@config (assumed): -f .", "4@/opt/deploy: -f x.yml"]
        );
        let why = found[0].cwd_assumed.clone().unwrap_or_default();
        assert!(why.contains("if `[ -d ../config ]` holds"), "{why}");
    }

    #[test]
    fn a_cd_that_always_runs_is_certain() {
        let found = script(
            "scripts/render.sh",
            "cd ../config || exit 1\nytt -f .\nmkdir -p out && cd out && ytt -f ../a.yml\n",
        );
        let lines: Vec<String> = found.iter().map(shown).collect();
        assert_eq!(lines, vec!["2@config: -f .", "3@config/out: -f ../a.yml"]);
    }
}
