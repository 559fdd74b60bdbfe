#!/usr/bin/env python3
"""The feedback-loop benchmark: how long a learner waits, measured.

Usage (from the repository root, after `cargo build --release`):

    python3 bench/run.py [--runs N]

Prints medians over N runs (default 10) of:

  (a) a warm re-check of exercise 01 after a one-line edit, through
      `mcplings check 01`, beside the floor for the same edit (an
      incremental `cargo build -q -p exercise-01-encode-frames` plus one run
      of the harness binary), and their ratio;
  (b) the first check with an empty target dir for the exercise crates
      (dependencies compiled from scratch), once: it takes a while;
  (d) `mcplings --help`;
  (e) `mcplings verify` for the whole course, once.

It works on a scratch copy of the course with a target dir of its own, so
your exercises, your progress and your build stay as they are. Save-to-
result latency in the TUI, its first frame, memory and idle CPU are not
measured yet.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MCPLINGS = REPO / "target" / "release" / "mcplings"
# Set in main: the scratch course and its environment.
ROOT = Path()
ENV = dict(os.environ)


def timed(argv, env=None):
    """Seconds `argv` took in the scratch course."""
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env or ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def touch_line(exercise, original, n):
    """The exercise file with a comment line that differs on every run."""
    exercise.write_text(original + f"\n// bench edit {n} {time.time_ns()}\n")


def median_ms(samples):
    return statistics.median(samples) * 1000


def main():
    global ROOT, ENV
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    if not MCPLINGS.exists():
        sys.exit("build the app first: cargo build --release")
    with tempfile.TemporaryDirectory(prefix="mcplings-bench-") as scratch:
        ROOT = Path(scratch) / "course"
        shutil.copytree(REPO, ROOT, ignore=shutil.ignore_patterns("target", ".git", ".mcplings"))
        # The shipped stubs, whatever state your own exercises are in.
        for stub in (ROOT / "lessons").glob("*/stubs/*"):
            shutil.copytree(stub, ROOT / "exercises" / stub.name, dirs_exist_ok=True)
        ENV = dict(os.environ, CARGO_TARGET_DIR=str(Path(scratch) / "target"), MCPLINGS_ROOT=str(ROOT))
        exercise = ROOT / "exercises" / "01-encode-frames" / "src" / "lib.rs"
        original = exercise.read_text()
        harness = Path(scratch) / "target" / "debug" / "exercise-01-encode-frames"

        # (b) first: the target dir is still empty.
        b = timed([MCPLINGS, "check", "01"])
        check, floor = [], []
        for n in range(args.runs):
            touch_line(exercise, original, n)
            check.append(timed([MCPLINGS, "check", "01"]))
            touch_line(exercise, original, n + 1000)
            started = time.perf_counter()
            subprocess.run(["cargo", "build", "-q", "-p", "exercise-01-encode-frames"], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run([harness, "encode"], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            floor.append(time.perf_counter() - started)
        a_check, a_floor = median_ms(check), median_ms(floor)
        print(f"(a) warm re-check after a one-line edit: {a_check:.0f} ms; floor (cargo build -p + run): {a_floor:.0f} ms; ratio {a_check / a_floor:.2f}")
        print(f"(b) first check with an empty target dir: {b * 1000:.0f} ms ({b / (a_check / 1000):.1f}x the warm figure)")

        helps = [timed([MCPLINGS, "--help"]) for _ in range(args.runs)]
        print(f"(d) mcplings --help: {median_ms(helps):.1f} ms")

        e = timed([MCPLINGS, "verify"])
        print(f"(e) mcplings verify (every exercise's stub and solution): {e:.1f} s")


if __name__ == "__main__":
    main()
