#!/usr/bin/env python3
"""Lists the repositories docs/precision.md records, as `owner/name commit` lines.

    repos.py [SECTION-WORD ...]    e.g. `repos.py twelve`, `repos.py eleven twelve`, `repos.py`

A section is a `## ` heading of docs/precision.md; a word picks every heading that holds it
(case-insensitive). With no word, every recorded repository once (its first commit).
"""
import os
import re
import sys

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "precision.md")
PAIR = re.compile(r"([A-Za-z0-9][\w.-]*/[\w.-]+)`?\s*(?:\|\s*)?`([0-9a-f]{7,40})`")


def main():
    words = [w.lower() for w in sys.argv[1:]]
    section = ""
    seen = set()
    with open(DOC, encoding="utf-8") as doc:
        for line in doc:
            if line.startswith("## "):
                section = line.lower()
            if words and not any(w in section for w in words):
                continue
            for name, commit in PAIR.findall(line):
                if name not in seen:
                    seen.add(name)
                    print(name, commit)


if __name__ == "__main__":
    main()
