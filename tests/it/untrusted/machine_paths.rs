//! Issue 40: no machine path in what the linter prints. The repository's files are read by
//! absolute paths, and a read that fails (a symlink to outside, a dangling one, a loop, a name
//! that is not UTF-8) is a message; the run's own files (the executable) and the walk's errors
//! are others. Every report format, standard output and standard error, in worker processes
//! and in threads, must name repository paths only: no output holds the directory the
//! repository and its outside neighbours are in.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use crate::util::json::{diagnostics, str_of};
use crate::util::{command, TempDir};

/// `base/repo`, a repository whose root `config` reads through every kind of failing path,
/// next to `base/outside` (a file and a directory) and `base/repo2` (a sibling whose name
/// starts with the repository's).
fn repository() -> (TempDir, PathBuf) {
    let base = TempDir::with_files(&[
        ("outside/secret.yml", "secret: 1\n"),
        ("outside/dir/a.star", "A = 1\n"),
        ("repo2/present.yml", "p: 1\n"),
        (
            "repo/config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"lib/a.star\", \"A\")\n---\na: #@ data.values.a\nb: #@ A\n",
        ),
        ("repo/config/values.yml", "#@data/values\n---\na: 1\n"),
        (
            "repo/reader/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nx: #@ data.read(\"gone.txt\")\ny: #@ data.read(\"sibling.txt\")\n",
        ),
        ("repo/flags/app.yml", "#@ load(\"@ytt:data\", \"data\")\n---\nf: #@ data.values.f\n"),
        (
            "repo/.yttlint.yaml",
            "roots:\n  - path: config\n  - path: reader\n  - path: flags\n    scenarios:\n      - name: through-a-link\n        args: [--data-value-file, f=dangling.yml]\n",
        ),
    ]);
    let repo = base.join("repo");
    let out = base.join("outside");
    let link = |to: &Path, at: &str| symlink(to, repo.join(at)).unwrap();
    link(&out.join("secret.yml"), "config/secret.yml");
    link(&out.join("dir"), "config/lib");
    link(&out.join("nowhere/missing.yml"), "config/dangling.yml");
    link(&base.join("repo2/missing.yml"), "config/sibling.yml");
    link(&out.join("nowhere/missing.yml"), "flags/dangling.yml");
    link(Path::new("loop-b.yml"), "config/loop-a.yml");
    link(Path::new("loop-a.yml"), "config/loop-b.yml");
    link(&out.join("gone.txt"), "reader/gone.txt");
    link(&base.join("repo2/present.yml"), "reader/sibling.txt");
    // Names that are not UTF-8: a file of the root, and a link to outside.
    let odd = |name: &str| {
        let mut bytes = name.as_bytes().to_vec();
        bytes.push(0xFF);
        repo.join("config").join(OsStr::from_bytes(&bytes))
    };
    std::fs::write(odd("odd").with_extension("yml"), "o: 1\n").unwrap();
    symlink(out.join("secret.yml"), odd("odd-link")).unwrap();
    (base, repo)
}

/// Everything one run prints and writes: standard output, standard error and every report.
fn outputs(repo: &Path, reports: &Path, extra: &[&str]) -> (String, serde_json::Value) {
    let _ = std::fs::remove_dir_all(reports);
    std::fs::create_dir_all(reports).unwrap();
    let mut cmd = command(repo);
    cmd.args(["--no-cache", "--color", "never"]).args(extra);
    let formats = ["json", "sarif", "junit", "github", "gitlab"];
    for format in formats {
        cmd.arg("--report")
            .arg(format!("{format}={}", reports.join(format).display()));
    }
    let out = cmd.output().unwrap();
    let mut all = String::from_utf8_lossy(&out.stdout).into_owned();
    all.push_str(&String::from_utf8_lossy(&out.stderr));
    if extra.contains(&"--list-roots") {
        return (all, serde_json::Value::Null);
    }
    for format in formats {
        let text = std::fs::read_to_string(reports.join(format));
        all.push_str(&text.unwrap_or_else(|e| panic!("{format}: {e}: {all}")));
    }
    let json = std::fs::read_to_string(reports.join("json")).unwrap();
    (all, serde_json::from_str(&json).unwrap())
}

#[test]
fn no_output_names_a_path_of_the_machine() {
    let (base, repo) = repository();
    let reports = base.join("reports");
    let machine = base.to_str().unwrap().to_string();
    for extra in [&[][..], &["--in-process"], &["--list-roots"]] {
        let (all, _) = outputs(&repo, &reports, extra);
        assert!(!all.contains(&machine), "{extra:?}: {all}");
        assert!(!all.contains("repo2"), "{extra:?}: {all}");
    }
    // The failures are reported, by their repository paths.
    let (_, report) = outputs(&repo, &reports, &[]);
    let found: Vec<(String, String)> = diagnostics(&report)
        .iter()
        .map(|d| {
            (
                str_of(d, "rule").to_string(),
                str_of(d, "message").to_string(),
            )
        })
        .collect();
    let has = |rule: &str, text: &str| found.iter().any(|(r, m)| r == rule && m.contains(text));
    assert!(
        has("file-outside-repository", "config/secret.yml"),
        "{found:?}"
    );
    assert!(has("file-outside-repository", "config/lib"), "{found:?}");
    assert!(
        has("file-outside-repository", "reader/sibling.txt"),
        "{found:?}"
    );
    assert!(has("name-not-utf8", "config/odd\u{FFFD}"), "{found:?}");
    assert!(
        has("template-error", "open reader/gone.txt: no such file"),
        "{found:?}"
    );
    assert!(
        has("template-error", "Reading file 'flags/dangling.yml'"),
        "{found:?}"
    );
}

/// Whether this process runs as root (`Uid:` of `/proc/self/status`).
#[cfg(target_os = "linux")]
fn root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().next())
        == Some("0")
}

/// A directory the walk cannot read was a note naming its absolute path twice
/// (`/…/closed: IO error for operation on /…/closed: Permission denied (os error 13)`); it is
/// `closed: permission denied`. Root reads every directory, so as root the linter runs as
/// `nobody` (`setpriv`), from a copy of the binary that `nobody` can run.
#[test]
#[cfg(target_os = "linux")]
fn an_unreadable_directory_is_named_by_its_repository_path() {
    use std::os::unix::fs::PermissionsExt;
    let base = TempDir::with_files(&[
        (
            "repo/config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\na: 1\n",
        ),
        (
            "repo/closed/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nb: 1\n",
        ),
        ("repo/.yttlint.yaml", ""),
    ]);
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    let repo = base.join("repo");
    mode(&repo.join("closed"), 0o000).unwrap();
    let run = if root() {
        let bin = base.join("yttlint");
        std::fs::copy(crate::util::bin::BIN, &bin).unwrap();
        for dir in [base.to_path_buf(), repo.clone(), repo.join("config")] {
            mode(&dir, 0o755).unwrap();
        }
        mode(&bin, 0o755).unwrap();
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin)
            .args(["--no-cache", "--list-roots"])
            .current_dir(&repo);
        crate::util::Run::of(&mut cmd)
    } else {
        crate::util::Run::of(command(&repo).args(["--no-cache", "--list-roots"]))
    };
    mode(&repo.join("closed"), 0o755).unwrap();
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("note: closed: permission denied\n"), "{all}");
    assert!(!all.contains(base.to_str().unwrap()), "{all}");
}
