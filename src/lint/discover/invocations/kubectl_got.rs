//! A file a script writes with `kubectl get KIND NAME -o yaml > current.yaml`, then gives ytt
//! with overlays (`ytt -f current.yaml -f overlay.yaml`, round fifty's R50-1). What the cluster
//! holds is unknown, but the shape of what kubectl prints is not: with a name, one object of
//! that kind (its `kind`, the kind's group in `apiVersion`, `metadata.name` the name when it
//! is literal); without one (or with a selector, `-A`, several names), a `List`. The command
//! stays skipped (its other fields are unknown), but an overlay whose document-level matcher
//! cannot match that object whatever its other fields, with an `expects` that does not allow
//! zero matches, fails for certain: ytt stops there with "Expected number of matched nodes to
//! be 1, but was 0". That is reported, at the overlay's line, as a warning naming the shape it
//! rests on (a `command-output` assumption).
//!
//! Judged only where nothing else can change the outcome: the command's other inputs are
//! files of the repository whose every document is an overlay, whose `#@` lines are only
//! `load("@ytt:overlay", …)` and `@overlay/…` annotations, and whose document matchers are
//! `overlay.subset({...})` of literals (or `and_op` of them), each checked against the known
//! fields; any other matcher, document or code leaves the command as it was (quiet).

use super::made::{self, Fit};
use super::resolve::{Repo, Skipped};
use super::word::Word;
use crate::lint::discover::provenance::source_of;
use crate::report::{Assumption, AssumptionKind, Basis, Diagnostic, Provenance, Rule, Span};
use crate::yaml::Value;

/// The most input files judged, and the largest.
const MAX_FILES: usize = 16;

/// What a `kubectl get … -o yaml` command prints, by its words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Got {
    /// The resource as written (`packageinstall`, `deploy`, `apps.deployments`).
    pub resource: String,
    /// The object's name, when one is named: `Some(None)` when it is known only at run time
    /// (`"$name"`). `None`: a `List`.
    pub name: Option<Option<String>>,
}

/// The fields of a [`Got`] that are known: kind, apiVersion (when the kind's group has one
/// served version the linter knows), name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub kind: String,
    pub api_version: Option<String>,
    pub name: Option<String>,
}

/// A skipped command's input that is a [`Got`]'s output: the path as the command writes it,
/// where the kubectl command is, what it prints, and whether the command gives nothing
/// but files (no flags, values or other unknown inputs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GotInput {
    pub shown: String,
    pub maker: String,
    pub got: Got,
    pub plain: bool,
}

/// The [`GotInput`] of the `-f` input at `target` (written `shown`), when the one command of
/// the repository that writes it, exactly there, is a `kubectl get … -o yaml > FILE`.
pub fn input(target: &Word, shown: &str, repo: &Repo) -> Option<GotInput> {
    let (m, _) = made::maker(repo.made, target, repo.index)?;
    let stdout = m.at.made.stdout.as_ref()?;
    let got = stdout.got.clone().filter(|_| !stdout.appended)?;
    // Another command that writes the same path (`yq -i`, a second redirection) changes it.
    let writers = repo
        .made
        .iter()
        .filter(|o| o.made.path == m.at.made.path)
        .count();
    (m.fit == Fit::Exact && m.certain && writers == 1).then(|| GotInput {
        shown: shown.to_string(),
        maker: match &stdout.written {
            Some((file, line)) => format!("{file}:{line}"),
            None => m.at.origin(),
        },
        got,
        plain: false,
    })
}

/// The most readings of a command whose variables hold flags or nothing.
const MAX_READINGS: usize = 16;

