//! Round sixteen's constructs the lead took (issue 39, the sixteenth session; docs/precision.md
//! "Round sixteen"), each as a general rule on a minimal repository written for the test.

use crate::util::json::str_of;
use crate::util::repo::Repo;

/// A page that runs an installer with the reader's values written in curly braces.
const INSTALL_PAGE: &str = "# Install\n\n```sh\n./setup.sh {cluster-name} {ca-file}\n```\n\nPut your own values in place of the words in curly braces; the CA file is only needed for a\nregistry with a self-signed certificate.\n";

/// The installer: pulls a bundle, then renders it, with the CA file when one is given.
const INSTALLER: &str = "#!/usr/bin/env bash\nset -eu\nCLUSTER=\"$1\"\nCA_FILE=${2:-}\nimgpkg pull -b \"registry.example.org/infra/agent:2.1\" -o /tmp/agent\nif [ -n \"$CA_FILE\" ]; then\n  ytt -f /tmp/agent/config -f \"$CA_FILE\" -v cluster=\"$CLUSTER\" | kapp deploy -a agent -f- -y\nelse\n  ytt -f /tmp/agent/config -v cluster=\"$CLUSTER\" | kapp deploy -a agent -f- -y\nfi\n";

/// The overlay the folder keeps beside the installer, so that it holds ytt files.
const OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  labels:\n    team: infra\n";

