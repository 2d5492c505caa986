#!/usr/bin/env python3
# bench-dfm.py
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""DFM validation benchmark (not a test): `mshed-cli validate DIR` on a corpus of generated
deformable models of the retail size (docs/dfm.md section 13: 104 heads, 88 bodies, 12 hands,
two of them with four levels; 204 files, about 25 MB), each run timed as a whole process, beside
a plain read of the same bytes.

    bench-dfm.py --cli BUILDDIR/app/mshed-cli [--passes N] [--dir DIR]

Figures: the corpus; `validate --jobs 1` and `validate` (one job per processor), best and
median wall time and MB/s, and the best processor time (user + system, all threads: what the
run cost, less disturbed than the wall time when other work shares the machine); reading every file once in this process (open + read, page cache
warm), and `cat` of every file to /dev/null as a whole process, for scale. Mesh0 gets 220 to 589
points (--points from the seed), which brings the 204 files to about the retail 25 MB.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def generate(cli, folder):
    """The retail mix: heads, bodies, hands (two of them four-level); --random per seed."""
    plan = [("head", 104), ("body", 88), ("hand", 10), ("four-level", 2)]
    seed = 9000
    for kind, count in plan:
        for i in range(count):
            seed += 1
            # 220..589 points in Mesh0: about the retail 25 MB for the 204 files
            points = 220 + seed * 37 % 370
            subprocess.run([cli, "generate", "-q", "--dfm", kind, "--random", "--seed",
                            str(seed), "--points", str(points),
                            "-o", os.path.join(folder, f"{kind}-{i:03d}.dfm")], check=True)


def files_of(folder):
    return sorted(os.path.join(folder, n) for n in os.listdir(folder))


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv, passes, stdout=subprocess.PIPE):
    """Wall times of @passes runs, the last run, and the processor times of the runs."""
    times = []
    cpu = []
    out = None
    for _ in range(passes):
        c0 = cpu_of_children()
        t0 = time.perf_counter()
        run = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t0)
        cpu.append(cpu_of_children() - c0)
        out = run
    timed.cpu = cpu
    return times, out


def plain_read(paths, passes):
    times = []
    for _ in range(passes):
        t0 = time.perf_counter()
        total = 0
        for p in paths:
            with open(p, "rb") as f:
                total += len(f.read())
        times.append(time.perf_counter() - t0)
    return times


def show(label, times, size, cpu=None):
    best = min(times)
    med = statistics.median(times)
    extra = f"  cpu best {min(cpu) * 1e3:6.1f} ms" if cpu else ""
    print(f"{label:44s} best {best * 1e3:8.1f} ms  median {med * 1e3:8.1f} ms  "
          f"{size / best / 1e6:8.0f} MB/s{extra}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--passes", type=int, default=10)
    ap.add_argument("--dir", help="keep the corpus in DIR (made when missing)")
    args = ap.parse_args()

    folder = args.dir or tempfile.mkdtemp(prefix="bench-dfm-")
    try:
        os.makedirs(folder, exist_ok=True)
        if not any(n.endswith(".dfm") for n in os.listdir(folder)):
            generate(args.cli, folder)
        paths = files_of(folder)
        size = sum(os.path.getsize(p) for p in paths)
        print(f"corpus: {len(paths)} DFM files, {size / 1e6:.1f} MB, in {folder}")

        times, run = timed([args.cli, "validate", "--jobs", "1", folder], args.passes)
        summary = run.stdout.decode().strip().splitlines()[-1]
        print(f"validate summary: {summary}")
        if run.returncode != 0:
            print("validate failed", file=sys.stderr)
            return 1
        show("mshed-cli validate --jobs 1 DIR", times, size, timed.cpu)
        times, _ = timed([args.cli, "validate", folder], args.passes)
        show(f"mshed-cli validate DIR ({os.cpu_count()} jobs)", times, size, timed.cpu)
        times, _ = timed([args.cli, "validate", "--tolerant", "--json", folder], args.passes)
        show("mshed-cli validate --tolerant --json DIR", times, size, timed.cpu)
        show("plain read of the same files (in process)", plain_read(paths, args.passes), size)
        times, _ = timed(["cat"] + paths, args.passes, stdout=subprocess.DEVNULL)
        show("cat FILES > /dev/null (whole process)", times, size, timed.cpu)
        return 0
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
