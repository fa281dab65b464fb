//! A map of very many keys in one plain YAML file: its repeated keys are found by hash, so the
//! copy of the file takes time in proportion to it (the pairwise search of every key against
//! the ones before it took about 19 s for 60 000 keys, and would take minutes for 200 000).

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::bin::command;
use crate::util::temp::TempDir;

/// Keys of the map: enough that a pairwise search takes minutes.
const KEYS: usize = 200_000;

#[test]
#[ignore = "stress: a 200 000-key map, about a second; the pairwise search took minutes"]
fn a_map_of_200_000_keys_renders_in_bounded_time() {
    let mut text = String::with_capacity(KEYS * 20);
    for i in 0..KEYS {
        text.push_str(&format!("key_{i}: {i}\n"));
    }
    // One key repeated at the end: the search runs to it and keeps its last value.
    text.push_str("key_7: last\n");
    let dir = TempDir::new();
    dir.write("big.yml", &text);
    let mut child = command(&dir)
        .args(["template", "-f", "big.yml"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("yttlint starts");
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).map(|_| s)
    });
    let start = Instant::now();
    let limit = Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a map of {KEYS} keys took more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    let out = reader.join().expect("reader").expect("output");
    assert_eq!(out.lines().count(), KEYS);
    assert_eq!(out.lines().nth(7), Some("key_7: last"));
    assert_eq!(
        out.lines().last(),
        Some(format!("key_{}: {}", KEYS - 1, KEYS - 1).as_str())
    );
}
