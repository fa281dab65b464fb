//! A `ytt` command a script prints for its user to run next (`echo "ytt -f templates/values.yaml
//! -f templates/cluster.yaml | kubectl apply -f -"`, `printf 'ytt -f config\n'`): a command the
//! repository documents, as a README's code block is, written at the `echo`'s line. The user
//! runs it as printed, from where the script ran, so it is followed as shell text from the
//! script's working directory at that point; its inputs are the ones it names. Only a printed
//! line that starts with `ytt ` (after an optional `$ ` prompt) and gives `-f`/`--file` counts:
//! `echo "Rendering with ytt -f …"` or `echo "ytt is not installed"` run nothing. Two kinds
//! of printed commands are no instruction: one with a part the linter cannot know (`echo "ytt
//! -f $dir"`: the user runs what the script filled in), and any printed by a script that logs
//! the commands it runs (an `echo "ytt …"` followed by the same `ytt …` as a command: its
//! echoes are its log).

use super::env::{Alt, Env};
use super::shell::Interp;
use super::shell::MAX_DEPTH;
use super::word::{Piece, Word};

impl<'t> Interp<'t> {
    /// Follows the `ytt` commands that `echo` or `printf` (`tool`) prints with `args`, on `line`.
    pub(super) fn printed(&mut self, line: u32, tool: &str, args: &[Word], env: &Env) {
        let Some(text) = printed_text(tool, args) else {
            return;
        };
        let (script, vars) = commands_of(&text);
        if script.is_empty() || !vars.is_empty() || self.depth > MAX_DEPTH / 2 {
            return;
        }
        let file = self.here.map_or(self.src, |p| p.text.as_bytes());
        let logs = *self
            .logs
            .entry(file.as_ptr() as usize)
            .or_insert_with(|| logs_own_commands(&String::from_utf8_lossy(file)));
        if logs {
            return;
        }
        let Ok(tree) = super::script_set::parse(&script) else {
            return;
        };
        let mut inner = Interp::new(script.as_bytes(), self.ctx, self.scripts, Some(line));
        inner.depth = self.depth;
        inner.active = self.active.clone();
        inner.uncalled = self.uncalled.clone();
        inner.within = self.here.is_some() || self.within;
        inner.zero = self.zero.clone();
        let mut sub = env.clone();
        for (name, value) in vars {
            sub.set(&name, vec![Alt::plain(value)]);
        }
        inner.stmt(tree.root_node(), &mut sub);
        self.calls.extend(inner.calls);
    }
}

/// The text `echo` or `printf` prints, as a word (its unknown parts kept): `echo`'s arguments
/// after its flags, joined by spaces; `printf`'s format when it has no conversion.
fn printed_text(tool: &str, args: &[Word]) -> Option<Word> {
    let words: Vec<&Word> = match tool {
        "echo" => args
            .iter()
            .skip_while(|a| {
                a.literal().is_some_and(|l| {
                    l.len() > 1 && l.starts_with('-') && l[1..].chars().all(|c| "neE".contains(c))
                })
            })
            .collect(),
        "printf" => {
            let format = args.first()?;
            let lit: String = format
                .0
                .iter()
                .filter_map(|p| match p {
                    Piece::Lit { text, .. } => Some(text.as_str()),
                    Piece::Unknown(_) => None,
                })
                .collect();
            if lit.replace("%%", "").contains('%') || args.len() > 1 {
                return None;
            }
            vec![format]
        }
        _ => return None,
    };
    let mut out = Word::default();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push_lit(" ", false);
        }
        out.extend(w);
    }
    let shown = out.to_string();
    shown.contains("ytt").then_some(out)
}

