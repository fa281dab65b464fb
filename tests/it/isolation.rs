//! A template that crashes, aborts or exhausts memory ends only its own job: each test lints a
//! repository with a healthy root next to one crasher (in worker processes with a small memory
//! limit) and checks that the healthy root's findings are on standard output and in the SARIF
//! and JUnit reports, that the crasher has its own finding, and that the exit status is 1.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::json::{self, diagnostics, lint_json, str_of};
use crate::util::{command, repo_root, template, yttlint, Run, TempDir};

/// A repository with the root `healthy` (one template-error finding) and the root `crasher`
/// holding `files`.
fn repo(files: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::with_files(&[
        (".yttlint.yaml", "roots:\n  - path: healthy\n  - path: crasher\n"),
        (
            "healthy/config.yml",
            "#@ load(\"@ytt:data\", \"data\")\nkind: ConfigMap\ndata:\n  key: #@ data.values.missing\n",
        ),
    ]);
    for (path, text) in files {
        dir.write(&format!("crasher/{path}"), text);
    }
    dir
}

/// Lints `dir` in two workers sharing 1 GiB, with JSON on standard output and SARIF and JUnit
/// reports.
fn lint(dir: &Path) -> Run {
    lint_with(dir, "1G")
}

/// [`lint`] with the run's memory given.
fn lint_with(dir: &Path, memory: &str) -> Run {
    lint_limited(dir, memory, "20")
}

/// [`lint_with`] with its own `--job-timeout` (seconds).
fn lint_limited(dir: &Path, memory: &str, timeout: &str) -> Run {
    yttlint(
        dir,
        &[
            "--format",
            "json",
            "-j",
            "2",
            "--memory-limit",
            memory,
            "--job-timeout",
            timeout,
            "--report",
            "sarif=out.sarif",
            "--report",
            "junit=out.xml",
        ],
    )
}

/// The rules of the findings of `root` in a JSON report.
fn rules_of(report: &serde_json::Value, root: &str) -> Vec<String> {
    diagnostics(report)
        .iter()
        .filter(|d| d["root"] == root)
        .map(|d| str_of(d, "rule").to_string())
        .collect()
}

/// The one finding of `root` in the run's JSON report.
fn finding(run: &Run, root: &str) -> serde_json::Value {
    let report = run.json();
    let found: Vec<&serde_json::Value> = diagnostics(&report)
        .iter()
        .filter(|d| d["root"] == root)
        .collect();
    assert_eq!(found.len(), 1, "{}", run.stdout);
    found[0].clone()
}

/// Checks the run: exit 1, the healthy root's finding everywhere, the crasher's own finding
/// with `rule`; returns the crasher's message.
fn check(dir: &Path, run: &Run, rule: &str) -> String {
    assert_eq!(
        run.code, 1,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    let report = run.json();
    assert_eq!(rules_of(&report, "healthy"), ["template-error"]);
    assert_eq!(rules_of(&report, "crasher"), [rule], "{}", run.stdout);
    let statuses: Vec<(String, String)> = report["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("crasher".to_string(), "error".to_string()),
            ("healthy".to_string(), "error".to_string())
        ]
    );

    let sarif = json::parse(&std::fs::read_to_string(dir.join("out.sarif")).unwrap());
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let sarif_rules: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(sarif_rules.contains(&"template-error"), "{sarif_rules:?}");
    assert!(sarif_rules.contains(&rule), "{sarif_rules:?}");
    assert!(results.iter().any(
        |r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            == "healthy/config.yml"
    ));

    let junit = std::fs::read_to_string(dir.join("out.xml")).unwrap();
    let doc = roxmltree::Document::parse(&junit).unwrap();
    // A finding fails its case; a root the linter could not check (a limit, a crash) is an
    // `<error>`.
    let failed: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure") || n.has_tag_name("error"))
        .filter_map(|n| n.attribute("type"))
        .collect();
    assert!(failed.contains(&"template-error"), "{junit}");
    assert!(failed.contains(&rule), "{junit}");

    diagnostics(&report)
        .iter()
        .find(|d| d["root"] == "crasher")
        .map(|d| str_of(d, "message").to_string())
        .unwrap()
}

