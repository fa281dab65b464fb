//! A page's command whose input is a placeholder for the reader's file (`ytt -f YOUR_FILE`,
//! run in a directory of templates) is not linted: the file is the reader's. But when every
//! file of that directory the reader may give loads a file beside it that the command does
//! not pass (`#@ load("common.lib.yml", …)`), ytt stops on each of them with `cannot load
//! common.lib.yml: Expected to find file` (only files given with `-f` can be loaded). That is
//! a `load-error` of the command, at its line, assuming the reader gives one of those files
//! (`bound-argument`): a file of the reader's own that loads nothing would render (round
//! twelve's LR12-B2).

use super::resolve::Skipped;
use crate::files::paths;
use crate::lint::discover::loads::{normalize, relative_loads};
use crate::lint::discover::provenance::source_of;
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::{Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Rule, Span};

/// The most files of the directory judged: a directory with more is left alone.
const MAX_CANDIDATES: usize = 64;

/// A file the reader may give for the placeholder: a YAML file of its directory that is not
/// a library (`*.lib.yml` renders nothing on its own).
fn candidate(f: &RepoFile, dir: &str) -> bool {
    let name = f.path.rsplit('/').next().unwrap_or(&f.path);
    paths::parent(&f.path) == dir
        && matches!(f.kind, Kind::YttYaml | Kind::PlainYaml)
        && !name.ends_with(".lib.yml")
        && !name.ends_with(".lib.yaml")
}

/// The first load of `file` (a candidate, with its `text`) that the command does not give:
/// its line and module.
fn unloadable(file: &str, text: &str, given: &[String]) -> Option<(u32, String)> {
    let dir = paths::parent(file);
    relative_loads(text, false).into_iter().find(|(_, module)| {
        match normalize(&paths::join(dir, module)) {
            Some(target) => {
                target != file
                    && !given
                        .iter()
                        .any(|g| g == "." || target == *g || paths::is_within(&target, g))
            }
            // Out of the repository: not given either.
            None => true,
        }
    })
}

/// The `load-error` of a skipped command whose placeholder input fails for every file the
/// reader may give; `None` when one of them would render (or loads nothing missing).
pub fn finding(
    skipped: &Skipped,
    files: &[RepoFile],
    read: &dyn Fn(&str) -> Option<String>,
) -> Option<Diagnostic> {
    let input = skipped.placeholder.as_deref()?;
    let dir = paths::parent(input);
    let shown = input.rsplit('/').next().unwrap_or(input);
    let candidates: Vec<&RepoFile> = files.iter().filter(|f| candidate(f, dir)).collect();
    if candidates.is_empty() || candidates.len() > MAX_CANDIDATES {
        return None;
    }
    let mut failures = Vec::new();
    for f in &candidates {
        if f.kind != Kind::YttYaml {
            // Plain YAML renders as it is.
            return None;
        }
        let text = read(&f.path)?;
        let (line, module) = unloadable(&f.path, &text, &skipped.claims)?;
        failures.push((f.path.clone(), line, module));
    }
    let names: Vec<&str> = failures
        .iter()
        .map(|(f, _, _)| f.rsplit('/').next().unwrap_or(f))
        .collect();
    let loaded: Vec<&str> = {
        let mut m: Vec<&str> = failures.iter().map(|(_, _, m)| m.as_str()).collect();
        m.sort_unstable();
        m.dedup();
        m
    };
    let origin = skipped.origin.to_string();
    let mut d = Diagnostic::new(
        Rule::LoadError,
        format!(
            "`ytt -f {shown}` fails for every file of {dir} the reader may give: each loads a file the command does not pass ({}), and ytt says `cannot load {}: Expected to find file` (only files given with -f can be loaded)",
            loaded.join(", "),
            loaded[0]
        ),
    )
    .at(Span::point(&skipped.origin.file, skipped.origin.line, 1))
    .with_help(format!(
        "pass the loaded files too (`ytt -f {shown} -f {}`), or render the directory (`ytt -f .`)",
        loaded.join(" -f ")
    ));
    for (file, line, module) in &failures {
        d = d.with_related(
            format!("{file} loads {module}, which the command does not pass"),
            Span::point(file, *line, 1),
        );
    }
    let mut p = Provenance::of(source_of(&origin), Some(origin));
    p.assume(Assumption::new(
        AssumptionKind::BoundArgument,
        format!(
            "`{shown}` is a placeholder for the reader's file: taken as each file of {dir} ({})",
            names.join(", ")
        ),
    ));
    d.certainty = Some(p.certainty(Basis::Command));
    d.root = Some(input.to_string());
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn file(path: &str, kind: Kind) -> RepoFile {
        RepoFile::for_test(path, kind)
    }

    fn skipped(claims: &[&str]) -> Skipped {
        Skipped {
            origin: Origin {
                file: "gen/README.md".into(),
                line: 7,
            },
            reason: "YOUR_FILE names the reader's own file".into(),
            claims: claims.iter().map(|c| c.to_string()).collect(),
            placeholder: Some("gen/YOUR_FILE".into()),
            left_out: Vec::new(),
            got: None,
        }
    }

    #[test]
    fn every_file_the_reader_may_give_loads_a_sibling_the_command_does_not_pass() {
        let mut files = vec![
            file("gen/a.yml", Kind::YttYaml),
            file("gen/b.yml", Kind::YttYaml),
            file("gen/common.lib.yml", Kind::YttYaml),
            file("gen/README.md", Kind::Other),
        ];
        let read = |p: &str| {
            Some(match p {
                "gen/a.yml" => "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"common.lib.yml\", \"x\")\na: #@ x\n",
                "gen/b.yml" => "#@ load(\"common.lib.yml\", \"y\")\nb: #@ y\n",
                _ => "",
            }
            .to_string())
        };
        let d = finding(&skipped(&[]), &files, &read).expect("a finding");
        assert_eq!(d.rule, Rule::LoadError);
        assert_eq!(d.related.len(), 2);
        assert!(d.message.contains("(common.lib.yml)"), "{}", d.message);
        let c = d.certainty.as_ref().expect("certainty");
        assert_eq!(c.assumed[0].kind, AssumptionKind::BoundArgument);
        // The command passes the library's directory: the loads are given.
        assert!(finding(&skipped(&["gen"]), &files, &read).is_none());
        // A file of the directory that loads nothing renders.
        files.push(file("gen/plain.yml", Kind::PlainYaml));
        assert!(finding(&skipped(&[]), &files, &read).is_none());
    }
}
