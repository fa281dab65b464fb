//! The repository's shell scripts that mention ytt, parsed once, so that following one script
//! can enter another: a file it sources (`. "$DIR/../lib/fns.bash"`), a script it runs with
//! arguments (`./hack/render.sh config prod`), or a function it calls without defining it,
//! which the script that runs it defined and exported (`export -f render`). Such a function
//! is looked up by name among the top-level functions of every script, and followed only
//! when exactly one script defines it and its body mentions ytt. A file such a script sources
//! is kept too, whatever it mentions: it sets the variables the script's commands use
//! (`ENV=${1:-dev}` and `VALUES=values-$ENV.yaml` in `scripts/env.sh`).

use std::collections::BTreeMap;

use regex::Regex;
use tree_sitter::{Node, Parser, Tree};

use super::word::{Word, REPO};

/// One parsed script.
pub struct Parsed {
    /// Repository-relative path.
    pub path: String,
    pub text: String,
    tree: Tree,
}

impl Parsed {
    /// The script's path as a repository word (`$0`, `${BASH_SOURCE[0]}`).
    pub fn word(&self) -> Word {
        Word::lit(format!("{REPO}/{}", self.path))
    }

    /// The whole script.
    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The body of the top-level function `name`.
    fn function(&self, name: &str) -> Option<Node<'_>> {
        top_functions(self.root(), self.text.as_bytes())
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, body)| body)
    }
}

/// Parses shell text with tree-sitter's bash grammar.
pub fn parse(src: &str) -> Result<Tree, String> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|e| format!("cannot load the bash grammar: {e}"))?;
    parser
        .parse(src, None)
        .ok_or_else(|| "the bash parser gave up".to_string())
}

/// The functions defined at the top of a script (name, body).
fn top_functions<'t>(root: Node<'t>, src: &'t [u8]) -> Vec<(String, Node<'t>)> {
    let mut c = root.walk();
    root.named_children(&mut c)
        .filter(|n| n.kind() == "function_definition")
        .filter_map(|n| {
            let mut c2 = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c2).collect();
            let name = kids.first()?.utf8_text(src).ok()?.to_string();
            Some((name, *kids.last()?))
        })
        .collect()
}

/// The repository's scripts that may run ytt.
#[derive(Default)]
pub struct ScriptSet {
    scripts: BTreeMap<String, Parsed>,
    /// Top-level functions whose body mentions ytt, by name: the scripts defining them.
    functions: BTreeMap<String, Vec<String>>,
    /// Matches the text of a file that may run ytt (see [`ScriptSet::mentioned_in`]).
    mentions: Option<Regex>,
    /// Files the scripts source that run no ytt themselves.
    sourced: BTreeMap<String, Parsed>,
    /// Scripts that run no ytt but render a template into a file (`sed … T > F`,
    /// `envsubst < T > F`): a page or script that runs one before a ytt command enters it
    /// for what it writes (see `rendered_dir.rs`).
    renderers: BTreeMap<String, Parsed>,
}

/// How many times the set grows by the scripts that mention its members.
const MAX_ROUNDS: usize = 8;

impl ScriptSet {
    /// The scripts of `candidates` (`(path, text)`) that may run ytt: those that mention it,
    /// then those that mention one of them (by file name) or one of their functions that run
    /// ytt, and so on. Texts that do not parse are left out.
    pub fn new(candidates: impl IntoIterator<Item = (String, String)>) -> ScriptSet {
        let mut rest: Vec<(String, String)> = candidates.into_iter().collect();
        let mut set = ScriptSet::default();
        set.update();
        for _ in 0..MAX_ROUNDS {
            let (chosen, others): (Vec<_>, Vec<_>) =
                rest.into_iter().partition(|(_, t)| set.mentioned_in(t));
            rest = others;
            if chosen.is_empty() {
                break;
            }
            for (path, text) in chosen {
                set.add(path, text);
            }
            set.update();
        }
        for (path, text) in rest {
            let name = path.rsplit('/').next().unwrap_or(&path);
            let sourced = set
                .scripts
                .values()
                .any(|s| sources(&s.text, name) || sources_one_of(&s.text, &path));
            let renders = !sourced && renders(&text);
            if let (true, Ok(tree)) = (sourced || renders, parse(&text)) {
                let into = if sourced {
                    &mut set.sourced
                } else {
                    &mut set.renderers
                };
                into.insert(path.clone(), Parsed { path, text, tree });
            }
        }
        set
    }

