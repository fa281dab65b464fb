//! Reads `.yttlint.yaml` into a [`Config`]: every key checked against the keys its section
//! accepts, every value against its type, paths against the disk, globs against globset and
//! ytt flags against `yttlint template`'s parser. An error names the file, line and column and
//! quotes what was found, what was expected and, when one is close, the likely intended key.

use crate::report::Rule;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::lint::config::{Config, ConfigError, KubernetesConfig, Loc, RuleLevel};
use crate::pos::Pos;
use crate::report::Severity;
use crate::schema::spell::nearest;
use crate::yaml::parse::{parse as parse_yaml, ParseOpts};
use crate::yaml::{scalar_key_string, Map, Value};

const TOP_KEYS: &[&str] = &[
    "roots",
    "exclude",
    "rules",
    "kubevirt",
    "kubernetes",
    "invocations",
    "max_learned_scenarios",
    "extensions",
    "policies",
];
const LEVELS: &[&str] = &["error", "warning", "info", "off"];

/// Parses the text of a configuration file shown as `file`, whose paths are relative to `dir`.
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<Config, ConfigError> {
    parse_with(text, file, dir, &[])
}

/// [`parse`], with the environment prefixes the command line allows (`--allow-env`).
pub fn parse_with(
    text: &str,
    file: &str,
    dir: &Path,
    allow_env: &[String],
) -> Result<Config, ConfigError> {
    let r = Reader {
        file,
        text,
        dir,
        allow_env,
    };
    let name: Arc<str> = Arc::from(file);
    let docs =
        parse_yaml(text, &name, &ParseOpts::default()).map_err(|e| r.error(&e.pos, e.message))?;
    let mut config = Config::default_for(dir);
    let mut found: Vec<_> = docs
        .items
        .iter()
        .filter(|d| !matches!(d.value, Value::Null))
        .collect();
    if found.len() > 1 {
        return Err(r.error(&found[1].pos, "expected one YAML document, found several"));
    }
    let Some(doc) = found.pop() else {
        return Ok(config);
    };
    let top = r.map(&doc.value, &doc.pos, "the configuration")?;
    r.keys(top, TOP_KEYS, "the configuration")?;
    for item in &top.items {
        let (key, v, pos) = (scalar_key_string(&item.key), &item.value, &item.pos);
        match key.as_str() {
            "roots" => config.roots = r.roots(v, pos)?,
            "exclude" => config.exclude = r.globs(v, pos)?,
            "rules" => config.rules = r.rules(v, pos)?,
            "invocations" => config.invocations = r.boolean(v, pos, "invocations")?,
            "max_learned_scenarios" => config.max_learned_scenarios = r.scenario_cap(v, pos)?,
            "extensions" => config.extensions = r.extensions(v, pos)?,
            "kubernetes" => config.kubernetes = r.kubernetes(v, pos)?,
            "policies" => config.policies = r.policies(v, pos)?,
            _ => config.kubevirt = r.boolean(v, pos, "kubevirt")?,
        }
    }
    r.policy_levels(top, &config)?;
    config.exclude.extend(config.policies.excluded());
    Ok(config)
}

pub(super) struct Reader<'a> {
    file: &'a str,
    /// The configuration's text (where a literal block's lines start: `stdin:`).
    pub(super) text: &'a str,
    pub(super) dir: &'a Path,
    pub(super) allow_env: &'a [String],
}

pub(super) fn loc(pos: &Pos) -> Option<Loc> {
    pos.is_known().then_some(Loc {
        line: pos.line,
        column: pos.col.max(1),
    })
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("string \"{s}\""),
        Value::Map(_) | Value::Array(_) | Value::Null => v.type_name().to_string(),
        other => format!("{} {}", other.type_name(), scalar_key_string(other)),
    }
}

