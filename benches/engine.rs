//! `cargo bench`: times the engine's stages on fixed inputs, so that a regression shows as a
//! number. Each stage runs a few rounds and prints its median and its fastest round:
//! - `yaml-parse`: every YAML file under `fixtures/`, parsed as ytt parses templates;
//! - `template-compile`: the same files compiled to Starlark;
//! - `overlay-NxN`: `yttlint template` on N documents with N `overlay.subset` overlays and N
//!   lambda overlays (generated in a temporary directory);
//! - `demo-lint`: `yttlint` on fixtures/demo-repo (discovery, jobs, reports);
//! - `cf-for-k8s`: `yttlint template` on the corpus's heaviest root, when ../shared/corpus is
//!   there.
//!
//! Wall time on a shared machine is noisy: compare medians of runs made one after the other.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use yttlint::template::compile::{compile_yaml, CompileOpts};
use yttlint::yaml::parse::{parse, ParseOpts};

const ROUNDS: usize = 7;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let sources = yaml_files(&root.join("fixtures"));
    println!("{} YAML files under fixtures/", sources.len());
    bench("yaml-parse", || {
        for (name, text) in &sources {
            let _ = parse(text, name, &ParseOpts::default());
        }
    });
    let parsed: Vec<_> = sources
        .iter()
        .filter_map(|(name, text)| Some((name, parse(text, name, &ParseOpts::default()).ok()?)))
        .collect();
    bench("template-compile", || {
        for (id, (name, docs)) in parsed.iter().enumerate() {
            let _ = compile_yaml(docs, name, id as u32, CompileOpts::default());
        }
    });
    let dir = std::env::temp_dir().join(format!("yttlint-bench-{}", std::process::id()));
    for (label, by) in [("subset", "subset"), ("lambda", "lambda")] {
        let case = dir.join(label);
        if let Err(e) = overlay_case(&case, 500, by) {
            eprintln!("cannot write {}: {e}", case.display());
            continue;
        }
        let arg = case.display().to_string();
        bench(&format!("overlay-500x500-{label}"), || {
            run_bin(&root, &["template", "-f", &arg]);
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    let demo = root.join("fixtures/demo-repo").display().to_string();
    bench("demo-lint", || {
        run_bin(&root, &["--format", "json", &demo]);
    });
    let cf = root.join("../shared/corpus/roots/cf-for-k8s__full-sample");
    if cf.is_dir() {
        let args = [
            "template",
            "-f",
            "config/",
            "--file-mark",
            "0-min-version.star:exclude=true",
            "-f",
            "corpus-values.yml",
        ];
        bench("cf-for-k8s-full-sample", || run_bin(&cf, &args));
    } else {
        println!("cf-for-k8s-full-sample: skipped (no ../shared/corpus)");
    }
}

/// Runs `f` for [`ROUNDS`] rounds (after one warm-up) and prints the median and best times.
fn bench(name: &str, mut f: impl FnMut()) {
    f();
    let mut times: Vec<Duration> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "{name:<32} median {:>9.2} ms   best {:>9.2} ms",
        ms(times[ROUNDS / 2]),
        ms(times[0])
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn run_bin(dir: &Path, args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_yttlint"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if let Err(e) = status {
        eprintln!("cannot run yttlint: {e}");
    }
}

/// Every `.yml`/`.yaml` file below `dir`, sorted by path, with its text.
fn yaml_files(dir: &Path) -> Vec<(Arc<str>, String)> {
    let mut out: Vec<(Arc<str>, String)> = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yml" | "yaml")
            ) {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    out.push((Arc::from(path.display().to_string()), text));
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Writes `n` ConfigMaps and `n` overlays, each matching one of them by name, either with
/// `overlay.subset` or with a lambda.
fn overlay_case(dir: &Path, n: usize, by: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut docs = String::new();
    let mut overlays = String::from("#@ load(\"@ytt:overlay\", \"overlay\")\n");
    for i in 0..n {
        docs.push_str(&format!(
            "---\nkind: ConfigMap\nmetadata:\n  name: doc{i}\ndata:\n  a: '1'\n"
        ));
        let matcher = if by == "subset" {
            format!("overlay.subset({{\"metadata\": {{\"name\": \"doc{i}\"}}}})")
        } else {
            format!("lambda i, l, r: l[\"metadata\"][\"name\"] == \"doc{i}\"")
        };
        overlays.push_str(&format!(
            "#@overlay/match by={matcher}\n---\ndata:\n  a: \"{i}\"\n"
        ));
    }
    std::fs::write(dir.join("docs.yml"), docs)?;
    std::fs::write(dir.join("overlays.yml"), overlays)
}
