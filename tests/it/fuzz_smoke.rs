//! The fuzz targets of `fuzz/` on stable Rust (issue 13, part 5; issue 29 added `invocations`
//! and `report_render`, whose XML reports are parsed back here as in its libFuzzer target):
//! each target's function (`yttlint::fuzzing`) runs over seeds taken from `fixtures/` (fixture
//! files; whole fixture repositories for `invocations`; a report over each small YAML fixture
//! for `report_render`, as `fuzz/seed.sh` makes them) and then over deterministic
//! mutations of them (bit flips, ytt tokens inserted, ranges deleted, duplicated and spliced)
//! within a time budget (at most 30 s and 20 000 inputs a target by default;
//! `YTTLINT_FUZZ_SECS=3600` runs an hour in all). A panic fails the test
//! and the input is saved under `target/fuzz-failures/` to become a regression test.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use yttlint::fuzzing::{check_reports, rendered_reports, Rendered, TARGETS};

use crate::util::{repo_root, template, TempDir};

/// Tokens the mutations insert: the syntax ytt and YAML care about.
const TOKENS: &[&[u8]] = &[
    b"#@ ",
    b"#@",
    b"#! ",
    b": ",
    b"\n",
    b"  ",
    b"- ",
    b"---\n",
    b"[",
    b"]",
    b"{",
    b"}",
    b"(@",
    b"@)",
    b"(@=",
    b"end",
    b"def f():",
    b"if ",
    b"for x in ",
    b"\"",
    b"'",
    b"&a ",
    b"*a",
    b"!!binary ",
    b"|\n",
    b">-\n",
    b"load(\"@ytt:data\", \"data\")",
    b"data.values",
    b"#@overlay/match by=",
    b"#@data/values\n",
    b"#@schema/validation ",
    b"$.spec",
    b"\\",
    b"\t",
    b"\xff",
    b"\xc3",
    b"0x",
    b"1e9",
    b"~",
    b"\x00",
];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, t.iter().copied());
            }
            2 if !out.is_empty() => {
                let end = (at + rng.below(32)).min(out.len());
                out.drain(at.min(end)..end);
            }
            3 if !out.is_empty() => {
                let start = rng.below(out.len());
                let end = (start + rng.below(64)).min(out.len());
                let piece: Vec<u8> = out[start..end].to_vec();
                out.splice(at..at, piece);
            }
            4 if !other.is_empty() => {
                let start = rng.below(other.len());
                let end = (start + rng.below(256)).min(other.len());
                out.splice(at..at, other[start..end].iter().copied());
            }
            _ => {
                let b = rng.next() as u8;
                out.insert(at, b);
            }
        }
    }
    out.truncate(64 * 1024);
    out
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

/// The seeds of a target: fixture files of the kinds it reads (the first byte of a
/// `template_render` input picks the file's kind).
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    files_under(&repo_root().join("fixtures"), &mut all);
    let ext = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string()
    };
    let name = |p: &Path| {
        p.file_name()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string()
    };
    let mut out = Vec::new();
    for p in &all {
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        if bytes.len() > 16 * 1024 {
            continue;
        }
        let yaml = matches!(ext(p).as_str(), "yml" | "yaml");
        match target {
            "config_parse" if name(p).starts_with(".yttlint") || yaml => out.push(bytes),
            "kubevirt_annotation" if yaml => out.extend(annotations(&bytes)),
            "template_render" if yaml || ext(p) == "star" || ext(p) == "txt" => {
                let kind = match ext(p).as_str() {
                    "star" => 1u8,
                    "txt" => 2,
                    _ => 0,
                };
                let mut seed = vec![kind];
                seed.extend(bytes);
                out.push(seed);
            }
            "yaml_parse" | "template_compile" if yaml || ext(p) == "txt" => out.push(bytes),
            "crd_compile" if yaml && String::from_utf8_lossy(&bytes).contains("kind: ") => {
                out.push(bytes)
            }
            "report_render" if yaml && bytes.len() <= 4096 => out.push(report_seed(p, &bytes)),
            "fix_apply" if (yaml || ext(p) == "star") && bytes.len() <= 4096 => {
                out.push(fix_seed(&bytes))
            }
            _ => {}
        }
    }
    if target == "invocations" {
        out.extend(repository_seeds());
    }
    if target == "lsp_messages" {
        out.extend(yttlint::fuzzing::lsp_seeds());
    }
    out
}

/// Fixes over one fixture file (the layout of `src/fuzzing/fixes.rs`): each of its first five
/// lines removed whole, as `unused-load`'s fix removes a `load()`, one safe fix a line.
fn fix_seed(text: &[u8]) -> Vec<u8> {
    let text: Vec<u8> = text.iter().copied().filter(|&b| b != 0).collect();
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            text.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .filter(|&i| i < text.len())
        .take(6)
        .collect();
    let mut seed = text.clone();
    seed.extend(b"\0x = 1\n\0");
    seed.push(u8::try_from(starts.len().saturating_sub(1)).unwrap());
    let position = |at: usize| [4u8, (at >> 8) as u8, at as u8];
    for w in starts.windows(2) {
        // One edit, in the first file, not raw.
        seed.extend([0, 0, 1]);
        seed.extend(position(w[0]));
        seed.push(0);
        seed.extend(position(w[1]));
        seed.extend(b"\0\x01");
    }
    seed
}

