#!/usr/bin/env bash
# Reports are byte-identical across runs (issue 29): lints each fixture RUNS times (default 20)
# in each of four modes (with the result cache and with --no-cache, -j 1 and -j 2), writing
# every report format (terminal on standard output, json, junit, sarif, github, gitlab, lcov,
# cobertura), and checks that each output, and the exit status, has one sha256 over all runs
# and modes. Each fixture is copied into a temporary directory first, so that no cache is
# written into the project (the cache's key goes there too: XDG_CACHE_HOME).
#
# usage: scripts/identical-reports.sh [BIN] [RUNS] [FIXTURE...]
#   (directories under fixtures/, `.` for the whole of fixtures/ as one repository: findings of
#   15 rules, fixes, scenarios, coverage; default: demo-repo lint-repo .)
# Exits 0 when every output is identical, 1 when one differs (its two first versions are
# diffed), 2 on setup problems.
set -u
export LC_ALL=C
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$HERE/target/release/yttlint}"
RUNS="${2:-20}"
shift $(($# < 2 ? $# : 2))
FIXTURES=("$@")
[ ${#FIXTURES[@]} -gt 0 ] || FIXTURES=(demo-repo lint-repo .)
case "$BIN" in */*) BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")" ;; esac
[ -x "$BIN" ] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
TMP="$(mktemp -d)"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
[ -n "${KEEP:-}" ] && echo "scratch: $TMP"
FORMATS=(json junit sarif github gitlab lcov cobertura)
MODES=("cache -j1" "cache -j2" "no-cache -j1" "no-cache -j2")
status=0
for fixture in "${FIXTURES[@]}"; do
  [ -d "$HERE/fixtures/$fixture" ] || { echo "no fixture fixtures/$fixture" >&2; exit 2; }
  name="$fixture"
  [ "$fixture" = . ] && name=fixtures
  repo="$TMP/$name/repo" out="$TMP/$name/out"
  mkdir -p "$repo" "$out"
  cp -r "$HERE/fixtures/$fixture/." "$repo/"
  rm -rf "$repo/.yttlint-cache"
  for mode in "${MODES[@]}"; do
    read -r cache jobs <<<"$mode"
    flags=("$jobs" --color never)
    [ "$cache" = no-cache ] && flags+=(--no-cache)
    for run in $(seq 1 "$RUNS"); do
      dir="$out/$cache$jobs-$run"
      mkdir -p "$dir"
      reports=()
      for f in "${FORMATS[@]}"; do reports+=(--report "$f=$dir/$f"); done
      (cd "$repo" && env -u CI -u GITHUB_ACTIONS -u GITLAB_CI XDG_CACHE_HOME="$TMP/xdg" \
        "$BIN" "${flags[@]}" "${reports[@]}" >"$dir/terminal" 2>"$dir/stderr")
      echo "$?" >"$dir/exit"
    done
  done
  for f in terminal "${FORMATS[@]}" exit; do
    # One line per distinct hash: how many runs gave it, then the hash and one such file.
    sums="$(for d in "$out"/*; do sha256sum "$d/$f"; done | sort | awk '
      { n[$1]++; if (!($1 in file)) file[$1] = $2 }
      END { for (h in n) print n[h], h, file[h] }' | sort -rn)"
    distinct="$(printf '%s\n' "$sums" | wc -l)"
    total="$(printf '%s\n' "$sums" | awk '{ s += $1 } END { print s }')"
    size="$(wc -c <"$(printf '%s\n' "$sums" | head -1 | cut -d' ' -f3)")"
    printf '%-10s %-10s %3d runs, %d distinct (%s bytes) %s\n' "$name" "$f" "$total" \
      "$distinct" "$size" "$(printf '%s\n' "$sums" | head -1 | cut -c$((${#total} + 2))- | cut -c1-16)"
    if [ "$distinct" -ne 1 ]; then
      status=1
      first="$(printf '%s\n' "$sums" | sed -n 1p | cut -d' ' -f3)"
      second="$(printf '%s\n' "$sums" | sed -n 2p | cut -d' ' -f3)"
      diff "$first" "$second" | head -20 | sed "s|$TMP/||g"
    fi
  done
done
if [ "$status" -eq 0 ]; then
  echo "every output identical over ${#MODES[@]} modes x $RUNS runs"
else
  echo "outputs differ" >&2
fi
exit "$status"
