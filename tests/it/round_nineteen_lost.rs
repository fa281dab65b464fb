//! Issue 39's lost errors taken in the nineteenth session, each on a minimal repository written
//! for the test: a page's `--data-values-env` command judged with the variables its
//! environment files list (LR16A-2), a page's `mv` step whose path is stale as its command's
//! is (R17B-2 with LR17B-1).

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A broker's pod: its name from the values file, its pull secret from a key nothing sets.
const CLUSTER: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: #@ data.values.broker.name\nspec:\n  imagePullSecrets:\n  - name: #@ data.values.vendor.pull_secret_name\n  containers:\n  - name: broker\n    image: #@ data.values.registry.server + \"/broker:1.0\"\n";

const COMMON: &str =
    "#@data/values\n---\nregistry:\n  server: registry.example.org\nbroker:\n  name: broker\n";

/// The page: direnv first, then the command with `--data-values-env CFG`.
const PAGE: &str = "# Broker\n\nRename `.envrc.secrets.template` to `.envrc.secrets`, fill in the variables, run\n`direnv allow`, then:\n\n```sh\nytt -f ./templates/cluster.yaml -f ./values/common.yaml --data-values-env CFG | kapp deploy -a broker -f- -y\n```\n";

const ENVRC: &str = "source_env_if_exists .envrc.secrets\nexport CFG_registry__username=\n";
const SECRETS: &str = "# rename to .envrc.secrets and fill in\nexport CFG_registry__password=\n";

