#!/bin/bash
# Makes work trees of fetched snapshots at recorded commits.
#
#   scripts/precision/repos.py twelve | scripts/precision/checkout.sh DIR
#
# Each input line is `owner/name commit`; the snapshot must already be under
# /work/.mirror/owner+name (the search tool's `fetch`). The tree goes to DIR/owner+name, made
# with `git archive` (no .git). A missing snapshot or commit is listed on stderr, not skipped
# silently; so is a file the snapshot lacks (partial_tree.py).
set -u -o pipefail
dir=${1:?usage: checkout.sh DIR < list}
mirror=${MIRROR:-/work/.mirror}
mkdir -p "$dir"
missing=0
while read -r name commit; do
  [ -n "$name" ] || continue
  key=${name/\//+}
  # The snapshot's git directory is OWNER+NAME/repo, or OWNER+NAME/repo/.git.
  git_dir=
  for d in "$mirror/$key"/*/ "$mirror/$key"/*/.git/; do
    if [ -d "$d" ] && git --git-dir="$d" rev-parse -q --verify HEAD >/dev/null 2>&1; then git_dir=$d; break; fi
  done
  if [ -z "$git_dir" ]; then echo "no snapshot: $name" >&2; missing=$((missing+1)); continue; fi
  [ -d "$dir/$key" ] && continue
  if ! git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "no commit $commit in $name" >&2; missing=$((missing+1)); continue
  fi
  mkdir -p "$dir/$key"
  # A snapshot lacks files of 4 MiB and more: then git archive fails, and the tree is written
  # without them (named on stderr).
  if ! git --git-dir="$git_dir" archive "$commit" 2>/dev/null | tar -x -C "$dir/$key" 2>/dev/null; then
    rm -rf "${dir:?}/$key" && mkdir -p "$dir/$key"
    python3 "$(dirname "$0")/partial_tree.py" "$git_dir" "$commit" "$dir/$key" | sed "s|^|$name: |" >&2
  fi
done
echo "missing: $missing" >&2
