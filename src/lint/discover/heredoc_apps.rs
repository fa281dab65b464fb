//! kapp-controller `App` resources a script writes in a here-document and applies (`cat <<EOF |
//! kubectl apply -f -`, `kubectl apply -f - <<EOF`, `kapp deploy -a x -f - <<EOF`), round
//! forty-eight's N48-3: read as a committed App is (`package.rs`), at the script's lines, so its
//! `fetch` and ytt `paths` decide the roots. The shell expands the text: a value known only at
//! run time (`name: ${app}`, `url: ${repo}`) is left as written, which changes nothing of the
//! paths. A ytt path one segment of which is a variable (`cluster-config/${app}`) is each
//! folder of the repository there (a `bound-argument` assumption names the value), at most
//! [`MAX_BOUND`] of them; a path with any other expansion leaves the App unread.

use crate::report::{Assumption, AssumptionKind};

/// The most folders a path's variable is bound to.
const MAX_BOUND: usize = 16;

/// One App's text as the script writes it, with a value for its paths' variable.
#[derive(Clone, Debug, PartialEq)]
pub struct HeredocApp {
    /// Repository-relative script.
    pub file: String,
    /// The script line of the text's first line.
    pub first_line: u32,
    /// The text, the paths' variable replaced by `bound`'s value.
    pub text: String,
    /// What the variable was taken to be.
    pub bound: Option<Assumption>,
}

/// Whether a line of a script applies what it reads on standard input.
fn applies_stdin(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let stdin = words
        .windows(2)
        .any(|w| matches!(w[0], "-f" | "--filename" | "--file") && w[1] == "-")
        || words
            .iter()
            .any(|w| matches!(*w, "-f-" | "--filename=-" | "--file=-"));
    let applies = words.windows(2).any(|w| {
        (w[0].rsplit('/').next() == Some("kubectl") && matches!(w[1], "apply" | "create"))
            || (w[0].rsplit('/').next() == Some("kapp") && w[1] == "deploy")
    });
    stdin && applies
}

/// The delimiter of the here-document a line starts (`<<EOF`, `<<-'EOF'`), and whether its
/// body's leading tabs are stripped.
fn heredoc_start(line: &str) -> Option<(String, bool)> {
    let at = line.find("<<")?;
    let rest = &line[at + 2..];
    if rest.starts_with('<') {
        return None;
    }
    let (rest, tabs) = match rest.strip_prefix('-') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let word: String = rest
        .trim_start()
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some((word, tabs))
}

/// The App texts of the script `file` (its `text`); `dirs(parent)` lists the repository's
/// folders directly under `parent`.
pub fn apps(file: &str, text: &str, dirs: &dyn Fn(&str) -> Vec<String>) -> Vec<HeredocApp> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        let Some((delim, tabs)) = heredoc_start(line).filter(|_| applies_stdin(line)) else {
            continue;
        };
        let start = i;
        let mut body = Vec::new();
        while i < lines.len() {
            let l = if tabs {
                lines[i].trim_start_matches('\t')
            } else {
                lines[i]
            };
            i += 1;
            if l.trim_end() == delim {
                break;
            }
            body.push(l);
        }
        let body = body.join("\n") + "\n";
        if !body.contains("kappctrl.k14s.io/") || !body.contains("kind: App") {
            continue;
        }
        let first_line = u32::try_from(start + 1).unwrap_or(u32::MAX);
        out.extend(bound(file, first_line, &body, dirs));
    }
    out
}

/// `body` once for each value of the variable its ytt paths hold as a whole segment (none:
/// once, as it is); nothing when a path holds another expansion.
fn bound(
    file: &str,
    first_line: u32,
    body: &str,
    dirs: &dyn Fn(&str) -> Vec<String>,
) -> Vec<HeredocApp> {
    let one = |text: String, bound: Option<Assumption>| HeredocApp {
        file: file.to_string(),
        first_line,
        text,
        bound,
    };
    // The paths are the list items under `paths:` (as a committed App writes them).
    let mut in_paths = false;
    let mut paths_indent = 0;
    let mut var: Option<(String, String)> = None;
    for line in body.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if t == "paths:" {
            in_paths = true;
            paths_indent = indent;
            continue;
        }
        if !in_paths {
            continue;
        }
        let Some(path) = t.strip_prefix("- ") else {
            if !t.is_empty() && indent <= paths_indent && !t.starts_with('-') {
                in_paths = false;
            }
            continue;
        };
        if !path.contains('$') {
            continue;
        }
        let (parent, last) = path.rsplit_once('/').unwrap_or(("", path));
        let name = last
            .strip_prefix("${")
            .and_then(|v| v.strip_suffix('}'))
            .or_else(|| last.strip_prefix('$'));
        let ok = name.is_some_and(|n| {
            !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }) && !parent.contains('$');
        match (ok, &var) {
            (true, None) => var = Some((parent.to_string(), last.to_string())),
            (true, Some(v)) if *v == (parent.to_string(), last.to_string()) => {}
            _ => return Vec::new(),
        }
    }
    let Some((parent, written)) = var else {
        return vec![one(body.to_string(), None)];
    };
    let values = dirs(&parent);
    if values.is_empty() || values.len() > MAX_BOUND {
        return Vec::new();
    }
    values
        .into_iter()
        .map(|v| {
            let a = Assumption::new(
                AssumptionKind::BoundArgument,
                format!(
                    "`{written}` of the App the script writes ({file}:{first_line}) is `{v}`, a folder of `{}`",
                    if parent.is_empty() { "." } else { &parent }
                ),
            );
            one(body.replace(&written, &v), Some(a))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "#!/bin/bash\nset -e\ncat <<EOF | kubectl apply -f -\n---\napiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: ${app}\nspec:\n  fetch:\n  - git:\n      url: ${repo}\n  template:\n  - ytt:\n      paths:\n      - common\n      - clusters/${app}\n  deploy:\n  - kapp: {}\nEOF\necho done\n";

    #[test]
    fn an_app_a_script_applies_from_a_here_document() {
        let dirs = |p: &str| {
            assert_eq!(p, "clusters");
            vec!["dev".to_string(), "prod".to_string()]
        };
        let found = apps("setup.sh", SCRIPT, &dirs);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].first_line, 4);
        assert!(found[0].text.contains("- clusters/dev\n"));
        assert!(found[0].text.contains("name: dev\n"));
        assert!(found[1].text.contains("- clusters/prod\n"));
        assert!(found[0].bound.as_ref().unwrap().message.contains("`dev`"));
        // Not applied: a file written for later is another step's.
        let written = SCRIPT.replace("cat <<EOF | kubectl apply -f -", "cat <<EOF > app.yaml");
        assert!(apps("setup.sh", &written, &dirs).is_empty());
        // A path with another expansion is not read.
        let other = SCRIPT.replace("clusters/${app}", "clusters/${app}-x");
        assert!(apps("setup.sh", &other, &dirs).is_empty());
    }
}
