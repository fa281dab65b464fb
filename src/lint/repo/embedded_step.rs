//! The options of the kapp-controller ytt step that holds a file written inline
//! (`template: - ytt: inline: paths: values.yaml: |` of an App or a Package), read from the
//! outer file's text as [`crate::lint::repo::embedded`] reads the file itself (the outer file
//! may be a template another tool fills in, so it is not parsed).
//!
//! kapp-controller passes a step's options to ytt as flags for every file of the step, the
//! inline ones included: `ignoreUnknownComments: true` is `--ignore-unknown-comments`,
//! `strict: true` is `--strict` (round eleven's FE11-B2: an App's inline data values with a
//! plain `# generated with openssl …` comment render, since its step ignores unknown
//! comments).

/// The flag `ignoreUnknownComments: true` gives.
pub const IGNORE_UNKNOWN_COMMENTS: &str = "--ignore-unknown-comments";
/// The flag `strict: true` gives.
pub const STRICT: &str = "--strict";

/// The ytt flags of the step whose `ytt:` key is on line `at` (0-based) of `lines`: its direct
/// options `ignoreUnknownComments` and `strict` set to true, in that order.
pub fn flags(lines: &[&str], at: usize) -> Vec<String> {
    let Some(head) = lines.get(at) else {
        return Vec::new();
    };
    let depth = indent_of(head);
    // The options are the lines indented as the first one below the key.
    let mut level = None;
    let mut on = (false, false);
    for line in lines.iter().skip(at + 1) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let n = indent_of(line);
        if n <= depth {
            break;
        }
        let level = *level.get_or_insert(n);
        if n != level {
            continue;
        }
        match option(t) {
            Some(("ignoreUnknownComments", v)) => on.0 = truthy(v),
            Some(("strict", v)) => on.1 = truthy(v),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if on.0 {
        out.push(IGNORE_UNKNOWN_COMMENTS.to_string());
    }
    if on.1 {
        out.push(STRICT.to_string());
    }
    out
}

/// `key: value` of one line (a trailing ` # comment` removed), or `None`.
fn option(line: &str) -> Option<(&str, &str)> {
    let line = match line.find(" #") {
        Some(at) => &line[..at],
        None => line,
    };
    let (key, value) = line.split_once(':')?;
    let key = key.trim().trim_matches(|c| c == '"' || c == '\'');
    Some((key, value.trim().trim_matches(|c| c == '"' || c == '\'')))
}

/// Whether a scalar is true as kapp-controller's YAML reader (YAML 1.1) reads it.
fn truthy(v: &str) -> bool {
    matches!(
        v,
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "y" | "Y"
    )
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.lines().collect()
    }

    #[test]
    fn a_step_s_options_are_its_flags() {
        let app =
            "  template:\n  - ytt:\n      ignoreUnknownComments: true # kapp-controller\n      \
            inline:\n        paths:\n          v.yaml: |\n            strict: true\n      \
            strict: yes\n  - kbld: {}\n";
        assert_eq!(
            flags(&lines(app), 1),
            [IGNORE_UNKNOWN_COMMENTS.to_string(), STRICT.to_string()]
        );
    }

    #[test]
    fn options_of_other_steps_or_nested_keys_are_not_the_step_s() {
        // `strict: true` inside an inline file, `ignoreUnknownComments` of the next step.
        let app = "- ytt:\n    inline:\n      paths:\n        v.yaml: |\n          \
            ignoreUnknownComments: true\n          strict: true\n    strict: false\n\
            - ytt:\n    ignoreUnknownComments: true\n";
        assert!(flags(&lines(app), 0).is_empty());
        assert!(flags(&lines(app), 99).is_empty());
    }
}
