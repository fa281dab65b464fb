//! Round twenty-seven's R27-3, on a minimal repository written for the test: an example values
//! file keeps an optional section commented out (`#! dns:` under `app:`), and a template only an
//! optional action of the install script renders reads it. With the example standing in for the
//! user's copy the read fails; with the copy, where the user uncomments the block for that
//! action, it does not: a note naming the commented-out key, not a warning. A read of a key the
//! block lacks even when restored stays a warning.

use crate::util::repo::Repo;

const EXAMPLE: &str = "app:\n  namespace: demo\n  #! Optional, only for `./install.sh dns`; uncomment and fill in:\n  #! dns:\n  #!   provider: google\n  #!   project:\n";
const INSTALL: &str = "#!/bin/bash\n# Copy config.yml.example to config.yml and fill it in.\nytt --data-values-file config.yml -f base | kubectl apply -f -\nfor arg in \"$@\"; do\n  case $arg in\n    dns)\n      ytt --data-values-file config.yml -f extras/dns | kubectl apply -f -\n      ;;\n  esac\ndone\n";
const BASE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: #@ data.values.app.namespace\n";

fn repo(dns: &str) -> Repo {
    Repo::of(&[
        ("config.yml.example", EXAMPLE),
        (".gitignore", "config.yml\n"),
        ("install.sh", INSTALL),
        ("base/namespace.yml", BASE),
        ("extras/dns/external-dns.yml", dns),
    ])
}

#[test]
fn a_key_the_example_leaves_commented_out_is_the_user_s_to_fill_in() {
    let dns = "#@ load(\"@ytt:data\", \"data\")\n#@ dns = data.values.app.dns\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: external-dns\n  namespace: #@ data.values.app.namespace\ndata:\n  provider: #@ dns.provider\n";
    let lint = repo(dns).lint();
    let found = lint.in_file("template-error", "extras/dns/external-dns.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "info", "{lint}");
    let assumed = found[0]["certainty"]["assumptions"].to_string();
    assert!(
        assumed.contains("leaves `app.dns` commented out (config.yml.example:4)"),
        "{assumed}"
    );
    assert_eq!(lint.code, 0, "{lint}");
}

#[test]
fn a_key_the_restored_block_lacks_stays_a_warning() {
    // The block, uncommented, holds `provider` and `project` but no `zone`.
    let dns = "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: external-dns\ndata:\n  zone: #@ data.values.app.dns.zone\n";
    let lint = repo(dns).lint();
    let found = lint.in_file("template-error", "extras/dns/external-dns.yml");
    assert_eq!(found.len(), 1, "{lint}");
    assert_eq!(found[0]["severity"], "warning", "{lint}");
}