/// [`read`], where an unquoted variable of the command (`$namespace_flag`) whose every value
/// `values` knows is a flag or nothing (`""`, `"-n $namespace"`) is read with each value in
/// turn: the command is known only when every reading gives the same. A variable with any
/// other value (or none known) is read as written, a word of its own.
pub fn read_in(command: &str, values: &dyn Fn(&str) -> Option<Vec<String>>) -> Option<Got> {
    let mut readings: Vec<String> = vec![String::new()];
    for word in command.split_whitespace() {
        let flags = variable_name(word)
            .and_then(values)
            .filter(|v| !v.is_empty())
            .filter(|v| {
                v.iter()
                    .all(|t| t.trim().is_empty() || t.trim_start().starts_with('-'))
            });
        // A value whose flag's own value the linter does not know (`-n $namespace`, read
        // `-n ` when `$namespace` is unknown) still holds one: a stand-in takes its place.
        let whole = |t: String| match t.split_whitespace().last() {
            Some(last) if VALUED.contains(&last) => format!("{t} VALUE"),
            _ => t,
        };
        let choices = match flags {
            Some(values) => values.into_iter().map(whole).collect(),
            None => vec![word.to_string()],
        };
        if readings.len() * choices.len() > MAX_READINGS {
            return None;
        }
        readings = readings
            .iter()
            .flat_map(|r| choices.iter().map(move |c| format!("{r} {c}")))
            .collect();
    }
    let mut got = readings.iter().map(|r| read(r));
    let first = got.next()??;
    got.all(|g| g.as_ref() == Some(&first)).then_some(first)
}

/// The variable an unquoted word is, whole: `$name` or `${name}`.
fn variable_name(word: &str) -> Option<&str> {
    let rest = word.strip_prefix('$')?;
    let name = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .unwrap_or(rest);
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(name)
}

/// The flags of `kubectl get` that take a value of their own (`-n ns`, `--context c`);
/// `--flag=v` is one word.
const VALUED: &[&str] = &[
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-c",
    "--request-timeout",
    "-s",
    "--server",
    "--token",
];

/// The `kubectl get` a command line (`kubectl get packageinstall "$name" -n ns -o yaml >
/// f`) is, when it prints YAML. `None` for anything else (another output format, a verb
/// other than `get`, a watch).
pub fn read(command: &str) -> Option<Got> {
    let mut words = command
        .split_whitespace()
        .take_while(|w| !w.starts_with('>') && !w.starts_with("2>") && !w.starts_with('|'))
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''));
    let first = words.next()?;
    if first.rsplit('/').next() != Some("kubectl") {
        return None;
    }
    let mut plain: Vec<&str> = Vec::new();
    let mut yaml = false;
    let mut list = false;
    let rest: Vec<&str> = words.collect();
    let mut i = 0;
    while i < rest.len() {
        let w = rest[i];
        i += 1;
        let flag_value = |name: &str, short: Option<&str>| -> Option<Option<&str>> {
            if let Some(v) = w.strip_prefix(&format!("--{name}=")) {
                return Some(Some(v));
            }
            if w == format!("--{name}") || short == Some(w) {
                return Some(None);
            }
            short
                .and_then(|s| w.strip_prefix(s))
                .filter(|v| !v.is_empty())
                .map(|v| Some(v.trim_start_matches('=')))
        };
        if let Some(v) = flag_value("output", Some("-o")) {
            let v = match v {
                Some(v) => v,
                None => {
                    i += 1;
                    rest.get(i - 1).copied().unwrap_or("")
                }
            };
            yaml = v == "yaml";
            continue;
        }
        if matches!(w, "-A" | "--all-namespaces" | "-w" | "--watch")
            || flag_value("selector", Some("-l")).is_some()
            || flag_value("field-selector", None).is_some()
        {
            list |= !w.starts_with("-w") && !w.starts_with("--watch");
            if w.starts_with("-w") || w.starts_with("--watch") {
                return None;
            }
            if !w.contains('=') && matches!(w, "-l" | "--selector" | "--field-selector") {
                i += 1;
            }
            continue;
        }
        if w.starts_with('-') {
            // A flag with a value of its own (`-n ns`, `--context c`); `--flag=v` is one word.
            if VALUED.contains(&w) {
                i += 1;
            } else if !w.contains('=') && !w.starts_with("--") && w.len() > 2 && w.starts_with("-n")
            {
                // `-nns`: the namespace glued to its flag.
            } else if !w.contains('=') && !known_switch(w) {
                // A flag the linter does not know may take a value: the words are not read.
                return None;
            }
            continue;
        }
        plain.push(w);
    }
    if plain.first() != Some(&"get") || !yaml {
        return None;
    }
    let args = &plain[1..];
    let (resource, names): (&str, Vec<&str>) = match args.first()? {
        r if r.contains('/') => {
            let (kind, name) = r.split_once('/')?;
            (
                kind,
                std::iter::once(name)
                    .chain(args[1..].iter().copied())
                    .collect(),
            )
        }
        r => (*r, args[1..].to_vec()),
    };
    if resource.contains(',') || resource.is_empty() {
        return None;
    }
    let name = match (names.as_slice(), list) {
        ([one], false) if !one.is_empty() => Some((!one.contains('$')).then(|| one.to_string())),
        _ => None,
    };
    Some(Got {
        resource: resource.to_ascii_lowercase(),
        name,
    })
}

