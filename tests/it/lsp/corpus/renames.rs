//! Renames on the corpus: prepareRename on every key of the root's schema and data values
//! documents and of its `--data-values-file` files (outside private libraries: a library's
//! values are refused by design); of the keys it accepts, a sample spread evenly over them
//! (`YTTLINT_CORPUS_RENAMES` per root, 4 by default, `all` for every one) is renamed to
//! `KEY_renamed` and the root rendered: every place that sets or reads the value was renamed,
//! so the output must be the same. Then the value is renamed back, from the new key itself,
//! which must give back every file byte for byte (and so what ytt renders); a key that is no
//! Starlark name (`a-b`) is renamed to one (`a_b_renamed`) and cannot be renamed back: the
//! server must refuse the reverse as "not a name". A root whose
//! command prints the data values or the schema themselves (`--data-values-inspect`,
//! `--data-values-schema-inspect`) prints the new name after the first rename: only the reverse
//! is checked there. Each refusal's reason is counted.

use super::*;

/// A key of a data values or schema document: its file, line and column (from 0) and name.
#[derive(Debug)]
struct Key {
    rel: String,
    line: usize,
    col: usize,
    name: String,
}

/// The column and name of the map key `line` starts with (`name:`, `- name:`), if any.
fn key_in_line(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start_matches(' ');
    let mut col = line.len() - trimmed.len();
    let rest = match trimmed.strip_prefix("- ") {
        Some(r) => {
            col += 2;
            r
        }
        None => trimmed,
    };
    let end = rest.find(':')?;
    let (key, after) = (&rest[..end], &rest[end + 1..]);
    let named = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (named && (after.is_empty() || after.starts_with(' '))).then_some((col, key))
}

/// Every line that starts with a map key in the root's files that hold a `#@data/values` or
/// `#@data/values-schema` document, or that a `--data-values-file` flag of `args` names;
/// outside private libraries.
fn keys(dir: &Path, args: &[String]) -> Vec<Key> {
    let values_files: Vec<&str> = args
        .iter()
        .zip(args.iter().skip(1))
        .filter(|(flag, _)| *flag == "--data-values-file")
        .map(|(_, v)| v.as_str())
        .collect();
    let mut out = Vec::new();
    for (rel, bytes) in snapshot(dir) {
        let rel = rel.to_string_lossy().into_owned();
        let yaml = rel.ends_with(".yml") || rel.ends_with(".yaml");
        // Not the corpus's own files: its expected output (`expected.yml`).
        let corpus_own = rel.starts_with("expected.");
        if !yaml || corpus_own || rel.contains("_ytt_lib/") || rel.starts_with('.') {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if !text.contains("#@data/values") && !values_files.contains(&rel.as_str()) {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            if let Some((col, name)) = key_in_line(line) {
                out.push(Key {
                    rel: rel.clone(),
                    line: n,
                    col,
                    name: name.to_string(),
                });
            }
        }
    }
    out
}

/// `k` of `items`, spread evenly (all of them when there are no more).
fn sample<T>(items: &[T], k: usize) -> Vec<&T> {
    if items.len() <= k {
        return items.iter().collect();
    }
    (0..k).map(|i| &items[i * items.len() / k]).collect()
}

/// How many keys of a root are renamed (`YTTLINT_CORPUS_RENAMES`: a number, or `all`).
fn per_root() -> usize {
    match std::env::var("YTTLINT_CORPUS_RENAMES") {
        Ok(v) if v == "all" => usize::MAX,
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("YTTLINT_CORPUS_RENAMES={v}")),
        Err(_) => 4,
    }
}

