//! Round twenty-four's constructs, each on a minimal repository written for the test: a page's
//! placeholder folder in the middle of a `-f` path (`deploy/<SITE>/values.yaml`) stands for
//! each folder that holds the file, not for the folder before it (R24-2); a Kubernetes format
//! check of a placeholder a page's `-v` flag gives is a note (R24-4); a blank whose stand-in
//! value fails a later check of the same code is a note (R24-3); a values file decrypted with
//! `sops -d` has the committed file's keys, so a schema's key the file lacks fails whatever
//! it decrypts to (R24-1).

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

/// An example values file that leaves two secrets blank, and a library that checks that each
/// is given and that one has 32 characters; the template loads it by its absolute path, so
/// either failure is the load's, at the same line (round twenty-four's R24-3).
const CHECKS: &str = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\n\ndef check():\n  data.values.password or assert.fail(\"the password should be provided\")\n  data.values.key or assert.fail(\"the key should be provided\")\n  len(data.values.key) == 32 or assert.fail(\"the key must be 32 characters long\")\nend\n\nvalues = data.values\nfor c in [check]:\n  c()\nend\n";

#[test]
fn a_blank_whose_stand_in_value_fails_a_later_check_is_still_the_user_s_to_fill() {
    let files = [
        ("templates/values.star", CHECKS),
        (
            "templates/secret.yaml",
            "#@ load(\"/values.star\", \"values\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: #@ values.key\n",
        ),
        ("templates/defaults.yaml", "#@data/values\n---\npassword: \"\"\nkey: \"\"\n"),
        (
            "install/values.yaml.example",
            "#@data/values\n---\n#! [Required] the admin password\npassword:\n#! [Required] 32 characters\nkey:\n",
        ),
        (
            "install/README.md",
            "# Install\n\n```sh\ncp values.yaml.example values.yaml\n```\n\nFill in the secrets, then:\n\n```sh\nytt -f ../templates -f values.yaml\n```\n",
        ),
    ];
    let repo = Repo::of(&files);
    let lint = repo.lint();
    let failed = lint.of("load-error");
    assert_eq!(failed.len(), 1, "{lint}");
    // The stand-in value gets past "should be provided"; the length check it then fails is
    // the stand-in's, not the user's.
    assert_eq!(str_of(failed[0], "severity"), "info", "{lint}");
    assert!(
        str_of(failed[0], "message").contains("the password should be provided"),
        "{lint}"
    );

    // A check that fails before the blanks are read, whatever the user gives, stays a warning.
    let always = CHECKS.replace(
        "def check():\n",
        "def check():\n  data.values.missing_ok or assert.fail(\"always\")\n",
    );
    let mut files = files.to_vec();
    files[0] = ("templates/values.star", always.as_str());
    let lint = Repo::of(&files).lint();
    let failed = lint.of("load-error");
    assert_eq!(failed.len(), 1, "{lint}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lint}");
}

/// A committed file in sops's format: its keys in plain text, its values encrypted (the
/// ciphertexts here are made up; sops writes `ENC[…]` with the value's type), and sops's
/// metadata under `sops:`.
fn sops_file(keys: &[&str]) -> String {
    let mut text = String::from("creds:\n");
    for k in keys {
        text.push_str(&format!(
            "    {k}: ENC[AES256_GCM,data:c3RhbmQ=,iv:AAAA,tag:AAAA==,type:str]\n"
        ));
    }
    text.push_str("sops:\n    age:\n        - recipient: age1example\n    lastmodified: \"2026-11-30T00:00:00Z\"\n    mac: ENC[AES256_GCM,data:AAAA,iv:AAAA,tag:AAAA==,type:str]\n    version: 3.7.3\n");
    text
}

#[test]
fn a_key_the_sops_file_lacks_fails_whatever_it_decrypts_to() {
    let schema = "#@data/values-schema\n---\ncreds:\n  #@schema/validation min_len=1\n  token: \"\"\n  #@schema/validation min_len=1\n  user: \"\"\n";
    let secret = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  user: #@ data.values.creds.user\n  token: #@ data.values.creds.token\n";
    let script = "#!/usr/bin/env bash\nset -euo pipefail\nkubectl apply -f <(ytt -f config --data-values-file creds.yaml=<(sops -d secrets/creds.sops.yaml))\n";
    let lint = |keys: &[&str]| {
        let sops = sops_file(keys);
        Repo::of(&[
            ("config/schema.yaml", schema),
            ("config/secret.yaml", secret),
            ("secrets/creds.sops.yaml", sops.as_str()),
            ("deploy.sh", script),
        ])
        .lint()
    };
    // The file has no `token`: its default "" fails `min_len=1` whatever `user` decrypts to.
    let lacking = lint(&["user"]);
    let failed = lacking.of("required-value");
    assert_eq!(failed.len(), 1, "{lacking}");
    assert_eq!(str_of(failed[0], "severity"), "warning", "{lacking}");
    assert!(
        str_of(failed[0], "message")
            .starts_with("Validating final data values: creds.token (from: "),
        "{lacking}"
    );
    let assumed = failed[0]["certainty"]["assumptions"].to_string();
    assert!(assumed.contains("decrypted-values"), "{assumed}");
    assert!(
        assumed.contains("`sops -d secrets/creds.sops.yaml`"),
        "{assumed}"
    );
    assert!(lacking.of("needs-input").is_empty(), "{lacking}");

    // With both keys in the file, the encrypted values are the user's: nothing to report.
    let both = lint(&["user", "token"]);
    assert!(both.of("required-value").is_empty(), "{both}");
    let reported: Vec<_> = both
        .diagnostics()
        .iter()
        .filter(|d| str_of(d, "severity") != "info")
        .collect();
    assert!(reported.is_empty(), "{both}");
}