    fn add(&mut self, path: String, text: String) {
        let Ok(tree) = parse(&text) else { return };
        let parsed = Parsed { path, text, tree };
        let src = parsed.text.as_bytes();
        for (name, body) in top_functions(parsed.root(), src) {
            let mentions = body.utf8_text(src).is_ok_and(|t| t.contains("ytt"));
            if mentions {
                self.functions
                    .entry(name)
                    .or_default()
                    .push(parsed.path.clone());
            }
        }
        self.scripts.insert(parsed.path.clone(), parsed);
    }

    /// Rebuilds the pattern of names that may run ytt.
    fn update(&mut self) {
        let mut names: Vec<String> = vec!["ytt".to_string()];
        names.extend(self.functions.keys().cloned());
        names.extend(
            self.scripts
                .keys()
                .map(|p| p.rsplit('/').next().unwrap_or(p).to_string()),
        );
        let alternatives: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
        self.mentions = Regex::new(&alternatives.join("|")).ok();
    }

    /// Whether `text` may run ytt: it mentions ytt, one of the scripts (by file name) or one
    /// of their functions that run ytt.
    pub fn mentioned_in(&self, text: &str) -> bool {
        match &self.mentions {
            Some(re) => re.is_match(text),
            None => text.contains("ytt"),
        }
    }

    /// The script at a repository-relative path (or a file a script sources, or a script
    /// that renders a template).
    pub fn get(&self, path: &str) -> Option<&Parsed> {
        self.scripts
            .get(path)
            .or_else(|| self.sourced.get(path))
            .or_else(|| self.renderers.get(path))
    }

    /// Every script and sourced file.
    pub fn files(&self) -> impl Iterator<Item = &Parsed> {
        self.scripts.values().chain(self.sourced.values())
    }

    /// Whether the file at `path` is one of the scripts that may run ytt (not only a file
    /// they source).
    pub fn runs_ytt(&self, path: &str) -> bool {
        self.scripts.contains_key(path)
    }

    /// The one script defining the function `name` that runs ytt, with the function's body.
    pub fn function(&self, name: &str) -> Option<(&Parsed, Node<'_>)> {
        let [only] = self.functions.get(name)?.as_slice() else {
            return None;
        };
        let parsed = self.scripts.get(only)?;
        Some((parsed, parsed.function(name)?))
    }
}

/// Whether a script's text sources a file named `name` (`source env.sh`, `. "$DIR/env.sh"`).
/// Whether a line of a script's text may render a template into a file: a `sed` or
/// `envsubst` command on a line with a `>` redirection (a cheap look: following the script
/// says what it really writes).
fn renders(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.split('#').next().unwrap_or(l);
        l.contains('>') && (l.contains("sed ") || l.contains("envsubst"))
    })
}

fn sources(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        (l.starts_with("source ") || l.starts_with(". ")) && l.contains(name)
    })
}

