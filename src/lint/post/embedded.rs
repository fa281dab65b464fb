//! The ytt documents a repository writes inside other YAML as strings
//! ([`crate::lint::repo::embedded`]: a Secret's `stringData.values.yaml: |` that starts with
//! `#@data/values`, an App CR's inline template), checked as ytt checks a file: YAML syntax,
//! ytt's comment rule, templates that compile (the same checks as a private library's,
//! [`crate::lint::job::libcheck`]). Each finding points at the outer file's line.
//!
//! How sure: nothing in the repository names the string as an input (a script receives it at
//! run time, through a mounted Secret or a file the user writes from it), so the linter
//! assumes the text is a ytt input because it starts like one; a finding is a warning that
//! says so (`inferred-command`), from the source `embedded` whose origin is the outer file and
//! the line of the string's key, naming the repository's commands that read the outer file
//! (a ytt root it is an input of, a `kapp deploy -f` or `kubectl apply -f` of it). Where the repository runs ytt with
//! `--ignore-unknown-comments` anywhere (an App CR's `ignoreUnknownComments: true`, a script's
//! flag), the string's unknown reader may well do so too, and its comments are not checked.
//! A string that holds another tool's template actions (`{{ }}`) is that tool's first
//! ([`crate::lint::post::embedded_templated`]).
//!
//! A file of a kapp-controller ytt step (`ytt: inline: paths: overlay.yaml: |` of a Package or
//! App) is named as an input by the step itself, whatever its first line: its findings are
//! certain.
//!
//! A document that compiles is analysed as a committed template is, its data values unknown
//! (they come from the string's reader: the App, a Cartographer Workload): the faults no data
//! values fix are ytt's failure whatever the reader gives, and are reported at the document's
//! certainty: a name used and not defined (`overlay` without its `load`, round nine's LA-1;
//! `parm(...)` beside `def param`, round fifty-two's N52-3), a call with arguments the function
//! does not take, a `load()` of a name the module lacks, a member a `@ytt:` module lacks.

use crate::analysis::Outside;
use crate::files::paths::is_within;
use crate::files::InputFile;
use crate::library::{EvalOpts, Workspace};
use crate::lint::discover::{Discovery, Reason};
use crate::lint::repo::embedded::Embedded;
use crate::lint::repo::embedded_step::{IGNORE_UNKNOWN_COMMENTS, STRICT};
use crate::lint::repo::walk::RepoFile;
use crate::pos::Pos;
use crate::report::{
    Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Rule, Source, Span,
};

/// The findings of every embedded ytt document of the repository's files; `lenient`: some
/// command of the repository ignores unknown comments.
pub fn findings(d: &Discovery, lenient: bool) -> Vec<Diagnostic> {
    // A ytt step of the repository that ignores unknown comments counts as a command that
    // does, whether or not it gives a root (an App whose fetch is inline gives none).
    let lenient = lenient
        || d.files
            .iter()
            .flat_map(|f| &f.embedded)
            .any(|e| e.flags.iter().any(|f| f == IGNORE_UNKNOWN_COMMENTS));
    let mut out = Vec::new();
    for f in d.files.iter().filter(|f| !f.embedded.is_empty()) {
        let readers = readers(d, &f.path);
        for e in &f.embedded {
            out.extend(check(&f.path, e, lenient, &readers, &d.files));
        }
    }
    out
}

/// How many embedded ytt documents [`findings`] checks.
pub fn count(d: &Discovery) -> usize {
    d.files.iter().map(|f| f.embedded.len()).sum()
}

/// The repository's commands that read the file at `outer` (as a ytt input, or deployed as
/// it is), said as a reader would check them: `root config (run by hack/build.sh:3)`,
/// `` `kapp` at hack/deploy.sh:5 ``. A root only inferred from the layout is no command.
fn readers(d: &Discovery, outer: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in d
        .roots
        .iter()
        .filter(|r| r.inputs.iter().any(|i| is_within(outer, i)))
    {
        let by = match &r.reason {
            Reason::Invocation { origins } => match origins.first() {
                Some(o) => format!("run by {o}"),
                None => continue,
            },
            Reason::Package { file, line, .. } => format!("rendered by {file}:{line}"),
            Reason::Config { line, .. } => format!("listed in the configuration (line {line})"),
            Reason::Topmost => continue,
        };
        out.push(format!("the ytt root {} ({by})", r.name));
    }
    for (path, by) in &d.deployed {
        if is_within(outer, path) {
            out.push(by.clone());
        }
    }
    out.dedup();
    out
}

/// Whether a root or scenario of `roots` is run with `--ignore-unknown-comments`.
pub fn comments_ignored(roots: &[crate::lint::discover::Root]) -> bool {
    roots.iter().any(|r| {
        r.args
            .iter()
            .chain(r.scenarios.iter().flat_map(|s| &s.args))
            .any(|a| a == "--ignore-unknown-comments")
    })
}

