//! cargo-fuzz target: `yttlint::fuzzing::report_render`, with the XML reports (JUnit,
//! Cobertura) parsed back by roxmltree.
#![no_main]

use yttlint::fuzzing::{check_reports, rendered_reports, Rendered};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
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
});
