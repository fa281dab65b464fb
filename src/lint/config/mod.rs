//! `.yttlint.yaml`: what the linter is told about a repository (roots with their scenarios and
//! ytt flags, excluded paths, rule severities, KubeVirt checks), where it is found (walking up
//! from the linted path, then from the working directory, or `--config`), and its errors, each
//! with the line and column of the offending key.

pub mod assumes;
pub mod compared_output;
pub mod flags;
pub mod output_deploy;
pub mod parse;
pub mod policies;
mod roots;
pub mod untrusted;

use std::collections::BTreeMap;

use crate::report::Rule;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::report::Severity;
use crate::yaml::Value;

pub use parse::parse;

/// The configuration file's name.
pub const FILE_NAME: &str = ".yttlint.yaml";

/// The other name the configuration file may have (as `.yml` is as common as `.yaml`).
pub const ALT_FILE_NAME: &str = ".yttlint.yml";

/// The configuration file of `dir`, by either name.
pub fn file_in(dir: &Path) -> Option<PathBuf> {
    [FILE_NAME, ALT_FILE_NAME]
        .into_iter()
        .map(|name| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// A line and column in the configuration file (from 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Loc {
    pub line: u32,
    pub column: u32,
}

/// The most scenarios one root learns from the repository's commands unless the configuration
/// says otherwise (`max_learned_scenarios`): 20 scripts of 1 000 `ytt` lines would otherwise be
/// 20 000 jobs (see `lint::discover::scenario_cap`).
pub const MAX_LEARNED_SCENARIOS: usize = 64;

/// The linter's configuration; [`Config::default_for`] when there is no file.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The file read, if any.
    pub file: Option<PathBuf>,
    /// The repository root: the file's directory (or the working directory without a file).
    /// Every path in the configuration and in reports is relative to it.
    pub dir: PathBuf,
    /// Roots listed explicitly; empty means discover them.
    pub roots: Vec<RootConfig>,
    /// Globs (relative to `dir`) of paths never linted.
    pub exclude: Vec<String>,
    /// Severity overrides by rule id.
    pub rules: BTreeMap<Rule, RuleLevel>,
    /// Whether KubeVirt template validations are checked.
    pub kubevirt: bool,
    /// How rendered Kubernetes objects are checked against their schemas (`kubernetes:`);
    /// `None` with `kubernetes: false`.
    pub kubernetes: Option<KubernetesConfig>,
    /// Whether roots, scenarios and flags are learned from how the repository runs ytt (its
    /// scripts, Makefiles and CI files) when no roots are listed.
    pub invocations: bool,
    /// The most scenarios one root learns from the repository's commands
    /// (`max_learned_scenarios:`, default [`MAX_LEARNED_SCENARIOS`]);
    /// the others are dropped with a `scenarios-capped` note.
    pub max_learned_scenarios: usize,
    /// yttlint's schema extensions turned on for every root (`extensions:`, names checked).
    pub extensions: Vec<String>,
    /// The checks of the rendered objects turned on, and the repository's own policies
    /// (`policies:`, see [`policies`]).
    pub policies: policies::PoliciesConfig,
}

/// `kubernetes:` of the configuration: the Kubernetes version whose built-in schemas rendered
/// objects are checked against, and directories of CustomResourceDefinition files besides the
/// ones the repository's YAML holds anywhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KubernetesConfig {
    pub version: String,
    /// Whether the version was given (`kubernetes.version`, `--kubernetes-version`), not the
    /// default: a removed API is certain only for a version the user names.
    pub version_given: bool,
    /// Repository-relative directories (`schemas:`).
    pub schemas: Vec<String>,
}

impl Default for KubernetesConfig {
    fn default() -> KubernetesConfig {
        KubernetesConfig {
            version: crate::kubernetes::DEFAULT_VERSION.to_string(),
            version_given: false,
            schemas: Vec::new(),
        }
    }
}

