//! ytt files written inside other YAML as strings. A Kubernetes object often carries a ytt
//! input as a literal block: a Secret whose `stringData.values.yaml: |` is a `#@data/values`
//! document a script later passes to ytt, an App CR's inline `paths:` holding a template. ytt
//! reads that text as a file of its own, so its YAML and ytt syntax, and ytt's comment rule
//! (`#8 …` is rejected: annotations are `#@`, comments `#!`), apply to it.
//!
//! This finds them, without parsing the outer file (it may be a `*.yaml.template` another tool
//! fills in): a literal block scalar (`key: |`, `- |`, with `-`/`+`/an indentation digit)
//! whose first line of content starts with `#@data/values` (the schema too) or `#@ load(`.
//! Each is kept with where its content starts, so findings point at the outer file's lines.
//! A block under `#@yaml/text-templated-strings` is left alone: the outer template fills its
//! `(@= … @)` in before anything reads it.

/// Outer files are read for embedded documents when their name ends so.
const NAMES: [&str; 8] = [
    ".yml",
    ".yaml",
    ".yml.tpl",
    ".yaml.tpl",
    ".yml.template",
    ".yaml.template",
    ".yml.tmpl",
    ".yaml.tmpl",
];

/// At most this many embedded documents are kept per file.
const MAX_PER_FILE: usize = 64;

/// One ytt document found inside a block scalar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embedded {
    /// The key that holds it (`values.yaml`), or `-` for a list entry.
    pub key: String,
    /// The line (1-based) of the outer file where its content starts.
    pub line: u32,
    /// How many columns its lines are indented in the outer file.
    pub indent: u32,
    /// Its text, as ytt would read it (the indentation removed).
    pub text: String,
    /// It is a file of a kapp-controller ytt step (`ytt: inline: paths: NAME.yaml: |` of a
    /// Package or App): the step names it as an input, whatever its first line.
    pub step: bool,
    /// The ytt flags that step's options give (`--ignore-unknown-comments`, `--strict`:
    /// [`crate::lint::repo::embedded_step`]); empty for a document no step names.
    pub flags: Vec<String>,
}

/// Whether a file of this repository path may hold embedded documents.
pub fn named_for(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    NAMES.iter().any(|n| lower.ends_with(n))
}

