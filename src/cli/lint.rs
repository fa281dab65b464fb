//! The linter entry point (first version): each path given is one library root, evaluated as
//! `ytt -f PATH` would; every error is reported with its file and line. Discovery of roots,
//! configuration and report formats come with the linter issue.

use crate::files;
use crate::library::{EvalOpts, ExternalValues, Workspace};

/// Runs the linter over `args` (paths); returns the exit code (0 clean, 1 findings, 2 usage).
pub fn run(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("usage: yttlint [PATH...]\n       yttlint template [ytt flags]");
        return 0;
    }
    let roots: Vec<String> = if args.is_empty() {
        vec![".".to_string()]
    } else {
        args.to_vec()
    };
    let mut findings = 0;
    for root in &roots {
        if root.starts_with('-') {
            eprintln!("yttlint: unknown flag: {root}");
            return 2;
        }
        let mut no_stdin = || Err("stdin is not available to the linter".to_string());
        let inputs = match files::collect(std::slice::from_ref(root), &mut no_stdin) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("yttlint: {e}");
                return 2;
            }
        };
        let ws = Workspace::new(inputs, EvalOpts::default());
        match ws.evaluate(ExternalValues::default()) {
            Ok(out) => println!("{root}: ok ({} documents)", out.docs.items.len()),
            Err(e) => {
                findings += 1;
                let at = e
                    .pos
                    .as_ref()
                    .map(|p| format!("{root}/{}", p.as_compact()))
                    .unwrap_or_else(|| root.clone());
                println!("{at}: error[template-error]: {}", e.message.trim_start());
            }
        }
    }
    if findings > 0 {
        1
    } else {
        0
    }
}
