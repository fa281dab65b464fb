#!/usr/bin/env bash
# The command-line probes of issue 40 (4 to 12; 1 to 3 and 13 are the language server's, run
# by tests/it/lsp/hostile.rs, and 8 is fix::write's test), and the gaps closed after them
# (q1: a .gitignore linked outside, q2: a template of code alone, q3: scripts that cannot be
# read), run as an attacker would against BIN in scratch repositories. Each line says HELD
# (the attack did not work) or WORKED, with what was seen. See docs/fuzzing.md.
#   usage: scripts/hostile-probes.sh [BIN]
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${1:-$HERE/target/release/yttlint}"
case "$BIN" in */*) BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")" ;; esac
T=$(mktemp -d); trap 'chmod -R u+rwX "$T"; rm -rf "$T"' EXIT; cd "$T" || exit 2
mkdir -p "$T/outside"
say() { printf '%-4s %-7s %s\n' "$1" "$2" "$3"; }
# 4: unused-load of a private module whose top level fails
mkdir -p p4/config/_ytt_lib/m && cd p4 && git init -q . &&
printf 'load("@ytt:assert", "assert")\nassert.fail("top level fails")\ny = 1\n' > config/_ytt_lib/m/h.star &&
printf '#@ load("@ytt:library", "library")\n#@ load("@m:h.star", "y")\n---\nv: 1\n' > config/t.yml &&
printf 'roots:\n  - path: config\n' > .yttlint.yaml &&
"$BIN" --fix --no-cache . >/dev/null 2>&1; grep -q '@m:h.star' config/t.yml && say 4 HELD "load kept by --fix" || say 4 WORKED "load removed"; cd "$T"
# 5: CRD shadowing apps/Deployment
mkdir -p p5/config && cd p5 && git init -q . &&
cat > config/crd.yml <<'Y'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: deployments.apps}
spec:
  group: apps
  names: {kind: Deployment, plural: deployments}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
Y
printf '#@ x = 1\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n      - name: c\n        imag: nginx\n' > config/d.yml &&
out=$("$BIN" --no-cache . 2>&1); rc=$?; echo "$out" | grep -q 'unknown field "imag"' && [ $rc = 1 ] && say 5 HELD "imag error, exit $rc" || say 5 WORKED "exit $rc"; cd "$T"
# 6: evil=decoy
mkdir -p p6/evil=decoy p6/decoy p6/x=y=z p6/- && cd p6 && git init -q . &&
printf '#@ fail("real root evil")\n---\na: 1\n' > evil=decoy/t.yml && printf 'b: 1\n' > decoy/t.yml &&
printf '#@ fail("real root xyz")\n---\na: 1\n' > x=y=z/t.yml && printf '#@ fail("real root dash")\n---\na: 1\n' > -/t.yml &&
printf 'roots:\n  - path: evil=decoy\n  - path: x=y=z\n  - path: "-"\n  - path: decoy\n' > .yttlint.yaml &&
out=$("$BIN" --no-cache . 2>&1); n=$(echo "$out" | grep -c 'fail: real root'); [ "$n" = 3 ] && say 6 HELD "3 own fail()s" || say 6 WORKED "$n of 3"; cd "$T"
# 7: action sarif symlink (lint.sh runs the yttlint on PATH)
mkdir -p p7/config p7/bin && cd p7 && git init -q . && printf 'a: #@ 1\n' > config/t.yml && ln -s .git/config yttlint.sarif && cp "$BIN" bin/yttlint &&
cp .git/config "$T/gitconfig.before"; PATH="$PWD/bin:$PATH" GITHUB_OUTPUT="$T/ghout" YTTLINT_SARIF=yttlint.sarif YTTLINT_PATHS=. bash "$HERE/action/lint.sh" >/dev/null 2>&1; rc=$?
cmp -s .git/config "$T/gitconfig.before" && ! grep -q sarif-file "$T/ghout" && say 7 HELD "exit $rc, no sarif-file output, .git/config unchanged" || say 7 WORKED "exit $rc"; cd "$T"
# 9: non-UTF-8 directory
mkdir -p p9/config && cd p9 && git init -q . && mkdir "config/$(printf '\xff\xfe')" && printf 'a: 1\n' > "config/$(printf '\xff\xfe')/v.yml" && printf '#@ fail("own error")\n---\na: 1\n' > config/t.yml &&
out=$("$BIN" --no-cache . 2>&1); echo "$out" | grep -q 'name-not-utf8' && echo "$out" | grep -q 'fail: own error' && ! echo "$out" | grep -q lstat && say 9 HELD "name-not-utf8 + own error" || say 9 WORKED "$out"; cd "$T"
# 10: 8 scenarios of a 10^9 loop
mkdir -p p10/config && cd p10 && git init -q . && printf '#@ load("@ytt:data", "data")\n#@ def f():\n#@   n = 0\n#@   for i in range(1000000000):\n#@     n += 1\n#@   end\n#@   return n\n#@ end\n---\nv: #@ f() + data.values.k\n' > config/t.yml && printf '#@data/values\n---\nk: 0\n' > config/v.yml &&
{ echo '#!/bin/sh'; for i in 1 2 3 4 5 6 7 8; do echo "ytt -f config -v k=$i"; done; } > run.sh &&
s=$(date +%s.%N); out=$("$BIN" --no-cache --job-timeout 10 -j2 --timeout 15 . 2>&1); e=$(date +%s.%N); n=$(echo "$out" | grep -c 'limit-exceeded'); say 10 "$( [ "$n" -ge 8 ] && echo HELD || echo WORKED)" "$(printf '%.1f' "$(echo "$e - $s" | bc)") s, $n limit-exceeded"; cd "$T"
# 11: 20 scripts x 1000 ytt lines
mkdir -p p11/config && cd p11 && git init -q . && printf '#@ load("@ytt:data", "data")\n---\nv: #@ data.values.k\n' > config/t.yml && printf '#@data/values\n---\nk: 0\n' > config/v.yml &&
for s in $(seq 1 20); do { echo '#!/bin/sh'; for i in $(seq 1 1000); do echo "ytt -f config -v k=$s$i"; done; } > run$s.sh; done &&
s=$(date +%s.%N); out=$("$BIN" --no-cache . 2>&1); e=$(date +%s.%N); echo "$out" | grep -q 'scenarios-capped' && say 11 HELD "$(printf '%.2f' "$(echo "$e - $s" | bc)") s, capped" || say 11 WORKED "$out"; cd "$T"
# 12: uncompilable CRD pattern
mkdir -p p12/config && cd p12 && git init -q . &&
cat > config/crd.yml <<'Y'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {n: {type: string, pattern: "[a-"}}}}}}
Y
printf '#@ x = 1\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {n: ab}\n' > config/w.yml &&
out=$("$BIN" -v --no-cache . 2>&1); echo "$out" | grep -q 'k8s-crd-ignored' && say 12 HELD "k8s-crd-ignored" || say 12 WORKED "$out"; cd "$T"
# new: item 2-4 of this round
mkdir -p q1/config && cd q1 && git init -q . && printf 'k: #@ undefined_x\n' > config/t.yml && printf 'config/\n' > "$T/outside/ignore" && ln -s "$T/outside/ignore" .gitignore &&
out=$("$BIN" --no-cache . 2>&1); echo "$out" | grep -q 'undefined_x' && echo "$out" | grep -q '.gitignore was not read' && say q1 HELD ".gitignore link not followed" || say q1 WORKED "$out"; cd "$T"
mkdir -p q2/config && cd q2 && git init -q . && printf '#@ fail("boom")\n' > config/only.yml && printf 'a: 1\n' > config/p.yml &&
out=$("$BIN" --no-cache . 2>&1); rc=$?; echo "$out" | grep -q 'fail: boom' && say q2 HELD "code-only template evaluated: $(echo "$out" | grep -m1 'fail: boom')" || say q2 WORKED "exit $rc $out"; cd "$T"
mkdir -p q3/config && cd q3 && git init -q . && printf 'a: #@ data.values.k\n' > config/t.yml && printf 'ytt -f config -v k=SECRET4711\n' > "$T/outside/o.sh" && ln -s "$T/outside/o.sh" deploy.sh && mkfifo hack.sh &&
out=$(timeout 60 "$BIN" --no-cache . 2>&1); rc=$?; echo "$out" | grep -q 'script-unread' && ! echo "$out" | grep -q SECRET4711 && [ $rc != 124 ] && say q3 HELD "script-unread, no hang, no leak" || say q3 WORKED "exit $rc $out"; cd "$T"
