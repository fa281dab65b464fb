//! A script that sources an environment file its user makes from a committed template
//! (`source "${DIR}/${ENV}-env"`, "Use the scripts/env template to build your version"), then
//! runs `ytt --data-values-env PREFIX` (round twenty-seven's R27-2). The template's `export
//! PREFIX_KEY=` lines name the data values the command gets, their values the user's (blank
//! in the template): a key the templates read that no line exports fails whatever the user
//! fills in. Like a values example standing in for the user's copy, this rests on the copy
//! keeping the template's names, so what it finds assumes it (`environment-files`).
//!
//! Strict, so as never to guess a template: the sourced name is the template's name with
//! variables added (`${ENV}-env` for `env`) and the script or a README says the file is made
//! from the template (a line naming the template's path with "template", "copy", "from" or
//! "based on"), or the sourced file is missing and the same name with `.example`,
//! `.template` or `.sample` is committed beside it.

use super::env_files::{self, EnvFile};
use super::index::Index;
use super::resolve::DataValue;
use crate::files::paths;
use crate::lint::repo::walk::Kind;
use crate::report::{Assumption, AssumptionKind, Subject};

/// The most templates found in one repository.
const MAX_TEMPLATES: usize = 32;

/// Suffixes of a committed stand-in for a file its user makes.
const SUFFIXES: [&str; 3] = [".example", ".template", ".sample"];

/// Words of a line that says a file is made from the template it names.
const MADE_FROM: [&str; 6] = ["template", "copy", "from", "based on", "build", "create"];

/// A committed template of a file a script sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvTemplate {
    /// The script that sources it.
    pub script: String,
    /// The sourced file as the script writes it (`${DIR}/${ENV}-env`).
    pub sourced: String,
    /// The template and the names it sets.
    pub file: EnvFile,
}

/// The sourced argument of a `source X` / `. X` line, unquoted.
fn sourced(line: &str) -> Option<String> {
    let l = line.trim_start();
    let rest = l.strip_prefix("source ").or_else(|| l.strip_prefix(". "))?;
    let arg = rest.split_whitespace().next()?;
    Some(arg.trim_matches(|c| c == '"' || c == '\'').to_string())
}

/// The literal pieces of a name with its variable expansions (`$X`, `${X}`) taken out.
fn without_variables(name: &str) -> String {
    let mut out = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'{') {
            for d in chars.by_ref() {
                if d == '}' {
                    break;
                }
            }
        } else {
            while chars
                .peek()
                .is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_')
            {
                chars.next();
            }
        }
    }
    out
}

/// Whether some text (`texts`: the script's and the READMEs') says a file is made from
/// `template`: a line naming its path as a word, with one of [`MADE_FROM`].
fn said_made_from(template: &str, texts: &[&str]) -> bool {
    texts.iter().any(|t| {
        t.lines().any(|l| {
            let lower = l.to_ascii_lowercase();
            let named = l.match_indices(template).any(|(at, _)| {
                let before = l[..at].chars().next_back();
                let mut after = l[at + template.len()..].chars();
                let word = |c: char| c.is_ascii_alphanumeric() || "_-/".contains(c);
                let starts = before.is_none_or(|c| !word(c) && c != '.');
                // A sentence's full stop may follow it.
                let ends = match after.next() {
                    None => true,
                    Some('.') => after.next().is_none_or(char::is_whitespace),
                    Some(c) => !word(c),
                };
                starts && ends
            });
            named && MADE_FROM.iter().any(|w| lower.contains(w))
        })
    })
}

