//! Bytes stay bytes (issue 13): invalid UTF-8 in a template or a values file is ytt's error at
//! the offending byte, not U+FFFD; `data.read` of a binary file keeps its bytes for
//! `base64.encode`, `md5.sum` and `sha256.sum` (the digests below are coreutils' for the same
//! bytes).

use crate::util::json::diagnostics;
use crate::util::{template, yttlint, TempDir};

const BINARY: &[u8] = b"\x00\xff\xfe\xc3\x28abc\xe2\x82";

/// A repository with an empty configuration.
fn repo() -> TempDir {
    TempDir::with_files(&[(".yttlint.yaml", "")])
}

#[test]
fn data_read_of_a_binary_file_keeps_its_bytes() {
    let dir = repo();
    dir.write("config/bin.dat", BINARY);
    dir.write(
        "config/t.yml",
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
    );
    let out = template(&dir, &["-f", "config"]);
    assert_eq!(
        out.stdout,
        "b64: AP/+wyhhYmPigg==\nmd5: 3035a07c277d10b39eb88ac9f63de40a\nsha: 95180ef64a92efaa989785eeb405e6c599e0c16cfd15f6649375460423aa1201\nroundtrip: true\nlen: 10\n",
        "{}",
        out.stderr
    );
}

#[test]
fn invalid_utf8_in_a_template_is_an_error_at_the_byte() {
    let dir = repo();
    dir.write("config/t.yml", b"a: #@ 1\nb: x\xff\n");
    let out = template(&dir, &["-f", "config"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr.trim(),
        "ytt: Error: Unmarshaling YAML template 't.yml': yaml: invalid leading UTF-8 octet"
    );
    let lint = yttlint(&dir, &["--format", "json"]);
    assert_eq!(lint.code, 1);
    let report = lint.json();
    let d = &diagnostics(&report)[0];
    assert_eq!(d["rule"], "yaml-syntax");
    assert_eq!(
        (d["file"].as_str(), d["line"].as_u64(), d["column"].as_u64()),
        (Some("config/t.yml"), Some(2), Some(5))
    );
}

#[test]
fn invalid_utf8_in_a_values_file_is_an_error() {
    let dir = repo();
    dir.write(
        "config/t.yml",
        "#@ load(\"@ytt:data\", \"data\")\nx: #@ data.values.x\n",
    );
    dir.write("config/v.yml", "#@data/values\n---\nx: 1\n");
    dir.write("prod.yml", b"x: \xc3\n");
    let out = template(&dir, &["-f", "config", "--data-values-file", "prod.yml"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(
            "Unmarshaling YAML data values file 'prod.yml': yaml: invalid trailing UTF-8 octet"
        ),
        "{}",
        out.stderr
    );
    dir.write(
        ".yttlint.yaml",
        "roots:\n  - path: config\n    scenarios:\n      - name: prod\n        values_files: [prod.yml]\n",
    );
    let lint = yttlint(&dir, &["--format", "json"]);
    assert_eq!(lint.code, 1);
    assert!(lint.stdout.contains("invalid trailing UTF-8 octet"));
}
