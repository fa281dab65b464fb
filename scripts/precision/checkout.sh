#!/bin/bash
# Makes work trees of fetched snapshots at recorded commits.
#
#   scripts/precision/repos.py twelve | scripts/precision/checkout.sh DIR
#
# Each input line is `owner/name commit`; the snapshot must already be under
# /work/.mirror/owner+name (the search tool's `fetch`). The tree goes to DIR/owner+name, made
# with `git archive` (no .git). A missing snapshot or commit is listed on stderr, not skipped
# silently.
set -u
dir=${1:?usage: checkout.sh DIR < list}
mirror=${MIRROR:-/work/.mirror}
mkdir -p "$dir"
missing=0
while read -r name commit; do
  [ -n "$name" ] || continue
  key=${name/\//+}
  git_dir=$(ls -d "$mirror/$key"/*/ 2>/dev/null | head -1)
  if [ -z "$git_dir" ]; then echo "no snapshot: $name" >&2; missing=$((missing+1)); continue; fi
  [ -d "$dir/$key" ] && continue
  mkdir -p "$dir/$key"
  if ! git --git-dir="$git_dir" archive "$commit" 2>/dev/null | tar -x -C "$dir/$key" 2>/dev/null; then
    echo "no commit $commit in $name" >&2; rm -rf "${dir:?}/$key"; missing=$((missing+1))
  fi
done
echo "missing: $missing" >&2
