//! Alternative values files. When the repository's commands pass one values file of a
//! directory that holds several (`ytt -f schema.yaml -f values-a.yaml -f demo.yaml` next to
//! `values-b.yaml`; `--data-values-file example-values/minikube.yaml` next to `kind.yaml`),
//! the others are the same command's other choices: each becomes a scenario of the root, not
//! a root of its own and not a file merged with the chosen one.

use std::collections::BTreeSet;
use std::path::Path;

use crate::files::paths::{self, is_within};
use crate::lint::config::ScenarioConfig;
use crate::lint::discover::invocations::resolve::Invocation;
use crate::lint::discover::{Reason, Root};
use crate::lint::repo::supplementary;
use crate::lint::repo::walk::{Kind, RepoFile};
use crate::report::{Assumption, AssumptionKind};

/// At most this many alternatives per chosen file: a directory of hundreds of values files
/// is not a set of choices for one command.
const MAX_ALTERNATIVES: usize = 8;

/// The largest values file read to tell what it is.
const MAX_VALUES_BYTES: usize = 4 << 20;

/// What is known of the repository's files.
pub struct Files<'a> {
    pub repo: &'a Path,
    pub files: &'a [RepoFile],
}

impl Files<'_> {
    fn kind(&self, path: &str) -> Option<Kind> {
        self.files.iter().find(|f| f.path == path).map(|f| f.kind)
    }

    /// The text of a repository file, read under the repository's read policy (a committed
    /// symlink to outside the repository or into `.git` reads nothing).
    fn text(&self, path: &str) -> Option<String> {
        crate::lint::discover::invocations::scripts::read(self.repo, path, MAX_VALUES_BYTES)
    }

    /// A YAML file of `@data/values` documents only.
    fn values_only(&self, path: &str) -> bool {
        self.kind(path) == Some(Kind::YttYaml)
            && self
                .text(path)
                .and_then(|t| supplementary::supplement(path, &t))
                .is_some_and(|s| s.only_values())
    }

    /// Plain YAML that is no Kubernetes object (a values file for `--data-values-file`).
    fn plain_values(&self, path: &str) -> bool {
        self.kind(path) == Some(Kind::PlainYaml)
            && self.text(path).is_some_and(|t| {
                !t.lines()
                    .any(|l| l.starts_with("apiVersion:") || l.starts_with("kind:"))
            })
    }

    /// The YAML files directly in `dir`.
    fn yaml_in(&self, dir: &str) -> Vec<&str> {
        self.files
            .iter()
            .filter(|f| paths::parent(&f.path) == dir)
            .filter(|f| f.path.ends_with(".yml") || f.path.ends_with(".yaml"))
            .map(|f| f.path.as_str())
            .collect()
    }

    fn holds_ytt(&self, dir: &str) -> bool {
        self.files
            .iter()
            .any(|f| paths::parent(&f.path) == dir && f.kind.is_ytt())
    }
}

/// How a chosen file is given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Given {
    /// `-f`: a file of `@data/values` documents.
    Input,
    /// `--data-values-file`: plain YAML.
    ValuesFile,
}

/// Adds the alternatives of the values files each learned root's commands choose, as
/// scenarios. Files any command reads are nobody's alternative.
pub fn add(roots: &mut [Root], invocations: &[Invocation], files: &Files) {
    let read = read_by_commands(invocations);
    for root in roots.iter_mut() {
        if !matches!(root.reason, Reason::Invocation { .. }) {
            continue;
        }
        let mut added = Vec::new();
        for sc in &root.scenarios {
            for (i, vf) in sc.values_files.iter().enumerate() {
                let Some(path) = plain_path(vf) else { continue };
                for alt in alternatives(path, Given::ValuesFile, &sc.values_files, &read, files) {
                    let mut new = sc.clone();
                    new.values_files[i] = vf.replace(path, &alt);
                    new.name = format!("{} with {alt}", sc.name);
                    substitute(&mut new, path, &alt);
                    added.push(new);
                }
            }
        }
        let inputs_alts = input_alternatives(root, &read, files);
        root.scenarios.extend(added);
        if let Some((chosen, alts)) = inputs_alts {
            choose_input(root, &chosen, &alts);
        }
    }
}

/// Marks `sc` as run with `alt` in the place of the `chosen` file its command names: the
/// command never reads `alt`, so what fails with it is the linter's guess of another
/// user's choice, never a certain finding of the command (an `example-values` assumption
/// naming the substitute).
fn substitute(sc: &mut ScenarioConfig, chosen: &str, alt: &str) {
    sc.inputs_known = false;
    sc.assumptions.push(Assumption::new(
        AssumptionKind::ExampleValues,
        format!("{alt} stands in for {chosen}, the values file the command names"),
    ));
}

/// Whether a directory's name says it holds examples to choose from (`example-values`,
/// `samples`).
fn names_examples(dir: &str) -> bool {
    let name = dir.rsplit('/').next().unwrap_or(dir).to_ascii_lowercase();
    name.contains("example") || name.contains("sample")
}

