//! How sure each finding of a root's job is. The job's provenance (where its command came
//! from, what discovery assumed: [`crate::lint::discover::provenance`]) gains what only the
//! evaluation shows, the placeholders among the final data values (`<your-registry>`,
//! `changeme`, `XXX`, `{{ .x }}`, `${VAR}`); then each finding that rests on the command or its
//! inputs ([`crate::report::Basis`]) carries the assumptions it rests on. The run reports such
//! a finding as a warning that names them ([`crate::lint::post::certainty`]).

use std::sync::Arc;

use crate::library::Workspace;
use crate::lint::job::inputs::Names;
use crate::lint::job::{needs_input, placeholder, runtime_read, Job};
use crate::pos::Pos;
use crate::report::{
    Assumption, AssumptionKind, Basis, Certainty, Diagnostic, Provenance, Rule, Source, Subject,
};
use crate::yaml::Value;

/// At most this many placeholders are named in one assumption.
pub(super) const NAMED: usize = 3;

/// `found` with each finding's certainty set, and the job's provenance with the placeholders
/// of its final data values.
pub fn settle(
    job: &Job,
    ws: &Workspace,
    names: &Names,
    found: Vec<Diagnostic>,
) -> (Vec<Diagnostic>, Option<Provenance>) {
    let Some(mut p) = job.provenance.clone() else {
        return (found, None);
    };
    if let Some(a) = placeholders(ws, names) {
        p.assume(a);
    }
    // An example given under the name of a file a template loads (`loaded_example`).
    for (copy, example) in names.stood_in() {
        p.assume(super::loaded_example::assumption(copy, example));
    }
    // A Package's user gives values at install; a PackageBuild's release gives none
    // (its root needs no input: what it renders with is known).
    if p.source == Source::Package && job.needs_input {
        if let Some(a) = left_null(ws, names) {
            p.assume(a);
        }
    }
    // A schema's null defaults its user gives (`schema_nulls`), for a root no command runs.
    let nulls = super::schema_nulls::of(job, &p, ws, names);
    let found = found
        .into_iter()
        .map(|mut d| {
            // A kustomize tree rendered as it is: a patch written literally is no object
            // anyone means (`discover::kustomize`), so what is found on it rests on the tree.
            let kustomized = p
                .assumptions
                .iter()
                .any(|a| a.kind == AssumptionKind::KustomizeTree);
            if d.rule.about_rendered_objects()
                && !d.rule.across_objects()
                && d.basis.is_none()
                && !kustomized
            {
                // A field a template writes literally (an apiVersion, a field a policy names)
                // rests on its text alone; two objects named literally in two files are one
                // set only because the command gives both files. A selector that selects no
                // pod rests on the pods the command renders, however it is written.
                if written_literally(&d, ws, names) == Some(true) {
                    d.basis = Some(match d.rule {
                        Rule::DuplicateObject if !one_file(&d) => Basis::Command,
                        _ => Basis::Text,
                    });
                }
            }
            attach(job, &p, &mut d);
            super::independent::drop_blanks(ws, &mut d);
            super::schema_nulls::settle(&nulls, &p, ws, names, &mut d);
            // The example given under a loaded file's name is not also given as committed
            // (`committed_example` would say so of a file inside an input directory): what is
            // found in it rests on the copy (`loaded_example`).
            let file = d.span.as_ref().map(|s| s.file.clone());
            for (copy, example) in names.stood_in() {
                if file.as_deref() == Some(example.as_str()) {
                    let a = super::loaded_example::assumption(copy, example);
                    d.assume(a, || Certainty::from(p.source, p.origin.clone()));
                }
            }
            runtime_read::settle(job, &p, ws, names, &mut d);
            d
        })
        .collect();
    (found, Some(p))
}

