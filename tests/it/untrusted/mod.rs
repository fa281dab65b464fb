//! The repository is untrusted input: one test per attack of issue 13. A fake secret in the
//! environment (`FAKE_TOKEN=supersecret`) and the content of a file outside the repository must
//! appear in no output and no report; a configuration that asks for them is refused (exit 2)
//! naming the offending entry; a symlink that leads outside is a finding and is not read.
//! `limits` holds the attacks on the run's memory and time.

use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod limits;
mod machine_paths;
mod odd_names;
mod root_names;
mod run_bound;
mod safe_fixes;
mod scenario_cap;
mod unread_files;

use crate::util::json::{diagnostics, str_of};
use crate::util::temp::make_fifo;
use crate::util::{command, template, Run, TempDir};

/// `(rule, file, message, severity)` of each finding of the JSON report.
fn findings_of(run: &Run) -> Vec<(String, String, String, String)> {
    diagnostics(&run.json())
        .iter()
        .map(|d| {
            (
                str_of(d, "rule").to_string(),
                str_of(d, "file").to_string(),
                str_of(d, "message").to_string(),
                str_of(d, "severity").to_string(),
            )
        })
        .collect()
}

const SECRET_ENV: &str = "supersecret";
const SECRET_FILE: &str = "outside-secret-4711";

/// A lint run with the secret in its environment.
struct Linted {
    code: i32,
    /// Standard output, standard error and every report written, together.
    everything: String,
    stdout: String,
    stderr: String,
}

/// A repository with one root (`config`) and, next to it (outside it), a secret file.
struct Fixture {
    base: TempDir,
    repo: PathBuf,
    outside: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let base = TempDir::with_files(&[
            ("repo/config/values.yml", "#@data/values\n---\nname: app\n"),
            (
                "repo/config/app.yml",
                "#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.name\n",
            ),
        ]);
        let repo = base.join("repo");
        let outside = base.write("secret.yml", format!("token: {SECRET_FILE}\n"));
        Fixture {
            base,
            repo,
            outside,
        }
    }

    fn config(&self, text: &str) {
        std::fs::write(self.repo.join(".yttlint.yaml"), text).unwrap();
    }

    fn write(&self, path: &str, text: &str) {
        std::fs::write(self.repo.join(path), text).unwrap();
    }

    /// Lints with every report format written, the secret in the environment.
    fn lint(&self, args: &[&str]) -> Linted {
        let reports = self.base.join("reports");
        let _ = std::fs::remove_dir_all(&reports);
        std::fs::create_dir_all(&reports).unwrap();
        let mut cmd = command(&self.repo);
        cmd.env("FAKE_TOKEN", SECRET_ENV).args(args);
        for format in ["sarif", "json", "junit", "gitlab"] {
            cmd.arg("--report")
                .arg(format!("{format}={}", reports.join(format).display()));
        }
        let Run {
            code,
            stdout,
            stderr,
        } = Run::of(&mut cmd);
        let mut everything = format!("{stdout}\n{stderr}\n");
        for e in std::fs::read_dir(&reports).unwrap() {
            everything.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
        }
        Linted {
            code,
            everything,
            stdout,
            stderr,
        }
    }
}

fn assert_no_secret(run: &Linted) {
    assert!(
        !run.everything.contains(SECRET_ENV),
        "the environment leaked:\n{}",
        run.everything
    );
    assert!(
        !run.everything.contains(SECRET_FILE),
        "the outside file leaked:\n{}",
        run.everything
    );
}

/// A configuration refused: exit 2, the message at `.yttlint.yaml:LINE:COL` quoting `entry`.
fn assert_refused(run: &Linted, line: u32, entry: &str, says: &str) {
    assert_eq!(run.code, 2, "{}", run.everything);
    let at = format!(".yttlint.yaml:{line}:");
    assert!(
        run.stderr.contains(&at) && run.stderr.contains(entry) && run.stderr.contains(says),
        "expected {at} {entry:?} {says:?} in: {}",
        run.stderr
    );
    assert_no_secret(run);
}

#[test]
fn environment_flags_in_the_configuration_are_refused() {
    let f = Fixture::new();
    f.config("roots:\n  - path: config\n    args: [--data-values-env, FAKE]\n");
    assert_refused(&f.lint(&[]), 3, "\"--data-values-env\"", "--allow-env FAKE");
    f.config("roots:\n  - path: config\n    scenarios:\n      - name: s\n        args: [\"--data-values-env-yaml=FAKE\"]\n");
    assert_refused(
        &f.lint(&[]),
        5,
        "--data-values-env-yaml=FAKE",
        "environment",
    );
}