/// Whether a script's text sources a file named in part by a variable whose directory is
/// written out (`source deploy/config/${CONFIG}.sh`) that `path` may be: one of the
/// candidates the script may source (see `flags.rs`).
fn sources_one_of(text: &str, path: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        let Some(arg) = l
            .strip_prefix("source ")
            .or_else(|| l.strip_prefix(". "))
            .and_then(|r| r.split_whitespace().next())
        else {
            return false;
        };
        let arg = arg.trim_matches('"');
        if !arg.contains('$') {
            return false;
        }
        let mut segs = arg.rsplit('/');
        let (Some(last), Some(dir)) = (segs.next(), segs.next()) else {
            return false;
        };
        if dir.contains('$') || !last.contains('$') {
            return false;
        }
        // The file's name: its literal parts around the variables, in order.
        let var = regex::Regex::new(r"\$\{[^}]*\}|\$[A-Za-z0-9_]+").ok();
        let Some(var) = var else { return false };
        let parts: Vec<String> = var.split(last).map(regex::escape).collect();
        if parts.iter().all(String::is_empty) {
            return false;
        }
        let re = format!("(^|/){}/{}$", regex::escape(dir), parts.join("[^/]+"));
        regex::Regex::new(&re).is_ok_and(|r| r.is_match(path))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_that_run_ytt_are_found_when_one_script_defines_them() {
        let set = ScriptSet::new([
            (
                "lib/fns.bash".to_string(),
                "render() {\n  ytt \"$@\"\n}\nlog() { echo \"$@\"; }\n".to_string(),
            ),
            ("a.sh".to_string(), "build() { ytt -f a; }\n".to_string()),
            ("b.sh".to_string(), "build() { ytt -f b; }\n".to_string()),
        ]);
        let (file, body) = set.function("render").unwrap();
        assert_eq!(file.path, "lib/fns.bash");
        assert_eq!(body.kind(), "compound_statement");
        assert!(set.function("log").is_none(), "does not run ytt");
        assert!(set.function("build").is_none(), "defined twice");
        assert!(set.get("a.sh").is_some());
        let callers = ScriptSet::new([
            ("lib.sh".to_string(), "r() { ytt \"$@\"; }\n".to_string()),
            ("a.sh".to_string(), "r -f a\n".to_string()),
            ("b.sh".to_string(), "./a.sh\n".to_string()),
            ("c.sh".to_string(), "echo hi\n".to_string()),
        ]);
        assert!(callers.get("b.sh").is_some(), "runs a script that runs ytt");
        assert!(callers.get("c.sh").is_none());
    }

    #[test]
    fn scripts_that_render_a_template_are_kept_for_the_steps_that_run_them() {
        let set = ScriptSet::new([
            ("deploy.sh".to_string(), "ytt -f .init\n".to_string()),
            (
                "to-yaml.sh".to_string(),
                "sed -e \"s/{{ .a }}/$A/g\" .init/c.tpl > .init/c.yml\n".to_string(),
            ),
            (
                "env.sh".to_string(),
                "envsubst < values.tpl > values.yml\n".to_string(),
            ),
            ("edit.sh".to_string(), "sed -i s/a/b/ c.yml\n".to_string()),
            ("note.sh".to_string(), "# sed a > b\necho hi\n".to_string()),
        ]);
        assert!(set.get("to-yaml.sh").is_some());
        assert!(set.get("env.sh").is_some());
        assert!(set.get("edit.sh").is_none(), "writes no other file");
        assert!(set.get("note.sh").is_none(), "only a comment");
        // They run no ytt: a page that names one is not a page that runs ytt.
        assert!(!set.runs_ytt("to-yaml.sh"));
        assert!(!set.mentioned_in("./to-yaml.sh\n"));
    }

    #[test]
    fn files_the_scripts_source_are_kept() {
        let set = ScriptSet::new([
            (
                "scripts/deploy.sh".to_string(),
                "source \"$(dirname \"$0\")/env.sh\"\nytt -f config -f \"$VALUES\"\n".to_string(),
            ),
            (
                "scripts/env.sh".to_string(),
                "ENV=${1:-dev}\nVALUES=values-$ENV.yaml\n".to_string(),
            ),
            ("scripts/other.sh".to_string(), "echo hi\n".to_string()),
        ]);
        assert!(set.get("scripts/env.sh").is_some());
        assert!(!set.runs_ytt("scripts/env.sh"));
        assert!(set.get("scripts/other.sh").is_none());
    }
}
