#!/usr/bin/env bash
# Benchmark of the language server (`yttlint server`), not a timed test. On a corpus laid out
# as ../shared/corpus is (manifest.tsv, roots/<id>/):
# 1. cf-for-k8s full-sample as a repository (its ytt flags from manifest.tsv): edits its values
#    file N times and prints the time from each edit to its diagnostics (median, p90, the
#    debounce included), then hover, definition and completion latencies on a template;
# 2. every community-edition root in one repository (discovery finds the roots): opens the
#    values file or first template of each and prints the server's peak RSS;
# 3. a template of 2 400 lines (generated) edited 300 times, each time to a text never seen
#    before: the server's resident memory after the first edit and after the last (issue 43).
# The load of the machine (`uptime`) is printed before and after.
# BUSY=K: K processes (`yes > /dev/null`) keep K cores busy during the whole benchmark (the
# latency under load, issue 43), each in a session of its own (as a build in another terminal:
# Linux's autogroups share the CPU between sessions); they are stopped by their ids at the end.
# NICE_GROUP=N (root, e.g. -20): the benchmark's session and the busy processes' sessions get
# the autogroup nice N, so that on a machine shared with other sessions (other users' builds)
# they take the CPU as they would on a machine of their own.
# PARTS="latency rss memory" (the default): the parts to run.
# usage: [BUSY=K] [NICE_GROUP=N] [PARTS=...] scripts/lsp-bench.sh CORPUS_DIR [BIN] [N]
set -euo pipefail
if [ -n "${NICE_GROUP:-}" ] && [ -z "${LSP_BENCH_GROUP:-}" ]; then
  export LSP_BENCH_GROUP="$NICE_GROUP"
  exec setsid --wait bash -c 'echo "$LSP_BENCH_GROUP" > /proc/self/autogroup && exec "$0" "$@"' "$0" "$@"
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${1:?usage: scripts/lsp-bench.sh CORPUS_DIR [BIN] [N]}"
BIN="${2:-$HERE/target/release/yttlint}"
N="${3:-30}"
[ -f "$CORPUS/manifest.tsv" ] || { echo "no corpus at $CORPUS" >&2; exit 2; }
[ -x "$BIN" ] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
PARTS="${PARTS:-latency rss memory}"
TMP="$(mktemp -d)"
busy=()
# The busy processes' share of a core (their CPU time over their age), then stopped.
stop_busy() {
  local p share
  for p in ${busy[@]+"${busy[@]}"}; do
    share=$(awk -v hz="$(getconf CLK_TCK)" 'NR == FNR { up = $1; next }
      { printf "%d%% of a core over %.1f s", 100 * ($14 + $15) / (up * hz - $22), up - $22 / hz }' \
      /proc/uptime "/proc/$p/stat" 2>/dev/null || true)
    echo "== busy process $p ($(cat "/proc/$p/autogroup" 2>/dev/null)): $share"
    kill "$p" 2>/dev/null || true
  done
}
trap 'stop_busy; rm -rf "$TMP"' EXIT
for i in $(seq 1 "${BUSY:-0}"); do
  setsid bash -c 'if [ -n "${LSP_BENCH_GROUP:-}" ]; then echo "$LSP_BENCH_GROUP" > /proc/self/autogroup; fi
    echo "$$" > "$0"; exec yes > /dev/null' "$TMP/busy.$i" &
  while [ ! -s "$TMP/busy.$i" ]; do sleep 0.05; done
  busy+=("$(cat "$TMP/busy.$i")")
done
echo "== load: $(uptime) (${BUSY:-0} busy process(es) of this script; session $(cat /proc/self/autogroup 2>/dev/null || echo ?))"
has() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

ID=cf-for-k8s__full-sample
CF="$TMP/cf"
cp -r "$CORPUS/roots/$ID" "$CF" && chmod -R u+w "$CF"
python3 - "$CORPUS/manifest.tsv" "$ID" > "$CF/.yttlint.yaml" <<'PY'
import csv, json, shlex, sys
for row in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    if row["id"] == sys.argv[2]:
        print("roots:\n  - path: \".\"")
        print(f"    args: {json.dumps(shlex.split(row['ytt_cmd'])[1:])}")
PY
TEMPLATE=$(cd "$CF" && grep -rl --include='*.yml' --exclude-dir=_ytt_lib 'data\.values\.' config | sort | head -1)
if has latency; then
  echo "== $ID: values file edits, template $TEMPLATE"
  python3 "$HERE/scripts/lsp-bench.py" "$BIN" "$CF" corpus-values.yml "$TEMPLATE" "$N"
fi

if has rss; then
CE="$TMP/community-edition"
mkdir -p "$CE"
files=()
for root in "$CORPUS"/roots/community-edition__*; do
  name=$(basename "$root")
  cp -r "$root" "$CE/$name"
  first=$(cd "$CE" && { ls "$name"/corpus-values.yml 2>/dev/null || find "$name" -name '*.yml' ! -name expected.yml | sort | head -1; })
  [ -n "$first" ] && files+=("$first")
done
chmod -R u+w "$CE"
echo "== community-edition: ${#files[@]} roots in one workspace"
python3 "$HERE/scripts/lsp-bench.py" "$BIN" "$CE" --rss "${files[@]}"
fi
if ! has memory; then
  echo "== load: $(uptime)"
  exit 0
fi

BIG="$TMP/big"
mkdir -p "$BIG/config"
printf 'roots:\n  - path: config\n' > "$BIG/.yttlint.yaml"
printf '#@data/values\n---\nname: web\ntier: front\nreplicas: 2\ncpu: 100m\ndebug: false\ncontainers:\n- name: main\n  image: nginx\n  port: 80\n- name: side\n  image: envoy\n  port: 9000\n' > "$BIG/config/values.yml"
python3 - "$BIG/config/big.yml" <<'PY'
import sys
out = ['#@ load("@ytt:data", "data")\n']
i = 0
while sum(b.count("\n") for b in out) < 2400:
    out.append(f"""#@ def labels_{i}(name):
app: #@ name
tier: #@ data.values.tier
index: "{i}"
#@ end
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: #@ "app-{i}-" + data.values.name
  labels: #@ labels_{i}("app-{i}")
spec:
  replicas: #@ data.values.replicas
  selector:
    matchLabels: #@ labels_{i}("app-{i}")
  template:
    metadata:
      labels: #@ labels_{i}("app-{i}")
    spec:
      containers:
      #@ for c in data.values.containers:
      - name: #@ c.name + "-{i}"
        image: #@ c.image
        ports:
        - containerPort: #@ c.port
        resources:
          limits:
            cpu: #@ data.values.cpu
            memory: 128Mi
      #@ end
      #@ if data.values.debug:
      - name: debug-{i}
        image: busybox
      #@ end
---
apiVersion: v1
kind: Service
metadata:
  name: #@ "svc-{i}"
spec:
  selector: #@ labels_{i}("app-{i}")
  ports:
  #@ for c in data.values.containers:
  - port: #@ c.port
    targetPort: #@ c.port
  #@ end
""")
    i += 1
open(sys.argv[1], "w").write("".join(out))
PY
echo "== a 2 400-line template, 300 distinct texts"
python3 "$HERE/scripts/lsp-bench.py" "$BIN" "$BIG" --distinct config/big.yml 300
echo "== load: $(uptime)"
