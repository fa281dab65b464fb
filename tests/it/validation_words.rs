//! A data value's failed validation is worded as ytt 0.48 words it ("Validating final data
//! values: PATH (from: FILE:LINE): must be: DESCRIPTION (by: FILE:LINE); found: WHY"), for a
//! given value (`data-value-violation`) and a default no input sets (`required-value`) alike;
//! "must be" is said once where the rule's own description says it. Minimal repros written
//! for the tests; ytt built from source (`/work/tools/ytt`) prints, for each, the lines
//! `replicas` / `from: values.yaml:4` / `- must be: must be positive (by: values.yaml:3)`.

use crate::util::json::str_of;
use crate::util::repo::Repo;

const TEMPLATE: (&str, &str) = (
    "config/cm.yaml",
    "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ data.values.replicas\n",
);

/// A script that renders the folder as it is, so its failures are certain errors.
const SCRIPT: (&str, &str) = ("build.sh", "#!/bin/sh\nytt -f config\n");

#[test]
fn an_assert_validate_failure_on_a_data_value_reads_as_ytt_s() {
    let repo = Repo::of(&[
        TEMPLATE,
        SCRIPT,
        (
            "config/values.yaml",
            "#@data/values\n---\n#@assert/validate (\"must be positive\", lambda v: v > 0)\nreplicas: 0\n",
        ),
    ]);
    let lint = repo.lint();
    let found = lint.of("data-value-violation");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        str_of(found[0], "message"),
        "Validating final data values: replicas (from: values.yaml:4): must be: must be positive (by: values.yaml:3)",
        "{lint}"
    );
}

#[test]
fn a_required_value_says_must_be_once_and_what_was_found() {
    let repo = Repo::of(&[
        TEMPLATE,
        SCRIPT,
        (
            "config/schema.yaml",
            "#@data/values-schema\n---\n#@schema/validation (\"must be positive\", lambda v: v > 0)\nreplicas: 0\n#@schema/validation min_len=3\nname: ab\n",
        ),
    ]);
    let lint = repo.lint();
    let mut said: Vec<&str> = lint
        .of("required-value")
        .iter()
        .map(|d| str_of(d, "message"))
        .collect();
    said.sort();
    assert_eq!(
        said,
        [
            "Validating final data values: name (from: schema.yaml:6): must be: length >= 3 (by: schema.yaml:5); found: length = 2",
            "Validating final data values: replicas (from: schema.yaml:4): must be: must be positive (by: schema.yaml:3)",
        ],
        "{lint}"
    );
    assert!(
        said.iter().all(|m| !m.contains("must be must be")),
        "{lint}"
    );
}

