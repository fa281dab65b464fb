//! `.star` files of other Starlark tools. Starlark is not ytt's alone: lockal's `lockal.star`,
//! Bazel's and Buck's `BUILD.star`, Drone's `.drone.star`, Cirrus CI's `.cirrus.star`,
//! shalm's `Chart.star`, a Kurtosis package's `main.star` are read by those tools, with
//! builtins of their own (`executable(...)`, `cc_library(...)`). ytt evaluates a `.star` file
//! only when a template loads it, so a `.star` file that no ytt file loads and no ytt command
//! names is no ytt module when it shows another tool's signs: its name, a load of another
//! tool's module (`//pkg:defs.bzl`, `ext://...`), or a call at its top level of a name it
//! neither defines nor loads and that Starlark does not have. Discovery makes no root of it;
//! one note says why (naming the tool when the name tells). A file with any sign of ytt (a
//! `load("@ytt:...")`, `data.values`) stays ytt's, except in a shalm chart
//! ([`crate::lint::discover::shalm`]): shalm gives its `.star` files ytt's modules too, and
//! one there with a `def` and no `end` is written for shalm's Python-indented dialect.

use std::collections::BTreeSet;
use std::path::Path;

use crate::lint::discover::invocations::scripts;
use crate::lint::discover::wrappers::{self, Wrapper};
use crate::lint::discover::Root;
use crate::lint::repo::walk::{Kind, RepoFile};

/// Files read at most this long, to judge them.
const MAX: usize = 1 << 20;

/// File names of other Starlark tools, and the tool.
const NAMES: [(&str, &str); 6] = [
    ("lockal.star", "lockal"),
    ("BUILD.star", "Bazel or Buck"),
    ("WORKSPACE.star", "Bazel"),
    (".drone.star", "Drone"),
    (".cirrus.star", "Cirrus CI"),
    ("Chart.star", "shalm"),
];

/// Starlark's own functions (a top-level call of one is no sign of another tool).
const UNIVERSE: [&str; 30] = [
    "print",
    "fail",
    "len",
    "range",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "tuple",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "any",
    "all",
    "min",
    "max",
    "hasattr",
    "getattr",
    "type",
    "repr",
    "hash",
    "dir",
    "abs",
    "chr",
    "ord",
    "set",
    "struct",
];

/// Why a `.star` file is another tool's, in a few words (`shalm`: the shalm chart that holds
/// it, if one does).
fn sign(path: &str, text: &str, files: &BTreeSet<&str>, shalm: Option<&Wrapper>) -> Option<String> {
    if let Some(chart) = shalm.filter(|_| python_indented(text)) {
        return Some(format!(
            "shalm's Starlark (the chart of {}; it has a `def` block and no `end`, which ytt requires)",
            chart.marker
        ));
    }
    if text.contains("@ytt:") || text.contains("data.values") {
        return None;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let dir = crate::files::paths::parent(path);
    let beside = |f: &str| match dir {
        "" | "." => f.to_string(),
        d => format!("{d}/{f}"),
    };
    if let Some((_, tool)) = NAMES.iter().find(|(n, _)| *n == name) {
        return Some(format!("the file of {tool}"));
    }
    if ["kurtosis.yml", "kurtosis.yaml"]
        .iter()
        .any(|k| files.contains(beside(k).as_str()))
    {
        return Some("a Kurtosis package's file (kurtosis.yml beside it)".to_string());
    }
    for module in loaded_modules(text) {
        if module.starts_with("ext://") {
            return Some(format!("a Tilt file (it loads `{module}`)"));
        }
        if module.starts_with("//") || module.contains("//") || module.ends_with(".bzl") {
            return Some(format!("a Bazel or Buck file (it loads `{module}`)"));
        }
    }
    foreign_call(text).map(|f| {
        format!(
            "another Starlark tool's file (it calls `{f}`, which neither ytt nor the file defines)"
        )
    })
}

/// Whether the text defines a function and closes no block with `end`, as Python and shalm
/// do and ytt does not.
fn python_indented(text: &str) -> bool {
    let def = text.lines().any(|l| l.trim_start().starts_with("def "));
    def && !text.lines().any(|l| l.trim() == "end")
}

/// The module strings of the file's `load(...)` statements.
fn loaded_modules(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("load("))
        .filter_map(|rest| {
            let q = rest
                .trim_start()
                .chars()
                .next()
                .filter(|c| *c == '"' || *c == '\'')?;
            let inner = &rest.trim_start()[1..];
            inner.find(q).map(|end| inner[..end].to_string())
        })
        .collect()
}

