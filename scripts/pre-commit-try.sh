#!/usr/bin/env bash
# Runs the repository's pre-commit hooks for real with `pre-commit try-repo` on a scratch git
# repository made from fixtures/lint-repo, and checks what they do:
#   - `yttlint` with a staged clean file passes; with a staged file of a broken root it fails
#     and names the finding; with a staged non-ytt file it passes without linting anything;
#   - `yttlint-all` fails on the whole repository (it has broken roots).
# pre-commit builds yttlint with `cargo install` (language: rust); CARGO_TARGET_DIR points it
# at this checkout's target directory so the dependencies are not built again.
#
# usage: scripts/pre-commit-try.sh        (needs git, cargo and pre-commit: pip install pre-commit)
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (pip install pre-commit)" >&2; exit 2; }
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HERE/target}"
export PRE_COMMIT_HOME="$TMP/cache"
REPO="$TMP/repo"
cp -r "$HERE/fixtures/lint-repo" "$REPO"
cd "$REPO" || exit 2
git init -q . && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm fixture

failed=0
check() { # check NAME WANT_STATUS WANT_TEXT -- pre-commit args
  local name="$1" want="$2" text="$3"; shift 4
  pre-commit try-repo "$HERE" "$@" > "$TMP/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ] || ! grep -q -- "$text" "$TMP/out"; then
    echo "FAIL $name: exit $got (want $want), output should contain '$text':"
    sed 's/^/    /' "$TMP/out" | tail -30
    failed=1
  else
    echo "ok   $name"
  fi
}

check "clean root passes"       0 "Passed"         -- yttlint --files packages/app/config/values.yml
check "broken root fails"       1 "template-error" -- yttlint --files broken/app.yml
check "non-ytt file lints nothing" 0 "Passed"      -- yttlint --files docs/README.md
check "whole repository fails"  1 "template-error" -- yttlint-all --all-files
exit "$failed"