#[test]
fn a_page_s_data_values_env_command_is_judged_with_the_listed_variables() {
    // LR16A-2: the page's reader sets the variables the direnv files list; none is for
    // `vendor`, which no values file sets either: ytt fails `struct has no .vendor field`. A
    // warning naming the environment files (before: a needs-input note, as if the reader
    // might give anything).
    let files = [
        (".envrc", ENVRC),
        (".envrc.secrets.template", SECRETS),
        ("README.md", PAGE),
        ("values/common.yaml", COMMON),
        ("templates/cluster.yaml", CLUSTER),
    ];
    let lint = Repo::of(&files).lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    let message = str_of(failed[0], "message");
    assert!(message.contains("struct has no .vendor"), "{message}");
    assert!(
        message.contains("`vendor.pull_secret_name`")
            && message.contains("`.envrc`, `.envrc.secrets.template`")
            && message.contains("`CFG_vendor__pull_secret_name`"),
        "{message}"
    );
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
    assert!(
        crate::util::json::assumption_kinds(failed[0]).contains(&"environment-files"),
        "{lint}"
    );
    assert!(lint.of("needs-input").is_empty(), "{lint}");

    // The key read in an overlay's replace function: ytt's failure is an `overlay-error`, which
    // rests on the values as much (a warning, never a certain error).
    let replaced = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def secret(old, _):\n#@   return data.values.vendor.password\n#@ end\n#@overlay/match by=overlay.subset({\"kind\": \"Pod\"})\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  #@overlay/replace via=secret\n  name: x\n";
    let page = PAGE.replace(
        "-f ./values/common.yaml",
        "-f ./values/common.yaml -f ./templates/secret.yaml",
    );
    let cluster = CLUSTER.replace("data.values.vendor.pull_secret_name", "\"pull\"");
    let files = [
        (".envrc", ENVRC),
        (".envrc.secrets.template", SECRETS),
        ("README.md", page.as_str()),
        ("values/common.yaml", COMMON),
        ("templates/cluster.yaml", cluster.as_str()),
        ("templates/secret.yaml", replaced),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.errors().is_empty(), "{lint}");
    let failed = lint.of("overlay-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
    assert!(
        crate::util::json::assumption_kinds(failed[0]).contains(&"environment-files"),
        "{lint}"
    );

    // No environment file lists a `CFG_` variable: any key may come from the environment, a
    // note as before.
    let files = [
        (".envrc", "export KUBECONFIG=$PWD/kubeconfig\n"),
        ("README.md", PAGE),
        ("values/common.yaml", COMMON),
        ("templates/cluster.yaml", CLUSTER),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");

    // The key the template reads is among the listed variables: it renders.
    let envrc = format!("{ENVRC}export CFG_vendor__pull_secret_name=\n");
    let files = [
        (".envrc", envrc.as_str()),
        (".envrc.secrets.template", SECRETS),
        ("README.md", PAGE),
        ("values/common.yaml", COMMON),
        ("templates/cluster.yaml", CLUSTER),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
}

/// The example's page, written before the example moved into `guides/basics/`: its `mv` and
/// its command both name the folder by the old path.
const LIB_PAGE: &str = "Renders the private library `app` (kept as `_ytt_lib1` so that the test loop skips it).\n\n```\n# turn _ytt_lib1 -> _ytt_lib\n$ mv ./guides/lib-demo/_ytt_lib{1,}\n\n$ ytt -f ./guides/lib-demo\n```\n";

const LIB_CONFIG: &str = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n\n#@ app = library.get(\"app\").with_data_values({\"app_name\": \"outer\"})\n--- #@ template.replace(app.eval())\n";

const LIB_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.app_name\n";

const LIB_VALUES: &str = "#@data/values\n---\napp_name: inner\n";

#[test]
fn a_page_s_step_on_its_folder_s_old_path_is_read_with_its_command_s_correction() {
    // R17B-2 with LR17B-1: the command as written fails (its path is stale, an input-missing
    // error, as before); as its reader would run it from the folder's new path, after the
    // `mv` on the same stale path, ytt renders the library: no load-error (before: two
    // load-error warnings from the folder checked on its own, without the `mv`).
    let files = [
        ("guides/basics/lib-demo/README.md", LIB_PAGE),
        ("guides/basics/lib-demo/config.yml", LIB_CONFIG),
        (
            "guides/basics/lib-demo/_ytt_lib1/app/config.yml",
            LIB_TEMPLATE,
        ),
        (
            "guides/basics/lib-demo/_ytt_lib1/app/values.yml",
            LIB_VALUES,
        ),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("load-error").is_empty(), "{lint}");
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert_eq!(str_of(missing[0], "severity"), "error", "{lint}");
    assert_eq!(lint.errors().len(), 1, "{lint}");

    // A guess at what the page renders makes no error beside it a left-over's: an undefined
    // name in a sibling example stays an error.
    let sibling = "---\na: #@ nope\n";
    let mut with_sibling = files.to_vec();
    with_sibling.push(("guides/basics/other/config.yml", sibling));
    let lint = Repo::of(&with_sibling).lint();
    let undefined = lint.of("template-error");
    assert_eq!(undefined.len(), 1, "{lint}");
    assert_eq!(str_of(undefined[0], "severity"), "error", "{lint}");

    // The library broken: the failure ytt reports after the `mv`, a warning that says the
    // path was corrected (never an error: the page may mean another folder).
    let broken = LIB_TEMPLATE.replace("data.values.app_name", "data.values.app_name + 1");
    let files = [
        ("guides/basics/lib-demo/README.md", LIB_PAGE),
        ("guides/basics/lib-demo/config.yml", LIB_CONFIG),
        (
            "guides/basics/lib-demo/_ytt_lib1/app/config.yml",
            broken.as_str(),
        ),
        (
            "guides/basics/lib-demo/_ytt_lib1/app/values.yml",
            LIB_VALUES,
        ),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("load-error").is_empty(), "{lint}");
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
    let assumed = crate::util::json::assumption_text(failed[0]);
    assert!(
        assumed.contains("`guides/lib-demo` as `guides/basics/lib-demo`"),
        "{assumed}"
    );
}

#[test]
fn a_needs_input_note_says_nothing_sets_only_what_nothing_sets() {
    // Issue 39, item 4: the folder's values file sets `db.port`, to null; the note names it
    // as left null or empty, not as set by nothing. `db.user` nothing sets.
    let values = "#@data/values\n---\ndb:\n  port: null\n";
    let null = "#@ load(\"@ytt:data\", \"data\")\n---\nport: #@ data.values.db.port + 1\n";
    let lint = Repo::of(&[("cfg/values.yml", values), ("cfg/t.yml", null)]).lint();
    let notes = lint.of("needs-input");
    assert_eq!(notes.len(), 1, "{lint}");
    let message = str_of(notes[0], "message");
    assert!(
        message.contains("left null or empty here (`db.port`)")
            && !message.contains("nothing sets"),
        "{message}"
    );
    // A method called on the value names the value, not the method (`db.port`, not
    // `db.port.lower`).
    let called = "#@ load(\"@ytt:data\", \"data\")\n---\nport: #@ data.values.db.port.lower()\n";
    let lint = Repo::of(&[("cfg/values.yml", values), ("cfg/t.yml", called)]).lint();
    let notes = lint.of("needs-input");
    assert_eq!(notes.len(), 1, "{lint}");
    let message = str_of(notes[0], "message");
    assert!(
        message.contains("left null or empty here (`db.port`)"),
        "{message}"
    );
    let absent = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.db.user.name\n";
    let lint = Repo::of(&[("cfg/values.yml", values), ("cfg/t.yml", absent)]).lint();
    let notes = lint.of("needs-input");
    assert_eq!(notes.len(), 1, "{lint}");
    let message = str_of(notes[0], "message");
    assert!(
        message.contains("nothing sets here (`db.user.name`)"),
        "{message}"
    );
}

#[test]
fn every_undefined_name_of_a_template_is_reported() {
    // Issue 39, item 4: ytt stops at the first; the linter reports each.
    let t = "---\na: #@ foo\nb: #@ bar(1)\nc: #@ baz.x\n";
    let lint = Repo::of(&[("t.yml", t)]).lint();
    let mut names: Vec<String> = lint
        .of("template-error")
        .iter()
        .map(|d| str_of(d, "message").to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["undefined: bar", "undefined: baz", "undefined: foo"],
        "{lint}"
    );
}
