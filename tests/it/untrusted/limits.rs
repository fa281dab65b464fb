//! Attacks on the run's memory and time (issue 29): a finding's message, a root's findings and
//! the findings of the whole run are bounded, so that the main process, the reports and
//! standard output stay small whatever the templates do; and a root stopped by a limit gets
//! its finding at the file and line it was evaluating.

use super::Fixture;
use crate::util::json::{self, diagnostics, str_of};
use crate::util::{yttlint, TempDir};

/// A repository whose `.yttlint.yaml` lists `roots`, each with its one template `t.yml`.
fn roots(roots: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new();
    let mut config = String::from("roots:\n");
    for (root, template) in roots {
        dir.write(&format!("{root}/t.yml"), template);
        config.push_str(&format!("  - path: {root}\n"));
    }
    dir.write(".yttlint.yaml", config);
    dir
}

/// The findings of `root` in a JSON report.
fn of_root<'a>(report: &'a serde_json::Value, root: &str) -> Vec<&'a serde_json::Value> {
    diagnostics(report)
        .iter()
        .filter(|d| d["root"] == root)
        .collect()
}

/// The measure, with 4 roots instead of 20 (the 20 are measured by hand, with
/// scripts/peak-rss.py): each fails with a message of 20 MB.
#[test]
fn a_message_bomb_is_cut_and_every_report_stays_small() {
    let f = Fixture::new();
    let mut config = String::from("roots:\n  - path: config\n");
    for i in 0..4 {
        std::fs::create_dir_all(f.repo.join(format!("bomb{i}"))).unwrap();
        f.write(
            &format!("bomb{i}/t.yml"),
            "#@ fail(\"M\" * 20000000)\na: 1\n",
        );
        config.push_str(&format!("  - path: bomb{i}\n"));
    }
    f.write(
        "config/broken.yml",
        "#@ load(\"@ytt:data\", \"data\")\nb: #@ data.values.missing\n",
    );
    f.config(&config);
    let run = f.lint(&["--format", "json", "--memory-limit", "1G", "--no-cache"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let reports = std::fs::read_dir(f.base.join("reports")).unwrap().count();
    assert_eq!(reports, 4);
    // Standard output and four reports of five findings, each message at most 16 KiB.
    assert!(run.everything.len() < 1 << 20, "{}", run.everything.len());
    let report = json::parse(&run.stdout);
    for i in 0..4 {
        let found = of_root(&report, &format!("bomb{i}"));
        assert_eq!(found.len(), 1, "{found:?}");
        let message = str_of(found[0], "message");
        assert!(message.len() < 17 << 10, "{}", message.len());
        assert!(
            message.ends_with(" more bytes cut by yttlint]"),
            "{}",
            &message[message.len() - 80..]
        );
        assert_eq!(found[0]["file"], format!("bomb{i}/t.yml"));
        assert_eq!(found[0]["line"], 1);
    }
    let healthy = of_root(&report, "config");
    assert_eq!(healthy.len(), 1);
    assert_eq!(healthy[0]["file"], "config/broken.yml");
    assert_eq!(healthy[0]["line"], 2);
}

#[test]
fn a_root_keeps_a_thousand_findings_and_counts_the_others() {
    let template: String = (0..1100).map(|i| format!("#@zz{i}\nk{i}: 1\n")).collect();
    let dir = roots(&[("many", &template)]);
    let run = yttlint(&dir, &["--format", "json", "--no-cache"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let found = of_root(&report, "many");
    assert_eq!(found.len(), 1001);
    let unknown = found
        .iter()
        .filter(|d| d["rule"] == "unknown-annotation")
        .count();
    assert_eq!(unknown, 1000);
    let note = found
        .iter()
        .find(|d| d["rule"] == "limit-exceeded")
        .unwrap();
    assert_eq!(note["severity"], "info");
    assert!(
        str_of(note, "message").starts_with("100 more findings of this root were not kept"),
        "{note}"
    );
}

/// 300 roots with a finding of 16 KiB each: more than the 4 MiB of findings a run of
/// `--memory-limit 64M` keeps. The first roots' findings are kept, whatever order the jobs
/// finish in; a note says how many others were not.
#[test]
fn the_findings_of_the_whole_run_are_bounded_by_the_memory_limit() {
    let template = "#@ fail(\"x\" * 20000)\na: 1\n";
    let names: Vec<String> = (0..300).map(|i| format!("r{i:03}")).collect();
    let all: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), template)).collect();
    let dir = roots(&all);
    let args = [
        "--format",
        "json",
        "--no-cache",
        "--in-process",
        "--memory-limit",
        "64M",
    ];
    let run = yttlint(&dir, &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.len() < 5 << 20, "{}", run.stdout.len());
    let report = run.json();
    let notes: Vec<&serde_json::Value> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "limit-exceeded")
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    let note = notes[0];
    let root = str_of(note, "root").to_string();
    let kept: Vec<&str> = diagnostics(&report)
        .iter()
        .filter(|d| d["rule"] == "template-error")
        .map(|d| str_of(d, "root"))
        .collect();
    // The roots before the note's keep their finding, those after it do not.
    assert_eq!(kept.len(), names.iter().position(|n| *n == root).unwrap());
    assert!(kept.iter().all(|r| **r < *root));
    let dropped = 300 - kept.len();
    assert!(
        str_of(note, "message").starts_with(&format!("{dropped} findings of this root")),
        "{note}"
    );
    // Another run keeps the same findings.
    let again = yttlint(&dir, &args);
    assert_eq!(again.stdout, run.stdout);
}

