//! The twenty-fourth session's constructs from rounds twenty-six to twenty-eight, each on a
//! minimal repository written for the test: a command that only inspects a folder's schema
//! (`--data-values-schema-inspect`) renders nothing, so it leaves the schema in the folder's
//! root instead of taking it out of it (N28-5).

use crate::util::repo::Repo;

#[test]
fn a_schema_inspection_leaves_the_schema_in_its_folder_s_root() {
    let schema = "#@data/values-schema\n---\napp:\n  namespace: demo\n  create_namespace: true\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ if data.values.app.create_namespace:\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.app.namespace\n#@ end\n";
    let readme = "# Release\n\n```\nytt -f bundle/config/values.yaml --data-values-schema-inspect -o openapi-v3 > /tmp/schema.yml\n```\n";
    let repo = Repo::of(&[
        ("bundle/config/values.yaml", schema),
        ("bundle/config/app.yaml", tpl),
        ("README.md", readme),
    ]);
    // The folder is rendered whole, with its schema, as a Package's `ytt` step does.
    repo.assert_lists("bundle/config\ttopmost directory holding ytt files; inputs unknown");
    let lint = repo.lint();
    assert!(lint.of("needs-input").is_empty(), "{lint}");
    assert!(lint.of("data-value-unused").is_empty(), "{lint}");
}
