//! Where a scenario's `ytt` command came from ([`Source`]) and what discovery had to assume to
//! run it: a command inferred from the layout, a tool that wraps ytt around the files, values
//! given at run time. The job adds what only the evaluation shows (placeholders among the
//! final data values: [`crate::lint::job::certainty`]).

use crate::files::paths::is_within;
use crate::lint::config::ScenarioConfig;
use crate::lint::discover::copied::Copied;
use crate::lint::discover::invocations::rendered::{self, Template};
use crate::lint::discover::invocations::{ci, educates, jenkins, make, readme, taskfile};
use crate::lint::discover::wrappers::{self, Wrapper};
use crate::lint::discover::{Library, Reason, Root};
use crate::report::{Assumption, AssumptionKind, Provenance, Source, Subject};

/// The provenance of `root` run with scenario `sc` (`None`: its own defaults).
/// `config_file` is the configuration's repository path, when there is one.
pub fn of(
    root: &Root,
    sc: Option<&ScenarioConfig>,
    around: &Around,
    config_file: Option<&str>,
) -> Provenance {
    let mut p = match &root.reason {
        // A command the configuration records as inferred (`yttlint init` on a root of the
        // layout) is still the layout's: nobody confirmed it.
        Reason::Config { assumed, .. }
            if assumed
                .iter()
                .any(|a| a.kind == AssumptionKind::InferredCommand) =>
        {
            Provenance::of(Source::Layout, None)
        }
        Reason::Config {
            package: Some(at), ..
        } => Provenance::of(Source::Package, Some(at.clone())),
        Reason::Config { line, .. } => {
            Provenance::of(Source::Config, config_file.map(|f| format!("{f}:{line}")))
        }
        Reason::Package { file, line, .. } => {
            Provenance::of(Source::Package, Some(format!("{file}:{line}")))
        }
        Reason::Invocation { origins } => {
            let origin = sc
                .and_then(|s| s.origin.clone())
                .or_else(|| origins.first().cloned());
            let source = origin.as_deref().map_or(Source::Script, source_of);
            Provenance::of(source, origin)
        }
        Reason::Topmost => Provenance::of(Source::Layout, None),
    };
    // A scenario the configuration lists is the configuration's, whatever found the root.
    if sc.is_some_and(|s| s.origin.is_none()) && p.source != Source::Config {
        p = Provenance::of(Source::Config, config_file.map(str::to_string));
    }
    if let Reason::Config { assumed, .. } = &root.reason {
        for a in assumed {
            p.assume(a.clone());
        }
    } else if p.source == Source::Layout {
        p.assume(Assumption::new(
            AssumptionKind::InferredCommand,
            format!(
                "the command `{}`, inferred from the layout: nothing in the repository runs it",
                command(root)
            ),
        ));
        around.assume(&mut p, &root.path);
        around.rendered_in(&mut p, &root.inputs);
    }
    if let Some(sc) = sc {
        for a in &sc.assumptions {
            p.assume(a.clone());
        }
        runtime_values(&mut p, sc);
    }
    p
}

/// The provenance of a directory checked on its own, when its findings may assume something:
/// one a tool that wraps ytt renders, or one whose files only supplement others (`None` for a
/// private library, which its root's command renders as it is).
pub fn of_library(lib: &Library, around: &Around) -> Option<Provenance> {
    let mut p = Provenance::of(Source::Layout, None);
    if let Some(why) = &lib.partial {
        p.assume(
            Assumption::new(
                AssumptionKind::InferredCommand,
                format!(
                    "{} checked on its own, without the files it supplements ({why})",
                    lib.path
                ),
            )
            .about(Subject::Supplements),
        );
    }
    around.assume(&mut p, &lib.path);
    (!p.assumptions.is_empty()).then_some(p)
}

/// What surrounds the files of the repository: tools that wrap ytt, copies into other tools'
/// trees.
#[derive(Clone, Copy)]
pub struct Around<'d> {
    pub wrappers: &'d [Wrapper],
    pub copied: &'d [Copied],
    /// The committed templates the repository's commands render into other files (see
    /// `invocations/rendered.rs`).
    pub templates: &'d [Template],
}