/// The ytt documents `text` holds as literal block scalars.
pub fn find(text: &str) -> Vec<Embedded> {
    // Every document found has a line that starts with `#@`: a marker, or a line of a ytt
    // step's file, which sits under the keys `ytt`, `inline:` and `paths`.
    // One search for `#@` settles most files; a marker counts only indented, as the first line
    // of a block's content is (a template's own `#@ load(` at the left margin does not).
    let marks: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), "#@").collect();
    if marks.is_empty() || memchr::memchr(b'|', text.as_bytes()).is_none() {
        return Vec::new();
    }
    let marked = marks.iter().any(|&at| indented_marker(text, at));
    let steps = text.contains("inline") && text.contains("paths") && text.contains("ytt");
    if !(marked || (steps && text.contains("inline:"))) {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    // The keys enclosing line `i`, with their indentation (each line outside a block is
    // looked at once).
    let mut keys: Vec<(usize, &str, usize)> = Vec::new();
    while i < lines.len() && out.len() < MAX_PER_FILE {
        // The enclosing keys matter only to a ytt step's files.
        if steps {
            let depth = indent_of(lines[i]);
            if !lines[i].trim().is_empty() && !lines[i].trim_start().starts_with('#') {
                while keys.last().is_some_and(|(n, _, _)| *n >= depth) {
                    keys.pop();
                }
            }
        }
        let Some(key) = block_key(lines[i]) else {
            if let Some(k) = map_key(lines[i]).filter(|_| steps) {
                keys.push((indent_of(lines[i]), k, i));
            }
            i += 1;
            continue;
        };
        let parent = indent_of(lines[i]);
        let Some(first) = (i + 1..lines.len()).find(|&j| !lines[j].trim().is_empty()) else {
            break;
        };
        let n = indent_of(lines[first]);
        if n <= parent {
            // Nothing between holds a block: go on from that line (linear in the file).
            i = first;
            continue;
        }
        let mut end = first;
        while end < lines.len() && (lines[end].trim().is_empty() || indent_of(lines[end]) >= n) {
            end += 1;
        }
        let head = lines[first].trim_start();
        // `#@yaml/text-templated-strings` on the key: the outer template fills `(@= … @)` in
        // first, so the text is not ytt's input as written.
        let templated = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim())
            .take_while(|l| l.starts_with("#@") || l.starts_with("#!"))
            .any(|l| l.contains("yaml/text-templated-strings"));
        if templated {
            i = end;
            continue;
        }
        let step = steps
            && in_ytt_step(&keys, &key)
            && lines[first..end]
                .iter()
                .any(|l| l.trim_start().starts_with("#@"));
        let flags = match step {
            true => keys
                .len()
                .checked_sub(3)
                .and_then(|at| keys.get(at))
                .map(|(_, _, line)| crate::lint::repo::embedded_step::flags(&lines, *line))
                .unwrap_or_default(),
            false => Vec::new(),
        };
        if step
            || head.starts_with("#@data/values")
            || head.starts_with("#@ load(")
            || head.starts_with("#@load(")
        {
            let body: Vec<&str> = lines[first..end]
                .iter()
                .map(|l| l.get(n..).unwrap_or(""))
                .collect();
            out.push(Embedded {
                key,
                line: u32::try_from(first + 1).unwrap_or(u32::MAX),
                indent: u32::try_from(n).unwrap_or(u32::MAX),
                text: body.join("\n") + "\n",
                step,
                flags,
            });
        }
        i = end;
    }
    out
}

/// Whether the `#@` at byte `at` of `text` opens `#@data/values`, `#@ load(` or `#@load(` on
/// a line indented by at least one space and white space alone before it.
fn indented_marker(text: &str, at: usize) -> bool {
    let rest = &text[at + 2..];
    if !(rest.starts_with("data/values") || rest.starts_with(" load(") || rest.starts_with("load("))
    {
        return false;
    }
    let line = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line..at];
    before.starts_with(' ') && before.trim_start().is_empty()
}

/// Whether a block under `key`, inside the keys `enclosing` (outermost first), is a file of a
/// kapp-controller ytt step: `ytt:` → `inline:` → `paths:` → `NAME.yml: |`.
fn in_ytt_step(enclosing: &[(usize, &str, usize)], key: &str) -> bool {
    let named: Vec<&str> = enclosing.iter().rev().take(3).map(|(_, k, _)| *k).collect();
    (key.ends_with(".yml") || key.ends_with(".yaml")) && named == ["paths", "inline", "ytt"]
}

