//! `yttlint server`: the language server on standard input and output (see [`crate::lsp`]).

/// Runs the server; returns the exit status.
pub fn run(args: &[String]) -> i32 {
    match args {
        [] => crate::lsp::run(),
        [flag] if flag == "-h" || flag == "--help" => {
            println!("Runs the language server (LSP) on standard input and output: yttlint server");
            0
        }
        _ => {
            eprintln!(
                "yttlint: server takes no arguments (it speaks LSP on standard input and output)"
            );
            2
        }
    }
}
