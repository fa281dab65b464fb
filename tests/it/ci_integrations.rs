//! The CI integration files checked for what their platforms require: the pre-commit hooks, the
//! composite GitHub Action (inputs reach scripts only through the environment; its lint script
//! run against a stub yttlint) and the GitLab CI template, and README's snippets for them.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use serde_json::Value;

use crate::util::{repo_root, TempDir};

/// A YAML file of the repository as JSON, read with yttlint's own YAML parser.
fn yaml_file(path: &str) -> Value {
    let full = repo_root().join(path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    let opts = yttlint::yaml::parse::ParseOpts::default();
    let docs = yttlint::yaml::parse::parse(&text, &Arc::from(path), &opts)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(docs.items.len(), 1, "{path}: one document");
    to_json(&docs.items[0].value)
}

fn to_json(value: &yttlint::yaml::Value) -> Value {
    use yttlint::yaml::Value as Y;
    match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(*b),
        Y::Int(i) => Value::from(*i),
        Y::Uint(u) => Value::from(*u),
        Y::Float(f) => Value::from(*f),
        Y::String(s) => Value::from(s.as_str()),
        Y::Array(a) => Value::Array(a.items.iter().map(|i| to_json(&i.value)).collect()),
        Y::Map(m) => Value::Object(
            m.items
                .iter()
                .map(|i| (yttlint::yaml::scalar_key_string(&i.key), to_json(&i.value)))
                .collect(),
        ),
    }
}

#[test]
fn pre_commit_hooks() {
    let hooks = yaml_file(".pre-commit-hooks.yaml");
    let hooks = hooks.as_array().unwrap();
    let by_id = |id: &str| hooks.iter().find(|h| h["id"] == id).unwrap();
    let staged = by_id("yttlint");
    assert_eq!(staged["language"], "python");
    assert_eq!(staged["entry"], "yttlint");
    assert_eq!(staged["require_serial"], true);
    assert_ne!(staged["pass_filenames"], false);
    let all = by_id("yttlint-all");
    assert_eq!(all["language"], "python");
    assert_eq!(all["pass_filenames"], false);
    assert_eq!(all["require_serial"], true);
    let rust = by_id("yttlint-rust");
    assert_eq!(rust["language"], "script");
    let script = std::fs::read_to_string(repo_root().join("scripts/pre-commit-cargo.sh")).unwrap();
    assert!(script.contains("cargo build --quiet --release --locked"));
    assert_eq!(by_id("yttlint-system")["language"], "system");
    // The container image of this version, whose entry point is yttlint (Dockerfile).
    let docker = by_id("yttlint-docker");
    assert_eq!(docker["language"], "docker_image");
    assert_eq!(
        docker["entry"],
        format!("ghcr.io/yttlint/yttlint:{}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(docker["require_serial"], true);
    let dockerfile = std::fs::read_to_string(repo_root().join("Dockerfile")).unwrap();
    assert!(dockerfile.contains("ENTRYPOINT [\"yttlint\"]"));
    // What pre-commit's manifest schema requires of every hook.
    let languages = [
        "conda",
        "coursier",
        "dart",
        "docker",
        "docker_image",
        "dotnet",
        "fail",
        "golang",
        "haskell",
        "julia",
        "lua",
        "node",
        "perl",
        "pygrep",
        "python",
        "r",
        "ruby",
        "rust",
        "script",
        "swift",
        "system",
        "unsupported",
        "unsupported_script",
    ];
    for hook in hooks {
        for key in ["id", "name", "entry", "language"] {
            assert!(
                hook[key].as_str().is_some_and(|v| !v.is_empty()),
                "{hook}: {key}"
            );
        }
        assert!(
            languages.contains(&hook["language"].as_str().unwrap()),
            "{hook}"
        );
    }
}

/// pre-commit itself validates the hooks' manifest (`pre-commit validate-manifest`).
#[test]
#[ignore = "needs pre-commit"]
fn pre_commit_validates_the_hooks_manifest() {
    let out = Command::new("pre-commit")
        .arg("validate-manifest")
        .arg(repo_root().join(".pre-commit-hooks.yaml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `key = "value"` of a TOML file's first line that sets `key`.
fn toml_value(path: &str, key: &str) -> String {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} = ")))
        .map(|v| v.trim_matches('"').to_string())
        .unwrap_or_default()
}

#[test]
fn python_packages_carry_the_binary_of_this_version() {
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(toml_value("python/pyproject.toml", "bindings"), "bin");
    assert_eq!(
        toml_value("python/pyproject.toml", "manifest-path"),
        "../Cargo.toml"
    );
    assert_eq!(toml_value("pyproject.toml", "version"), version);
    // PEP 639 license expressions, not the deprecated table.
    assert_eq!(toml_value("pyproject.toml", "license"), "Apache-2.0");
    assert_eq!(toml_value("python/pyproject.toml", "license"), "Apache-2.0");
    assert_eq!(
        toml_value("pyproject.toml", "dependencies"),
        format!("[\"yttlint=={version}\"]")
    );
    let template = yaml_file("ci/yttlint.gitlab-ci.yml");
    let image = template[".yttlint"]["variables"]["YTTLINT_IMAGE"]
        .as_str()
        .unwrap();
    assert!(image.ends_with(&format!(":{version}")), "{image}");
}

#[test]
fn action_passes_inputs_through_env_and_uploads_sarif_always() {
    let action = yaml_file("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_array().unwrap();
    for step in steps {
        if let Some(script) = step["run"].as_str() {
            assert!(
                !script.contains("${{"),
                "expression expanded inside a script: {script}"
            );
            assert_eq!(step["shell"], "bash");
        }
    }
    let lint = steps.iter().find(|s| s["id"] == "lint").unwrap();
    assert_eq!(
        lint["run"].as_str().unwrap(),
        "bash \"$GITHUB_ACTION_PATH/action/lint.sh\""
    );
    assert!(lint_script().contains("--report \"sarif=$YTTLINT_SARIF\""));
    for input in [
        "paths",
        "config",
        "sarif-file",
        "exit-zero",
        "error-on-empty",
    ] {
        let expression = format!("${{{{ inputs.{input} }}}}");
        assert!(
            lint["env"]
                .as_object()
                .unwrap()
                .values()
                .any(|v| v == expression.as_str()),
            "input {input} reaches the script through env"
        );
    }
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .unwrap();
    let when = upload["if"].as_str().unwrap();
    assert!(when.starts_with("always()"), "{when}");
    assert!(
        when.contains("github.event.pull_request.head.repo.full_name == github.repository"),
        "not from a fork: {when}"
    );
    assert_eq!(upload["continue-on-error"], true);
    assert!(upload["with"]["sarif_file"].is_string());
    // Forks and repositories without code scanning get a notice, not a red job.
    let notices: Vec<&str> = steps
        .iter()
        .filter_map(|s| s["run"].as_str())
        .filter(|r| r.contains("::notice"))
        .collect();
    assert_eq!(notices.len(), 2, "{notices:?}");
    let restore = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/cache/restore@"))
        })
        .unwrap();
    let save = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/cache/save@"))
        })
        .unwrap();
    assert!(save["if"].as_str().unwrap().starts_with("always()"));
    assert_eq!(restore["with"]["key"], save["with"]["key"]);
    assert!(
        steps.iter().all(|s| s["uses"] != "actions/cache@v4"),
        "restore and save, so that red runs save too"
    );
}

fn lint_script() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/action/lint.sh")).unwrap()
}

