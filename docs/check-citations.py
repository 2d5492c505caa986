#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that every section the sources cite exists in docs/msh.md, docs/nres.md, docs/utf.md,
docs/dfm.md, docs/diff.md or docs/gltf.md.

Usage: docs/check-citations.py [--list] [PATH...]   (default: model widgets app tests)

A citation is "msh.md §4.2" or "nres.md §7.3", with or without "docs/", followed by more
sections joined with ", ", "/" or " and " ("msh.md §3/§7.7/§9.1", "msh.md §10.5, §12").
A "§N" without a file name is attributed to the document the same file cites, when it cites
only one; otherwise it is reported as ambiguous. "STYLE §7" and "PLATFORM §2" are not ours.
po/ is not read: its citations are copies of the sources' strings. A section exists when docs/<doc> has a
heading that starts with its number ("## 4.", "### 4.2 ") or a table row that starts with it
("| 13.4 |"). Exit status 1 when a citation does not resolve.
"""
import os
import re
import sys

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)
DEFAULT_PATHS = ["model", "widgets", "app", "tests"]
EXTS = (".c", ".h", ".po", ".md", ".py", ".build", ".ui", ".in")

SEC = r"§\s?(\d+(?:\.\d+)*)"
CITE = re.compile(r"(?:docs/)?(msh|nres|utf|dfm|diff|gltf)\.md\s+" + SEC + r"((?:(?:,\s*|/|\s+and\s+)" + SEC + r")*)")
MORE = re.compile(SEC)
BARE = re.compile(r"(?<![\w.])" + SEC)
OTHER = re.compile(r"(?:STYLE|PLATFORM)(?:\.md)?\s+" + SEC)


def sections(doc):
    found = set()
    with open(os.path.join(DOCS, doc + ".md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#+\s+(\d+(?:\.\d+)*)\.?\s", line) or re.match(r"\|\s*(\d+\.\d+)\s*\|", line)
            if m:
                found.add(m.group(1))
    return found


def files(paths):
    for p in paths:
        p = os.path.join(ROOT, p)
        if os.path.isfile(p):
            yield p
            continue
        for dirpath, dirnames, filenames in os.walk(p):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "_build"))]
            for name in sorted(filenames):
                if name.endswith(EXTS):
                    yield os.path.join(dirpath, name)


def main(argv):
    listing = "--list" in argv
    paths = [a for a in argv if a != "--list"] or DEFAULT_PATHS
    known = {"msh": sections("msh"), "nres": sections("nres"), "utf": sections("utf"),
             "dfm": sections("dfm"), "diff": sections("diff"), "gltf": sections("gltf")}
    bad = 0
    total = 0
    for path in files(paths):
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        text = "".join(lines)
        docs_here = set(m.group(1) for m in CITE.finditer(text))
        for no, line in enumerate(lines, 1):
            spans = [m.span() for m in OTHER.finditer(line)]
            for m in CITE.finditer(line):
                spans.append(m.span())
                secs = [m.group(2)] + MORE.findall(m.group(3) or "")
                for s in secs:
                    total += 1
                    ok = s in known[m.group(1)]
                    bad += not ok
                    if listing or not ok:
                        print("%s:%d: %s.md §%s%s" % (rel, no, m.group(1), s,
                                                       "" if ok else "  <-- no such section"))
            for m in BARE.finditer(line):
                if any(a <= m.start() < b for a, b in spans):
                    continue
                total += 1
                s = m.group(1)
                if len(docs_here) != 1:
                    bad += 1
                    print("%s:%d: §%s  <-- which document? (file cites %s)"
                          % (rel, no, s, ", ".join(sorted(docs_here)) or "none"))
                    continue
                doc = next(iter(docs_here))
                ok = s in known[doc]
                bad += not ok
                if listing or not ok:
                    print("%s:%d: §%s (-> %s.md)%s" % (rel, no, s, doc,
                                                     "" if ok else "  <-- no such section"))
    print("%d citations, %d unresolved" % (total, bad), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
