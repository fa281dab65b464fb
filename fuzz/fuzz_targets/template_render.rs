//! cargo-fuzz target: `yttlint::fuzzing::template_render`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::template_render(data));
