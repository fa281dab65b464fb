//! `yttlint server`: the language server on standard input and output (see [`crate::lsp`]).

/// Runs the server; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let mut memory = crate::lint::run::budget::DEFAULT_MEMORY;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = match arg.as_str() {
            "-h" | "--help" => {
                println!(
                    "Runs the language server (LSP) on standard input and output: yttlint server [--memory-limit SIZE]\n\n  --memory-limit SIZE  memory of the server's jobs, as the command line's (default 4G)"
                );
                return 0;
            }
            "--memory-limit" => rest.next().map(String::as_str),
            other => other.strip_prefix("--memory-limit="),
        };
        let Some(value) = value else {
            eprintln!(
                "yttlint: server takes only --memory-limit SIZE (it speaks LSP on standard input and output)"
            );
            return 2;
        };
        match super::lint_limits::parse_size(value) {
            Ok(bytes) => memory = bytes,
            Err(e) => {
                eprintln!("yttlint: server: {e}");
                return 2;
            }
        }
    }
    crate::lsp::run(memory)
}