/// The key of a line that opens a map or a list of its own (`inline:`, `- ytt:`), or `None`.
fn map_key(line: &str) -> Option<&str> {
    let t = line.trim();
    let t = match t.find(" #") {
        Some(at) => t[..at].trim_end(),
        None => t,
    };
    let key = t.strip_suffix(':')?.trim_start_matches("- ").trim();
    let key = key.trim_matches(|c| c == '"' || c == '\'');
    (!key.is_empty() && !key.contains(": ")).then_some(key)
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The key of a line that opens a literal block scalar (`values.yaml: |`, `- |-`), or `None`.
fn block_key(line: &str) -> Option<String> {
    let t = line.trim();
    let t = match t.find(" #") {
        Some(at) => t[..at].trim_end(),
        None => t,
    };
    let (before, indicator) = t.rsplit_once(' ').unwrap_or(("", t));
    let literal = indicator.starts_with('|')
        && indicator[1..]
            .chars()
            .all(|c| c == '-' || c == '+' || c.is_ascii_digit());
    if !literal {
        return None;
    }
    let before = before.trim_end();
    if before == "-" {
        return Some("-".to_string());
    }
    let key = before.strip_suffix(':')?;
    let key = key.trim_start_matches("- ").trim();
    let key = key.trim_matches(|c| c == '"' || c == '\'');
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "apiVersion: v1\nkind: Secret\nmetadata: {name: config}\nstringData:\n  \
        values.yaml: |\n    #@data/values\n    ---\n    #8 Set the profile.\n    profile: full\n\
        other: x\n";

    #[test]
    fn a_values_document_in_a_secret_is_found_with_its_place() {
        let found = find(SECRET);
        assert_eq!(found.len(), 1, "{found:?}");
        let e = &found[0];
        assert_eq!(e.key, "values.yaml");
        assert_eq!((e.line, e.indent), (6, 4));
        assert_eq!(
            e.text,
            "#@data/values\n---\n#8 Set the profile.\nprofile: full\n"
        );
    }

    #[test]
    fn other_blocks_are_not_ytt_documents() {
        // A script in a block (a heredoc of values inside it), a folded block, a plain string.
        let text = "run:\n  args:\n  - |\n    cat <<EOF > v.yml\n    #@data/values\n    EOF\n\
            note: >\n  #@data/values\nplain: \"#@ load('x')\"\n";
        assert!(find(text).is_empty(), "{:?}", find(text));
        // A block the outer template fills in first (`(@= … @)`) is not ytt's input as written.
        let filled = "spec:\n  #@ x = 1\n  #@yaml/text-templated-strings\n  ytt: |\n    \
            #@ load(\"@ytt:data\", \"data\")\n    a: (@= str(x) @)\n";
        assert!(find(filled).is_empty(), "{:?}", find(filled));
        // A list entry's block is found.
        let inline = "paths:\n- |\n  #@ load(\"@ytt:data\", \"data\")\n  ---\n  a: 1\n";
        let found = find(inline);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].key.as_str(), found[0].line), ("-", 3));
    }

    #[test]
    fn a_file_of_a_ytt_step_is_found_whatever_its_first_line() {
        // LA-1: an overlay written inline in a Package's ytt step, without a `load`.
        let package = "spec:\n  template:\n    spec:\n      template:\n      - ytt:\n          \
            paths: [config/]\n          inline:\n            paths:\n              overlay.yaml: |\n                \
            #@overlay/match by=overlay.all\n                ---\n                a: 1\n              \
            notes.txt: |\n                #@ plain text\n      - kbld: {}\n";
        let found = find(package);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].step);
        assert_eq!((found[0].key.as_str(), found[0].line), ("overlay.yaml", 10));
        // Plain YAML of a fetch's inline paths is no ytt step's, nor a step file without `#@`.
        let fetch = "fetch:\n- inline:\n    paths:\n      config/a.yaml: |\n        #@ x = 1\n        a: 1\n";
        assert!(find(fetch).is_empty(), "{:?}", find(fetch));
        let plain = "- ytt:\n    inline:\n      paths:\n        a.yaml: |\n          a: 1\n";
        assert!(find(plain).is_empty(), "{:?}", find(plain));
    }

    #[test]
    fn empty_blocks_and_blank_runs_are_read_once() {
        // Many empty blocks before a long run of blank lines: each line is looked at a
        // bounded number of times.
        let mut text = "a: |\n".repeat(20_000);
        text.push_str(&"\n".repeat(200_000));
        text.push_str("b: |\n  #@data/values\n  ---\n  x: 1\n");
        let found = find(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, 220_002);
    }

    #[test]
    fn names_that_may_hold_them() {
        assert!(named_for("config/installer.yaml.template"));
        assert!(named_for("a/b.yml"));
        assert!(named_for("x.YML.TPL"));
        assert!(!named_for("run.sh"));
        assert!(!named_for("values.json"));
    }
}