/// The kind of reason a refusal gives (its message without names and places).
fn reason(message: &str) -> String {
    const KINDS: &[(&str, &str)] = &[
        ("put the cursor on", "not a data value"),
        ("not read by any root", "the file is read by no root"),
        ("private library", "a value of a private library"),
        ("from the environment", "values from the environment"),
        ("provided at run time", "provided at run time"),
        ("standard input", "values from standard input"),
        ("which a rename does not search", "a values directory"),
        ("cannot be read", "a values file that cannot be read"),
        ("is used whole", "an ancestor used whole"),
        ("indexed with a computed key", "a computed key"),
        ("with a computed name", "a computed name"),
        ("with no name", "getattr or hasattr without a name"),
        ("by name", "an ancestor read by name"),
        (
            "and to something else too",
            "a name bound to the value and to something else",
        ),
        ("loaded by another file", "an alias loaded by another file"),
        (
            "is not declared",
            "not declared in the root's schema or values",
        ),
        ("is read by the root", "a file read by another root"),
        ("exists already", "the new name exists"),
        ("the code of @", "an annotation's code names the key"),
        ("whose code may name", "an annotation calls a function"),
    ];
    KINDS
        .iter()
        .find(|(phrase, _)| message.contains(phrase))
        .map_or_else(|| format!("other: {message}"), |(_, kind)| kind.to_string())
}

/// The counts of the renames test.
#[derive(Default, Debug)]
struct RenameCounts {
    roots: usize,
    /// Keys asked with prepareRename, and accepted.
    keys: usize,
    accepted: usize,
    /// Refusals by reason.
    refused: BTreeMap<String, usize>,
    /// Keys renamed (and back): the output compared after the rename, or not (an inspect
    /// command's output names the keys).
    renamed: usize,
    output_unchanged: usize,
    output_names_keys: usize,
    /// Renamed back to files identical byte for byte.
    reversed_identical: usize,
    /// Not renamed back: the old name is no Starlark name (the files are put back as they
    /// were).
    irreversible: usize,
    renders: usize,
}

/// The position of `k` (its first character) in `dir`.
fn position(dir: &Path, k: &Key) -> Value {
    json!({"textDocument": {"uri": uri(&dir.join(&k.rel))}, "position": {"line": k.line, "character": k.col}})
}

/// Renames `k` from `from` to `to`: the edit, or what went wrong.
fn rename(c: &mut Client, dir: &Path, k: &Key, from: &str, to: &str) -> Result<Value, String> {
    let at = position(dir, k);
    match c.try_request("textDocument/prepareRename", at.clone()) {
        Ok(p) if p["placeholder"] == from => {}
        Ok(p) => return Err(format!("prepareRename answers {p}, not {from}")),
        Err((_, m)) => return Err(format!("prepareRename refuses: {m}")),
    }
    let mut params = at;
    params["newName"] = json!(to);
    match c.try_request("textDocument/rename", params) {
        Ok(edit) if edit["changes"].is_object() => Ok(edit),
        Ok(other) => Err(format!("rename answers {other}")),
        Err((_, m)) => Err(format!("rename refuses: {m}")),
    }
}

/// Writes back the files of `dir` that differ from `pristine`, in the buffers too.
fn reset(c: &mut Client, buffers: &mut Buffers, dir: &Path, pristine: &BTreeMap<PathBuf, Vec<u8>>) {
    for (rel, bytes) in snapshot(dir) {
        if pristine.get(&rel) == Some(&bytes) {
            continue;
        }
        let path = dir.join(&rel);
        match pristine.get(&rel) {
            Some(old) => std::fs::write(&path, old).unwrap(),
            None => std::fs::remove_file(&path).unwrap(),
        }
        if let Some(v) = buffers.versions.get_mut(&path) {
            *v += 1;
            let v = *v;
            let text = String::from_utf8_lossy(&pristine[&rel]).into_owned();
            c.change(&path, v, &text);
        }
    }
}

/// The files that differ from `pristine` (for a failure's message).
fn changed(dir: &Path, pristine: &BTreeMap<PathBuf, Vec<u8>>) -> Vec<String> {
    let now = snapshot(dir);
    let mut out: Vec<String> = now
        .iter()
        .filter(|(rel, bytes)| pristine.get(*rel) != Some(bytes))
        .map(|(rel, _)| rel.display().to_string())
        .collect();
    out.extend(
        pristine
            .keys()
            .filter(|rel| !now.contains_key(*rel))
            .map(|rel| format!("{} (removed)", rel.display())),
    );
    out
}