#[test]
fn allow_env_on_the_command_line_allows_the_prefix() {
    let f = Fixture::new();
    f.config("roots:\n  - path: config\n    args: [--data-values-env, FAKE]\n");
    let run = f.lint(&["--allow-env", "FAKE", "--format", "json"]);
    // The user allowed it: the value is read (and reported as undeclared).
    assert_eq!(run.code, 0, "{}", run.everything);
    assert!(run.stdout.contains("TOKEN"), "{}", run.stdout);
    let other = f.lint(&["--allow-env", "OTHER"]);
    assert_eq!(other.code, 2);
    assert_no_secret(&other);
}

#[test]
fn a_value_file_from_proc_is_refused() {
    let f = Fixture::new();
    f.config("roots:\n  - path: config\n    scenarios:\n      - name: s\n        args: [--data-value-file, \"k=/proc/self/environ\"]\n");
    assert_refused(
        &f.lint(&[]),
        5,
        "--data-value-file",
        "outside the repository",
    );
}

#[test]
fn inputs_outside_the_repository_are_refused() {
    let f = Fixture::new();
    f.write(
        "config/leak.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\nleak: #@ assert.fail(data.read(\"env.txt\") + data.read(\"pw.txt\"))\n",
    );
    let outside = f.outside.display().to_string();
    f.config(&format!(
        "roots:\n  - path: config\n    args: [-f, ., -f, env.txt=/proc/self/environ, -f, \"pw.txt={outside}\"]\n"
    ));
    assert_refused(&f.lint(&[]), 3, "\"-f\"", "env.txt=/proc/self/environ");
    f.config(&format!(
        "roots:\n  - path: config\n    args: [-f, ., -f, \"pw.txt={outside}\"]\n"
    ));
    assert_refused(&f.lint(&[]), 3, "\"-f\"", "outside the repository");
    f.config("roots:\n  - path: config\n    args: [-f, ., \"--file=../../secret.yml\"]\n");
    assert_refused(&f.lint(&[]), 3, "--file=../../secret.yml", "outside");
}

#[test]
fn output_flags_are_refused() {
    let f = Fixture::new();
    f.config("roots:\n  - path: config\n    args: [--strict, --output-files, /tmp/x]\n");
    assert_refused(&f.lint(&[]), 3, "\"--output-files\"", "writes files");
    f.config(
        "roots:\n  - path: config\n    args: [\"--dangerous-emptied-output-directory=out\"]\n",
    );
    assert_refused(
        &f.lint(&[]),
        3,
        "--dangerous-emptied-output-directory",
        "writes files",
    );
    f.config("roots:\n  - path: config\n    args: [--allow-symlink-destination, /]\n");
    assert_refused(&f.lint(&[]), 3, "--allow-symlink-destination", "anywhere");
}

#[test]
fn a_values_file_that_is_a_symlink_to_outside_is_refused() {
    let f = Fixture::new();
    symlink(&f.outside, f.repo.join("prod.yml")).unwrap();
    f.config("roots:\n  - path: config\n    scenarios:\n      - name: prod\n        values_files: [prod.yml]\n");
    assert_refused(&f.lint(&[]), 5, "prod.yml", "outside the repository");
    // The same in args, and a root that is a link to outside.
    f.config("roots:\n  - path: config\n    args: [--data-values-file, ../prod.yml]\n");
    assert_refused(
        &f.lint(&[]),
        3,
        "--data-values-file",
        "outside the repository",
    );
    symlink(&f.base, f.repo.join("elsewhere")).unwrap();
    f.config("roots:\n  - path: elsewhere\n");
    assert_refused(&f.lint(&[]), 2, "elsewhere", "outside the repository");
}

