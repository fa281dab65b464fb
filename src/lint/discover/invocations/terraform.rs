//! Terraform's Carvel provider: a `data "carvel_ytt" "NAME" { ... }` block (or the older
//! `k14s_ytt`) runs ytt on its `files` with its `values` as `--data-value`s, its `values_yaml`
//! as a data values file and its `config_yaml` as one more file (round fourteen's
//! cloudfoundry/app-runtime-interfaces-infrastructure: `files = ["files/config/credhub",
//! "files/config/uaa"]` and `values = {"google.project_id" = var.project}`). The block is read
//! as the command `ytt -f FILE ... -v KEY=VALUE ...`: a value that is no string literal
//! (`var.project`) is known only at run time, and so is the text of `values_yaml` and
//! `config_yaml` (usually another data source's output). The provider resolves `files` against
//! the directory Terraform runs in: the `.tf` file's own, for a root module (or a module that
//! a wrapper such as Terragrunt runs in its copy), which is assumed and said.
//!
//! Only the few shapes of HCL these blocks use are read (string literals, lists of them, maps
//! of `KEY = EXPR`); the scan is bounded and gives up on anything else.

use super::snippet::{Marked, Snippet};
use super::word::{Word, REPO};
use crate::files::paths;
use crate::report::{Assumption, AssumptionKind};

/// Blocks read at most from one file.
const MAX_BLOCKS: usize = 64;
/// Files and values read at most from one block.
const MAX_ITEMS: usize = 256;

/// Whether a repository file is Terraform configuration.
pub fn candidate(path: &str) -> bool {
    path.ends_with(".tf")
}

/// The ytt commands of the `carvel_ytt` blocks of the Terraform file at `path`.
pub fn snippets(path: &str, text: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    let dir = paths::parent(path);
    let mut from = 0;
    while out.len() < MAX_BLOCKS {
        let Some((start, body, next)) = next_block(text, from) else {
            break;
        };
        from = next;
        let line = u32::try_from(crate::pos::lines(&text[..start]).count()).unwrap_or(1);
        let Some(m) = command(&body) else {
            continue;
        };
        let mut s = m.into_snippet(path, line.saturating_sub(1), cwd(dir));
        s.assumed.push(Assumption::new(
            AssumptionKind::WorkingDirectory,
            format!(
                "Terraform runs in {}, the directory of {path}, and its carvel_ytt block reads its files from there",
                if dir == "." { "the repository's top" } else { dir }
            ),
        ));
        out.push(s);
    }
    out
}

fn cwd(dir: &str) -> Word {
    Word::lit(format!("{REPO}/{dir}")).normalized()
}

/// The next `data "carvel_ytt" "NAME" {` at or after byte `from`: where it starts, its
/// body's text, and where to look for the one after it (past the type's name, so that each
/// block is read once).
fn next_block(text: &str, from: usize) -> Option<(usize, String, usize)> {
    let rest = text.get(from..)?;
    let at = ["\"carvel_ytt\"", "\"k14s_ytt\""]
        .iter()
        .filter_map(|k| rest.find(k))
        .min()?;
    let abs = from + at;
    let before = text[..abs].trim_end();
    let next = abs + 1;
    if !before.ends_with("data") {
        return Some((abs, String::new(), next));
    }
    let start = before.len() - "data".len();
    let open = abs + text[abs..].find('{')?;
    let close = open + balanced(&text[open..])?;
    Some((start, text[open + 1..close].to_string(), next))
}