/// The templates of the files the repository's scripts (`texts`: repository path, kind, text)
/// source; `read` gives a committed file's text.
pub fn find(
    texts: &[(String, Kind, String)],
    index: &Index,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<EnvTemplate> {
    let pages: Vec<&str> = texts
        .iter()
        .filter(|(p, _, _)| super::readme::candidate(p))
        .map(|(_, _, t)| t.as_str())
        .collect();
    let mut out: Vec<EnvTemplate> = Vec::new();
    for (script, _, text) in texts
        .iter()
        .filter(|(p, _, t)| super::scripts::is_script(p, t))
    {
        let dir = paths::parent(script);
        for arg in text.lines().filter_map(sourced) {
            let (written_dir, name) = arg.rsplit_once('/').unwrap_or(("", &arg));
            // The file beside the script, or under the directory the script writes out.
            let base = if written_dir.is_empty() || written_dir.contains('$') {
                dir.to_string()
            } else {
                paths::join(dir, written_dir.trim_start_matches("./"))
            };
            let found = if name.contains('$') {
                let stem = without_variables(name);
                let stem = stem.trim_matches(|c| "-_.".contains(c));
                let template = paths::join(&base, stem);
                let mut said: Vec<&str> = pages.clone();
                said.push(text);
                (!stem.is_empty()
                    && !stem.contains('/')
                    && index.is_file(&template)
                    && said_made_from(&template, &said))
                .then_some(template)
            } else {
                let file = paths::join(&base, name);
                (!index.exists(&file))
                    .then(|| {
                        SUFFIXES
                            .iter()
                            .map(|s| format!("{file}{s}"))
                            .find(|t| index.is_file(t))
                    })
                    .flatten()
            };
            let Some(template) = found else {
                continue;
            };
            let Some(body) = read(&template) else {
                continue;
            };
            let file = env_files::read(&template, &body);
            let entry = EnvTemplate {
                script: script.clone(),
                sourced: arg.clone(),
                file,
            };
            if !out.contains(&entry) && out.len() < MAX_TEMPLATES {
                out.push(entry);
            }
        }
    }
    out
}

/// What `--data-values-env prefix` of a command in `script` gets from the templates of the
/// files the script sources: each `PREFIX_` name a template exports, given at run time, and
/// the assumption that the user's copy sets these; `None` when no such template exports one.
pub fn given(
    prefix: &str,
    script: &str,
    templates: &[EnvTemplate],
) -> Option<(Vec<DataValue>, Assumption)> {
    let mine: Vec<&EnvTemplate> = templates.iter().filter(|t| t.script == script).collect();
    let mut keys: Vec<String> = Vec::new();
    let mut from: Vec<&EnvTemplate> = Vec::new();
    for t in mine {
        let dir = paths::parent(&t.file.path);
        let (k, _) = env_files::prefixed(std::slice::from_ref(&t.file), dir, prefix);
        if k.is_empty() {
            continue;
        }
        from.push(t);
        for key in k {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    if keys.is_empty() {
        return None;
    }
    let values = super::env_files::given_at_run_time(keys);
    let named: Vec<String> = from
        .iter()
        .map(|t| match t.sourced.is_empty() {
            // The script's own `export` lines, beside the files it sources.
            true => format!("its own `export {prefix}_…` lines in `{}`", t.file.path),
            false => format!("`{}`, made from the committed `{}`", t.sourced, t.file.path),
        })
        .collect();
    // A page's own `export` lines (`page_exports.rs`), which name no sourced file.
    let page = super::readme::candidate(script);
    let message = if from.iter().all(|t| t.sourced.is_empty()) && page {
        format!(
            "the environment's `{prefix}_` variables are the ones the `export {prefix}_…` lines of {script} set: the reader exports these names"
        )
    } else if from.iter().all(|t| t.sourced.is_empty()) {
        format!(
            "the environment's `{prefix}_` variables are the ones the `export {prefix}_…` lines of {script} set, their values the run's: the environment the script starts in adds none"
        )
    } else {
        format!(
            "the environment's `{prefix}_` variables are the ones {script} sources from {}: the user's copy exports the names the template exports",
            named.join(" and ")
        )
    };
    let assumption = Assumption::new(AssumptionKind::EnvironmentFiles, message).about(
        Subject::EnvironmentFiles {
            prefix: prefix.to_string(),
            files: from.iter().map(|t| t.file.path.clone()).collect(),
        },
    );
    Some((values, assumption))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "#!/bin/bash\nDIR=$(dirname \"$0\")\nif [[ ! -f \"${DIR}/${ENV}-env\" ]]; then\n  echo \"Use the scripts/env template to build your version\"\nfi\nsource \"${DIR}/${ENV}-env\"\nytt -f t.yaml --data-values-env APP\n";

    fn texts(script: &str) -> Vec<(String, Kind, String)> {
        vec![(
            "scripts/install.sh".to_string(),
            Kind::Other,
            script.to_string(),
        )]
    }

    #[test]
    fn a_template_the_script_says_its_sourced_file_is_made_from() {
        let index = Index::new(["scripts/install.sh", "scripts/env", "t.yaml"]);
        let read = |_: &str| {
            Some("export ENV=\nexport APP_HOST=   # host\nexport APP_db__name=\n".to_string())
        };
        let found = find(&texts(SCRIPT), &index, &read);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].file.path, "scripts/env");
        let (values, a) = given("APP", "scripts/install.sh", &found).unwrap();
        let keys: Vec<&str> = values.iter().map(|v| v.key.as_str()).collect();
        assert_eq!(keys, ["HOST", "db.name"]);
        assert!(
            a.message.contains("made from the committed `scripts/env`"),
            "{}",
            a.message
        );
        assert!(given("OTHER", "scripts/install.sh", &found).is_none());
        // Without the script's word, no template is guessed.
        let quiet = SCRIPT.replace(
            "Use the scripts/env template to build your version",
            "missing",
        );
        assert!(find(&texts(&quiet), &index, &read).is_empty());
        // Nor is a file of another name.
        let index = Index::new(["scripts/install.sh", "scripts/env.sh"]);
        assert!(find(&texts(SCRIPT), &index, &read).is_empty());
    }

    #[test]
    fn a_sourced_file_and_the_script_s_own_exports_are_both_named() {
        let entry = |sourced: &str, path: &str, body: &str| EnvTemplate {
            script: "scripts/install.sh".to_string(),
            sourced: sourced.to_string(),
            file: env_files::read(path, body),
        };
        let found = [
            entry("${DIR}/${ENV}-env", "scripts/env", "export APP_HOST=\n"),
            entry("", "scripts/install.sh", "export APP_PORT=80\n"),
        ];
        let (values, a) = given("APP", "scripts/install.sh", &found).unwrap();
        assert_eq!(values.len(), 2);
        assert!(
            a.message.contains(
                "`${DIR}/${ENV}-env`, made from the committed `scripts/env` and its own \
                 `export APP_…` lines in `scripts/install.sh`"
            ),
            "{}",
            a.message
        );
    }

    #[test]
    fn a_missing_sourced_file_s_example_beside_it() {
        let script = "#!/bin/sh\nsource config.env\nytt -f t.yaml --data-values-env APP\n";
        let index = Index::new(["scripts/install.sh", "scripts/config.env.example"]);
        let read = |_: &str| Some("APP_HOST=\n".to_string());
        let found = find(&texts(script), &index, &read);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].file.path, "scripts/config.env.example");
        // Committed itself, it is read as it is (no template stands in).
        let index = Index::new(["scripts/config.env", "scripts/config.env.example"]);
        assert!(find(&texts(script), &index, &read).is_empty());
    }
}