/// The findings of one embedded document `e` of the file at `outer`, which `readers` read.
fn check(
    outer: &str,
    e: &Embedded,
    lenient: bool,
    readers: &[String],
    files: &[RepoFile],
) -> Vec<Diagnostic> {
    let name = if e.key.ends_with(".yml") || e.key.ends_with(".yaml") {
        e.key.clone()
    } else {
        "embedded.yml".to_string()
    };
    // A file of a ytt step is read with that step's flags (FE11-B2), any other with the
    // repository's most lenient command's.
    let has = |flag: &str| e.flags.iter().any(|f| f == flag);
    let opts = match e.step {
        true => EvalOpts {
            ignore_unknown_comments: has(IGNORE_UNKNOWN_COMMENTS),
            strict: has(STRICT),
            ..EvalOpts::default()
        },
        false => EvalOpts {
            ignore_unknown_comments: lenient,
            ..EvalOpts::default()
        },
    };
    let ws = Workspace::new(vec![InputFile::new(&name, &e.text)], opts);
    let place = |pos: &Pos| -> Option<Span> {
        if !pos.is_known() {
            return None;
        }
        let line = e.line.saturating_add(pos.line.saturating_sub(1));
        let column = e.indent.saturating_add(pos.col.max(1));
        Some(Span::point(outer, line, column))
    };
    let held = if e.key == "-" {
        format!("the list entry at {outer}:{}", e.line.saturating_sub(1))
    } else {
        format!("`{}` ({outer}:{})", e.key, e.line.saturating_sub(1))
    };
    let at = format!("{outer}:{}", e.line.saturating_sub(1));
    if e.step {
        // A file of a Package's or App's ytt step: kapp-controller gives it to ytt as
        // written, so what ytt rejects in it alone (a name used without its `load`) is certain.
        let p = Provenance::of(Source::Embedded, Some(at));
        let mut out = diagnostics(&ws, &place, &held, &p);
        if out.is_empty() {
            let help = format!(
                "the ytt step that names it compiles the text of {held} as a file of its own: a \
                 name it uses needs its `load()` there"
            );
            out.extend(faults(&ws, &place, &help, &p));
        }
        return out;
    }
    let mut p = Provenance::of(Source::Embedded, Some(at));
    let read = match readers {
        [] => String::new(),
        some => {
            let shown: Vec<&str> = some.iter().take(3).map(String::as_str).collect();
            let more = match some.len() {
                n if n > 3 => format!(" and {} more", n - 3),
                _ => String::new(),
            };
            format!(
                "; {outer} itself is read by {}{more}, as YAML whose string this is",
                shown.join(", ")
            )
        }
    };
    p.assume(Assumption::new(
        AssumptionKind::InferredCommand,
        format!(
            "the string {held} is a ytt input: it starts as one (`#@data/values`, `#@ load(`), \
             and nothing in the repository names it{read}"
        ),
    ));
    if let Some(a) = crate::lint::post::embedded_templated::assumption(outer, &held, &e.text, files)
    {
        p.assume(a);
    }
    let mut out = diagnostics(&ws, &place, &held, &p);
    if out.is_empty() {
        // It compiles: what no data values can fix is the string's fault too, at the same
        // certainty (round fifty-two's N52-3).
        let help = format!(
            "ytt reads the text of {held} as a file of its own and fails on this whatever data \
             values its reader gives"
        );
        out.extend(faults(&ws, &place, &help, &p));
    }
    out
}

/// The findings of the embedded document's workspace `ws`, placed by `place` in the outer
/// file, with the certainty of `p`.
fn diagnostics(
    ws: &Workspace,
    place: &dyn Fn(&Pos) -> Option<Span>,
    held: &str,
    p: &Provenance,
) -> Vec<Diagnostic> {
    crate::lint::job::libcheck::check(ws)
        .iter()
        .map(|err| {
            let mut d = crate::lint::job::engine::error_diagnostic(err, place);
            d.help = Some(format!(
                "ytt reads the text of {held} as a file of its own; the line numbers in the \
                 message count from its first line"
            ));
            d.basis = Some(Basis::Command);
            d.certainty = Some(p.certainty(Basis::Command));
            d
        })
        .collect()
}

/// The rules of static analysis whose findings are faults of the text that no data values fix:
/// a name used and not defined (starlark-go's resolver rejects the file), a call of a function
/// with arguments it does not take, a `load()` of a name the module does not have, a member a
/// `@ytt:` module lacks. The style checks (an unused load or function) are left to committed
/// files, and the data values checks rest on values the string's reader gives.
const FAULTS: &[Rule] = &[
    Rule::TemplateError,
    Rule::WrongArguments,
    Rule::LoadUnknownName,
    Rule::UnknownModuleAttribute,
];

