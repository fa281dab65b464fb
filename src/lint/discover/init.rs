//! `yttlint init`: a `.yttlint.yaml` written from what discovery found, so that a repository
//! starts from how it runs ytt and can then be edited: every root with its inputs, learned
//! flags and scenarios (each with a comment saying where the repository runs it), roots nobody
//! declares marked `unset_values: needs-input`, and directories only checked on their own
//! marked `evaluate: false`. Linting with the file gives the findings the run without it
//! gives.

use std::fmt::Write;

use crate::files::paths;
use crate::lint::config::ScenarioConfig;
use crate::lint::discover::provenance::{self, Around};
use crate::lint::discover::{Discovery, Library, Reason, Root};
use crate::report::Assumption;
use crate::yaml::json::value_to_json;

/// The configuration text for what `d` found.
pub fn config_text(d: &Discovery) -> String {
    let mut out = String::from(
        "# Written by `yttlint init` from how this repository runs ytt (its scripts, Makefiles\n\
         # and CI files), its Package resources and its ytt files. Edit it freely: roots listed\n\
         # here are the only ones linted. Keys: see yttlint's README.\n",
    );
    if d.roots.is_empty() && d.libraries.iter().all(|l| l.partial.is_none()) {
        out.push_str("roots: []\n");
        return out;
    }
    out.push_str("roots:\n");
    // Each root once by name: discovery may find one path twice (a README's command and an
    // App's step), which the configuration tells apart by a name.
    let mut named: Vec<String> = Vec::new();
    for root in &d.roots {
        let mut root = root.clone();
        if named.contains(&root.name) {
            root.name = format!("{} ({})", root.name, first_origin(&root));
        }
        named.push(root.name.clone());
        write_root(&mut out, &root, &d.around());
    }
    for lib in d.libraries.iter().filter(|l| l.partial.is_some()) {
        write_library(&mut out, lib);
    }
    if !d.skipped.is_empty() {
        out.push_str("# Commands of the repository that are not linted:\n");
        for s in &d.skipped {
            let _ = writeln!(out, "#   {}: {}", s.origin, s.reason);
        }
    }
    out
}

/// Where the repository runs `root` first (`hack/build.sh:3`, a Package's place).
fn first_origin(root: &Root) -> String {
    match &root.reason {
        Reason::Invocation { origins } => origins.first().cloned().unwrap_or_default(),
        Reason::Package { file, line, .. } => format!("{file}:{line}"),
        other => other.to_string(),
    }
}

/// A YAML string: JSON's double-quoted form, which YAML reads the same way.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

fn list(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|i| quoted(i)).collect();
    format!("[{}]", q.join(", "))
}

/// The directory the `-f` arguments of a root are relative to: the root, or the directory
/// of a root that is a file.
fn base_dir(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let file = [".yml", ".yaml", ".star", ".txt", ".json"]
        .iter()
        .any(|e| name.ends_with(e));
    if file {
        paths::parent(path).to_string()
    } else {
        path.to_string()
    }
}

fn write_root(out: &mut String, root: &Root, around: &Around) {
    let why = match &root.reason {
        Reason::Invocation { origins } => format!("run by {}", origins.join(", ")),
        other => other.to_string(),
    };
    let _ = writeln!(out, "  # {why}");
    let _ = writeln!(out, "  - path: {}", quoted(&root.path));
    if let Reason::Package { file, line, .. } = &root.reason {
        let _ = writeln!(out, "    package: {}", quoted(&format!("{file}:{line}")));
    }
    if root.name != root.path {
        let _ = writeln!(out, "    name: {}", quoted(&root.name));
    }
    let mut args = Vec::new();
    let is_file_flag = |a: &String| a == "-f" || a == "--file";
    // Scenarios that each give the inputs (one of several values files) replace them.
    let chosen = !root.scenarios.is_empty()
        && root
            .scenarios
            .iter()
            .all(|s| s.args.iter().any(is_file_flag));
    let explicit = chosen || root.args.iter().any(is_file_flag);
    if root.inputs != [root.path.clone()] && !explicit {
        let base = base_dir(&root.path);
        for i in &root.inputs {
            args.push("-f".to_string());
            args.push(paths::between(&base, i));
        }
    }
    args.extend(root.args.iter().cloned());
    if !args.is_empty() {
        let _ = writeln!(out, "    args: {}", list(&args));
    }
    if root.needs_input {
        out.push_str("    unset_values: needs-input   # nothing declares its inputs\n");
    }
    // What discovery assumed of the root's command (inferred from the layout, a tool that
    // wraps ytt): the findings that rest on it stay as unsure as without the file.
    let assumed = provenance::of(root, None, around, None).assumptions;
    write_assumes(out, "    ", &assumed);
    if !root.scenarios.is_empty() {
        out.push_str("    scenarios:\n");
        for sc in &root.scenarios {
            write_scenario(out, sc, root.needs_input, root.inputs.len());
        }
    }
}

