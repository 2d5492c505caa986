#!/usr/bin/env python3
# compare-validate.py
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Same output check for a change to the validate path (not a test): two builds of mshed-cli
must print the same bytes and exit the same way for `validate` and `validate --json
--tolerant` over a folder of files and over mutated copies of them.

    compare-validate.py --old OLD/mshed-cli --new NEW/mshed-cli --dir CORPUS [--mutants N]

The mutants are made from the corpus files with a fixed seed: bit flips anywhere, truncations,
payload words set to counts and extremes (0, 1, 0x7FFFFFFF, 0xFFFFFFFF, ...), and tree-entry
fields (offsets, sizes) inflated. Each command runs on the clean folder, on the mutant folder
(`--jobs 1`, so the order is fixed) and on every mutant alone; it prints how many outputs were
compared and the first difference, if any.
"""

import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

EXTREMES = [0, 1, 4, 5, 255, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFC]
COMMANDS = [["validate", "--jobs", "1"], ["validate", "--jobs", "1", "--json", "--tolerant"]]


def mutate(data, rng):
    """One mutant of @data and what was done to it."""
    b = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(b))
            b[at] ^= 1 << rng.randrange(8)
        return bytes(b), "bit flips"
    if kind == 1:
        return bytes(b[:rng.randrange(len(b))]), "truncated"
    if len(b) < 56:
        return bytes(b), "unchanged"
    tree_offset, tree_size = struct.unpack_from("<II", b, 8)
    data_offset = struct.unpack_from("<I", b, 36)[0]
    if kind == 2 and data_offset + 4 < len(b):
        at = data_offset + rng.randrange((len(b) - data_offset) // 4) * 4
        struct.pack_into("<I", b, at, rng.choice(EXTREMES))
        return bytes(b), "payload word"
    n_entries = tree_size // 44
    if n_entries == 0 or tree_offset + 44 > len(b):
        return bytes(b), "unchanged"
    entry = tree_offset + rng.randrange(n_entries) * 44
    field = rng.choice([0, 4, 16, 20, 24, 28])  # next, name, child/data, sizes
    if entry + field + 4 <= len(b):
        struct.pack_into("<I", b, entry + field, rng.choice(EXTREMES))
    return bytes(b), "entry field"


def run(cli, args, path):
    r = subprocess.run([cli] + args + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--dir", required=True, help="the clean corpus (e.g. bench-dfm.py --dir)")
    ap.add_argument("--mutants", type=int, default=320)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    sources = sorted(os.path.join(args.dir, n) for n in os.listdir(args.dir))
    work = tempfile.mkdtemp(prefix="compare-validate-")
    compared = 0
    kinds = {}
    try:
        for i in range(args.mutants):
            src = sources[i % len(sources)]
            with open(src, "rb") as f:
                data, kind = mutate(f.read(), rng)
            kinds[kind] = kinds.get(kind, 0) + 1
            name = f"m{i:04d}-{os.path.basename(src)}"
            with open(os.path.join(work, name), "wb") as f:
                f.write(data)
        targets = [args.dir, work] + sorted(os.path.join(work, n) for n in os.listdir(work))
        for t in targets:
            for c in COMMANDS:
                old = run(args.old, c, t)
                new = run(args.new, c, t)
                compared += 1
                if old != new:
                    print(f"DIFFERENT: {' '.join(c)} {t}")
                    print(f"  exit {old[0]} / {new[0]}")
                    for o, n in zip(old[1].splitlines(), new[1].splitlines()):
                        if o != n:
                            print(f"  old: {o.decode(errors='replace')}")
                            print(f"  new: {n.decode(errors='replace')}")
                            break
                    return 1
        print(f"{args.mutants} mutants ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))})"
              f" and the clean folder: {compared} outputs identical")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
