//! cargo-fuzz target: `yttlint::fuzzing::kubevirt_annotation`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::kubevirt_annotation(data));
