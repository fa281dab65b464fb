//! The `yttlint` binary: argument handling and exit codes only.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("template") => yttlint::cli::template::run(&args[1..]),
        _ => yttlint::cli::lint::run(&args),
    };
    ExitCode::from(code.clamp(0, 255) as u8)
}
