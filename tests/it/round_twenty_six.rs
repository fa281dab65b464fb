//! Round twenty-six's constructs, each on a minimal repository written for the test: the
//! schema documents of a directory are overlaid in the order its files are given, a
//! subdirectory's before a later name of the directory itself, as ytt does (R26-3).

use crate::util::repo::Repo;

#[test]
fn schema_files_are_overlaid_in_the_order_the_files_are_given() {
    let repo = Repo::of(&[
        (
            "config/deployment.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.name\ndata:\n  replicas: #@ str(data.values.replicas)\n",
        ),
        // `lib/schema.yaml` is given before `schema.yaml` (`lib/` sorts before `s`): its
        // larger schema comes first, and the smaller one after it matches.
        ("config/lib/schema.yaml", "#@data/values-schema\n---\nname: web\nreplicas: 1\n"),
        ("config/schema.yaml", "#@data/values-schema\n---\nname: web\n"),
        ("render.sh", "#!/bin/sh\nytt -f config\n"),
    ]);
    let lint = repo.lint();
    assert!(lint.of("schema-invalid").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}
