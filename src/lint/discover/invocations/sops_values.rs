//! `--data-values-file <(sops -d FILE)`: data values decrypted at run time from a committed
//! file. sops encrypts a YAML file's values, not its keys: the committed file shows every key
//! of what `sops -d` prints (all but its `sops:` metadata), each encrypted value as
//! `ENC[AES256_GCM,data:…,type:str]`, and a value left unencrypted as it is. So the command is
//! linted with the file's keys: an encrypted value is given at run time (a placeholder), an
//! unencrypted one is the file's, and a key the file lacks is not given at all. A failure the
//! decrypted values cannot avoid (a schema validation of a key the file does not have) is then
//! reported, not left as `needs-input` (round twenty-four's R24-1); it names what was assumed,
//! [`AssumptionKind::DecryptedValues`].
//!
//! ytt names the decrypted file by the path the shell gives the substitution, `/dev/fd/63`,
//! as `63` (ytt `4b40e30`: "from: 63:4" for a value of its line 4), which names nothing a
//! user can open. A finding about an unencrypted value names the committed file and the
//! line of its key there instead (`from: values.sops.yaml:4`): `sops -d` prints the keys in
//! the file's order, one line each for a value of one line.

use super::resolve::DataValue;
use super::word::{Piece, Word};
use super::ytt_args::ValueKind;
use crate::report::{Assumption, AssumptionKind};
use crate::yaml::Value;

/// The longest committed sops file read, in bytes.
pub(super) const MAX_READ: usize = 1 << 20;

/// The process substitution a values file argument is: the whole word, or after a name
/// (`sensitive.yaml=<(…)`).
pub(super) fn substitution(w: &Word) -> Option<&str> {
    match w.0.as_slice() {
        [Piece::Unknown(s)] => Some(s),
        [Piece::Lit { text, .. }, Piece::Unknown(s)] if text.ends_with('=') => Some(s),
        _ => None,
    }
}

/// The file that the process substitution `text` decrypts with sops, as the command writes it
/// (`<(sops -d a.yaml)`, `<(sops --decrypt --input-type yaml a.yaml)`, `<(sops decrypt
/// a.yaml)`): `None` for anything else, and for what prints part of the file (`--extract`),
/// other output (`--output-type json`), or a path the shell expands.
pub(super) fn decrypted_file(text: &str) -> Option<String> {
    let inner = text.strip_prefix("<(")?.strip_suffix(')')?.trim();
    if inner.contains(['|', ';', '&', '>', '<', '$', '`', '\n', '"', '\'']) {
        return None;
    }
    let mut words = inner.split_whitespace();
    let tool = words.next()?;
    if tool.rsplit('/').next() != Some("sops") {
        return None;
    }
    let mut decrypt = false;
    let mut file = None;
    while let Some(w) = words.next() {
        match w {
            "-d" | "--decrypt" | "decrypt" if file.is_none() => decrypt = true,
            "--input-type" => {
                words.next()?;
            }
            "--output-type" => {
                if !matches!(words.next()?, "yaml" | "yml") {
                    return None;
                }
            }
            _ if w.starts_with("--input-type=") => {}
            _ if w.starts_with('-') => return None,
            _ if file.is_none() => file = Some(w.to_string()),
            _ => return None,
        }
    }
    file.filter(|_| decrypt)
}

/// The data values `sops -d` prints for the committed file `text` at the repository path
/// `file`: one per key the file shows, with its value when it is not encrypted (and the line
/// of its key, `file:LINE`) and `None` (given at run time) when it is. `None` when the text is
/// no sops YAML file or holds a key `-v` cannot name at the top.
pub(super) fn values(text: &str, file: &str) -> Option<Vec<DataValue>> {
    let opts = crate::yaml::parse::ParseOpts { strict: false };
    let name: std::sync::Arc<str> = std::sync::Arc::from("sops");
    let set = crate::yaml::parse::parse(text, &name, &opts).ok()?;
    let [doc] = set.items.as_slice() else {
        return None;
    };
    let Value::Map(top) = &doc.value else {
        return None;
    };
    let is_metadata = |v: &Value| match v {
        Value::Map(m) => m
            .items
            .iter()
            .any(|i| matches!(&i.key, Value::String(k) if k == "mac" || k == "version")),
        _ => false,
    };
    if !top
        .items
        .iter()
        .any(|i| matches!(&i.key, Value::String(k) if k == "sops") && is_metadata(&i.value))
    {
        return None;
    }
    let mut out = Vec::new();
    for item in &top.items {
        let Value::String(key) = &item.key else {
            return None;
        };
        if key == "sops" {
            continue;
        }
        if !nameable(key) {
            return None;
        }
        let at = Written {
            file,
            line: item.pos.line,
        };
        collect(key, &item.value, at, &mut out);
    }
    Some(out)
}

/// What was assumed of the values of `sops -d file` (`encrypted`: the keys given at run time).
pub(super) fn assumption(file: &str, values: &[DataValue]) -> Assumption {
    let encrypted: Vec<String> = values
        .iter()
        .filter(|v| v.value.is_none())
        .take(3)
        .map(|v| format!("`{}`", v.key))
        .collect();
    let more = values.iter().filter(|v| v.value.is_none()).count() > encrypted.len();
    let named = if encrypted.is_empty() {
        String::new()
    } else {
        format!(
            " ({}{})",
            encrypted.join(", "),
            if more { ", …" } else { "" }
        )
    };
    Assumption::new(
        AssumptionKind::DecryptedValues,
        format!(
            "`sops -d {file}` gives the keys of the committed file, its encrypted values{named} \
             decrypted at run time: linted with a placeholder for each, and without the keys \
             the file does not have"
        ),
    )
}