/// Sets the certainty of `d` from the provenance `p` of its job, unless it rests on text
/// alone.
pub fn attach(job: &Job, p: &Provenance, d: &mut Diagnostic) {
    // What the finding itself rests on besides its job's command and inputs (the repository
    // CRD a Kubernetes object was checked against, `crd_source`) stays with it.
    let own: Vec<Assumption> = d.certainty.take().map(|c| c.assumed).unwrap_or_default();
    let basis = d.basis();
    if basis == Basis::Text {
        // A file that is an input only as the stand-in for the user's copy of it: what its
        // text shows is in that copy only as far as the user left it.
        let mut c = in_stand_in(p, d);
        if let Some(x) = c.as_mut() {
            super::committed_example::settle(job, d, x);
        }
        c = c.filter(|x| !x.certain());
        if !own.is_empty() {
            let c = c.get_or_insert_with(|| Certainty::from(p.source, p.origin.clone()));
            own.into_iter().for_each(|a| c.add(a));
        }
        d.certainty = c;
        return;
    }
    let mut c = p.certainty(basis);
    // ytt compiles every file the command names before it reads a pipe: a comment it refuses
    // there fails the command whatever the pipe gives (`piped_stdin.rs`).
    if d.rule == Rule::UnknownComment {
        c.assumed
            .retain(|a| !matches!(a.subject, Some(Subject::Piped { .. })));
    }
    if let Some(own) = in_stand_in(p, d) {
        own.assumed.into_iter().for_each(|a| c.add(a));
    }
    // Values given at run time bear on a finding about them (at the command that gives them,
    // or naming them), or on any finding when any value may be given (`*`); not on a value a
    // committed values file sets.
    if !job.provided.iter().any(|k| k == "*") && !about(job, d) {
        c.assumed
            .retain(|a| a.kind != AssumptionKind::RuntimeValues);
    }
    // A page's command given its values in full: what rests on them is a failure for want of
    // a value (a reader may give more); a finding at the command, or one the given values
    // cause (`"x" + 1`), is about what every reader types.
    let for_want = d.rule == Rule::RequiredValue || needs_input::unset_caused(&d.message);
    if at_command(job, d) || !for_want {
        c.assumed
            .retain(|a| !crate::lint::discover::documented_values::is_own(a));
    }
    super::committed_example::settle(job, d, &mut c);
    own.into_iter().for_each(|a| c.add(a));
    // What rests on the library's own schema says nothing of its command unless something
    // makes the schema incomplete.
    if basis != Basis::Schema || !c.certain() {
        d.certainty = Some(c);
    }
}

/// The certainty of a finding in an example file that stands in for the user's copy of it.
fn in_stand_in(p: &Provenance, d: &Diagnostic) -> Option<Certainty> {
    let file = d.span.as_ref()?.file.as_str();
    let assumed: Vec<Assumption> = p
        .assumptions
        .iter()
        .filter(|x| x.stand_in() == Some(file))
        .cloned()
        .collect();
    (!assumed.is_empty()).then(|| Certainty {
        source: p.source,
        origin: p.origin.clone(),
        assumed,
    })
}

/// A removed API fails on the cluster only if the cluster runs a version without it: with no
/// version given, the default one is assumed, and said.
pub fn target_version(job: &Job, d: &mut Diagnostic) {
    let Some(k) = job.kubernetes.as_ref().filter(|k| !k.version_given) else {
        return;
    };
    if d.rule != Rule::K8sApiRemoved {
        return;
    }
    let a = Assumption::new(
        AssumptionKind::TargetVersion,
        format!(
            "the cluster runs Kubernetes {} (the default; kubernetes.version in .yttlint.yaml \
             names yours)",
            k.version
        ),
    );
    d.assume(a, || match &job.provenance {
        Some(p) => Certainty::from(p.source, p.origin.clone()),
        None => Certainty::from(Source::Config, None),
    });
}

