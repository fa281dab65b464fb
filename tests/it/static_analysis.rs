//! The fixture repository `fixtures/static-analysis/` shows each rule of static analysis once:
//! findings in branches no scenario takes, in a private library nothing uses, and in files the
//! evaluation never reaches, each at its template position.

use crate::util::json::{diagnostics, str_of};
use crate::util::{standalone, yttlint};

#[test]
fn the_fixture_shows_every_static_rule_once() {
    let run = yttlint(&standalone("static-analysis"), &["--format", "json"]);
    assert_eq!(run.code, 1);
    let report = run.json();
    let found: Vec<String> = diagnostics(&report)
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}:{}-{}",
                str_of(d, "rule"),
                str_of(d, "file"),
                d["line"],
                d["column"],
                d["end_column"]
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "load-unknown-name config/_ytt_lib/tools/list.star:1:22-28",
            "unused-load config/app.yml:2:22-28",
            // The branch no scenario takes, where the static findings are.
            "branch-never-evaluated config/app.yml:14:3-3",
            "wrong-arguments config/app.yml:14:14-20",
            "data-value-unknown-reference config/app.yml:16:34-41",
            "data-value-unused config/schema.yml:5:1-9",
            "branch-never-evaluated config/values.star:7:5-5",
            "unknown-module-attribute config/values.star:7:5-18",
            "unused-function config/values.star:12:5-20",
            "unreachable-code config/values.star:18:3-3",
        ]
    );
    let rules: std::collections::BTreeSet<&str> = diagnostics(&report)
        .iter()
        .map(|d| str_of(d, "rule"))
        .collect();
    for rule in yttlint::report::Rule::STATIC {
        assert!(rules.contains(rule.id()), "{rule} is not shown");
    }
}