/// The first name the file calls as a statement at its top level (`NAME(` at the start of a
/// line) that it neither defines nor loads and Starlark does not have.
fn foreign_call(text: &str) -> Option<String> {
    let mut bound: BTreeSet<String> = BTreeSet::new();
    let mut at = 0usize;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("def ") {
            bound.insert(ident(rest).to_string());
        } else if line.starts_with("load(") {
            // The names a load binds, on as many lines as it takes.
            let call = &text[at..];
            let call = &call[..call.find(')').unwrap_or(call.len())];
            for part in call["load(".len()..].split(',').skip(1) {
                let name = part.split('=').next().unwrap_or("").trim();
                let name = name.trim_matches(|c| c == '"' || c == '\'');
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    bound.insert(name.to_string());
                }
            }
        } else {
            let id = ident(line);
            if !id.is_empty() && line[id.len()..].trim_start().starts_with('=') {
                bound.insert(id.to_string());
            }
        }
        at += line.len();
    }
    text.lines().find_map(|line| {
        let id = ident(line);
        let called = !id.is_empty() && line[id.len()..].starts_with('(');
        let keyword = matches!(id, "def" | "load" | "if" | "for" | "return" | "not");
        (called && !keyword && !bound.contains(id) && !UNIVERSE.contains(&id))
            .then(|| id.to_string())
    })
}

/// The identifier at the start of `s` (empty when none).
fn ident(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_alphanumeric() || *c == '_') || (*i == 0 && c.is_ascii_digit()))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    &s[..end]
}

/// Whether a ytt file of `others` loads the file at `path` (its name in a `load(`).
fn loaded(path: &str, others: &[(&str, String)]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    others.iter().any(|(p, text)| {
        *p != path
            && text.contains("load(")
            && (text.contains(&format!("{name}\"")) || text.contains(&format!("{name}'")))
    })
}

