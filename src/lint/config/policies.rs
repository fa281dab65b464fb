//! `policies:` of the configuration: which categories of built-in checks of the rendered
//! objects are on (`checks: [kube-linter]`), and the directories of the repository's own
//! Starlark policies (`dirs:`). Both forms the issue asked for are one shape:
//!
//! ```yaml
//! policies: [policies/]                  # a list: the directories alone
//! policies: {checks: [kube-linter]}      # a map: categories, directories, or both
//! policies: {checks: [kube-linter], dirs: [policies/]}
//! ```
//!
//! The policy directories are checked when the configuration is read (inside the repository,
//! existing, each `.star` file directly in one a valid and unique rule name), and are left
//! out of the walk for ytt files: a policy is not a ytt file.

use crate::lint::config::parse::Reader;
use crate::lint::config::{Config, ConfigError, RuleLevel};
use crate::policy::starlark::files::{policies, Listed};
use crate::pos::Pos;
use crate::report::Rule;
use crate::yaml::{scalar_key_string, Map, Value};

/// The categories of built-in checks `checks:` may name.
pub const CATEGORIES: &[&str] = &["kube-linter"];

/// `policies:` of the configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoliciesConfig {
    /// The categories of built-in checks turned on.
    pub checks: Vec<String>,
    /// Repository-relative directories of `.star` policies.
    pub dirs: Vec<String>,
    /// The policies in them, sorted by name.
    pub listed: Vec<Listed>,
}

impl PoliciesConfig {
    /// The `exclude` globs that keep the policy directories out of the walk for ytt files.
    pub fn excluded(&self) -> Vec<String> {
        self.dirs
            .iter()
            .flat_map(|d| [d.clone(), format!("{d}/**")])
            .collect()
    }
}

impl Config {
    /// Whether the built-in check of the rendered objects `rule` runs: not turned off, and,
    /// for a rule of a category off by default, turned on (its category under
    /// `policies: {checks: ...}`, a level under `rules:`, or `--select`).
    pub fn check_on(&self, rule: Rule) -> bool {
        match (self.level(rule), rule.off_by_default()) {
            (Some(RuleLevel::Off), _) => false,
            (Some(RuleLevel::Severity(_)), _) | (None, None) => true,
            (None, Some(category)) => self.policies.checks.iter().any(|c| c == category),
        }
    }

    /// The rules of the repository's policies (`policy/NAME`).
    pub fn policy_rules(&self) -> Vec<Rule> {
        self.policies
            .listed
            .iter()
            .filter_map(|l| Rule::from_id(&format!("policy/{}", l.name)))
            .collect()
    }

    /// Fails with the policies there are when `rule` is a policy rule of none of them.
    pub fn known_policy(&self, rule: Rule) -> Result<(), String> {
        let Rule::Policy(p) = rule else {
            return Ok(());
        };
        if self.policies.listed.iter().any(|l| l.name == p.name()) {
            return Ok(());
        }
        let names: Vec<String> = self
            .policies
            .listed
            .iter()
            .map(|l| format!("policy/{}", l.name))
            .collect();
        Err(match names.is_empty() {
            true => format!(
                "unknown rule \"{}\": the configuration lists no policy directory (policies:)",
                p.id()
            ),
            false => format!(
                "unknown rule \"{}\"; the policies are: {}",
                p.id(),
                names.join(", ")
            ),
        })
    }
}

impl Reader<'_> {
    /// `policies:`, a list of directories or a map with `checks` and `dirs`.
    pub(super) fn policies(&self, v: &Value, pos: &Pos) -> Result<PoliciesConfig, ConfigError> {
        let mut out = PoliciesConfig::default();
        let dirs: Vec<(&Value, &Pos)> = match v {
            Value::Null => Vec::new(),
            Value::Array(_) => self.list(v, pos, "policies")?,
            Value::Map(m) => {
                self.keys(m, &["checks", "dirs"], "policies")?;
                let mut dirs = Vec::new();
                for item in &m.items {
                    let (iv, ipos) = (&item.value, &item.pos);
                    match scalar_key_string(&item.key).as_str() {
                        "checks" => out.checks = self.categories(iv, ipos)?,
                        _ => dirs = self.list(iv, ipos, "policies.dirs")?,
                    }
                }
                dirs
            }
            other => {
                return Err(self.expected(
                    pos,
                    "policies",
                    "a list of directories, or a map with checks and dirs",
                    other,
                ))
            }
        };
        for (dir, dpos) in dirs {
            let rel = self.existing_path(dir, dpos, "a policy directory")?;
            if rel == "." || !self.dir.join(&rel).is_dir() {
                return Err(self.error(
                    dpos,
                    format!("a policy directory must be a directory below the repository's, not \"{rel}\""),
                ));
            }
            if !out.dirs.contains(&rel) {
                out.dirs.push(rel);
            }
        }
        out.listed = policies(self.dir, &out.dirs).map_err(|e| self.error(pos, e))?;
        Ok(out)
    }

    fn categories(&self, v: &Value, pos: &Pos) -> Result<Vec<String>, ConfigError> {
        let mut out = Vec::new();
        for (item, ipos) in self.list(v, pos, "policies.checks")? {
            let name = self.string(item, ipos, "a category of checks")?;
            if !CATEGORIES.contains(&name.as_str()) {
                return Err(self.error(
                    ipos,
                    format!(
                        "unknown category of checks \"{name}\"; expected one of: {}",
                        CATEGORIES.join(", ")
                    ),
                ));
            }
            out.push(name);
        }
        Ok(out)
    }

    /// Checks that every `policy/NAME` under `rules:` names a policy of the directories.
    pub(super) fn policy_levels(&self, top: &Map, config: &Config) -> Result<(), ConfigError> {
        let rules = top
            .items
            .iter()
            .find(|i| scalar_key_string(&i.key) == "rules");
        let Some(Value::Map(rules)) = rules.map(|i| &i.value) else {
            return Ok(());
        };
        for item in &rules.items {
            if let Some(rule) = Rule::from_id(&scalar_key_string(&item.key)) {
                config
                    .known_policy(rule)
                    .map_err(|e| self.error(&item.pos, e))?;
            }
        }
        Ok(())
    }
}
