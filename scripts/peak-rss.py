#!/usr/bin/env python3
"""Peak resident memory of a command and every process it starts (not a test).

Runs COMMAND, and every 20 ms (INTERVAL_MS) adds up the resident memory (/proc/PID/statm) of
the command and of all its descendants (found through /proc/PID/stat's parent id). When the
command ends, prints on standard error the peak of that sum, the peak of the command's own
process and the most processes seen at once, then exits with the command's status. Its output
goes where the script's goes.

usage: scripts/peak-rss.py [--json FILE] COMMAND [ARG...]
  --json FILE  also writes the figures as JSON to FILE.
Linux only (reads /proc). A process that lives less than the interval may be missed.
"""
import json
import os
import subprocess
import sys
import time

INTERVAL_MS = int(os.environ.get("INTERVAL_MS", "20"))
PAGE = os.sysconf("SC_PAGE_SIZE")


def parents():
    """Maps every process id to its parent's."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: the fields follow its end.
        fields = stat[stat.rfind(")") + 2 :].split()
        found[int(name)] = int(fields[1])
    return found


def resident(pid):
    """Resident bytes of `pid`, 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def tree(root):
    """`root` and its descendants."""
    children = {}
    for pid, ppid in parents().items():
        children.setdefault(ppid, []).append(pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def main(argv):
    out_json = None
    if len(argv) >= 2 and argv[0] == "--json":
        out_json, argv = argv[1], argv[2:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    child = subprocess.Popen(argv)
    peak_tree = peak_main = most = 0
    start = time.monotonic()
    while child.poll() is None:
        pids = tree(child.pid)
        total = sum(resident(p) for p in pids)
        peak_tree = max(peak_tree, total)
        peak_main = max(peak_main, resident(child.pid))
        most = max(most, len(pids))
        time.sleep(INTERVAL_MS / 1000)
    figures = {
        "peak_tree_mib": round(peak_tree / 2**20, 1),
        "peak_main_mib": round(peak_main / 2**20, 1),
        "processes": most,
        "seconds": round(time.monotonic() - start, 2),
        "status": child.returncode,
    }
    print(
        f"peak-rss: tree {figures['peak_tree_mib']} MiB, main process "
        f"{figures['peak_main_mib']} MiB, at most {most} processes, "
        f"{figures['seconds']} s, exit {child.returncode}",
        file=sys.stderr,
    )
    if out_json:
        with open(out_json, "w") as f:
            json.dump(figures, f)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
