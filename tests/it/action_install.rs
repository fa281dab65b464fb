//! The GitHub Action's scripts (`action/install.sh`, `action/lint.sh`) run as the runner runs
//! them, on Linux, against a fake release in a scratch directory: a good checksum installs the
//! binary, a bad or missing one fails the step (never a fallback to building), a runner without
//! a release fails, Windows' backslash paths still find the release, and the build's cache key
//! depends on the sources only. A stub `cygpath` stands in for Git Bash's to check that Windows
//! runners get native paths (the SARIF file handed to upload-sarif included).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{repo_root, TempDir};

const VERSION: &str = "0.1.0";
const NAME: &str = "yttlint-0.1.0-x86_64-unknown-linux-musl.tar.gz";

fn script() -> PathBuf {
    repo_root().join("action/install.sh")
}

/// Writes a release of a fake yttlint for Linux x86_64 into `release`; `sums` is the content of
/// its SHA256SUMS (`DIGEST` and `NAME` replaced by the archive's), `None` for no SHA256SUMS.
fn fake_release(dir: &Path, release: &Path, sums: Option<&str>) {
    fake_release_saying(dir, release, sums, &format!("yttlint {VERSION}"));
}

/// [`fake_release`] of a binary whose `--version` prints `says`.
fn fake_release_saying(dir: &Path, release: &Path, sums: Option<&str>, says: &str) {
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::create_dir_all(release).unwrap();
    let fake = format!(
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '{says}'; else echo fake yttlint; fi\n"
    );
    std::fs::write(pkg.join("yttlint"), fake).unwrap();
    std::fs::write(pkg.join("README.md"), "readme\n").unwrap();
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(release.join(NAME))
        .arg("-C")
        .arg(&pkg)
        .args(["yttlint", "README.md"])
        .status()
        .unwrap();
    assert!(tar.success());
    let out = Command::new("sha256sum")
        .arg(release.join(NAME))
        .output()
        .unwrap();
    let digest = String::from_utf8_lossy(&out.stdout);
    let digest = digest.split(' ').next().unwrap().to_string();
    assert_eq!(digest.len(), 64);
    if let Some(sums) = sums {
        let text = sums.replace("DIGEST", &digest).replace("NAME", NAME);
        std::fs::write(release.join("SHA256SUMS"), text).unwrap();
    }
}

/// What one run of the script left: its exit status, standard output and the lines it added
/// to GITHUB_OUTPUT and GITHUB_PATH.
struct Run {
    code: i32,
    stdout: String,
    output: String,
    path: String,
}