/// A `kubectl get` switch that takes no value.
fn known_switch(w: &str) -> bool {
    matches!(
        w,
        "--ignore-not-found" | "--show-managed-fields" | "--no-headers" | "--show-kind" | "-v"
    ) || w.starts_with("-v=")
        || w.starts_with("--v=")
}

/// kubectl's short names of the kinds a script is likely to get (`kubectl api-resources`).
const SHORT: &[(&str, &str)] = &[
    ("cm", "ConfigMap"),
    ("deploy", "Deployment"),
    ("ds", "DaemonSet"),
    ("ing", "Ingress"),
    ("ns", "Namespace"),
    ("po", "Pod"),
    ("pv", "PersistentVolume"),
    ("pvc", "PersistentVolumeClaim"),
    ("rs", "ReplicaSet"),
    ("sa", "ServiceAccount"),
    ("sts", "StatefulSet"),
    ("svc", "Service"),
    ("cj", "CronJob"),
    ("crd", "CustomResourceDefinition"),
    ("crds", "CustomResourceDefinition"),
    ("pkgi", "PackageInstall"),
    ("pkgr", "PackageRepository"),
    ("pkgm", "PackageMetadata"),
    ("pkg", "Package"),
];

/// The known fields of what `got` prints: a `List` without a name, else the object of the
/// kind its resource names among the kinds the linter knows (built in and catalogued).
pub fn known(got: &Got) -> Option<Known> {
    let Some(name) = &got.name else {
        return Some(Known {
            kind: "List".into(),
            api_version: Some("v1".into()),
            name: None,
        });
    };
    let (word, group) = match got.resource.split_once('.') {
        Some((w, g)) => (w, Some(g)),
        None => (got.resource.as_str(), None),
    };
    let mut kinds: Vec<(String, String)> = Vec::new();
    if let Ok(reg) = crate::kubernetes::Registry::builtin(crate::kubernetes::DEFAULT_VERSION) {
        kinds.extend(
            reg.kinds()
                .into_iter()
                .map(|(a, k)| (a.to_string(), k.to_string())),
        );
    }
    if let Ok(cat) = crate::kubernetes::catalog::catalog() {
        kinds.extend(
            cat.kinds()
                .into_iter()
                .map(|(a, k)| (a.to_string(), k.to_string())),
        );
    }
    let short = SHORT
        .iter()
        .find(|(s, _)| *s == word && group.is_none())
        .map(|(_, k)| k.to_ascii_lowercase());
    let found: Vec<&(String, String)> = kinds
        .iter()
        .filter(|(a, k)| {
            let lower = k.to_ascii_lowercase();
            let named =
                short.as_deref() == Some(lower.as_str()) || lower == word || plural(&lower) == word;
            named && group.is_none_or(|g| crate::kubernetes::group_of(a) == g)
        })
        .collect();
    let kind = found.first()?.1.clone();
    if found.iter().any(|(_, k)| *k != kind) {
        return None;
    }
    let mut versions: Vec<&str> = found.iter().map(|(a, _)| a.as_str()).collect();
    versions.sort_unstable();
    versions.dedup();
    Some(Known {
        kind,
        api_version: (versions.len() == 1).then(|| versions[0].to_string()),
        name: name.clone(),
    })
}

/// The plural kubectl names a kind by (`deployments`, `ingresses`, `policies`).
fn plural(lower: &str) -> String {
    if let Some(stem) = lower
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
    {
        format!("{stem}ies")
    } else if lower.ends_with('s') || lower.ends_with("ch") || lower.ends_with('x') {
        format!("{lower}es")
    } else {
        format!("{lower}s")
    }
}

/// How many matches an overlay document's `expects` allows: `None` when zero is allowed (or
/// the linter cannot tell), else the words ytt says it expected.
fn requires_match(kwargs: &[(String, String)]) -> Option<String> {
    let mut expected = "1".to_string();
    for (k, v) in kwargs {
        match k.as_str() {
            "by" => {}
            "expects" => match v.parse::<i64>() {
                Ok(n) if n >= 1 => expected = n.to_string(),
                _ => return None,
            },
            // `missing_ok=True` and `when=` allow zero; anything else is not read.
            _ => return None,
        }
    }
    Some(expected)
}

