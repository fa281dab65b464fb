//! `cargo bench --bench kubernetes`: the cost and the findings of the Kubernetes schema check
//! (`src/kubernetes`) on the corpus (`../shared/corpus`, or `$YTTLINT_CORPUS`). Each root is
//! rendered in process as `yttlint template` renders it (its command is in `manifest.tsv`),
//! then its documents are checked twice: with a registry made for the root alone (every
//! schema it needs compiled again, the cost a job pays when jobs share nothing) and with a
//! clone of one registry of the run (built-in schemas compiled once, as jobs should use it). Prints every violation, every kind without a schema, and the
//! CPU time (this thread's) of rendering, of compiling schemas and of validating.
//!
//! `cargo bench --bench kubernetes -- ROOT_ID...` limits the run to some roots.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Parser;
use yttlint::kubernetes::{check, CheckResult, Registry, DEFAULT_VERSION};
use yttlint::library::{EvalOpts, Workspace};
use yttlint::yaml::DocSet;
use yttlint::ytt_flags::TemplateArgs;

fn main() {
    let corpus = std::env::var("YTTLINT_CORPUS").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    let Ok(manifest) = std::fs::read_to_string(corpus.join("manifest.tsv")) else {
        println!("kubernetes: skipped (no corpus at {})", corpus.display());
        return;
    };
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let t = Cpu::now();
    let shared = match Registry::builtin(DEFAULT_VERSION) {
        Ok(r) => r,
        Err(e) => {
            println!("kubernetes: {e}");
            return;
        }
    };
    let first_load = t.elapsed();
    let t = Cpu::now();
    let all = Registry::builtin(DEFAULT_VERSION).unwrap_or_default();
    let kinds = all.kinds();
    for (api_version, kind) in &kinds {
        let _ = all.compiled(api_version, kind);
    }
    let compile_all = t.elapsed();
    let (mut render, mut own, mut reuse) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut roots, mut docs, mut violations) = (0, 0, 0);
    let mut skipped: Vec<String> = Vec::new();
    let mut by_kind: Vec<(String, usize, Duration)> = Vec::new();
    let mut adding = Duration::ZERO;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(id), Some(cmd)) = (cols.first(), cols.get(5)) else {
            continue;
        };
        if !only.is_empty() && !only.iter().any(|o| o == id) {
            continue;
        }
        let dir = corpus.join("roots").join(id);
        let t = Cpu::now();
        let Some(out) = rendered(&dir, cmd) else {
            continue;
        };
        render += t.elapsed();
        roots += 1;
        docs += out.items.len();

        // A registry of the root's own: the built-in data is parsed once per process, the
        // schemas compiled again for each root.
        let t = Cpu::now();
        let mut registry = Registry::builtin(DEFAULT_VERSION).unwrap_or_default();
        out.items.iter().for_each(|d| {
            registry.add_crd(d);
        });
        let results: Vec<CheckResult> = out.items.iter().map(|d| check(&registry, d)).collect();
        own += t.elapsed();

        // A clone of the run's registry: the built-in kinds compiled by earlier roots are
        // shared, the root's CRDs are its own.
        let t = Cpu::now();
        let mut job = shared.clone();
        let t_crd = Cpu::now();
        out.items.iter().for_each(|d| {
            job.add_crd(d);
        });
        adding += t_crd.elapsed();
        for d in &out.items {
            let t = Cpu::now();
            check(&job, d);
            let kind = top(d, "kind");
            match by_kind.iter_mut().find(|(k, _, _)| *k == kind) {
                Some((_, n, time)) => {
                    *n += 1;
                    *time += t.elapsed();
                }
                None => by_kind.push((kind, 1, t.elapsed())),
            }
        }
        reuse += t.elapsed();

        for r in &results {
            match r {
                CheckResult::Checked(vs) => {
                    for v in vs {
                        violations += 1;
                        let help = v
                            .help
                            .as_deref()
                            .map(|h| format!(" ({h})"))
                            .unwrap_or_default();
                        println!(
                            "VIOLATION {id} {}: {} at {}: {}{help}",
                            v.object, v.path, v.pos, v.message
                        );
                    }
                }
                CheckResult::NoSchema { api_version, kind } => {
                    skipped.push(format!("{api_version} {kind}"));
                }
                CheckResult::BadSchema {
                    api_version,
                    kind,
                    message,
                } => {
                    println!("BADSCHEMA {id} {api_version} {kind}: {message}");
                }
                CheckResult::NotAnObject => skipped.push("(not an object)".into()),
            }
        }
    }
    skipped.sort();
    let mut counted: Vec<(usize, String)> = Vec::new();
    for s in skipped {
        match counted.last_mut() {
            Some((n, last)) if *last == s => *n += 1,
            _ => counted.push((1, s)),
        }
    }
    for (n, s) in &counted {
        println!("NOSCHEMA {n:4} {s}");
    }
    by_kind.sort_by_key(|(_, _, t)| std::cmp::Reverse(*t));
    let validating: Duration = by_kind.iter().map(|(_, _, t)| *t).sum();
    println!("checking documents (clone): {:.0} ms", ms(validating));
    println!("adding CRDs (clone): {:.0} ms", ms(adding));
    for (kind, n, t) in by_kind.iter().take(15) {
        println!(
            "KIND {kind:32} {n:5} documents {:8.1} ms (clone of the run's registry)",
            ms(*t)
        );
    }
    println!("roots {roots}, documents {docs}, violations {violations}");
    println!("built-in data parsed once: {:.1} ms", ms(first_load));
    println!(
        "compiling all {} built-in kinds: {:.1} ms",
        kinds.len(),
        ms(compile_all)
    );
    println!("rendering: {:.0} ms", ms(render));
    println!(
        "check, registry per root: {:.0} ms ({:.1} %)",
        ms(own),
        100.0 * ms(own) / ms(render)
    );
    println!(
        "check, clone of the run's registry: {:.0} ms ({:.1} %)",
        ms(reuse),
        100.0 * ms(reuse) / ms(render)
    );
}

