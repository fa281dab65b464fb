//! Keys a script writes into the user's copy of an example before its `ytt` command reads the
//! copy (`yq -i '.clusters.dev.k8s_info.url = "'$URL'"' values.yaml`, round ten's FA10-4): the
//! linter lints the example in the copy's place, which lacks them, so the command is given
//! them as data values known only at run time (each gets a placeholder, and no finding rests
//! on it). Only `yq -i` assignments of a plain dotted path (`.a.b.c = …`, `.a.b |= …`), on a
//! line of the same file before the command, to the path the command reads as the copy; or
//! on a line of any script, to the variable the copy's name is made from.

use super::made::MadeAt;
use super::resolve::{DataValue, Invocation};
use super::ytt_args::ValueKind;
use crate::report::{AssumptionKind, Subject};

/// Adds to `inv` the keys that `yq -i` steps write into a copy it reads in place of an
/// example (`texts`: the repository's files worth reading, by path).
pub fn add(inv: &mut Invocation, made: &[MadeAt], texts: &[(String, &str)]) {
    let copies: Vec<String> = inv
        .assumptions
        .iter()
        .filter(|a| a.kind == AssumptionKind::ExampleValues)
        .filter_map(|a| match &a.subject {
            Some(Subject::StandIn { copy, .. }) => Some(copy.clone()),
            _ => None,
        })
        .collect();
    if copies.is_empty() {
        return;
    }
    let Some(text) = texts
        .iter()
        .find(|(p, _)| *p == inv.origin.file)
        .map(|(_, t)| *t)
    else {
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    // A script a page runs: its steps sit on the page's line, in no known order; the scripts'
    // own `yq -i` lines that write the copy say what it holds. So do, for any command, the
    // scripts' `yq -i` lines on the variable the copy is named from (`yq e -i '.registry.fqdn
    // = …' "$PARAMS_YAML"` in one script, `-f generated/$(basename $PARAMS_YAML)` in the
    // next: round twenty-seven's tap-made-simple, R27-4), which the scripts share.
    for (path, text) in texts.iter().filter(|(p, _)| super::scripts::candidate(p)) {
        let in_place =
            |l: &&str| l.contains("yq ") && (l.contains(" -i") || l.contains("--inplace"));
        for line in text.lines().filter(in_place) {
            let target = line.split_whitespace().last().unwrap_or("");
            let target = target.trim_matches(['"', '\'', ';']);
            let named = copies.iter().any(|c| {
                (inv.scripted && (target == *c || target.ends_with(&format!("/{c}"))))
                    || variable(target).is_some_and(|v| mentions(c, v))
            });
            if named && !path.is_empty() {
                push_keys(inv, line);
            }
        }
    }
    for m in made {
        if m.file != inv.origin.file || m.made.line >= inv.origin.line || m.made.by != "yq -i" {
            continue;
        }
        let path = m.made.path.normalized().repo_path();
        let to_copy = path
            .as_deref()
            .is_some_and(|p| copies.iter().any(|c| c == p))
            || m.made
                .path
                .literal()
                .is_some_and(|l| copies.iter().any(|c| l.ends_with(&format!("/{c}"))));
        if !to_copy {
            continue;
        }
        let Some(line) = (m.made.line as usize)
            .checked_sub(1)
            .and_then(|i| lines.get(i))
        else {
            continue;
        };
        push_keys(inv, line);
    }
}

/// Adds the keys a line's yq expression assigns as values known only at run time.
fn push_keys(inv: &mut Invocation, line: &str) {
    for key in assigned(line) {
        if !inv.values.iter().any(|v| v.key == key) {
            inv.values.push(DataValue {
                kind: ValueKind::Yaml,
                key,
                value: None,
                written: None,
            });
        }
    }
}

/// The plain dotted paths a line's yq expression assigns (`.a.b = x`, `.a.b |= x`), as data
/// value keys (`a.b`).
pub fn assigned(line: &str) -> Vec<String> {
    let Some(at) = line.find("yq ") else {
        return Vec::new();
    };
    let text = &line[at..];
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i] == b'.'
            && (i == 0 || matches!(bytes[i - 1], b' ' | b'\'' | b'"' | b'(' | b'|'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len()
            && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'.' | b'_' | b'-'))
        {
            j += 1;
        }
        let path = &text[i + 1..j];
        let rest = text[j..].trim_start();
        let assigns = (rest.starts_with('=') && !rest.starts_with("==")) || rest.starts_with("|=");
        let plain = !path.is_empty()
            && path
                .split('.')
                .all(|s| !s.is_empty() && !s.chars().all(|c| c.is_ascii_digit()));
        if assigns && plain && !out.iter().any(|k| k == path) {
            out.push(path.to_string());
        }
        i = j.max(i + 1);
    }
    out
}

/// The variable a `yq -i` target names whole (`$PARAMS_YAML`, `${PARAMS_YAML}`).
fn variable(target: &str) -> Option<&str> {
    let v = target.strip_prefix('$')?;
    let v = v
        .strip_prefix('{')
        .and_then(|v| v.strip_suffix('}'))
        .unwrap_or(v);
    let ident = !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    ident.then_some(v)
}

/// Whether the copy as a command names it (`generated/$(basename $PARAMS_YAML)`) reads the
/// variable `v`.
fn mentions(copy: &str, v: &str) -> bool {
    let braced = format!("${{{v}}}");
    copy.contains(&braced)
        || copy.match_indices(&format!("${v}")).any(|(i, m)| {
            copy[i + m.len()..]
                .bytes()
                .next()
                .is_none_or(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_variable_names_the_copy_that_reads_it() {
        assert_eq!(variable("$PARAMS_YAML"), Some("PARAMS_YAML"));
        assert_eq!(variable("${PARAMS_YAML}"), Some("PARAMS_YAML"));
        assert_eq!(variable("values.yaml"), None);
        assert_eq!(variable("$(pwd)/v.yaml"), None);
        let copy = "`-f generated/$(basename $PARAMS_YAML)`";
        assert!(mentions(copy, "PARAMS_YAML"));
        assert!(!mentions(copy, "PARAMS"));
        assert!(mentions("-f ${PARAMS}/v.yml", "PARAMS"));
    }

    #[test]
    fn yq_assignments_of_plain_paths_are_keys() {
        assert_eq!(
            assigned("   yq -i '.clusters.view.k8s_info.url = \"'$URL'\"' values.yaml"),
            ["clusters.view.k8s_info.url"]
        );
        assert_eq!(
            assigned("yq -i \".tls.certData = \\\"`cat x | base64`\\\"\" values.yaml"),
            ["tls.certData"]
        );
        assert_eq!(assigned("yq e -i '.a.b |= 1' v.yml"), ["a.b"]);
        assert!(assigned("yq e '.a.b == 1' v.yml").is_empty());
        assert!(assigned("yq -i '.items.0.name = \"x\"' v.yml").is_empty());
        assert!(assigned("echo .a = 1").is_empty());
    }
}
