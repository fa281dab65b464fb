//! A command that writes each input file's output to a file of its own (`ytt --output-files
//! DIR`, `--dangerous-emptied-output-directory DIR`) does not hand its objects over as one
//! set: ytt writes one file per input, and nothing streams them together. Two objects of one
//! name in different output files meet only where a later command of the same script deploys
//! the directory (or the part holding both) as one, `kapp deploy -f DIR`, which discovery
//! records ([`OutputDeploy`]): such a `duplicate-object` keeps its level and names that
//! command. Any other rests on the files being applied together some other way, which nothing
//! the repository runs says: a note naming it (round fifteen's R15B-4, a workshop that
//! applies one step's directory at a time; round seventeen's R17B-1, a folder of variants of
//! one configuration, each rendered to its own file and compared with `diff`). Duplicates in
//! one output file, one input file's documents, keep their level.

use crate::files::paths;
use crate::lint::config::output_deploy::OutputDeploy;
use crate::lint::job::Job;
use crate::report::{
    Assumption, AssumptionKind, Certainty, Diagnostic, Related, Rule, Source, Span,
};

/// The message of a duplicate's related location that names the first copy
/// ([`crate::policy`]'s `duplicate-object`).
pub const FIRST: &str = "the same object rendered first";

/// The files of a `duplicate-object` finding: where the object is rendered first (its
/// related location) and again (its own span).
pub fn duplicate_files(d: &Diagnostic) -> Option<(String, String)> {
    let second = d.span.as_ref().map(|s| s.file.clone())?;
    let first = d
        .related
        .iter()
        .find(|r| r.message == FIRST)
        .map(|r| r.span.file.clone())?;
    Some((first, second))
}

/// The message of the related location at the command that deploys the output files as one.
pub const DEPLOYED: &str = "the output files are deployed as one here";

/// `found`, each duplicate in two output files of a split output resting on their being
/// applied together, unless a later command of the script deploys both as one.
pub fn settle(job: &Job, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if !job.split_output {
        return found;
    }
    for d in found.iter_mut().filter(|d| d.rule == Rule::DuplicateObject) {
        let Some((first, second)) = duplicate_files(d) else {
            continue;
        };
        if first == second {
            continue;
        }
        match &job.output_deployed {
            Some(dep) if dep.covers(&first) && dep.covers(&second) => named(d, dep),
            deployed => {
                let assumed = Assumption::new(
                    AssumptionKind::SplitOutput,
                    why(&first, &second, deployed.as_ref()),
                );
                d.assume(assumed, || match &job.provenance {
                    Some(p) => Certainty::from(p.source, p.origin.clone()),
                    None => Certainty::from(Source::Config, None),
                });
            }
        }
    }
    found
}

/// A duplicate that meets where `dep` deploys the output files: it names that command.
fn named(d: &mut Diagnostic, dep: &OutputDeploy) {
    let span = Span::point(dep.file.clone(), dep.line, 1);
    if d.related.iter().any(|r| r.span == span) {
        return;
    }
    d.related.push(Related {
        message: format!("{DEPLOYED} (`{}`)", dep.tool),
        span,
    });
}

/// What a duplicate of `first` and `second` in a split output rests on.
fn why(first: &str, second: &str, deployed: Option<&OutputDeploy>) -> String {
    let (a, b) = (paths::parent(first), paths::parent(second));
    let files = if a == b {
        format!("`{first}` and `{second}` each get a file of their own")
    } else {
        format!("these lie in {} and {}", shown(a), shown(b))
    };
    let after = match deployed {
        Some(dep) => format!(
            "`{}` at {}:{} deploys the output of {} only",
            dep.tool,
            dep.file,
            dep.line,
            dep.dirs
                .iter()
                .map(|d| shown(d))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "nothing the script runs after it deploys them as one".to_string(),
    };
    format!(
        "the command writes each file's output to a file of its own (--output-files), and \
         {files}; {after}: one set only if both are applied together"
    )
}

/// A directory as the message names it.
fn shown(dir: &str) -> String {
    match dir {
        "." => "the top directory".to_string(),
        d => format!("`{d}/`"),
    }
}