/// The documents `ytt <args>` renders in `dir`, as `yttlint template` renders them.
fn rendered(dir: &Path, cmd: &str) -> Option<DocSet> {
    let args: Vec<String> = cmd.split_whitespace().skip(1).map(str::to_string).collect();
    let args: Vec<String> = args.into_iter().skip_while(|a| a == "template").collect();
    let a =
        TemplateArgs::try_parse_from(std::iter::once("template".to_string()).chain(args)).ok()?;
    if a.dv_inspect
        || a.dv_schema_inspect
        || a.files_inspect
        || a.output.iter().any(|o| o != "yaml")
    {
        return None;
    }
    std::env::set_current_dir(dir).ok()?;
    let mut no_stdin = || Err("no standard input".to_string());
    let inputs = yttlint::files::collect(&a.files, &mut no_stdin).ok()?;
    let inputs = yttlint::ytt_flags::file_marks::apply(inputs, &a.file_marks).ok()?;
    let opts = EvalOpts {
        ignore_unknown_comments: a.ignore_unknown_comments,
        implicit_map_key_overrides: a.implicit_map_key_overrides,
        strict: a.strict,
        ..EvalOpts::default()
    };
    let flags = a.data_values_flags(Default::default());
    let external = flags.to_values(a.strict, &[], &mut no_stdin).ok()?;
    let ws = Workspace::new(inputs, opts);
    ws.evaluate(external).ok().map(|out| out.docs)
}

fn top(doc: &yttlint::yaml::Document, key: &str) -> String {
    match &doc.value {
        yttlint::yaml::Value::Map(m) => m
            .items
            .iter()
            .find(|i| i.key.as_str() == Some(key))
            .and_then(|i| i.value.as_str())
            .unwrap_or("?")
            .to_string(),
        _ => "?".to_string(),
    }
}

/// The CPU time of this thread (the machine is shared: wall time says little).
struct Cpu(Duration);

impl Cpu {
    fn now() -> Cpu {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec it is given.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        Cpu(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    fn elapsed(&self) -> Duration {
        Cpu::now().0.saturating_sub(self.0)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
