//! Differential tester: random Starlark programs (see `gen.rs`) rendered by `yttlint template`
//! and by a reference ytt, compared by output, first error line (and the program it names) and
//! exit status. Ignored by default (CI has no ytt): run it with `YTT_REFERENCE` naming a ytt
//! binary and `cargo test --release --test it difftest -- --ignored --nocapture`.
//!
//! Every template sits beside a data values file and a library of YAML fragment functions
//! (`values.rs`), so that programs can hand ytt's own values (structs, fragments) to every
//! builtin, method and operator.
//!
//! `DIFFTEST_PROGRAMS` (default 3000) programs are generated from `DIFFTEST_SEED` (default 1)
//! and rendered `DIFFTEST_BATCH` (default 250) per template, one program per map item. A batch
//! that fails is split at the failing program: that program is compared by its error, the
//! others run again. The first difference fails the test (with `DIFFTEST_KEEP_GOING=1` all are
//! listed); counts per family are printed. `DIFFTEST_FAMILIES` (names or prefixes, separated by
//! commas) keeps only those families (`ytt_` for the ytt values ones).

mod gen;
mod values;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use gen::{Program, Rng, FAMILIES};

use crate::util::{template as yttlint_template, Run, TempDir};

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A run of the reference ytt, its output read as yttlint's is (ytt may write bytes that are
/// not UTF-8: they are replaced, not a failure).
fn reference(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("run the reference ytt");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A template holding `programs`, and for each of its lines the program it belongs to.
fn template(programs: &[(usize, &Program)]) -> (String, Vec<Option<usize>>) {
    let mut lines: Vec<(String, Option<usize>)> = Vec::new();
    let mut loads: Vec<&str> = programs.iter().flat_map(|(_, p)| p.loads.clone()).collect();
    loads.sort_unstable();
    loads.dedup();
    for m in loads {
        if m == values::HELPERS_MODULE {
            lines.push((
                "#@ load(\"h.lib.yml\", \"ya\", \"ym\", \"ye\", \"yk\")".to_string(),
                None,
            ));
            continue;
        }
        lines.push((format!("#@ load(\"@ytt:{m}\", \"{m}\")"), None));
    }
    for l in values::TEMPLATE_PRELUDE {
        lines.push((l.to_string(), None));
    }
    for (i, p) in programs {
        if p.body.is_empty() {
            lines.push((format!("p{i}: #@ {}", p.expr), Some(*i)));
            continue;
        }
        lines.push((format!("#@ def f{i}():"), Some(*i)));
        for l in &p.body {
            lines.push((format!("#@   {l}"), Some(*i)));
        }
        lines.push(("#@ end".to_string(), Some(*i)));
        lines.push((format!("p{i}: #@ f{i}()"), Some(*i)));
    }
    let text = lines
        .iter()
        .map(|(l, _)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    (text, lines.into_iter().map(|(_, i)| i).collect())
}

/// The error message line (`- ...`) and the template line an error names first.
fn error_of(stderr: &str) -> (String, Option<usize>) {
    let msg = stderr
        .lines()
        .find(|l| l.starts_with("- "))
        .unwrap_or("")
        .to_string();
    let line = stderr.split("t.yml:").nth(1).and_then(|rest| {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    });
    (msg, line)
}

/// The output of each program (`pN:` and what follows up to the next program).
fn chunks(stdout: &str) -> BTreeMap<usize, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<usize> = None;
    for line in stdout.lines() {
        if let Some(n) = line
            .strip_prefix('p')
            .and_then(|r| r.split_once(':'))
            .and_then(|(n, _)| n.parse::<usize>().ok())
        {
            current = Some(n);
        }
        if let Some(n) = current {
            let c: &mut String = out.entry(n).or_default();
            c.push_str(line);
            c.push('\n');
        }
    }
    out
}

struct Tester {
    ytt: PathBuf,
    dir: TempDir,
    /// Per family: programs compared, of which both failed alike.
    counts: BTreeMap<&'static str, (u64, u64)>,
    differences: Vec<String>,
    /// Failures both tools report at the same line in the words of a known departure.
    departures: Vec<String>,
    invocations: u64,
}

/// The wording departures docs/starlark-departures.md records ("Not matched"), where both
/// tools fail at the same line: (ytt's words, yttlint's words).
const DEPARTURES: &[(&str, &str)] = &[
    // Unpacking a string: starlark-go refuses it, the crate unpacks its characters.
    ("got string in sequence assignment", "values to unpack"),
    (
        "got string in sequence assignment",
        "string value is not iterable",
    ),
    // Item assignment into a value that does not support it: the crate names no type.
    ("does not support item assignment", "Immutable"),
    // `list += x` of a value that is not iterable: the crate extends, so it finds no iterable.
    ("unknown binary op: list + ", " value is not iterable"),
    // A builtin as a dict key: ytt panics converting it, the crate finds it unhashable.
    (
        "unknown type *starlark.Builtin for conversion to go value",
        "unhashable type",
    ),
    // A builtin as a fragment's index: ytt shows its recovered panic without backtrace or
    // frames, yttlint as for any value it cannot convert (with the backtrace's place).
    (
        "unknown type *starlark.Builtin for conversion to go value",
        "for conversion to go value (backtrace: goroutine",
    ),
];

/// The output departure docs/starlark-departures.md records: `==` or `!=` between a float and
/// an int beyond 2^53 (starlark-go compares them exactly, the crate as floats). A program that
/// renders in both tools with different output is counted as this departure when it compares
/// with `==` or `!=`, calls `float(`, and holds an int literal of 16 digits or more.
fn known_output_departure(program: &str) -> bool {
    let big_int = program
        .split(|c: char| !c.is_ascii_digit())
        .any(|digits| digits.len() >= 16);
    (program.contains("==") || program.contains("!=")) && program.contains("float(") && big_int
}

fn known_departure(ytt: &str, yttlint: &str) -> bool {
    DEPARTURES
        .iter()
        .any(|(y, l)| ytt.contains(y) && yttlint.contains(l))
}

impl Tester {
    fn render(&mut self, text: &str) -> (Run, Run) {
        std::fs::write(self.dir.join("t.yml"), text).expect("write template");
        std::fs::write(self.dir.join("v.yml"), values::DATA_VALUES).expect("write values");
        std::fs::write(self.dir.join("h.lib.yml"), values::HELPERS).expect("write helpers");
        self.invocations += 1;
        let args = ["-f", "t.yml", "-f", "v.yml", "-f", "h.lib.yml"];
        let y = reference(Command::new(&self.ytt).args(args).current_dir(&self.dir));
        let l = yttlint_template(&self.dir, &args);
        (y, l)
    }

    fn differ(&mut self, family: &str, p: &Program, what: String) {
        let body = p.body.join("\n    ");
        self.differences.push(format!(
            "[{family}] program: {}{}\n{what}",
            if body.is_empty() { "" } else { "def:\n    " },
            if body.is_empty() {
                p.expr.clone()
            } else {
                body
            }
        ));
    }

    /// Compares the programs `batch` (indexes into `programs`), splitting at failures.
    fn compare(&mut self, programs: &[(&'static str, Program)], batch: Vec<usize>) {
        let mut work = vec![batch];
        while let Some(batch) = work.pop() {
            if batch.is_empty() {
                continue;
            }
            let items: Vec<(usize, &Program)> =
                batch.iter().map(|i| (*i, &programs[*i].1)).collect();
            let (text, line_map) = template(&items);
            let (y, l) = self.render(&text);
            let (y_ok, l_ok) = (y.code == 0, l.code == 0);
            if y_ok && l_ok {
                let (yc, lc) = (chunks(&y.stdout), chunks(&l.stdout));
                for i in &batch {
                    let (family, p) = &programs[*i];
                    match (yc.get(i), lc.get(i)) {
                        (a, b) if a == b => self.counts.entry(family).or_default().0 += 1,
                        _ if known_output_departure(&format!(
                            "{}\n{}",
                            p.expr,
                            p.body.join("\n")
                        )) =>
                        {
                            self.departures
                                .push(format!("[{family}] output of {}", p.expr));
                            self.counts.entry(family).or_default().0 += 1;
                        }
                        (a, b) => self.differ(
                            family,
                            p,
                            format!(
                                "ytt:\n{}yttlint:\n{}",
                                a.cloned().unwrap_or_default(),
                                b.cloned().unwrap_or_default()
                            ),
                        ),
                    }
                }
                continue;
            }
            let (ymsg, yline) = error_of(&y.stderr);
            let (lmsg, lline) = error_of(&l.stderr);
            let at =
                |line: Option<usize>| line.and_then(|n| line_map.get(n - 1).copied().flatten());
            let (mut yi, li) = (at(yline), at(lline));
            // A Go panic ytt recovers is shown without a position: it is where yttlint's
            // error is when the messages agree.
            if yi.is_none() && ymsg.starts_with("- (p) ") && ymsg == lmsg {
                yi = li;
            }
            // The program that failed first (in either tool) is the one to compare.
            let position = |i: Option<usize>| i.and_then(|i| batch.iter().position(|b| *b == i));
            let failing = match (position(yi), position(li)) {
                (Some(a), Some(b)) => Some(batch[a.min(b)]),
                (Some(a), None) | (None, Some(a)) => Some(batch[a]),
                (None, None) => None,
            };
            let Some(k) = failing else {
                let p = &programs[batch[0]];
                self.differ(
                    p.0,
                    &p.1,
                    format!(
                        "no failing program found:\nytt: {}\nyttlint: {}",
                        y.stderr, l.stderr
                    ),
                );
                continue;
            };
            let (family, p) = &programs[k];
            let departed =
                !y_ok && !l_ok && known_departure(&ymsg, &lmsg) && (yi == li || yi.is_none());
            if departed {
                self.departures
                    .push(format!("[{family}] ytt {ymsg} / yttlint {lmsg}"));
            }
            if departed || (y_ok == l_ok && ymsg == lmsg && yi == li) {
                let c = self.counts.entry(family).or_default();
                c.0 += 1;
                c.1 += 1;
            } else {
                self.differ(
                    family,
                    p,
                    format!(
                        "ytt (exit ok: {}): {}\nyttlint (exit ok: {}): {}",
                        y_ok,
                        if y_ok { "(output)" } else { &ymsg },
                        l_ok,
                        if l_ok { "(output)" } else { &lmsg }
                    ),
                );
            }
            let pos = batch.iter().position(|i| *i == k).unwrap_or(0);
            work.push(batch[pos + 1..].to_vec());
            work.push(batch[..pos].to_vec());
        }
    }
}

#[test]
#[ignore = "needs a reference ytt (YTT_REFERENCE)"]
fn yttlint_renders_random_programs_as_ytt_does() {
    let ytt = std::env::var_os("YTT_REFERENCE")
        .map(PathBuf::from)
        .expect("YTT_REFERENCE names the ytt binary to compare with");
    let total = env_num("DIFFTEST_PROGRAMS", 3000) as usize;
    let seed = env_num("DIFFTEST_SEED", 1);
    let batch = env_num("DIFFTEST_BATCH", 250).max(1) as usize;
    let keep_going = std::env::var("DIFFTEST_KEEP_GOING").is_ok_and(|v| v == "1");
    let only = std::env::var("DIFFTEST_FAMILIES").unwrap_or_default();
    let families: Vec<_> = FAMILIES
        .iter()
        .filter(|(name, _)| only.is_empty() || only.split(',').any(|p| name.starts_with(p)))
        .collect();
    assert!(!families.is_empty(), "no family matches {only}");
    let mut rng = Rng::new(seed);
    let programs: Vec<(&'static str, Program)> = (0..total)
        .map(|i| {
            let (family, make) = *families[i % families.len()];
            (family, make(&mut rng))
        })
        .collect();
    let mut t = Tester {
        ytt,
        dir: TempDir::new(),
        counts: BTreeMap::new(),
        differences: Vec::new(),
        departures: Vec::new(),
        invocations: 0,
    };
    let indexes: Vec<usize> = (0..total).collect();
    for b in indexes.chunks(batch) {
        t.compare(&programs, b.to_vec());
        if !keep_going && !t.differences.is_empty() {
            break;
        }
    }
    println!(
        "difftest seed {seed}: {} templates rendered by each tool",
        t.invocations
    );
    println!("{:<20} {:>8} {:>8}", "family", "agreed", "errors");
    let mut sum = 0;
    for (family, (n, e)) in &t.counts {
        println!("{family:<20} {n:>8} {e:>8}");
        sum += n;
    }
    println!("{:<20} {sum:>8}", "total");
    println!(
        "known departures (docs/starlark-departures.md): {}",
        t.departures.len()
    );
    for d in &t.departures {
        println!("  {d}");
    }
    println!("differences: {}", t.differences.len());
    assert!(
        t.differences.is_empty(),
        "{} difference(s) with ytt:\n{}",
        t.differences.len(),
        t.differences.join("\n\n")
    );
}
