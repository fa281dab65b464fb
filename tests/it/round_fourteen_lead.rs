//! Round fourteen's constructs the lead fixed (issue 39, the fourteenth session;
//! docs/precision.md "Round fourteen"), each on a minimal repository written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;

const CHAIN: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: chain\ndata:\n  server: #@ data.values.registry.server\n";
const VALUES: &str = "#@data/values\n---\nregistry:\n  server: registry.example.org\n";
const README: &str = "# chain\n\nRender and apply the supply chain:\n\n```bash\nytt -f values.yaml -f chain.yaml | kubectl apply -f -\n```\n";

#[test]
fn a_page_s_input_renamed_with_a_word_before_it_is_missing() {
    // LR14A-2: the page names `chain.yaml`, the repository holds `cluster-chain.yaml` (and
    // ytt stops: no such file). The command is reported, naming the file meant.
    let lint = Repo::of(&[
        ("README.md", README),
        ("cluster-chain.yaml", CHAIN),
        ("values.yaml", VALUES),
    ])
    .lint();
    let found = lint.of("input-missing");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "file"), "README.md", "{:#}", found[0]);
    assert_eq!(found[0]["line"], 6, "{:#}", found[0]);
    assert!(
        found[0].to_string().contains("cluster-chain.yaml"),
        "{:#}",
        found[0]
    );

    // A name the page's reader makes (nothing in the repository like it) stays unreported.
    let lint = Repo::of(&[
        ("README.md", README),
        ("blockchain.yaml", CHAIN),
        ("values.yaml", VALUES),
    ])
    .lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
}
