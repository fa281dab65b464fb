//! End-to-end: data values, overlays and private libraries on the `webapp` fixture, rendered by
//! the built binary as `ytt template` renders them.

use std::process::Command;

fn yttlint(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .arg("template")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run yttlint");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const APP: &str = "fixtures/demo-repo/webapp";

#[test]
fn defaults_overlay_and_private_library() {
    let (ok, out, err) = yttlint(&["-f", APP]);
    assert!(ok, "{err}");
    assert!(out.contains("  replicas: 2\n"), "{out}");
    assert!(out.contains("            memory: 256Mi\n"), "{out}");
    assert!(
        out.contains("kind: ServiceMonitor\nmetadata:\n  name: webapp\n"),
        "{out}"
    );
    assert!(out.contains("  - interval: 30s\n"), "{out}");
}

#[test]
fn values_files_and_flags_override_in_order() {
    let (ok, out, err) = yttlint(&[
        "-f",
        APP,
        "--data-values-file",
        "fixtures/demo-repo/webapp-values/prod.yml",
        "-v",
        "image=registry.example.com/webapp:2.0.0",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("  replicas: 5\n"), "{out}");
    assert!(
        out.contains("image: registry.example.com/webapp:2.0.0\n"),
        "{out}"
    );
    assert!(!out.contains("ServiceMonitor"), "{out}");
}

#[test]
fn library_values_reach_the_private_library() {
    let (ok, out, err) = yttlint(&["-f", APP, "--data-value", "@monitoring:interval=10s"]);
    assert!(ok, "{err}");
    assert!(out.contains("  - interval: 10s\n"), "{out}");
}

#[test]
fn values_for_a_library_nobody_evaluates_are_an_error() {
    let (ok, _, err) = yttlint(&["-f", APP, "-v", "@missing:x=1"]);
    assert!(!ok);
    assert!(
        err.contains("Expected all provided library data values documents to be used"),
        "{err}"
    );
}

#[test]
fn plus_prefix_of_spec_004_is_accepted() {
    let (ok, out, err) = yttlint(&[
        "-f",
        APP,
        "--data-values-file",
        "+:fixtures/demo-repo/webapp-values/prod.yml",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("  replicas: 5\n"), "{out}");
}

#[test]
fn unknown_data_value_in_an_overlay_is_reported_with_positions() {
    let (ok, _, err) = yttlint(&[
        "-f",
        APP,
        "--data-value-yaml",
        "monitoring.enabled=true",
        "--data-values-inspect",
    ]);
    assert!(ok, "{err}");
    let dir = std::env::temp_dir().join(format!("yttlint-dv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("more.yml");
    std::fs::write(&file, "#@data/values\n---\nreplicass: 3\n").expect("write");
    let (ok, _, err) = yttlint(&["-f", APP, "-f", file.to_str().expect("utf8 path")]);
    assert!(!ok);
    assert!(
        err.contains("Map item (key 'replicass') on line more.yml:3"),
        "{err}"
    );
    assert!(
        err.contains("Expected number of matched nodes to be 1, but was 0"),
        "{err}"
    );
}

#[test]
fn a_value_of_the_wrong_type_is_reported_where_it_was_set() {
    let typed = "fixtures/demo-repo/typed";
    let (ok, out, err) = yttlint(&["-f", typed, "-v", "replicas=3"]);
    assert!(!ok, "{out}");
    assert!(err.contains("(data-value arg):"), "{err}");
    assert!(err.contains("  1 | replicas=3"), "{err}");
    assert!(err.contains("expected: integer (by schema.yml:3)"), "{err}");

    let (ok, _, err) = yttlint(&[
        "-f",
        typed,
        "--data-values-file",
        "fixtures/demo-repo/typed-bad-values.yml",
    ]);
    assert!(!ok);
    assert!(err.contains("typed-bad-values.yml:"), "{err}");
    assert!(err.contains("  1 | replicas: \"three\""), "{err}");

    let (ok, out, err) = yttlint(&["-f", typed, "--data-value-yaml", "replicas=3"]);
    assert!(ok, "{err}");
    assert_eq!(out, "replicas: 3\n");
}
