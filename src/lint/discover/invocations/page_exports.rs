//! The `export PREFIX_KEY=…` lines a page shows before its `ytt … --data-values-env PREFIX`
//! command ("Export the following vars", round thirty-five's R35-3). Like the committed
//! template of an environment file a script sources (`env_template.rs`), the list names the
//! data values the page's command gets from the environment, their values the reader's: a key
//! the templates read that no line exports fails whatever the reader fills in. What is found
//! rests on the reader exporting these names (`environment-files`), so it is a warning naming
//! that assumption, not a `needs-input` note.
//!
//! A shell script's own `export PREFIX_KEY=${VALUE}` lines do the same for its commands
//! (`export YTT_ingress__domain=${INGRESS_DOMAIN}` before `ytt … --data-values-env YTT`): the
//! keys are given, their values the run's, so the evaluation gives them placeholders instead
//! of the `null` defaults a committed values file holds for them.

use super::env_files;
use super::env_template::EnvTemplate;
use crate::lint::repo::walk::Kind;

/// The most pages whose exports are kept.
const MAX_PAGES: usize = 32;

/// The `export` lines of each page of `texts` (repository path, kind, text), as a template of
/// the environment its commands run in: the page is its own script, with no sourced name.
pub fn find(texts: &[(String, Kind, String)]) -> Vec<EnvTemplate> {
    let mut out = Vec::new();
    let pages_and_scripts = texts.iter().filter(|(p, _, text)| {
        super::readme::candidate(p)
            || p.rsplit('/')
                .next()
                .is_some_and(|n| n.ends_with(".sh") || n.ends_with(".bash"))
            || super::scripts::has_shell_shebang(text)
    });
    for (path, _, text) in pages_and_scripts {
        let exports: Vec<&str> = text.lines().filter_map(exported).collect();
        if exports.is_empty() {
            continue;
        }
        let file = env_files::read(path, &exports.join("\n"));
        if file.names.is_empty() {
            continue;
        }
        out.push(EnvTemplate {
            script: path.clone(),
            sourced: String::new(),
            file,
        });
        if out.len() >= MAX_PAGES {
            break;
        }
    }
    out
}

/// A line of a page that exports a variable (`export CFG_app__domain=x`, after a prompt
/// too), as the export.
fn exported(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    t.starts_with("export ").then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_s_exports_are_its_environment() {
        let page = "Export the following vars\n\nexport CFG_app__registry__username=u\n$ export CFG_app__registry__password=p\n\n    export OTHER=1\nDo not export anything else.\n";
        let texts = vec![
            ("README.md".to_string(), Kind::Other, page.to_string()),
            (
                "deploy.sh".to_string(),
                Kind::Other,
                "export CFG_x=1\n".to_string(),
            ),
        ];
        let found = find(&texts);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].script, "README.md");
        assert_eq!(
            found[0].file.names,
            [
                "CFG_app__registry__username",
                "CFG_app__registry__password",
                "OTHER"
            ]
        );
        let (values, a) =
            super::super::env_template::given("CFG", "README.md", &found).expect("given");
        let keys: Vec<&str> = values.iter().map(|v| v.key.as_str()).collect();
        assert_eq!(keys, ["app.registry.username", "app.registry.password"]);
        assert!(a.message.contains("the reader exports"), "{}", a.message);
    }

    #[test]
    fn a_script_s_own_exports_are_its_commands_environment() {
        let texts =
            vec![
            (
                "setup.sh".to_string(),
                Kind::Other,
                "set -x\n  export CFG_app__domain=${DOMAIN}\nytt -f app --data-values-env CFG\n"
                    .to_string(),
            ),
            ("values.yaml".to_string(), Kind::Other, "export: x\n".to_string()),
        ];
        let found = find(&texts);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].script, "setup.sh");
        let (values, a) =
            super::super::env_template::given("CFG", "setup.sh", &found).expect("given");
        let keys: Vec<&str> = values.iter().map(|v| v.key.as_str()).collect();
        assert_eq!(keys, ["app.domain"]);
        assert!(
            a.message.contains("their values the run's"),
            "{}",
            a.message
        );
    }
}
