#!/usr/bin/env bash
# Runs the repository's pre-commit hooks for real with `pre-commit try-repo` on a scratch git
# repository made from fixtures/lint-repo, and checks what they do:
#   - `yttlint` (language: python) with a staged clean file passes; with a staged file of a
#     broken root it fails and names the finding; with a staged non-ytt file it lints nothing;
#   - `yttlint-all` fails on the whole repository (it has broken roots);
#   - `yttlint-rust` (cargo build --locked) and `yttlint-system` (the PATH) find the same.
# The python hooks install the yttlint wheel from a local --find-links directory, with no index:
# the wheel is built here by maturin (`--compatibility linux`, reusing this checkout's build),
# with setuptools for the hooks' own package (pip download, the one use of PyPI), unless
# WHEELS=DIR names a directory that already has them. The first python run's time is printed:
# what a user waits for on a first commit. CARGO_TARGET_DIR points the rust hook at this
# checkout's target directory so the dependencies are not built again.
#
# usage: scripts/pre-commit-try.sh     (needs git, cargo, pre-commit and maturin from PyPI)
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (pip install pre-commit)" >&2; exit 2; }
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HERE/target}"
export PRE_COMMIT_HOME="$TMP/cache"

WHEELS="${WHEELS:-}"
if [ -z "$WHEELS" ]; then
  WHEELS="$TMP/wheels"
  command -v maturin >/dev/null || { echo "maturin is not installed (pip install maturin)" >&2; exit 2; }
  ( cd "$HERE/python" && maturin build --quiet --release --compatibility linux --out "$WHEELS" ) >"$TMP/maturin.log" 2>&1 \
    || { echo "maturin build failed:" >&2; tail -20 "$TMP/maturin.log" >&2; exit 2; }
  python3 -m pip download --quiet --dest "$WHEELS" "setuptools>=77" >"$TMP/pip.log" 2>&1 \
    || { echo "pip download setuptools failed:" >&2; tail -5 "$TMP/pip.log" >&2; exit 2; }
fi
export PIP_FIND_LINKS="$WHEELS" PIP_NO_INDEX=1

REPO="$TMP/repo"
cp -r "$HERE/fixtures/lint-repo" "$REPO"
cd "$REPO" || exit 2
git init -q . && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm fixture

failed=0
check() { # check NAME WANT_STATUS WANT_TEXT -- pre-commit args
  local name="$1" want="$2" text="$3"; shift 4
  local start end
  start=$(date +%s.%N)
  pre-commit try-repo "$HERE" "$@" > "$TMP/out" 2>&1
  local got=$?
  end=$(date +%s.%N)
  if [ "$got" != "$want" ] || ! grep -q -- "$text" "$TMP/out"; then
    echo "FAIL $name: exit $got (want $want), output should contain '$text':"
    sed 's/^/    /' "$TMP/out" | tail -30
    failed=1
  else
    printf 'ok   %-40s %6.1f s\n' "$name" "$(echo "$end - $start" | bc)"
  fi
}

check "python: first run, clean root passes" 0 "Passed"       -- yttlint --files packages/app/config/values.yml
check "python: broken root fails"        1 "template-error" -- yttlint --files broken/app.yml
check "python: non-ytt file lints nothing" 0 "Passed"       -- yttlint --files docs/README.md
check "python: whole repository fails"   1 "template-error" -- yttlint-all --all-files
check "rust (cargo --locked): broken root fails" 1 "template-error" -- yttlint-rust --files broken/app.yml
PATH="$CARGO_TARGET_DIR/release:$PATH" \
check "system: broken root fails"        1 "template-error" -- yttlint-system --files broken/app.yml
exit "$failed"
