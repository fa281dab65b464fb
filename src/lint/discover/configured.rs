//! Roots and libraries listed in `.yttlint.yaml`: a root's `-f` arguments resolved to
//! repository paths, and the roots listed with `evaluate: false`, whose files are only checked.

use crate::files::paths;
use crate::lint::config::flags;
use crate::lint::config::Config;
use crate::lint::discover::{Library, Reason, Root};

/// Roots listed with `evaluate: false`: their files are checked on their own.
pub fn libraries(config: &Config) -> Vec<Library> {
    let mut out = Vec::new();
    for rc in config.roots.iter().filter(|r| r.files_only) {
        let resolved = flags::resolve(
            &config.dir,
            &rc.path,
            std::slice::from_ref(&rc.path),
            &rc.args,
        );
        let explicit = rc.args.iter().any(|a| a == "-f" || a == "--file");
        let files = match (&resolved, explicit) {
            (Ok(r), true) => flags::inputs(&config.dir, r),
            _ => Vec::new(),
        };
        out.push(Library {
            path: rc.path.clone(),
            parent: paths::parent(&rc.path).to_string(),
            partial: Some(format!(
                "listed with evaluate: false (line {})",
                rc.loc.line
            )),
            flags: rc
                .args
                .iter()
                .filter(|a| a.starts_with("--"))
                .cloned()
                .collect(),
            files,
        });
    }
    out
}

pub fn roots(config: &Config, notes: &mut Vec<String>) -> Vec<Root> {
    let mut out = Vec::new();
    for rc in config.roots.iter().filter(|r| !r.files_only) {
        let inputs = match flags::resolve(
            &config.dir,
            &rc.path,
            std::slice::from_ref(&rc.path),
            &rc.args,
        ) {
            Ok(resolved) => flags::inputs(&config.dir, &resolved),
            Err(e) => {
                notes.push(format!("root {}: {e}", rc.path));
                vec![rc.path.clone()]
            }
        };
        // Inputs that name no repository path (`-f x.yml=`) still make a root: its evaluation
        // fails as ytt's does.
        let inputs = if inputs.is_empty() {
            vec![rc.path.clone()]
        } else {
            inputs
        };
        out.push(Root {
            name: rc.name.clone().unwrap_or_else(|| rc.path.clone()),
            path: rc.path.clone(),
            inputs,
            reason: Reason::Config {
                line: rc.loc.line,
                assumed: rc.assumptions.clone(),
                package: rc.package.clone(),
            },
            args: rc.args.clone(),
            scenarios: rc.scenarios.clone(),
            needs_input: rc.needs_input,
        });
    }
    out
}
