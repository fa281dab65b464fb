#!/usr/bin/env bash
# The lint step of the GitHub Action (action.yml): runs yttlint with annotations on standard
# output and a SARIF report, and sets the step's outputs:
#   exit-code   yttlint's exit status
#   sarif-file  the report's absolute path, native to the runner (D:\a\repo\yttlint.sarif on
#               Windows, which is what github/codeql-action/upload-sarif reads), when this run
#               wrote it: a regular file, never a symbolic link (a checkout may commit
#               yttlint.sarif -> .git/config, and a later step would read the token from it)
# Inputs arrive as environment variables and are only ever words of the command, never code:
#   YTTLINT_PATHS (split on whitespace and newlines: a YAML `|` block of one path per line
#   works), YTTLINT_CONFIG, YTTLINT_SARIF, YTTLINT_SHARD, YTTLINT_EXIT_ZERO ("true" adds
#   --exit-zero), YTTLINT_ERROR_ON_EMPTY ("true", the default, adds --error-on-empty: a run
#   pointed at a directory without ytt files fails).
set -uo pipefail

# Only a report this run writes is reported: a symbolic link at its path is refused before
# anything runs (yttlint would refuse to write through it too), and an older regular file is
# removed, so that a run that fails early reports no stale file.
if [ -L "$YTTLINT_SARIF" ]; then
  echo "::error title=yttlint::$YTTLINT_SARIF is a symbolic link; the action writes and reports only a regular file it creates (remove the link or set sarif-file)"
  echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 2
fi
if [ -f "$YTTLINT_SARIF" ]; then rm -f -- "$YTTLINT_SARIF"; fi

args=(--format github --report "sarif=$YTTLINT_SARIF")
if [ -n "${YTTLINT_SHARD:-}" ]; then args+=(--shard "$YTTLINT_SHARD"); fi
if [ -n "${YTTLINT_CONFIG:-}" ]; then args+=(--config "$YTTLINT_CONFIG"); fi
if [ "${YTTLINT_EXIT_ZERO:-}" = "true" ]; then args+=(--exit-zero); fi
if [ "${YTTLINT_ERROR_ON_EMPTY:-true}" = "true" ]; then args+=(--error-on-empty); fi
# Every word of the input, whatever separates them (spaces, tabs, newlines); no glob expands.
paths=()
IFS=$' \t\n' read -r -d '' -a paths <<<"${YTTLINT_PATHS:-}" || true
status=0
# ${a[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
yttlint "${args[@]}" ${paths[@]+"${paths[@]}"} || status=$?
echo "exit-code=$status" >>"$GITHUB_OUTPUT"
if [ -f "$YTTLINT_SARIF" ] && [ ! -L "$YTTLINT_SARIF" ]; then
  sarif=$(cd "$(dirname "$YTTLINT_SARIF")" && pwd)/$(basename "$YTTLINT_SARIF")
  if [ "${RUNNER_OS:-}" = Windows ] && command -v cygpath >/dev/null; then
    sarif=$(cygpath -w "$sarif")
  fi
  echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
fi
exit "$status"