#[test]
fn a_curly_braced_word_of_a_page_is_the_reader_s_file_not_a_missing_input() {
    // R16A-3: the page's `{ca-file}` reaches the script's `-f "$CA_FILE"`; the reader puts
    // their own path there. It names no file of the repository, so it is no missing input
    // (the command itself renders a bundle pulled at run time, which the linter skips).
    let files = [
        ("ops/agent/README.md", INSTALL_PAGE),
        ("ops/agent/setup.sh", INSTALLER),
        ("ops/agent/overlays/labels.yml", OVERLAY),
    ];
    let lint = Repo::of(&files).lint();
    let missing = lint.of("input-missing");
    assert!(missing.is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");

    // The same page naming a committed path that does not exist still gets its warning.
    let page = INSTALL_PAGE.replace("{ca-file}", "certs/registry-ca.yml");
    let files = [
        ("ops/agent/README.md", page.as_str()),
        ("ops/agent/setup.sh", INSTALLER),
        ("ops/agent/overlays/labels.yml", OVERLAY),
        ("ops/agent/certs/README.md", "Put the registry's CA here.\n"),
    ];
    let lint = Repo::of(&files).lint();
    let missing = lint.of("input-missing");
    assert_eq!(missing.len(), 1, "{lint}");
    assert!(
        str_of(missing[0], "message").contains("registry-ca.yml"),
        "{lint}"
    );
}

/// A library's schema that takes a whole custom resource: every top-level key it carries.
const RESOURCE_SCHEMA: &str = "#@data/values-schema\n---\napiVersion: \"\"\nkind: \"\"\n#@schema/type any=True\nmetadata:\n  name: \"\"\nspec:\n  replicas: 1\n  region: \"\"\n#@schema/type any=True\nstatus: null\n";

/// The library's template: reads the name and the replicas, nothing else.
const RESOURCE_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ data.values.metadata.name\ndata:\n  replicas: #@ str(data.values.spec.replicas)\n";

/// A hook handing the library the object it is given, whole.
const HOOK: &str = "load(\"@ytt:library\", \"library\")\n\ndef reconcile(parent):\n  return library.get(\"queue\").with_data_values(parent, plain=True).eval()\nend\n";

/// The template calling the hook with one such object.
const HOOK_CALLER: &str = "#@ load(\"hook.star\", \"reconcile\")\n#@ load(\"@ytt:template\", \"template\")\n#@ obj = {\"apiVersion\": \"queues.example.org/v1\", \"kind\": \"Queue\", \"metadata\": {\"name\": \"jobs\"}, \"spec\": {\"replicas\": 3, \"region\": \"eu\"}, \"status\": {}}\n--- #@ template.replace(reconcile(obj))\n";

#[test]
fn a_library_handed_an_object_whole_needs_every_key_its_schema_declares() {
    // R16A-1: `with_data_values(parent, plain=True)` hands the library a whole object whose
    // keys the call does not write: the schema must declare each of them (ytt rejects an
    // undeclared one), so a key its templates do not read is not unused.
    let files = [
        ("hooks/_ytt_lib/queue/schema.yml", RESOURCE_SCHEMA),
        ("hooks/_ytt_lib/queue/configmap.yml", RESOURCE_TEMPLATE),
        ("hooks/hook.star", HOOK),
        ("hooks/main.yml", HOOK_CALLER),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("data-value-unused").is_empty(), "{lint}");
    assert!(lint.errors().is_empty(), "{lint}");

    // Handed a dict whose keys the call writes, the library's unread keys are unused again.
    let caller = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"queue\").with_data_values({\"metadata\": {\"name\": \"jobs\"}, \"spec\": {\"replicas\": 3}}).eval())\n";
    let files = [
        ("hooks/_ytt_lib/queue/schema.yml", RESOURCE_SCHEMA),
        ("hooks/_ytt_lib/queue/configmap.yml", RESOURCE_TEMPLATE),
        ("hooks/main.yml", caller),
    ];
    let lint = Repo::of(&files).lint();
    let unused: Vec<&str> = lint
        .of("data-value-unused")
        .iter()
        .map(|d| str_of(d, "message"))
        .collect();
    assert!(
        unused.iter().any(|m| m.starts_with("data value kind ")),
        "{lint}"
    );
}

/// A broker's Deployment: reads the values file's keys, the registry user the environment
/// gives, and a pull secret's name that nothing gives.
const BROKER: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: broker\nspec:\n  replicas: #@ data.values.broker.replicas\n  selector:\n    matchLabels:\n      app: broker\n  template:\n    metadata:\n      labels:\n        app: broker\n    spec:\n      imagePullSecrets:\n      - name: #@ data.values.vendor.pull_secret_name\n      containers:\n      - name: broker\n        image: #@ data.values.registry.server + \"/broker:1.0\"\n";

const BROKER_VALUES: &str = "#@data/values\n---\nregistry:\n  server: registry.example.org\n  username: \"\"\n  password: \"\"\nbroker:\n  replicas: 3\n";

const BROKER_SCRIPT: &str = "#!/usr/bin/env bash\nset -eu\ncd \"$(dirname \"$0\")\"\nytt -f ./templates/cluster.yaml -f ./values/common.yaml --data-values-env CFG | kapp deploy -a broker -f- -y\n";

#[test]
fn the_environment_files_name_what_data_values_env_gives() {
    // LR16A-2: `--data-values-env CFG` gets the environment's `CFG_…` variables; the
    // repository's direnv files set `CFG_registry__username` and (in the template of the
    // reader's secrets file) `CFG_registry__password`, nothing else. ytt, run with those,
    // fails on `data.values.vendor`: a warning naming the files (before: a needs-input note,
    // as if any key could come from the environment).
    let envrc = (
        ".envrc",
        "source_env_if_exists .envrc.secrets\nexport CFG_registry__username=deployer\n",
    );
    let secrets = (
        ".envrc.secrets.template",
        "# copy to .envrc.secrets and fill in\nexport CFG_registry__password=\n",
    );
    let files = [
        envrc,
        secrets,
        ("values/common.yaml", BROKER_VALUES),
        ("templates/cluster.yaml", BROKER),
        ("deploy.sh", BROKER_SCRIPT),
    ];
    let lint = Repo::of(&files).lint();
    let failed = lint.of("template-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert!(str_of(failed[0], "message").contains(".vendor"), "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
    assert!(
        crate::util::json::assumption_kinds(failed[0]).contains(&"environment-files"),
        "{lint}"
    );
    let assumed = crate::util::json::assumption_text(failed[0]);
    assert!(assumed.contains("`.envrc`"), "{assumed}");
    assert!(lint.of("needs-input").is_empty(), "{lint}");

    // Without environment files, any key may come from the environment: a note, as before.
    let files = [
        ("values/common.yaml", BROKER_VALUES),
        ("templates/cluster.yaml", BROKER),
        ("deploy.sh", BROKER_SCRIPT),
    ];
    let lint = Repo::of(&files).lint();
    assert!(lint.of("template-error").is_empty(), "{lint}");
    assert_eq!(lint.of("needs-input").len(), 1, "{lint}");
}
