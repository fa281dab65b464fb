//! docs/json-report.md lists every assumption kind the JSON report can carry, with its
//! meaning, and every `subject` tag: a kind added to the model without a row fails here.

use yttlint::report::AssumptionKind;

use crate::util::repo_root;

/// The first cells of the rows of the table whose header starts with `header`.
fn first_cells(page: &str, header: &str) -> Vec<String> {
    let Some(table) = page.split(header).nth(1) else {
        return Vec::new();
    };
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap_or("")
                .trim()
                .trim_matches('`')
                .to_string()
        })
        .collect()
}

#[test]
fn every_assumption_kind_and_subject_has_a_row() {
    let page = std::fs::read_to_string(repo_root().join("docs/json-report.md")).unwrap();
    let kinds = first_cells(&page, "| `kind` | what was assumed |");
    let ids: Vec<&str> = AssumptionKind::ALL.iter().map(|k| k.id()).collect();
    assert_eq!(kinds, ids, "one row per kind, in the model's order");
    let subjects = first_cells(&page, "| `is` | with `kind` |");
    assert_eq!(
        subjects,
        [
            "stand-in",
            "readers-values",
            "user-fills",
            "rewritten",
            "replaced",
            "supplements",
            "stand-in-value",
            "environment-files",
            "old-path",
            "alternatives",
            "borrowed-schema",
            "piped"
        ]
    );
    // Each tag is what the model writes.
    use yttlint::report::{Assumption, Subject};
    let tags: Vec<String> = [
        Subject::StandIn {
            example: "e".into(),
            copy: "c".into(),
        },
        Subject::ReadersValues,
        Subject::UserFills,
        Subject::Rewritten {
            file: "f".into(),
            shell: false,
        },
        Subject::Replaced { file: "f".into() },
        Subject::Supplements,
        Subject::StandInValue { key: "k".into() },
        Subject::EnvironmentFiles {
            prefix: "CFG".into(),
            files: vec![".envrc".into()],
        },
        Subject::OldPath {
            stale: "a".into(),
            now: "b/a".into(),
        },
        Subject::Alternatives {
            files: vec!["a.yml".into(), "b.yml".into()],
        },
        Subject::BorrowedSchema {
            command: "BUILDING.md:7".into(),
        },
        Subject::Piped {
            input: "-f - (what `gen` prints)".into(),
        },
    ]
    .into_iter()
    .map(|s| {
        let a = Assumption::new(AssumptionKind::InferredCommand, "m").about(s);
        serde_json::to_value(&a).unwrap()["subject"]["is"]
            .as_str()
            .unwrap()
            .to_string()
    })
    .collect();
    assert_eq!(tags, subjects);
}