/// A report over one fixture file (the layout of `src/fuzzing/report_input.rs`): the file as
/// the one source, one root, findings at its first non-empty lines whose messages are the lines.
fn report_seed(path: &Path, text: &[u8]) -> Vec<u8> {
    let rel = path
        .strip_prefix(repo_root().join("fixtures"))
        .unwrap_or(path);
    let rel = rel.to_string_lossy().replace('\\', "/");
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).as_bytes();
    let text: Vec<u8> = text.iter().copied().filter(|&b| b != 0).collect();
    let mut seed = vec![2, 0, 1];
    seed.extend(rel.as_bytes());
    seed.push(0);
    seed.extend(&text);
    seed.extend([0, 1]);
    seed.extend(dir);
    seed.extend([0, 0, 1, 0, 9]);
    let lines: Vec<(usize, &[u8])> = text
        .split(|&b| b == b'\n')
        .enumerate()
        .take(64)
        .filter(|(_, l)| l.iter().any(|b| !b.is_ascii_whitespace()))
        .take(6)
        .collect();
    seed.push(lines.len() as u8);
    for (k, (i, line)) in lines.iter().enumerate() {
        let indent = line.iter().take_while(|b| **b == b' ').count();
        seed.push(k as u8 * 7);
        seed.extend(&line[indent..]);
        seed.extend([0, 0, 1, 0, *i as u8, 0, (indent % 64) as u8, 1, 1]);
        seed.extend(dir);
        seed.extend([0, 0, 0, 0, 0, 0]);
    }
    seed.push(0);
    seed
}

/// The fixture repositories (directories with `expected-roots.txt`) as `invocations` inputs:
/// each file as its path, a line break and its text, NUL-separated.
fn repository_seeds() -> Vec<Vec<u8>> {
    let mut repos = Vec::new();
    let mut all = Vec::new();
    files_under(&repo_root().join("fixtures"), &mut all);
    for p in &all {
        if p.file_name().is_some_and(|n| n == "expected-roots.txt") {
            repos.extend(p.parent().map(Path::to_path_buf));
        }
    }
    let mut out = Vec::new();
    for repo in repos {
        let mut files = Vec::new();
        files_under(&repo, &mut files);
        let mut seed = Vec::new();
        for f in files {
            let Ok(bytes) = std::fs::read(&f) else {
                continue;
            };
            let rel = f
                .strip_prefix(&repo)
                .unwrap_or(&f)
                .to_string_lossy()
                .into_owned();
            if bytes.contains(&0) || bytes.len() > 16 * 1024 || rel.contains("expected-") {
                continue;
            }
            seed.extend(rel.as_bytes());
            seed.push(b'\n');
            seed.extend(bytes);
            seed.push(0);
        }
        out.push(seed);
    }
    out
}

/// The block scalars under `validations:` keys (KubeVirt annotations) of a YAML file.
fn annotations(bytes: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if !(t.starts_with("validations: |") || t.starts_with("validations: >")) {
            continue;
        }
        let body: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| l.trim().is_empty() || indent(l) > indent(line))
            .map(|l| l.trim())
            .collect();
        out.push(body.join("\n").into_bytes());
    }
    out
}

/// `report_render` with the XML reports parsed back, as its libFuzzer target does.
fn report_render_xml(data: &[u8]) {
    let rendered = rendered_reports(data);
    check_reports(&rendered);
    for name in Rendered::XML {
        let text = rendered.get(name).unwrap_or_default();
        // Cobertura names its DTD (nothing is fetched: roxmltree reads no external entity).
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        if let Err(e) = roxmltree::Document::parse_with_options(text, options) {
            panic!("{name} is not XML ({e}): {text}");
        }
    }
}

/// The targets as the smoke test runs them.
fn targets() -> Vec<yttlint::fuzzing::Target> {
    TARGETS
        .iter()
        .map(|&(name, f)| match name {
            "report_render" => (name, report_render_xml as fn(&[u8])),
            _ => (name, f),
        })
        .collect()
}

fn run_target(
    name: &'static str,
    f: fn(&[u8]),
    budget: Duration,
    max_runs: usize,
) -> (usize, Vec<PathBuf>) {
    let seeds = seeds(name);
    assert!(!seeds.is_empty(), "{name}: no seeds");
    let failures_dir = repo_root().join("target/fuzz-failures");
    let mut failures = Vec::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    let start = Instant::now();
    let mut runs = 0;
    let check = |input: &[u8], runs: usize, failures: &mut Vec<PathBuf>| {
        if catch_unwind(AssertUnwindSafe(|| f(input))).is_err() {
            let _ = std::fs::create_dir_all(&failures_dir);
            let path = failures_dir.join(format!("{name}-{runs}.bin"));
            let _ = std::fs::write(&path, input);
            failures.push(path);
        }
    };
    for s in &seeds {
        check(s, runs, &mut failures);
        runs += 1;
    }
    while start.elapsed() < budget && runs < max_runs {
        let a = &seeds[rng.below(seeds.len())];
        let b = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, a, b);
        check(&input, runs, &mut failures);
        runs += 1;
    }
    (runs, failures)
}

