//! Roots and scenarios learned from how the repository runs ytt: the commands that render the
//! same inputs are one root, each distinct set of data values and flags one scenario of it
//! (named after where the repository runs it), and the flags those commands pass
//! (`--ignore-unknown-comments`...) are learned for any root holding the same files.

use std::collections::{HashMap, HashSet};

use crate::files::paths::{self, is_within};
use crate::lint::config::ScenarioConfig;
use crate::lint::discover::invocations::resolve::{DataValue, Invocation, Skipped, ValuesDoc};
use crate::lint::discover::invocations::ytt_args::ValueKind;
use crate::lint::discover::{documented_values, Reason, Root};
use crate::report::Assumption;
use crate::yaml::Value;
use crate::ytt_flags::stdin_text::StdinText;

/// Flags learned for roots that hold the files a command renders with them.
const LEARNED_FLAGS: [&str; 2] = ["--ignore-unknown-comments", "--implicit-map-key-overrides"];

/// The roots the invocations give, and the inspections (which render nothing) as skipped.
/// Roots, their origins and scenarios are looked up by key, not compared one by one: a
/// repository may run ytt tens of thousands of times (the cap on scenarios comes later,
/// [`super::scenario_cap`]).
pub fn roots(invocations: &[Invocation]) -> (Vec<Root>, Vec<Skipped>) {
    let mut roots: Vec<Root> = Vec::new();
    let mut seen: Vec<Seen> = Vec::new();
    let mut by_inputs: HashMap<(Vec<String>, usize), usize> = HashMap::new();
    let mut skipped = Vec::new();
    for inv in invocations {
        if inv.inspect {
            skipped.push(Skipped {
                origin: inv.origin.clone(),
                reason: "it inspects data values or their schema and renders no template".into(),
                // An inspection renders nothing, so it says nothing of what else the files it
                // reads are rendered with: they stay in the roots that hold them. A file that
                // stands in for a copy the command reads (`cp schema.yaml bundle/config/`,
                // then `ytt -f bundle/config/schema.yaml --data-values-schema-inspect`) is
                // used where the copy is, with what is there: not in its own folder's root.
                claims: plain_inputs(inv)
                    .into_iter()
                    .filter(|i| inv.stand_ins.contains(i))
                    .collect(),
                placeholder: None,
                left_out: Vec::new(),
                got: None,
            });
            continue;
        }
        let inputs = plain_inputs(inv);
        let named = inv.inputs.iter().filter(|i| i.contains('=')).count();
        let i = match by_inputs.get(&(inputs.clone(), named)) {
            Some(&i) => i,
            None => {
                let root = new_root(inv, inputs.clone());
                // Commands with the same inputs are one root when as many of them are named
                // (`-f name=path`): the named inputs are among the root's flags.
                let key = (inputs, root.args.iter().filter(|a| a.contains('=')).count());
                roots.push(root);
                seen.push(Seen::default());
                by_inputs.entry(key).or_insert(roots.len() - 1);
                roots.len() - 1
            }
        };
        let (root, seen) = (&mut roots[i], &mut seen[i]);
        if let Reason::Invocation { origins } = &mut root.reason {
            if seen.origins.insert(inv.origin.to_string()) {
                origins.push(inv.origin.to_string());
            }
        }
        let mut sc = scenario(inv, &root.path);
        let key = values_key(&sc);
        match seen.scenarios.get(&key) {
            // One command that names the inputs makes them known, whatever guesses run the
            // same way (the script on its own, its `$1` bound to each values file).
            Some(&at) => {
                if let Some(same) = root.scenarios.get_mut(at) {
                    same.inputs_known |= sc.inputs_known;
                }
            }
            None => {
                let n = seen.names.entry(sc.origin.clone()).or_insert(0);
                if *n > 0 {
                    sc.name = format!("{} #{}", sc.name, *n + 1);
                }
                *n += 1;
                seen.scenarios.insert(key, root.scenarios.len());
                root.scenarios.push(sc);
            }
        }
    }
    // A command whose paths the linter filled in makes its root need input; a page's own
    // command only when nothing else runs the root. Either way a scenario whose command
    // names its inputs is judged as run (see `plan`).
    // A page's command known only because it gives its values in full is judged as run; it
    // does not make the page's other commands of the root judged so (the reader's values).
    for root in &mut roots {
        let unknown = |s: &ScenarioConfig| {
            !s.inputs_known || s.assumptions.iter().any(documented_values::is_own)
        };
        let bound = |s: &ScenarioConfig| unknown(s) && !s.origin.as_deref().is_some_and(documented);
        root.needs_input = root.scenarios.iter().any(bound) || root.scenarios.iter().all(unknown);
    }
    (roots, skipped)
}

