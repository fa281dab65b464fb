#!/usr/bin/env bash
# Benchmark: renders every root of ../shared/corpus with `yttlint template` (the root's own ytt
# command line), one after the other, and reports the total wall time, the peak memory of the
# heaviest root, and the slowest roots next to the reference ytt times of timing.tsv.
#
# usage: scripts/bench.sh [BIN] [CORPUS_DIR]
set -u
export LC_ALL=C
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$HERE/target/release/yttlint}"
CORPUS="${2:-$HERE/../shared/corpus}"
case "$BIN" in */*) BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")" ;; esac
[ -x "$BIN" ] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
[ -f "$CORPUS/manifest.tsv" ] || { echo "no corpus at $CORPUS" >&2; exit 2; }
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

total_start=$(date +%s.%N)
peak_kb=0; peak_root=""
: > "$TMP/times"
while IFS=$'\t' read -r id _repo _commit _lic _src cmd _rest; do
  [ "$id" = id ] && continue
  args="${cmd#ytt }"
  start=$(date +%s.%N)
  ( cd "$CORPUS/roots/$id" && eval "/usr/bin/time -f %M -o \"$TMP/rss\" \"\$BIN\" template $args" ) \
    >/dev/null 2>&1 </dev/null
  status=$?
  end=$(date +%s.%N)
  kb=$(tail -1 "$TMP/rss" 2>/dev/null || echo 0)
  case "$kb" in ''|*[!0-9]*) kb=0 ;; esac
  if [ "$kb" -gt "$peak_kb" ]; then peak_kb=$kb; peak_root=$id; fi
  echo "$id $(echo "($end - $start) * 1000" | bc) $status" >> "$TMP/times"
done < "$CORPUS/manifest.tsv"
total_end=$(date +%s.%N)

echo "roots:        $(wc -l < "$TMP/times")"
echo "wall time:    $(echo "$total_end - $total_start" | bc) s (sequential)"
echo "peak memory:  $((peak_kb / 1024)) MiB ($peak_root)"
echo "rendered:     $(awk '$3 == 0' "$TMP/times" | wc -l) roots exit 0"
echo "slowest roots that render (yttlint ms / ytt median ms):"
awk '$3 == 0' "$TMP/times" | sort -k2 -g -r | head -5 | while read -r id t _; do
  ref=$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$CORPUS/timing.tsv" 2>/dev/null | head -1)
  printf '  %-55s %8.1f / %s\n' "$id" "$t" "${ref:-?}"
done
