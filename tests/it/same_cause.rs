//! One finding per cause (issue 39, round eight): a data value that nothing sets, read at
//! several lines, is one error with the other reads as related locations, not one finding per
//! line. A minimal repro written for the test.

use crate::util::json::str_of;
use crate::util::repo::{Lint, Repo};

#[test]
fn the_reads_of_one_missing_value_are_one_error_with_related_locations() {
    let lint = Repo::of(&[
        ("env/prod.yaml", "#@data/values\n---\napp: {name: shop}\n"),
        (
            "base/secret.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\n\
             metadata:\n  name: #@ data.values.app.name\nstringData:\n  \
             host: #@ data.values.registry.host\n  user: #@ data.values.registry.user\n  \
             password: #@ data.values.registry.password\n",
        ),
        ("deploy.sh", "#!/bin/sh\nytt -f base -f env/prod.yaml\n"),
    ])
    .lint();
    assert_eq!(lint.code, 1, "{lint}");
    let about: Vec<_> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert_eq!(about.len(), 1, "{lint}");
    let d = about[0];
    assert_eq!(d["line"], 8, "{d:#}");
    let related: Vec<(u64, &str)> = d["related"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| (r["line"].as_u64().unwrap_or(0), str_of(r, "message")))
        .filter(|(_, m)| m.contains("the same missing value"))
        .collect();
    assert_eq!(
        related.iter().map(|r| r.0).collect::<Vec<_>>(),
        [9, 10],
        "{d:#}"
    );
}

#[test]
fn typos_each_keep_their_finding() {
    // Two reads of a misspelt key, each with its suggestion and fix: two defects.
    let lint = Repo::of(&[
        ("config/values.yml", "#@data/values-schema\n---\nport: 80\n"),
        (
            "config/svc.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\na: #@ data.values.prot\nb: #@ data.values.prot\n",
        ),
    ]).lint();
    // The evaluation's error at the first (with the fix), the static finding at the second.
    let lines: Vec<u64> = lint
        .diagnostics()
        .iter()
        .filter(|d| d["fix"]["title"] == "Read `data.values.port` instead")
        .filter_map(|d| d["line"].as_u64())
        .collect();
    assert_eq!(lines, [3, 4], "{lint}");
}

/// The folded repro with a `#! yttlint: disable=RULE` line above some of its reads (by the
/// key read: `host`, `user`, `password`); returns it with the line of each read.
fn folded_with(suppressed: &[(&str, &str)]) -> (Repo, Vec<(String, u64)>) {
    let mut lines: Vec<String> = [
        "#@ load(\"@ytt:data\", \"data\")",
        "---",
        "apiVersion: v1",
        "kind: Secret",
        "metadata:",
        "  name: #@ data.values.app.name",
        "stringData:",
    ]
    .iter()
    .map(|l| l.to_string())
    .collect();
    let mut at = Vec::new();
    for key in ["host", "user", "password"] {
        if let Some((_, rule)) = suppressed.iter().find(|(k, _)| *k == key) {
            lines.push(format!(
                "  #! yttlint: disable={rule} -- set by the installer"
            ));
        }
        lines.push(format!("  {key}: #@ data.values.registry.{key}"));
        at.push((key.to_string(), lines.len() as u64));
    }
    let dir = Repo::of(&[
        ("env/prod.yaml", "#@data/values\n---\napp: {name: shop}\n"),
        ("base/secret.yaml", &(lines.join("\n") + "\n")),
        ("deploy.sh", "#!/bin/sh\nytt -f base -f env/prod.yaml\n"),
    ]);
    (dir, at)
}

/// `(rule, line, related lines)` of each error or warning.
fn shown(dir: &Repo) -> Vec<(String, u64, Vec<u64>)> {
    let lint = Lint::run(dir, &[]);
    lint.diagnostics()
        .iter()
        .filter(|d| d["severity"] != "info")
        .map(|d| {
            let related = d["related"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|r| str_of(r, "message").contains("the same missing value"))
                .filter_map(|r| r["line"].as_u64())
                .collect();
            (
                str_of(d, "rule").to_string(),
                d["line"].as_u64().unwrap_or(0),
                related,
            )
        })
        .collect()
}

#[test]
fn a_suppression_at_a_folded_read_still_applies() {
    let line =
        |at: &[(String, u64)], key: &str| at.iter().find(|(k, _)| k == key).map_or(0, |(_, l)| *l);
    // At a related read: that read is kept out, and the suppression is used.
    let (dir, at) = folded_with(&[("user", "data-value-unknown-reference")]);
    assert_eq!(
        shown(&dir),
        [(
            "template-error".to_string(),
            line(&at, "host"),
            vec![line(&at, "password")]
        )],
        "no unused-suppression, the read of user kept out"
    );
    // At the read the finding is placed at (the evaluation's error): the other reads are
    // still reported, as unknown references.
    let (dir, at) = folded_with(&[("host", "template-error")]);
    assert_eq!(
        shown(&dir),
        [(
            "data-value-unknown-reference".to_string(),
            line(&at, "user"),
            vec![line(&at, "password")]
        )]
    );
    // Every read suppressed: nothing is left, and no suppression is unused.
    let (dir, _) = folded_with(&[
        ("host", "template-error"),
        ("user", "data-value-unknown-reference"),
        ("password", "data-value-unknown-reference"),
    ]);
    assert_eq!(shown(&dir), []);
}
