//! A failure on a data value that `--data-values-env PREFIX` would have to give, when the
//! repository's environment files (`.envrc`, `.envrc.secrets.template`, `.env`) list the
//! `PREFIX_…` variables and none of them is for that value (round sixteen's LR16A-2). The
//! command's values are then known as far as the environment files say: the failure is a
//! finding that assumes them (`environment-files`), not a `needs-input` note, for a page's
//! command too, and its message says which key none of the files sets and which files were
//! read. A command that reads a prefix no environment file sets any variable of still needs
//! input (any key may come from the environment).

use crate::lint::job::model::Job;
use crate::report::{AssumptionKind, Basis, Diagnostic, Source, Subject};

/// The prefixes of the job's `--data-values-env` flags with the environment files that list
/// their variables, when every value given at run time comes from such a list.
fn listed(job: &Job) -> Vec<(&str, &[String])> {
    if job.provided.iter().any(|p| p == "*") {
        return Vec::new();
    }
    let Some(p) = job.provenance.as_ref() else {
        return Vec::new();
    };
    p.assumptions
        .iter()
        .filter(|a| a.kind == AssumptionKind::EnvironmentFiles)
        .filter_map(|a| match &a.subject {
            Some(Subject::EnvironmentFiles { prefix, files }) => {
                Some((prefix.as_str(), files.as_slice()))
            }
            _ => None,
        })
        .collect()
}

/// Whether a page's command, whose reader may otherwise give any input, is judged with the
/// values its environment files list: the page's command runs after the reader sets the
/// variables those files name (`direnv allow`), and those are all the command gets.
pub fn judged_as_listed(job: &Job) -> bool {
    job.provenance
        .as_ref()
        .is_some_and(|p| p.source == Source::Document)
        && !listed(job).is_empty()
}

/// `d` (a failure on `keys`, values no placeholder of the command gives) with its first line
/// saying which key none of the environment files sets and which files were read.
pub fn explain(job: &Job, keys: &[String], mut d: Diagnostic) -> Diagnostic {
    let lists = listed(job);
    let Some(key) = keys.iter().max_by_key(|k| k.len()) else {
        return d;
    };
    if lists.is_empty() {
        return d;
    }
    let variables: Vec<String> = lists
        .iter()
        .map(|(prefix, _)| format!("`{prefix}_{}`", key.replace('.', "__")))
        .collect();
    let mut files: Vec<String> = Vec::new();
    for (_, fs) in &lists {
        for f in fs.iter() {
            let f = format!("`{f}`");
            if !files.contains(&f) {
                files.push(f);
            }
        }
    }
    let clause = format!(
        " (`{key}`: no values file of the command sets it, and the environment files read, {}, \
         set no {})",
        files.join(", "),
        variables.join(" or ")
    );
    // A failure for want of a value rests on the inputs, whatever the rule (an overlay's
    // replace function that reads it fails as an `overlay-error`).
    d.basis = Some(Basis::Inputs);
    let (first, rest) = d.message.split_once('\n').unwrap_or((&d.message, ""));
    d.message = if rest.is_empty() {
        format!("{first}{clause}")
    } else {
        format!("{first}{clause}\n{rest}")
    };
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Assumption, Provenance, Rule};

    fn job(source: Source, provided: &[&str], subject: bool) -> Job {
        let mut p = Provenance::of(source, Some("README.md:7".into()));
        let a = Assumption::new(AssumptionKind::EnvironmentFiles, "the environment's …");
        p.assume(if subject {
            a.about(Subject::EnvironmentFiles {
                prefix: "CFG".into(),
                files: vec![".envrc".into(), ".envrc.secrets.template".into()],
            })
        } else {
            a
        });
        let config = crate::lint::config::Config::default_for(std::path::Path::new("/repo"));
        Job {
            provenance: Some(p),
            provided: provided.iter().map(|s| s.to_string()).collect(),
            needs_input: true,
            ..Job::new(&config, ".", Ok(Default::default()))
        }
    }

    #[test]
    fn a_page_s_command_is_judged_with_the_listed_variables() {
        assert!(judged_as_listed(&job(
            Source::Document,
            &["registry.username"],
            true
        )));
        // Another prefix no file lists: any key may come from the environment.
        assert!(!judged_as_listed(&job(
            Source::Document,
            &["registry.username", "*"],
            true
        )));
        assert!(!judged_as_listed(&job(
            Source::Document,
            &["registry.username"],
            false
        )));
        assert!(!judged_as_listed(&job(
            Source::Layout,
            &["registry.username"],
            true
        )));
    }

    #[test]
    fn the_message_names_the_key_and_the_files() {
        let j = job(Source::Document, &["registry.username"], true);
        let d = Diagnostic::new(
            Rule::TemplateError,
            "- struct has no .vendor field or method\n    in <toplevel>",
        );
        let keys = ["vendor".to_string(), "vendor.pull_secret_name".to_string()];
        let d = explain(&j, &keys, d);
        assert_eq!(
            d.message,
            "- struct has no .vendor field or method (`vendor.pull_secret_name`: no values file \
             of the command sets it, and the environment files read, `.envrc`, \
             `.envrc.secrets.template`, set no `CFG_vendor__pull_secret_name`)\n    in <toplevel>"
        );
    }
}
