//! `yttlint template`: the same flags, output and exit status as `ytt template`.

use std::io::{Read, Write};

use clap::Parser;

use crate::files;
use crate::library::{EvalOpts, Library, OutputContent};
use crate::yaml::emit::docset_to_yaml;
use crate::yaml::json::docset_to_json;

/// Flags of `ytt template`.
#[derive(Parser, Debug, Default)]
#[command(name = "template", disable_help_flag = false)]
pub struct TemplateArgs {
    /// File (or directory) to include (`-` for stdin, `name=path` to rename).
    #[arg(short = 'f', long = "file")]
    pub files: Vec<String>,
    /// Output format: yaml, json or pos.
    #[arg(short = 'o', long = "output", default_value = "yaml")]
    pub output: String,
    /// Write each output file into this directory.
    #[arg(long = "output-files")]
    pub output_files: Option<String>,
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
}

/// Runs the command; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let parsed = match TemplateArgs::try_parse_from(
        std::iter::once("template".to_string()).chain(args.iter().cloned()),
    ) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ytt: Error: {}", e.to_string().lines().next().unwrap_or(""));
            return 1;
        }
    };
    match render(&parsed) {
        Ok(out) => {
            let _ = std::io::stdout().write_all(out.as_bytes());
            0
        }
        Err(msg) => {
            eprintln!("{}", super::errfmt::ytt_error(&msg));
            1
        }
    }
}

fn render(a: &TemplateArgs) -> Result<String, String> {
    let mut stdin = || {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("Reading stdin: {e}"))?;
        Ok(s)
    };
    let inputs = files::collect(&a.files, &mut stdin)?;
    let opts = EvalOpts {
        ignore_unknown_comments: a.ignore_unknown_comments,
        implicit_map_key_overrides: a.implicit_map_key_overrides,
        strict: a.strict,
        ..EvalOpts::default()
    };
    let lib = Library::new(inputs, opts);
    let out = lib.evaluate().map_err(|e| e.message)?;
    if let Some(dir) = &a.output_files {
        let mut log = String::new();
        for f in &out.files {
            let path = std::path::Path::new(dir).join(&f.rel_path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            let content = match &f.content {
                OutputContent::Docs(ds) => docset_to_yaml(ds),
                OutputContent::Text(t) => t.clone(),
            };
            std::fs::write(&path, content).map_err(|e| e.to_string())?;
            log.push_str(&format!("creating: {}\n", path.display()));
        }
        return Ok(log);
    }
    Ok(match a.output.as_str() {
        "json" => docset_to_json(&out.docs).map_err(|e| e.to_string())?,
        "pos" => crate::yaml::pos_print::docset_to_pos(&out.docs),
        _ => docset_to_yaml(&out.docs),
    })
}
