//! The language server is as bounded as the command line (issue 40): a template nested too
//! deeply for the native stack, a root that doubles a list until memory runs out and a root
//! that loops for minutes are each their root's finding, the server answers on, and the other
//! roots' diagnostics come as fast as ever; a frame the editor sends garbled (an absurd
//! `Content-Length`, garbage, a request that is not one) is skipped or answered.

use super::*;

/// A repository whose `.yttlint.yaml` lists one root per `(directory, template)`.
fn roots(roots: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new();
    let mut config = String::from("roots:\n");
    for (root, template) in roots {
        dir.write(&format!("{root}/t.yml"), template);
        dir.write(&format!("{root}/other.yml"), "other: 1\n");
        config.push_str(&format!("  - path: {root}\n"));
    }
    dir.write(".yttlint.yaml", config);
    dir
}

/// The rules published for `path`, from now on or stashed, once `pred` accepts them.
fn rules_of(c: &mut Client, path: &Path, pred: impl Fn(&[String]) -> bool) -> Vec<String> {
    let p = c.diagnostics(&uri(path), |p| pred(&codes(p)));
    codes(&p)
}

/// The peak resident memory of process `pid`, in MiB.
fn peak_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap()
        >> 10
}

#[test]
fn a_template_nested_100_000_deep_is_its_roots_finding() {
    let n = 100_000;
    let deep = format!("#@ x = {}{}\na: 1\n", "[".repeat(n), "]".repeat(n));
    let dir = roots(&[("app", &deep)]);
    let mut c = Client::start(&dir);
    // Opening another file of the root lints the root.
    let other = dir.join("app/other.yml");
    c.open(&other, "other: 1\n");
    let found = rules_of(&mut c, &dir.join("app/t.yml"), |r| !r.is_empty());
    assert_eq!(found, ["limit-exceeded"]);
    // The server answers on.
    assert_eq!(c.at("textDocument/hover", &other, 0, 0), Value::Null);
    assert_eq!(c.finish(), 0);
}

#[test]
#[cfg(target_os = "linux")]
fn a_memory_bomb_is_its_roots_finding() {
    let bomb = format!("#@ l = [1]\n{}a: #@ len(l)\n", "#@ l = l + l\n".repeat(40));
    let dir = roots(&[
        ("bomb1", &bomb),
        ("bomb2", &bomb),
        (
            "healthy",
            "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.missing\n",
        ),
    ]);
    let mut c = Client::start_with(&dir, &["--memory-limit", "512M"]);
    for root in ["bomb1", "bomb2", "healthy"] {
        c.open(
            &dir.join(format!("{root}/t.yml")),
            &std::fs::read_to_string(dir.join(format!("{root}/t.yml"))).unwrap(),
        );
    }
    for root in ["bomb1", "bomb2"] {
        let found = rules_of(&mut c, &dir.join(format!("{root}/t.yml")), |r| {
            !r.is_empty()
        });
        assert_eq!(found, ["limit-exceeded"], "{root}");
    }
    let healthy = rules_of(&mut c, &dir.join("healthy/t.yml"), |r| !r.is_empty());
    assert_eq!(healthy, ["template-error"]);
    // Each job thread stopped within its share of the 512 MiB.
    let peak = peak_mib(c.child.id());
    assert!(peak < 900, "the server's peak: {peak} MiB");
    assert_eq!(c.finish(), 0);
}

/// A loop of 10^10 steps: it runs until the step or time limit (minutes).
const SPIN: &str = "#@ def spin():\n#@   n = 0\n#@   for i in range(100000):\n#@     for j in range(100000):\n#@       n += 1\n#@     end\n#@   end\n#@   return n\n#@ end\na: #@ spin()\n";

#[test]
fn a_slow_root_does_not_hold_back_the_others() {
    let dir = roots(&[
        ("slow", SPIN),
        (
            "fast",
            "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.missing\n",
        ),
        ("fast2", "b: #@ 1 +\n"),
    ]);
    let mut c = Client::start(&dir);
    c.open(&dir.join("slow/t.yml"), SPIN);
    std::thread::sleep(Duration::from_millis(500));
    // Two edits of other roots while the slow one runs: both are linted at once.
    let started = Instant::now();
    let fast = std::fs::read_to_string(dir.join("fast/t.yml")).unwrap();
    c.open(&dir.join("fast/t.yml"), &fast);
    c.open(&dir.join("fast2/t.yml"), "b: #@ 1 +\n");
    assert!(!rules_of(&mut c, &dir.join("fast/t.yml"), |r| !r.is_empty()).is_empty());
    assert_eq!(
        rules_of(&mut c, &dir.join("fast2/t.yml"), |r| !r.is_empty()),
        ["template-error"]
    );
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "the other roots waited {took:?}"
    );
    // The slow root has published nothing yet: it is still running.
    let slow_published = c.notes.iter().any(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri(&dir.join("slow/t.yml"))
    });
    assert!(!slow_published);
    assert_eq!(c.finish(), 0);
}

#[test]
fn framing_errors_are_skipped_and_garbled_requests_answered() {
    let dir = TempDir::copy_of("lsp");
    let file = dir.join(DEPLOYMENT);
    let mut c = Client::start(&dir);
    let text = std::fs::read_to_string(&file).unwrap();
    c.open(&file, &text);
    // A length of 10^13 bytes, then garbage without a header, then a header that is not one.
    c.stdin
        .write_all(b"Content-Length: 10000000000000\r\n\r\n{\"jsonrpc\": \"2.0\"")
        .unwrap();
    c.stdin.write_all(b"\x00\xff garbage \r\n\r\n\r\n").unwrap();
    c.stdin
        .write_all(b"Content-Length: twelve\r\n\r\n{}")
        .unwrap();
    // A request whose method is not a string: answered with an error, by its id.
    let body = br#"{"jsonrpc":"2.0","id":4242,"method":17}"#;
    write!(c.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
    c.stdin.write_all(body).unwrap();
    c.stdin.flush().unwrap();
    let deadline = Instant::now() + WAIT;
    let answer = loop {
        let m = c.next(deadline);
        if m["id"] == 4242 {
            break m;
        }
        c.notes.push(m);
    };
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    // The skipped frames are said in the editor's log.
    let skipped = c
        .notes
        .iter()
        .filter(|m| {
            m["method"] == "window/logMessage"
                && m["params"]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("skipped a message")
        })
        .count();
    assert!(skipped >= 2, "{:?}", c.notes);
    // And the server answers on.
    let (l, ch) = find(&text, "data.values.app.port", 17);
    let h = c.at("textDocument/hover", &file, l, ch);
    assert!(h["contents"]["value"].as_str().unwrap().contains("integer"));
    assert_eq!(c.finish(), 0);
}
