//! A file a step renders with `sed` from a committed template into a directory the command
//! reads, before it reads it (round thirty-seven's R37-4: a page runs `./to-yaml.sh`, whose
//! `sed -e "s/{{ .domain }}/$DOMAIN/g" .init/config.tpl > .init/config.yml` leaves the
//! template's `{{ .role_arn }}` in place, then `ytt --file .init`, which fails on it). The
//! committed directory lacks the file; when the script's rules (each a literal pattern) leave
//! some of the template's placeholders (`{{ … }}` outside ytt's own lines) in it, the file
//! ytt reads certainly holds them, and the command is linted with the template standing in
//! for the file, under its name: the findings that rest on its inputs name the rendering and
//! what it leaves (a `changed-at-run-time` assumption about the template, so a warning; the
//! linter reads the template as committed, the placeholders the rules fill included). Where
//! the rules fill every placeholder, or cannot be read, the command is linted without the
//! file as before (the committed template is not what ytt reads).

use super::index::Index;
use super::rendered::Template;
use super::resolve::Invocation;
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind, Subject};

/// The most placeholders a message names.
const SHOWN: usize = 3;

/// Adds to `inv` the templates `sed` renders, before the command, into the input directories
/// it reads: each as an input named as the file it renders, with its assumption. `read` gives
/// a repository file's text.
pub fn add(
    inv: &mut Invocation,
    templates: &[Template],
    index: &Index,
    read: &dyn Fn(&str) -> Option<String>,
) {
    let dirs: Vec<String> = inv
        .inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string())
        .filter(|p| index.is_dir(p))
        .collect();
    for t in templates {
        let before = t.file == inv.origin.file && t.line < inv.origin.line;
        let yaml = t.to.ends_with(".yml") || t.to.ends_with(".yaml");
        if t.by != "sed" || !before || !yaml || index.exists(&t.to) {
            continue;
        }
        let Some(dir) = dirs.iter().find(|d| paths::is_within(&t.to, d)) else {
            continue;
        };
        let Some(patterns) = &t.patterns else {
            continue;
        };
        let Some(text) = read(&t.path) else {
            continue;
        };
        let left = left_over(&text, patterns);
        if left.is_empty() {
            continue;
        }
        let name = if dir == "." {
            t.to.clone()
        } else {
            t.to.strip_prefix(&format!("{dir}/"))
                .unwrap_or(&t.to)
                .to_string()
        };
        let input = format!("{name}={}", t.path);
        if inv.inputs.contains(&input) {
            continue;
        }
        inv.inputs.push(input);
        inv.stand_ins.push(t.path.clone());
        let shown: Vec<String> = left
            .iter()
            .take(SHOWN)
            .map(|(p, line)| format!("`{p}` (line {line})"))
            .collect();
        let a = Assumption::new(
            AssumptionKind::ChangedAtRunTime,
            format!(
                "{} is rendered at run time from {} by `sed` at {}, whose rules leave {} in \
                 it; the template was linted in its place as committed, the placeholders the \
                 rules fill (with the values given to the script) included",
                t.to,
                t.path,
                t.place(),
                shown.join(", ")
            ),
        )
        .about(Subject::Rewritten {
            file: t.path.clone(),
            shell: false,
        });
        if !inv.assumptions.contains(&a) {
            inv.assumptions.push(a);
        }
    }
}

/// The placeholders (`{{ … }}` outside `#@` and `#!` lines) of `text` that none of the
/// literal `patterns` matches, each with its line.
fn left_over(text: &str, patterns: &[String]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("#@") || t.starts_with("#!") {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find("{{") {
            let Some(len) = rest[open..].find("}}") else {
                break;
            };
            let placeholder = &rest[open..open + len + 2];
            if !patterns.iter().any(|p| matches(p, placeholder)) {
                out.push((placeholder.to_string(), i + 1));
            }
            rest = &rest[open + len + 2..];
        }
    }
    out
}

/// Whether a `sed` pattern (a basic regular expression) matches within `placeholder`: `.`
/// is any character, the other characters are themselves (the patterns of such rules are
/// the placeholder's text).
fn matches(pattern: &str, placeholder: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = placeholder.chars().collect();
    if p.len() > s.len() {
        return false;
    }
    (0..=s.len() - p.len()).any(|at| {
        p.iter()
            .zip(&s[at..])
            .all(|(pc, sc)| *pc == '.' || pc == sc)
    })
}

#[cfg(test)]
mod tests {
    use super::super::resolve::Origin;
    use super::*;

    const TPL: &str = "#@ load(\"@ytt:yaml\", \"yaml\")\n---\n#@ def config():\napp:\n  domain: {{ .domain }}\n  roleArn: {{ .role_arn }}\n#@ end\n";

    #[test]
    fn the_placeholders_no_rule_fills() {
        let left = left_over(TPL, &["{{ .domain }}".to_string()]);
        assert_eq!(left, vec![("{{ .role_arn }}".to_string(), 6)]);
        let all = ["{{ .domain }}".to_string(), "{{ .role_arn }}".to_string()];
        assert!(left_over(TPL, &all).is_empty());
        // `.` is any character.
        assert!(left_over(TPL, &["{{ .domain }}".into(), "role.arn".into()]).is_empty());
        // ytt's own lines hold no placeholder of sed's.
        assert!(left_over("#@ x = \"{{ a }}\"\n", &[]).is_empty());
    }

    #[test]
    fn a_rendered_file_in_an_input_directory_is_read_from_its_template() {
        let index = Index::new(["pkg/.init/config.tpl", "pkg/.init/ns.yml"]);
        let t = Template {
            path: "pkg/.init/config.tpl".into(),
            by: "sed".into(),
            to: "pkg/.init/config.yml".into(),
            origin: "pkg/README.md:8".into(),
            file: "pkg/README.md".into(),
            line: 8,
            patterns: Some(vec!["{{ .domain }}".into()]),
            written: None,
        };
        let mut inv = Invocation::new(Origin {
            file: "pkg/README.md".into(),
            line: 9,
        });
        inv.inputs = vec!["pkg/.init".into()];
        let read = |p: &str| (p == "pkg/.init/config.tpl").then(|| TPL.to_string());
        add(&mut inv, std::slice::from_ref(&t), &index, &read);
        assert_eq!(inv.inputs, ["pkg/.init", "config.yml=pkg/.init/config.tpl"]);
        assert_eq!(inv.stand_ins, ["pkg/.init/config.tpl"]);
        assert_eq!(inv.assumptions.len(), 1);
        let said = &inv.assumptions[0].message;
        assert!(said.contains("leave `{{ .role_arn }}` (line 6)"), "{said}");
        // Rules that fill every placeholder: the template is not what ytt reads.
        let mut filled = Invocation::new(inv.origin.clone());
        filled.inputs = vec!["pkg/.init".into()];
        let every = Template {
            patterns: Some(vec!["{{ .domain }}".into(), "{{ .role_arn }}".into()]),
            ..t
        };
        add(&mut filled, &[every], &index, &read);
        assert_eq!(filled.inputs, ["pkg/.init"]);
    }
}
