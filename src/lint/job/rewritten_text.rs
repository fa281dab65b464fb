//! A Kubernetes schema's check of a value's text (format, pattern, choices) that finds
//! placeholder text in a file a step of the command's script rewrites before ytt reads it
//! (round thirteen's R13A-1: `tls.crt: change-me-secret-crt1` in a template the script copies
//! and `sed`s into a base64 certificate; an in-place `sed -i` of the committed file alike).
//! The linter lints the committed text, which ytt never renders: the finding says nothing of
//! what the command renders, so it is a note that names the rewrite (a `changed-at-run-time`
//! assumption whose subject makes it a note). So is a check of text that holds a shell
//! variable (`$NAME`, `${NAME}`) a rendered input's template holds too, wherever the value is
//! checked (round forty-three's R43-1: a Contour `fqdn` built as `"web." +
//! data.values.domain` from a values file `envsubst` renders out of `domain: $APP_DOMAIN`):
//! the rendering fills the variable in before ytt reads it. A check of other text, or in a
//! file no step rewrites, stays as it is (a warning that names the rewrite, for a rewritten
//! input: `discover/invocations/edits.rs`).

use crate::lint::job::certainty::is_placeholder;
use crate::lint::job::Job;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Subject};

/// `found` with each value check of placeholder text in a rewritten input marked.
pub fn settle(job: &Job, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let Some(p) = job.provenance.as_ref() else {
        return found;
    };
    let rewritten: Vec<(&str, &Assumption)> = p
        .assumptions
        .iter()
        .filter(|a| a.kind == AssumptionKind::ChangedAtRunTime)
        .filter_map(|a| match &a.subject {
            Some(Subject::Rewritten { file, .. }) => Some((file.as_str(), a)),
            _ => None,
        })
        .collect();
    if rewritten.is_empty() {
        return found;
    }
    for d in &mut found {
        let Some(text) = super::example_text::checked_text(d) else {
            continue;
        };
        let Some(file) = d.span.as_ref().map(|s| s.file.as_str()) else {
            continue;
        };
        let in_place = is_placeholder(&text)
            .then(|| rewritten.iter().find(|(f, _)| *f == file))
            .flatten();
        // Text that holds a variable of a rendered input (`gfanomaly.$DOMAIN`, built from a
        // value of a values file `envsubst` renders): what the rendering fills in, wherever
        // the value is checked.
        let Some((file, why)) = in_place.or_else(|| {
            let refs = variables(&text);
            (!refs.is_empty())
                .then(|| rewritten.iter().find(|(f, _)| holds_any(job, f, &refs)))
                .flatten()
        }) else {
            continue;
        };
        let a = Assumption::new(
            AssumptionKind::ChangedAtRunTime,
            format!("`{text}` is placeholder text that ytt never reads: {why}"),
        )
        .about(Subject::Replaced {
            file: (*file).to_string(),
        });
        // A field written literally rests on its text alone (no certainty of its own): the
        // text is what the step rewrites.
        d.assume(a, || Certainty::from(p.source, p.origin.clone()));
    }
    found
}

/// The shell variables `text` names (`$NAME`, `${NAME}`), as written.
fn variables(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices('$') {
        let rest = &text[i + 1..];
        let (braced, name) = match rest.strip_prefix('{') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let len = name
            .char_indices()
            .find(|&(j, c)| {
                !(c.is_ascii_alphanumeric() || c == '_') || (j == 0 && c.is_ascii_digit())
            })
            .map_or(name.len(), |(j, _)| j);
        if len == 0 || (braced && !name[len..].starts_with('}')) {
            continue;
        }
        let end = i + 1 + 2 * usize::from(braced) + len;
        out.push(&text[i..end]);
    }
    out
}

/// Whether the repository file `file` (a rendered input's template) holds one of `refs`.
fn holds_any(job: &Job, file: &str, refs: &[&str]) -> bool {
    let policy = crate::files::repo_policy::of(&job.repo);
    crate::files::read_allowed(&job.repo.join(file), &policy).is_some_and(|bytes| {
        refs.iter()
            .any(|r| memchr::memmem::find(&bytes, r.as_bytes()).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_a_text_names_are_the_shell_s() {
        assert_eq!(
            variables("gfanomaly-server.$DATA_E2E_FQDN_DOMAIN"),
            vec!["$DATA_E2E_FQDN_DOMAIN"]
        );
        assert_eq!(variables("a.${HOST}.b-$X1"), vec!["${HOST}", "$X1"]);
        assert!(variables("price $5, ${ unclosed, $").is_empty());
    }
}
