#!/usr/bin/env bash
# Runs yttlint's test suite built for Windows (x86_64-pc-windows-gnu, cross-built with
# cargo zigbuild) under Wine, here on Linux: the library's unit tests and tests/it (whose
# Unix-only modules are left out of the Windows build: named pipes, signals, shell scripts,
# symbolic links made without privilege). Wine is not Windows: its symbolic links are not
# reparse points, and a few tests expect Unix paths (`/repo/config`); those failures are listed,
# each with why, in scripts/wine/known-failures.txt. The script fails on any other failure, and
# says which listed tests now pass.
#
# Wine 8 (Debian 12's) lacks bcryptprimitives.dll, which Rust's standard library calls for
# random numbers: scripts/wine/bcryptprimitives.c is a stand-in, built here with zig and put in
# the Wine prefix (WINEPREFIX, default ~/.cache/yttlint-wine) only.
#
# usage: scripts/wine-tests.sh   (needs wine, cargo-zigbuild and zig from PyPI's ziglang)
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$HERE" || exit 2
command -v wine >/dev/null || { echo "wine is not installed" >&2; exit 2; }
export WINEDEBUG=-all
export WINEPREFIX="${WINEPREFIX:-$HOME/.cache/yttlint-wine}"
TARGET=x86_64-pc-windows-gnu
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

cargo-zigbuild test --release --locked --target "$TARGET" --no-run >"$TMP/build" 2>&1 \
  || { echo "the Windows test build failed:" >&2; tail -30 "$TMP/build" >&2; exit 1; }
lib=$(sed -n 's/^ *Executable unittests src\/lib\.rs (\(.*\.exe\))$/\1/p' "$TMP/build")
exes="$lib $(sed -n 's/^ *Executable tests\/.*(\(.*\.exe\))$/\1/p' "$TMP/build")"
[ -n "${exes// /}" ] || { echo "no test executable was built" >&2; exit 1; }

# The prefix, with the stand-in for bcryptprimitives.dll.
wine cmd /c exit >/dev/null 2>&1
python3 -m ziglang cc -target x86_64-windows-gnu -shared -o "$TMP/bcryptprimitives.dll" \
  scripts/wine/bcryptprimitives.c -ladvapi32 >"$TMP/zig" 2>&1 \
  || { echo "cannot build the bcryptprimitives.dll stand-in:" >&2; cat "$TMP/zig" >&2; exit 2; }
cp "$TMP/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

passed=0; failed=""
for exe in $exes; do
  echo "wine $exe"
  wine "$exe" --test-threads 2 >"$TMP/out" 2>&1
  n=$(sed -n 's/^test result: .* \([0-9]*\) passed;.*/\1/p' "$TMP/out" | tail -1)
  [ -n "$n" ] || { echo "no result from $exe:" >&2; tail -20 "$TMP/out" >&2; exit 1; }
  passed=$((passed + n))
  failed="$failed $(sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$TMP/out" | tr '\n' ' ')"
  sed -n 's/^test result: /  /p' "$TMP/out"
done
known=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' scripts/wine/known-failures.txt | grep -v '^$' || true)
new=""; fixed=""; nknown=0
for t in $failed; do
  if printf '%s\n' "$known" | grep -qxF "$t"; then nknown=$((nknown + 1)); else new="$new $t"; fi
done
for t in $known; do
  printf ' %s ' "$failed" | grep -qF " $t " || fixed="$fixed $t"
done
nfailed=$(printf '%s\n' $failed | grep -c . || true)
echo "wine: $passed passed, $nfailed failed ($nknown listed in scripts/wine/known-failures.txt)"
[ -z "$fixed" ] || echo "listed as failing, now passing (take them off the list):$fixed"
if [ -n "$new" ]; then
  echo "FAIL under Wine, not listed:$new" >&2
  exit 1
fi