/// Where a value is written in the committed file: the file's path and its key's line.
#[derive(Clone, Copy)]
struct Written<'a> {
    file: &'a str,
    line: u32,
}

/// Adds the data values of `value` at the dotted key `key` (written `at`): a map's keys one by
/// one when `-v` can name them, an encrypted value (or what holds one and cannot be named) as
/// given at run time, anything else as it is.
fn collect(key: &str, value: &Value, at: Written<'_>, out: &mut Vec<DataValue>) {
    match value {
        Value::Map(m)
            if !m.items.is_empty()
                && m.items
                    .iter()
                    .all(|i| matches!(&i.key, Value::String(k) if nameable(k))) =>
        {
            for i in &m.items {
                let k = crate::yaml::scalar_key_string(&i.key);
                let at = Written {
                    line: i.pos.line,
                    ..at
                };
                collect(&format!("{key}.{k}"), &i.value, at, out);
            }
        }
        Value::Map(m) if m.items.is_empty() => {}
        _ if holds_encrypted(value) => out.push(DataValue {
            kind: ValueKind::Yaml,
            key: key.to_string(),
            value: None,
            written: None,
        }),
        _ => out.push(DataValue {
            kind: ValueKind::Yaml,
            key: key.to_string(),
            value: crate::yaml::json::value_to_json(value, 0, false).ok(),
            written: (at.line > 0).then(|| format!("{}:{}", at.file, at.line)),
        }),
    }
}

/// Whether a key can be one segment of a `-v` key (no dot, no list index, no space).
fn nameable(key: &str) -> bool {
    !key.is_empty()
        && !key.chars().all(|c| c.is_ascii_digit())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Whether `value` is or holds a value sops encrypted.
fn holds_encrypted(value: &Value) -> bool {
    match value {
        Value::String(s) => s.starts_with("ENC[") && s.ends_with(']'),
        Value::Map(m) => m.items.iter().any(|i| holds_encrypted(&i.value)),
        Value::Array(a) => a.items.iter().any(|i| holds_encrypted(&i.value)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "creds:\n  user: ENC[AES256_GCM,data:AA==,iv:AA==,tag:AA==,type:str]\n  \
                        private_key: \"\"\n  hosts:\n  - ENC[AES256_GCM,data:AA==,type:str]\n\
                        port: 5432\nempty: {}\nsops:\n  mac: ENC[AES256_GCM,data:AA==,type:str]\n  \
                        version: 3.7.3\n";

    #[test]
    fn the_decrypted_file_of_a_substitution() {
        let f = |t: &str| decrypted_file(t);
        assert_eq!(
            f("<(sops -d secrets/a.sops.yaml)").as_deref(),
            Some("secrets/a.sops.yaml")
        );
        assert_eq!(
            f("<(sops --decrypt --input-type yaml a.yaml)").as_deref(),
            Some("a.yaml")
        );
        assert_eq!(
            f("<(/usr/local/bin/sops decrypt a.yaml)").as_deref(),
            Some("a.yaml")
        );
        assert_eq!(
            f("<(sops -d --output-type yaml a.yaml)").as_deref(),
            Some("a.yaml")
        );
        assert_eq!(f("<(sops -d --extract '[\"a\"]' a.yaml)"), None);
        assert_eq!(f("<(sops -d --output-type json a.yaml)"), None);
        assert_eq!(f("<(sops -d $FILE)"), None);
        assert_eq!(f("<(sops -e a.yaml)"), None);
        assert_eq!(f("<(sops -d a.yaml | yq .x)"), None);
        assert_eq!(f("<(cat a.yaml)"), None);
    }

    #[test]
    fn encrypted_values_are_given_at_run_time_and_the_others_are_the_files() {
        let got = values(FILE, "s.yaml").unwrap_or_default();
        let shown: Vec<(&str, Option<&str>, Option<&str>)> = got
            .iter()
            .map(|v| (v.key.as_str(), v.value.as_deref(), v.written.as_deref()))
            .collect();
        // A known value names the committed file at its key's line.
        assert_eq!(
            shown,
            vec![
                ("creds.user", None, None),
                ("creds.private_key", Some("\"\""), Some("s.yaml:3")),
                ("creds.hosts", None, None),
                ("port", Some("5432"), Some("s.yaml:6")),
            ]
        );
    }

    #[test]
    fn a_file_without_sops_metadata_or_with_an_unnameable_key_is_not_read() {
        assert!(values("creds:\n  user: x\n", "s.yaml").is_none());
        assert!(values("a.b: ENC[x]\nsops:\n  mac: x\n", "s.yaml").is_none());
        assert!(values("---\na: 1\n---\nsops:\n  mac: x\n", "s.yaml").is_none());
    }

    #[test]
    fn the_assumption_names_the_file_and_the_encrypted_keys() {
        let a = assumption("s.yaml", &values(FILE, "s.yaml").unwrap_or_default());
        assert_eq!(a.kind, AssumptionKind::DecryptedValues);
        assert!(a.message.contains("`sops -d s.yaml`"), "{}", a.message);
        assert!(
            a.message.contains("(`creds.user`, `creds.hosts`)"),
            "{}",
            a.message
        );
    }
}