impl Reader<'_> {
    pub(super) fn error(&self, pos: &Pos, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.to_string(),
            loc: loc(pos),
            message: message.into(),
        }
    }

    pub(super) fn expected(
        &self,
        pos: &Pos,
        what: &str,
        expected: &str,
        found: &Value,
    ) -> ConfigError {
        self.error(
            pos,
            format!("expected {expected} for {what}, found {}", describe(found)),
        )
    }

    pub(super) fn map<'v>(
        &self,
        v: &'v Value,
        pos: &Pos,
        what: &str,
    ) -> Result<&'v Map, ConfigError> {
        match v {
            Value::Map(m) => Ok(m),
            other => Err(self.expected(pos, what, "a map", other)),
        }
    }

    pub(super) fn list<'v>(
        &self,
        v: &'v Value,
        pos: &Pos,
        what: &str,
    ) -> Result<Vec<(&'v Value, &'v Pos)>, ConfigError> {
        match v {
            Value::Array(a) => Ok(a.items.iter().map(|i| (&i.value, &i.pos)).collect()),
            Value::Null => Ok(Vec::new()),
            other => Err(self.expected(pos, what, "a list", other)),
        }
    }

    /// Checks every key of `m` is one of `allowed` and appears once.
    pub(super) fn keys(&self, m: &Map, allowed: &[&str], section: &str) -> Result<(), ConfigError> {
        let mut seen = Vec::new();
        for item in &m.items {
            let key = scalar_key_string(&item.key);
            if !allowed.contains(&key.as_str()) {
                let choices: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
                let mut msg = format!(
                    "unknown key \"{key}\" in {section}; expected one of: {}",
                    allowed.join(", ")
                );
                if let Some(near) = nearest(&key, &choices) {
                    msg.push_str(&format!(" (did you mean \"{near}\"?)"));
                }
                return Err(self.error(&item.pos, msg));
            }
            if seen.contains(&key) {
                return Err(self.error(&item.pos, format!("duplicate key \"{key}\" in {section}")));
            }
            seen.push(key);
        }
        Ok(())
    }

    pub(super) fn string(&self, v: &Value, pos: &Pos, what: &str) -> Result<String, ConfigError> {
        match v {
            Value::String(s) if !s.is_empty() => Ok(s.clone()),
            other => Err(self.expected(pos, what, "a non-empty string", other)),
        }
    }

    pub(super) fn strings(
        &self,
        v: &Value,
        pos: &Pos,
        what: &str,
    ) -> Result<Vec<(String, Pos)>, ConfigError> {
        let mut out = Vec::new();
        for (item, ipos) in self.list(v, pos, what)? {
            out.push((
                self.string(item, ipos, &format!("an item of {what}"))?,
                ipos.clone(),
            ));
        }
        Ok(out)
    }

    pub(super) fn boolean(&self, v: &Value, pos: &Pos, what: &str) -> Result<bool, ConfigError> {
        match v {
            Value::Bool(b) => Ok(*b),
            other => Err(self.expected(pos, what, "true or false", other)),
        }
    }

    /// A whole number from 0 (`stdin_after: N`).
    pub(super) fn count(&self, v: &Value, pos: &Pos, what: &str) -> Result<usize, ConfigError> {
        let n = match v {
            Value::Int(i) => u64::try_from(*i).ok(),
            Value::Uint(u) => Some(*u),
            _ => None,
        };
        n.map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .ok_or_else(|| self.expected(pos, what, "a whole number", v))
    }

    /// `max_learned_scenarios: N`: a whole number from 1 (a root keeps at least one scenario).
    fn scenario_cap(&self, v: &Value, pos: &Pos) -> Result<usize, ConfigError> {
        let n = match v {
            Value::Int(i) => u64::try_from(*i).ok(),
            Value::Uint(u) => Some(*u),
            _ => None,
        };
        n.filter(|&n| n >= 1)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .ok_or_else(|| {
                self.expected(
                    pos,
                    "max_learned_scenarios",
                    "a whole number of at least 1",
                    v,
                )
            })
    }

    /// `kubernetes: false`, `true`, or `{version: "1.37", schemas: [DIR, ...]}`.
    fn kubernetes(&self, v: &Value, pos: &Pos) -> Result<Option<KubernetesConfig>, ConfigError> {
        let m = match v {
            Value::Bool(false) => return Ok(None),
            Value::Bool(true) => return Ok(Some(KubernetesConfig::default())),
            Value::Map(m) => m,
            other => {
                return Err(self.expected(
                    pos,
                    "kubernetes",
                    "true, false or a map with version and schemas",
                    other,
                ))
            }
        };
        self.keys(m, &["version", "schemas"], "kubernetes")?;
        let mut out = KubernetesConfig::default();
        for item in &m.items {
            let (key, v, pos) = (scalar_key_string(&item.key), &item.value, &item.pos);
            if key == "version" {
                let version = match v {
                    Value::String(s) => s.clone(),
                    // `version: 1.37` is a float to YAML.
                    Value::Float(f) => f.to_string(),
                    other => {
                        return Err(self.expected(pos, "kubernetes.version", "a string", other))
                    }
                };
                crate::kubernetes::Registry::check_version(&version)
                    .map_err(|e| self.error(pos, e))?;
                out.version = version;
                out.version_given = true;
            } else {
                let list = match v {
                    Value::Array(a) => a.items.iter().map(|i| (&i.value, &i.pos)).collect(),
                    other => vec![(other, pos)],
                };
                for (dir, dpos) in list {
                    out.schemas
                        .push(self.existing_path(dir, dpos, "kubernetes.schemas")?);
                }
            }
        }
        Ok(Some(out))
    }

    fn globs(&self, v: &Value, pos: &Pos) -> Result<Vec<String>, ConfigError> {
        let mut out = Vec::new();
        for (glob, gpos) in self.strings(v, pos, "exclude")? {
            globset::Glob::new(&glob)
                .map_err(|e| self.error(&gpos, format!("invalid glob \"{glob}\": {}", e.kind())))?;
            out.push(glob);
        }
        Ok(out)
    }

    fn extensions(&self, v: &Value, pos: &Pos) -> Result<Vec<String>, ConfigError> {
        let mut out = Vec::new();
        for (name, npos) in self.strings(v, pos, "extensions")? {
            crate::schema::extensions::Extension::parse(&name).map_err(|m| self.error(&npos, m))?;
            if !out.contains(&name) {
                out.push(name);
            }
        }
        Ok(out)
    }

    fn rules(&self, v: &Value, pos: &Pos) -> Result<BTreeMap<Rule, RuleLevel>, ConfigError> {
        let m = self.map(v, pos, "rules")?;
        let ids: Vec<String> = Rule::ALL.iter().map(|r| r.id().to_string()).collect();
        let mut out = BTreeMap::new();
        for item in &m.items {
            let id = scalar_key_string(&item.key);
            let Some(rule) = Rule::from_id(&id) else {
                let hint = nearest(&id, &ids)
                    .map(|n| format!(" (did you mean \"{n}\"?)"))
                    .unwrap_or_default();
                return Err(self.error(&item.pos, format!("unknown rule \"{id}\"{hint}")));
            };
            let text = match &item.value {
                Value::String(s) => s.clone(),
                // YAML 1.1 reads a bare `off` as false.
                Value::Bool(false) => "off".to_string(),
                other => {
                    return Err(self.expected(
                        &item.pos,
                        &format!("rule \"{id}\""),
                        "a severity",
                        other,
                    ))
                }
            };
            let level = match Severity::parse(&text) {
                Some(s) => RuleLevel::Severity(s),
                None if text == "off" => RuleLevel::Off,
                None => {
                    return Err(self.error(
                        &item.pos,
                        format!(
                            "unknown severity \"{text}\" for rule \"{id}\"; expected one of: {}",
                            LEVELS.join(", ")
                        ),
                    ))
                }
            };
            out.insert(rule, level);
        }
        Ok(out)
    }
}

/// Splits `@lib:` (kept with its colon) off a `--data-values-file` argument.
pub fn split_lib_ref(arg: &str) -> (&str, &str) {
    if arg.starts_with('@') {
        if let Some(i) = arg.find(':') {
            return (&arg[..=i], &arg[i + 1..]);
        }
    }
    ("", arg)
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
