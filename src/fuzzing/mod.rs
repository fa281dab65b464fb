//! Entry points for fuzzing: each takes arbitrary bytes and must return without panicking,
//! whatever the bytes (a target that checks more, such as report formats that must parse back,
//! asserts it: a failed assertion is a crash the fuzzer reports). The cargo-fuzz targets in
//! `fuzz/` call them (libFuzzer, nightly), and `tests/it/fuzz_smoke.rs` runs them on stable Rust
//! over the fixtures and mutations of them, so the targets stay green without nightly.

mod crds;
mod engine;
mod fixes;
mod input;
mod invocations;
mod lsp;
mod report_input;
mod reports;

pub use crds::crd_compile;
pub use engine::{
    config_parse, kubevirt_annotation, template_compile, template_render, yaml_parse,
};
pub use fixes::fix_apply;
pub use invocations::invocations;
pub use lsp::{lsp_messages, seeds as lsp_seeds};
pub use reports::{check_reports, rendered_reports, report_render, Rendered};

/// A fuzz target: a name (the directory of its seeds) and its function.
pub type Target = (&'static str, fn(&[u8]));

/// Every target.
pub const TARGETS: &[Target] = &[
    ("yaml_parse", yaml_parse),
    ("template_compile", template_compile),
    ("config_parse", config_parse),
    ("kubevirt_annotation", kubevirt_annotation),
    ("template_render", template_render),
    ("invocations", invocations),
    ("report_render", report_render),
    ("crd_compile", crd_compile),
    ("fix_apply", fix_apply),
    ("lsp_messages", lsp_messages),
];

/// Set up once before any input: libFuzzer's panic hook aborts on every panic, even one that
/// is caught; the YAML library's known panic, which the parser catches and reports as ytt's
/// error, must not count as a crash (found by `config_parse`).
fn setup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(crate::yaml::parse::quiet_known_panics);
}