/// One configured root.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootConfig {
    /// Repository-relative path of the root (`.` for the repository itself).
    pub path: String,
    /// The name findings and reports give the root (default: its path).
    pub name: Option<String>,
    /// `unset_values: needs-input`: failures caused only by data values nobody set are one
    /// `needs-input` finding, as for roots the linter found itself.
    pub needs_input: bool,
    /// `evaluate: false`: the files are only checked (parse, compile, schema, annotations),
    /// as a private library is.
    pub files_only: bool,
    pub scenarios: Vec<ScenarioConfig>,
    /// ytt flags for this root (validated as `yttlint template` flags).
    pub args: Vec<String>,
    /// `assumes:`: what the root's command rests on that nobody confirmed (as `yttlint init`
    /// records discovery's guesses: a command inferred from the layout, a tool that wraps
    /// ytt): every scenario's findings assume it. With `inferred-command` among them the
    /// command counts as inferred from the layout, not as the configuration's.
    pub assumptions: Vec<crate::report::Assumption>,
    /// `package:`: the Package or App resource whose ytt step renders the root
    /// (`packages/app.yml:3`): its defaults are its user's to override, as for a root
    /// discovery finds there.
    pub package: Option<String>,
    pub loc: Loc,
}

/// One set of data values a root is linted with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScenarioConfig {
    pub name: String,
    /// As `--data-values-file` takes them (`[@lib:][+:]path`), paths relative to the repository.
    pub values_files: Vec<String>,
    /// As `--data-value-yaml key=value`, one flag per key, in file order, with where the key
    /// is written.
    pub data_values: Vec<(String, Value, Loc)>,
    /// The indices in [`Self::data_values`] of the values a command gives as strings with
    /// `--data-value` (`-v`), not as YAML: ytt applies them before every
    /// `--data-value-yaml`, whatever the order of the flags, and names their source
    /// `(data-value arg)`.
    pub string_values: Vec<usize>,
    /// More ytt flags for this scenario (paths relative to the root).
    pub args: Vec<String>,
    /// Data values given at run time that the linter cannot know (`dev.version`, with
    /// `@lib:` for a private library; `*`: any value may be given): each gets a placeholder,
    /// and no finding depends on it.
    pub provided: Vec<String>,
    /// Where the repository runs ytt this way (`hack/build.sh:12`), shown with findings.
    pub origin: Option<String>,
    /// What discovery assumed to run the command this way (an input outside the repository,
    /// an example standing in for the user's copy): part of the scenario's provenance
    /// (`assumes:` in the configuration).
    pub assumptions: Vec<crate::report::Assumption>,
    /// `unset_values:` of the scenario, over its root's: `Some(true)` for `needs-input`,
    /// `Some(false)` for `error`.
    pub needs_input: Option<bool>,
    /// Discovery: the command gives every input itself (no argument the linter filled in,
    /// no command a page shows for the reader to adapt), so a failure for want of a data
    /// value is the command's own, even in a root whose other scenarios need input.
    pub inputs_known: bool,
    /// Discovery: the command writes each input file's output to a file of its own
    /// (`--output-files`), so objects of two files are one set only if they are applied
    /// together.
    pub split_output: bool,
    /// Discovery: where a later command of the same script deploys that output as one (see
    /// [`output_deploy`]).
    pub output_deployed: Option<output_deploy::OutputDeploy>,
    /// Discovery: the comparison that alone reads the command's output, which nothing
    /// applies (see [`compared_output`]).
    pub output_compared: Option<compared_output::Compared>,
    /// Discovery: the `#@data/values` document the command reads on standard input (`-f -`),
    /// which ytt reads as the file `stdin.yml` where the command names `-` among its `-f`
    /// inputs.
    pub stdin: Option<crate::ytt_flags::stdin_text::StdinText>,
    /// Discovery: data values of [`ScenarioConfig::data_values`] read from a committed file
    /// ytt names by a path nobody can use (`sops -d` in a process substitution): each key with
    /// that file and the line of its value, `FILE:LINE`, which messages name instead.
    pub values_written: Vec<(String, String)>,
    pub loc: Loc,
}

/// What `rules:` says about a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    Severity(Severity),
}