#[test]
fn constant_folded_repeat_in_a_function_never_called() {
    let dir = repo(&[(
        "config.yml",
        "#@ def never():\n#@   return \"abcdef\" * 2147483647\n#@ end\na: 1\n",
    )]);
    // ytt renders the file: the repeat is never evaluated (starlark-rust's constant folding,
    // which allocated it at compile time, no longer sees ytt's `*`). The only finding is the
    // function nothing calls.
    let run = lint(&dir);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    assert_eq!(rules_of(&report, "healthy"), ["template-error"]);
    assert_eq!(rules_of(&report, "crasher"), ["unused-function"]);
}

#[test]
fn a_list_repeated_two_billion_times() {
    let dir = repo(&[("config.yml", "a: #@ len([0] * 2147483647)\n")]);
    // ytt's own error, at once, before anything is allocated.
    let run = lint(&dir);
    let message = check(&dir, &run, "template-error");
    assert!(
        message.contains("excessive repeat (2147483647 elements)"),
        "{message}"
    );
}

#[test]
fn json_encode_of_four_gigabytes() {
    let dir = repo(&[(
        "config.yml",
        "#@ load(\"@ytt:json\", \"json\")\na: #@ len(json.encode([\"x\" * 10000] * 400000))\n",
    )]);
    let run = lint(&dir);
    let message = check(&dir, &run, "limit-exceeded");
    // The worker ends inside json.encode: the finding names the file it was evaluating, at
    // the node whose value calls it.
    assert!(
        message.ends_with("while evaluating crasher/config.yml"),
        "{message}"
    );
    let d = finding(&run, "crasher");
    assert_eq!(d["file"], "crasher/config.yml");
    assert_eq!(d["line"], 2);
}

#[test]
fn a_heap_outgrown_in_a_loop_is_stopped_at_its_line() {
    let dir = repo(
        &[(
            "config.yml",
            "#@ def grow():\n#@   l = []\n#@   for i in range(100000000):\n#@     l.append(str(i) * 50)\n#@   end\n#@   return l\n#@ end\na: #@ len(grow())\n",
        )],
    );
    let run = lint_with(&dir, "512M");
    let message = check(&dir, &run, "limit-exceeded");
    assert!(
        message.contains("limit exceeded: the evaluation's heap grew beyond its budget of"),
        "{message}"
    );
    assert!(message.contains("in grow"), "{message}");
    let d = finding(&run, "crasher");
    assert_eq!(d["file"], "crasher/config.yml");
    let line = d["line"].as_u64().unwrap();
    assert!((3..=4).contains(&line), "{d}");
}

#[test]
fn a_list_doubled_forty_times() {
    let dir = repo(&[(
        "config.yml",
        "#@ l = [1]\n#@ for i in range(40):\n#@   l = l + l\n#@ end\na: #@ len(l)\n",
    )]);
    let run = lint(&dir);
    check(&dir, &run, "limit-exceeded");
}

#[test]
fn nested_loads_4900_deep() {
    let n = 4900;
    let files: Vec<(String, String)> = (0..n)
        .map(|i| {
            let text = if i + 1 < n {
                format!("load(\"l{}.star\", \"v\")\nv = v\n", i + 1)
            } else {
                "v = 0\n".to_string()
            };
            (format!("l{i}.star"), text)
        })
        .collect();
    let mut files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    files.push(("config.yml", "#@ load(\"l0.star\", \"v\")\na: #@ v\n"));
    let dir = repo(&files);
    // A few seconds alone; minutes on a loaded machine: the timeout is not what is tested.
    let run = lint_limited(&dir, "1G", "300");
    // Each nested evaluation reserves a buffer of starlark temporaries (1 MB, mostly never
    // touched): 4 900 of them reserve more than a worker's share of 1 GiB, but use less. The
    // share holds the worker's resident memory, so the root is linted.
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    assert_eq!(rules_of(&report, "healthy"), ["template-error"]);
    assert!(rules_of(&report, "crasher").is_empty(), "{}", run.stdout);
}

#[test]
fn yaml_decode_of_a_map_with_a_list_key_is_an_error() {
    let dir = repo(&[(
        "config.yml",
        "#@ load(\"@ytt:yaml\", \"yaml\")\na: #@ yaml.decode(\"? [1, 2]\\n: v\\n\")\n",
    )]);
    let run = lint(&dir);
    let message = check(&dir, &run, "template-error");
    assert!(
        message.contains("yaml.decode: unhashable type: list"),
        "{message}"
    );
}

/// 2 MB: an anchored list of 10 000 items, aliased 690 000 times.
fn alias_bomb() -> String {
    let mut s = String::from("a: &a [");
    s.push_str(&vec!["1"; 10_000].join(","));
    s.push_str("]\nb: [");
    s.push_str(&vec!["*a"; 690_000].join(","));
    s.push_str("]\n");
    s
}

