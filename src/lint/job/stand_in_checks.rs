//! Checks of the linter's own stand-in. A data value given at run time (`-v
//! "releaseDate=$(BUILD_DATE)"`) gets a placeholder that fits its schema type (see
//! [`super::placeholder`]), so the templates evaluate; the placeholder of a string is the text
//! `placeholder`. A Kubernetes schema's check of a field's value against a format (`date-time`,
//! `byte`), a pattern or a list of choices then judges a value the linter made up, not one the
//! repository or its user writes: `"spec.releasedAt" must be a valid "date-time", found string
//! "placeholder"`. Such a finding says nothing about the repository and is not reported. The
//! same check of a value the repository writes stays (a values file that says `placeholder`
//! in a root given no value at run time is the repository's text).
//!
//! An example linted in the place of the user's own values file (`example-values`: a page
//! says to create `/tmp/values.yml` from `sample-values.yml`) is a stand-in too: ytt's failure
//! to overlay the data values at a document of that file (`Map item (key 'monitoring') …
//! Expected number of matched nodes to be 1, but was 0`) rests on the example, not only on the
//! command: the finding's basis is the inputs, so it is a warning naming the example.

use super::Job;
use crate::report::{Assumption, Basis, Diagnostic, Rule};

/// `found` without the Kubernetes schema findings that check a run-time value's placeholder,
/// and with a data values overlay failure at an example that stands in for the user's file
/// resting on the inputs.
pub fn settle(job: &Job, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let examples: Vec<&str> = job
        .provenance
        .iter()
        .flat_map(|p| &p.assumptions)
        .filter_map(Assumption::stand_in)
        .collect();
    found
        .into_iter()
        .filter(|d| job.provided.is_empty() || !checks_stand_in(d))
        .map(|mut d| {
            if at_example(&d, &examples) {
                d.basis = Some(Basis::Inputs);
            }
            d
        })
        .collect()
}

/// Whether `d` is a failure to overlay data values at one of `examples`, the files that
/// stand in for the user's copies.
fn at_example(d: &Diagnostic, examples: &[&str]) -> bool {
    let Some(span) = &d.span else {
        return false;
    };
    d.rule == Rule::OverlayError
        && d.message.starts_with("Overlaying data values")
        && examples.contains(&span.file.as_str())
}

/// Whether `d` is a schema check whose value found is the placeholder of a string.
fn checks_stand_in(d: &Diagnostic) -> bool {
    let found = format!("found string \"{}\"", super::placeholder::TEXT);
    d.rule == Rule::K8sSchema
        && d.message
            .lines()
            .next()
            .is_some_and(|l| l.ends_with(&found))
        && [
            "must be a valid ",
            "must be base64-encoded",
            "must match ",
            "must be one of ",
        ]
        .iter()
        .any(|c| d.message.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Severity;

    fn finding(message: &str) -> Diagnostic {
        let mut d = Diagnostic::new(Rule::K8sSchema, message);
        d.severity = Severity::Warning;
        d
    }

    #[test]
    fn a_check_of_the_placeholder_is_dropped_only_where_values_are_given_at_run_time() {
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        let mut job = Job::new(&config, "pkg", Err("unused".to_string()));
        let found = || {
            vec![
                finding(
                    r#"Package p: "spec.releasedAt" must be a valid "date-time", found string "placeholder""#,
                ),
                finding(
                    r#"Secret s: "data.key" must be base64-encoded (format "byte"), found string "placeholder""#,
                ),
                finding(
                    r#"Package p: "spec.releasedAt" must be a valid "date-time", found string "yesterday""#,
                ),
                finding(r#"Deployment d: "spec.replicas" is required"#),
            ]
        };
        assert_eq!(settle(&job, found()).len(), 4);
        job.provided = vec!["releaseDate".into()];
        let kept = settle(&job, found());
        assert_eq!(kept.len(), 2, "{kept:?}");
        assert!(kept[0].message.contains("yesterday"));
    }
}
