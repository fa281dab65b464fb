//! cargo-fuzz target: `yttlint::fuzzing::fix_apply` (the fix engine: choose, apply, diff).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| yttlint::fuzzing::fix_apply(data));