/// `assumes:` with one `KIND: what` entry per assumption, at `indent`.
fn write_assumes(out: &mut String, indent: &str, assumed: &[Assumption]) {
    if assumed.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{indent}assumes:   # what nobody confirmed; delete an entry to confirm it"
    );
    for a in assumed {
        let _ = writeln!(out, "{indent}  - {}: {}", a.kind.id(), quoted(&a.message));
        // What it is about, as data the linter acts on (JSON is YAML's flow style).
        if let Some(about) = a
            .subject
            .as_ref()
            .and_then(|s| serde_json::to_string(s).ok())
        {
            let _ = writeln!(out, "{indent}    about: {about}");
        }
    }
}

fn write_scenario(out: &mut String, sc: &ScenarioConfig, root_needs_input: bool, inputs: usize) {
    let _ = writeln!(out, "      - name: {}", quoted(&sc.name));
    if let Some(origin) = &sc.origin {
        let _ = writeln!(out, "        origin: {}", quoted(origin));
    }
    if !sc.values_files.is_empty() {
        let _ = writeln!(out, "        values_files: {}", list(&sc.values_files));
    }
    if !sc.data_values.is_empty() {
        out.push_str("        data_values:\n");
        for (key, value, _) in &sc.data_values {
            let v = value_to_json(value, 0, false).unwrap_or_else(|_| "null".to_string());
            let _ = writeln!(out, "          {}: {v}", quoted(key));
        }
    }
    if let Some(t) = &sc.stdin {
        let _ = writeln!(
            out,
            "        # what the command reads on standard input (ytt's stdin.yml), from {}:{}",
            t.file, t.line
        );
        // Before some of the root's inputs: where (after all of them goes without saying).
        if let Some(n) = t.after.filter(|n| *n < inputs) {
            let _ = writeln!(
                out,
                "        stdin_after: {n}                     # read after the first {n} -f inputs"
            );
        }
        out.push_str("        stdin: |\n");
        for line in t.text.lines() {
            match line.is_empty() {
                true => out.push('\n'),
                false => {
                    let _ = writeln!(out, "          {line}");
                }
            }
        }
    }
    if !sc.args.is_empty() {
        let _ = writeln!(out, "        args: {}", list(&sc.args));
    }
    if !sc.provided.is_empty() {
        let _ = writeln!(
            out,
            "        provided: {}   # given at run time; the linter uses placeholders",
            list(&sc.provided)
        );
    }
    if root_needs_input && sc.inputs_known {
        out.push_str("        unset_values: error   # the command gives every input itself\n");
    }
    write_assumes(out, "        ", &sc.assumptions);
}

fn write_library(out: &mut String, lib: &Library) {
    let why = lib.partial.as_deref().unwrap_or("");
    let _ = writeln!(out, "  # checked on its own, not evaluated: {why}");
    let _ = writeln!(out, "  - path: {}", quoted(&lib.path));
    out.push_str("    evaluate: false\n");
    let mut args = Vec::new();
    if !lib.files.is_empty() && lib.files != [lib.path.clone()] {
        // Relative to the directory of a library that is a file, as the root's `args`.
        let base = base_dir(&lib.path);
        for f in &lib.files {
            args.push("-f".to_string());
            args.push(paths::between(&base, f));
        }
    }
    args.extend(lib.flags.iter().cloned());
    if !args.is_empty() {
        let _ = writeln!(out, "    args: {}", list(&args));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::Value;

    #[test]
    fn roots_scenarios_and_partial_directories() {
        let mut root = Root::found(
            "config/config",
            Reason::Invocation {
                origins: vec!["hack/build.sh:17".into()],
            },
        );
        root.name = "config/config + config-dev".into();
        root.inputs = vec!["config/config".into(), "config-dev".into()];
        root.needs_input = false;
        root.scenarios.push(ScenarioConfig {
            name: "hack/build.sh:17".into(),
            origin: Some("hack/build.sh:17".into()),
            data_values: vec![("dev.push".into(), Value::Bool(true), Default::default())],
            provided: vec!["dev.version".into()],
            ..ScenarioConfig::default()
        });
        let d = Discovery {
            roots: vec![root],
            libraries: vec![Library {
                path: "overlays".into(),
                partial: Some("only overlays".into()),
                files: vec!["overlays/a.yml".into()],
                ..Library::default()
            }],
            ..Discovery::default()
        };
        let text = config_text(&d);
        assert!(text.contains("  # run by hack/build.sh:17\n  - path: \"config/config\"\n    name: \"config/config + config-dev\"\n    args: [\"-f\", \".\", \"-f\", \"../../config-dev\"]\n"), "{text}");
        assert!(text.contains("          \"dev.push\": true\n"));
        assert!(text.contains("        provided: [\"dev.version\"]"));
        assert!(text.contains(
            "  - path: \"overlays\"\n    evaluate: false\n    args: [\"-f\", \"a.yml\"]\n"
        ));
        let parsed = crate::lint::config::parse::parse(
            &text,
            ".yttlint.yaml",
            std::path::Path::new("/nonexistent"),
        );
        // Paths must exist on disk to parse; the text itself is valid YAML with known keys.
        assert!(parsed.is_err_and(|e| e.message.contains("does not exist")));
    }
}