#[test]
fn a_symlink_inside_a_root_to_outside_is_a_finding_and_not_read() {
    let f = Fixture::new();
    symlink(&f.outside, f.repo.join("config/secret.txt")).unwrap();
    // A directory link too: nothing under it is read.
    symlink(&f.base, f.repo.join("config/up")).unwrap();
    f.write(
        "config/leak.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\nleak: #@ assert.fail(data.read(\"secret.txt\"))\n",
    );
    f.config("");
    let run = f.lint(&["--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.everything);
    assert_no_secret(&run);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let outside: Vec<&str> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "file-outside-repository")
        .map(|d| str_of(d, "file"))
        .collect();
    assert_eq!(outside, vec!["config/secret.txt", "config/up"]);
    // The terminal format shows code frames: still nothing of the file.
    assert_no_secret(&f.lint(&["--format", "terminal"]));
}

#[test]
fn a_symlink_inside_the_repository_is_followed() {
    let f = Fixture::new();
    std::fs::create_dir_all(f.repo.join("shared")).unwrap();
    f.write("shared/name.txt", "from-shared");
    symlink(
        f.repo.join("shared/name.txt"),
        f.repo.join("config/name.txt"),
    )
    .unwrap();
    f.write(
        "config/app.yml",
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\nname: #@ assert.fail(data.read(\"name.txt\"))\n",
    );
    f.config("");
    let run = f.lint(&["--format", "json"]);
    assert!(run.stdout.contains("from-shared"), "{}", run.everything);
    assert!(!run.stdout.contains("file-outside-repository"));
}

#[test]
fn commands_learned_from_scripts_that_read_outside_read_nothing_outside() {
    let f = Fixture::new();
    std::fs::create_dir_all(f.repo.join("hack")).unwrap();
    let outside = f.outside.display().to_string();
    f.write(
        "hack/render.sh",
        &format!("#!/bin/sh\nytt -f config -f {outside}\nytt -f config --data-values-env FAKE --output-files out\n"),
    );
    // The command is linted without the outside input, which it takes as given at run time
    // (an `outside-input` assumption); nothing outside is read.
    let list = f.lint(&["--list-roots"]);
    assert!(
        list.stdout.contains("(more inputs given at run time)"),
        "{}",
        list.stdout
    );
    let run = f.lint(&["--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.everything);
    assert_no_secret(&run);
    assert!(!f.repo.join("config/out").exists() && !f.repo.join("out").exists());
}

#[test]
fn a_named_pipe_inside_a_root_is_skipped_without_blocking() {
    let f = Fixture::new();
    make_fifo(&f.repo.join("config/pipe.yml"));
    f.config("");
    let start = Instant::now();
    let mut child = command(&f.repo)
        .args(["--format", "json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the linter blocked on a named pipe");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"special-file\""), "{stdout}");
    assert!(
        stdout.contains("config/pipe.yml is a named pipe"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "a warning: {stdout}");
}

#[test]
fn template_refuses_symlinks_unless_their_destination_is_allowed() {
    let f = Fixture::new();
    symlink(&f.outside, f.repo.join("config/secret.yml")).unwrap();
    let run = |args: &[&str]| template(&f.repo, args);
    let refused = run(&["-f", "config"]);
    assert_eq!(refused.code, 1);
    let err = &refused.stderr;
    assert!(
        err.contains("Checking symlink file 'config/secret.yml'")
            && err.contains("to be allowed, but was not (hint: symlinks are disallowed as a security feature, use '--allow-symlink-destination' flags to override)"),
        "{err}"
    );
    let direct = run(&["-f", "config/secret.yml"]);
    assert_eq!(direct.code, 1);
    let base = f.base.display().to_string();
    let allowed = run(&["-f", "config", "--allow-symlink-destination", &base]);
    assert_eq!(allowed.code, 0, "{allowed:?}");
    assert!(allowed.stdout.contains(SECRET_FILE));
    let all = run(&[
        "-f",
        "config/secret.yml",
        "--dangerous-allow-all-symlink-destinations",
    ]);
    assert_eq!(all.code, 0, "{all:?}");
}

#[test]
fn a_configuration_file_that_is_a_symlink_to_outside_is_not_read() {
    let f = Fixture::new();
    symlink(&f.outside, f.repo.join(".yttlint.yaml")).unwrap();
    let run = f.lint(&[]);
    assert_eq!(run.code, 2, "{}", run.everything);
    assert!(run
        .stderr
        .contains("not a regular file inside its directory"));
    assert_no_secret(&run);
}

#[test]
fn a_gitignore_that_hides_every_ytt_file_is_said_not_passed() {
    let f = Fixture::new();
    f.config("");
    f.write(".gitignore", "*\n");
    // In a git work tree (outside one, `.gitignore` does not apply).
    std::fs::create_dir_all(f.repo.join(".git")).unwrap();
    let run = f.lint(&[]);
    assert_eq!(run.code, 2, "{}", run.everything);
    assert!(
        run.stderr.contains("nothing to lint: .gitignore or .ignore files ignore every ytt file of the repository (2 files, the first config/app.yml)"),
        "{}",
        run.stderr
    );
    // Ignoring only some files is not an error.
    f.write(".gitignore", "config/values.yml\n");
    assert_eq!(f.lint(&[]).code, 0);
}

/// `.git/config` with a CI token in it, as `actions/checkout` leaves it.
fn git_config(f: &Fixture) {
    std::fs::create_dir_all(f.repo.join(".git")).unwrap();
    f.write(
        ".git/config",
        &format!(
            "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic {SECRET_FILE}\n"
        ),
    );
}

#[test]
fn version_control_directories_are_outside_the_repository() {
    let f = Fixture::new();
    git_config(&f);
    std::fs::create_dir_all(f.repo.join(".hg")).unwrap();
    f.write(".hg/hgrc", &format!("[auth]\nx.password = {SECRET_FILE}\n"));
    symlink("../.git/config", f.repo.join("config/n.data")).unwrap();
    symlink("../.hg/hgrc", f.repo.join("config/h.data")).unwrap();
    f.write(
        "config/t.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\n#@ fail(\" \".join(data.read(\"n.data\").split(\"\\n\")) + data.read(\"h.data\"))\nx: 1\n",
    );
    f.config("");
    let run = f.lint(&["--format", "json"]);
    assert_no_secret(&run);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let outside: Vec<&str> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "file-outside-repository")
        .map(|d| str_of(d, "file"))
        .collect();
    assert_eq!(
        outside,
        vec!["config/h.data", "config/n.data"],
        "{}",
        run.stdout
    );
    assert_no_secret(&f.lint(&["--format", "terminal"]));
    assert_no_secret(&f.lint(&["--in-process", "--format", "terminal"]));
    // Named in the configuration: refused, as other outside paths.
    f.config("roots:\n  - path: config\n    args: [--data-value-file, \"s=../.git/config\"]\n");
    assert_refused(
        &f.lint(&[]),
        3,
        "--data-value-file",
        "outside the repository",
    );
    f.config("roots:\n  - path: config\n    args: [-f, ., -f, ../.git]\n");
    assert_refused(&f.lint(&[]), 3, "\"-f\"", "outside the repository");
    f.config("roots:\n  - path: config\n    scenarios:\n      - name: s\n        values_files: [.git/config]\n");
    assert_refused(&f.lint(&[]), 5, ".git/config", "outside the repository");
    f.config("roots:\n  - path: .git\n");
    assert_refused(&f.lint(&[]), 2, ".git", "outside the repository");
}

/// Runs `cmd` with a standard input that stays open and empty, at most `secs` seconds: its
/// exit status and standard output.
fn run_with_open_stdin(cmd: &mut std::process::Command, secs: u64) -> (Option<i32>, String) {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the linter blocked reading standard input");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stdin);
    let code = child.wait().unwrap().code();
    (code, reader.join().unwrap())
}

#[test]
fn a_symlink_to_standard_input_or_a_device_is_a_special_file_and_not_opened() {
    let f = Fixture::new();
    symlink("/dev/stdin", f.repo.join("config/in.txt")).unwrap();
    symlink("/dev/zero", f.repo.join("config/zero.txt")).unwrap();
    symlink("/proc/self/environ", f.repo.join("config/env.txt")).unwrap();
    f.write(
        "config/t.yml",
        "#@ load(\"@ytt:data\", \"data\")\n---\n#@ fail(data.read(\"in.txt\") + data.read(\"zero.txt\") + data.read(\"env.txt\"))\nx: 1\n",
    );
    // Listed, so that its failure is certain: an error.
    f.config("roots:\n- path: config\n");
    for mode in [&[][..], &["--in-process"][..]] {
        let mut cmd = command(&f.repo);
        cmd.env("FAKE_TOKEN", SECRET_ENV)
            .args(["--format", "json"])
            .args(mode);
        let (code, stdout) = run_with_open_stdin(&mut cmd, 60);
        assert!(!stdout.contains(SECRET_ENV), "{stdout}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let special: Vec<&str> = diagnostics(&report)
            .iter()
            .filter(|d| d["rule"] == "special-file")
            .map(|d| str_of(d, "file"))
            .collect();
        assert_eq!(
            special,
            vec!["config/env.txt", "config/in.txt", "config/zero.txt"],
            "{mode:?}: {stdout}"
        );
        assert_eq!(code, Some(1), "{mode:?}: {stdout}");
    }
}

#[test]
fn reports_are_never_written_through_a_committed_symlink() {
    let f = Fixture::new();
    f.config("");
    let victim = f.base.write("victim", "untouched");
    // Temporary names as the linter used to make them (`.NAME.PID.tmp`), for the next pids.
    let next = std::process::Command::new("true").spawn().unwrap();
    let pid = next.id();
    let mut next = next;
    next.wait().unwrap();
    for p in pid..pid + 2000 {
        symlink("../victim", f.repo.join(format!(".r.sarif.{p}.tmp"))).unwrap();
    }
    let run = Run::of(command(&f.repo).args(["--report", "sarif=r.sarif"]));
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert!(std::fs::read_to_string(f.repo.join("r.sarif"))
        .unwrap()
        .contains("\"version\""));
    // A report, baseline or configuration path that is itself a symlink: a usage error.
    symlink("../victim", f.repo.join("link.sarif")).unwrap();
    let cases: [&[&str]; 3] = [
        &["--report", "sarif=link.sarif"],
        &["--write-baseline", "link.sarif"],
        &["init", "--force"],
    ];
    std::fs::remove_file(f.repo.join(".yttlint.yaml")).unwrap();
    symlink("../victim", f.repo.join(".yttlint.yaml")).unwrap();
    for args in cases {
        let run = Run::of(command(&f.repo).args(args));
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.contains("symbolic link"), "{args:?}: {run:?}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    }
}

#[test]
fn a_file_name_that_is_not_utf8_is_a_usage_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let f = Fixture::new();
    f.config("");
    let name = std::ffi::OsStr::from_bytes(b"config/bad-\xff.yml");
    std::fs::write(f.repo.join(name), "a: 1\n").unwrap();
    let run = Run::of(command(&f.repo).arg("config/app.yml").arg(name));
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("not valid UTF-8"), "{run:?}");
}

#[test]
fn a_baseline_or_configuration_that_is_not_a_bounded_regular_file_is_an_error() {
    let f = Fixture::new();
    f.config("");
    symlink("/dev/zero", f.repo.join("zero.json")).unwrap();
    make_fifo(&f.repo.join("pipe.json"));
    for baseline in ["zero.json", "pipe.json"] {
        let mut cmd = command(&f.repo);
        cmd.args(["--baseline", baseline]);
        let (code, _) = run_with_open_stdin(&mut cmd, 30);
        assert_eq!(code, Some(2), "{baseline}");
        let run = Run::of(command(&f.repo).args(["--baseline", baseline]));
        assert!(
            run.stderr.contains("not a regular file"),
            "{baseline}: {run:?}"
        );
    }
    let big = "# padding\n".repeat((16 << 20) / 10 + 1);
    f.write("big.json", &big);
    let run = Run::of(command(&f.repo).args(["--baseline", "big.json"]));
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("larger than 16 MiB"), "{run:?}");
    f.config(&big);
    let run = f.lint(&[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("larger than 16 MiB"), "{}", run.stderr);
}

#[test]
fn a_forged_cache_entry_is_ignored() {
    let f = Fixture::new();
    f.config("");
    f.write(
        "config/t.yml",
        "#@ load(\"@ytt:assert\", \"assert\")\nx: #@ assert.fail(\"MARKER-FAIL\")\n",
    );
    let home = f.base.join("home");
    let run = |f: &Fixture| {
        Run::of(
            command(&f.repo)
                .env("XDG_CACHE_HOME", &home)
                .env_remove("CI")
                .args(["--format", "json"]),
        )
    };
    let first = run(&f);
    assert!(first.stdout.contains("MARKER-FAIL"), "{first:?}");
    let key = home.join("yttlint/key");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    // A fork rewrites every entry it finds (or commits its own): the failure becomes a
    // message of its choosing, the tag line kept.
    let mut forged = 0;
    for sub in ["jobs", "runs"] {
        let Ok(dir) = std::fs::read_dir(f.repo.join(".yttlint-cache").join(sub)) else {
            continue;
        };
        for e in dir {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            if text.contains("MARKER-FAIL") {
                std::fs::write(&path, text.replace("MARKER-FAIL", "FORGED-TEXT")).unwrap();
                forged += 1;
            }
        }
    }
    assert!(forged > 0, "no cache entry was written");
    let second = run(&f);
    assert!(!second.stdout.contains("FORGED-TEXT"), "{second:?}");
    assert!(second.stdout.contains("MARKER-FAIL"), "{second:?}");
    assert_eq!(second.code, first.code);
    // In CI the default cache is outside the checkout.
    let _ = std::fs::remove_dir_all(f.repo.join(".yttlint-cache"));
    let ci = Run::of(
        command(&f.repo)
            .env("XDG_CACHE_HOME", &home)
            .env("CI", "true")
            .args(["--format", "json"]),
    );
    assert_eq!(ci.code, first.code, "{ci:?}");
    assert!(!f.repo.join(".yttlint-cache").exists());
    assert!(home.join("yttlint/repos").is_dir());
}

/// Item 5 of issue 29 under stress: a local process swaps `config/x.txt` between a regular file
/// and a symlink to the outside secret (each swap one atomic `rename`) as fast as it can, while
/// the linter runs again and again (`--in-process`, no cache, JSON or terminal on standard
/// output and every report written). A run reads the file for the walk, the root's files,
/// code frames and, every other pair of runs, forty `--data-value-file` flags of the
/// configuration (refused as a whole, exit 2, when the file is a symlink as the configuration
/// is checked). Reads are checked on the
/// open handle, so no run may show the secret; the runs must see both states of the file, or
/// the race was not run. `.ci/run` runs it (10 to 30 s). With the check made on the path before
/// the open (the bug) and 200 µs between them, 48 of 300 runs leaked; the open-once read with
/// the same pauses added before and after its open leaked in none.
#[test]
#[ignore = "stress: run by .ci/run"]
fn stress_a_symlink_swapped_while_linting_never_leaks() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;
    const MIN_SWAPS: usize = 1_000;
    const MIN_RUNS: usize = 300;
    // The file is read once for the root's files and once per data value flag: READS chances
    // per run to read it while it changes.
    const READS: usize = 40;
    let f = Fixture::new();
    let flags: Vec<String> = (0..READS)
        .map(|i| format!("--data-value-file, v{i}=x.txt"))
        .collect();
    // Every other pair of runs without the flags: their root is evaluated whatever the file
    // is as the configuration is checked.
    let configs = [
        format!(
            "roots:\n  - path: config\n    args: [{}]\n",
            flags.join(", ")
        ),
        String::new(),
    ];
    f.write("config/x.txt", "harmless-text\n");
    f.write(
        "config/app.yml",
        &format!(
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n\
             x: #@ assert.fail(data.read(\"x.txt\") + \"|\".join([getattr(data.values, \"v%d\" % i, \"\") for i in range({READS})]))\n"
        ),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = Arc::new(AtomicUsize::new(0));
    let swapper = {
        let (stop, swaps) = (stop.clone(), swaps.clone());
        let (target, outside) = (f.repo.join("config/x.txt"), f.outside.clone());
        // The new file is made outside the repository (the same file system), then renamed in.
        let (link, file) = (f.base.join("swap-link"), f.base.join("swap-file"));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let _ = std::fs::remove_file(&link);
                symlink(&outside, &link).unwrap();
                std::fs::rename(&link, &target).unwrap();
                std::fs::write(&file, "harmless-text\n").unwrap();
                std::fs::rename(&file, &target).unwrap();
                swaps.fetch_add(2, Ordering::Relaxed);
            }
        })
    };
    let start = Instant::now();
    let (mut runs, mut leaks, mut saw_file, mut saw_link, mut refused) = (0, 0, 0, 0, 0);
    while runs < MIN_RUNS || swaps.load(Ordering::Relaxed) < MIN_SWAPS {
        let format = ["json", "terminal"][runs % 2];
        f.config(&configs[runs / 2 % 2]);
        let run = f.lint(&["--in-process", "--no-cache", "--format", format]);
        runs += 1;
        if run.everything.contains(SECRET_FILE) {
            leaks += 1;
            eprintln!("leak in run {runs}:\n{}", run.everything);
        }
        saw_file += usize::from(run.everything.contains("harmless-text"));
        saw_link += usize::from(run.everything.contains("file-outside-repository"));
        refused += usize::from(run.code == 2);
        assert!(start.elapsed() < Duration::from_secs(900), "too slow");
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    let swaps = swaps.load(Ordering::Relaxed);
    eprintln!(
        "{swaps} swaps, {runs} runs ({saw_file} read the file, {saw_link} found the symlink, \
         {refused} refused the configuration), {leaks} leaks, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert_eq!(leaks, 0, "the secret leaked in {leaks} of {runs} runs");
    assert!(swaps >= MIN_SWAPS);
    assert!(saw_file > 0 && saw_link > 0, "{saw_file} {saw_link}");
}
