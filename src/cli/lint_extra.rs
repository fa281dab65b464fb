//! The linter's flags about what is reported and how it looks (`--select`, `--ignore`,
//! `--statistics`, `--quiet`, `--color`, `--shard`, `--sarif-category`), and the checks of the
//! paths given before anything is linted: a path that does not exist is a usage error, and a
//! word that looks like a command names the commands there are.

use crate::report::Rule;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use crate::lint::config::{Config, RuleLevel};
use crate::lint::plan::shard::Shard;
use crate::schema::spell::nearest;

/// Flags flattened into the linter's command line.
#[derive(Args, Debug, Default, Clone)]
pub struct ExtraArgs {
    /// Report only these rules (comma-separated rule ids; repeatable).
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Do not report these rules (comma-separated rule ids; repeatable).
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Print how many findings each rule has instead of the findings on standard output.
    #[arg(long)]
    pub statistics: bool,
    /// Keep how long each root took in the reports (JSON `duration_ms`, JUnit `time`); without
    /// it they are 0, so a report is the same, byte for byte, on every run.
    #[arg(long)]
    pub timings: bool,
    /// Check rendered Kubernetes objects against the built-in schemas of this version
    /// (default: the configuration's `kubernetes.version`, else the newest compiled in).
    #[arg(long, value_name = "VERSION")]
    pub kubernetes_version: Option<String>,
    /// Print the findings only: no summary line, no progress, no notes.
    #[arg(short, long)]
    pub quiet: bool,
    /// List, after the summary, the kinds of rendered objects that no schema was known for
    /// (the summary only counts them)
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Colors in the terminal format: auto (a terminal, unless NO_COLOR is set or TERM is
    /// dumb; CLICOLOR_FORCE forces them), always or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Lint only shard K of N (1-based): a deterministic share of the roots, balanced by file
    /// size. `auto` reads GitLab's CI_NODE_INDEX and CI_NODE_TOTAL (`parallel:`).
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<String>,
    /// Write this SARIF `automationDetails.id` category (default: none, so that the uploader's
    /// category applies).
    #[arg(long, value_name = "CATEGORY")]
    pub sarif_category: Option<String>,
    /// Let the configuration's ytt flags read environment variables with this prefix
    /// (`--data-values-env PREFIX`); repeatable. The repository itself can never allow it.
    #[arg(long, value_name = "PREFIX")]
    pub allow_env: Vec<String>,
    /// Keep the result cache in DIR instead of .yttlint-cache/ in the repository.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<std::path::PathBuf>,
    /// Neither read nor write the result cache: every job runs.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
}

/// `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to color, given the environment (`NO_COLOR`, `CLICOLOR_FORCE`, `TERM=dumb`: a
    /// terminal that shows no colours) and whether standard output is a terminal.
    pub fn resolve(self, env: &dyn Fn(&str) -> Option<String>, is_terminal: bool) -> bool {
        let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if set("NO_COLOR") => false,
            ColorChoice::Auto
                if env("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") =>
            {
                true
            }
            ColorChoice::Auto if env("TERM").as_deref() == Some("dumb") => false,
            ColorChoice::Auto => is_terminal,
        }
    }
}

/// The commands besides linting, for the message about a word that is none of them.
pub const COMMANDS: &[&str] = &["template", "init", "rule", "completions", "server"];

/// Refuses paths that do not exist before anything is linted. A first argument that is a
/// plain word (`lint`, `check`) gets a message about the commands there are.
pub fn check_paths(cwd: &Path, paths: &[PathBuf]) -> Result<(), String> {
    for (i, p) in paths.iter().enumerate() {
        let text = p.to_string_lossy();
        if text == "-" {
            return Err(
                "reading from standard input (-) is not supported: give the files or directories to lint"
                    .to_string(),
            );
        }
        if cwd.join(p).symlink_metadata().is_ok() {
            continue;
        }
        let word = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if i == 0 && word {
            return Err(format!(
                "\"{text}\" is neither a file or directory nor a command. commands: {}; linting needs none (yttlint [PATH...])",
                COMMANDS.join(", ")
            ));
        }
        return Err(format!("{text}: no such file or directory"));
    }
    Ok(())
}

/// Applies `--select` and `--ignore` to the configuration's rule levels: an ignored rule is
/// off, and with `--select` so is every rule not selected. Unknown ids are refused.
pub fn apply_rule_filters(
    config: &mut Config,
    select: &[String],
    ignore: &[String],
) -> Result<(), String> {
    for id in select.iter().chain(ignore) {
        config.known_policy(known_rule(id)?)?;
    }
    if !select.is_empty() {
        let all: Vec<Rule> = Rule::ALL
            .iter()
            .copied()
            .chain(config.policy_rules())
            .collect();
        for rule in all {
            if !select.iter().any(|s| s == rule.id()) {
                config.rules.insert(rule, RuleLevel::Off);
            } else if rule.off_by_default().is_some() && config.level(rule).is_none() {
                // Selected by name: a rule of a category off by default runs.
                config
                    .rules
                    .insert(rule, RuleLevel::Severity(rule.default_severity()));
            }
        }
    }
    for id in ignore {
        config.rules.insert(known_rule(id)?, RuleLevel::Off);
    }
    Ok(())
}

/// `--kubernetes-version`: the version of the built-in schemas (an error names the ones
/// compiled in); it turns the check on even where the configuration turned it off.
pub fn apply_kubernetes_version(config: &mut Config, version: Option<&str>) -> Result<(), String> {
    let Some(version) = version else {
        return Ok(());
    };
    crate::kubernetes::Registry::check_version(version)?;
    let k = config.kubernetes.get_or_insert_with(Default::default);
    k.version = version.to_string();
    k.version_given = true;
    Ok(())
}

