//! Data values given on the command line, turned into overlay documents in ytt's order:
//! `--data-values-file`, `--data-values-env`, `--data-values-env-yaml`, `-v/--data-value`,
//! `--data-value-yaml`, `--data-value-file`. Each document remembers where it came from (the
//! file and line, or a description of the flag) so that diagnostics can point at it.

use std::path::Path;
use std::sync::Arc;

use crate::files;
use crate::library::envelope::Envelope;
use crate::library::plain::has_templating;
use crate::library::ExternalValues;
use crate::overlay::plain_merge_overlay;
use crate::pos::Pos;
use crate::yaml::parse::{parse, ParseOpts};
use crate::yaml::{AnnValue, Annotation, Document, Map, MapItem, Value};

/// The data values flags of `ytt template`.
#[derive(Debug, Default, Clone)]
pub struct DataValuesFlags {
    pub env_strings: Vec<String>,
    pub env_yaml: Vec<String>,
    pub kv_strings: Vec<String>,
    pub kv_yaml: Vec<String>,
    pub kv_files: Vec<String>,
    pub files: Vec<String>,
    /// Which files may be read (ytt's symlink rules, or the linter's repository).
    pub policy: files::ReadPolicy,
}

/// Splits an optional `@lib:` prefix off a flag argument.
fn lib_ref_and_rest(arg: &str) -> Result<(&str, &str), String> {
    if arg.starts_with('@') {
        if let Some((lib, rest)) = arg.split_once(':') {
            if lib.len() == 1 {
                return Err("Expected library ref to not be empty".into());
            }
            return Ok((lib, rest));
        }
    }
    Ok(("", arg))
}

fn lib_ref_and_key(arg: &str) -> Result<(&str, &str), String> {
    let (lib, key) = lib_ref_and_rest(arg)?;
    if key.contains(':') {
        return Err(format!(
            "Expected at most one library-key separator ':' in '{key}'"
        ));
    }
    Ok((lib, key))
}

fn ann(name: &str, kwarg: &str) -> Annotation {
    Annotation {
        name: name.to_string(),
        args: Vec::new(),
        kwargs: vec![(kwarg.to_string(), AnnValue::Scalar(Value::Bool(true)))],
        pos: Pos::unknown(),
    }
}

/// `a.b.c=value` as the document `a: {b: {c: value}}`, each key matched with
/// `missing_ok=True` and the last replaced with `or_add=True`.
fn build_overlay(keys: &[&str], value: Value, pos: Pos) -> Document {
    let mut current = value;
    for (i, key) in keys.iter().enumerate().rev() {
        let mut item = MapItem::new(Value::String(key.to_string()), current, pos.clone());
        item.anns.set(ann("overlay/match", "missing_ok"));
        if i == keys.len() - 1 {
            item.anns.set(ann("overlay/replace", "or_add"));
        }
        let map = Map {
            items: vec![item],
            pos: pos.clone(),
            ..Map::default()
        };
        current = Value::Map(Box::new(map));
    }
    Document::new(current, pos)
}

/// The lines ytt shows for values set by flags (`key=value`, `PREFIX_key=value`, a file's
/// content). Flags of one kind share a description, so each gets its own offset to tell
/// their positions apart.
#[derive(Default)]
struct FlagLines(Vec<(Pos, String)>);

impl FlagLines {
    fn pos(&mut self, desc: &str, line: &str) -> Pos {
        let offset = u32::try_from(self.0.len()).unwrap_or(u32::MAX);
        let pos = Pos::new(&Arc::from(desc), 1, 1, offset);
        self.0.push((pos.clone(), line.to_string()));
        pos
    }
}

/// ytt shows the nodes of a `--data-value-yaml` value in file "" (as `:`), each with the
/// flag's text at its line. Their offsets are moved past the earlier flags' so that equal
/// positions in two flags stay apart.
fn register_value_lines(v: &mut Value, raw: &str, lines: &mut FlagLines) {
    let base = u32::try_from(lines.0.len())
        .unwrap_or(u32::MAX)
        .saturating_add(1)
        .saturating_mul(1 << 20);
    let text: Vec<&str> = raw.split('\n').collect();
    let mut at = |pos: &mut Pos| {
        if pos.file.as_deref() != Some("") {
            return;
        }
        pos.offset = pos.offset.saturating_add(base);
        let line = text.get(pos.line.saturating_sub(1) as usize).copied();
        lines.0.push((pos.clone(), line.unwrap_or("").to_string()));
    };
    walk_positions(v, &mut at, 0);
}