/// A value a committed sops file leaves unencrypted, decrypted in a process substitution
/// (`--data-values-file <(sops -d values.sops.yaml)`; round twenty-four's logankimmel/tap-gitops
/// case): ytt names the substitution's `/dev/fd/63` as `63` ("from: 63:4"; ytt `4b40e30` on
/// `<(cat values.yaml)`, exit 1), a path nobody can open, and the linter gives the value as a
/// flag, `(data-value-yaml arg):1`. The message names the committed file and the line of the
/// key there instead (session thirty-one, cmd31); the finding stays at the command.
#[test]
fn a_value_sops_leaves_unencrypted_is_said_to_come_from_the_committed_file() {
    let schema = "#@data/values-schema\n---\nsecrets:\n  git:\n    #@schema/nullable\n    ssh:\n      #@schema/validation min_len=1\n      private_key: \"\"\n      known_hosts: \"\"\n";
    let template = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: git\nstringData:\n  key: #@ data.values.secrets.git.ssh.private_key\n  hosts: #@ data.values.secrets.git.ssh.known_hosts\n";
    let sops = "secrets:\n    git:\n        ssh:\n            private_key: \"\"\n            known_hosts: ENC[AES256_GCM,data:c3RhbmQ=,iv:AAAA,tag:AAAA==,type:str]\nsops:\n    age:\n        - recipient: age1example\n    lastmodified: \"2026-11-30T00:00:00Z\"\n    mac: ENC[AES256_GCM,data:AAAA,iv:AAAA,tag:AAAA==,type:str]\n    version: 3.7.3\n";
    let script = "#!/usr/bin/env bash\nset -euo pipefail\nytt -f config --data-values-file <(sops -d values.sops.yaml) | kapp deploy -a sync -f- -y\n";
    let repo = Repo::of(&[
        ("config/schema.yaml", schema),
        ("config/secret.yaml", template),
        ("values.sops.yaml", sops),
        ("deploy.sh", script),
    ]);
    let lint = repo.lint();
    let found = lint.of("data-value-violation");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        str_of(found[0], "message"),
        "Validating final data values: secrets.git.ssh.private_key (from: values.sops.yaml:4): must be: length >= 1 (by: schema.yaml:7); found: length = 0",
        "{lint}"
    );
    assert_eq!(str_of(found[0], "file"), "deploy.sh", "{lint}");
    assert_eq!(found[0]["line"], 3, "{lint}");
    assert_eq!(str_of(found[0], "severity"), "warning", "{lint}");
    let assumed = found[0]["certainty"]["assumptions"].to_string();
    assert!(assumed.contains("decrypted-values"), "{assumed}");
}

/// The schema of the two tests below: a value with a choice, and a number.
const CHOICE: (&str, &str) = (
    "config/schema.yaml",
    "#@data/values-schema\n---\n#@schema/validation one_of=[\"ClusterIP\", \"LoadBalancer\"]\nservice_type: ClusterIP\n",
);
const CHOICE_TEMPLATE: (&str, &str) = (
    "config/svc.yaml",
    "#@ load(\"@ytt:data\", \"data\")\n---\ntype: #@ data.values.service_type\n",
);

/// A value a documented command gives with `--data-value` is that flag's, as ytt names it:
/// `ytt -f config --data-value service_type=Something` fails with "from: (data-value arg):1"
/// (ytt `4b40e30`, exit 1; ThomasVitale/carvel-demo's `05-ytt-overlays/README.md`, N33-2).
/// The linter used to give every learned value as `--data-value-yaml` and name it so.
#[test]
fn a_value_given_with_data_value_is_named_as_that_flag_s() {
    let script = (
        "build.sh",
        "#!/bin/sh\nytt -f config --data-value service_type=Something\n",
    );
    let repo = Repo::of(&[CHOICE, CHOICE_TEMPLATE, script]);
    let lint = repo.lint();
    let found = lint.of("data-value-violation");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(
        str_of(found[0], "message"),
        "Validating final data values: service_type (from: (data-value arg):1): must be: one of [\"ClusterIP\", \"LoadBalancer\"] (by: schema.yaml:3); found: not one of allowed values",
        "{lint}"
    );
}

/// ytt applies every `--data-value` before every `--data-value-yaml`, whatever their order on
/// the command line: `ytt -f config --data-value-yaml service_type=Something -v
/// service_type=LoadBalancer` fails on "Something", "from: (data-value-yaml arg):1" (ytt
/// `4b40e30`, exit 1). In command order the string would have won and the lint been clean.
#[test]
fn a_yaml_value_wins_over_a_string_value_given_after_it_as_in_ytt() {
    let script = (
        "build.sh",
        "#!/bin/sh\nytt -f config --data-value-yaml service_type=Something -v service_type=LoadBalancer\n",
    );
    let repo = Repo::of(&[CHOICE, CHOICE_TEMPLATE, script]);
    let lint = repo.lint();
    let found = lint.of("data-value-violation");
    assert_eq!(found.len(), 1, "{lint}");
    assert!(
        str_of(found[0], "message").contains("(from: (data-value-yaml arg):1)"),
        "{lint}"
    );
}
