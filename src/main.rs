//! The `yttlint` binary: argument handling and exit codes only. Commands run on a thread with a
//! large stack (deep but bounded template recursion must not overflow the native stack), and a
//! panic becomes an error message and exit status, never a crash without explanation.

use std::process::ExitCode;

/// Native stack for evaluations: Starlark calls recurse on it (up to the call depth limit), and
/// `library.eval()` nests whole evaluations. Reserved lazily by the OS.
const STACK_BYTES: usize = 1 << 30;

/// Evaluation makes and drops many `anyhow` errors; with `RUST_BACKTRACE` set (as many
/// developers have it) each would capture a backtrace nobody reads (1 % of a lint's CPU).
/// The standard library reads `RUST_LIB_BACKTRACE` once, at the first capture: that capture
/// is made here with the variable off, then the environment is as it was (ytt's
/// `--data-values-env` reads it). Panics still print their backtraces. Runs before any thread.
fn no_error_backtraces() {
    if std::env::var_os("RUST_LIB_BACKTRACE").is_some() {
        return;
    }
    std::env::set_var("RUST_LIB_BACKTRACE", "0");
    drop(std::backtrace::Backtrace::capture());
    std::env::remove_var("RUST_LIB_BACKTRACE");
}

/// The arguments as text: a usage error (not a panic) names the first that is not UTF-8 (a
/// file name pre-commit passes, say).
fn utf8_args(args: impl Iterator<Item = std::ffi::OsString>) -> Result<Vec<String>, String> {
    args.map(|a| {
        a.into_string().map_err(|a| {
            format!(
                "the argument {:?} is not valid UTF-8; yttlint takes UTF-8 arguments and file names only (rename the file or leave it out)",
                a.to_string_lossy()
            )
        })
    })
    .collect()
}

fn main() -> ExitCode {
    yttlint::malloc::tune();
    no_error_backtraces();
    let args = match utf8_args(std::env::args_os().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("yttlint: {message}");
            return ExitCode::from(2);
        }
    };
    yttlint::yaml::parse::quiet_known_panics();
    if args.first().map(String::as_str) == Some(yttlint::lint::run::worker::COMMAND) {
        // A worker limits its memory before it starts the thread that runs the jobs.
        let code = yttlint::lint::run::worker::main(&args[1..]);
        return ExitCode::from(code.clamp(0, 255) as u8);
    }
    let worker = std::thread::Builder::new()
        .name("yttlint".into())
        .stack_size(STACK_BYTES)
        .spawn(move || match args.first().map(String::as_str) {
            Some("template") => yttlint::cli::template::run(&args[1..]),
            Some("init") => yttlint::cli::init::run(&args[1..]),
            Some("rule") => yttlint::cli::rule::run(&args[1..]),
            Some("completions") => yttlint::cli::completions::run(&args[1..]),
            Some("server") => yttlint::cli::server::run(&args[1..]),
            _ => yttlint::cli::lint::run(&args),
        });
    let code = match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => {
            eprintln!("ytt: Error: internal error in yttlint (please report this input)");
            70
        }
        Err(e) => {
            eprintln!("yttlint: cannot start worker thread: {e}");
            70
        }
    };
    ExitCode::from(code.clamp(0, 255) as u8)
}