/// Whether the matcher `by` (its text) certainly rejects every object with the fields
/// `known`, whatever its other fields: `overlay.subset(LITERAL)` naming a different kind,
/// apiVersion or name, or an `overlay.and_op` of which one does. `None`: the linter cannot
/// tell.
fn rejects(by: &str, known: &Known) -> Option<bool> {
    let by = by.trim();
    if let Some(inner) = call_args(by, "overlay.and_op") {
        let mut any = false;
        for op in split_top(inner, ',') {
            any |= rejects(&op, known) == Some(true);
        }
        return any.then_some(true);
    }
    let literal = call_args(by, "overlay.subset")?;
    let file: std::sync::Arc<str> = std::sync::Arc::from("by");
    let parsed = crate::yaml::parse::parse(literal.trim(), &file, &Default::default()).ok()?;
    let whole = &parsed.items.first()?.value;
    if !matches!(whole, Value::Map(_)) {
        return None;
    }
    let differs = |want: Option<&Value>, have: Option<&str>| match (want, have) {
        (Some(w), Some(h)) => w.as_str() != Some(h),
        _ => false,
    };
    let name = whole.field("metadata").and_then(|md| md.field("name"));
    Some(
        differs(whole.field("kind"), Some(&known.kind))
            || differs(whole.field("apiVersion"), known.api_version.as_deref())
            || differs(name, known.name.as_deref()),
    )
}

/// The text between the parentheses of a call of `name` that is the whole of `text`.
fn call_args<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(name)?.trim_start();
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    Some(inner)
}

/// `text` split at `sep` outside brackets and quotes.
fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut cur = String::new();
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, c) if c == sep && depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// One document of an overlay file: the line of its `---` (where ytt places the document)
/// and its `@overlay/match` keyword arguments (name, text).
struct OverlayDoc {
    line: u32,
    kwargs: Vec<(String, String)>,
}

