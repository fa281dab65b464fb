//! ytt's structs do not freeze what they hold: a list or dict reached through `data.values` or
//! through a loaded module's `struct.make()` can be changed by the file that reads it, and
//! another file still sees the values as they were (round eleven's FE11-C1: the TKG
//! extensions' dex certificate appends a host to `data.values.dns.aws.dnsNames`). A list held by
//! a module's global directly stays frozen. The expected outputs are what ytt (built from
//! carvel-dev/ytt's source, 2026-11-28) printed for the same files.

use crate::util::{template, TempDir};

const VALUES: &str = "#@data/values\n---\ndns:\n  names: [one]\n  extra: two\nmatrix:\n- [1]\n";

const HELPERS: &str = r#"load("@ytt:data", "data")
load("@ytt:struct", "struct")
values = data.values
defaults = struct.make(ports=[80], sub=struct.make(opts={"a": 1}))
frozen = [1]
def all_names():
  names = values.dns.names
  names.append(values.dns.extra)
  return names
end
"#;

#[test]
fn lists_and_dicts_read_out_of_structs_can_be_changed() {
    let dir = TempDir::with_files(&[
        ("values.yml", VALUES),
        ("helpers.star", HELPERS),
        (
            "a.yml",
            r#"#@ load("@ytt:data", "data")
#@ load("helpers.star", "all_names", "defaults")
#@ ports = defaults.ports
#@ ports.append(443)
#@ opts = defaults.sub.opts
#@ opts["b"] = 2
#@ row = data.values.matrix[0]
#@ row.append(2)
---
names: #@ all_names()
ports: #@ ports
opts: #@ opts
row: #@ row
"#,
        ),
        (
            "b.yml",
            r#"#@ load("@ytt:data", "data")
#@ load("helpers.star", "defaults")
---
names: #@ data.values.dns.names
ports: #@ defaults.ports
"#,
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ytt = "names:\n- one\n- two\nports:\n- 80\n- 443\nopts:\n  a: 1\n  b: 2\nrow:\n- 1\n- 2\n---\nnames:\n- one\nports:\n- 80\n";
    assert_eq!(run.stdout, ytt);
}

#[test]
fn a_list_a_module_holds_directly_stays_frozen() {
    let dir = TempDir::with_files(&[
        ("values.yml", VALUES),
        ("helpers.star", HELPERS),
        (
            "t.yml",
            "#@ load(\"helpers.star\", \"frozen\")\n#@ frozen.append(2)\n---\nf: #@ frozen\n",
        ),
    ]);
    let run = template(&dir, &["-f", "."]);
    // ytt: "append: cannot append to frozen list" at t.yml:2.
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stderr.contains("t.yml:2"), "{}", run.stderr);
}

#[test]
fn the_dex_certificate_pattern_lints_clean() {
    let dir = TempDir::with_files(&[
        ("config/values.yml", VALUES),
        (
            "config/cert.yml",
            r#"#@ load("@ytt:data", "data")
#@ def dns_names():
#@   names = data.values.dns.names
#@   names.append("dex." + data.values.dns.extra)
#@   return names
#@ end
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: dex-cert
  namespace: dex
spec:
  secretName: dex-cert-tls
  dnsNames: #@ dns_names()
  issuerRef:
    name: dex-ca-issuer
"#,
        ),
        ("render.sh", "#!/bin/sh\nytt -f config\n"),
    ]);
    let run = crate::util::yttlint(&dir, &["--no-cache", "--format", "json", "."]);
    assert!(
        !run.stdout.contains("template-error"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}
