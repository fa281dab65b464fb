//! ytt's command-line flags as the rest of yttlint uses them: [`TemplateArgs`] (the flags of
//! `ytt template`, parsed with clap), the data values they give (`data_values`) and file marks
//! (`file_marks`). `yttlint template` parses them from its command line; the linter from a
//! root's `args:` and the repository's own `ytt` commands, and sends them to its workers and
//! into its cache keys.

pub mod data_values;
pub mod file_marks;
pub mod stdin_text;

use clap::Parser;

/// Flags of `ytt template`.
#[derive(Parser, Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[command(
    name = "template",
    bin_name = "yttlint template",
    about = "Renders like `ytt template`: the same flags, output and exit status",
    args_override_self = true
)]
pub struct TemplateArgs {
    /// File (or directory) to include (`-` for stdin, `name=path` to rename).
    #[arg(short = 'f', long = "file")]
    pub files: Vec<String>,
    /// Output types, repeatable and comma-separated as in ytt: the first file format (yaml,
    /// json, pos; default yaml) wins, and the schema type (openapi-v3) is taken apart from it.
    #[arg(short = 'o', long = "output", value_name = "TYPES")]
    pub output: Vec<String>,
    /// Write each output file into this directory.
    #[arg(long = "output-files")]
    pub output_files: Option<String>,
    /// Delete this directory, then create it with the output files.
    #[arg(long = "dangerous-emptied-output-directory")]
    pub emptied_output_directory: Option<String>,
    /// File paths to which symlinks are allowed (can be specified multiple times).
    #[arg(long = "allow-symlink-destination", value_delimiter = ',')]
    pub allow_symlink_destination: Vec<String>,
    /// Symlinks to all destinations are allowed.
    #[arg(long = "dangerous-allow-all-symlink-destinations")]
    pub allow_all_symlinks: bool,
    /// Treat plain `#` comments as comments instead of errors.
    #[arg(long = "ignore-unknown-comments")]
    pub ignore_unknown_comments: bool,
    /// Let repeated map keys override earlier ones.
    #[arg(long = "implicit-map-key-overrides")]
    pub implicit_map_key_overrides: bool,
    /// Strict YAML: reject ambiguous scalars.
    #[arg(short = 's', long = "strict")]
    pub strict: bool,
    /// Print debug information (accepted for compatibility).
    #[arg(long = "debug")]
    pub debug: bool,
    /// File mark (`path:key=value`).
    #[arg(long = "file-mark")]
    pub file_marks: Vec<String>,
    /// Data values from env vars with this prefix, as strings.
    #[arg(long = "data-values-env")]
    pub dv_env: Vec<String>,
    /// Data values from env vars with this prefix, parsed as YAML.
    #[arg(long = "data-values-env-yaml")]
    pub dv_env_yaml: Vec<String>,
    /// Set a data value as a string (`[@lib:]a.b=value`).
    #[arg(short = 'v', long = "data-value")]
    pub dv: Vec<String>,
    /// Set a data value parsed as YAML (`[@lib:]a.b=yaml`).
    #[arg(long = "data-value-yaml")]
    pub dv_yaml: Vec<String>,
    /// Set a data value to a file's content (`[@lib:]a.b=path`).
    #[arg(long = "data-value-file")]
    pub dv_file: Vec<String>,
    /// Data values from plain YAML files (`[@lib:]path`).
    #[arg(long = "data-values-file")]
    pub dv_files: Vec<String>,
    /// Print the files that would be processed instead of the templates' output.
    #[arg(long = "files-inspect")]
    pub files_inspect: bool,
    /// Print the final data values instead of the templates' output.
    #[arg(long = "data-values-inspect")]
    pub dv_inspect: bool,
    /// Print the data values schema (with `-o openapi-v3`) instead of the templates' output.
    #[arg(long = "data-values-schema-inspect")]
    pub dv_schema_inspect: bool,
    /// Skip data values validations.
    #[arg(long = "dangerous-data-values-disable-validation")]
    pub dv_skip_validation: bool,
    /// Skip the `@assert/validate` rules of output documents (yttlint checks them after
    /// overlays; ytt ignores them).
    #[arg(long = "output-disable-validation")]
    pub output_skip_validation: bool,
    /// Turn on one of yttlint's schema extensions (`schema-any-key`, `schema-key-may-be-present`, `schema-removed`); without any, rendering
    /// is exactly ytt's.
    #[arg(long = "extension", value_name = "NAME")]
    pub extensions: Vec<String>,
    /// Export the validations' OpenAPI keywords (`minimum`, `enum`, ...) with
    /// `--data-values-schema-inspect -o openapi-v3` (spec 000; ytt does not).
    #[arg(long = "openapi-validations")]
    pub openapi_validations: bool,
    /// What standard input (`-f -`) holds, when the linter knows it (a script's
    /// here-document): not a flag of ytt's.
    #[arg(skip)]
    #[serde(default)]
    pub stdin: Option<stdin_text::StdinText>,
}

impl TemplateArgs {
    /// The data values flags of the command, reading files as `policy` allows.
    pub fn data_values_flags(
        &self,
        policy: crate::files::ReadPolicy,
    ) -> data_values::DataValuesFlags {
        data_values::DataValuesFlags {
            env_strings: self.dv_env.clone(),
            env_yaml: self.dv_env_yaml.clone(),
            kv_strings: self.dv.clone(),
            kv_yaml: self.dv_yaml.clone(),
            kv_files: self.dv_file.clone(),
            files: self.dv_files.clone(),
            policy,
        }
    }
}