/// Whether a values file is named after another file of its directory, whose values it holds
/// (`package.values.yaml` for `package.yaml`): a pair, not an alternative.
fn pairs_with_template(path: &str, yaml: &[&str]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.trim_end_matches(".yaml").trim_end_matches(".yml");
    let base = ["values-", "values.", "values_"]
        .iter()
        .find_map(|p| stem.strip_prefix(p))
        .or_else(|| {
            ["-values", ".values", "_values"]
                .iter()
                .find_map(|s| stem.strip_suffix(s))
        });
    let Some(base) = base else {
        return false;
    };
    yaml.iter().any(|other| {
        let n = other.rsplit('/').next().unwrap_or(other);
        *other != path && (n == format!("{base}.yaml") || n == format!("{base}.yml"))
    })
}

/// The path of a `[@lib:][+:]path` values file argument, when it names no library.
fn plain_path(arg: &str) -> Option<&str> {
    if arg.starts_with('@') {
        return None;
    }
    Some(arg.strip_prefix("+:").unwrap_or(arg))
}

/// Every repository path the commands read.
fn read_by_commands(invocations: &[Invocation]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for inv in invocations {
        for i in &inv.inputs {
            out.insert(i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string());
        }
        for v in &inv.values_files {
            out.insert(v.rsplit(':').next().unwrap_or(v).to_string());
        }
        for (_, p) in &inv.value_files {
            out.insert(p.clone());
        }
    }
    out
}

/// The files of `chosen`'s directory that could stand in its place: the same kind of values
/// file, read by no command, when the command passes no other file of that directory.
fn alternatives(
    chosen: &str,
    given: Given,
    passed: &[String],
    read: &BTreeSet<String>,
    files: &Files,
) -> Vec<String> {
    let dir = paths::parent(chosen);
    let fits = |p: &str| match given {
        Given::Input => files.values_only(p),
        Given::ValuesFile => files.plain_values(p),
    };
    // The command passes one values file of the directory, not several layered ones.
    let same_dir = passed
        .iter()
        .filter_map(|p| plain_path(p))
        .filter(|p| paths::parent(p) == dir && fits(p))
        .count();
    // A directory a command reads whole is one input, not a set of choices.
    let whole = read.iter().any(|r| is_within(dir, r));
    if same_dir != 1 || whole || !fits(chosen) {
        return Vec::new();
    }
    let choices = match given {
        // `--data-values-file`: a directory of examples, and nothing else.
        Given::ValuesFile => names_examples(dir) && !files.holds_ytt(dir),
        // `-f`: a self-contained directory, its schema and templates passed with one values
        // file of it.
        Given::Input => passed.iter().all(|p| paths::parent(p) == dir),
    };
    if !choices {
        return Vec::new();
    }
    let yaml = files.yaml_in(dir);
    let alts: Vec<String> = yaml
        .iter()
        .filter(|p| **p != chosen && !read.contains(**p) && fits(p))
        .filter(|p| !pairs_with_template(p, &yaml))
        .map(|p| p.to_string())
        .collect();
    if alts.len() > MAX_ALTERNATIVES {
        return Vec::new();
    }
    alts
}

/// The one `-f` input of a root that is a values file with alternatives, and those.
fn input_alternatives(
    root: &Root,
    read: &BTreeSet<String>,
    files: &Files,
) -> Option<(String, Vec<String>)> {
    if !root.args.is_empty() {
        return None;
    }
    let mut found = None;
    for input in &root.inputs {
        let alts = alternatives(input, Given::Input, &root.inputs, read, files);
        if !alts.is_empty() {
            if found.is_some() {
                return None;
            }
            found = Some((input.clone(), alts));
        }
    }
    found
}

/// Gives each scenario the root's inputs as `-f` flags (which replace the inputs), once with
/// `chosen` and once with each of `alts` in its place. The root's inputs list the
/// alternatives too: the root reads them.
fn choose_input(root: &mut Root, chosen: &str, alts: &[String]) {
    let dir = learned_dir(root);
    let base: Vec<ScenarioConfig> = if root.scenarios.is_empty() {
        vec![ScenarioConfig::default()]
    } else {
        std::mem::take(&mut root.scenarios)
    };
    for sc in base {
        for file in std::iter::once(chosen).chain(alts.iter().map(String::as_str)) {
            let mut new = sc.clone();
            for input in &root.inputs {
                let given = if input == chosen {
                    file
                } else {
                    input.as_str()
                };
                new.args.push("-f".into());
                new.args.push(paths::between(&dir, given));
            }
            if file != chosen {
                new.name = format!("{} with {file}", sc.name);
                substitute(&mut new, chosen, file);
            }
            root.scenarios.push(new);
        }
    }
    root.inputs.extend(alts.iter().cloned());
}

/// The directory a learned root's flag paths are relative to: a file root's parent, or the
/// directory itself.
fn learned_dir(root: &Root) -> String {
    let is_file = [".yml", ".yaml", ".star", ".txt"]
        .iter()
        .any(|e| root.path.ends_with(e));
    if is_file {
        paths::parent(&root.path).to_string()
    } else {
        root.path.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_values_file_named_after_a_template_is_its_pair() {
        let yaml = [
            "dist/package.yaml",
            "dist/package.values.yaml",
            "dist/bundle.values.yaml",
            "demo/values-large.yaml",
        ];
        assert!(pairs_with_template("dist/package.values.yaml", &yaml));
        assert!(!pairs_with_template("dist/bundle.values.yaml", &yaml));
        assert!(!pairs_with_template("demo/values-large.yaml", &yaml));
    }

    #[test]
    fn example_directories_by_name() {
        assert!(names_examples("src/example-values"));
        assert!(names_examples("samples"));
        assert!(!names_examples("clusters/prod/values"));
    }
}