impl Around<'_> {
    /// Adds what a directory at `path` assumes by being where it is.
    fn assume(&self, p: &mut Provenance, path: &str) {
        if let Some(w) = wrappers::around(self.wrappers, path) {
            p.assume(Assumption::new(AssumptionKind::WrapperTool, w.assumption()));
        }
        let copied = self
            .copied
            .iter()
            .find(|c| is_within(path, &c.path) || is_within(&c.path, path));
        if let Some(c) = copied {
            p.assume(Assumption::new(
                AssumptionKind::CopiedElsewhere,
                c.assumption(),
            ));
        }
    }

    /// Adds what reading `inputs` assumes of the YAML templates among them that a command
    /// renders before ytt reads the result: their placeholders are read as written.
    fn rendered_in(&self, p: &mut Provenance, inputs: &[String]) {
        for input in inputs {
            for t in rendered::within(self.templates, input) {
                if t.path.ends_with(".yml") || t.path.ends_with(".yaml") {
                    p.assume(t.assumption());
                }
            }
        }
    }
}

/// The kind of command a file holds (`hack/build.sh:12`, `README.md:40`).
pub fn source_of(origin: &str) -> Source {
    let file = origin.rsplit_once(':').map_or(origin, |(f, _)| f);
    if readme::candidate(file) || educates::candidate(file) {
        Source::Document
    } else if make::candidate(file) {
        Source::Makefile
    } else if taskfile::candidate(file) {
        Source::Taskfile
    } else if ci::is_workflow(file)
        || ci::is_action(file)
        || jenkins::candidate(file)
        || ci::is_gitlab(file)
        || file.ends_with(".yml")
        || file.ends_with(".yaml")
    {
        // Concourse tasks and kuttl tests are YAML too.
        Source::Ci
    } else {
        Source::Script
    }
}

/// `ytt -f a -f b` with the root's own flags.
fn command(root: &Root) -> String {
    let mut words = vec!["ytt".to_string()];
    if root
        .args
        .iter()
        .any(|a| a == "-f" || a.starts_with("--file"))
    {
        words.extend(root.args.iter().cloned());
    } else {
        for i in &root.inputs {
            words.push("-f".into());
            words.push(i.clone());
        }
        words.extend(root.args.iter().cloned());
    }
    words.join(" ")
}

/// Values given at run time, which the linter fills with placeholders.
fn runtime_values(p: &mut Provenance, sc: &ScenarioConfig) {
    if sc.provided.is_empty() {
        return;
    }
    let named: Vec<String> = sc
        .provided
        .iter()
        .filter(|k| *k != "*")
        .map(|k| format!("`{k}`"))
        .collect();
    let message = if named.is_empty() {
        "data values given at run time, which the linter does not have".to_string()
    } else {
        format!(
            "data values given at run time ({}), linted with placeholders",
            named.join(", ")
        )
    };
    p.assume(Assumption::new(AssumptionKind::RuntimeValues, message));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_command_file_is_its_source() {
        assert_eq!(source_of("hack/build.sh:3"), Source::Script);
        assert_eq!(source_of("Makefile:12"), Source::Makefile);
        assert_eq!(source_of("README.md:40"), Source::Document);
        assert_eq!(source_of(".github/workflows/ci.yml:9"), Source::Ci);
        assert_eq!(source_of("Taskfile.yml:4"), Source::Taskfile);
    }

    #[test]
    fn a_root_of_the_layout_assumes_its_command_and_a_wrapper() {
        let root = Root::found("prototypes/app", Reason::Topmost);
        let w = Wrapper {
            tool: "myks",
            dir: ".".into(),
            marker: ".myks.yaml".into(),
            gives: "a schema",
            binds: &[],
        };
        let wrappers = [w];
        let around = Around {
            wrappers: &wrappers,
            copied: &[],
            templates: &[],
        };
        let p = of(&root, None, &around, None);
        assert_eq!(p.source, Source::Layout);
        let kinds: Vec<AssumptionKind> = p.assumptions.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [AssumptionKind::InferredCommand, AssumptionKind::WrapperTool]
        );
        assert!(p.assumptions[0]
            .message
            .contains("`ytt -f prototypes/app`, inferred from the layout"));
    }

    #[test]
    fn a_script_s_command_is_certain_unless_it_gives_values_at_run_time() {
        let mut root = Root::found("config", Reason::Topmost);
        root.reason = Reason::Invocation {
            origins: vec!["hack/build.sh:4".into()],
        };
        let mut sc = ScenarioConfig {
            name: "hack/build.sh:4".into(),
            origin: Some("hack/build.sh:4".into()),
            ..ScenarioConfig::default()
        };
        let around = Around {
            wrappers: &[],
            copied: &[],
            templates: &[],
        };
        let p = of(&root, Some(&sc), &around, None);
        assert!(p.certain());
        assert_eq!(p.origin.as_deref(), Some("hack/build.sh:4"));
        sc.provided = vec!["version".into()];
        let p = of(&root, Some(&sc), &around, None);
        assert_eq!(p.assumptions.len(), 1);
        assert!(p.assumptions[0].message.contains("`version`"));
    }
}