/// Whether `d` is about a value of the job's given at run time: at the command that gives
/// it, naming it, or checking the linter's placeholder for it as a value (`"spec.releasedAt"
/// must be a valid "date-time", found string "placeholder"`, for `-v timestamp=$timestamp`).
fn about(job: &Job, d: &Diagnostic) -> bool {
    if d.message.contains(&format!("\"{}\"", placeholder::TEXT)) {
        return true;
    }
    at_command(job, d)
        || job.provided.iter().any(|k| {
            let key = k.trim_start_matches('@');
            d.message.contains(&format!("data.values.{key}"))
                || d.message.contains(&format!("`{key}`"))
                || d.message.contains(&format!("{key}:"))
        })
}

/// Whether `d` is at the job's command (a value it gives, a flag of it).
fn at_command(job: &Job, d: &Diagnostic) -> bool {
    match (&d.span, &job.origin) {
        (Some(s), Some(o)) => s.file == o.file && s.line == o.line,
        _ => false,
    }
}

/// Whether a `duplicate-object` finding's two objects are in one file (its related location
/// names the first).
fn one_file(d: &Diagnostic) -> bool {
    let Some(span) = d.span.as_ref() else {
        return false;
    };
    d.related
        .iter()
        .filter(|r| r.message == crate::lint::job::split_output::FIRST)
        .all(|r| r.span.file == span.file)
}

/// Whether the template line of a finding writes its value as plain YAML (no `#@` code, no
/// text template): `None` when the line is not known.
fn written_literally(d: &Diagnostic, ws: &Workspace, names: &Names) -> Option<bool> {
    let span = d.span.as_ref()?;
    if !(span.file.ends_with(".yml") || span.file.ends_with(".yaml")) {
        return Some(false);
    }
    let name = names.name_of(&span.file)?;
    let pos = Pos::new(&Arc::from(name), span.line, 1, 0);
    let line = ws.line_at(&pos);
    if line.is_empty() {
        return None;
    }
    Some(!line.contains("#@") && !line.contains("(@"))
}

/// The placeholders among the job's final data values, as one assumption.
fn placeholders(ws: &Workspace, names: &Names) -> Option<Assumption> {
    let listed = leaves(ws, names, &|v| match v {
        // The linter's own placeholders for values given at run time are another assumption.
        Value::String(text) if text != placeholder::TEXT && is_placeholder(text) => {
            Some(format!(" is `{text}`"))
        }
        _ => None,
    })?;
    Some(Assumption::new(
        AssumptionKind::Placeholder,
        format!("data values that hold placeholders stand for the user's own: {listed}"),
    ))
}

/// The leaves of the job's final data values that `pick` describes, named (the first
/// [`NAMED`], then how many more): `` `a.b` is `x` (values.yml:3), ... and 2 more``.
fn leaves(
    ws: &Workspace,
    names: &Names,
    pick: &dyn Fn(&Value) -> Option<String>,
) -> Option<String> {
    let values = ws.evaluated_values()?;
    let mut found: Vec<String> = Vec::new();
    let mut count = 0usize;
    walk(&values.value, &mut Vec::new(), &mut |path, v, pos| {
        let Some(what) = pick(v) else {
            return;
        };
        count += 1;
        if found.len() < NAMED {
            found.push(format!("`{path}`{what}{}", place(names, pos)));
        }
    });
    if found.is_empty() {
        return None;
    }
    let more = match count.saturating_sub(found.len()) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(format!("{}{more}", found.join(", ")))
}