/// Whether a command is given all its data values, some as the repository shows them to the
/// reader (an example copied, a page's block written): none is left to run time.
fn shows_values(inv: &Invocation) -> bool {
    inv.unknown.is_empty()
        && inv.values.iter().all(|v| v.value.is_some())
        && (inv
            .assumptions
            .iter()
            .any(|a| a.kind == crate::report::AssumptionKind::ExampleValues)
            || gives_example(inv))
}

/// Whether a command names an example file of the repository itself (`-f
/// examples/kind.yaml`, `--data-values-file samples/values.yml`): the page shows the reader
/// the values to run with, and ytt reads that file as the command gives it (a file without
/// `#@data/values` passed with `-f` is a template document, not data values).
fn gives_example(inv: &Invocation) -> bool {
    // The file's own name or its directory's (`values-example.yaml`,
    // `example-values/kind.yaml`), not a tree of examples (`examples/basic/values.yaml`
    // is a values file its page may tell the reader to edit first).
    let example = |p: &str| {
        let lower = p.to_ascii_lowercase();
        let mut segs = lower.rsplit('/');
        let (name, dir) = (segs.next().unwrap_or(""), segs.next().unwrap_or(""));
        let says = |s: &str| s.contains("example") || s.contains("sample");
        (name.ends_with(".yml") || name.ends_with(".yaml"))
            && (says(name) || (says(dir) && dir != "examples" && dir != "samples"))
    };
    plain_inputs(inv).iter().any(|p| example(p))
        || inv
            .values_files
            .iter()
            .any(|v| example(v.rsplit(':').next().unwrap_or(v)))
}

/// Whether a command gives every input itself. Not when the linter had to fill in its paths
/// (`$1` for each package: it may never be run for this root), nor when only a page shows
/// it: a README's `ytt` command often needs the reader's own values first ("update
/// values.yaml with your registry"). A script a page runs with arguments
/// (`./scripts/deploy.sh prod`) is the repository's own command: the page chose only the
/// arguments, and the script names the values files. Nor, for a page's own command, when
/// it leaves values to its reader, unless the page shows them (a block to save as the values
/// file, an example to copy): then they are the values every reader who follows it has, and
/// a failure with them is theirs too (a warning that names the values).
fn inputs_known(inv: &Invocation) -> bool {
    // A loop over a glob runs every entry: its binding is no guess (`glob_loop.rs`).
    let looped = |k: &str| crate::lint::discover::invocations::glob_loop::is_marker(k);
    (inv.values_choice || inv.binding.iter().all(|(k, _)| looped(k)))
        && (inv.scripted
            || !documented(&inv.origin.to_string())
            || shows_values(inv)
            || documented_values::given_in_full(inv))
}

/// Whether a command's origin (`file:line`) is a README.
fn documented(origin: &str) -> bool {
    let file = origin.rsplit_once(':').map_or(origin, |(f, _)| f);
    crate::lint::discover::invocations::readme::candidate(file)
        || crate::lint::discover::invocations::educates::candidate(file)
}

/// The inputs' repository paths, without `name=`.
pub(super) fn plain_inputs(inv: &Invocation) -> Vec<String> {
    inv.inputs
        .iter()
        .map(|i| i.split_once('=').map_or(i.as_str(), |(_, p)| p).to_string())
        .collect()
}

fn new_root(inv: &Invocation, inputs: Vec<String>) -> Root {
    let path = inputs.first().cloned().unwrap_or_else(|| ".".into());
    let dir = root_dir(&path, inv);
    // Named inputs (`-f name=path`) are given as flags; plain ones as the root's inputs.
    let mut args = Vec::new();
    if inv.inputs.iter().any(|i| i.contains('=')) {
        for i in &inv.inputs {
            let (name, p) = i.split_once('=').map_or(("", i.as_str()), |(n, p)| (n, p));
            let rel = paths::between(&dir, p);
            args.push("-f".to_string());
            args.push(if name.is_empty() {
                rel
            } else {
                format!("{name}={rel}")
            });
        }
    }
    Root {
        name: root_name(inv, &inputs),
        path,
        inputs,
        reason: Reason::Invocation {
            origins: Vec::new(),
        },
        args,
        scenarios: Vec::new(),
        needs_input: false,
    }
}

