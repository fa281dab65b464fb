//! Constructs of rounds twenty-nine and thirty-one, each on a minimal repository written for
//! the test: a kapp-controller App whose ytt step names a branch's ref file that its git
//! fetch, checked out detached by vendir, does not leave (R31-2; round sixteen's R16A-2 took
//! the file for granted).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A template reading the commit a ref file holds.
const JOB: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ \"built-from-\" + data.read(\"main\").strip()\ndata:\n  greeting: #@ data.values.greeting\n";

const VALUES: &str = "#@data/values\n---\ngreeting: hello\n";

/// An App fetching a repository at `reference`, rendering `paths` (each a list item).
fn app(reference: &str, paths: &[&str]) -> String {
    let listed: String = paths.iter().map(|p| format!("      - {p}\n")).collect();
    format!("apiVersion: kappctrl.k14s.io/v1alpha1\nkind: App\nmetadata:\n  name: demo\nspec:\n  serviceAccountName: default\n  fetch:\n  - git:\n      url: https://example.invalid/me/this-repository.git\n      {reference}\n  template:\n  - ytt:\n      paths:\n{listed}  deploy:\n  - kapp: {{}}\n")
}

#[test]
fn an_app_s_branch_ref_file_that_a_detached_checkout_does_not_leave() {
    // The App's paths name its folder's files (round sixteen's R16A-2 shape) or the
    // repository's: either way `.git/refs/heads/main` is not in a fetch of `origin/main`.
    for paths in [
        ["job.yaml", "values.yaml", ".git/refs/heads/main"],
        [
            "deploy/job.yaml",
            "deploy/values.yaml",
            ".git/refs/heads/main",
        ],
    ] {
        let repo = Repo::of(&[
            ("deploy/app.yaml", &app("ref: origin/main", &paths)),
            ("deploy/job.yaml", JOB),
            ("deploy/values.yaml", VALUES),
        ]);
        let lint = repo.lint();
        let found = lint.in_file("input-missing", "deploy/app.yaml");
        assert_eq!(found.len(), 1, "{lint}");
        assert_eq!(found[0]["line"], 16, "{lint}");
        assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
        // The step stops there: the template's read of `main` is not reported as well.
        assert!(
            lint.in_file("template-error", "deploy/job.yaml").is_empty(),
            "{lint}"
        );
        assert_eq!(lint.code, 1, "{lint}");
    }

    // A bare ref that reads as a tag: the file exists only if it is a branch, a warning
    // naming that.
    let paths = [
        "deploy/job.yaml",
        "deploy/values.yaml",
        ".git/refs/heads/v1.2.0",
    ];
    let repo = Repo::of(&[
        ("deploy/app.yaml", &app("ref: v1.2.0", &paths)),
        ("deploy/job.yaml", &JOB.replace("\"main\"", "\"v1.2.0\"")),
        ("deploy/values.yaml", VALUES),
    ]);
    let lint = repo.lint();
    lint.assert_verdicts("input-missing", &[("warning", &["missing-input"])]);

    // A branch's bare name: git's checkout makes the branch, the App renders; nothing said of
    // the ref (R16A-2's good case stays: the copies are checked on their own).
    let paths = ["job.yaml", "values.yaml", ".git/refs/heads/main"];
    let repo = Repo::of(&[
        ("deploy/app.yaml", &app("ref: main", &paths)),
        ("deploy/job.yaml", JOB),
        ("deploy/values.yaml", VALUES),
    ]);
    let lint = repo.lint();
    assert!(lint.of("input-missing").is_empty(), "{lint}");
    assert_eq!(lint.code, 0, "{lint}");
}
