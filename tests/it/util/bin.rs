//! The built `yttlint` binary, run as a user runs it, minus the environment variables that
//! change what it prints (a test that wants one sets it on the command).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_yttlint");

/// Variables that change yttlint's output: the default format on GitHub, the step summary,
/// colour, `--shard auto` on GitLab, and where the cache is (outside the checkout in CI).
const OUTPUT_ENV: [&str; 7] = [
    "CI",
    "GITHUB_ACTIONS",
    "GITHUB_STEP_SUMMARY",
    "NO_COLOR",
    "CLICOLOR_FORCE",
    "CI_NODE_INDEX",
    "CI_NODE_TOTAL",
];

/// A command for the binary, run in `dir`, without [`OUTPUT_ENV`].
pub fn command(dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir);
    for name in OUTPUT_ENV {
        cmd.env_remove(name);
    }
    cmd
}

/// A finished run: its exit status (-1 when a signal ended it) and its output.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Runs `cmd` to the end. yttlint writes UTF-8 only: other bytes fail the test.
    pub fn of(cmd: &mut Command) -> Run {
        let out = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
        let text = |bytes: Vec<u8>, stream: &str| {
            String::from_utf8(bytes).unwrap_or_else(|e| panic!("{stream} is not UTF-8: {e}"))
        };
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: text(out.stdout, "standard output"),
            stderr: text(out.stderr, "standard error"),
        }
    }

    /// Standard output as JSON; the failure shows both streams.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "standard output is not JSON ({e}):\n{}\nstandard error:\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

/// `yttlint ARGS` in `dir`.
pub fn yttlint(dir: &Path, args: &[&str]) -> Run {
    Run::of(command(dir).args(args))
}

/// `yttlint ARGS` in `dir`, with `env` set.
pub fn yttlint_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    Run::of(command(dir).args(args).envs(env.iter().copied()))
}

/// `yttlint template ARGS` in `dir`.
pub fn template(dir: &Path, args: &[&str]) -> Run {
    Run::of(command(dir).arg("template").args(args))
}

/// ytt itself, for the tests that need it (`#[ignore = "needs ytt"]`, run by `.ci/run`):
/// `YTT`, else `ytt` on the `PATH`.
pub fn ytt() -> PathBuf {
    if let Some(path) = std::env::var_os("YTT") {
        return PathBuf::from(path);
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("ytt"))
            .find(|p| p.is_file())
    });
    on_path.expect("ytt is not installed: set YTT or put ytt on the PATH")
}
