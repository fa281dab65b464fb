#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds: the fixtures (and ../shared/conformance when it is
# there, or $YTTLINT_CONFORMANCE names another copy) of the kinds each target reads. The corpora
# are not committed (they grow while fuzzing); run this once before
# `cargo +nightly fuzz run <target>`.
set -eu
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/.."
sources=("$ROOT/fixtures")
for c in "${YTTLINT_CONFORMANCE:-}" "$ROOT/../shared/conformance"; do
  if [ -n "$c" ] && [ -d "$c" ]; then sources+=("$c"); break; fi
done
seed() { # target file [kind-byte]
  local dir="$HERE/corpus/$1" name
  mkdir -p "$dir"
  name="$(sha256sum "$2" | cut -c1-16)"
  if [ $# -gt 2 ]; then { printf "\\x$3"; cat "$2"; } > "$dir/$name"; else cp "$2" "$dir/$name"; fi
}
find "${sources[@]}" -type f -size -16k \( -name '*.yml' -o -name '*.yaml' \) -print0 |
  while IFS= read -r -d '' f; do
    seed yaml_parse "$f"; seed template_compile "$f"; seed config_parse "$f"; seed template_render "$f" 00
  done
find "${sources[@]}" -type f -size -16k -name '*.star' -print0 |
  while IFS= read -r -d '' f; do seed template_render "$f" 01; done
find "${sources[@]}" -type f -size -16k -name '*.txt' -print0 |
  while IFS= read -r -d '' f; do seed template_compile "$f"; seed template_render "$f" 02; done
find "${sources[@]}" -type f -name '.yttlint.y*ml' -print0 |
  while IFS= read -r -d '' f; do seed config_parse "$f"; done
# KubeVirt annotations: the block scalar under each `validations:` key.
python3 - "$HERE/corpus/kubevirt_annotation" "${sources[@]}" <<'PY'
import hashlib, os, re, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for base in sys.argv[2:]:
    for d, _, names in os.walk(base):
        for n in names:
            if not n.endswith((".yml", ".yaml")):
                continue
            lines = open(os.path.join(d, n), errors="replace").read().split("\n")
            for i, line in enumerate(lines):
                m = re.match(r"^( *)validations: *[|>]-?$", line)
                if not m:
                    continue
                body = []
                for l in lines[i + 1:]:
                    if l.strip() and len(l) - len(l.lstrip()) <= len(m.group(1)):
                        break
                    body.append(l.strip())
                text = "\n".join(body).encode()
                open(os.path.join(out, hashlib.sha256(text).hexdigest()[:16]), "wb").write(text)
PY
for t in "$HERE"/corpus/*; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
