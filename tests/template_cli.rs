//! End-to-end: the built binary renders the demo library like `ytt template` and reports
//! template errors like ytt.

use std::process::Command;

fn yttlint(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run yttlint")
}

#[test]
fn renders_demo_library() {
    let out = yttlint(&["template", "-f", "fixtures/demo-repo/config"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("managed-by: yttlint-demo"), "{stdout}");
    assert!(
        stdout.contains("  - name: https\n    port: 443\n"),
        "{stdout}"
    );
}

#[test]
fn undefined_variable_points_at_template_line() {
    let dir = std::env::temp_dir().join(format!("yttlint-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("t.yml");
    std::fs::write(&file, "a: 1\nb: #@ missing\n").expect("write");
    let out = yttlint(&["template", "-f", file.to_str().expect("utf8 path")]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("ytt: Error: \n- undefined: missing"),
        "{stderr}"
    );
    assert!(stderr.contains("t.yml:2 | b: #@ missing"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lint_reports_ok_library() {
    let out = yttlint(&["fixtures/demo-repo/config"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn emptied_output_directory_replaces_what_was_there() {
    let dir = std::env::temp_dir().join(format!("yttlint-e2e-outdir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("stale")).expect("mkdir");
    std::fs::write(dir.join("stale/old.yml"), "old: true\n").expect("write");
    let target = dir.to_str().expect("utf8 path");
    let flag = format!("--dangerous-emptied-output-directory={target}");
    let out = yttlint(&["template", "-f", "fixtures/demo-repo/config", &flag]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout, format!("creating: {target}/app.yml\n"));
    assert!(!dir.join("stale").exists());
    let app = std::fs::read_to_string(dir.join("app.yml")).expect("written");
    assert!(app.contains("managed-by: yttlint-demo"), "{app}");
    // Paths that look like a mistake are refused before anything is removed.
    let out = yttlint(&[
        "template",
        "-f",
        "fixtures/demo-repo/config",
        "--dangerous-emptied-output-directory=.",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("Expected output directory path to not be one of '/', '.', './', ''"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn integers_beyond_int64_stay_integers_as_in_ytt() {
    let dir = std::env::temp_dir().join(format!("yttlint-e2e-uint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("t.yml");
    std::fs::write(
        &file,
        "#@ load(\"@ytt:json\", \"json\")\nbig: #@ 9562462857348323147\nsum: #@ 9223372036854775807 + 1\njson: #@ json.encode(18446744073709551615)\n",
    )
    .expect("write");
    let out = yttlint(&["template", "-f", file.to_str().expect("utf8 path")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "big: 9562462857348323147\nsum: 9223372036854775808\njson: \"18446744073709551615\"\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
