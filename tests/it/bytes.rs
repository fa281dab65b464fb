//! Bytes stay bytes (issue 13): invalid UTF-8 in a template or a values file is ytt's error at
//! the offending byte, not U+FFFD; `data.read` of a binary file keeps its bytes for
//! `base64.encode`, `md5.sum` and `sha256.sum` (the digests below are coreutils' for the same
//! bytes).

use std::path::PathBuf;
use std::process::{Command, Output};

const BINARY: &[u8] = b"\x00\xff\xfe\xc3\x28abc\xe2\x82";

fn repo(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yttlint-bytes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(dir.join(".yttlint.yaml"), "").unwrap();
    dir
}

fn yttlint(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn data_read_of_a_binary_file_keeps_its_bytes() {
    let dir = repo("read");
    std::fs::write(dir.join("config/bin.dat"), BINARY).unwrap();
    std::fs::write(
        dir.join("config/t.yml"),
        concat!(
            "#@ load(\"@ytt:data\", \"data\")\n",
            "#@ load(\"@ytt:base64\", \"base64\")\n",
            "#@ load(\"@ytt:md5\", \"md5\")\n",
            "#@ load(\"@ytt:sha256\", \"sha256\")\n",
            "#@ raw = data.read(\"bin.dat\")\n",
            "b64: #@ base64.encode(raw)\n",
            "md5: #@ md5.sum(raw)\n",
            "sha: #@ sha256.sum(raw)\n",
            "roundtrip: #@ base64.decode(base64.encode(raw)) == raw\n",
            "len: #@ len(raw)\n",
        ),
    )
    .unwrap();
    let out = yttlint(&dir, &["template", "-f", "config"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        "b64: AP/+wyhhYmPigg==\nmd5: 3035a07c277d10b39eb88ac9f63de40a\nsha: 95180ef64a92efaa989785eeb405e6c599e0c16cfd15f6649375460423aa1201\nroundtrip: true\nlen: 10\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_utf8_in_a_template_is_an_error_at_the_byte() {
    let dir = repo("template");
    std::fs::write(dir.join("config/t.yml"), b"a: #@ 1\nb: x\xff\n").unwrap();
    let out = yttlint(&dir, &["template", "-f", "config"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "ytt: Error: Unmarshaling YAML template 't.yml': yaml: invalid leading UTF-8 octet"
    );
    let lint = yttlint(&dir, &["--format", "json"]);
    assert_eq!(lint.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&lint.stdout).unwrap();
    let d = &report["diagnostics"][0];
    assert_eq!(d["rule"], "yaml-syntax");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64(), d["column"].as_u64()),
        (Some("config/t.yml"), Some(2), Some(5))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_utf8_in_a_values_file_is_an_error() {
    let dir = repo("values");
    std::fs::write(
        dir.join("config/t.yml"),
        "#@ load(\"@ytt:data\", \"data\")\nx: #@ data.values.x\n",
    )
    .unwrap();
    std::fs::write(dir.join("config/v.yml"), "#@data/values\n---\nx: 1\n").unwrap();
    std::fs::write(dir.join("prod.yml"), b"x: \xc3\n").unwrap();
    let out = yttlint(
        &dir,
        &["template", "-f", "config", "--data-values-file", "prod.yml"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "Unmarshaling YAML data values file 'prod.yml': yaml: invalid trailing UTF-8 octet"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(
        dir.join(".yttlint.yaml"),
        "roots:\n  - path: config\n    scenarios:\n      - name: prod\n        values_files: [prod.yml]\n",
    )
    .unwrap();
    let lint = yttlint(&dir, &["--format", "json"]);
    assert_eq!(lint.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&lint.stdout).contains("invalid trailing UTF-8 octet"));
    let _ = std::fs::remove_dir_all(&dir);
}
