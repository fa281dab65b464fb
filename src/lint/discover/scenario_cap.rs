//! The cap on the scenarios one root learns from the repository's commands
//! (`max_learned_scenarios`, default 64). A repository that runs ytt on the same inputs with
//! thousands of different values (20 scripts of 1 000 `ytt` lines each) would otherwise be
//! 20 000 jobs. The scenarios kept are chosen the same way every run: each file that runs the
//! root gives its first command before any gives its second (files in the order discovery
//! found them, commands in file order), so that every script, Makefile and CI file is
//! represented; the kept ones stay in their order. The rest are dropped with one
//! `scenarios-capped` note per root that names the cap, how many were dropped and the first of
//! them.

use crate::lint::config::ScenarioConfig;
use crate::lint::discover::Root;
use crate::report::{Diagnostic, Rule, Span};

/// Keeps at most `max` scenarios of each of `roots`; the `scenarios-capped` notes of the roots
/// that had more.
pub fn cap(roots: &mut [Root], max: usize) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    for root in roots.iter_mut() {
        let total = root.scenarios.len();
        if total <= max {
            continue;
        }
        let keep = chosen(&root.scenarios, max);
        let mut kept = Vec::with_capacity(max);
        let mut first_dropped: Option<ScenarioConfig> = None;
        for (i, sc) in std::mem::take(&mut root.scenarios).into_iter().enumerate() {
            if keep.get(i).copied().unwrap_or(false) {
                kept.push(sc);
            } else if first_dropped.is_none() {
                first_dropped = Some(sc);
            }
        }
        root.scenarios = kept;
        notes.push(note(root, total, max, first_dropped.as_ref()));
    }
    notes
}

/// Which of `scenarios` to keep (`max` of them, fewer than their number): round by round, the
/// next scenario of each source file.
fn chosen(scenarios: &[ScenarioConfig], max: usize) -> Vec<bool> {
    // The scenarios of each file, files in the order they first appear.
    let mut files: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, sc) in scenarios.iter().enumerate() {
        let file = source_file(sc);
        let k = *index.entry(file).or_insert_with(|| {
            files.push((file, Vec::new()));
            files.len() - 1
        });
        files[k].1.push(i);
    }
    let mut keep = vec![false; scenarios.len()];
    let mut taken = 0;
    let mut round = 0;
    while taken < max {
        let mut any = false;
        for (_, list) in &files {
            if let Some(&i) = list.get(round) {
                any = true;
                if taken < max {
                    keep[i] = true;
                    taken += 1;
                }
            }
        }
        if !any {
            break;
        }
        round += 1;
    }
    keep
}

/// The file a scenario's command is in (`hack/build.sh` of `hack/build.sh:12`); empty when it
/// has no origin.
fn source_file(sc: &ScenarioConfig) -> &str {
    let origin = sc.origin.as_deref().unwrap_or("");
    match origin.rsplit_once(':') {
        Some((file, line)) if line.parse::<u32>().is_ok() => file,
        _ => origin,
    }
}

/// The note of a root whose `total` scenarios were cut to `max`, at the first dropped one.
fn note(root: &Root, total: usize, max: usize, first: Option<&ScenarioConfig>) -> Diagnostic {
    let dropped = total - max;
    let origin = first.and_then(|s| s.origin.clone());
    let mut message = format!(
        "{dropped} of the {total} scenarios learned for root {} are not linted: at most {max} per root (max_learned_scenarios)",
        root.name
    );
    if let Some(o) = &origin {
        message.push_str(&format!("; the first not linted is run at {o}"));
    }
    let mut d = Diagnostic::new(Rule::ScenariosCapped, message).with_help(format!(
        "the first command of each file is kept before the second of any; list the scenarios that matter under this root in .yttlint.yaml, or raise max_learned_scenarios (now {max})"
    ));
    let at = origin.as_deref().and_then(|o| {
        let (file, line) = o.rsplit_once(':')?;
        Some(Span::point(file, line.parse().ok()?, 1))
    });
    if let Some(span) = at {
        d = d.at(span);
    }
    d.root = Some(root.name.clone());
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::discover::Reason;

    fn scenario(origin: &str) -> ScenarioConfig {
        ScenarioConfig {
            name: origin.to_string(),
            origin: Some(origin.to_string()),
            ..ScenarioConfig::default()
        }
    }

    fn root(origins: &[String]) -> Root {
        let mut r = Root::found("config", Reason::Topmost);
        r.scenarios = origins.iter().map(|o| scenario(o)).collect();
        r
    }

    fn names(r: &Root) -> Vec<&str> {
        r.scenarios.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn each_file_gives_its_first_command_before_any_gives_its_second() {
        let mut origins = Vec::new();
        for file in ["a.sh", "b.sh", "Makefile"] {
            for line in 1..=4 {
                origins.push(format!("{file}:{line}"));
            }
        }
        let mut roots = vec![root(&origins)];
        let notes = cap(&mut roots, 5);
        assert_eq!(
            names(&roots[0]),
            ["a.sh:1", "a.sh:2", "b.sh:1", "b.sh:2", "Makefile:1"]
        );
        assert_eq!(notes.len(), 1);
        let n = &notes[0];
        assert_eq!(n.rule, Rule::ScenariosCapped);
        assert_eq!(
            n.message,
            "7 of the 12 scenarios learned for root config are not linted: at most 5 per root (max_learned_scenarios); the first not linted is run at a.sh:3"
        );
        let span = n.span.as_ref().unwrap();
        assert_eq!((span.file.as_str(), span.line), ("a.sh", 3));
        assert_eq!(n.root.as_deref(), Some("config"));
    }

    #[test]
    fn a_root_within_the_cap_is_left_alone() {
        let origins: Vec<String> = (1..=3).map(|l| format!("x.sh:{l}")).collect();
        let mut roots = vec![root(&origins)];
        assert!(cap(&mut roots, 3).is_empty());
        assert_eq!(roots[0].scenarios.len(), 3);
        let mut roots = vec![root(&origins)];
        assert_eq!(cap(&mut roots, 1).len(), 1);
        assert_eq!(names(&roots[0]), ["x.sh:1"]);
    }

    #[test]
    fn the_choice_is_the_same_whatever_the_cap_leaves() {
        let origins: Vec<String> = (0..200)
            .map(|i| format!("s{}.sh:{}", i % 7, i / 7 + 2))
            .collect();
        let mut a = vec![root(&origins)];
        let mut b = vec![root(&origins)];
        cap(&mut a, 64);
        cap(&mut b, 64);
        assert_eq!(a, b);
        assert_eq!(a[0].scenarios.len(), 64);
        // 64 = 9 rounds of 7 files, and the first file's tenth command.
        let per_file = |f: &str| {
            a[0].scenarios
                .iter()
                .filter(|s| s.name.starts_with(f))
                .count()
        };
        assert_eq!(per_file("s0.sh"), 10);
        assert_eq!(per_file("s6.sh"), 9);
    }
}
