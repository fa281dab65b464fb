//! Data values checked without a schema, end to end on `fixtures/schemaless/`: references are
//! checked against what the `@data/values` documents and every scenario of the root set; a
//! root whose values come from outside (`unset_values: needs-input`) and a private library a
//! caller gives values (`with_data_values`) are not checked.

use crate::util::json::{diagnostics, str_of};
use crate::util::{standalone, yttlint};

#[test]
fn references_are_checked_against_the_data_values_documents_and_scenarios() {
    let run = yttlint(
        &standalone("schemaless"),
        &["--format", "json", "--no-cache"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let report = run.json();
    let found: Vec<String> = diagnostics(&report)
        .iter()
        .filter(|d| str_of(d, "rule").starts_with("data-value-"))
        .map(|d| {
            format!(
                "{} {}:{}:{}-{} {}",
                str_of(d, "rule"),
                str_of(d, "file"),
                d["line"],
                d["column"],
                d["end_column"],
                str_of(d, "message")
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            // ytt accepts the scenario's new key without a schema, and the library reads it:
            // no data-value-undeclared.
            // A private library nothing gives values to: its own documents are all there is.
            "data-value-unknown-reference app/_ytt_lib/theme/theme.yml:3:24-30 data.values.colour: no data values document or input sets colour at the top (did you mean color?)",
            "data-value-unused app/_ytt_lib/theme/values.yml:3:1-6 data value color is set in a data values document but nothing in the library reads it",
            // `ingress.host` is set by a scenario, `extra` is null (its keys come later), `tls`
            // is probed with hasattr: only the typo is sure to fail.
            "data-value-unknown-reference app/service.yml:7:24-28 data.values.prot: no data values document or input sets prot at the top (did you mean port?)",
            "data-value-unused app/values.yml:4:1-5 data value port is set in a data values document but nothing in the library reads it",
        ]
    );
}