#[test]
fn an_alias_bomb_is_a_syntax_error_within_its_budget() {
    let bomb = alias_bomb();
    assert!(bomb.len() > 2_000_000);
    let dir = repo(&[("config.yml", &bomb)]);
    // Parsing 2 MB of YAML takes about 400 MB, as a plain 2 MB file of one-byte scalars does.
    // The memory limit is what proves the budget: expanded, the bomb takes 5-7 GB. The time
    // it takes (under 1 s of CPU: columns on its one 2 MB line are counted once, not once a
    // node) is measured by hand, not here: a loaded machine is slower,
    // so the job timeout is generous.
    let run = lint_limited(&dir, "2G", "600");
    let message = check(&dir, &run, "yaml-syntax");
    assert!(message.contains("excessive aliasing"), "{message}");
}

#[test]
fn a_billion_laughs_in_yttlint_template() {
    let mut lines = vec!["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]".to_string()];
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        lines.push(format!("a{i}: &a{i} [{refs}]"));
    }
    let dir = TempDir::new();
    let bomb = dir.write("bomb.yml", lines.join("\n") + "\n");
    let out = template(repo_root(), &["-f", bomb.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("yaml: document contains excessive aliasing"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_runaway_loop_is_stopped_by_the_job_timeout() {
    let dir = repo(
        &[(
            "config.yml",
            "#@ def spin():\n#@   n = 0\n#@   for i in range(2000000000):\n#@     n += 1\n#@   end\n#@   return n\n#@ end\na: #@ spin()\n",
        )],
    );
    let start = Instant::now();
    let (code, report) = lint_json(&dir, &["--job-timeout", "3"]);
    assert!(start.elapsed() < Duration::from_secs(15));
    assert_eq!(code, 1);
    assert_eq!(rules_of(&report, "crasher"), ["limit-exceeded"]);
    assert_eq!(rules_of(&report, "healthy"), ["template-error"]);
    // The engine stops the loop (at 4/5 of the job's time) at its line.
    let d = diagnostics(&report)
        .iter()
        .find(|d| d["root"] == "crasher")
        .unwrap();
    assert_eq!(d["file"], "crasher/config.yml", "{d}");
    assert_eq!(d["line"], 3, "{d}");
    let message = str_of(d, "message");
    assert!(
        message.starts_with("limit exceeded: the evaluation ran longer than its time budget"),
        "{message}"
    );
}

#[test]
fn in_process_runs_the_same_findings() {
    let dir = repo(&[(
        "config.yml",
        "#@ load(\"@ytt:yaml\", \"yaml\")\na: #@ yaml.decode(\"? [1, 2]\\n: v\\n\")\n",
    )]);
    let run = |extra: &[&str]| {
        let (code, report) = lint_json(&dir, extra);
        assert_eq!(code, 1);
        report
    };
    assert_eq!(run(&[]), run(&["--in-process"]));
}

#[test]
fn a_full_standard_output_is_exit_2_with_one_line() {
    let dir = repo(&[("config.yml", "a: 1\n")]);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Run::of(command(&dir).args(["--color", "never"]).stdout(full));
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("yttlint: cannot write to standard output"),
        "{}",
        out.stderr
    );
}

#[test]
#[cfg(unix)]
fn an_interrupted_run_leaves_no_older_report() {
    let dir = repo(
        &[(
            "config.yml",
            "#@ def spin():\n#@   n = 0\n#@   for i in range(2000000000):\n#@     n += 1\n#@   end\n#@   return n\n#@ end\na: #@ spin()\n",
        )],
    );
    let report = dir.write("old.sarif", "an older run: clean");
    let mut cmd = command(&dir);
    // A shell's background job ignores SIGINT, and children inherit that: the run gets the
    // default action, as a terminal's Ctrl-C gives it.
    // SAFETY: `signal` is async-signal-safe, called in the child between fork and exec.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut cmd, || {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = cmd
        .args(["--report", "sarif=old.sarif", "--job-timeout", "30", "-q"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The run takes the older report away before it evaluates (polled, not timed: on a busy
    // machine the run may take seconds to get there); the template spins for minutes.
    let started = std::time::Instant::now();
    while report.exists() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !report.exists(),
        "the older report is still there while the run goes on"
    );
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: sends SIGINT to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert!(!report.exists(), "the interrupted run left a report");
}
