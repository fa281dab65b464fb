//! Issue 40, learned scenarios: 20 scripts of 1 000 `ytt` lines each, every line the same
//! inputs with its own data value, gave one root of 20 000 scenarios, 20 000 jobs. A root now
//! learns at most `max_learned_scenarios` (default 64), chosen the same way every run (each
//! script's first command before any script's second), with a `scenarios-capped` note that
//! names the cap and how many were dropped.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::util::json::{diagnostics, str_of};
use crate::util::{yttlint, TempDir};

/// The repository of the attack: `config/` rendered by 20 scripts of 1 000 commands, each
/// with a value of its own; `config` as the configuration's text.
fn repository(config: &str) -> TempDir {
    let dir = TempDir::with_files(&[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ data.values.replicas\n",
        ),
        ("config/values.yml", "#@data/values\n---\nreplicas: 1\n"),
        (".yttlint.yaml", config),
    ]);
    for s in 1..=20 {
        let mut script = String::from("#!/bin/sh\n");
        for i in 1..=1000 {
            script.push_str(&format!("ytt -f config -v replicas={}\n", s * 10_000 + i));
        }
        dir.write(&format!("hack/render-{s:02}.sh"), &script);
    }
    dir
}

/// The scenarios linted, by script, and the `scenarios-capped` findings, of a JSON report.
fn linted(stdout: &str) -> (BTreeMap<String, usize>, Vec<serde_json::Value>) {
    let report: serde_json::Value = serde_json::from_str(stdout).unwrap();
    let mut per_script = BTreeMap::new();
    for root in report["roots"].as_array().unwrap() {
        if let Some(sc) = root["scenario"].as_str() {
            let script = sc.rsplit_once(':').unwrap().0.to_string();
            *per_script.entry(script).or_insert(0) += 1;
        }
    }
    let capped = diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "rule") == "scenarios-capped")
        .cloned()
        .collect();
    (per_script, capped)
}

#[test]
fn a_root_learns_at_most_64_scenarios_with_a_note_naming_the_cap() {
    let dir = repository("");
    let start = Instant::now();
    let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
    let took = start.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(took < Duration::from_secs(120), "the run took {took:?}");
    let (per_script, capped) = linted(&run.stdout);
    // 64 jobs: every script gives three commands, the first four scripts a fourth.
    assert_eq!(per_script.values().sum::<usize>(), 64, "{per_script:?}");
    assert_eq!(per_script.len(), 20);
    let fours: Vec<&String> = per_script
        .iter()
        .filter(|(_, n)| **n == 4)
        .map(|(s, _)| s)
        .collect();
    assert_eq!(
        fours,
        [
            "hack/render-01.sh",
            "hack/render-02.sh",
            "hack/render-03.sh",
            "hack/render-04.sh"
        ]
    );
    assert!(per_script.values().all(|n| *n == 3 || *n == 4));
    assert_eq!(capped.len(), 1, "{capped:?}");
    let note = &capped[0];
    assert_eq!(str_of(note, "severity"), "info");
    assert_eq!(
        str_of(note, "message"),
        "19936 of the 20000 scenarios learned for root config are not linted: at most 64 per root (max_learned_scenarios); the first not linted is run at hack/render-01.sh:6"
    );
    assert_eq!(str_of(note, "file"), "hack/render-01.sh");
    assert_eq!(note["line"], 6);
    // The same choice every run.
    let again = yttlint(&dir, &["--no-cache", "--format", "json"]);
    assert_eq!(linted(&again.stdout).0, per_script);
    // Every report format shows the note: the terminal, and SARIF as a result.
    let terminal = yttlint(&dir, &["--no-cache", "--color", "never"]);
    assert!(
        terminal
            .stdout
            .contains("note[scenarios-capped]: 19936 of the 20000"),
        "{}",
        terminal.stdout
    );
    let sarif = yttlint(&dir, &["--no-cache", "--format", "sarif"]);
    assert!(sarif.stdout.contains("\"ruleId\": \"scenarios-capped\""));
}

#[test]
fn the_cap_is_configurable() {
    let dir = repository("max_learned_scenarios: 100\n");
    let run = yttlint(&dir, &["--no-cache", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (per_script, capped) = linted(&run.stdout);
    assert_eq!(per_script.values().sum::<usize>(), 100);
    assert!(
        str_of(&capped[0], "message").starts_with(
            "19900 of the 20000 scenarios learned for root config are not linted: at most 100 per root"
        ),
        "{capped:?}"
    );
    for bad in ["0", "-3", "many", "1.5"] {
        let dir = TempDir::with_files(&[
            ("config/app.yml", "a: 1\n"),
            (".yttlint.yaml", &format!("max_learned_scenarios: {bad}\n")),
        ]);
        let run = yttlint(&dir, &[]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(".yttlint.yaml:1:1: expected a whole number of at least 1 for max_learned_scenarios"),
            "{bad}: {}",
            run.stderr
        );
    }
}
