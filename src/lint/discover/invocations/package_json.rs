//! npm's `package.json`: each entry of its `scripts` is a command line that `npm run NAME`
//! runs with `sh -c` in the directory of the `package.json` (round fourteen's concourse/docs:
//! `"build:ytt": "ytt -f mkdocs.template.yml -f redirects > mkdocs.yml"`, run by `npm run
//! build`). An entry that runs ytt, or a script of the repository that does, is the
//! repository's command, as a script's line is.

use super::snippet::Snippet;
use super::word::{Word, REPO};
use crate::files::paths;

/// Script entries read at most from one `package.json`.
const MAX_SCRIPTS: usize = 512;

/// Whether a repository file is an npm `package.json` (not one of `node_modules/`).
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "package.json" && !path.split('/').any(|s| s == "node_modules")
}

/// The script entries of the `package.json` at repository-relative `path` that `wanted` says
/// may run ytt, each run in the file's directory at the line of its entry.
pub fn snippets(path: &str, text: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<Snippet> {
    let Ok(serde_json::Value::Object(top)) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let Some(serde_json::Value::Object(scripts)) = top.get("scripts") else {
        return Vec::new();
    };
    let cwd = Word::lit(format!("{REPO}/{}", paths::parent(path))).normalized();
    let from = text.find("\"scripts\"").unwrap_or(0);
    scripts
        .iter()
        .take(MAX_SCRIPTS)
        .filter_map(|(name, v)| Some((name, v.as_str()?)))
        .filter(|(_, cmd)| wanted(cmd))
        .map(|(name, cmd)| {
            let line = line_of_key(text, from, name);
            Snippet::new(path, line.saturating_sub(1), cmd.to_string(), cwd.clone())
        })
        .collect()
}

/// The line (from 1) of the key `name` after byte `from` of `text` (1 when not found).
fn line_of_key(text: &str, from: usize, name: &str) -> u32 {
    let key = serde_json::to_string(name).unwrap_or_default();
    let rest = text.get(from..).unwrap_or("");
    let Some(at) = rest.find(&format!("{key}:")).or_else(|| rest.find(&key)) else {
        return 1;
    };
    let before = &text[..from + at];
    u32::try_from(crate::pos::lines(before).count()).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKAGE: &str = r#"{
  "name": "docs",
  "scripts": {
    "build:ytt": "ytt -f site.tpl.yml -f parts > site.yml",
    "build:css": "sass src/a.scss out.css",
    "build": "npm run build:ytt && mkdocs build"
  }
}
"#;

    #[test]
    fn each_script_that_runs_ytt_at_its_line_in_the_file_directory() {
        let s = snippets("site/package.json", PACKAGE, &|t| t.contains("ytt -f"));
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].text, "ytt -f site.tpl.yml -f parts > site.yml");
        assert_eq!(s[0].line_offset + 1, 4);
        assert_eq!(s[0].cwd, Word::lit(format!("{REPO}/site")).normalized());
    }

    #[test]
    fn not_json_or_no_scripts_gives_nothing() {
        assert!(snippets("package.json", "{ nope", &|_| true).is_empty());
        assert!(snippets("package.json", "{\"name\": \"x\"}", &|_| true).is_empty());
        assert!(candidate("web/package.json"));
        assert!(!candidate("node_modules/x/package.json"));
        assert!(!candidate("package.json.bak"));
    }
}
