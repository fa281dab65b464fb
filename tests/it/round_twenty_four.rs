//! Round twenty-four's constructs, each on a minimal repository written for the test: a page's
//! placeholder folder in the middle of a `-f` path (`deploy/<SITE>/values.yaml`) stands for
//! each folder that holds the file, not for the folder before it (R24-2); a Kubernetes format
//! check of a placeholder a page's `-v` flag gives is a note (R24-4).

use crate::util::json::str_of;
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

#[test]
fn a_format_check_of_a_placeholder_a_page_s_flag_gives_is_a_note() {
    let secret = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: admin\ntype: Opaque\ndata:\n  user: #@ data.values.admin.user\n  password: #@ data.values.admin.password\n";
    let values = "#@data/values\n---\nadmin:\n  user: \"YWRtaW4=\"\n  password: \"\"\n";
    let page = |value: &str| {
        format!("# Dashboard\n\n```sh\nytt -f config/ -v admin.password=\"{value}\" | kubectl apply -f-\n```\n")
    };
    let placeholder = page("<admin_password>");
    let repo = Repo::of(&[
        ("config/secret.yaml", secret),
        ("config/values.yaml", values),
        ("README.md", placeholder.as_str()),
    ]);
    let lint = repo.lint();
    let checks = lint.of("k8s-schema");
    assert_eq!(checks.len(), 1, "{lint}");
    assert_eq!(str_of(checks[0], "severity"), "info", "{lint}");
    let kinds = checks[0]["certainty"]["assumptions"].to_string();
    assert!(
        kinds.contains("the placeholder `<admin_password>`"),
        "{kinds}"
    );

    // A value that is no placeholder is the command's own: the check stays a finding.
    let plain = page("not base64!");
    let repo = Repo::of(&[
        ("config/secret.yaml", secret),
        ("config/values.yaml", values),
        ("README.md", plain.as_str()),
    ]);
    let lint = repo.lint();
    let checks = lint.of("k8s-schema");
    assert_eq!(checks.len(), 1, "{lint}");
    assert_ne!(str_of(checks[0], "severity"), "info", "{lint}");
}