/// `files` without the `.star` files of other tools that nothing of ytt reads (`commands`:
/// the roots of the repository's ytt commands), and one note for each.
pub fn set_aside(
    repo: &Path,
    files: &[RepoFile],
    commands: &[Root],
    around: &[Wrapper],
) -> (Vec<RepoFile>, Vec<String>) {
    let shalm: Vec<Wrapper> = around
        .iter()
        .filter(|w| w.tool == "shalm")
        .cloned()
        .collect();
    let named = |p: &str| commands.iter().any(|r| r.inputs.iter().any(|i| i == p));
    let all: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let candidates: Vec<(&RepoFile, String)> = files
        .iter()
        .filter(|f| f.kind == Kind::Starlark && !named(&f.path))
        .filter_map(|f| {
            let text = scripts::read(repo, &f.path, MAX)?;
            let chart = wrappers::around(&shalm, &f.path);
            sign(&f.path, &text, &all, chart).map(|why| (f, why))
        })
        .collect();
    if candidates.is_empty() {
        return (files.to_vec(), Vec::new());
    }
    let others: Vec<(&str, String)> = files
        .iter()
        .filter(|f| f.kind.is_ytt())
        .filter_map(|f| Some((f.path.as_str(), scripts::read(repo, &f.path, MAX)?)))
        .collect();
    let mut left: BTreeSet<&str> = BTreeSet::new();
    let mut notes = Vec::new();
    for (f, why) in candidates {
        if loaded(&f.path, &others) {
            continue;
        }
        left.insert(&f.path);
        notes.push(format!(
            "{}: not a ytt file: {why}; no ytt file loads it and no ytt command gives it (list it under roots in .yttlint.yaml to lint it)",
            f.path
        ));
    }
    let kept = files
        .iter()
        .filter(|f| !left.contains(f.path.as_str()))
        .cloned()
        .collect();
    (kept, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> BTreeSet<&'static str> {
        BTreeSet::new()
    }

    #[test]
    fn another_tool_s_file_is_told_by_its_name_its_loads_or_its_calls() {
        let lockal = "executable(\n  name = \"bin/kapp\",\n)\n";
        assert_eq!(
            sign("lockal.star", lockal, &none(), None).as_deref(),
            Some("the file of lockal")
        );
        assert_eq!(
            sign("tools/pins.star", lockal, &none(), None).as_deref(),
            Some("another Starlark tool's file (it calls `executable`, which neither ytt nor the file defines)")
        );
        let bazel = "load(\"//build:defs.bzl\", \"go_binary\")\ngo_binary(name = \"x\")\n";
        assert!(sign("cmd/BUILD.star", bazel, &none(), None).is_some());
        assert!(
            sign("cmd/x.star", bazel, &none(), None).is_some_and(|w| w.contains("Bazel or Buck"))
        );
        let tilt = "load('ext://restart_process', 'docker_build_with_restart')\n";
        assert!(sign("dev/tilt.star", tilt, &none(), None).is_some_and(|w| w.contains("Tilt")));
        let mut files = BTreeSet::new();
        files.insert("pkg/kurtosis.yml");
        assert!(sign("pkg/main.star", "def run(plan):\n  pass\n", &files, None).is_some());
    }

    #[test]
    fn a_ytt_module_is_not_another_tool_s() {
        // Helpers that define what they call, Starlark's own functions, ytt's modules.
        for text in [
            "def labels(name):\n  return {\"app\": name}\nend\n",
            "load(\"helpers.star\", \"labels\")\nx = labels(\"a\")\nprint(x)\n",
            "load(\"@ytt:data\", \"data\")\nexecutable(data.values.x)\n",
            "def f():\n  return 1\nend\nf()\n",
            "fmt = struct.make(a=1)\n",
            "load(\"helpers.star\",\n  \"labels\",\n  l2 = \"more\")\nlabels()\nl2()\n",
        ] {
            assert_eq!(
                sign("lib/helpers.star", text, &none(), None),
                None,
                "{text}"
            );
        }
        // A known name that uses ytt is ytt's.
        assert_eq!(
            sign(
                "Chart.star",
                "load(\"@ytt:data\", \"data\")\n",
                &none(),
                None
            ),
            None
        );
    }

    #[test]
    fn in_a_shalm_chart_a_star_file_without_end_is_shalm_s() {
        let chart = Wrapper {
            tool: "shalm",
            dir: ".".into(),
            marker: "Chart.star".into(),
            gives: "the chart object",
            binds: &["self"],
        };
        let python = "load(\"@ytt:yaml\", \"yaml\")\ndef f():\n    return yaml.decode(\"a: 1\")\n";
        assert!(sign("tools/f.star", python, &none(), Some(&chart))
            .is_some_and(|w| w.starts_with("shalm's Starlark (the chart of Chart.star")));
        // ytt's dialect (with `end`) in a chart stays ytt's; outside a chart so does the other.
        let ytt = "load(\"@ytt:yaml\", \"yaml\")\ndef f():\n  return 1\nend\n";
        assert_eq!(sign("tools/f.star", ytt, &none(), Some(&chart)), None);
        assert_eq!(sign("tools/f.star", python, &none(), None), None);
    }

    #[test]
    fn a_file_a_template_loads_is_ytt_s() {
        let others = vec![(
            "config/app.yml",
            "#@ load(\"/tools/pins.star\", \"x\")\n".to_string(),
        )];
        assert!(loaded("tools/pins.star", &others));
        assert!(!loaded("lockal.star", &others));
    }
}
