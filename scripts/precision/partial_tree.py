#!/usr/bin/env python3
"""Writes the tree of COMMIT from GITDIR into OUT, leaving out the blobs a snapshot lacks.

    partial_tree.py GITDIR COMMIT OUT

The search tool's snapshots hold no file of 4 MiB or more, so `git archive` of such a commit
fails as a whole; this writes every file the snapshot has and names the ones it had not
(checkout.sh falls back to it).
"""
import os, subprocess, sys
gitdir, commit, out = sys.argv[1:4]
ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", "--full-tree", commit],
                    capture_output=True, check=True).stdout.split(b"\0")
entries = []
for e in ls:
    if not e: continue
    meta, path = e.split(b"\t", 1)
    mode, typ, sha = meta.split()
    entries.append((mode.decode(), typ.decode(), sha.decode(), path.decode("utf-8", "surrogateescape")))
p = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
skipped = []
for mode, typ, sha, path in entries:
    if typ != "blob": continue  # submodules
    p.stdin.write((sha + "\n").encode()); p.stdin.flush()
    header = p.stdout.readline().split()
    if header[1] == b"missing":
        skipped.append(path); continue
    size = int(header[2]); data = p.stdout.read(size); p.stdout.read(1)
    dst = os.path.join(out, path)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if mode == "120000":
        os.symlink(data.decode("utf-8", "surrogateescape"), dst)
    else:
        with open(dst, "wb") as f: f.write(data)
        if mode == "100755": os.chmod(dst, 0o755)
p.stdin.close(); p.wait()
for s in skipped: print("skipped (blob absent):", s)
print(f"{len(entries)} entries, {len(skipped)} skipped", file=sys.stderr)
