//! Data values that the repository's scripts read with another tool: `yq eval '.a.b' FILE`
//! (`yq e`, `yq -r`, `yq '.a.b' FILE`). A values file is often both ytt's input and the
//! scripts' configuration; a key only a script reads is used, by the script.
//!
//! ```text
//! setup.sh   vc=$(yq eval '.vcenter.fqdn' ./templates/values.yaml)
//!            ytt -f templates/values.yaml -f templates/ns.yaml
//! ```
//!
//! `vcenter.fqdn` is read (by `setup.sh`), though no template does. The file may be named by
//! a variable the script builds from its own directory
//! (`CONFIG="$(dirname ${BASH_SOURCE[0]})/values.yaml"`, [`super::script_vars`]).

use crate::files::paths;
use crate::lint::discover::invocations::index::Index;
use crate::lint::discover::script_vars::Vars;

/// A key path a script reads from a repository file: (file, key segments).
pub type ToolRead = (String, Vec<String>);

/// The reads in the text of the script at `file`, whose paths exist in `index`.
pub fn in_text(file: &str, text: &str, index: &Index) -> Vec<ToolRead> {
    let dir = paths::parent(file);
    // `yq … ${CONFIGURATION_FILE}`, the variable built from the script's own directory.
    let vars = Vars::of(text);
    let from_var = |w: &str| {
        let p = vars.path_of(w, file)?;
        normalized(&p).filter(|p| index.is_file(p))
    };
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.contains("yq")) {
        for command in line.split(['|', ';', '&', '`', '(', ')']) {
            let words: Vec<&str> = command.split_whitespace().collect();
            let Some(at) = words
                .iter()
                .position(|w| w.rsplit('/').next() == Some("yq"))
            else {
                continue;
            };
            let rest = &words[at + 1..];
            // `yq -i '.a = 1' FILE` writes the file.
            if rest.iter().any(|w| *w == "-i" || *w == "--inplace") {
                continue;
            }
            let keys: Vec<Vec<String>> = rest.iter().filter_map(|w| key_path(w)).collect();
            let files = rest
                .iter()
                .filter(|w| !w.starts_with('-') && key_path(w).is_none())
                .filter_map(|w| match w.contains('$') {
                    true => from_var(w),
                    false => located(w, dir, index),
                });
            for f in files {
                out.extend(keys.iter().map(|k| (f.clone(), k.clone())));
            }
        }
    }
    out
}

/// `'.a.b'` (quoted or not) as `["a", "b"]`; `None` for anything that is not a plain path of
/// keys (a filter, an assignment, `.` alone).
fn key_path(word: &str) -> Option<Vec<String>> {
    // A quote opened and not closed in the word: an expression with spaces, no plain path.
    let quoted = |q: char| word.starts_with(q) && !(word.len() > 1 && word.ends_with(q));
    if quoted('\'') || quoted('"') {
        return None;
    }
    let w = word.trim_matches(|c| c == '\'' || c == '"');
    let body = w.strip_prefix('.')?;
    let keys: Vec<String> = body.split('.').map(str::to_string).collect();
    let plain = |k: &String| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    keys.iter().all(plain).then_some(keys)
}

/// The repository path a file argument names, from the script's directory or one above it
/// (a script is often run from a directory up its path: `tmc-sm/` runs
/// `templates/harbor/deploy.sh`, which reads `./templates/values.yaml`).
fn located(word: &str, dir: &str, index: &Index) -> Option<String> {
    let w = word.trim_matches(|c| c == '\'' || c == '"');
    if w.is_empty() || w.contains('$') || w.starts_with('/') {
        return None;
    }
    let w = w.strip_prefix("./").unwrap_or(w);
    let mut from = dir;
    loop {
        if let Some(p) = normalized(&paths::join(from, w)).filter(|p| index.is_file(p)) {
            return Some(p);
        }
        if from == "." || from.is_empty() {
            return None;
        }
        from = paths::parent(from);
    }
}

/// `a/./b/../c` as `a/c`; `None` above the repository's top.
fn normalized(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// Whether `reads` covers the declaration of `path` in `file`: a script reads the key, a key
/// above it (the whole map) or one below it (the map is used).
pub fn covers(reads: &[ToolRead], file: &str, path: &[String]) -> bool {
    reads.iter().any(|(f, k)| {
        f == file && {
            let n = k.len().min(path.len());
            k[..n] == path[..n]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        Index::new([
            "templates/values.yaml",
            "setup.sh",
            "ci/run.sh",
            "app/templates/values.yml",
            "app/templates/db/deploy.sh",
        ])
    }

    fn keys(p: &str) -> Vec<String> {
        p.split('.').map(str::to_string).collect()
    }

    #[test]
    fn yq_reads_of_a_repository_file_are_found_from_the_script_or_the_top() {
        let text = "vc=$(yq eval '.vcenter.fqdn' ./templates/values.yaml)\n\
                    ip=$(yq e \".harbor.deploy.ip\" templates/values.yaml)\n\
                    yq -i '.a = 1' templates/values.yaml\n\
                    yq '.x' /etc/hosts\n\
                    yq eval '.b | length' templates/values.yaml\n";
        let got = in_text("setup.sh", text, &index());
        assert_eq!(
            got,
            vec![
                ("templates/values.yaml".to_string(), keys("vcenter.fqdn")),
                (
                    "templates/values.yaml".to_string(),
                    keys("harbor.deploy.ip")
                ),
            ]
        );
        let nested = in_text("ci/run.sh", "yq '.n' ../templates/values.yaml\n", &index());
        assert_eq!(
            nested,
            vec![("templates/values.yaml".to_string(), keys("n"))]
        );
    }

    #[test]
    fn a_file_a_variable_names_from_the_script_s_directory_is_found() {
        // Round nine's FW9-3: a sourced setup script names its values file from its own path.
        let text = "NAME=values.yml\n\
                    export CONFIGURATION_FILE=\"$(dirname ${BASH_SOURCE[0]})/templates/${NAME}\"\n\
                    PORT=$(yq -e eval '.db.port' ${CONFIGURATION_FILE})\n\
                    yq '.db.host' \"$UNKNOWN\"\n";
        let got = in_text("app/setup.sh", text, &index());
        assert_eq!(
            got,
            vec![("app/templates/values.yml".to_string(), keys("db.port"))]
        );
    }

    #[test]
    fn a_read_covers_its_key_the_keys_below_and_the_map_above() {
        let reads = vec![("v.yml".to_string(), keys("harbor.deploy"))];
        assert!(covers(&reads, "v.yml", &keys("harbor.deploy.ip")));
        assert!(covers(&reads, "v.yml", &keys("harbor")));
        assert!(!covers(&reads, "v.yml", &keys("harbor.user")));
        assert!(!covers(&reads, "other.yml", &keys("harbor.deploy.ip")));
    }
}
