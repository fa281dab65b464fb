//! Round twenty-one's constructs, each on a minimal repository written for the test: a loop
//! over the names `ls DIR` prints whose body renders `DIR/$name` and leaves some names out by
//! a test (round nineteen's R19-1, the e2e script of a ytt fork): the entries left out stay
//! roots inferred from the layout, their evaluation's findings notes; a folder a TAP values
//! file hands to the namespace provisioner (R21-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// An example that renders, one that needs a value, and one the script leaves out: its load
/// names a library the example's reader fetches first.
const EXAMPLES: [(&str, &str); 4] = [
    (
        "examples/playground/plain/config.yml",
        "#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.name\n",
    ),
    (
        "examples/playground/plain/values.yml",
        "#@data/values\n---\nname: demo\n",
    ),
    (
        "examples/playground/other/config.yml",
        "#@ x = 1\nvalue: #@ x\n",
    ),
    (
        "examples/playground/needs-library/config.yml",
        "#@ load(\"@fetched:funcs.star\", \"f\")\nvalue: #@ f()\n",
    ),
];

/// The script: every example but the one that needs the library (and one that is not there).
const SCRIPT: &str = "#!/bin/bash\nset -e\nfor name in $(ls examples/playground/); do\n  echo \"rendering $name\"\n  if [ \"$name\" != \"needs-library\" ] && \\\n    [ \"$name\" != \"example-gone\" ]; then\n    ytt -f examples/playground/${name} > /dev/null\n  fi\ndone\n";

#[test]
fn a_loop_over_ls_renders_each_entry_and_what_an_entry_it_leaves_out_fails_on_is_a_note() {
    let mut files = EXAMPLES.to_vec();
    files.push(("hack/test-e2e.sh", SCRIPT));
    let repo = Repo::of(&files);
    repo.assert_lists("examples/playground/plain\trun by hack/test-e2e.sh:7");
    repo.assert_lists("examples/playground/other\trun by hack/test-e2e.sh:7");
    repo.assert_lists("leaves out `examples/playground/needs-library`");
    let lint = repo.lint();
    assert!(lint.errors().is_empty(), "{lint}");
    // Checked alone, as the layout says, but what its evaluation finds is a note naming the
    // script's test.
    let failed = lint.of("load-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "info", "{lint}");
    let kinds = failed[0]["certainty"]["assumptions"].to_string();
    assert!(kinds.contains("\"left-out-entry\""), "{kinds}");
    assert!(
        kinds.contains("the loop around hack/test-e2e.sh:7"),
        "{kinds}"
    );

    // Without the script's test, the example that needs the library is rendered by the loop
    // and fails there: a warning, as every loop entry assumes it runs the command.
    let script = SCRIPT.replace("[ \"$name\" != \"needs-library\" ]", "[ -n \"$name\" ]");
    let mut files = EXAMPLES.to_vec();
    files.push(("hack/test-e2e.sh", &script));
    let lint = Repo::of(&files).lint();
    let failed = lint.of("load-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
}

#[test]
fn a_loop_over_ls_whose_name_is_used_elsewhere_is_not_bound_to_the_entries() {
    // The name is used under another directory: the listing says nothing of those paths.
    let script = SCRIPT.replace("ytt -f examples/playground/${name}", "ytt -f other/${name}");
    let mut files = EXAMPLES.to_vec();
    files.push(("hack/test-e2e.sh", &script));
    let roots = Repo::of(&files).roots();
    assert!(!roots.contains("run by hack/test-e2e.sh"), "{roots}");
}

/// A TAP values file that hands a folder to the namespace provisioner (R21-1).
const TAP_VALUES: &str = "profile: full\nnamespace_provisioner:\n  controller: false\n  gitops_install:\n    ref: origin/main\n    subPath: clusters/dev/provisioner\n    url: https://github.com/example/gitops.git\n";

/// A document of the folder's own, and an overlay on the ServiceAccount the provisioner's own
/// templates render.
const PROVISIONED: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n#@overlay/match by=overlay.subset({\"kind\": \"ServiceAccount\", \"metadata\": {\"name\": \"default\"}}), expects=\"1+\"\n---\nimagePullSecrets:\n#@overlay/append\n- name: registry-credentials\n";

#[test]
fn a_folder_the_namespace_provisioner_renders_is_no_root_of_its_own() {
    let files = [
        ("clusters/dev/values/tap-values.yaml", TAP_VALUES),
        ("clusters/dev/provisioner/service-account.yaml", PROVISIONED),
    ];
    let repo = Repo::of(&files);
    repo.assert_lists("copied into the namespace provisioner of Tanzu Application Platform by clusters/dev/values/tap-values.yaml:6");
    let lint = repo.lint();
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    // Without the values file, the folder is a root inferred from the layout, and its overlay
    // fails there.
    let lint = Repo::of(&files[1..]).lint();
    assert_eq!(lint.of("overlay-error").len(), 1, "{lint}");
}
