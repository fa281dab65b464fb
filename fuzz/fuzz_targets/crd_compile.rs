//! cargo-fuzz target: `yttlint::fuzzing::crd_compile`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::crd_compile(data));
