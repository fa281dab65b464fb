//! `data-value-undeclared` without a schema, once every root that receives the values file is
//! in sight. A job reports a key that a later values file adds without `+:` and that nothing
//! in its library reads (see `lint/job/findings.rs`): ytt accepts it, and the key is likely a
//! typo. But a values file is often one configuration for the whole repository, given to
//! many commands (`--data-values-file config.yaml` to each of a README's dozen commands), each
//! reading its own part of it: a key that another root receiving the same file reads is that
//! root's, not a typo. Such findings are dropped.
//!
//! ```text
//! config.yaml        registry: {server: r.example.com, prefix: team/}
//! README.md          ytt -f access --data-values-file config.yaml    # access/ reads registry.server
//!                    ytt -f apps   --data-values-file config.yaml    # apps/ reads registry.prefix
//! ```
//!
//! `registry.prefix` is not undeclared in `access`: `apps` reads it. A key no receiving root
//! reads is still reported, in each root that receives it. With a schema, ytt rejects an
//! undeclared key outright: those findings are left as they are.

use std::path::Path;

use crate::analysis::value_reads::covers;
use crate::files::paths::{self, is_within};
use crate::lint::config::parse::split_lib_ref;
use crate::lint::job::findings::NOT_DECLARED_NO_SCHEMA;
use crate::lint::job::usage::Usage;
use crate::lint::job::Job;
use crate::report::{Diagnostic, Rule};

/// `found` without the `data-value-undeclared` findings of a schema-less library for keys that
/// another job given the same values file reads.
pub fn settle(jobs: &[Job], usage: &[Option<Usage>], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let given: Vec<(Vec<String>, &Usage)> = jobs
        .iter()
        .zip(usage)
        .filter_map(|(j, u)| Some((given_files(j), u.as_ref()?)))
        .collect();
    if given.len() < 2 {
        return found;
    }
    found
        .into_iter()
        .filter(|d| !read_elsewhere(d, &given))
        .collect()
}

/// Whether `d` is a schema-less `data-value-undeclared` whose key a job given its file reads.
fn read_elsewhere(d: &Diagnostic, given: &[(Vec<String>, &Usage)]) -> bool {
    if d.rule != Rule::DataValueUndeclared {
        return false;
    }
    let (Some(span), Some(key)) = (&d.span, key_of(&d.message)) else {
        return false;
    };
    let path: Vec<String> = key.split('.').map(str::to_string).collect();
    given.iter().any(|(files, u)| {
        files.iter().any(|f| is_within(&span.file, f)) && u.reads.iter().any(|r| covers(r, &path))
    })
}

/// The key of a schema-less `data-value-undeclared` message (`data value a.b is set but
/// nothing declares it (no schema, ...`).
fn key_of(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("data value ")?;
    let (key, tail) = rest.split_once(' ')?;
    tail.starts_with(NOT_DECLARED_NO_SCHEMA).then_some(key)
}

/// The repository paths of the files and directories a job gives with `-f` and
/// `--data-values-file`.
fn given_files(job: &Job) -> Vec<String> {
    let Ok(flags) = &job.flags else {
        return Vec::new();
    };
    let values = flags.dv_files.iter().map(|a| {
        let (_, rest) = split_lib_ref(a);
        rest.strip_prefix("+:").unwrap_or(rest)
    });
    flags
        .files
        .iter()
        .map(String::as_str)
        .chain(values)
        .filter_map(|a| paths::relative(&job.repo, Path::new(crate::files::input::path_of(a))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Span;

    fn undeclared(key: &str, file: &str) -> Diagnostic {
        let message = format!(
            "data value {key} {NOT_DECLARED_NO_SCHEMA} and nothing in the library reads it"
        );
        Diagnostic::new(Rule::DataValueUndeclared, message).at(Span::point(file, 4, 3))
    }

    fn reads(keys: &[&[&str]]) -> Usage {
        Usage {
            reads: keys
                .iter()
                .map(|r| r.iter().map(|k| Some(k.to_string())).collect())
                .collect(),
            ..Usage::default()
        }
    }

    #[test]
    fn a_key_another_receiving_root_reads_is_not_undeclared() {
        let access = reads(&[&["registry", "server"]]);
        let apps = reads(&[&["registry", "prefix"]]);
        let given = vec![
            (vec!["config.yaml".to_string()], &access),
            (vec!["config.yaml".to_string()], &apps),
        ];
        assert!(read_elsewhere(
            &undeclared("registry.prefix", "config.yaml"),
            &given
        ));
        assert!(!read_elsewhere(
            &undeclared("registry.prefx", "config.yaml"),
            &given
        ));
        // Read by a root that does not receive the file: still a typo here.
        assert!(!read_elsewhere(
            &undeclared("registry.prefix", "other.yaml"),
            &given
        ));
        assert_eq!(key_of("data value a.b is set but"), None);
        assert_eq!(key_of(&undeclared("a.b", "x.yml").message), Some("a.b"));
    }
}
