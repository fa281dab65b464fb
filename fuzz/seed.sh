#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds: the fixtures (and a directory of ytt's conformance
# cases when $YTTLINT_CONFORMANCE names one) of the kinds each target reads. The corpora
# are not committed (they grow while fuzzing); run this once before
# `cargo +nightly fuzz run <target>`.
set -eu
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$HERE/.."
sources=("$ROOT/fixtures")
c="${YTTLINT_CONFORMANCE:-}"
if [ -n "$c" ] && [ -d "$c" ]; then sources+=("$c"); fi
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
# CRDs and the objects beside them: every YAML file that holds a `kind:`.
grep -rlZ --include='*.yml' --include='*.yaml' -e '^kind: ' "${sources[@]}" "$ROOT/scripts/catalog/written" |
  while IFS= read -r -d '' f; do seed crd_compile "$f"; done
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
# invocations: small repositories (files as `path\ntext`, NUL-separated) made of the fixture
# repositories (a directory with expected-roots.txt, and the top-level demo and lint repos),
# and each script, Makefile, CI file, Taskfile and README alone.
# report_render: a report over each small fixture YAML file, with findings at its lines whose
# messages are its lines (the layout of src/fuzzing/report_input.rs).
python3 - "$HERE/corpus" "$ROOT/fixtures" <<'PY'
import hashlib, os, sys
out, fixtures = sys.argv[1], sys.argv[2]
def save(target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, hashlib.sha256(data).hexdigest()[:16]), "wb").write(data)
def files_of(base):
    for d, dirs, names in os.walk(base):
        dirs[:] = sorted(x for x in dirs if x != ".git")
        for n in sorted(names):
            yield os.path.join(d, n)
def text_of(path, limit=16384):
    data = open(path, "rb").read()
    return None if len(data) > limit or b"\0" in data else data
def runs_ytt(rel):
    name = rel.rsplit("/", 1)[-1]
    return (name.endswith((".sh", ".bash", ".mk")) or name in ("Makefile", "makefile")
            or name.lower().startswith(("readme", "taskfile")) or name.endswith(".gitlab-ci.yml")
            or rel.startswith(".github/"))
repos = [d for d, _, names in os.walk(fixtures) if "expected-roots.txt" in names]
repos += [os.path.join(fixtures, r) for r in ("demo-repo", "lint-repo", "kubevirt-repo")]
for repo in repos:
    whole = b""
    for f in files_of(repo):
        rel = os.path.relpath(f, repo)
        data = text_of(f)
        if data is None or rel.rsplit("/", 1)[-1].startswith("expected-"):
            continue
        piece = rel.encode() + b"\n" + data + b"\0"
        if runs_ytt(rel):
            save("invocations", piece)
        if len(whole) + len(piece) <= 65536:
            whole += piece
    save("invocations", whole)
for f in files_of(fixtures):
    rel = os.path.relpath(f, fixtures)
    data = text_of(f, 4096)
    if data is None or not rel.endswith((".yml", ".yaml")):
        continue
    lines = data.split(b"\n")
    seed = bytes([2, 0, 1]) + rel.encode() + b"\0" + data + b"\0"
    seed += bytes([1]) + os.path.dirname(rel).encode() + b"\0" + bytes([0, 1, 0, 9])
    findings = [(i, l) for i, l in enumerate(lines[:64]) if l.strip()][:6]
    seed += bytes([len(findings)])
    for k, (i, line) in enumerate(findings):
        col = len(line) - len(line.lstrip())
        seed += bytes([k * 7]) + line.strip() + b"\0" + bytes([0, 1, 0, 0, i, 0, col % 64, 1])
        seed += bytes([1]) + os.path.dirname(rel).encode() + b"\0" + bytes([0, 0, 0, 0, 0])
    save("report_render", seed + bytes([0]))
PY
# fix_apply: each small fixture YAML or Starlark file, its first lines each removed whole (the
# layout of src/fuzzing/fixes.rs), as tests/it/fuzz_smoke.rs makes them.
python3 - "$HERE/corpus/fix_apply" "$ROOT/fixtures" <<'PY'
import hashlib, os, sys
out, fixtures = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for d, _, names in os.walk(fixtures):
    for n in names:
        if not n.endswith((".yml", ".yaml", ".star")):
            continue
        data = open(os.path.join(d, n), "rb").read().replace(b"\0", b"")
        if len(data) > 4096:
            continue
        # Each file as it is, and with the old Mac line end (a CR alone ends a line too).
        for data in (data, data.replace(b"\n", b"\r")) if b"\n" in data else (data,):
          starts = [0] + [i + 1 for i, b in enumerate(data) if b in (10, 13) and i + 1 < len(data)
                          and not (b == 13 and data[i + 1] == 10)]
          starts = starts[:6]
          seed = data + b"\0x = 1\n\0" + bytes([max(len(starts) - 1, 0)])
          for a, b in zip(starts, starts[1:]):
              seed += bytes([0, 0, 1, 4, a >> 8 & 255, a & 255, 0, 4, b >> 8 & 255, b & 255]) + b"\0\x01"
          open(os.path.join(out, hashlib.sha256(seed).hexdigest()[:16]), "wb").write(seed)
PY
# lsp_messages: a session on each file of fixtures/lsp (as src/fuzzing/lsp.rs `seeds` makes
# them): opened, asked about at its first lines, changed, closed; framed as the editor frames.
python3 - "$HERE/corpus/lsp_messages" "$ROOT/fixtures/lsp" <<'PY'
import hashlib, json, os, re, sys
out, ws = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for d, _, names in os.walk(ws):
    for n in names:
        rel = os.path.relpath(os.path.join(d, n), ws)
        orig = open(os.path.join(d, n)).read()
        # Each file as it is, and with the old Mac line end (a CR alone), which the protocol
        # counts as a line end too.
        for text in (orig, orig.replace("\n", "\r")):
          uri = "file:///ws/" + rel
          msgs = [{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
                   {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}]
          rid = 1
          for line, l in enumerate(re.split("\r\n|\r|\n", text)[:24]):
              i = l.find("data.values.")
              ch = i + 13 if i >= 0 else len(l) // 2
              at = {"textDocument": {"uri": uri}, "position": {"line": line, "character": ch}}
              for m in ["textDocument/hover", "textDocument/definition", "textDocument/completion",
                        "textDocument/prepareRename"]:
                  msgs.append({"jsonrpc": "2.0", "id": rid, "method": m, "params": at})
                  rid += 1
          msgs.append({"jsonrpc": "2.0", "id": rid, "method": "textDocument/documentSymbol",
                       "params": {"textDocument": {"uri": uri}}})
          msgs.append({"jsonrpc": "2.0", "method": "textDocument/didClose",
                       "params": {"textDocument": {"uri": uri}}})
          seed = b"".join(b"Content-Length: %d\r\n\r\n" % len(b) + b
                          for b in (json.dumps(m).encode() for m in msgs))
          open(os.path.join(out, hashlib.sha256(seed).hexdigest()[:16]), "wb").write(seed)
PY
for t in "$HERE"/corpus/*; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