/// Inputs fuzzing found, run first by every smoke run. libyaml-safer panics on a tag followed
/// by `,` in a flow collection (`[!!str, b]`); the parser catches it and reports ytt's error
/// (libFuzzer's `config_parse` found it again: its panic hook aborted on the caught panic).
/// An overflow in the KubeVirt JSONPath parser panics only where overflows are checked (the
/// fuzz build, a debug build of these tests).
const REGRESSIONS: &[(&str, &[u8])] = &[
    ("yaml_parse", b"a: [!!str, b]\n"),
    (
        "config_parse",
        include_bytes!("../data/fuzz/config_parse-tag-before-comma.yml"),
    ),
    ("template_compile", b"a: {k: !t,}\n"),
    // `[9223372036854775807]` sets the slice's end to the index plus one: an overflow check
    // panicked (libFuzzer's build checks overflows; this release build wraps, as Go does).
    (
        "kubevirt_annotation",
        include_bytes!("../data/fuzz/kubevirt_annotation-index-overflow.json"),
    ),
    // A lone carriage return in a source line reached the terminal through a code frame (the
    // rest of the line would overwrite what the frame shows).
    (
        "report_render",
        include_bytes!("../data/fuzz/report_render-lone-carriage-return.bin"),
    ),
    ("template_render", b"\x00a: [!!str, b]\n"),
    // A CRD version whose `schema` is not a map: indexing into it to take `openAPIV3Schema`
    // panicked (`Registry::add_crd`).
    (
        "crd_compile",
        include_bytes!("../data/fuzz/crd_compile-schema-not-a-map.yml"),
    ),
    // An edit ending between the `\r` and `\n` of a CRLF, and one ending after a `\r` that
    // ends the text: `fix::edit::offset` did not lead their line and column back to the
    // offset (it ended every line before a last `\r`, as if a CR alone were a line break).
    (
        "fix_apply",
        include_bytes!("../data/fuzz/fix_apply-inside-crlf.bin"),
    ),
    (
        "fix_apply",
        include_bytes!("../data/fuzz/fix_apply-cr-at-end.bin"),
    ),
];

#[test]
fn regressions_found_by_fuzzing() {
    for (name, input) in REGRESSIONS {
        let f = targets()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f)
            .unwrap();
        let owned = input.to_vec();
        let ok = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || catch_unwind(AssertUnwindSafe(|| f(&owned))).is_ok())
            .unwrap()
            .join()
            .unwrap();
        assert!(ok, "{name}: {:?}", String::from_utf8_lossy(input));
    }
    // A tag that a `,` ends in a flow sequence makes the YAML library panic; ytt's scanner
    // takes the `,` into the tag, which is then unknown: `[!!str, b]` is `["b"]`.
    let name: std::sync::Arc<str> = std::sync::Arc::from("t.yml");
    let set =
        yttlint::yaml::parse::parse("x: 1\na: [!!str, b]\n", &name, &Default::default()).unwrap();
    assert_eq!(yttlint::yaml::emit::docset_to_yaml(&set), "x: 1\na:\n- b\n");
    let dir = TempDir::new();
    let render = |text: &str| {
        let file = dir.write("t.yml", text);
        template(repo_root(), &["-f", file.to_str().unwrap()])
    };
    let out = render("a: [!!str, b]\n");
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "a:\n- b\n");
    assert_eq!(out.stderr, "");
    // Two such tags in a row (ytt itself panics) and more such tags than are widened: one
    // error line each, nothing of the library's panic.
    let out = render("a: [!a, !b, c]\n");
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "ytt: Error: Unmarshaling YAML template 't.yml': yaml: line 0: did not find expected ',' or ']'\n"
    );
    let many: String = (0..20).map(|i| format!("k{i}: [!t, x]\n")).collect();
    let out = render(&many);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "ytt: Error: Unmarshaling YAML template 't.yml': yaml: line 17: did not find expected whitespace or line break\n"
    );
}

#[test]
fn fuzz_smoke() {
    let asked: Option<u64> = std::env::var("YTTLINT_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok());
    let total = asked.unwrap_or(30);
    // A few thousand inputs a target by default; a longer run asked for runs its whole time.
    let max_runs = if asked.is_some() { usize::MAX } else { 20_000 };
    let targets = targets();
    let per_target = Duration::from_secs(total) / targets.len() as u32;
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (name, f) in targets {
        // Evaluations recurse deeply: a large stack, as the binary has.
        let (runs, failed) = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || run_target(name, f, per_target, max_runs))
            .unwrap()
            .join()
            .unwrap();
        report.push(format!("{name}: {runs} inputs"));
        failures.extend(failed);
    }
    eprintln!("{}", report.join(", "));
    assert!(
        failures.is_empty(),
        "{} inputs panic, the first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}