/// The overlay documents of `text`, if every document of it is one (its `@overlay/match`
/// written above its `---` with no content line between, at any indentation) and its `#@` lines are only
/// `load("@ytt:overlay", …)` and `@overlay/…` annotations; `None` otherwise (a template
/// document, code, an insert or append that adds a document).
fn overlay_docs(text: &str) -> Option<Vec<OverlayDoc>> {
    let mut docs = Vec::new();
    // The document being read: its match annotation, and whether it has content.
    let mut current: (Option<OverlayDoc>, bool) = (None, false);
    // The document annotations written since the last content line: the next `---`'s.
    let mut pending: Vec<String> = Vec::new();
    let mut close = |doc: (Option<OverlayDoc>, bool)| -> Option<()> {
        match doc {
            (Some(d), true) => docs.push(d),
            (None, false) => {}
            // Content with no match is a template; a match with nothing under it is not read.
            _ => return None,
        }
        Some(())
    };
    for (n, span) in crate::pos::lines(text).enumerate() {
        let raw = text.get(span.start..span.end).unwrap_or("");
        let number = u32::try_from(n + 1).unwrap_or(u32::MAX);
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if line == "---" || line.starts_with("--- ") {
            close(std::mem::take(&mut current))?;
            let mut ann = None;
            for a in pending.drain(..) {
                let (name, args) = a.split_once(' ').unwrap_or((a.as_str(), ""));
                match name {
                    "match" => {
                        let mut kwargs = Vec::new();
                        for part in split_top(args, ',') {
                            let (k, v) = part.split_once('=')?;
                            kwargs.push((k.trim().to_string(), v.trim().to_string()));
                        }
                        ann = Some(OverlayDoc {
                            line: number,
                            kwargs,
                        });
                    }
                    // The document's operation: merge, remove, replace apply to its matches
                    // (none); an insert or append adds a document.
                    "merge" | "remove" | "replace" | "match-child-defaults" => {}
                    _ => return None,
                }
            }
            current = (ann, false);
            continue;
        }
        if let Some(ann) = trimmed.strip_prefix("#@") {
            let ann = ann.trim();
            if ann.starts_with("load(") {
                if !ann.contains("\"@ytt:overlay\"") && !ann.contains("'@ytt:overlay'") {
                    return None;
                }
                continue;
            }
            let rest = ann.strip_prefix("overlay/")?;
            // Annotations attach to the next node, however indented: one written under the
            // last content line but before `---` is the next document's (ytt reads it so).
            pending.push(rest.to_string());
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // Annotations above a content line are its node's.
        pending.clear();
        current.1 = true;
    }
    close(current)?;
    Some(docs)
}

/// The `overlay-error` of a skipped command whose input is what `kubectl get` prints and
/// whose overlays cannot match it; `None` when the linter cannot tell.
pub fn finding(skipped: &Skipped, read: &dyn Fn(&str) -> Option<String>) -> Option<Diagnostic> {
    let got = skipped.got.as_ref().filter(|g| g.plain)?;
    let known = known(&got.got)?;
    if skipped.claims.is_empty() || skipped.claims.len() > MAX_FILES {
        return None;
    }
    for file in &skipped.claims {
        let text = read(file)?;
        for doc in overlay_docs(&text)? {
            let by = doc.kwargs.iter().find(|(k, _)| k == "by")?;
            if rejects(&by.1, &known) != Some(true) {
                return None;
            }
            let Some(expected) = requires_match(&doc.kwargs) else {
                continue;
            };
            return Some(diagnostic(skipped, got, &known, file, doc.line, &expected));
        }
    }
    None
}

fn diagnostic(
    skipped: &Skipped,
    got: &GotInput,
    known: &Known,
    file: &str,
    line: u32,
    expected: &str,
) -> Diagnostic {
    let prints = match &known.name {
        _ if got.got.name.is_none() => "a List".to_string(),
        Some(n) => format!("one {} named {n}", known.kind),
        None => format!("one {}", known.kind),
    };
    let name = match &got.got.name {
        Some(Some(n)) => format!(" {n}"),
        Some(None) => " NAME".to_string(),
        None => String::new(),
    };
    let origin = skipped.origin.to_string();
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let order: Vec<String> = skipped.claims.iter().map(|c| base(c)).collect();
    let mut d = Diagnostic::new(
        Rule::OverlayError,
        format!(
            "Overlaying (in following order: {}): Document on line {}:{line}: Expected number of matched nodes to be {expected}, but was 0 (its matcher cannot match {prints}, all that `{}` holds)",
            order.join(", "),
            base(file),
            got.shown
        ),
    )
    .at(Span::point(file, line, 1))
    .with_help(
        "match the kind the command gives (or give the objects the overlay is meant for), or allow no match with `missing_ok=True`",
    )
    .with_related(
        format!("`{}` is written by `kubectl get {}{name} -o yaml`", got.shown, got.got.resource),
        Span::point(
            got.maker.rsplit_once(':').map_or(&got.maker[..], |(f, _)| f),
            got.maker
                .rsplit_once(':')
                .and_then(|(_, l)| l.parse().ok())
                .unwrap_or(1),
            1,
        ),
    )
    .with_related(
        format!("the command that applies the overlay ({origin})"),
        Span::point(&skipped.origin.file, skipped.origin.line, 1),
    );
    let mut p = Provenance::of(source_of(&origin), Some(origin));
    p.assume(Assumption::new(
        AssumptionKind::CommandOutput,
        format!(
            "`{}` is what `kubectl get {}{name} -o yaml` prints ({}): {prints}",
            got.shown, got.got.resource, got.maker
        ),
    ));
    // It rests on the input's content (its shape), not on which files the command gives.
    d.certainty = Some(p.certainty(Basis::Inputs));
    d.root = Some(skipped.claims[0].clone());
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_kubectl_get_prints() {
        let g = read(r#"kubectl get packageinstall "$name" -n "$ns" -o yaml > current.yaml"#);
        assert_eq!(
            g,
            Some(Got {
                resource: "packageinstall".into(),
                name: Some(None)
            })
        );
        let g = read("kubectl get deploy/web -oyaml").unwrap();
        assert_eq!(g.name, Some(Some("web".into())));
        assert_eq!(read("kubectl get pods -o yaml").unwrap().name, None);
        assert_eq!(read("kubectl get pod web -A -o yaml").unwrap().name, None);
        assert_eq!(read("kubectl get pod web -o json"), None);
        assert_eq!(read("kubectl describe pod web"), None);
        assert_eq!(read("kubectl get pod web --frobnicate x -o yaml"), None);
    }

    #[test]
    fn a_variable_that_is_a_flag_or_nothing_is_no_name() {
        let values = |name: &str| match name {
            "namespace_flag" => Some(vec![String::new(), "-n $namespace".to_string()]),
            "unknown_namespace" => Some(vec![String::new(), "-n ".to_string()]),
            "selector" => Some(vec![String::new(), "-l app=web".to_string()]),
            "other" => Some(vec!["web".to_string()]),
            _ => None,
        };
        let one = Got {
            resource: "packageinstall".into(),
            name: Some(None),
        };
        let cmd = r#"kubectl get packageinstall "$name" $namespace_flag -o yaml"#;
        assert_eq!(read_in(cmd, &values), Some(one.clone()));
        assert_eq!(
            read_in(
                r#"kubectl get packageinstall "$name" ${namespace_flag} -o yaml"#,
                &values
            ),
            Some(one)
        );
        // The flag's value unknown: still one flag and its value.
        let cmd = r#"kubectl get packageinstall "$name" $unknown_namespace -o yaml"#;
        assert_eq!(read_in(cmd, &values).unwrap().name, Some(None));
        // Read as written, the variable is a second name: a List.
        assert_eq!(read(cmd).unwrap().name, None);
        // One value makes a List, the other one object: not known.
        let cmd = r#"kubectl get packageinstall "$name" $selector -o yaml"#;
        assert_eq!(read_in(cmd, &values), None);
        // A value that is no flag: a word of its own, as before.
        let cmd = r#"kubectl get packageinstall "$name" $other -o yaml"#;
        assert_eq!(read_in(cmd, &values).unwrap().name, None);
        // Quoted, it is one word whatever it holds.
        let cmd = r#"kubectl get packageinstall "$namespace_flag" -o yaml"#;
        assert_eq!(read_in(cmd, &values).unwrap().name, Some(None));
    }

    #[test]
    fn knows_the_kind_of_a_resource_name() {
        let g = |r: &str, n: Option<Option<String>>| Got {
            resource: r.into(),
            name: n,
        };
        let k = known(&g("deployments", Some(None))).unwrap();
        assert_eq!(
            (k.kind.as_str(), k.api_version.as_deref()),
            ("Deployment", Some("apps/v1"))
        );
        assert_eq!(known(&g("deploy", Some(None))).unwrap().kind, "Deployment");
        assert_eq!(known(&g("x", None)).unwrap().kind, "List");
        assert_eq!(known(&g("nosuchthing", Some(None))), None);
    }

    #[test]
    fn a_subset_of_another_kind_rejects_and_one_of_unknown_fields_cannot_tell() {
        let k = Known {
            kind: "PackageInstall".into(),
            api_version: None,
            name: None,
        };
        assert_eq!(
            rejects(r#"overlay.subset({"kind":"Deployment"})"#, &k),
            Some(true)
        );
        assert_eq!(
            rejects(r#"overlay.subset({"kind":"PackageInstall"})"#, &k),
            Some(false)
        );
        assert_eq!(
            rejects(r#"overlay.subset({"spec":{"x":1}})"#, &k),
            Some(false)
        );
        assert_eq!(rejects("overlay.all", &k), None);
        assert_eq!(
            rejects(
                r#"overlay.and_op(overlay.subset({"kind":"Pod"}), overlay.subset({"a":1}))"#,
                &k
            ),
            Some(true)
        );
    }

    #[test]
    fn only_files_of_overlays_alone_are_read() {
        let ok = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\":\"Deployment\"})\n---\nspec:\n  #@overlay/match missing_ok=True\n  replicas: 1\n";
        let docs = overlay_docs(ok).unwrap();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].line, 3);
        // An annotation indented under the last content line is the next document's.
        let indented = format!("{ok}\n      #@overlay/match by=overlay.subset({{\"kind\":\"Pod\"}})\n---\nspec: {{}}\n");
        let docs = overlay_docs(&indented).unwrap();
        assert_eq!(docs.iter().map(|d| d.line).collect::<Vec<_>>(), [3, 9]);
        assert!(overlay_docs("#@ x = 1\n---\na: 1\n").is_none());
        assert!(overlay_docs("---\na: 1\n").is_none());
        assert!(
            overlay_docs("#@overlay/match by=overlay.all\n#@overlay/append\n---\na: 1\n").is_none()
        );
    }
}
