//! cargo-fuzz target: `yttlint::fuzzing::lsp_messages`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::lsp_messages(data));
