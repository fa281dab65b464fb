//! Reads `.yttlint.yaml` into a [`Config`]: every key checked against the keys its section
//! accepts, every value against its type, paths against the disk, globs against globset and
//! ytt flags against `yttlint template`'s parser. An error names the file, line and column and
//! quotes what was found, what was expected and, when one is close, the likely intended key.

use crate::report::Rule;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use clap::Parser;

use crate::lint::config::{
    Config, ConfigError, KubernetesConfig, Loc, RootConfig, RuleLevel, ScenarioConfig,
};
use crate::pos::Pos;
use crate::report::Severity;
use crate::schema::spell::nearest;
use crate::yaml::parse::{parse as parse_yaml, ParseOpts};
use crate::yaml::{scalar_key_string, Map, Value};
use crate::ytt_flags::TemplateArgs;

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
const ROOT_KEYS: &[&str] = &[
    "path",
    "name",
    "scenarios",
    "args",
    "unset_values",
    "evaluate",
    "assumes",
    "package",
];
const SCENARIO_KEYS: &[&str] = &[
    "name",
    "values_files",
    "data_values",
    "args",
    "provided",
    "origin",
    "assumes",
    "unset_values",
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
    pub(super) dir: &'a Path,
    allow_env: &'a [String],
}

fn loc(pos: &Pos) -> Option<Loc> {
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

    fn strings(&self, v: &Value, pos: &Pos, what: &str) -> Result<Vec<(String, Pos)>, ConfigError> {
        let mut out = Vec::new();
        for (item, ipos) in self.list(v, pos, what)? {
            out.push((
                self.string(item, ipos, &format!("an item of {what}"))?,
                ipos.clone(),
            ));
        }
        Ok(out)
    }

    fn boolean(&self, v: &Value, pos: &Pos, what: &str) -> Result<bool, ConfigError> {
        match v {
            Value::Bool(b) => Ok(*b),
            other => Err(self.expected(pos, what, "true or false", other)),
        }
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

    fn roots(&self, v: &Value, pos: &Pos) -> Result<Vec<RootConfig>, ConfigError> {
        let mut out: Vec<RootConfig> = Vec::new();
        for (item, ipos) in self.list(v, pos, "roots")? {
            let root = self.root(item, ipos)?;
            let name = |r: &RootConfig| r.name.clone().unwrap_or_else(|| r.path.clone());
            if out.iter().any(|r| name(r) == name(&root)) {
                return Err(self.error(ipos, format!("root \"{}\" is listed twice", name(&root))));
            }
            out.push(root);
        }
        Ok(out)
    }

    fn root(&self, v: &Value, pos: &Pos) -> Result<RootConfig, ConfigError> {
        let m = self.map(v, pos, "a root")?;
        self.keys(m, ROOT_KEYS, "a root")?;
        let mut root = RootConfig {
            loc: loc(pos).unwrap_or_default(),
            ..RootConfig::default()
        };
        // Flags' paths are relative to the root (a file root's directory).
        if let Some(item) = m.items.iter().find(|i| scalar_key_string(&i.key) == "path") {
            root.path = self.existing_path(&item.value, &item.pos, "path")?;
        }
        let root_abs = self.dir.join(&root.path);
        let base = if root_abs.is_file() {
            root_abs.parent().unwrap_or(self.dir).to_path_buf()
        } else {
            root_abs
        };
        for item in &m.items {
            let (v, ipos) = (&item.value, &item.pos);
            match scalar_key_string(&item.key).as_str() {
                "path" => {}
                "name" => root.name = Some(self.string(v, ipos, "name")?),
                "args" => root.args = self.args(v, ipos, &base)?,
                "unset_values" => root.needs_input = self.unset_values(v, ipos)?,
                "assumes" => root.assumptions = self.assumes(v, ipos)?,
                "package" => root.package = Some(self.package(v, ipos)?),
                "evaluate" => root.files_only = !self.boolean(v, ipos, "evaluate")?,
                _ => {
                    for (s, spos) in self.list(v, ipos, "scenarios")? {
                        let sc = self.scenario(s, spos, &base)?;
                        if root.scenarios.iter().any(|o| o.name == sc.name) {
                            return Err(self.error(
                                spos,
                                format!("scenario \"{}\" is defined twice", sc.name),
                            ));
                        }
                        root.scenarios.push(sc);
                    }
                }
            }
        }
        if root.path.is_empty() {
            return Err(self.error(pos, "a root needs a \"path\""));
        }
        Ok(root)
    }

    /// A path relative to the repository that must exist, normalised (`./a/` is `a`).
    pub(super) fn existing_path(
        &self,
        v: &Value,
        pos: &Pos,
        what: &str,
    ) -> Result<String, ConfigError> {
        let raw = self.string(v, pos, what)?;
        let abs = crate::files::paths::absolute(self.dir, Path::new(&raw));
        let rel = crate::files::paths::relative(self.dir, &abs)
            .ok_or_else(|| self.error(pos, format!("path \"{raw}\" is outside the repository")))?;
        if !abs.exists() {
            return Err(self.error(pos, format!("path \"{raw}\" does not exist")));
        }
        if !crate::lint::config::untrusted::inside(self.dir, &abs) {
            return Err(self.error(
                pos,
                format!("path \"{raw}\" leads outside the repository through a symlink"),
            ));
        }
        Ok(rel)
    }

    /// ytt flags whose paths are relative to `base`: parsed as `yttlint template` parses
    /// them, then held to what the repository may ask (see [`crate::lint::config::untrusted`]).
    fn args(&self, v: &Value, pos: &Pos, base: &Path) -> Result<Vec<String>, ConfigError> {
        let entries = self.strings(v, pos, "args")?;
        let args: Vec<String> = entries.iter().map(|(s, _)| s.clone()).collect();
        let parsed = TemplateArgs::try_parse_from(
            std::iter::once("template".to_string()).chain(args.iter().cloned()),
        )
        .map_err(|e| {
            let first = e
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string();
            self.error(pos, format!("invalid ytt flags: {first}"))
        })?;
        if parsed
            .files
            .iter()
            .chain(&parsed.dv_files)
            .any(|f| f == "-" || f.ends_with("=-"))
        {
            return Err(self.error(
                pos,
                "invalid ytt flags: standard input (-) is not available to the linter",
            ));
        }
        if let Err(refused) = crate::lint::config::untrusted::check_args(
            &parsed,
            &args,
            base,
            self.dir,
            self.allow_env,
        ) {
            let (at, entry) = match refused.entry.and_then(|i| entries.get(i)) {
                Some((text, epos)) => (epos, format!(" \"{text}\"")),
                None => (pos, String::new()),
            };
            return Err(self.error(
                at,
                format!("args entry{entry} refused: {}", refused.message),
            ));
        }
        Ok(args)
    }

    fn scenario(&self, v: &Value, pos: &Pos, base: &Path) -> Result<ScenarioConfig, ConfigError> {
        let m = self.map(v, pos, "a scenario")?;
        self.keys(m, SCENARIO_KEYS, "a scenario")?;
        let mut sc = ScenarioConfig {
            loc: loc(pos).unwrap_or_default(),
            ..ScenarioConfig::default()
        };
        for item in &m.items {
            let (v, ipos) = (&item.value, &item.pos);
            match scalar_key_string(&item.key).as_str() {
                "name" => sc.name = self.string(v, ipos, "name")?,
                "args" => sc.args = self.args(v, ipos, base)?,
                "origin" => sc.origin = Some(self.string(v, ipos, "origin")?),
                "assumes" => sc.assumptions = self.assumes(v, ipos)?,
                "unset_values" => sc.needs_input = Some(self.unset_values(v, ipos)?),
                "provided" => {
                    sc.provided = self
                        .strings(v, ipos, "provided")?
                        .into_iter()
                        .map(|(s, _)| s)
                        .collect()
                }
                "values_files" => {
                    for (f, fpos) in self.strings(v, ipos, "values_files")? {
                        sc.values_files.push(self.values_file(&f, &fpos)?);
                    }
                }
                _ => {
                    let dv = self.map(v, ipos, "data_values")?;
                    for kv in &dv.items {
                        sc.data_values.push((
                            scalar_key_string(&kv.key),
                            kv.value.clone(),
                            loc(&kv.pos).unwrap_or_default(),
                        ));
                    }
                }
            }
        }
        if sc.name.is_empty() {
            return Err(self.error(pos, "a scenario needs a \"name\""));
        }
        Ok(sc)
    }

    /// `unset_values: error | needs-input`; true for `needs-input`.
    fn unset_values(&self, v: &Value, pos: &Pos) -> Result<bool, ConfigError> {
        match v {
            Value::String(s) if s == Rule::NeedsInput.id() => Ok(true),
            Value::String(s) if s == "error" => Ok(false),
            other => Err(self.expected(pos, "unset_values", "error or needs-input", other)),
        }
    }

    /// `[@lib:][+:]path`: the prefixes are kept, the path must exist.
    fn values_file(&self, arg: &str, pos: &Pos) -> Result<String, ConfigError> {
        let (lib, rest) = split_lib_ref(arg);
        let (plus, path) = match rest.strip_prefix("+:") {
            Some(p) => ("+:", p),
            None => ("", rest),
        };
        let rel = self.existing_path(&Value::String(path.to_string()), pos, "values_files")?;
        Ok(format!("{lib}{plus}{rel}"))
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
