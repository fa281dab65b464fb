//! The blanks of an example that stands in for the user's copy (round ten's FA10-4). An example
//! values file often leaves a value for its user to fill in: empty (`certData:` with a comment
//! saying what to put, `accessKey:`), or a placeholder (`domain: <INGRESS-DOMAIN>`). A
//! template that reads it fails on the null, or renders the placeholder where a Kubernetes
//! field wants a host name: with the user's filled-in copy it does not. Such a finding says
//! nothing of the repository, only of the example's blanks, so it is a note (info) that names
//! them (a `left-to-user` assumption, [`is_blank`]), not a warning.
//!
//! A finding rests on the blanks when it goes away once they hold a value: the job is
//! evaluated again with every blank set to a value a user typically gives (a host name, a
//! registry path, a number, base64 text), one after the other, as for a Package's empty
//! defaults ([`super::empty_defaults`]). A finding that each value still meets, or one that
//! only static analysis makes (a key the example lacks: true, and a warning), stays as it is.

use crate::library::Workspace;
use crate::lint::job::certainty::{is_placeholder, place, walk, NAMED};
use crate::lint::job::inputs::Names;
use crate::lint::job::probe::{self, settable};
use crate::lint::job::{placeholder, Job};
use crate::report::{Assumption, AssumptionKind, Diagnostic, Provenance, Severity, Subject};
use crate::yaml::Value;

/// Values a user typically gives, tried in turn: a host name, a registry path, a number,
/// base64 text.
const PROBES: [&str; 4] = [
    "example.com",
    "registry.example.com:443/project/app",
    "1",
    "cGxhY2Vob2xkZXI=",
];

/// How the assumption's words start (for the reader: [`is_blank`] reads its subject).
pub(super) const LEAD: &str = "the example ";

/// A blank of the example: its dotted key, ` (file:line)`, and whether it holds a placeholder
/// word ([`placeholder_word`]) rather than nothing or a placeholder.
struct Blank {
    key: String,
    place: String,
    word: bool,
}

/// `found` with each finding that rests on the blanks of the example standing in for the
/// user's copy marked as assuming the user fills them in.
pub fn settle(
    job: &Job,
    ws: &Workspace,
    names: &Names,
    mut found: Vec<Diagnostic>,
    provenance: Option<Provenance>,
) -> (Vec<Diagnostic>, Option<Provenance>) {
    let Some(mut p) = provenance else {
        return (found, None);
    };
    let examples = stand_ins(&p);
    if examples.is_empty() {
        return (found, Some(p));
    }
    super::example_text::mark(ws, names, &examples, &mut found);
    super::commented_keys::mark(ws, names, &examples, &mut found);
    let open: Vec<usize> = (0..found.len()).filter(|i| asked(&found[*i])).collect();
    if open.is_empty() {
        return (found, Some(p));
    }
    let blanks = blanks(ws, names, &examples);
    if blanks.is_empty() {
        return (found, Some(p));
    }
    let keys: Vec<String> = blanks.iter().map(|b| b.key.clone()).collect();
    probe::settle(job, &keys, &PROBES, &mut found, open, &mut p, |_, probe| {
        assumption(&examples, &blanks, probe)
    });
    (found, Some(p))
}

/// Whether `a` says a finding rests on an example's blanks: it is reported as a note.
pub fn is_blank(a: &Assumption) -> bool {
    a.kind == AssumptionKind::LeftToUser && a.only_a_note()
}

/// The examples standing in for the user's copy, as their `example-values` assumptions name
/// them.
fn stand_ins(p: &Provenance) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for file in p.assumptions.iter().filter_map(Assumption::stand_in) {
        if !out.iter().any(|f| f == file) {
            out.push(file.to_string());
        }
    }
    out
}

/// Whether a finding may rest on the blanks: the evaluation makes it (static analysis does
/// not run again under a probe), it is not a note already, and it assumes the example.
fn asked(d: &Diagnostic) -> bool {
    d.severity != Severity::Info
        && !d.rule.is_static()
        && d.certainty.as_ref().is_some_and(|c| {
            c.assumed
                .iter()
                .any(|a| a.kind == AssumptionKind::ExampleValues)
        })
}

