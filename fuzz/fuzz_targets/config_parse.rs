//! cargo-fuzz target: `yttlint::fuzzing::config_parse`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::config_parse(data));