/// The faults static analysis finds in the embedded document's files (see [`FAULTS`]), its data
/// values unknown (a ytt step's come from the App, a Cartographer template's from the Workload):
/// `overlay` used without its `load`, `parm(...)` beside `def param`. `help` says how ytt reads
/// the text.
fn faults(
    ws: &Workspace,
    place: &dyn Fn(&Pos) -> Option<Span>,
    help: &str,
    p: &Provenance,
) -> Vec<Diagnostic> {
    let analysis = crate::analysis::analyse(ws, "", &Outside::Unknown, false);
    let mut out = Vec::new();
    for found in analysis.findings {
        if !FAULTS.contains(&found.rule) || found.on_inputs {
            continue;
        }
        let Some(mut span) = place(&found.pos) else {
            continue;
        };
        span.end_column = span.column + found.width;
        let mut d = Diagnostic::new(found.rule, found.message).at(span);
        for (message, pos) in &found.related {
            if let Some(at) = place(pos) {
                d = d.with_related(message.clone(), at);
            }
        }
        d.help = Some(help.to_string());
        d.basis = Some(Basis::Command);
        d.certainty = Some(p.certainty(Basis::Command));
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embedded(text: &str) -> Embedded {
        Embedded {
            key: "values.yaml".into(),
            line: 6,
            indent: 4,
            text: text.into(),
            step: false,
            flags: Vec::new(),
        }
    }

    #[test]
    fn a_plain_comment_in_an_embedded_values_document_is_found_at_the_outer_line() {
        let e = embedded("#@data/values\n---\n#8 Set the profile.\nprofile: full\n");
        let found = check("config/installer.yaml.template", &e, false, &[], &[]);
        assert_eq!(found.len(), 1, "{found:#?}");
        let d = &found[0];
        assert!(
            d.message.contains("Expected ytt-formatted string"),
            "{}",
            d.message
        );
        let span = d.span.as_ref().map(|s| (s.file.as_str(), s.line));
        assert_eq!(span, Some(("config/installer.yaml.template", 8)));
        assert_eq!(d.certainty.as_ref().map(|c| c.certain()), Some(false));
        // Where it came from: the outer file and the line of the string's key.
        let c = d.certainty.as_ref().unwrap();
        assert_eq!(c.source, Source::Embedded);
        assert_eq!(
            c.origin.as_deref(),
            Some("config/installer.yaml.template:5")
        );
        assert_eq!(
            c.source.describe(c.origin.as_deref()),
            "the ytt document written as a string at config/installer.yaml.template:5"
        );
        assert_ne!(d.rule, Rule::InternalError);
    }

    #[test]
    fn the_commands_that_read_the_outer_file_are_named() {
        let mut d = Discovery::default();
        let mut root = crate::lint::discover::Root::found(
            "config",
            Reason::Invocation {
                origins: vec!["hack/build.sh:3".into()],
            },
        );
        root.needs_input = false;
        d.roots.push(root);
        d.roots
            .push(crate::lint::discover::Root::found("other", Reason::Topmost));
        d.deployed.push((
            "config/secret.yml".into(),
            "`kapp` at hack/deploy.sh:5".into(),
        ));
        assert_eq!(
            readers(&d, "config/secret.yml"),
            [
                "the ytt root config (run by hack/build.sh:3)",
                "`kapp` at hack/deploy.sh:5"
            ]
        );
        assert!(readers(&d, "other/secret.yml").is_empty());
        let e = embedded("#@data/values\n---\n# a plain comment\na: 1\n");
        let found = check(
            "config/secret.yml",
            &e,
            false,
            &readers(&d, "config/secret.yml"),
            &[],
        );
        let assumed = &found[0].certainty.as_ref().unwrap().assumed[0].message;
        assert!(
            assumed.ends_with("; config/secret.yml itself is read by the ytt root config (run by hack/build.sh:3), `kapp` at hack/deploy.sh:5, as YAML whose string this is"),
            "{assumed}"
        );
    }

    #[test]
    fn a_sound_embedded_document_has_no_findings() {
        let e = embedded("#@data/values\n---\n#! the profile\nprofile: full\n");
        assert!(check("x.yaml", &e, false, &[], &[]).is_empty());
        let t = embedded("#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.x\n");
        assert!(check("x.yaml", &t, false, &[], &[]).is_empty());
    }

    #[test]
    fn where_the_repository_ignores_unknown_comments_they_are_not_checked() {
        let e = embedded("#@data/values\n---\n# [Required] the certificate\ncrt:\n");
        assert_eq!(check("values.yaml", &e, false, &[], &[]).len(), 1);
        assert!(check("values.yaml", &e, true, &[], &[]).is_empty());
        let broken = embedded("#@data/values\n---\na: [1\n");
        assert_eq!(check("values.yaml", &broken, true, &[], &[]).len(), 1);
    }
}