fn walk_positions(v: &mut Value, at: &mut dyn FnMut(&mut Pos), depth: usize) {
    if depth > crate::schema::MAX_DEPTH {
        return;
    }
    match v {
        Value::Map(m) => {
            at(&mut m.pos);
            for item in &mut m.items {
                at(&mut item.pos);
                walk_positions(&mut item.value, at, depth + 1);
            }
        }
        Value::Array(a) => {
            at(&mut a.pos);
            for item in &mut a.items {
                at(&mut item.pos);
                walk_positions(&mut item.value, at, depth + 1);
            }
        }
        _ => {}
    }
}

pub fn parse_yaml_value(raw: &str, strict: bool) -> Result<Value, String> {
    let ds = parse(raw, &Arc::from(""), &ParseOpts { strict }).map_err(|e| e.message)?;
    Ok(ds
        .items
        .into_iter()
        .next()
        .map(|d| d.value)
        .unwrap_or(Value::Null))
}

impl DataValuesFlags {
    /// The overlay documents, for the root library and for private libraries.
    pub fn to_values(
        &self,
        strict: bool,
        env: &[(String, String)],
        stdin: &mut dyn FnMut() -> Result<String, String>,
    ) -> Result<ExternalValues, String> {
        self.to_values_with(strict, env, stdin, &mut Vec::new())
    }

    /// [`Self::to_values`], adding the files the policy refused to `refused`.
    pub fn to_values_with(
        &self,
        strict: bool,
        env: &[(String, String)],
        stdin: &mut dyn FnMut() -> Result<String, String>,
        refused: &mut Vec<files::Refused>,
    ) -> Result<ExternalValues, String> {
        let mut all: Vec<Envelope> = Vec::new();
        let mut sources = Vec::new();
        let mut lines = FlagLines::default();
        for (input, f) in (0u32..).zip(&self.files) {
            let docs = self
                .file(f, strict, stdin, &mut sources, refused)
                .map_err(|e| format!("Extracting data value from file: {e}"))?;
            all.extend(docs.into_iter().map(|mut e| {
                e.input = input;
                e
            }));
        }
        // The value flags after the files are one input together.
        let flags_input = u32::try_from(self.files.len()).unwrap_or(u32::MAX);
        let first_flag = all.len();
        for (prefixes, yaml, name) in [
            (&self.env_strings, false, "data-values-env"),
            (&self.env_yaml, true, "data-values-env-yaml"),
        ] {
            for prefix in prefixes {
                let docs =
                    env_values(prefix, yaml, name, strict, env, &mut lines).map_err(|e| {
                        format!("Extracting data values from env under prefix '{prefix}': {e}")
                    })?;
                all.extend(docs);
            }
        }
        for (kvs, yaml, name) in [
            (&self.kv_strings, false, "data-value"),
            (&self.kv_yaml, true, "data-value-yaml"),
        ] {
            for kv in kvs {
                let doc = kv_value(kv, yaml, name, strict, &mut lines)
                    .map_err(|e| format!("Extracting data value from KV: {e}"))?;
                all.push(doc);
            }
        }
        for kv in &self.kv_files {
            let doc = kv_file(kv, stdin, &mut lines, &self.policy, refused)
                .map_err(|e| format!("Extracting data value from file: {e}"))?;
            all.extend(doc);
        }
        for (i, e) in all.iter_mut().enumerate() {
            e.from_input = true;
            if i >= first_flag {
                e.input = flags_input;
            }
        }
        let mut out = ExternalValues {
            sources,
            flag_lines: lines.0,
            ..ExternalValues::default()
        };
        for e in all {
            if e.for_other_library() {
                out.libraries.push(e);
            } else {
                out.root.push(e);
            }
        }
        Ok(out)
    }

