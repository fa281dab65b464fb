//! Folders a Tanzu Application Platform values file hands to its namespace provisioner:
//! `namespace_provisioner.gitops_install.subPath` and `additional_sources[].git.subPath`.
//! The provisioner package fetches each folder and runs ytt on it together with templates of
//! its own (the namespace's default resources, which the folder's overlays patch), with data
//! values the repository does not hold. Such a folder is no root of its own, as files copied
//! into another tool's tree are not ([`super::copied`]): its static checks still apply, and an
//! overlay of it that matches nothing alone is not reported as if it were rendered alone
//! (round twenty-one's R21-1).

use crate::lint::discover::copied::Copied;
use crate::lint::discover::invocations::index::Index;

/// The key under which TAP's values configure the provisioner.
const PROVISIONER: &str = "namespace_provisioner";
/// The deepest nesting of keys followed.
const MAX_DEPTH: usize = 64;

/// Whether a file may be a TAP values file that configures the namespace provisioner.
pub fn candidate(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    (name.ends_with(".yaml") || name.ends_with(".yml")) && name.contains("values")
}

/// Whether a file's text may configure the provisioner's sources.
pub fn mentions(text: &str) -> bool {
    text.contains(PROVISIONER) && text.contains("subPath")
}

/// The repository folders the values file `file` (its text `text`) hands to the namespace
/// provisioner, each as a copy into the provisioner's tree. A `subPath` names a folder of
/// the repository its `url` names; one that is no folder of this repository is left alone.
pub fn in_text(file: &str, text: &str, index: &Index) -> Vec<Copied> {
    let mut out = Vec::new();
    // The keys above the current line, with their indentation.
    let mut stack: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((indent, key, value)) = entry(line) else {
            continue;
        };
        while stack.last().is_some_and(|(at, _)| *at >= indent) {
            stack.pop();
        }
        if key == "subPath" && source(&stack) {
            if let Some(dir) = plain(value).filter(|d| index.is_dir(d)) {
                out.push(Copied {
                    path: dir.to_string(),
                    to: "the namespace provisioner of Tanzu Application Platform".into(),
                    origin: format!("{file}:{}", i + 1),
                });
            }
        }
        if stack.len() < MAX_DEPTH {
            stack.push((indent, key));
        }
    }
    out
}

/// A mapping entry of a line: its key's column (after a list's `- `), the key, and the rest
/// of the line; `None` for a blank line, a comment or a line without a plain key.
fn entry(line: &str) -> Option<(usize, &str, &str)> {
    let body = line.trim_start();
    if body.is_empty() || body.starts_with('#') {
        return None;
    }
    let mut indent = line.len() - body.len();
    let mut body = body;
    while let Some(rest) = body.strip_prefix("- ") {
        let rest_trimmed = rest.trim_start();
        indent += body.len() - rest_trimmed.len();
        body = rest_trimmed;
    }
    let (key, value) = body.split_once(':')?;
    let key = key.trim_matches(['"', '\'']);
    let plain_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
    (plain_key && (value.is_empty() || value.starts_with([' ', '\t']))).then_some((
        indent,
        key,
        value.trim(),
    ))
}

/// Whether the keys above a `subPath` make it a source of the provisioner.
fn source(stack: &[(usize, &str)]) -> bool {
    let keys: Vec<&str> = stack.iter().map(|(_, k)| *k).collect();
    let Some(at) = keys.iter().rposition(|k| *k == PROVISIONER) else {
        return false;
    };
    matches!(
        &keys[at + 1..],
        ["gitops_install"] | ["additional_sources", "git"]
    )
}

/// A literal repository path written as a value (quotes and a trailing slash dropped);
/// `None` for a template expression, a variable or a path leaving the repository.
fn plain(value: &str) -> Option<&str> {
    let v = value.split(" #").next().unwrap_or(value).trim();
    let v = v.trim_matches(['"', '\'']).trim_end_matches('/');
    let v = v.strip_prefix("./").unwrap_or(v);
    let bad = v.is_empty()
        || v.starts_with('/')
        || v.contains(['#', '$', '{', '}', '(', ')', '<', '>', '*', ' '])
        || v.split('/').any(|s| s == ".." || s.is_empty());
    (!bad).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES: &str = "\
tap_install:
  values:
    profile: full
    namespace_provisioner:
      controller: false
      gitops_install:
        ref: origin/main
        subPath: clusters/build/namespace-provisioner
        url: git@github.com:example/gitops.git
      additional_sources:
      - git:
          ref: origin/main
          subPath: \"clusters/build/extra/\"
          url: https://github.com/example/gitops.git
        path: _ytt_lib/extra
      - git:
          subPath: not/in/this/repository
    other:
      subPath: clusters/build/namespace-provisioner
";

    fn index() -> Index {
        Index::new([
            "clusters/build/namespace-provisioner/namespaces.yaml",
            "clusters/build/extra/sa.yaml",
        ])
    }

    #[test]
    fn the_provisioner_s_folders_are_copies_into_its_tree() {
        let got = in_text("values/tap-values.yaml", VALUES, &index());
        let paths: Vec<(&str, &str)> = got
            .iter()
            .map(|c| (c.path.as_str(), c.origin.as_str()))
            .collect();
        assert_eq!(
            paths,
            [
                (
                    "clusters/build/namespace-provisioner",
                    "values/tap-values.yaml:8"
                ),
                ("clusters/build/extra", "values/tap-values.yaml:13"),
            ]
        );
    }

    #[test]
    fn other_keys_and_expressions_are_left_alone() {
        assert!(in_text(
            "v.yaml",
            "other:\n  gitops_install:\n    subPath: clusters/build/extra\n",
            &index()
        )
        .is_empty());
        let templated =
            "namespace_provisioner:\n  gitops_install:\n    subPath: #@ data.values.path\n";
        assert!(in_text("v.yaml", templated, &index()).is_empty());
        assert!(candidate(
            "cluster-config/values/tap-non-sensitive-values.yaml"
        ));
        assert!(!candidate("config/namespaces.yaml"));
    }
}
