//! Files a program renders. A repository whose own program runs ytt (a Go module that
//! requires ytt's library, `exec.Command("ytt", …)`, `subprocess.run(["ytt", …])`, a Kotlin
//! string `"ytt -f …"`) says how its ytt files are rendered in code the linter does not read:
//! the program may give a folder's files in another order or with values it builds, join one
//! file to another (`operator.yaml + extra.yaml`), or rewrite a file's text before ytt sees
//! it (round forty-two's R42-1 and R42-4, round forty's R40-1). A root the linter inferred
//! from the layout there is a guess at what the program gives ytt, so an error in a file no
//! certain command of the repository renders, even one in its text alone (a syntax error),
//! assumes that the program gives the file as committed: a warning naming the program. A
//! repository without such a program keeps its errors: how the folder is run is simply not
//! written down ([`super::unrendered`] has the same rule for files beside rendered ones).

use std::path::Path;

use crate::lint::job::Job;
use crate::lint::plan::Planned;
use crate::report::{Assumption, AssumptionKind, Certainty, Diagnostic, Severity, Source};

use super::appended::{inferred_roots, read_small};
use super::unrendered::{read_elsewhere, rendered};

/// At most this many program files are read in search of a call of ytt.
const MAX_PROGRAMS: usize = 4000;

/// The extensions of the program files searched for a call of ytt.
const PROGRAM_EXTENSIONS: [&str; 13] = [
    "go", "py", "kt", "kts", "java", "groovy", "scala", "js", "mjs", "ts", "rb", "rs", "cs",
];

/// The module paths of ytt's Go library, as a `go.mod` requires them or a Go file imports them.
const GO_MODULES: [&str; 4] = [
    "carvel.dev/ytt",
    "github.com/k14s/ytt",
    "github.com/vmware-tanzu/carvel-ytt",
    "github.com/carvel-dev/ytt",
];

/// `found` with the errors of layout roots in a repository whose program renders ytt made
/// warnings that name the program.
pub fn settle(p: &Planned, jobs: &[Job], found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let inferred = inferred_roots(jobs);
    let candidate = |d: &Diagnostic| {
        d.severity == Severity::Error
            && d.certainty.as_ref().is_none_or(Certainty::certain)
            && d.span.is_some()
            && d.root.as_deref().is_some_and(|r| inferred.contains_key(r))
    };
    if !found.iter().any(candidate) {
        return found;
    }
    let Some(program) = program(&p.config.dir, p.discovery.files.iter().map(|f| &f.path)) else {
        return found;
    };
    let rendered = rendered(p, jobs);
    found
        .into_iter()
        .map(|mut d| {
            if !candidate(&d) {
                return d;
            }
            let Some(file) = d.span.as_ref().map(|s| s.file.clone()) else {
                return d;
            };
            if read_elsewhere(p, &rendered, &file) {
                return d;
            }
            let root = d.root.clone().unwrap_or_default();
            d.certainty = Some(Certainty {
                source: Source::Layout,
                origin: None,
                assumed: vec![Assumption::new(
                    AssumptionKind::InferredCommand,
                    format!(
                        "the repository renders its ytt files with a program ({program}), which \
                         the linter does not read; nothing else renders {file}, and the command \
                         `ytt -f {root}` is inferred from the layout"
                    ),
                )],
            });
            d.severity = Severity::Warning;
            d
        })
        .collect()
}

/// The first program of the repository that runs ytt, as a message names it (`go.mod requires
/// carvel.dev/ytt`, `` render.py:12 runs `ytt` ``), among `files` (in walk order).
fn program<'a>(repo: &Path, files: impl Iterator<Item = &'a String> + Clone) -> Option<String> {
    for f in files
        .clone()
        .filter(|f| f.rsplit('/').next() == Some("go.mod"))
    {
        let Some(text) = read_small(repo, f) else {
            continue;
        };
        if let Some(m) = GO_MODULES.iter().find(|m| requires(&text, m)) {
            return Some(format!("{f} requires {m}"));
        }
    }
    let programs = files
        .filter(|f| {
            f.rsplit_once('.')
                .is_some_and(|(_, ext)| PROGRAM_EXTENSIONS.contains(&ext))
        })
        .take(MAX_PROGRAMS);
    for f in programs {
        let Some(text) = read_small(repo, f) else {
            continue;
        };
        if let Some(line) = calls_ytt(&text) {
            return Some(format!("{f}:{line} runs `ytt`"));
        }
    }
    None
}

/// Whether a `go.mod` text requires the module `m` (or a package below it).
fn requires(text: &str, m: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start().trim_start_matches("require").trim_start();
        l.starts_with(m) && l[m.len()..].starts_with([' ', '/', '\t'])
    })
}

/// The line (1-based) where a program's text runs ytt: imports ytt's Go library, or names
/// `ytt` as the program of a process (a string literal `"ytt"`, or one that starts with the
/// command `"ytt -f …"`).
fn calls_ytt(text: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            GO_MODULES.iter().any(|m| l.contains(&format!("\"{m}/")))
                || [
                    "\"ytt\"", "'ytt'", "\"ytt -", "'ytt -", "\"ytt --", "'ytt --",
                ]
                .iter()
                .any(|q| l.contains(q))
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_go_module_that_requires_ytt_s_library_runs_ytt() {
        let gomod = "module example.invalid/tool\n\ngo 1.22\n\nrequire (\n\tcarvel.dev/ytt v0.49.0\n\tgithub.com/spf13/cobra v1.8.0\n)\n";
        assert!(requires(gomod, "carvel.dev/ytt"));
        assert!(!requires(gomod, "github.com/k14s/ytt"));
        assert!(requires(
            "require github.com/k14s/ytt v0.32.0\n",
            "github.com/k14s/ytt"
        ));
        // A module whose name only starts the same is another module.
        assert!(!requires("require carvel.dev/yttx v1\n", "carvel.dev/ytt"));
    }

    #[test]
    fn a_process_named_ytt_or_an_import_of_its_library_is_a_call() {
        assert_eq!(
            calls_ytt("import x\ncmd := exec.Command(\"ytt\", \"-f\", dir)\n"),
            Some(2)
        );
        assert_eq!(
            calls_ytt("subprocess.run(['ytt', '-f', 'conf'])\n"),
            Some(1)
        );
        assert_eq!(calls_ytt("val cmd = \"ytt -f $dir\"\n"), Some(1));
        assert_eq!(
            calls_ytt("import (\n\t\"carvel.dev/ytt/pkg/cmd/template\"\n)\n"),
            Some(2)
        );
        // The word in prose or a longer name is not a call.
        assert_eq!(
            calls_ytt("// render with ytt later\nname := \"ytt-helper\"\n"),
            None
        );
    }
}