/// Calls `f` with the dotted path, value and place of every scalar in `value`.
pub(super) fn walk(
    value: &Value,
    path: &mut Vec<String>,
    f: &mut dyn FnMut(&str, &Value, Option<&Pos>),
) {
    let mut visit = |path: &mut Vec<String>, v: &Value, pos: &Pos| match v {
        Value::Map(_) | Value::Array(_) => walk(v, path, f),
        scalar => f(&path.join("."), scalar, Some(pos)),
    };
    match value {
        Value::Map(m) => {
            for item in &m.items {
                let key = match &item.key {
                    Value::String(k) => k.clone(),
                    other => format!("{other:?}"),
                };
                path.push(key);
                visit(path, &item.value, &item.pos);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, item) in a.items.iter().enumerate() {
                path.push(i.to_string());
                visit(path, &item.value, &item.pos);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The end of [`left_null`]'s assumption.
const LEFT_NULL: &str = " null, for its user to give";

/// The data values a Package's defaults leave null, as one assumption: its user gives them
/// (the values of a PackageInstall), and the linter does not know them.
fn left_null(ws: &Workspace, names: &Names) -> Option<Assumption> {
    let listed = leaves(ws, names, &|v| matches!(v, Value::Null).then(String::new))?;
    Some(Assumption::new(
        AssumptionKind::LeftToUser,
        format!("the package's defaults leave {listed}{LEFT_NULL}"),
    ))
}

/// Whether `a` is [`left_null`]'s assumption.
pub(super) fn is_left_null(a: &Assumption) -> bool {
    a.kind == AssumptionKind::LeftToUser && a.message.ends_with(LEFT_NULL)
}

/// ` (file:line)` of a value's place in the repository, or nothing.
pub(super) fn place(names: &Names, pos: Option<&Pos>) -> String {
    pos.and_then(|p| Some((names.repo_path_at(p)?.to_string(), names.line_at(p))))
        .map(|(f, l)| format!(" ({f}:{l})"))
        .unwrap_or_default()
}

/// Whether a string is a placeholder for the user's own value rather than a value: `<...>`,
/// `changeme`, `REPLACE_ME`, `TODO`, `XXX`, a Go template (`{{ .x }}`) or a shell variable
/// (`${VAR}`, which `envsubst` fills).
pub fn is_placeholder(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() {
        return false;
    }
    if t.starts_with('<') && t.ends_with('>') && t.len() > 2 && !t.contains('\n') {
        // `<your-registry>`, not an XML or HTML fragment.
        let inner = &t[1..t.len() - 1];
        return !inner.contains('<') && !inner.contains('>') && !inner.contains('=');
    }
    if t.contains("{{") && t.contains("}}") {
        return true;
    }
    if let Some(i) = t.find("${") {
        if t[i..].contains('}') {
            return true;
        }
    }
    let lower = t.to_ascii_lowercase();
    let squashed: String = lower
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.'))
        .collect();
    const WORDS: [&str; 8] = [
        "changeme",
        "replaceme",
        "todo",
        "fixme",
        "tbd",
        "placeholder",
        "yourvaluehere",
        "fillmein",
    ];
    if WORDS.contains(&squashed.as_str())
        || squashed.starts_with("replacewith")
        || squashed.starts_with("changeme")
        || squashed.starts_with("replaceme")
    {
        return true;
    }
    // A run of one capital letter, `ZZZZZ`, `YYYYYY` (four at least: what a key stands in
    // for until a script writes the real one).
    let mut chars = t.chars();
    if let Some(first) = chars.next().filter(char::is_ascii_uppercase) {
        if t.len() >= 4 && chars.all(|c| c == first) {
            return true;
        }
    }
    // Runs of X: `XXX`, `xxxx-xxxx`, `XXXXXXXX.dkr.ecr...` (three at least, and nothing but x
    // in the word).
    lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.len() >= 3 && w.chars().all(|c| c == 'x'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_told_from_values() {
        for p in [
            "<your-registry>",
            "<REPLACE>",
            "changeme",
            "CHANGE_ME",
            "REPLACE_ME",
            "replace-with-your-token",
            "TODO",
            "XXX",
            "xxxx-xxxx-xxxx",
            "123456789.dkr.ecr.XXXXX.amazonaws.com",
            "{{ .Values.registry }}",
            "${REGISTRY}",
            "https://${DOMAIN}/path",
            "ZZZZZ",
            "YYYYYY",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for v in [
            "",
            "nginx:1.25",
            "gitlab-user",
            "example.com",
            "<html><body></body></html>",
            "a <b> c",
            "x",
            "xx",
            "max",
            "$HOME",
            "ZZZ",
            "AAAB",
            "zzzz",
        ] {
            assert!(!is_placeholder(v), "{v}");
        }
    }
}