    fn file(
        &self,
        arg: &str,
        strict: bool,
        stdin: &mut dyn FnMut() -> Result<String, String>,
        sources: &mut Vec<(String, Arc<str>)>,
        refused: &mut Vec<files::Refused>,
    ) -> Result<Vec<Envelope>, String> {
        let (lib, path) = lib_ref_and_rest(arg)?;
        // Spec 004: `+:` allows setting values nobody declared (ytt never implemented it).
        let (allow_new, path) = match path.strip_prefix("+:") {
            Some(rest) => (true, rest),
            None => (false, path),
        };
        let found = files::collect_with(&[path.to_string()], stdin, &self.policy, refused)
            .map_err(|e| format!("Find files '{}': {e}", files::input::shown(path)))?;
        // ytt takes a symlink named here for a file (`lstat`).
        let is_dir =
            std::fs::symlink_metadata(files::input::path_of(path)).is_ok_and(|m| m.is_dir());
        let mut out = Vec::new();
        for f in found {
            if is_dir && f.file_type() != files::FileType::Yaml {
                continue;
            }
            if let Some(message) = &f.unreadable {
                return Err(format!("Reading file '{}': {message}", f.rel_path));
            }
            let name: Arc<str> = Arc::from(f.rel_path.as_str());
            sources.push((f.rel_path.clone(), f.data.clone()));
            if let Some((message, _)) = f
                .raw
                .as_deref()
                .and_then(|raw| crate::yaml::utf8::error(raw, &name))
            {
                return Err(format!(
                    "Unmarshaling YAML data values file '{}': {message}",
                    f.rel_path
                ));
            }
            let ds = parse(&f.data, &name, &ParseOpts { strict }).map_err(|e| {
                format!(
                    "Unmarshaling YAML data values file '{}': {}",
                    f.rel_path, e.message
                )
            })?;
            if has_templating(&ds) {
                return Err(format!(
                    "Checking data values file '{}': Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)",
                    files::input::shown(path)
                ));
            }
            for doc in ds.items {
                if matches!(doc.value, Value::Null) {
                    continue;
                }
                let doc = plain_merge_overlay(&doc).map_err(|e| {
                    format!(
                        "Checking data values file '{}': {e}",
                        files::input::shown(path)
                    )
                })?;
                let mut env = Envelope::with_lib_ref(doc, lib)?;
                env.allow_new = allow_new;
                out.push(env);
            }
        }
        Ok(out)
    }
}

fn env_values(
    prefix: &str,
    yaml: bool,
    name: &str,
    strict: bool,
    env: &[(String, String)],
    lines: &mut FlagLines,
) -> Result<Vec<Envelope>, String> {
    let (lib, key_prefix) = lib_ref_and_key(prefix)?;
    let want = format!("{key_prefix}_");
    let mut out = Vec::new();
    for (k, v) in env {
        let Some(rest) = k.strip_prefix(&want) else {
            continue;
        };
        let value = if yaml {
            let mut value = parse_yaml_value(v, strict).map_err(|e| {
                format!(
                    "Extracting data value from env variable '{k}': Deserializing YAML value: {e}"
                )
            })?;
            register_value_lines(&mut value, v, lines);
            value
        } else {
            Value::String(v.clone())
        };
        let keys: Vec<&str> = rest.split("__").collect();
        let pos = lines.pos(&format!("({name} arg) {key_prefix}"), &format!("{k}={v}"));
        out.push(Envelope::with_lib_ref(
            build_overlay(&keys, value, pos),
            lib,
        )?);
    }
    Ok(out)
}

fn kv_value(
    kv: &str,
    yaml: bool,
    name: &str,
    strict: bool,
    lines: &mut FlagLines,
) -> Result<Envelope, String> {
    let Some((key, raw)) = kv.split_once('=') else {
        return Err("Expected format key=value".into());
    };
    let value = if yaml {
        let mut value = parse_yaml_value(raw, strict).map_err(|e| {
            format!("Deserializing value for key '{key}': Deserializing YAML value: {e}")
        })?;
        register_value_lines(&mut value, raw, lines);
        value
    } else {
        Value::String(raw.to_string())
    };
    let (lib, key) = lib_ref_and_key(key)?;
    let keys: Vec<&str> = key.split('.').collect();
    let pos = lines.pos(&format!("({name} arg)"), kv);
    Envelope::with_lib_ref(build_overlay(&keys, value, pos), lib)
}

