#!/usr/bin/env bash
# Runs one fuzz target without cargo-fuzz: builds the targets with nightly Rust and libFuzzer's
# coverage instrumentation (the flags `cargo fuzz build -s none` passes), then runs TARGET on
# its corpus (fill it first with fuzz/seed.sh) for SECONDS. Crashing inputs go to
# fuzz/artifacts/TARGET/. Further arguments are passed to libFuzzer.
#   usage: fuzz/run.sh TARGET SECONDS [libFuzzer flags]
set -eu
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$1" seconds="$2"
shift 2
triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-simplifycfg-branch-fold-threshold=0 \
--cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# --target keeps the flags off build scripts and proc macros, as cargo-fuzz does.
(cd "$HERE" && cargo +nightly build --release --locked --target "$triple" --bin "$target")
mkdir -p "$HERE/corpus/$target" "$HERE/artifacts/$target"
exec "$HERE/target/$triple/release/$target" "$HERE/corpus/$target" \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
  -artifact_prefix="$HERE/artifacts/$target/" -print_final_stats=1 "$@"