/// The index of the bracket that closes the one `s` starts with, skipping strings and
/// comments.
fn balanced(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i)?,
            b'#' => {
                i = bytes[i..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(bytes.len(), |p| i + p)
            }
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote that ends the string starting at `i`.
fn string_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'"' => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// The command a block's body describes (`None` without `files`).
fn command(body: &str) -> Option<Marked> {
    let attrs = attributes(body);
    let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let files = strings_of_list(get("files")?);
    if files.is_empty() {
        return None;
    }
    let mut m = Marked::default();
    if let Some(c) = get("config_yaml") {
        m.push("echo \"");
        m.unknown(&format!("config_yaml = {}", first_line(c)));
        m.push("\" | ");
    }
    m.push("ytt");
    if get("ignore_unknown_comments").is_some_and(|v| v.trim() == "true") {
        m.push(" --ignore-unknown-comments");
    }
    for f in files.iter().take(MAX_ITEMS) {
        m.push(" -f ");
        literal(&mut m, f);
    }
    if get("config_yaml").is_some() {
        m.push(" -f -");
    }
    if let Some(v) = get("values_yaml") {
        m.push(" --data-values-file ");
        m.unknown(&format!("values_yaml = {}", first_line(v)));
    }
    if let Some(v) = get("values") {
        for (key, value) in map_entries(v).into_iter().take(MAX_ITEMS) {
            m.push(&format!(" -v {}=", shell_quote(&key)));
            match string_literal(&value) {
                Some(s) if !s.contains("${") => m.push(&shell_quote(&s)),
                _ => m.unknown(&value),
            }
        }
    }
    Some(m)
}

/// A path of `files`: literal text, `${path.module}` as the module's directory (`.`), any
/// other interpolation known only at run time.
fn literal(m: &mut Marked, s: &str) {
    let s = s.replace("${path.module}", ".");
    if s.contains("${") {
        m.unknown(&s);
    } else {
        m.push(&shell_quote(&s));
    }
}

/// The first line of an expression, for messages.
fn first_line(v: &str) -> String {
    v.trim()
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(80)
        .collect()
}

/// The top-level `NAME = VALUE` attributes of a block body (VALUE as written).
fn attributes(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() && out.len() < MAX_ITEMS {
        let line_end = body[i..].find('\n').map_or(body.len(), |p| i + p);
        let line = &body[i..line_end];
        let Some((name, _)) = line.split_once('=').filter(|(n, _)| is_ident(n.trim())) else {
            i = line_end + 1;
            continue;
        };
        let value_start = i + line.find('=').unwrap_or(0) + 1;
        let rest = &body[value_start..];
        let lead = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let v = value_start + lead;
        let end = match bytes.get(v) {
            Some(b'[' | b'{' | b'(') => balanced(&body[v..]).map_or(body.len(), |e| v + e + 1),
            Some(b'<') if body[v..].starts_with("<<") => heredoc_end(body, v),
            _ => line_end,
        };
        out.push((name.trim().to_string(), body[v..end].to_string()));
        i = end.max(line_end) + 1;
        if end > line_end {
            i = body[end..].find('\n').map_or(body.len(), |p| end + p + 1);
        }
    }
    out
}

/// The end of a heredoc (`<<EOF` or `<<-EOF`) that starts at `v`.
fn heredoc_end(body: &str, v: usize) -> usize {
    let head_end = body[v..].find('\n').map_or(body.len(), |p| v + p);
    let tag = body[v + 2..head_end].trim_start_matches('-').trim();
    if tag.is_empty() {
        return head_end;
    }
    let mut at = head_end + 1;
    while at < body.len() {
        let end = body[at..].find('\n').map_or(body.len(), |p| at + p);
        if body[at..end].trim() == tag {
            return end;
        }
        at = end + 1;
    }
    body.len()
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The string literals of a list (`["a", "b"]`); none when it holds anything else.
fn strings_of_list(v: &str) -> Vec<String> {
    let v = v.trim();
    let Some(inner) = v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
        return Vec::new();
    };
    let items: Vec<&str> = inner
        .split([',', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.starts_with('#') && !s.starts_with("//"))
        .collect();
    let strings: Vec<String> = items.iter().filter_map(|s| string_literal(s)).collect();
    if strings.len() == items.len() {
        strings
    } else {
        Vec::new()
    }
}

/// The entries of a map (`{ "a.b" = var.x, c = "d" }`), keys unquoted, values as written.
fn map_entries(v: &str) -> Vec<(String, String)> {
    let v = v.trim();
    let Some(inner) = v.strip_prefix('{').and_then(|r| r.strip_suffix('}')) else {
        return Vec::new();
    };
    inner
        .split([',', '\n'])
        .filter_map(|e| {
            let (k, val) = e.split_once('=')?;
            let k = k.trim();
            let key = string_literal(k).unwrap_or_else(|| k.to_string());
            (!key.is_empty() && !key.starts_with('#')).then(|| (key, val.trim().to_string()))
        })
        .collect()
}

/// The text of a plain string literal (`"a"`), with `\"` and `\\` unescaped.
fn string_literal(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('"') && !inner.contains("\\\"") {
        return None;
    }
    Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// A word for the shell, single-quoted unless plain.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TF: &str = r#"data "carvel_ytt" "credhub" {

  files = [
    "files/config/credhub",
    "${path.module}/files/config/uaa"
  ]
  values = {
    "google.project_id" = var.project
    region              = "europe-west3"
  }
}

resource "carvel_kapp" "credhub" {
  config_yaml = data.carvel_ytt.credhub.result
}

data "carvel_ytt" "app" {
  files       = [ "files/config/app" ]
  config_yaml = data.helm_template.app.manifest
  ignore_unknown_comments = true
}
"#;

    #[test]
    fn each_block_is_a_command_with_its_files_and_values() {
        let s = snippets("infra/app/main.tf", TF);
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[0].text,
            "ytt -f files/config/credhub -f ./files/config/uaa -v google.project_id=${__yttlint_0} -v region=europe-west3"
        );
        assert_eq!(s[0].vars[0].1.to_string(), "var.project");
        assert_eq!(s[0].line_offset, 0);
        assert_eq!(s[0].cwd, cwd("infra/app"));
        assert_eq!(s[0].assumed[0].kind, AssumptionKind::WorkingDirectory);
        assert_eq!(
            s[1].text,
            "echo \"${__yttlint_0}\" | ytt --ignore-unknown-comments -f files/config/app -f -"
        );
        assert_eq!(s[1].line_offset + 1, 17);
    }

    #[test]
    fn other_shapes_give_nothing_and_never_panic() {
        assert!(snippets("a.tf", "data \"carvel_ytt\" \"x\" { files = var.files }").is_empty());
        assert!(snippets("a.tf", "data \"carvel_ytt\" \"x\" {").is_empty());
        assert!(snippets("a.tf", "resource \"carvel_ytt\" {}}}").is_empty());
        assert!(snippets("a.tf", "data \"carvel_ytt\" \"x\" { files = [\"a\" }").is_empty());
        let heredoc = "data \"carvel_ytt\" \"x\" {\n  values_yaml = <<EOF\n    #@data/values\n    ---\n    a: 1\n  EOF\n  files = [\"c\"]\n}\n";
        let s = snippets("a.tf", heredoc);
        assert_eq!(s.len(), 1);
        assert!(s[0]
            .text
            .starts_with("ytt -f c --data-values-file ${__yttlint_0}"));
    }
}
