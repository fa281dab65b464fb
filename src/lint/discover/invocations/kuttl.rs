//! kuttl tests: the `commands` of a `TestStep` (and of a `TestSuite`), each a `command` or a
//! `script`, run in the directory of the file that holds them.

use super::snippet::Snippet;
use super::word::{Word, REPO};
use crate::files::paths;
use crate::lint::repo::yaml_doc::{documents, entry, get, items, string, text_offset};

/// Whether a YAML file may hold kuttl steps (worth parsing).
pub fn candidate(text: &str) -> bool {
    text.contains("kuttl.dev") && text.contains("commands")
}

/// The commands of the kuttl file at repository-relative `path`.
pub fn snippets(path: &str, src: &str) -> Vec<Snippet> {
    let dir = paths::parent(path);
    let cwd = if dir == "." {
        Word::lit(REPO)
    } else {
        Word::lit(format!("{REPO}/{dir}"))
    };
    let mut out = Vec::new();
    for doc in documents(path, src) {
        let v = &doc.value;
        let api = string(get(v, "apiVersion")).unwrap_or("");
        let kind = string(get(v, "kind")).unwrap_or("");
        if !api.starts_with("kuttl.dev/")
            || !matches!(kind, "TestStep" | "TestSuite" | "TestAssert")
        {
            continue;
        }
        for cmd in items(get(v, "commands")) {
            for key in ["script", "command"] {
                let Some(e) = entry(cmd, key) else { continue };
                let Some(text) = e.value.as_str() else {
                    continue;
                };
                if text.contains("ytt") {
                    out.push(Snippet::new(
                        path,
                        text_offset(src, e.pos.line),
                        text.to_string(),
                        cwd.clone(),
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_scripts_run_in_their_directory() {
        let src = "---\napiVersion: kuttl.dev/v1beta1\nkind: TestStep\ncommands:\n  - script: |\n      cd ../../../package && \\\n      ytt -f ../test/integration/default/config -f package-resources.yml | kctrl dev -f- --local -y\n";
        assert!(candidate(src));
        let s = snippets("test/integration/default/00-install.yaml", src);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].line_offset, 5);
        assert_eq!(s[0].cwd.to_string(), "test/integration/default");
    }
}