/// The final data values the examples set to null, an empty string or a placeholder, by a key
/// `-v` can set (no list item on the way).
fn blanks(ws: &Workspace, names: &Names, examples: &[String]) -> Vec<Blank> {
    let Some(values) = ws.evaluated_values() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk(&values.value, &mut Vec::new(), &mut |path, v, pos| {
        let from_example = pos
            .and_then(|p| names.repo_path_at(p))
            .is_some_and(|f| examples.iter().any(|e| e == f));
        let blank = match v {
            Value::Null => true,
            Value::String(s) => s.is_empty() || is_placeholder(s),
            _ => false,
        };
        let word = matches!(v, Value::String(s) if placeholder_word(s));
        // The linter's own placeholder of a key a step writes into the copy
        // (`invocations::written_keys`) is the user's too, wherever it is set.
        let runtime = matches!(v, Value::String(s) if s == placeholder::TEXT);
        if ((from_example && (blank || word)) || runtime) && settable(path) {
            out.push(Blank {
                key: path.to_string(),
                place: place(names, pos),
                word: word && !blank,
            });
        }
    });
    out
}

/// Whether an example's value is a word that names what belongs there rather than a value:
/// three or more lower-case words joined by underscores (`ingress_gateway_certificate`,
/// `the_blobstore_secret_key`, where the docs say to put a certificate or a key). Such text
/// counts as a blank of the example only through the probe: a finding rests on it when it
/// goes away once the user's kind of value is there.
fn placeholder_word(s: &str) -> bool {
    let words: Vec<&str> = s.split('_').collect();
    words.len() >= 3
        && words.iter().all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
        && words
            .iter()
            .any(|w| w.chars().all(|c| c.is_ascii_lowercase()))
}

/// The assumption that the user fills in the example's blanks.
fn assumption(examples: &[String], blanks: &[Blank], probe: &str) -> Assumption {
    let mut listed: Vec<String> = blanks
        .iter()
        .take(NAMED)
        .map(|b| format!("`{}`{}", b.key, b.place))
        .collect();
    if blanks.len() > NAMED {
        listed.push(format!("{} more", blanks.len() - NAMED));
    }
    // Words where a value belongs (`crt: ingress_gateway_certificate`) are placeholders too.
    let how = if blanks.iter().any(|b| b.word) {
        "blank or as placeholder words"
    } else {
        "blank"
    };
    Assumption::new(
        AssumptionKind::LeftToUser,
        format!(
            "{LEAD}{} leaves {} {how} for the user to fill in (with a value such as `{probe}` \
             the evaluation gets past this)",
            examples.join(", "),
            listed.join(", ")
        ),
    )
    .about(Subject::UserFills)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Source;

    #[test]
    fn the_examples_are_read_from_their_assumptions() {
        let mut p = Provenance::of(Source::Script, Some("deploy.sh:5".into()));
        let stand_in = |example: &str, copy: &str| {
            Assumption::new(AssumptionKind::ExampleValues, "words for the reader").about(
                Subject::StandIn {
                    example: example.into(),
                    copy: copy.into(),
                },
            )
        };
        p.assume(stand_in("values.yaml.example", "values.yaml"));
        p.assume(stand_in("install/values-example.yaml", "`-f $1`"));
        p.assume(Assumption::new(
            AssumptionKind::ExampleValues,
            "an example's words alone say nothing: values.yaml is the user's copy of other.yaml;",
        ));
        assert_eq!(
            stand_ins(&p),
            ["values.yaml.example", "install/values-example.yaml"]
        );
    }

    #[test]
    fn the_assumption_is_told_from_a_package_s() {
        let blanks = [Blank {
            key: "tls.certData".into(),
            place: " (values.yaml.example:4)".into(),
            word: false,
        }];
        let a = assumption(&["values.yaml.example".into()], &blanks, PROBES[0]);
        assert!(is_blank(&a), "{}", a.message);
        assert!(a.message.contains("`tls.certData` (values.yaml.example:4)"));
        let package = Assumption::new(
            AssumptionKind::LeftToUser,
            "the package's defaults leave `x` null, for its user to give",
        );
        assert!(!is_blank(&package));
    }

    #[test]
    fn words_that_name_what_belongs_there_are_placeholders() {
        for w in [
            "ingress_gateway_certificate",
            "the_blobstore_secret_key",
            "log_cache_ca_certificate",
        ] {
            assert!(placeholder_word(w), "{w}");
        }
        for v in [
            "",
            "cf_admin",
            "nginx:1.25",
            "Some_Mixed_Case",
            "a__b_c",
            "1_2_3",
            "tls.crt",
        ] {
            assert!(!placeholder_word(v), "{v}");
        }
    }
}
