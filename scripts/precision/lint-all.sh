#!/bin/bash
# Lints every checkout as a new user would: `BIN --no-cache --format json .` at its top.
#
#   CHECKOUTS=DIR scripts/precision/lint-all.sh BIN OUTDIR [NAME ...]
#
# Writes OUTDIR/NAME.json (the report) and OUTDIR/NAME.err (stderr and the exit code). With
# names, only those checkouts. Each lint has 300 s.
set -u
bin=$(realpath "${1:?usage: lint-all.sh BIN OUTDIR [NAME ...]}")
out=$(realpath -m "${2:?}")
shift 2
checkouts=${CHECKOUTS:?set CHECKOUTS to the folder of checkouts}
mkdir -p "$out"
if [ $# -gt 0 ]; then names=("$@"); else names=($(ls "$checkouts")); fi
for name in "${names[@]}"; do
  (cd "$checkouts/$name" && timeout 300 "$bin" --no-cache --format json . > "$out/$name.json" 2> "$out/$name.err"; echo "exit $?" >> "$out/$name.err")
done
echo "linted ${#names[@]} into $out"