/// Fails with the list of rules (or the closest one) when `id` is not a rule.
pub fn known_rule(id: &str) -> Result<Rule, String> {
    if let Some(rule) = Rule::from_id(id) {
        return Ok(rule);
    }
    let ids: Vec<String> = Rule::ALL.iter().map(|r| r.id().to_string()).collect();
    Err(match nearest(id, &ids) {
        Some(near) => {
            format!("unknown rule \"{id}\". did you mean \"{near}\"? (yttlint rule lists them)")
        }
        None => format!("unknown rule \"{id}\". `yttlint rule` lists the rules"),
    })
}

/// `--shard`: `K/N`, or `auto` from GitLab's `CI_NODE_INDEX`/`CI_NODE_TOTAL` (the whole
/// repository when they are not set).
pub fn shard(
    arg: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Shard>, String> {
    match arg {
        None => Ok(None),
        Some("auto") => match (env("CI_NODE_INDEX"), env("CI_NODE_TOTAL")) {
            (Some(k), Some(n)) => Shard::parse(&format!("{k}/{n}"))
                .map(Some)
                .map_err(|e| format!("CI_NODE_INDEX/CI_NODE_TOTAL: {e}")),
            _ => Ok(None),
        },
        Some(text) => Shard::parse(text)
            .map(Some)
            .map_err(|e| format!("--shard: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn color_follows_no_color_and_clicolor_force() {
        let none = env_of(&[]);
        assert!(ColorChoice::Auto.resolve(&none, true));
        assert!(!ColorChoice::Auto.resolve(&none, false));
        assert!(!ColorChoice::Auto.resolve(&env_of(&[("NO_COLOR", "1")]), true));
        assert!(ColorChoice::Auto.resolve(&env_of(&[("NO_COLOR", "")]), true));
        assert!(ColorChoice::Auto.resolve(&env_of(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!ColorChoice::Auto.resolve(&env_of(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(!ColorChoice::Auto
            .resolve(&env_of(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]), true));
        assert!(ColorChoice::Always.resolve(&env_of(&[("NO_COLOR", "1")]), false));
        assert!(!ColorChoice::Auto.resolve(&env_of(&[("TERM", "dumb")]), true));
        assert!(ColorChoice::Auto.resolve(&env_of(&[("TERM", "xterm-256color")]), true));
        assert!(
            ColorChoice::Auto.resolve(&env_of(&[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")]), true)
        );
        assert!(!ColorChoice::Never.resolve(&none, true));
    }

    #[test]
    fn missing_paths_and_command_like_words() {
        let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(check_paths(cwd, &[PathBuf::from("src")]).is_ok());
        let e = check_paths(cwd, &[PathBuf::from("lint")]).unwrap_err();
        assert!(
            e.contains("\"lint\" is neither") && e.contains("template") && e.contains("server"),
            "{e}"
        );
        let e = check_paths(cwd, &[PathBuf::from("src"), PathBuf::from("brokn/")]).unwrap_err();
        assert_eq!(e, "brokn/: no such file or directory");
        let e = check_paths(cwd, &[PathBuf::from("-")]).unwrap_err();
        assert!(e.contains("standard input"), "{e}");
    }

    #[test]
    fn select_and_ignore_turn_rules_off() {
        let mut config = Config::default_for(Path::new("/repo"));
        apply_rule_filters(&mut config, &[Rule::TemplateError.id().into()], &[]).unwrap();
        assert_eq!(config.level(Rule::TemplateError), None);
        assert_eq!(config.level(Rule::YamlSyntax), Some(RuleLevel::Off));
        let mut config = Config::default_for(Path::new("/repo"));
        apply_rule_filters(&mut config, &[], &[Rule::YamlSyntax.id().into()]).unwrap();
        assert_eq!(config.level(Rule::YamlSyntax), Some(RuleLevel::Off));
        assert_eq!(config.level(Rule::TemplateError), None);
        let e = apply_rule_filters(&mut config, &[], &["yaml-sytax".into()]).unwrap_err();
        assert!(e.contains("did you mean \"yaml-syntax\""), "{e}");
        // A rule of a category off by default runs when it is selected by name.
        let mut config = Config::default_for(Path::new("/repo"));
        assert!(!config.check_on(Rule::LatestTag) && config.check_on(Rule::DuplicateObject));
        apply_rule_filters(&mut config, &[Rule::LatestTag.id().into()], &[]).unwrap();
        assert!(config.check_on(Rule::LatestTag));
        assert!(!config.check_on(Rule::HostPid) && !config.check_on(Rule::DuplicateObject));
        let e = apply_rule_filters(&mut config, &["policy/team".into()], &[]).unwrap_err();
        assert!(e.contains("lists no policy directory"), "{e}");
    }

    #[test]
    fn shard_from_flag_or_gitlab() {
        let gitlab = env_of(&[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "3")]);
        assert_eq!(
            shard(Some("auto"), &gitlab).unwrap(),
            Some(Shard { index: 2, total: 3 })
        );
        assert_eq!(shard(Some("auto"), &env_of(&[])).unwrap(), None);
        assert_eq!(
            shard(Some("1/4"), &gitlab).unwrap(),
            Some(Shard { index: 1, total: 4 })
        );
        assert!(shard(Some("4/3"), &gitlab).is_err());
        assert_eq!(shard(None, &gitlab).unwrap(), None);
    }
}