#[test]
fn gitlab_template_publishes_junit_code_quality_and_cobertura() {
    let template = yaml_file("ci/yttlint.gitlab-ci.yml");
    let job = &template[".yttlint"];
    let reports = &job["artifacts"]["reports"];
    let junit = reports["junit"].as_str().unwrap();
    let quality = reports["codequality"].as_str().unwrap();
    assert_eq!(job["artifacts"]["when"], "always");
    assert_eq!(job["image"]["name"], "$YTTLINT_IMAGE");
    let script = job["script"][1].as_str().unwrap();
    assert!(script.contains("--shard"), "{script}");
    assert!(script.contains("--error-on-empty"), "{script}");
    assert_eq!(job["variables"]["YTTLINT_ERROR_ON_EMPTY"], "true");
    assert!(
        script.contains(&format!("--report junit={junit}")),
        "{script}"
    );
    assert!(
        script.contains(&format!("--report gitlab={quality}")),
        "{script}"
    );
    let coverage = &reports["coverage_report"];
    assert_eq!(coverage["coverage_format"], "cobertura");
    let path = coverage["path"].as_str().unwrap();
    assert!(
        script.contains(&format!("--report cobertura={path}")),
        "{script}"
    );
    assert_eq!(template["yttlint"]["extends"], ".yttlint");
}

#[test]
fn readme_documents_the_integrations() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let section = &readme[readme.find("\n## CI integrations\n").expect("a CI section")..];
    for needle in [
        ".pre-commit-config.yaml",
        "id: yttlint",
        "security-events: write",
        "ci/yttlint.gitlab-ci.yml",
        "--report",
    ] {
        assert!(
            section.contains(needle),
            "README's CI section mentions {needle}"
        );
    }
}

