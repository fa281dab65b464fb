//! Round twenty-one's left-overs, each on a minimal repository written for the test: an
//! `unused-load` in a directory a tool writes and manages (`.tanzu-managed/`, which TAP's GitOps
//! reference implementation ships for tanzu-sync) is info without its fix, where the same
//! finding in the author's own file stays a warning.

use crate::util::json::str_of;
use crate::util::repo::Repo;

#[test]
fn an_unused_load_in_a_tool_managed_directory_is_info_and_in_the_authors_file_a_warning() {
    let repo = Repo::of(&[
        (
            "sync/app/config/.tanzu-managed/version.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\nversion: #@ data.values.version\n",
        ),
        (
            "sync/app/config/values.yaml",
            "#@data/values\n---\nversion: \"1.2\"\n",
        ),
        (
            "sync/app/config/app.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:struct\", \"struct\")\nname: #@ data.values.version\n",
        ),
    ]);
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let unused = lint.of("unused-load");
    assert_eq!(unused.len(), 2, "{lint}");
    for d in unused {
        let file = str_of(d, "file");
        let severity = str_of(d, "severity");
        let message = str_of(d, "message");
        if file.contains(".tanzu-managed/") {
            assert_eq!(severity, "info", "{lint}");
            assert!(
                message.contains("in sync/app/config/.tanzu-managed/, which a tool writes"),
                "{message}"
            );
            assert!(d["fix"].is_null(), "{lint}");
        } else {
            assert_eq!(file, "sync/app/config/app.yaml", "{lint}");
            assert_eq!(severity, "warning", "{lint}");
        }
    }
}
