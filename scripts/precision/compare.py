#!/usr/bin/env python3
"""Compares two folders of lint-all.sh reports, or totals one.

    compare.py --totals DIR          errors and warnings per report, and in all
    compare.py OLD NEW [--list]      what appeared and disappeared, per repository
    compare.py OLD NEW --info        the same, counting `info` findings too

A finding is counted once per (rule, severity, file, line, message), whatever roots and
scenarios repeat it ("distinct findings"). A report that is missing or not JSON is named,
with its stderr's last line.
"""
import json
import os
import sys
from collections import Counter


def load(folder, name, levels):
    path = os.path.join(folder, name + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        err = os.path.join(folder, name + ".err")
        tail = open(err, encoding="utf-8", errors="replace").read().strip().splitlines()[-1:] if os.path.exists(err) else ["no report"]
        return None, tail[0] if tail else "empty"
    found = set()
    for d in report.get("diagnostics", []):
        if d["severity"] in levels:
            found.add((d["rule"], d["severity"], d.get("file"), d.get("line"), d["message"]))
    return found, None


def names(folder):
    return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    levels = {"error", "warning"} | ({"info"} if "--info" in flags else set())
    if "--totals" in flags:
        total = Counter()
        for name in names(args[0]):
            found, problem = load(args[0], name, levels)
            if found is None:
                print(f"{name}: {problem}")
                continue
            c = Counter(f[1] for f in found)
            total.update(c)
            if c:
                print(f"{name}: {c['error']} errors, {c['warning']} warnings")
        print(f"TOTAL: {total['error']} errors, {total['warning']} warnings over {len(names(args[0]))}")
        return
    old_dir, new_dir = args
    totals = {"old": Counter(), "new": Counter()}
    for name in sorted(set(names(old_dir)) | set(names(new_dir))):
        old, p_old = load(old_dir, name, levels)
        new, p_new = load(new_dir, name, levels)
        if old is None or new is None:
            print(f"{name}: old {p_old or 'ok'}, new {p_new or 'ok'}")
            old, new = old or set(), new or set()
        totals["old"].update(f[1] for f in old)
        totals["new"].update(f[1] for f in new)
        gone, came = sorted(old - new, key=str), sorted(new - old, key=str)
        if not gone and not came:
            continue
        print(f"{name}: -{len(gone)} +{len(came)}")
        if "--list" in flags or "--info" in flags:
            for f in gone:
                print(f"  - {f[1]} {f[0]} {f[2]}:{f[3]} {f[4][:160]}")
            for f in came:
                print(f"  + {f[1]} {f[0]} {f[2]}:{f[3]} {f[4][:160]}")
    o, n = totals["old"], totals["new"]
    print(f"TOTAL errors {o['error']} -> {n['error']}, warnings {o['warning']} -> {n['warning']}")


if __name__ == "__main__":
    main()
