//! Constructs of rounds twenty-nine and thirty-one, each on a minimal repository written for
//! the test: a kapp-controller App whose ytt step names a branch's ref file that its git
//! fetch, checked out detached by vendir, does not leave (R31-2; round sixteen's R16A-2 took
//! the file for granted); a `k8s-schema` finding of a command whose output the script only
//! compares (`kapp tools diff`) and nothing applies, a note (R29-2).

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

/// A Deployment whose replica count is a string: the API server refuses it.
const AFTER: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    rendered-at: tuesday\nspec:\n  replicas: \"2\"\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n";

const NORMALIZE: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, expects=\"0+\"\n---\nmetadata:\n  #@overlay/remove missing_ok=True\n  annotations:\n";

const HELPERS: &str = "#!/usr/bin/env bash\nHERE=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" || exit; pwd)\"\nnormalize() {\n  ytt -f \"${HERE}\"/normalize.yaml -f \"$1\" > \"$2\"\n}\n";

#[test]
fn a_schema_finding_of_output_only_compared_is_a_note() {
    // R29-2: the script renders two files through a normalizing overlay and only compares
    // the results; no object reaches an API server.
    let demo = "#!/usr/bin/env bash\n. ../helpers.sh\n\nnormalize before.yaml src\nnormalize after.yaml dst\n\nkapp tools diff -c --file2 dst --file src\n";
    let before = AFTER.replace("\"2\"", "2");
    let files = [
        ("diff/normalize.yaml", NORMALIZE),
        ("diff/helpers.sh", HELPERS),
        ("diff/example/demo.sh", demo),
        ("diff/example/before.yaml", before.as_str()),
        ("diff/example/after.yaml", AFTER),
    ];
    let lint = Repo::of(&files).lint();
    let found = lint.in_file("k8s-schema", "diff/example/after.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "info", "{lint}");
    assert!(
        str_of(found[0], "message").contains("kapp tools diff"),
        "{lint}"
    );
    assert_eq!(lint.code, 0, "{lint}");

    // The same script applying what it compared: the error stays.
    let applied = format!("{demo}kubectl apply -f dst\n");
    let mut files = files;
    files[2].1 = &applied;
    let lint = Repo::of(&files).lint();
    let found = lint.in_file("k8s-schema", "diff/example/after.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");

    // A page telling its reader to apply the file the script writes: applied too.
    files[2].1 = demo;
    let readme = "# Demo\n\n```\ncd diff/example && ./demo.sh\nkubectl apply -f dst\n```\n";
    let mut with_page = files.to_vec();
    with_page.push(("README.md", readme));
    let lint = Repo::of(&with_page).lint();
    let found = lint.in_file("k8s-schema", "diff/example/after.yaml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "error", "{lint}");
}
