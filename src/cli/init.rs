//! `yttlint init [DIR]`: writes `DIR/.yttlint.yaml` (default: the working directory) from what
//! discovery finds there, so that the configuration starts from how the repository runs ytt.
//! An existing file is kept unless `--force` is given; `--stdout` prints instead of writing.

use std::path::PathBuf;

use clap::Parser;

use crate::files::paths;
use crate::lint::config::{Config, FILE_NAME};
use crate::lint::discover::{self, init};

/// Writes a .yttlint.yaml from the roots, scenarios and flags yttlint finds in a repository.
#[derive(Parser, Debug)]
#[command(name = "yttlint init")]
struct InitArgs {
    /// The repository (default: the working directory).
    dir: Option<PathBuf>,
    /// Replace an existing .yttlint.yaml.
    #[arg(long)]
    force: bool,
    /// Print the configuration instead of writing it.
    #[arg(long)]
    stdout: bool,
}

const USAGE: i32 = 2;

/// The command's definition (for completions).
pub fn command() -> clap::Command {
    <InitArgs as clap::CommandFactory>::command().name("init")
}

/// Runs `yttlint init` with `args` (after `init`); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let parsed = match InitArgs::try_parse_from(
        std::iter::once("yttlint init".to_string()).chain(args.iter().cloned()),
    ) {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { USAGE } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match init_repo(&parsed) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("yttlint: {message}");
            USAGE
        }
    }
}

fn init_repo(a: &InitArgs) -> Result<(), String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let dir = paths::absolute(&cwd, a.dir.as_deref().unwrap_or(std::path::Path::new(".")));
    if !dir.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    let target = dir.join(FILE_NAME);
    crate::files::write::refuse_symlink(&target, "configuration")?;
    if target.exists() && !a.force && !a.stdout {
        return Err(format!(
            "{} already exists; give --force to replace it",
            target.display()
        ));
    }
    let d = discover::discover(&Config::default_for(&dir))?;
    let text = init::config_text(&d);
    if a.stdout {
        print!("{text}");
        return Ok(());
    }
    crate::files::write::write_file(&target, text.as_bytes(), "configuration")?;
    let scenarios: usize = d.roots.iter().map(|r| r.scenarios.len()).sum();
    eprintln!(
        "yttlint: wrote {} with {} roots ({} scenarios), {} directories checked on their own; {} commands of the repository are not linted (see the end of the file)",
        target.display(),
        d.roots.len(),
        scenarios,
        d.libraries.iter().filter(|l| l.partial.is_some()).count(),
        d.skipped.len()
    );
    Ok(())
}
