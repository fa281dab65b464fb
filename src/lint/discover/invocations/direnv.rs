//! direnv's `.envrc`: the variables it exports are set in the shell of whoever works in its
//! directory or below, so the repository's scripts and documented commands there see them
//! (`export PROJECT_DIR=${PWD}` then `ytt -f ${PROJECT_DIR}/overlay/x` in `bin/render`).
//! Each assignment (`export NAME=VALUE` or `NAME=VALUE`) whose value the linter can spell is
//! kept: `$PWD`, `${PWD}` and `$(pwd)` are the directory of the `.envrc` (direnv evaluates it
//! there), a variable it set before is replaced by its value, and literal text is kept. A value
//! built from anything else (a command, a variable of the user's) is not set, so a path
//! built on it stays unknown, as before.

use super::word::{Word, REPO};

/// The most assignments read from one `.envrc`.
const MAX_VARS: usize = 256;

/// The variables `.envrc` text at repository directory `dir` exports, in order.
pub fn exports(dir: &str, text: &str) -> Vec<(String, Word)> {
    let here = if dir == "." || dir.is_empty() {
        REPO.to_string()
    } else {
        format!("{REPO}/{dir}")
    };
    let mut vars: Vec<(String, String)> = Vec::new();
    for line in text.lines().take(10_000) {
        let line = line.trim();
        let line = line.strip_prefix("export ").unwrap_or(line).trim();
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let value = value.trim().trim_matches('"');
        match spelled(value, &here, &vars) {
            Some(v) => {
                vars.retain(|(n, _)| n != name);
                vars.push((name.to_string(), v));
            }
            // Set to something unknown: a value kept from before would be wrong.
            None => vars.retain(|(n, _)| n != name),
        }
        if vars.len() >= MAX_VARS {
            break;
        }
    }
    vars.into_iter()
        .map(|(n, v)| (n, Word::lit(v).normalized()))
        .collect()
}

/// The value of `value` with the variables it may use replaced, if every part is known.
fn spelled(value: &str, here: &str, vars: &[(String, String)]) -> Option<String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, next) = if let Some(b) = after.strip_prefix('{') {
            let end = b.find('}')?;
            (&b[..end], &b[end + 1..])
        } else if let Some(b) = after.strip_prefix("(pwd)") {
            ("PWD", b)
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        if name == "PWD" {
            out.push_str(here);
        } else {
            let (_, v) = vars.iter().find(|(n, _)| n == name)?;
            out.push_str(v);
        }
        rest = next;
    }
    out.push_str(rest);
    let plain = !out.contains(['`', '\'', ' ', ';', '&', '|', '(', ')', '<', '>', ':']);
    (plain && !out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_are_spelled_from_the_envrc_s_directory() {
        let text = "export PROJECT_DIR=${PWD}\nexport OVERLAYS=\"$PROJECT_DIR/overlay\"\nPATH=${PROJECT_DIR}/bin:${PATH}\nexport SECRET=$(vault read x)\n";
        let vars = exports("infra", text);
        let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["PROJECT_DIR", "OVERLAYS"]);
        assert_eq!(vars[0].1.repo_path().as_deref(), Some("infra"));
        assert_eq!(vars[1].1.repo_path().as_deref(), Some("infra/overlay"));
        let top = exports(".", "export D=$(pwd)/config\n");
        assert_eq!(top[0].1.repo_path().as_deref(), Some("config"));
    }
}
