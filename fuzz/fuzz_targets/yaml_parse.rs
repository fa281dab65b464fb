//! cargo-fuzz target: `yttlint::fuzzing::yaml_parse`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::yaml_parse(data));
