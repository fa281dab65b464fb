//! A page's "create config.yaml" YAML block read as the data values its command gets: a
//! block that is a map is linted with its text; a block that is no map (`<key1>:<value1>`
//! under `#@data/values`, tkg-extensions' form for the reader to fill in, which ytt refuses
//! as given) stands for values known only at run time, and the root's assumption says so
//! rather than that its text was linted.

use crate::util::repo::{Lint, Repo};
use serde_json::Value;

/// A template that reads `common.registry`, which no committed file sets.
const APP: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\n\
data:\n  image: #@ \"{}/app:1\".format(data.values.common.registry)\n";

/// A README that shows `block` under "Create config.yaml", then renders the directory.
fn page(block: &str) -> String {
    format!(
        "# App\n\n1. Create config.yaml file\n\n   ```yaml\n{block}   ```\n\n2. Deploy\n\n   \
         ```sh\n   ytt -f app/ | kubectl apply -f-\n   ```\n"
    )
}

/// The messages of the assumptions of every root.
fn assumptions(lint: &Lint) -> Vec<String> {
    lint.report["roots"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| {
            r["provenance"]["assumptions"]
                .as_array()
                .into_iter()
                .flatten()
        })
        .filter_map(|a: &Value| a["message"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_page_block_of_values_is_linted_with_its_text_and_a_form_to_fill_is_not() {
    // A map: its values are the command's, and `common.registry` is set.
    let map = "   #@data/values\n   ---\n   common:\n     registry: example.com\n";
    let lint = Repo::of(&[("app/app.yml", APP), ("app/README.md", &page(map))]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let said = assumptions(&lint);
    assert!(
        said.iter()
            .any(|m| m.contains("a page gives its text") && m.ends_with("linted with its text")),
        "{said:#?}"
    );

    // A form: ytt given it as it stands says "Expected map"; the reader fills in the keys,
    // so what the template reads is given at run time, and nothing is certain.
    let form = "   #@data/values\n   ---\n   <key1>:<value1>\n   <key2>:<value2>\n";
    let lint = Repo::of(&[("app/app.yml", APP), ("app/README.md", &page(form))]).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let said = assumptions(&lint);
    assert!(
        said.iter()
            .any(|m| m.contains("its text is no map of data values")),
        "{said:#?}"
    );
    assert!(
        !said.iter().any(|m| m.contains("linted with its text")),
        "{said:#?}"
    );
}
