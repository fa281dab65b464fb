#!/usr/bin/env bash
# The lint step of the GitHub Action (action.yml): runs yttlint with annotations on standard
# output and a SARIF report, and sets the step's outputs:
#   exit-code   yttlint's exit status
#   sarif-file  the report's absolute path, native to the runner (D:\a\repo\yttlint.sarif on
#               Windows, which is what github/codeql-action/upload-sarif reads), when written
# Inputs arrive as environment variables and are only ever words of the command, never code:
#   YTTLINT_PATHS (split on whitespace), YTTLINT_CONFIG, YTTLINT_SARIF, YTTLINT_SHARD,
#   YTTLINT_EXIT_ZERO ("true" adds --exit-zero).
set -uo pipefail

args=(--format github --report "sarif=$YTTLINT_SARIF")
if [ -n "${YTTLINT_SHARD:-}" ]; then args+=(--shard "$YTTLINT_SHARD"); fi
if [ -n "${YTTLINT_CONFIG:-}" ]; then args+=(--config "$YTTLINT_CONFIG"); fi
if [ "${YTTLINT_EXIT_ZERO:-}" = "true" ]; then args+=(--exit-zero); fi
read -r -a paths <<<"${YTTLINT_PATHS:-}"
status=0
# ${a[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
yttlint "${args[@]}" ${paths[@]+"${paths[@]}"} || status=$?
echo "exit-code=$status" >>"$GITHUB_OUTPUT"
if [ -f "$YTTLINT_SARIF" ]; then
  sarif=$(cd "$(dirname "$YTTLINT_SARIF")" && pwd)/$(basename "$YTTLINT_SARIF")
  if [ "${RUNNER_OS:-}" = Windows ] && command -v cygpath >/dev/null; then
    sarif=$(cygpath -w "$sarif")
  fi
  echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
fi
exit "$status"
