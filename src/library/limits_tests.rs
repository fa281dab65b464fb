//! The engine's limits (`eval::limits`) seen from a whole library evaluation: steps, heap and
//! time beyond their budgets stop at the template line, and `assert.try_to` does not swallow
//! them.

use std::time::Duration;

use super::{EvalOpts, ExternalValues, Workspace};
use crate::eval::limits::Limits;
use crate::files::InputFile;

/// The error of evaluating `template` with `limits`: its message's first line and line.
fn stopped(template: &str, limits: Limits) -> (String, u32) {
    let files = vec![InputFile::new("t.yml", template)];
    let opts = EvalOpts {
        limits,
        ..EvalOpts::default()
    };
    let ws = Workspace::new(files, opts);
    let e = ws.evaluate(ExternalValues::default()).err().unwrap();
    let first = e.message.trim().lines().next().unwrap_or("").to_string();
    (first, e.pos.map(|p| p.line).unwrap_or(0))
}

const SPIN: &str = "#@ def spin():\n#@   n = []\n#@   for i in range(100000000):\n#@     n.append(str(i) * 20)\n#@   end\n#@   return n\n#@ end\nx: #@ len(spin())\n";

#[test]
fn steps_beyond_the_limit_stop_at_the_template_line() {
    let mut limits = Limits::default();
    limits.ticks = 100_000;
    let (message, line) = stopped(SPIN, limits);
    assert_eq!(
        message,
        "- limit exceeded: the evaluation ran more than 100000 steps"
    );
    assert!((3..=4).contains(&line), "{line}");
}

#[test]
fn a_heap_beyond_the_limit_stops_at_the_template_line() {
    let mut limits = Limits::default();
    limits.heap_bytes = 16 << 20;
    let (message, line) = stopped(SPIN, limits);
    assert_eq!(
        message,
        "- limit exceeded: the evaluation's heap grew beyond its budget of 16 MiB"
    );
    assert!((3..=4).contains(&line), "{line}");
}

#[test]
fn time_beyond_the_limit_stops_at_the_template_line() {
    let mut limits = Limits::default();
    limits.timeout = Duration::from_millis(200);
    let (message, line) = stopped(SPIN, limits);
    assert_eq!(
        message,
        "- limit exceeded: the evaluation ran longer than its time budget of 200 ms"
    );
    assert!((3..=4).contains(&line), "{line}");
}

#[test]
fn assert_try_to_does_not_swallow_a_limit() {
    let mut limits = Limits::default();
    limits.ticks = 100_000;
    let template = format!(
        "#@ load(\"@ytt:assert\", \"assert\")\n{}y: #@ assert.try_to(spin)\n",
        SPIN.replace("x: #@ len(spin())\n", "")
    );
    let (message, _) = stopped(&template, limits);
    assert!(message.contains("limit exceeded"), "{message}");
}