fn run(dir: &Path, command: &str, env: &[(&str, String)]) -> Run {
    let (output, path) = (dir.join("github_output"), dir.join("github_path"));
    std::fs::write(&output, "").unwrap();
    std::fs::write(&path, "").unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg(script())
        .arg(command)
        .current_dir(dir)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env("RUNNER_TEMP", dir.join("tmp"))
        .env_remove("RUNNER_TOOL_CACHE")
        .env_remove("YTTLINT_RELEASE_URL")
        .env("GITHUB_OUTPUT", &output)
        .env("GITHUB_PATH", &path)
        .env("YTTLINT_VERSION", format!("v{VERSION}"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        output: std::fs::read_to_string(&output).unwrap(),
        path: std::fs::read_to_string(&path).unwrap(),
    }
}

fn from(release: &Path) -> Vec<(&'static str, String)> {
    vec![(
        "YTTLINT_RELEASE_URL",
        format!("file://{}", release.display()),
    )]
}

#[test]
fn a_good_checksum_installs_the_release_binary() {
    let dir = TempDir::new();
    let release = dir.join("release");
    fake_release(&dir, &release, Some("0000  other.zip\nDIGEST  NAME\n"));
    let r = run(&dir, "download", &from(&release));
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains("checked against SHA256SUMS"),
        "{}",
        r.stdout
    );
    let bin = Path::new(r.path.trim()).join("yttlint");
    let out = Command::new(&bin).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "fake yttlint\n");
    // A local directory works as well as a URL, and so does sha256sum's binary-mode `*NAME`.
    fake_release(&dir, &release, Some("DIGEST *NAME\n"));
    let local = vec![("YTTLINT_RELEASE_URL", release.display().to_string())];
    let r = run(&dir, "download", &local);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(Path::new(r.path.trim()).join("yttlint").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The downloaded binary must say it is the version asked for (issue 44): a release whose
/// archive holds another version's binary fails the step.
#[test]
fn a_binary_of_another_version_fails() {
    let dir = TempDir::new();
    let release = dir.join("release");
    fake_release_saying(&dir, &release, Some("DIGEST  NAME\n"), "yttlint 0.0.9");
    let r = run(&dir, "download", &from(&release));
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("says \"yttlint 0.0.9\" to --version, not yttlint 0.1.0"),
        "{}",
        r.stdout
    );
    assert_eq!(r.path, "", "nothing is put on the PATH");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_checksum_fails_without_falling_back() {
    let dir = TempDir::new();
    let release = dir.join("release");
    let wrong = format!("{}  NAME\n", "0".repeat(64));
    fake_release(&dir, &release, Some(&wrong));
    let r = run(&dir, "download", &from(&release));
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.starts_with("::error title=yttlint::")
            && r.stdout.contains("does not match SHA256SUMS"),
        "{}",
        r.stdout
    );
    assert_eq!(r.path, "", "nothing is put on the PATH");
    assert_eq!(r.output, "", "no output that would let a build step run");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_checksum_fails() {
    let dir = TempDir::new();
    let release = dir.join("release");
    fake_release(
        &dir,
        &release,
        Some("DIGEST  yttlint-0.1.0-x86_64-apple-darwin.tar.gz\n"),
    );
    let r = run(&dir, "download", &from(&release));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("has no checksum for"), "{}", r.stdout);
    assert_eq!(r.path, "");
    // No SHA256SUMS at all.
    let bare = dir.join("bare");
    fake_release(&dir, &bare, None);
    let r = run(&dir, "download", &from(&bare));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("cannot download"), "{}", r.stdout);
    assert!(r.stdout.contains("SHA256SUMS"), "{}", r.stdout);
    assert_eq!(r.path, "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_runner_without_a_release_fails() {
    let dir = TempDir::new();
    let mut env = from(&dir);
    env.push(("RUNNER_ARCH", "X86".to_string()));
    let r = run(&dir, "download", &env);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("no yttlint release for Linux/X86"),
        "{}",
        r.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stub of Git Bash's `cygpath -w`: `/x/y` becomes `C:\x\y`.
fn stub_cygpath(dir: &Path) -> String {
    let bin = dir.join("stubs");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = bin.join("cygpath");
    std::fs::write(
        &stub,
        "#!/bin/sh\n[ \"$1\" = -w ] || exit 2\nprintf 'C:%s\\n' \"$2\" | tr / '\\\\'\n",
    )
    .unwrap();
    let chmod = Command::new("chmod").arg("+x").arg(&stub).status().unwrap();
    assert!(chmod.success());
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn windows_paths_find_the_release_and_give_native_paths() {
    let dir = TempDir::new();
    let server = dir.join("server");
    let release = server.join("someone/yttlint/releases/download/v0.1.0");
    fake_release(&dir, &release, Some("DIGEST  NAME\n"));
    // The runner is Linux x86_64 for the archive's sake; the paths are Windows'.
    let env = vec![
        (
            "GITHUB_ACTION_PATH",
            r"D:\a\_actions\someone\yttlint\v0.1.0".to_string(),
        ),
        ("GITHUB_SERVER_URL", format!("file://{}", server.display())),
    ];
    let r = run(&dir, "download", &env);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(Path::new(r.path.trim()).join("yttlint").is_file());
    // With RUNNER_OS=Windows, the PATH line is what cygpath -w gives.
    let mut env = from(&release);
    env.push(("PATH", stub_cygpath(&dir)));
    env.push(("RUNNER_OS", "Windows".to_string()));
    let r = run(&dir, "download", &env);
    assert_eq!(
        r.code, 1,
        "Windows x64's archive is a zip: not in this release"
    );
    assert!(
        r.stdout.contains("x86_64-pc-windows-msvc.zip"),
        "{}",
        r.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_build_is_keyed_by_the_sources_and_put_on_the_path() {
    let dir = TempDir::new();
    let action = env!("CARGO_MANIFEST_DIR").to_string();
    let env = vec![
        ("GITHUB_ACTION_PATH", action.clone()),
        ("RUNNER_TOOL_CACHE", dir.join("cache").display().to_string()),
    ];
    let first = run(&dir, "key", &env);
    assert_eq!(first.code, 0, "{}", first.stdout);
    let again = run(&dir, "key", &env);
    assert_eq!(first.output, again.output, "the key is the same every time");
    let lines: Vec<&str> = first.output.lines().collect();
    assert_eq!(lines.len(), 2, "{}", first.output);
    let key = lines[0].strip_prefix("key=yttlint-Linux-X64-").unwrap();
    assert_eq!(key.len(), 16);
    let build = lines[1].strip_prefix("dir=").unwrap();
    assert_eq!(
        build,
        format!("{}/yttlint-build-{key}", dir.join("cache").display())
    );
    // A build directory without a binary is an error; with one, its bin goes on the PATH.
    let install = vec![("YTTLINT_INSTALL_DIR", build.to_string())];
    let r = run(&dir, "path", &install);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("no yttlint in"), "{}", r.stdout);
    std::fs::create_dir_all(Path::new(build).join("bin")).unwrap();
    let exe = Path::new(build).join("bin/yttlint");
    std::fs::write(&exe, "#!/bin/sh\n").unwrap();
    Command::new("chmod").arg("+x").arg(&exe).status().unwrap();
    let r = run(&dir, "path", &install);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.path, format!("{build}/bin\n"));
    // On Windows the directories are native paths.
    let mut windows = env.clone();
    windows.push(("RUNNER_OS", "Windows".to_string()));
    windows.push(("PATH", stub_cygpath(&dir)));
    let r = run(&dir, "key", &windows);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let native = format!("dir=C:{}/yttlint-build-", dir.join("cache").display()).replace('/', "\\");
    assert!(r.output.contains(&native), "{}", r.output);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_commands_are_usage_errors() {
    let dir = TempDir::new();
    let r = run(&dir, "upload", &[]);
    assert_eq!(r.code, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_lint_step_hands_upload_sarif_a_native_path_on_windows() {
    let dir = TempDir::new();
    let path = stub_cygpath(&dir);
    let stub = dir.join("stubs/yttlint");
    std::fs::write(&stub, "#!/bin/sh\necho '{}' > out.sarif\nexit 1\n").unwrap();
    Command::new("chmod").arg("+x").arg(&stub).status().unwrap();
    let output = dir.join("github_output");
    std::fs::write(&output, "").unwrap();
    let status = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("action/lint.sh"))
        .current_dir(&dir)
        .env("PATH", path)
        .env("RUNNER_OS", "Windows")
        .env("GITHUB_OUTPUT", &output)
        .env("YTTLINT_SARIF", "out.sarif")
        .env_remove("YTTLINT_PATHS")
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "the step fails as yttlint did");
    let outputs = std::fs::read_to_string(&output).unwrap();
    let native =
        format!("C:{}/out.sarif", dir.canonicalize().unwrap().display()).replace('/', "\\");
    assert_eq!(outputs, format!("exit-code=1\nsarif-file={native}\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
