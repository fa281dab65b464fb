//! The paths a script's variables hold, as far as the script's own text says, for the tools
//! it runs on them ([`super::tool_reads`]). A script that is sourced or run from anywhere
//! names its files from its own directory:
//!
//! ```text
//! HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
//! NAME=configuration.yaml
//! export CONFIGURATION_FILE="$(dirname ${BASH_SOURCE[0]})/${NAME}"
//! port=$(yq -e eval '.configuration.vpn.port' ${CONFIGURATION_FILE})
//! ```
//!
//! `$(dirname "$0")`, `$(dirname ${BASH_SOURCE[0]})` and `$(cd "$(dirname …)" && pwd)` are the
//! script's directory; a variable assigned a literal, or a path built from those and other
//! such variables, holds that path. Anything else (a value from the environment, a command's
//! output) is unknown, and a word that uses it names no file.

use std::collections::BTreeMap;

use crate::files::paths;

/// The script's directory in a resolved value, before it is joined to the script's path.
const HERE: &str = "\u{0}here";

/// The variables of a script whose values its text fixes, each a path relative to the
/// script's directory (`HERE/…`) or a literal.
#[derive(Debug, Default)]
pub struct Vars {
    known: BTreeMap<String, String>,
}

impl Vars {
    /// The assignments of `text`, in order (a later one replaces an earlier one).
    pub fn of(text: &str) -> Vars {
        let mut vars = Vars::default();
        for line in text.lines() {
            let mut l = line.trim_start();
            for keyword in ["export ", "local ", "readonly ", "declare "] {
                if let Some(rest) = l.strip_prefix(keyword) {
                    l = rest.trim_start();
                }
            }
            let Some((name, value)) = l.split_once('=') else {
                continue;
            };
            let plain = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if !plain {
                continue;
            }
            // The value up to the first blank outside quotes and `$( )`.
            let value = first_word(value);
            match vars.resolve(value) {
                Some(v) => vars.known.insert(name.to_string(), v),
                None => vars.known.remove(name),
            };
        }
        vars
    }

    /// `word` with the script's directory and known variables substituted, as a repository
    /// path when the script at `script` fixes it, else `None`.
    pub fn path_of(&self, word: &str, script: &str) -> Option<String> {
        let v = self.resolve(word)?;
        let dir = paths::parent(script);
        let rel = match v.strip_prefix(HERE) {
            Some(rest) => paths::join(dir, rest.trim_start_matches('/')),
            None => return (!v.contains('$')).then_some(v),
        };
        Some(rel)
    }

    /// A value with quotes dropped and what the script fixes substituted; `None` when it holds
    /// anything the script does not fix.
    fn resolve(&self, value: &str) -> Option<String> {
        let mut v: String = value.chars().filter(|c| *c != '"' && *c != '\'').collect();
        for dir in script_dirs() {
            v = v.replace(dir, HERE);
        }
        let mut out = String::new();
        let mut rest = v.as_str();
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let (name, len) = match after.strip_prefix('{') {
                Some(inner) => {
                    let end = inner.find('}')?;
                    (&inner[..end], end + 2)
                }
                None => {
                    let end = after
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(after.len());
                    (&after[..end], end)
                }
            };
            out.push_str(self.known.get(name)?);
            rest = &after[len..];
        }
        out.push_str(rest);
        Some(out)
    }
}

/// How scripts write their own directory (quotes already dropped).
fn script_dirs() -> [&'static str; 6] {
    [
        "$(cd $(dirname ${BASH_SOURCE[0]}) && pwd)",
        "$(cd $(dirname $0) && pwd)",
        "$(dirname ${BASH_SOURCE[0]})",
        "$(dirname $BASH_SOURCE)",
        "$(dirname ${0})",
        "$(dirname $0)",
    ]
}

/// The text up to the first blank outside quotes and `$( … )`.
fn first_word(s: &str) -> &str {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') if prev == '$' => depth += 1,
            (None, ')') if depth > 0 => depth -= 1,
            (None, c) if c.is_whitespace() && depth == 0 => return &s[..i],
            (None, ';') if depth == 0 => return &s[..i],
            _ => {}
        }
        prev = c;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_from_the_script_s_own_directory_are_known() {
        let text = "HERE=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n\
                    NAME=configuration.yaml\n\
                    export CONFIGURATION_FILE=\"$(dirname ${BASH_SOURCE[0]})/${NAME}\"\n\
                    OTHER=$HERE/../values.yml\n\
                    FROM_ENV=${VALUES:-x.yml}\n\
                    local L=$(dirname \"$0\")/l.yml # a comment\n";
        let v = Vars::of(text);
        assert_eq!(
            v.path_of("${CONFIGURATION_FILE}", "infra/setup.sh")
                .as_deref(),
            Some("infra/configuration.yaml")
        );
        assert_eq!(
            v.path_of("\"$CONFIGURATION_FILE\"", "setup.sh").as_deref(),
            Some("configuration.yaml")
        );
        assert_eq!(
            v.path_of("$OTHER", "infra/setup.sh").as_deref(),
            Some("infra/../values.yml")
        );
        assert_eq!(v.path_of("$L", "a/b.sh").as_deref(), Some("a/l.yml"));
        assert_eq!(v.path_of("$FROM_ENV", "setup.sh"), None);
        assert_eq!(v.path_of("$UNSET", "setup.sh"), None);
        assert_eq!(
            v.path_of("plain.yml", "setup.sh").as_deref(),
            Some("plain.yml")
        );
    }
}
