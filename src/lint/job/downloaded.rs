//! A file a page's command gives as a Markdown link (`-f [helpers.star](https://…)`, see
//! `discover/invocations/page_links.rs`): its reader downloads it from the link, so the
//! command is linted without it. A `load()` (or `data.read()`) of that file stops the
//! evaluation for want of a file the linter cannot have: a `needs-input` note naming the file
//! and where the page says it comes from, not a failure of the root (round fifty-three's
//! R53-2).

use regex::Regex;

use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule, Subject};

/// `found` with each failure to find a file the job's command gives by a page's link turned
/// into a `needs-input` note.
pub fn settle(job: &Job, found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let links: Vec<(&str, &str)> = job
        .provenance
        .iter()
        .flat_map(|p| &p.assumptions)
        .filter_map(|a| match &a.subject {
            Some(Subject::Downloaded { name, url }) => Some((name.as_str(), url.as_str())),
            _ => None,
        })
        .collect();
    if links.is_empty() {
        return found;
    }
    found
        .into_iter()
        .map(|d| {
            let linked = not_found(&d).and_then(|f| links.iter().find(|(n, _)| *n == f));
            match linked {
                Some(&(name, url)) => note(d, name, url),
                None => d,
            }
        })
        .collect()
}

/// The file a load or a read did not find (`cannot load helpers.star: Expected to find file
/// 'helpers.star'`), as the template names it.
fn not_found(d: &Diagnostic) -> Option<&str> {
    static FILE: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"Expected to find file '([^']+)'").ok());
    if !matches!(d.rule, Rule::LoadError | Rule::TemplateError) {
        return None;
    }
    Some(FILE.as_ref()?.captures(&d.message)?.get(1)?.as_str())
}

/// The note that replaces the failure `d` to find `name`, downloaded from `url`.
fn note(d: Diagnostic, name: &str, url: &str) -> Diagnostic {
    let mut n = Diagnostic::new(
        Rule::NeedsInput,
        format!(
            "this root needs {name}, which the page's reader downloads from {url} (a link of \
             the page) and gives with `-f`: it is not in the repository, and the evaluation \
             stops for want of it"
        ),
    )
    .with_help(format!(
        "add a scenario to .yttlint.yaml whose args give a copy of {name}"
    ));
    n.span = d.span;
    n.related = d.related;
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Span;

    #[test]
    fn the_file_a_load_or_a_read_did_not_find() {
        let d = |r: Rule, m: &str| Diagnostic::new(r, m).at(Span::point("wf.yml", 2, 1));
        let load = d(
            Rule::LoadError,
            "cannot load helpers.star: Expected to find file 'helpers.star' (hint: only files included via -f flag are available)",
        );
        assert_eq!(not_found(&load), Some("helpers.star"));
        let read = d(
            Rule::TemplateError,
            "data.read: Expected to find file 'ca.pem', but did not",
        );
        assert_eq!(not_found(&read), Some("ca.pem"));
        assert_eq!(
            not_found(&d(Rule::YamlSyntax, "Expected to find file 'x'")),
            None
        );
        let n = note(load, "helpers.star", "https://e.org/helpers.star");
        assert_eq!(n.rule, Rule::NeedsInput);
        assert!(n
            .message
            .contains("downloads from https://e.org/helpers.star"));
        assert_eq!(n.span.as_ref().map(|s| s.line), Some(2));
    }
}
