//! What an evaluation recorded besides its result, as diagnostics: failed validations of data
//! values and outputs, deprecated and undeclared data values, schema failures one by one, and
//! annotations ytt silently ignores.

use std::collections::HashMap;

use crate::analysis::value_reads::{covers, ReadPath};
use crate::files::FileType;
use crate::library::Workspace;
use crate::lint::job::engine::{invalidation_diagnostics, SpanOf};
use crate::lint::job::{annotation_fix, annotations};
use crate::pos::Pos;
use crate::report::Diagnostic;
use crate::report::Rule;
use crate::schema::error::{Failure, FailureKind};

/// What the evaluation recorded besides its result: failed validations of data values and
/// of outputs, and deprecated data values that inputs set. Nothing is said about the data
/// values of `provided` (given at run time; see [`crate::lint::job::placeholder`]).
pub fn engine(workspace: &Workspace, span_of: SpanOf<'_>, provided: &[String]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let given = |path: &str| crate::lint::job::placeholder::covers(provided, path);
    let by_placeholder = |pos: &Pos| {
        let line = workspace.line_at(pos);
        line.split_once('=').is_some_and(|(key, _)| given(key))
    };
    for (_library, inv) in workspace.violations.borrow().iter() {
        if given(&inv.path) || by_placeholder(&inv.value_pos) {
            continue;
        }
        found.extend(invalidation_diagnostics(inv, false, span_of));
    }
    for inv in workspace.output_violations.borrow().iter() {
        found.extend(invalidation_diagnostics(inv, true, span_of));
    }
    for used in workspace.deprecated.borrow().iter() {
        let mut d = if used.removed {
            removed_diagnostic(used, workspace.opts.extensions.removed)
        } else {
            Diagnostic::new(
                Rule::DataValueDeprecated,
                format!("data value {} is deprecated: {}", used.path, used.notice),
            )
        };
        if let Some(span) = span_of(&used.value_pos) {
            d = d.at(span);
        }
        if let Some(span) = span_of(&used.schema_pos) {
            let what = if used.removed {
                "removed"
            } else {
                "deprecated"
            };
            d = d.with_related(format!("{what} in the schema here"), span);
        }
        found.push(d);
    }
    for failure in workspace.schema_failures.borrow().iter() {
        if by_placeholder(&failure.pos) {
            continue;
        }
        let d = schema_failure(failure, span_of);
        found.push(name_flag(d, workspace, &failure.pos));
    }
    found.extend(undeclared(workspace, span_of, &given));
    found
}

/// What a `data-value-undeclared` message says after the key when the library has no schema.
pub const NOT_DECLARED_NO_SCHEMA: &str =
    "is set but nothing declares it (no schema, no earlier data value)";

/// `data-value-undeclared` without a schema: a key that a later input adds without `+:` and
/// that nothing in the library reads (the first input declares the data values, spec 004;
/// ytt accepts added keys, and one the templates read is added on purpose).
fn undeclared(
    workspace: &Workspace,
    span_of: SpanOf<'_>,
    given: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut reads: HashMap<String, Vec<ReadPath>> = HashMap::new();
    for (library, u) in workspace.undeclared.borrow().iter() {
        if given(&u.path) {
            continue;
        }
        let read = reads
            .entry(library.clone())
            .or_insert_with(|| crate::analysis::reads_of(workspace, library));
        let path: Vec<String> = u.path.split('.').map(str::to_string).collect();
        if read.iter().any(|r| covers(r, &path)) {
            continue;
        }
        let mut d = Diagnostic::new(
            Rule::DataValueUndeclared,
            format!(
                "data value {} {NOT_DECLARED_NO_SCHEMA} and nothing in the library reads it",
                u.path
            ),
        )
        .with_help(
            "ytt accepts it because the library has no schema; correct the key if it is a \
             typo, declare it in a data values file of the library, or give the values file \
             as `+:FILE` to add it on purpose",
        );
        // ytt accepts the value: a warning unless the configuration says otherwise.
        d.severity = crate::report::Severity::Warning;
        if let Some(span) = span_of(&u.pos) {
            d = d.at(span);
        }
        found.push(name_flag(d, workspace, &u.pos));
    }
    found
}