/// How a root is named: its inputs joined, the files standing for a folder the command's
/// copies assemble named by that folder once.
fn root_name(inv: &Invocation, inputs: &[String]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for i in inputs {
        let part = inv
            .assembled
            .iter()
            .find(|(_, files)| files.contains(i))
            .map_or(i.as_str(), |(label, _)| label.as_str());
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts.join(" + ")
}

/// The directory flags of a root are relative to: the root itself, or a file root's parent.
fn root_dir(path: &str, inv: &Invocation) -> String {
    // The path of a named input (`values.yaml=values.yaml.example`), whose last segment names
    // a template or data file (`values.yaml.example` too), or one of the files that stand for
    // a folder (`README.md=demo/README.md` of a tree a step moved).
    let is_file = inv.inputs.first().is_some_and(|i| {
        let p = i.split_once('=').map_or(i.as_str(), |(_, p)| p);
        if inv
            .assembled
            .iter()
            .any(|(_, files)| files.iter().any(|f| f == p))
        {
            return true;
        }
        let last = p.rsplit('/').next().unwrap_or(p);
        [".yml", ".yaml", ".star", ".txt", ".json"]
            .iter()
            .any(|ext| last.ends_with(ext) || last.contains(&format!("{ext}.")))
    });
    if is_file {
        paths::parent(path).to_string()
    } else {
        path.to_string()
    }
}

/// One invocation's data values and flags as a scenario.
fn scenario(inv: &Invocation, root_path: &str) -> ScenarioConfig {
    let dir = root_dir(root_path, inv);
    let mut args = inv.flags.clone();
    for m in &inv.file_marks {
        args.push("--file-mark".into());
        args.push(m.clone());
    }
    for (key, path) in &inv.value_files {
        args.push("--data-value-file".into());
        args.push(format!("{key}={}", paths::between(&dir, path)));
    }
    let mut provided = Vec::new();
    let mut data_values = Vec::new();
    let mut stdin = None;
    for doc in &inv.values_docs {
        // On standard input, ytt reads the document as the file `stdin.yml` and overlays it
        // on the values before it: given so, its leaves that hold an expansion at run time.
        let read = values_of(doc);
        let file = match (&read, doc.stdin && stdin.is_none()) {
            (Some(_), true) => {
                StdinText::at(&doc.origin, &doc.text).map(|t| t.read_after(doc.after))
            }
            _ => None,
        };
        if let (Some(values), Some(file)) = (&read, file) {
            for (key, value, _) in values {
                if doc.expanded && holds_expansion(value) {
                    let _ = split_expanded(key, value, &mut provided);
                }
            }
            stdin = Some(file);
            continue;
        }
        match read {
            Some(values) => {
                for (key, value, loc) in values {
                    // `content_index: $INDEX` of a here-document is known only at run time;
                    // in a map, only the leaves that hold an expansion (`app: {team:
                    // ${TEAM}}` gives `app.team`).
                    if doc.expanded && holds_expansion(&value) {
                        if let Some(rest) = split_expanded(&key, &value, &mut provided) {
                            data_values.push((key, rest, loc));
                        }
                    } else {
                        data_values.push((key, value, loc));
                    }
                }
            }
            None => provided.push("*".to_string()),
        }
    }
    let mut values_written = Vec::new();
    let mut string_values = Vec::new();
    for dv in &inv.values {
        match value_of(dv) {
            Some(v) => {
                if let Some(at) = &dv.written {
                    values_written.push((dv.key.clone(), at.clone()));
                }
                if dv.kind == ValueKind::String {
                    string_values.push(data_values.len());
                }
                data_values.push((dv.key.clone(), v, Default::default()))
            }
            None => provided.push(dv.key.clone()),
        }
    }
    if !inv.unknown.is_empty() && !provided.iter().any(|p| p == "*") {
        provided.push("*".to_string());
    }
    let origin = inv.origin.to_string();
    ScenarioConfig {
        name: origin.clone(),
        values_files: inv.values_files.clone(),
        data_values,
        string_values,
        args,
        provided,
        origin: Some(origin),
        assumptions: assumptions(inv),
        inputs_known: inputs_known(inv),
        split_output: inv.split_output,
        output_deployed: inv.output_deployed.clone(),
        output_compared: inv.output_compared.clone(),
        stdin,
        values_written,
        needs_input: None,
        loc: Default::default(),
    }
}

/// What was assumed to lint a command: discovery's assumptions, and for a page's own command
/// given its values in full, that they are the reader's.
fn assumptions(inv: &Invocation) -> Vec<Assumption> {
    let mut out = inv.assumptions.clone();
    if !inv.scripted && documented(&inv.origin.to_string()) && documented_values::given_in_full(inv)
    {
        out.push(documented_values::assumption(inv));
    }
    out
}

/// Whether a value holds a string the shell would expand (`$VAR`, `$(cmd)`).
fn holds_expansion(v: &Value) -> bool {
    match v {
        Value::String(s) => s.contains('$'),
        Value::Map(m) => m.items.iter().any(|i| holds_expansion(&i.value)),
        Value::Array(a) => a.items.iter().any(|i| holds_expansion(&i.value)),
        _ => false,
    }
}

/// Records in `provided` the dotted keys under `key` of `value`'s leaves that hold an
/// expansion (the whole `key` when `value` is no map, or a key holds a `.`), and returns what
/// is left of a map without them, if anything.
fn split_expanded(key: &str, value: &Value, provided: &mut Vec<String>) -> Option<Value> {
    let Value::Map(m) = value else {
        provided.push(key.to_string());
        return None;
    };
    let keys: Vec<String> = m
        .items
        .iter()
        .map(|i| crate::yaml::scalar_key_string(&i.key))
        .collect();
    if keys.iter().any(|k| k.contains('.') || k.is_empty()) {
        provided.push(key.to_string());
        return None;
    }
    let mut rest = m.clone();
    rest.items.clear();
    for (item, k) in m.items.iter().zip(&keys) {
        if !holds_expansion(&item.value) {
            rest.items.push(item.clone());
            continue;
        }
        if let Some(v) = split_expanded(&format!("{key}.{k}"), &item.value, provided) {
            let mut kept = item.clone();
            kept.value = v;
            rest.items.push(kept);
        }
    }
    (!rest.items.is_empty()).then_some(Value::Map(rest))
}

/// The top-level data values of text given in place of a values file (`#@data/values`
/// documents or plain YAML), in order; `None` when the text is no YAML map.
fn values_of(doc: &ValuesDoc) -> Option<Vec<(String, Value, crate::lint::config::Loc)>> {
    let entries = doc.entries()?;
    Some(
        entries
            .into_iter()
            .map(|(key, value)| (key, value, Default::default()))
            .collect(),
    )
}

/// A literal data value as the scenario's YAML value (`-v` gives a string).
fn value_of(dv: &DataValue) -> Option<Value> {
    let text = dv.value.as_ref()?;
    match dv.kind {
        ValueKind::String => Some(Value::String(text.clone())),
        ValueKind::Yaml => crate::ytt_flags::data_values::parse_yaml_value(text, false).ok(),
    }
}

/// What makes two scenarios the same (their values, files, flags, provided values and
/// assumptions; not their name or origin), as a key.
fn values_key(sc: &ScenarioConfig) -> String {
    format!(
        "{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}\0{:?}",
        sc.values_files,
        sc.data_values,
        sc.string_values,
        sc.args,
        sc.provided,
        sc.assumptions,
        sc.stdin
    )
}

/// What a root learned so far: its origins, its scenarios' keys, how many of its scenarios
/// each origin gave.
#[derive(Default)]
struct Seen {
    origins: HashSet<String>,
    scenarios: HashMap<String, usize>,
    names: HashMap<Option<String>, usize>,
}

/// Flags the invocations use with files of `root`, to lint it the way it is run. A root the
/// commands make is run with each command's own flags (one scenario each), not with those of
/// all of them.
pub fn flags_for(root: &Root, invocations: &[Invocation]) -> Vec<String> {
    let mut out = Vec::new();
    if matches!(root.reason, Reason::Invocation { .. }) {
        return out;
    }
    for inv in invocations {
        let touches = plain_inputs(inv).iter().any(|i| {
            root.inputs
                .iter()
                .any(|r| is_within(i, r) || is_within(r, i))
        });
        if !touches {
            continue;
        }
        for f in &inv.flags {
            if LEARNED_FLAGS.contains(&f.as_str()) && !out.contains(f) && !root.args.contains(f) {
                out.push(f.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::invocations::resolve::Origin;

    fn inv(file: &str, line: u32, inputs: &[&str], values: &[(&str, Option<&str>)]) -> Invocation {
        Invocation {
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            values: values
                .iter()
                .map(|(k, v)| DataValue {
                    kind: ValueKind::String,
                    key: k.to_string(),
                    value: v.map(str::to_string),
                    written: None,
                })
                .collect(),
            flags: vec!["--ignore-unknown-comments".into()],
            ..Invocation::new(Origin {
                file: file.into(),
                line,
            })
        }
    }

    #[test]
    fn a_here_document_s_expanded_leaves_are_given_at_run_time_and_the_rest_as_written() {
        let mut i = inv("image/start.sh", 11, &["image/templates"], &[]);
        i.values_docs.push(ValuesDoc {
            origin: "image/start.sh:5".into(),
            text: "#@data/values\n---\napp:\n  team: ${TEAM}\n  stage: ${STAGE}\n  replicas: 2\nregion: $REGION\nmode: fixed\n".into(),
            expanded: true,
            stdin: false,
            after: 0,
        });
        let s = scenario(&i, "image/templates");
        assert_eq!(s.provided, vec!["app.team", "app.stage", "region"]);
        let given: Vec<(&str, String)> = s
            .data_values
            .iter()
            .map(|(k, v, _)| {
                (
                    k.as_str(),
                    crate::yaml::json::value_to_json(v, 0, false).unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(given.len(), 2, "{given:?}");
        assert_eq!(given[0].0, "app");
        assert!(
            given[0].1.contains("replicas") && !given[0].1.contains("team"),
            "{given:?}"
        );
        assert_eq!(given[1].0, "mode");
    }

    #[test]
    fn commands_with_the_same_inputs_are_scenarios_of_one_root() {
        let invs = vec![
            inv("hack/build.sh", 17, &["config/config", "config-dev"], &[]),
            inv(
                "hack/deploy.sh",
                8,
                &["config/config", "config-dev"],
                &[("dev.version", None)],
            ),
            inv(
                "hack/deploy-test.sh",
                7,
                &["config/config", "config-dev"],
                &[("dev.version", None)],
            ),
            inv(
                "Taskfile.yml",
                3,
                &["package/config"],
                &[("k8s", Some("1.30"))],
            ),
        ];
        let (roots, skipped) = roots(&invs);
        assert!(skipped.is_empty());
        assert_eq!(roots.len(), 2);
        assert_eq!(roots[0].name, "config/config + config-dev");
        let names: Vec<&str> = roots[0].scenarios.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["hack/build.sh:17", "hack/deploy.sh:8"]);
        assert_eq!(roots[0].scenarios[1].provided, vec!["dev.version"]);
        assert_eq!(
            roots[0].reason,
            Reason::Invocation {
                origins: vec![
                    "hack/build.sh:17".into(),
                    "hack/deploy.sh:8".into(),
                    "hack/deploy-test.sh:7".into()
                ]
            }
        );
        assert_eq!(
            roots[1].scenarios[0].data_values[0].1,
            Value::String("1.30".into())
        );
        let topmost = Root {
            name: "config".into(),
            path: "config".into(),
            inputs: vec!["config".into()],
            reason: Reason::Topmost,
            args: Vec::new(),
            scenarios: Vec::new(),
            needs_input: true,
        };
        assert_eq!(
            flags_for(&topmost, &invs),
            vec!["--ignore-unknown-comments"]
        );
    }

    #[test]
    fn named_inputs_are_given_relative_to_a_file_root_s_directory() {
        // An example standing in for the user's copy, named as the command names it: the
        // flags are relative to the top, where the engine reads them, not to the file.
        let i = inv(
            "env-install.sh",
            4,
            &["values.yaml=values.yaml.example", "grafana/t.yml"],
            &[],
        );
        let root = new_root(&i, plain_inputs(&i));
        assert_eq!(root.path, "values.yaml.example");
        assert_eq!(
            root.args,
            vec![
                "-f",
                "values.yaml=values.yaml.example",
                "-f",
                "grafana/t.yml"
            ]
        );
        let d = inv("x.sh", 1, &["lib=config/lib", "config/app"], &[]);
        assert_eq!(root_dir("config/lib", &d), "config/lib");
    }
}
