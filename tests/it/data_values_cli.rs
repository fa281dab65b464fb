//! End-to-end: data values, overlays and private libraries on the `webapp` fixture, rendered by
//! the built binary as `ytt template` renders them.

use crate::util::{repo_root, template, Run, TempDir};

/// `yttlint template ARGS` from the repository's root.
fn render(args: &[&str]) -> Run {
    template(repo_root(), args)
}

const APP: &str = "fixtures/demo-repo/webapp";

#[test]
fn defaults_overlay_and_private_library() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(&["-f", APP]);
    assert_eq!(code, 0, "{err}");
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
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(&[
        "-f",
        APP,
        "--data-values-file",
        "fixtures/demo-repo/webapp-values/prod.yml",
        "-v",
        "image=registry.example.com/webapp:2.0.0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  replicas: 5\n"), "{out}");
    assert!(
        out.contains("image: registry.example.com/webapp:2.0.0\n"),
        "{out}"
    );
    assert!(!out.contains("ServiceMonitor"), "{out}");
}

#[test]
fn library_values_reach_the_private_library() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(&["-f", APP, "--data-value", "@monitoring:interval=10s"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  - interval: 10s\n"), "{out}");
}

#[test]
fn values_for_a_library_nobody_evaluates_are_an_error() {
    let Run {
        code, stderr: err, ..
    } = render(&["-f", APP, "-v", "@missing:x=1"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("Expected all provided library data values documents to be used"),
        "{err}"
    );
}

#[test]
fn plus_prefix_of_spec_004_is_accepted() {
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(&[
        "-f",
        APP,
        "--data-values-file",
        "+:fixtures/demo-repo/webapp-values/prod.yml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  replicas: 5\n"), "{out}");
}

#[test]
fn unknown_data_value_in_an_overlay_is_reported_with_positions() {
    let Run {
        code, stderr: err, ..
    } = render(&[
        "-f",
        APP,
        "--data-value-yaml",
        "monitoring.enabled=true",
        "--data-values-inspect",
    ]);
    assert_eq!(code, 0, "{err}");
    let dir = TempDir::new();
    let file = dir.write("more.yml", "#@data/values\n---\nreplicass: 3\n");
    let Run {
        code, stderr: err, ..
    } = render(&["-f", APP, "-f", file.to_str().expect("utf8 path")]);
    assert_ne!(code, 0);
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
    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(&["-f", typed, "-v", "replicas=3"]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("(data-value arg):"), "{err}");
    assert!(err.contains("  1 | replicas=3"), "{err}");
    assert!(err.contains("expected: integer (by schema.yml:3)"), "{err}");

    let Run {
        code, stderr: err, ..
    } = render(&[
        "-f",
        typed,
        "--data-values-file",
        "fixtures/demo-repo/typed-bad-values.yml",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("typed-bad-values.yml:"), "{err}");
    assert!(err.contains("  1 | replicas: \"three\""), "{err}");

    let Run {
        code,
        stdout: out,
        stderr: err,
    } = render(&["-f", typed, "--data-value-yaml", "replicas=3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "replicas: 3\n");
}
