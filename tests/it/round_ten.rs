//! Constructs of round ten's first contact (issue 39, docs/precision.md, researcher A's
//! repositories) that the linter misread, each as a general rule on a minimal repository
//! written for the test.

use crate::util::json::{assumption_kinds, str_of};
use crate::util::repo::Repo;

#[test]
fn a_sibling_example_in_place_of_the_one_a_command_names_is_an_assumption() {
    // FA10-5: the script names laptop.yaml; cloud.yaml beside it is another user's choice,
    // with which the template fails (a nullable map read when `target` is "cloud").
    let dir = Repo::of(&[
        (
            "tools/check.sh",
            "#!/bin/sh\nytt --data-values-file samples/laptop.yaml -f bundle/config > /dev/null\n",
        ),
        (
            "bundle/config/schema.yaml",
            "#@data/values-schema\n---\ntarget: laptop\n#@schema/nullable\ncloud:\n  zone: \"\"\n",
        ),
        (
            "bundle/config/map.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  target: #@ data.values.target\n  #@ if data.values.target == \"cloud\":\n  zone: #@ data.values.cloud.zone\n  #@ end\n",
        ),
        ("samples/laptop.yaml", "target: laptop\n"),
        ("samples/cloud.yaml", "target: cloud\n"),
    ]);
    dir.assert_lists("tools/check.sh:2 with samples/cloud.yaml");
    let lint = dir.lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    let found = lint.of("template-error");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
    assert_eq!(assumption_kinds(found[0]), ["example-values"], "{lint}");
    let said = str_of(&found[0]["certainty"]["assumptions"][0], "message");
    assert!(
        said.contains("samples/cloud.yaml stands in for samples/laptop.yaml"),
        "{said}"
    );
}

/// A script that copies a template to a path its caller gives, and renders into a path its
/// caller gives; pages that run ytt on a file kubectl writes and on one nobody writes.
const RUN_TIME_PATHS: &[(&str, &str)] = &[
    (
        "bootstrap.sh",
        "#!/bin/bash\nHERE=$(cd \"$(dirname \"$0\")\" && pwd)\n. \"$HERE/lib/helpers.sh\"\nif [ -z \"$1\" ]; then echo \"Usage: $0 /path/to/settings-file\"; exit 1; fi\nprepare_settings \"$1\"\n",
    ),
    (
        "lib/helpers.sh",
        "#!/bin/bash\nprepare_settings() {\n  TARGET=\"$(cd \"$(dirname \"$1\")\" && pwd)/$(basename -- \"$1\")\"\n  [ -f \"$TARGET\" ] || cp \"$HERE/settings.template\" $TARGET\n}\noverlay_into() {\n  ytt -f \"$1\" -f \"$2\" > \"$3\"\n}\n",
    ),
    (
        "settings.template",
        "# shell settings\nexport REGION=north\nCLUSTER_NAME=\"demo\"\n",
    ),
    (
        "patches/README.md",
        "# Patching a live deployment\n\n```\nkubectl get deployment api -o yaml > api.yml\nytt -f api.yml -f team-label.yaml\n```\n",
    ),
    (
        "patches/team-label.yaml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    #@overlay/match missing_ok=True\n    team: payments\n",
    ),
    (
        "patches/base.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api\n",
    ),
    (
        "OPERATIONS.md",
        "# Operations\n\n```\nytt -f patches/base.yaml -f patches/team-lable.yaml\n```\n",
    ),
];

#[test]
fn a_copy_or_redirection_to_a_run_time_path_makes_no_known_file() {
    // FA10-2: `cp t $TARGET` and `> "$3"` name no file: neither stands in for the file
    // kubectl writes nor for the misspelt overlay (ytt stops at it: `input-missing`), and
    // the shell template is no ytt input.
    let dir = Repo::of(RUN_TIME_PATHS);
    let roots = dir.roots();
    assert!(!roots.contains("settings.template"), "{roots}");
    let lint = dir.lint();
    assert!(
        lint.diagnostics()
            .iter()
            .all(|d| !d.to_string().contains("settings.template")),
        "{lint}"
    );
    assert!(lint.of("overlay-error").is_empty(), "{lint}");
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert_eq!(missing[0]["file"], "OPERATIONS.md", "{lint}");
    assert!(
        str_of(missing[0], "message").contains("patches/team-lable.yaml"),
        "{lint}"
    );
}

