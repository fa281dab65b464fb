//! cargo-fuzz target: `yttlint::fuzzing::invocations`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::invocations(data));