/// Whether the script prints the `ytt` commands it runs: a line `echo "ytt …"` (or with
/// single quotes) whose quoted text is also a line of the script of its own.
fn logs_own_commands(script: &str) -> bool {
    let lines: std::collections::HashSet<&str> = script.lines().map(str::trim).collect();
    lines.iter().any(|l| {
        let Some(rest) = l.strip_prefix("echo ") else {
            return false;
        };
        let rest = rest.trim();
        let quoted = ['"', '\''].into_iter().find_map(|q| {
            rest.strip_prefix(q)
                .and_then(|r| r.strip_suffix(q))
                .filter(|r| !r.contains(q))
        });
        quoted.is_some_and(|q| q.starts_with("ytt ") && lines.contains(&q))
    })
}

/// The printed lines that are `ytt` commands, as shell text, with a variable for each unknown
/// part (`${__yttlint_printed_N}`, set to the unknown word).
fn commands_of(text: &Word) -> (String, Vec<(String, Word)>) {
    // The text with unknowns as variables, then cut into lines (`\n` as `echo -e` and
    // `printf` print it).
    let mut marked = String::new();
    let mut vars: Vec<(String, Word)> = Vec::new();
    for p in &text.0 {
        match p {
            Piece::Lit { text, .. } => marked.push_str(text),
            Piece::Unknown(u) => {
                let name = format!("__yttlint_printed_{}", vars.len());
                marked.push_str(&format!("${{{name}}}"));
                vars.push((name, Word::unknown(u.clone())));
            }
        }
    }
    let mut script = String::new();
    for l in marked.replace("\\n", "\n").lines() {
        let l = l.trim();
        let l = l.strip_prefix("$ ").unwrap_or(l).trim_start();
        let is_command = l.starts_with("ytt ")
            && l.split_whitespace()
                .any(|w| w == "-f" || w.starts_with("--file") || w.starts_with("-f="));
        if is_command {
            script.push_str(l);
            script.push('\n');
        }
    }
    (script, vars)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Word {
        Word::lit(s)
    }

    #[test]
    fn printed_lines_that_run_ytt_are_commands() {
        let t = printed_text(
            "echo",
            &[lit(
                "ytt -f templates/values.yaml -f templates/c.yaml | kubectl apply -f -",
            )],
        )
        .unwrap();
        let (script, vars) = commands_of(&t);
        assert_eq!(
            script,
            "ytt -f templates/values.yaml -f templates/c.yaml | kubectl apply -f -\n"
        );
        assert!(vars.is_empty());
        let t = printed_text("echo", &[lit("-e"), lit("then run:\\n  $ ytt -f config")]).unwrap();
        assert_eq!(commands_of(&t).0, "ytt -f config\n");
        let t = printed_text("printf", &[lit("ytt --file config\\n")]).unwrap();
        assert_eq!(commands_of(&t).0, "ytt --file config\n");
    }

    #[test]
    fn other_mentions_of_ytt_are_not() {
        for text in [
            "Rendering with ytt -f config",
            "ytt is not installed",
            "ytt version",
        ] {
            let t = printed_text("echo", &[lit(text)]).unwrap();
            assert_eq!(commands_of(&t).0, "", "{text}");
        }
        assert!(printed_text("printf", &[lit("ytt -f %s\\n"), lit("config")]).is_none());
        assert!(printed_text("echo", &[lit("hello")]).is_none());
    }

    #[test]
    fn a_script_that_echoes_the_commands_it_runs_logs_them() {
        let logged = "f() {\n  echo \"ytt -f $d/config | kapp deploy -f -\"\n  ytt -f $d/config | kapp deploy -f -\n}\n";
        assert!(logs_own_commands(logged));
        let told = "echo \"ytt -f config | kubectl apply -f -\"\nytt -f other\n";
        assert!(!logs_own_commands(told));
        assert!(!logs_own_commands("echo 'ytt -f a'\necho 'ytt -f a'\n"));
    }

    #[test]
    fn unknown_parts_become_variables() {
        let mut w = lit("ytt -f ");
        w.0.push(Piece::Unknown("$DIR".into()));
        w.push_lit("/config", false);
        let (script, vars) = commands_of(&w);
        assert_eq!(script, "ytt -f ${__yttlint_printed_0}/config\n");
        assert_eq!(vars[0].1, Word::unknown("$DIR"));
    }
}