#[test]
fn an_overlay_whose_target_is_given_at_run_time_is_not_judged_without_it() {
    // FA10-6: the only document the overlay can match is a file a generator writes under a
    // directory named at run time; without it, "matched 0" rests on the missing input.
    let lint = Repo::of(&[
        (
            "new-app.sh",
            "#!/bin/bash\nWORK=/tmp/$1\nmkdir -p $WORK/config\ngenerator create --into $WORK\nmv $WORK/config/app.yaml $WORK/config/app-generated.yaml\nytt -f $WORK/config/app-generated.yaml -f patch/retarget.yaml \\\n  --data-value repo=\"https://git.example.org/$1.git\" > $WORK/config/app.yaml\n",
        ),
        (
            "patch/retarget.yaml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n#@overlay/match by=overlay.subset({\"kind\": \"Application\"})\n---\nspec:\n  #@overlay/replace\n  repo: #@ data.values.repo\n",
        ),
        ("patch/values.yaml", "#@data/values\n---\nrepo: \"\"\n"),
    ]).lint();
    assert_eq!(lint.code, 0, "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");
    for d in lint.of("overlay-error") {
        assert!(assumption_kinds(d).contains(&"missing-input"), "{lint}");
    }
}

#[test]
fn a_page_s_script_with_a_deleted_input_and_a_run_time_values_file_is_input_missing() {
    // LA10-2: the page runs the script beside it; `operators/` was deleted, `$1` is the
    // reader's values file. ytt stops at the missing directory whatever `$1` is.
    let lint = Repo::of(&[
        (
            "setup/README.md",
            "# Setup\n\nFrom this directory:\n\n```\n./install-operators.sh /path/to/my/values.yaml\n```\n",
        ),
        (
            "setup/install-operators.sh",
            "#!/bin/bash\nytt -f operators/ -f $1 | kapp deploy -a operators -f- --yes\n",
        ),
        (
            "setup/install-app.sh",
            "#!/bin/bash\nytt -f ../app -f $1 | kapp deploy -a app -f- --yes\n",
        ),
        (
            "app/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  host: #@ data.values.host\n",
        ),
    ]).lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert!(
        str_of(missing[0], "message").contains("setup/operators"),
        "{lint}"
    );
    // At the script's own command, the page's line that runs it related.
    assert_eq!(missing[0]["file"], "setup/install-operators.sh", "{lint}");
    assert!(
        missing[0]["related"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["file"] == "setup/README.md")),
        "{lint}"
    );
}

#[test]
fn a_page_s_command_with_an_example_file_is_judged_as_written() {
    // LA10-3: the page gives an example with `-f`; it has no `#@data/values`, so ytt reads
    // it as a template document and the schema's required list stays empty (ytt: "must be:
    // length >= 1"). The command is literal and complete: the failure is certain.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Try it\n\n```\nytt -f example-values/lab.yaml -f config\n```\n",
        ),
        (
            "config/schema.yaml",
            "#@data/values-schema\n---\n#@schema/validation min_len=1\nhosts:\n- \"\"\n",
        ),
        (
            "config/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hosts\ndata:\n  first: #@ data.values.hosts[0]\n",
        ),
        (
            "example-values/lab.yaml",
            "#! copy and edit\n---\nhosts:\n- web.example.org\n",
        ),
    ]).lint();
    assert_eq!(lint.code, 1, "{lint}");
    let found = lint.of("required-value");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "error", "{lint}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");

    // Given as data values, the same example renders.
    let lint = Repo::of(&[
        (
            "README.md",
            "# Try it\n\n```\nytt --data-values-file example-values/lab.yaml -f config\n```\n",
        ),
        (
            "config/schema.yaml",
            "#@data/values-schema\n---\n#@schema/validation min_len=1\nhosts:\n- \"\"\n",
        ),
        (
            "config/cm.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hosts\ndata:\n  first: #@ data.values.hosts[0]\n",
        ),
        ("example-values/lab.yaml", "hosts:\n- web.example.org\n"),
    ]).lint();
    assert_eq!((lint.code, lint.errors().len()), (0, 0), "{lint}");
}