/// A finding about a value set by a command-line flag that has no place in any file says
/// which flag.
fn name_flag(mut d: Diagnostic, workspace: &Workspace, pos: &Pos) -> Diagnostic {
    if d.span.is_none() {
        let flag = workspace.line_at(pos);
        if !flag.is_empty() {
            d.message.push_str(&format!(" (given as `{flag}`)"));
        }
    }
    d
}

/// A data value the schema rejects, at the value, with the schema's declaration as related.
fn schema_failure(f: &Failure, span_of: SpanOf<'_>) -> Diagnostic {
    let (rule, related, what) = match f.kind {
        FailureKind::Undeclared => (
            Rule::DataValueUndeclared,
            "the schema declares this instead",
            "Given data value is not declared in schema",
        ),
        FailureKind::TypeMismatch => (
            Rule::SchemaTypeMismatch,
            "the schema declares the type here",
            "Given data value does not have the type the schema declares",
        ),
        FailureKind::InvalidSchema => (Rule::SchemaInvalid, "declared here", "Invalid schema"),
    };
    let what = if f.description.is_empty() {
        what
    } else {
        f.description.as_str()
    };
    let mut message = format!("{what}: found {}, expected {}", f.found, f.expected);
    for hint in &f.hints {
        message.push_str(&format!(" (hint: {hint})"));
    }
    let mut d = Diagnostic::new(rule, message);
    if let Some(span) = span_of(&f.pos) {
        d = d.at(span);
    }
    if let Some(span) = f.schema_pos.as_ref().and_then(span_of) {
        d = d.with_related(related, span);
    }
    d
}

/// `data-value-removed`: an error when the `schema-removed` extension is on (the evaluation
/// stopped there), a warning otherwise (ytt accepts the value silently).
fn removed_diagnostic(used: &crate::schema::deprecated::DeprecatedUse, on: bool) -> Diagnostic {
    let reason = if used.notice.is_empty() {
        String::new()
    } else {
        format!(": {}", used.notice)
    };
    let mut message = format!(
        "data value {} was removed from the schema{reason}",
        used.path
    );
    let severity = if on {
        crate::report::Severity::Error
    } else {
        message.push_str(" (ytt accepts it and ignores @schema/removed; the extension schema-removed makes it an error)");
        crate::report::Severity::Warning
    };
    let mut d = Diagnostic::new(Rule::DataValueRemoved, message)
        .with_help("stop setting the value; see the reason");
    d.severity = severity;
    d
}

/// Annotations ytt ignores, in the job's own YAML files (a private library's files are its
/// own job's). Files that do not parse are left to the evaluation, which reports them.
pub fn unknown_annotations(workspace: &Workspace, span_of: SpanOf<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for f in &workspace.files {
        let own = !f.rel_path.contains("_ytt_lib/");
        if !own || f.file_type() != FileType::Yaml || f.marked_template == Some(false) {
            continue;
        }
        let Ok((ds, templated)) = workspace.templating(f, workspace.opts.strict) else {
            continue;
        };
        // An annotation is a comment starting `@`: a file without any (a plain manifest, known
        // from the evaluation already) has none to walk its tree for.
        if !templated {
            continue;
        }
        for u in annotations::find(&ds, &workspace.opts.extensions) {
            let code = f.raw.is_none().then(|| annotation_fix::code(&u, &f.data));
            let mut d = match code.flatten() {
                Some(code) => annotations::code_diagnostic(&u, code),
                None => annotations::diagnostic(&u),
            };
            if let Some(span) = span_of(&u.pos) {
                let fix = f
                    .raw
                    .is_none()
                    .then(|| annotation_fix::fix(&u, &span.file, &f.data));
                d = d.at(span).with_fix(fix.flatten());
            }
            found.push(d);
        }
    }
    found
}