fn renames_of_root(
    ytt: &Path,
    corpus: &Path,
    root: &CorpusRoot,
    counts: &mut RenameCounts,
    problems: &mut Vec<String>,
) {
    let dir = copy_root(corpus, root);
    let pristine = snapshot(&dir);
    let before = render(ytt, &dir);
    counts.renders += 1;
    let mut c = Client::start(&dir);
    let mut buffers = Buffers::default();
    let keys = keys(&dir, &root.args);
    let mut accepted = Vec::new();
    for k in &keys {
        buffers.open(&mut c, &dir.join(&k.rel));
        match c.try_request("textDocument/prepareRename", position(&dir, k)) {
            Ok(p) if p["placeholder"] == k.name.as_str() => accepted.push(k),
            Ok(p) => problems.push(format!("{}: {k:?}: prepareRename answers {p}", root.id)),
            Err((_, m)) => *counts.refused.entry(reason(&m)).or_default() += 1,
        }
    }
    counts.keys += keys.len();
    counts.accepted += accepted.len();
    let inspects = root.args.iter().any(|a| {
        a.starts_with("--data-values-inspect") || a.starts_with("--data-values-schema-inspect")
    });
    for k in sample(&accepted, per_root()) {
        let place = format!(
            "{}: data value `{}` at {}:{}",
            root.id,
            k.name,
            k.rel,
            k.line + 1
        );
        // A key that is no Starlark name (`default-tls-secret`) is renamed to one, and cannot
        // be renamed back (a template could not write the old name after `data.values.`).
        let new = format!("{}_renamed", k.name.replace('-', "_"));
        let reversible = !k.name.contains('-');
        let edit = match rename(&mut c, &dir, k, &k.name, &new) {
            Ok(edit) => edit,
            Err(why) => {
                problems.push(format!("{place}: {why}"));
                continue;
            }
        };
        buffers.apply(&mut c, &dir, &edit);
        counts.renamed += 1;
        let after = render(ytt, &dir);
        counts.renders += 1;
        if inspects {
            counts.output_names_keys += 1;
        } else if after == before {
            counts.output_unchanged += 1;
        } else {
            let files = changed(&dir, &pristine).join(", ");
            problems.push(format!(
                "{place}: renamed to {new} (in {files}), ytt renders otherwise: {}",
                first_difference(&before, &after)
            ));
        }
        match rename(&mut c, &dir, k, &new, &k.name) {
            Ok(back) => buffers.apply(&mut c, &dir, &back),
            Err(why) if !reversible && why.contains("is not a name") => {
                counts.irreversible += 1;
                reset(&mut c, &mut buffers, &dir, &pristine);
                continue;
            }
            Err(why) => problems.push(format!("{place}: back from {new}: {why}")),
        }
        let left = changed(&dir, &pristine);
        if left.is_empty() {
            counts.reversed_identical += 1;
        } else {
            problems.push(format!(
                "{place}: renamed to {new} and back, these files differ: {}",
                left.join(", ")
            ));
            reset(&mut c, &mut buffers, &dir, &pristine);
        }
    }
    assert_eq!(c.finish(), 0, "{}: the server's exit status", root.id);
    counts.roots += 1;
}

#[test]
#[ignore = "needs ytt and the corpus (../shared/corpus)"]
fn renames_and_back_keep_what_ytt_renders_on_the_corpus() {
    let (ytt, corpus) = (ytt(), corpus_dir());
    let mut counts = RenameCounts::default();
    let mut problems = Vec::new();
    for root in corpus_roots(&corpus) {
        renames_of_root(&ytt, &corpus, &root, &mut counts, &mut problems);
    }
    println!("corpus renames: {counts:#?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(counts.renamed > 0, "nothing was renamed: {counts:#?}");
}

#[test]
fn keys_of_lines() {
    assert_eq!(key_in_line("  port: 8080"), Some((2, "port")));
    assert_eq!(key_in_line("- name: web"), Some((2, "name")));
    assert_eq!(key_in_line("app:"), Some((0, "app")));
    assert_eq!(key_in_line("#@schema/desc \"x\""), None);
    assert_eq!(key_in_line("  url: http://x"), Some((2, "url")));
    assert_eq!(key_in_line("  - 80"), None);
    assert_eq!(key_in_line("a:b"), None);
    assert_eq!(sample(&[1, 2, 3, 4, 5, 6, 7, 8], 4), [&1, &3, &5, &7]);
    assert_eq!(sample(&[1, 2], 4), [&1, &2]);
}
