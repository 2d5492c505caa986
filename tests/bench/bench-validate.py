#!/usr/bin/env python3
# bench-validate.py
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""End-to-end validation benchmark (not a test): `mshed-cli validate DIR` against a plain
Python validator (ref_validate.py, the checks of docs/msh.md section 9.3) on the same folder, each
timed as a whole process, as a user runs it; mshed-cli on one thread (--jobs 1) and on one per
processor (the default).

    bench-validate.py --cli BUILDDIR/app/mshed-cli [--passes N] [--dir DIR] [--python PY]

The Python validator runs under every Python 3 found (Debian's /usr/bin/python3 and the
python3 on PATH, when they differ), each figure printed; --python picks one.

The corpus is made with `mshed-cli generate`: 320 loose models with the shapes bench-model
uses (seeds 1000..1319, --random) and 8 game-like archives of 10 models each in a
subfolder, 400 models in all, plus one file that is not NRes (skipped by both).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def generate(cli, folder):
    os.makedirs(os.path.join(folder, "archives"), exist_ok=True)
    for i in range(320):
        subprocess.run([cli, "generate", "-q", "--random", "--seed", str(1000 + i),
                        "-o", os.path.join(folder, f"model-{i:04d}.msh")], check=True)
    for i in range(8):
        subprocess.run([cli, "generate", "-q", "--archive", "10", "--triangles", "15000",
                        "--seed", str(5000 + i),
                        "-o", os.path.join(folder, "archives", f"pack-{i}.rlb")], check=True)
    with open(os.path.join(folder, "README.txt"), "w") as f:
        f.write("not an NRes file: both validators skip it\n")


def corpus_bytes(folder):
    total = 0
    for root, _, files in os.walk(folder):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in files)
    return total


def timed(argv, passes):
    """Wall-clock seconds of each run of argv as a whole process, and its last output."""
    times = []
    out = None
    for _ in range(passes):
        t0 = time.perf_counter()
        run = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t0)
        if run.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed ({run.returncode}): {run.stderr.decode()}")
        out = run.stdout.decode()
    return times, out.strip().splitlines()[-1]


def pythons(chosen):
    """(executable, version) of each distinct Python 3 to time the reference with."""
    found = []
    for candidate in [chosen] if chosen else ["/usr/bin/python3", shutil.which("python3"),
                                              sys.executable]:
        if not candidate or not os.path.exists(candidate):
            continue
        # a launcher such as pyenv's shim is a script: time the interpreter it runs
        run = subprocess.run([candidate, "-c", "import sys, platform; "
                              "print(sys.executable); print(platform.python_version())"],
                             stdout=subprocess.PIPE, check=True)
        exe, version = run.stdout.decode().split()
        exe = os.path.realpath(exe)
        if exe not in [e for e, _ in found]:
            found.append((exe, version))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, help="the mshed-cli to time")
    parser.add_argument("--python", help="the one Python to run the reference validator "
                        "with (default: each one found)")
    parser.add_argument("--passes", type=int, default=15, help="runs of mshed-cli (default "
                        "15); the Python validator runs a third as often, at least 3 times")
    parser.add_argument("--dir", help="write the corpus to DIR and keep it")
    args = parser.parse_args()

    folder = args.dir or tempfile.mkdtemp(prefix="mshed-bench-validate-")
    try:
        t0 = time.perf_counter()
        generate(args.cli, folder)
        size = corpus_bytes(folder)
        print(f"corpus: 328 NRes files (320 models, 8 archives of 10 models) + 1 other file, "
              f"400 models, {size / 1e6:.1f} MB; generated in {time.perf_counter() - t0:.1f} s")

        # warm the page cache and check that both validators agree before timing
        interpreters = pythons(args.python)
        c_times, c_summary = timed([args.cli, "validate", folder], 2)
        for exe, _ in interpreters:
            _, py_summary = timed([exe, os.path.join(HERE, "ref_validate.py"), folder], 1)
            if c_summary != py_summary:
                sys.exit(f"the validators disagree:\n  mshed-cli: {c_summary}\n  {exe}: "
                         f"{py_summary}")
        print(f"both report: {c_summary}")

        # one thread, and one per processor (the default), alternating run by run so that
        # both see the same machine
        jobs = [("--jobs 1", ["--jobs", "1"]),
                (f"{os.cpu_count()} jobs", [])]
        c_times = [[] for _ in jobs]
        for _ in range(max(args.passes, 1)):
            for i, (_, option) in enumerate(jobs):
                c_times[i] += timed([args.cli, "validate"] + option + [folder], 1)[0]
        c_best = [min(t) for t in c_times]
        c_med = [statistics.median(t) for t in c_times]
        for (name, _), t, best, med in zip(jobs, c_times, c_best, c_med):
            print(f"mshed-cli validate DIR, {name + ':':9} {best * 1e3:6.1f} ms, "
                  f"{size / 1e6 / best:5.0f} MB/s (best of {len(t)} runs; median "
                  f"{med * 1e3:.1f} ms)")
        for exe, version in interpreters:
            py_times, _ = timed([exe, os.path.join(HERE, "ref_validate.py"), folder],
                                max(args.passes // 3, 3))
            py_best, py_med = min(py_times), statistics.median(py_times)
            print(f"Python validator:       {py_best * 1e3:6.0f} ms, "
                  f"{size / 1e6 / py_best:5.0f} MB/s (best of {len(py_times)} runs; median "
                  f"{py_med * 1e3:.0f} ms; Python {version}, {exe})")
            for (name, _), best, med in zip(jobs, c_best, c_med):
                print(f"  ratio, {name + ':':9} mshed-cli is {py_best / best:.1f} times as fast "
                      f"(medians: {py_med / med:.1f} times)")
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
