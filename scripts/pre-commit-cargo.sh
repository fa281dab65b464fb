#!/usr/bin/env bash
# The `yttlint-rust` pre-commit hook: builds yttlint from the hook's own checkout with
# `cargo build --release --locked` (the dependency versions of Cargo.lock, those CI tested; once
# per hook revision, then cargo finds it fresh) and runs it with the hook's arguments in the
# repository being committed. pre-commit's `language: rust` runs `cargo install` without
# `--locked`, which resolves newer dependency versions than CI tested; hence this script.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$here/target}"
cargo build --quiet --release --locked --manifest-path "$here/Cargo.toml" --target-dir "$target" >&2 \
  || { echo "yttlint-rust: cargo build failed (a Rust toolchain is needed; or use the yttlint hook)" >&2; exit 2; }
exec "$target/release/yttlint" "$@"
