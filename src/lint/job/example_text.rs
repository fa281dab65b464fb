//! A Kubernetes schema's check of a value against a format, pattern or choices that judges the
//! text an example standing in for the user's copy sets (round eleven's cf-for-k8s forks: the
//! sample's `crt: ingress_gateway_certificate`, which the docs say to replace with a generated
//! certificate, lands in a Secret's `data` and fails `must be base64-encoded`). The user's copy
//! holds the user's value there, so the finding says nothing of the repository: it is a note
//! naming the example's key and text (the `left-to-user` assumption of
//! [`super::example_blanks`]). A check of a value the example does not set, or of a value
//! it sets that the template changes on the way, stays as it is.

use crate::library::Workspace;
use crate::lint::job::certainty::{place, walk};
use crate::lint::job::inputs::Names;
use crate::report::{Assumption, AssumptionKind, Diagnostic, Rule, Subject};
use crate::yaml::Value;

/// The checks of a value's text, as `k8s-schema` words them.
const VALUE_CHECKS: [&str; 4] = [
    "must be a valid ",
    "must be base64-encoded",
    "must match ",
    "must be one of ",
];

/// Marks each `k8s-schema` value check of `found` whose value is a string one of `examples`
/// sets as resting on the example's text.
pub fn mark(ws: &Workspace, names: &Names, examples: &[String], found: &mut [Diagnostic]) {
    let checked: Vec<usize> = (0..found.len())
        .filter(|&i| value_check(&found[i]).is_some())
        .collect();
    if checked.is_empty() || examples.is_empty() {
        return;
    }
    let Some(values) = ws.evaluated_values() else {
        return;
    };
    let mut set: Vec<(String, String, String)> = Vec::new();
    walk(&values.value, &mut Vec::new(), &mut |path, v, pos| {
        let Value::String(s) = v else {
            return;
        };
        let from_example = pos
            .and_then(|p| names.repo_path_at(p))
            .is_some_and(|f| examples.iter().any(|e| e == f));
        if from_example && !s.is_empty() {
            set.push((s.clone(), path.to_string(), place(names, pos)));
        }
    });
    for i in checked {
        let Some(text) = value_check(&found[i]) else {
            continue;
        };
        let Some((_, key, at)) = set.iter().find(|(s, _, _)| *s == text) else {
            continue;
        };
        let a = Assumption::new(
            AssumptionKind::LeftToUser,
            format!(
                "{}{} sets `{key}`{at} to `{text}`, text the user's copy replaces with its own value",
                super::example_blanks::LEAD,
                examples.join(", "),
            ),
        )
        .about(Subject::UserFills);
        if let Some(c) = found[i].certainty.as_mut() {
            c.assumed.push(a);
        }
    }
}

/// The string a `k8s-schema` check of a value's text found (`…, found string "X"`), in a
/// finding that assumes an example.
fn value_check(d: &Diagnostic) -> Option<String> {
    if !d.certainty.as_ref().is_some_and(|c| {
        c.assumed
            .iter()
            .any(|a| a.kind == AssumptionKind::ExampleValues)
    }) {
        return None;
    }
    checked_text(d)
}

/// The string a `k8s-schema` check of a value's text (format, pattern, choices) found.
pub(super) fn checked_text(d: &Diagnostic) -> Option<String> {
    if d.rule != Rule::K8sSchema {
        return None;
    }
    let first = d.message.lines().next()?;
    if !VALUE_CHECKS.iter().any(|c| first.contains(c)) {
        return None;
    }
    let (_, rest) = first.rsplit_once(", found string \"")?;
    rest.strip_suffix('"').map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_found_text_is_read_from_a_value_check_only() {
        let mut d = Diagnostic::new(
            Rule::K8sSchema,
            r#"Secret s: "data[\"tls.crt\"]" must be base64-encoded (format "byte"), found string "ingress_gateway_certificate""#,
        );
        assert_eq!(value_check(&d), None, "no example assumed");
        d.certainty = Some(crate::report::Certainty {
            source: crate::report::Source::Layout,
            origin: None,
            assumed: vec![Assumption::new(AssumptionKind::ExampleValues, "x")],
        });
        assert_eq!(
            value_check(&d).as_deref(),
            Some("ingress_gateway_certificate")
        );
        d.message = r#"Deployment d: "spec.replicas" is required"#.to_string();
        assert_eq!(value_check(&d), None);
    }
}