/// A job stopped in a step the engine cannot interrupt (a native function of 30 s) is
/// reported at the node that called it.
#[test]
fn a_job_timeout_names_its_file_and_line() {
    let slow = "#@ load(\"@ytt:sha256\", \"sha256\")\n#@ def slow():\n#@   s = \"a\" * 10000000\n#@   for i in range(1000):\n#@     x = sha256.sum(s)\n#@   end\n#@   return 1\n#@ end\n---\na: 1\nb: #@ slow()\n";
    let dir = roots(&[("slow", slow)]);
    let run = yttlint(
        &dir,
        &["--format", "json", "--no-cache", "--job-timeout", "2"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    let found = of_root(&report, "slow");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["rule"], "limit-exceeded");
    assert!(
        str_of(found[0], "message").contains("did not finish within 2 s"),
        "{}",
        found[0]
    );
    assert_eq!(found[0]["file"], "slow/t.yml");
    assert_eq!(found[0]["line"], 11);
}

/// A string doubled until it outgrows the worker's share: the worker refuses the allocation
/// before touching the memory; the finding is at the node that called the function.
#[test]
fn a_memory_limit_finding_names_its_file_and_line() {
    let double = "#@ def grow():\n#@   s = \"ab\"\n#@   for i in range(40):\n#@     s = s + s\n#@   end\n#@   return s\n#@ end\na: #@ len(grow())\n";
    let dir = roots(&[("double", double)]);
    let run = yttlint(
        &dir,
        &["--format", "json", "--no-cache", "--memory-limit", "256M"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    let found = of_root(&report, "double");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["rule"], "limit-exceeded", "{}", found[0]);
    assert_eq!(found[0]["file"], "double/t.yml");
    assert_eq!(found[0]["line"], 8);
}

/// The terminal shows a finding on a line of 1 MB with the start of that line.
#[test]
fn the_terminal_shows_a_long_line_cut() {
    let line = format!(
        "#@ load(\"@ytt:data\", \"data\")\nk: #@ data.values.missing # {}\n",
        "x".repeat(1 << 20)
    );
    let dir = roots(&[("long", &line)]);
    let run = yttlint(&dir, &["--no-cache", "--color", "never"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("long/t.yml:2:"),
        "{}",
        &run.stdout[..2000]
    );
    assert!(run.stdout.contains(" more bytes cut by yttlint]"));
    assert!(run.stdout.len() < 16 << 10, "{}", run.stdout.len());
}

/// A template line nested 100 000 levels deep overflowed the native stack of the thread that
/// evaluated it: a worker died (a finding), but `--in-process` aborted the whole run (issue
/// 40). The code is refused before it is parsed, in both.
#[test]
fn code_nested_too_deeply_is_refused_before_the_stack_runs_out() {
    let n = 100_000;
    let deep = format!("#@ x = {}{}\na: 1\n", "{".repeat(n), "}".repeat(n));
    let star = format!("y = {}1\n", "-".repeat(n));
    let dir = roots(&[("deep", &deep), ("fine", "b: 1\n")]);
    dir.write("deep/m.star", &star);
    dir.write("deep/u.yml", "#@ load(\"m.star\", \"y\")\nc: #@ y\n");
    for mode in [&["--in-process"][..], &[][..]] {
        let mut args = vec!["--format", "json", "--no-cache"];
        args.extend_from_slice(mode);
        let run = yttlint(&dir, &args);
        assert_eq!(run.code, 1, "{mode:?}: {}", run.stderr);
        let report = json::parse(&run.stdout);
        let found = of_root(&report, "deep");
        assert!(!found.is_empty(), "{mode:?}");
        for d in &found {
            assert_eq!(d["rule"], "limit-exceeded", "{mode:?}: {d}");
            assert!(
                str_of(d, "message").contains("nests more than 1000 levels"),
                "{d}"
            );
        }
        assert!(of_root(&report, "fine").is_empty());
    }
}