fn kv_file(
    kv: &str,
    stdin: &mut dyn FnMut() -> Result<String, String>,
    lines: &mut FlagLines,
    policy: &files::ReadPolicy,
    refused: &mut Vec<files::Refused>,
) -> Result<Option<Envelope>, String> {
    let Some((key, path)) = kv.split_once('=') else {
        return Err("Expected format key=/file/path".into());
    };
    // ytt takes a symlink named here for a file (`lstat`).
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(format!(
            "Expected '{path}' to be a file, but is a directory"
        ));
    }
    let content = if path == "-" {
        stdin()?
    } else {
        let missing = || {
            format!("Finding file '{path}': Checking file '{path}': lstat {path}: no such file or directory")
        };
        // ytt's words when the file is there but cannot be read (a directory behind a
        // symlink, a symlink loop): the cause is not given.
        let unread = || format!("Reading file '{path}'");
        let meta = std::fs::symlink_metadata(path).map_err(|_| missing())?;
        let bytes = match policy.repository {
            // The linter's policy: opened once, checked on the handle.
            Some(_) => match files::read_with(Path::new(path), &meta, policy) {
                Ok(Ok(bytes)) => bytes,
                Ok(Err(why)) => {
                    refused.push(files::Refused {
                        path: Path::new(path).to_path_buf(),
                        why,
                    });
                    return Ok(None);
                }
                Err(_) => return Err(unread()),
            },
            None => {
                if let Some(why) = files::check(Path::new(path), &meta, policy)
                    .map_err(|e| format!("Finding file '{path}': {e}"))?
                {
                    refused.push(files::Refused {
                        path: Path::new(path).to_path_buf(),
                        why,
                    });
                    return Ok(None);
                }
                std::fs::read(path).map_err(|_| unread())?
            }
        };
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let (lib, key) = lib_ref_and_key(key)?;
    let keys: Vec<&str> = key.split('.').collect();
    let pos = lines.pos(&format!("(data-value-file arg) {key}={path}"), &content);
    Envelope::with_lib_ref(build_overlay(&keys, Value::String(content), pos), lib).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_paths_become_nested_maps_with_overlay_annotations() {
        let flags = DataValuesFlags {
            kv_strings: vec!["a.b=1".into()],
            kv_yaml: vec!["@lib:c=[1]".into()],
            ..DataValuesFlags::default()
        };
        let vals = flags
            .to_values(false, &[], &mut || Err(String::new()))
            .unwrap();
        assert_eq!(vals.root.len(), 1);
        assert_eq!(vals.libraries.len(), 1);
        let Value::Map(m) = &vals.root[0].doc.value else {
            panic!("map expected")
        };
        assert!(m.items[0].anns.has("overlay/match"));
        assert!(!m.items[0].anns.has("overlay/replace"));
        let Value::Map(inner) = &m.items[0].value else {
            panic!("map expected")
        };
        assert_eq!(inner.items[0].value, Value::String("1".into()));
        assert!(inner.items[0].anns.has("overlay/replace"));
        assert_eq!(vals.root[0].doc.pos.as_compact(), "(data-value arg):1");
    }

    #[test]
    fn yaml_flag_nodes_show_their_own_flag_text() {
        let flags = DataValuesFlags {
            kv_yaml: vec!["a=[1]".into(), "b=[2]".into(), "c=\n- x\n- 3".into()],
            ..DataValuesFlags::default()
        };
        let vals = flags
            .to_values(false, &[], &mut || Err(String::new()))
            .unwrap();
        let item_line = |i: usize| {
            let Value::Map(m) = &vals.root[i].doc.value else {
                panic!("map expected")
            };
            let Value::Array(a) = &m.items[0].value else {
                panic!("array expected")
            };
            let pos = &a.items.last().unwrap().pos;
            assert_eq!(pos.file.as_deref(), Some(""));
            let lines: std::collections::HashMap<_, _> = vals.flag_lines.iter().cloned().collect();
            lines.get(pos).cloned()
        };
        assert_eq!(item_line(0).as_deref(), Some("[1]"));
        assert_eq!(item_line(1).as_deref(), Some("[2]"));
        assert_eq!(item_line(2).as_deref(), Some("- 3"));
    }

    #[test]
    fn env_prefix_selects_and_splits_on_double_underscore() {
        let flags = DataValuesFlags {
            env_yaml: vec!["DVS".into()],
            ..DataValuesFlags::default()
        };
        let env = vec![
            ("DVS_a__b".to_string(), "true".to_string()),
            ("OTHER_x".to_string(), "1".to_string()),
        ];
        let vals = flags
            .to_values(false, &env, &mut || Err(String::new()))
            .unwrap();
        assert_eq!(vals.root.len(), 1);
        let Value::Map(m) = &vals.root[0].doc.value else {
            panic!("map expected")
        };
        let Value::Map(inner) = &m.items[0].value else {
            panic!("map expected")
        };
        assert_eq!(inner.items[0].value, Value::Bool(true));
    }
}
