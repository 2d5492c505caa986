#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that no line of the C sources is longer than 100 columns (CONTRIBUTING.md, code style).

Usage: tests/check-line-length.py [PATH...]   (default: model widgets app tests)

Reads every *.c and *.h under the given directories (recursively). Columns are counted in
characters, not bytes: “ ” × § … are one column each. Prints "file:line: N columns" for every
line over the limit and exits with status 1 when there is one.
"""
import os
import sys

LIMIT = 100
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PATHS = ["model", "widgets", "app", "tests"]


def sources(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h")):
                    yield os.path.join(dirpath, name)


def main(argv):
    paths = argv[1:] or [os.path.join(ROOT, p) for p in DEFAULT_PATHS]
    n_long = 0
    for path in sources(paths):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                width = len(line.rstrip("\r\n"))
                if width > LIMIT:
                    print("%s:%d: %d columns (at most %d)"
                          % (os.path.relpath(path, ROOT), number, width, LIMIT))
                    n_long += 1
    if n_long:
        print("%d line(s) longer than %d columns" % (n_long, LIMIT), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
