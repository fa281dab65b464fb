//! Round twenty-four's constructs, each on a minimal repository written for the test: a page's
//! placeholder folder in the middle of a `-f` path (`deploy/<SITE>/values.yaml`) stands for
//! each folder that holds the file, not for the folder before it (R24-2).

use crate::util::repo::Repo;

#[test]
fn a_placeholder_folder_inside_a_path_binds_to_the_folders_that_hold_the_file() {
    let repo = Repo::of(&[
        (
            "templates/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: app\n  namespace: demo\ndata:\n  site: #@ data.values.site\n",
        ),
        ("templates/values.yaml", "#@data/values\n---\nsite: none\n"),
        ("deploy/site-a/values.yaml", "#@data/values\n---\nsite: a\n"),
        (
            "deploy/app-cr.yaml",
            "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: app\n  namespace: demo\ndata:\n  site: manual\n",
        ),
        (
            "UPGRADE.md",
            "# Upgrading\n\n```sh\nytt -f templates -f deploy/<SITE>/values.yaml\n```\n",
        ),
    ]);
    repo.assert_lists("templates + deploy/site-a/values.yaml\trun by UPGRADE.md:4");
    let lint = repo.lint();
    // The whole `deploy/` folder would render the hand-applied ConfigMap beside the template's.
    assert!(lint.of("duplicate-object").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
}