/// Runs the action's lint script as the runner would (bash, inputs in the environment) with a
/// stub `yttlint` that records its arguments, writes the SARIF file and exits 1.
fn run_lint_step(dir: &Path, paths: &str, config: &str, exit_zero: &str) -> (i32, String, String) {
    run_lint_step_env(dir, paths, config, exit_zero, &[])
}

/// [`run_lint_step`] with more environment (`STUB_NO_SARIF=1`: the stub writes no report).
fn run_lint_step_env(
    dir: &Path,
    paths: &str,
    config: &str,
    exit_zero: &str,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let script = lint_script();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = bin.join("yttlint");
    std::fs::write(
        &stub,
        "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" > args.txt\n[ \"${STUB_NO_SARIF:-}\" = 1 ] || echo '{}' > yttlint.sarif\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    let output = dir.join("github_output");
    std::fs::write(&output, "").unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("bash")
        .arg("-e")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .env("GITHUB_OUTPUT", &output)
        .env("YTTLINT_PATHS", paths)
        .env("YTTLINT_CONFIG", config)
        .env("YTTLINT_SARIF", "yttlint.sarif")
        .env("YTTLINT_EXIT_ZERO", exit_zero)
        .env("YTTLINT_SHARD", "")
        .envs(env.iter().copied())
        .status()
        .unwrap();
    let args = std::fs::read_to_string(dir.join("args.txt")).unwrap_or_default();
    let outputs = std::fs::read_to_string(&output).unwrap();
    (status.code().unwrap_or(-1), args, outputs)
}

#[test]
fn action_lint_step_passes_inputs_as_words_never_as_code() {
    let dir = TempDir::new();
    let (code, args, outputs) = run_lint_step(
        &dir,
        "packages/a  '$(touch pwned)' b;c",
        "my config.yaml",
        "true",
    );
    assert_eq!(code, 1, "the step fails as yttlint did");
    assert_eq!(
        args.lines().collect::<Vec<_>>(),
        [
            "--format",
            "github",
            "--report",
            "sarif=yttlint.sarif",
            "--config",
            "my config.yaml",
            "--exit-zero",
            "--error-on-empty",
            "packages/a",
            "'$(touch",
            "pwned)'",
            "b;c",
        ]
    );
    assert!(!dir.join("pwned").exists());
    assert!(outputs.contains("exit-code=1\n"), "{outputs}");
    let sarif = format!(
        "sarif-file={}/yttlint.sarif\n",
        dir.canonicalize().unwrap().display()
    );
    assert!(outputs.contains(&sarif), "{outputs}");
    let (_, args, _) = run_lint_step(&dir, "", "", "false");
    assert_eq!(
        args,
        "--format\ngithub\n--report\nsarif=yttlint.sarif\n--error-on-empty\n"
    );
}

/// `paths:` as a YAML `|` block (issue 44): every line's words are paths, not the first line's.
#[test]
fn action_lint_step_takes_paths_on_several_lines() {
    let dir = TempDir::new();
    let (_, args, _) = run_lint_step(&dir, "config/a\n  config/b c\n\n\td/*\n", "", "false");
    let paths: Vec<&str> = args.lines().skip(5).collect();
    assert_eq!(paths, ["config/a", "config/b", "c", "d/*"], "{args}");
}

/// Issue 40's probe 7: a committed `yttlint.sarif -> .git/config` is never reported as the
/// SARIF file (a later step would read the token from it): the step fails before yttlint
/// runs, and sets no `sarif-file`.
#[test]
fn action_lint_step_reports_no_sarif_file_through_a_symlink() {
    let dir = TempDir::new();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::write(dir.join(".git/config"), "token").unwrap();
    std::os::unix::fs::symlink(".git/config", dir.join("yttlint.sarif")).unwrap();
    let (code, args, outputs) = run_lint_step(&dir, "", "", "false");
    assert_eq!(code, 2);
    assert_eq!(args, "", "yttlint did not run");
    assert!(!outputs.contains("sarif-file"), "{outputs}");
    assert_eq!(
        std::fs::read_to_string(dir.join(".git/config")).unwrap(),
        "token"
    );
    // A regular file left by an earlier run is removed first: only this run's file is reported.
    std::fs::remove_file(dir.join("yttlint.sarif")).unwrap();
    std::fs::write(dir.join("yttlint.sarif"), "stale").unwrap();
    let (_, _, outputs) = run_lint_step_env(&dir, "", "", "false", &[("STUB_NO_SARIF", "1")]);
    assert!(!outputs.contains("sarif-file="), "{outputs}");
    assert!(!dir.join("yttlint.sarif").exists());
}
