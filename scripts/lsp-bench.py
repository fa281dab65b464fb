#!/usr/bin/env python3
"""Benchmark of `yttlint server` (not a test): drives the server over stdio as an editor would.

usage: lsp-bench.py BIN REPO VALUES_FILE TEMPLATE N
  Opens VALUES_FILE (repository-relative), edits it N times, waiting each time for its
  diagnostics, and prints the time from each edit to them (median, p90); then the latency of
  hover, definition and completion on the first `data.values.` reference of TEMPLATE.
usage: lsp-bench.py BIN REPO --rss FILE...
  Opens every FILE, waits for the diagnostics of each, and prints the server's peak RSS.
usage: lsp-bench.py BIN REPO --distinct FILE N
  Opens FILE, then edits it N times, each time to a text never seen before (a number in its
  first line changes), waiting for the diagnostics of each; prints the server's resident
  memory after the first diagnostics and after the last (what the server keeps per text).
"""
import json
import os
import statistics
import subprocess
import sys
import threading
import queue
import time


class Server:
    def __init__(self, binary, repo):
        self.proc = subprocess.Popen([binary, "server"], cwd=repo, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.messages = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": uri(repo), "capabilities": {}})
        self.notify("initialized", {})

    def _read(self):
        out = self.proc.stdout
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.startswith(b"Content-Length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.messages.get(timeout=600)
            if m.get("id") == rid and "method" not in m:
                return m.get("result")

    def diagnostics(self, file_uri, version):
        while True:
            m = self.messages.get(timeout=600)
            p = m.get("params") or {}
            if m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == file_uri \
                    and (version is None or p.get("version") == version):
                return p

    def peak_rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """The server's CPU time so far (user and system, all its threads)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=60)


def uri(path):
    return "file://" + os.path.abspath(path)


def ms(seconds):
    return round(seconds * 1000, 1)


def summary(name, samples):
    first = samples[0]
    samples = sorted(samples)
    p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
    print(f"{name}: median {ms(statistics.median(samples))} ms, p90 {ms(p90)} ms, "
          f"first {ms(first)} ms, n={len(samples)}")


def position_of_reference(text):
    for n, line in enumerate(text.split("\n")):
        i = line.find("data.values.")
        if i >= 0:
            j = i + len("data.values.")
            end = j
            while end < len(line) and (line[end].isalnum() or line[end] == "_"):
                end += 1
            if end > j:
                return n, j, end
    raise SystemExit("no data.values. reference in the template")


def edits(binary, repo, values, template, n):
    server = Server(binary, repo)
    path = os.path.join(repo, values)
    text = open(path).read()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(path), "languageId": "yaml", "version": 1, "text": text}})
    server.diagnostics(uri(path), 1)
    times = []
    cpu = server.cpu_seconds()
    for i in range(n):
        version = i + 2
        edited = text + f"\n#! edit {i}\n"
        start = time.monotonic()
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": edited}]})
        server.diagnostics(uri(path), version)
        times.append(time.monotonic() - start)
    cpu = server.cpu_seconds() - cpu
    summary("edit to diagnostics", times)
    print(f"server CPU per edit: {ms(cpu / n)} ms (user and system, every thread)")
    tpath = os.path.join(repo, template)
    ttext = open(tpath).read()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(tpath), "languageId": "yaml", "version": 1, "text": ttext}})
    line, start_col, end_col = position_of_reference(ttext)
    for method, col in [("textDocument/hover", start_col + 1),
                        ("textDocument/definition", start_col + 1),
                        ("textDocument/completion", start_col)]:
        samples = []
        results = None
        for _ in range(20):
            t = time.monotonic()
            results = server.request(method, {"textDocument": {"uri": uri(tpath)},
                                              "position": {"line": line, "character": col}})
            samples.append(time.monotonic() - t)
        summary(f"{method} (answer {'empty' if not results else 'given'})", samples)
    print(f"peak RSS: {server.peak_rss_kib() // 1024} MiB")
    server.stop()


def rss(binary, repo, files):
    server = Server(binary, repo)
    start = time.monotonic()
    for f in files:
        path = os.path.join(repo, f)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "yaml", "version": 1, "text": open(path).read()}})
    for f in files:
        server.diagnostics(uri(os.path.join(repo, f)), 1)
    print(f"{len(files)} files opened, all diagnosed in {ms(time.monotonic() - start)} ms")
    print(f"peak RSS: {server.peak_rss_kib() // 1024} MiB")
    server.stop()


def distinct(binary, repo, file, n):
    server = Server(binary, repo)
    path = os.path.join(repo, file)
    text = open(path).read()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(path), "languageId": "yaml", "version": 1, "text": text}})
    server.diagnostics(uri(path), 1)
    # The first edit's run too: what every run keeps whatever the text is counted once.
    first = None
    start = time.monotonic()
    for i in range(n):
        version = i + 2
        edited = f"#! edit {i}\n" + text
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": edited}]})
        server.diagnostics(uri(path), version)
        if first is None:
            first = server.rss_kib()
    last = server.rss_kib()
    lines = text.count("\n")
    print(f"{n} distinct texts of a {lines}-line file in {ms(time.monotonic() - start)} ms: "
          f"RSS {first // 1024} MiB after the first, {last // 1024} MiB after the last "
          f"(+{(last - first) / 1024:.1f} MiB)")
    server.stop()


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "--distinct":
        distinct(sys.argv[1], sys.argv[2], sys.argv[4], int(sys.argv[5]))
    elif len(sys.argv) > 3 and sys.argv[3] == "--rss":
        rss(sys.argv[1], sys.argv[2], sys.argv[4:])
    else:
        edits(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