/// A configuration problem: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The file as the user named it (or found it).
    pub file: String,
    pub loc: Option<Loc>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.loc {
            Some(l) => write!(f, "{}:{}:{}: {}", self.file, l.line, l.column, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The configuration of a repository rooted at `dir` that has no file.
    pub fn default_for(dir: &Path) -> Config {
        Config {
            file: None,
            dir: dir.to_path_buf(),
            roots: Vec::new(),
            exclude: Vec::new(),
            rules: BTreeMap::new(),
            kubevirt: true,
            kubernetes: Some(KubernetesConfig::default()),
            invocations: true,
            max_learned_scenarios: MAX_LEARNED_SCENARIOS,
            extensions: Vec::new(),
            policies: policies::PoliciesConfig::default(),
        }
    }

    /// Reads and validates the file at `path` (absolute); its directory is the repository root.
    pub fn load(path: &Path, shown_as: &str) -> Result<Config, ConfigError> {
        Config::load_with(path, shown_as, &[])
    }

    /// [`Config::load`], with the environment prefixes the command line allows
    /// (`--allow-env`): flags in the file may read only those.
    pub fn load_with(
        path: &Path,
        shown_as: &str,
        allow_env: &[String],
    ) -> Result<Config, ConfigError> {
        let dir = path.parent().unwrap_or(Path::new("/"));
        if dir.join(FILE_NAME).is_file() && dir.join(ALT_FILE_NAME).is_file() {
            return Err(ConfigError {
                file: shown_as.to_string(),
                loc: None,
                message: format!(
                    "both {FILE_NAME} and {ALT_FILE_NAME} are in this directory: keep one of them"
                ),
            });
        }
        let text = read_config(path, dir).map_err(|message| ConfigError {
            file: shown_as.to_string(),
            loc: None,
            message,
        })?;
        let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
        let mut config = crate::lint::config::parse::parse_with(&text, shown_as, &dir, allow_env)?;
        config.file = Some(path.to_path_buf());
        Ok(config)
    }

    /// The level configured for `rule`, if any.
    pub fn level(&self, rule: Rule) -> Option<RuleLevel> {
        self.rules.get(&rule).copied()
    }
}

/// The first `.yttlint.yaml` (or `.yttlint.yml`) in `start` or one of its ancestors.
pub fn find_upward(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(file_in)
}

/// The largest configuration read.
const MAX_CONFIG_BYTES: u64 = 16 << 20;

/// The text of the configuration `path` of the directory `dir`: a regular file inside it (a
/// symlink may lead elsewhere inside it), of at most 16 MiB, opened once.
fn read_config(path: &Path, dir: &Path) -> Result<String, String> {
    let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let bytes = match crate::files::open::read_checked_max(path, dir, &canonical, MAX_CONFIG_BYTES)
    {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => return Err("the configuration is not a regular file inside its directory (a symlink to elsewhere?): it is not read".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(format!(
                "the configuration is larger than {} MiB: it is not read",
                MAX_CONFIG_BYTES >> 20
            ))
        }
        Err(e) => return Err(format!("cannot read the configuration: {e}")),
    };
    String::from_utf8(bytes).map_err(|_| {
        "cannot read the configuration: stream did not contain valid UTF-8".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_in_an_ancestor() {
        let dir = std::env::temp_dir().join(format!("yttlint-cfg-{}", std::process::id()));
        let deep = dir.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(dir.join(FILE_NAME), "exclude: []\n").unwrap();
        assert_eq!(find_upward(&deep), Some(dir.join(FILE_NAME)));
        let config = Config::load(&dir.join(FILE_NAME), FILE_NAME).unwrap();
        assert_eq!(config.dir, dir);
        assert!(config.kubevirt);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_yml_name_is_read_and_both_names_are_refused() {
        let dir = std::env::temp_dir().join(format!("yttlint-cfg-yml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(ALT_FILE_NAME), "kubevirt: false\n").unwrap();
        assert_eq!(find_upward(&dir), Some(dir.join(ALT_FILE_NAME)));
        let config = Config::load(&dir.join(ALT_FILE_NAME), ALT_FILE_NAME).unwrap();
        assert!(!config.kubevirt);
        std::fs::write(dir.join(FILE_NAME), "exclude: []\n").unwrap();
        let err = Config::load(&dir.join(FILE_NAME), FILE_NAME).unwrap_err();
        assert!(err.message.contains("keep one of them"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_show_file_line_and_column() {
        let e = ConfigError {
            file: ".yttlint.yaml".into(),
            loc: Some(Loc { line: 3, column: 5 }),
            message: "unknown key \"x\"".into(),
        };
        assert_eq!(e.to_string(), ".yttlint.yaml:3:5: unknown key \"x\"");
    }
}
