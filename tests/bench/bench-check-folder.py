#!/usr/bin/env python3
# bench-check-folder.py
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check Folder benchmark (not a test): a generated game folder of about 1 GB, checked by the
folder check of the Check Folder window (bench-check-folder, model/mshed-folder-check.h) on
every processor, beside a plain read of the same bytes, with the time to the first result;
and `mshed-cli validate DIR` on the same folder as a whole process.

    bench-check-folder.py --cli BUILDDIR/app/mshed-cli --bench BUILDDIR/tests/bench-check-folder
                          [--size MB] [--dir DIR] [--passes N]

The folder (under /tmp, deleted afterwards unless --dir is given) is made with
`mshed-cli generate`: archives of 10 models (up to 30,000 triangles each), loose models of
50,000 triangles, and deformable models (.dfm), until it holds --size MB (default 1000).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(root, name))
               for root, _, files in os.walk(folder) for name in files)


def generate(cli, folder, size):
    """Adds one file of each kind per round until the folder holds size bytes: the first 8
    rounds generate them (8 seeds), the later ones copy those under new names."""
    for sub in ("archives", "models", "dfm"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    total = 0
    firsts = []
    i = 0
    while total < size:
        seed = 100 + i % 8
        outputs = [
            (["--archive", "10", "--triangles", "30000"], f"archives/pack-{i:04d}.rlb"),
            (["--triangles", "50000"], f"models/model-{i:04d}.msh"),
            (["--dfm", ("body", "head", "hand", "four-level")[i % 4]], f"dfm/char-{i:04d}.dfm"),
        ]
        for k, (option, name) in enumerate(outputs):
            path = os.path.join(folder, name)
            if i < 8:
                subprocess.run([cli, "generate", "-q", "--seed", str(seed)] + option +
                               ["-o", path], check=True)
                firsts.append(path)
            else:
                shutil.copyfile(firsts[(i % 8) * len(outputs) + k], path)
            total += os.path.getsize(path)
        i += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, help="mshed-cli, to generate and to time")
    parser.add_argument("--bench", required=True, help="the bench-check-folder program")
    parser.add_argument("--size", type=int, default=1000, help="MB to generate (default 1000)")
    parser.add_argument("--passes", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--dir", help="write the folder to DIR and keep it")
    args = parser.parse_args()

    folder = args.dir or tempfile.mkdtemp(prefix="mshed-bench-check-", dir="/tmp")
    try:
        t0 = time.perf_counter()
        generate(args.cli, folder, args.size * 1000 * 1000)
        print(f"generated {folder_bytes(folder) / 1e6:.0f} MB in "
              f"{time.perf_counter() - t0:.0f} s; {os.cpu_count()} processors")
        sys.stdout.flush()
        subprocess.run([args.bench, folder, "--passes", str(args.passes)], check=True)
        best = None
        for _ in range(args.passes):
            t0 = time.perf_counter()
            run = subprocess.run([args.cli, "validate", folder], stdout=subprocess.PIPE)
            elapsed = time.perf_counter() - t0
            if run.returncode != 0:
                sys.exit(f"mshed-cli validate failed ({run.returncode})")
            best = elapsed if best is None else min(best, elapsed)
        print(f"mshed-cli validate DIR:   {best:7.3f} s, "
              f"{folder_bytes(folder) / 1e6 / best:6.0f} MB/s (best of {args.passes}, "
              f"whole process)")
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
