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
      (dependencies compiled from scratch), once, through the CLI; and in
      the workbook, which builds every exercise's dependencies in the
      background when it opens: how long that takes, and the first check
      after it;
  (c) save-to-result in the workbook's watch mode: the time from saving
      exercise 01 (the solution, then the stub, in turn) to the screen
      showing the new verdict, beside `mcplings check 01` after the same
      saves; the difference is what the app adds (debounce, drawing);
  (d) `mcplings --help`, and the workbook's first frame (from starting the
      process to the map on screen);
  (e) `mcplings verify` for the whole course, once; the workbook's peak
      resident memory over a session (map, exercise, checks), and its CPU
      use while idle on the map for 30 s.

It works on a scratch copy of the course with a target dir of its own, so
your exercises, your progress and your build stay as they are. The app
runs on a pseudo-terminal of 80x24 rendered by the terminal emulator
`pyte`, installed into target/bench-venv on first use.
"""

import argparse
import os
import re
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


def with_pyte():
    """Re-runs this script under a venv that has pyte, unless this one has."""
    try:
        import pyte  # noqa: F401
        return
    except ImportError:
        pass
    venv = REPO / "target" / "bench-venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "pyte==0.8.2"], check=True)
    os.execv(python, [str(python), *sys.argv])


def none_pass(text):
    """The cases pane says no case of exercise 01 passes."""
    return re.search(r"\b0/11 pass\b", text) is not None


def all_pass(text):
    return "every case passes" in text


def tui_first_check(scratch):
    """(b) in the workbook: with an empty target dir, how long the
    background build of the exercises takes after it opens, and then how
    long the first check of exercise 01 takes (it runs on opening it)."""
    from tui import Tui

    env = dict(ENV, CARGO_TARGET_DIR=str(Path(scratch) / "target-tui"))
    app = Tui([MCPLINGS], ROOT, env)
    app.wait_for(lambda text: "preparing exercises" in text, timeout=10)
    prebuild = app.wait_for(lambda text: "preparing exercises" not in text, timeout=1800)
    started = time.perf_counter()
    app.keys("e")
    app.wait_for(none_pass, timeout=120)
    first = time.perf_counter() - started
    app.close()
    return prebuild, first


def tui_figures(runs, exercise, original, solution):
    """(c), (d)'s first frame and (e)'s memory and idle CPU, from the app."""
    from tui import Tui

    title = "mcplings · Model Context Protocol"
    first = []
    for _ in range(runs):
        app = Tui([MCPLINGS], ROOT, ENV)
        app.wait_for(lambda text: title in text, timeout=10)
        first.append(time.perf_counter() - app.started)
        app.close()

    app = Tui([MCPLINGS], ROOT, ENV)
    app.wait_for(lambda text: title in text, timeout=10)
    app.wait_for(lambda text: "preparing exercises" not in text, timeout=600)
    time.sleep(1)
    # /proc counts CPU time in clock ticks (10 ms): 30 s resolve 0.03 %.
    before = app.cpu_seconds()
    time.sleep(30)
    idle = (app.cpu_seconds() - before) / 30
    app.keys("e")
    app.wait_for(lambda text: "01 encode-frames" in text, timeout=10)
    app.keys("c")
    app.wait_for(none_pass, timeout=120)
    saves = []
    for n in range(runs):
        # Alternate: the solution passes every case, the stub none.
        exercise.write_text(solution + f"\n// bench save {n}\n")
        saves.append(app.wait_for(all_pass, timeout=120))
        exercise.write_text(original + f"\n// bench save {n}\n")
        saves.append(app.wait_for(none_pass, timeout=120))
    rss = app.peak_rss_kib()
    app.close()
    exercise.write_text(original)

    cli = []
    for n in range(runs):
        for text in (solution, original):
            exercise.write_text(text + f"\n// bench cli {n}\n")
            cli.append(timed([MCPLINGS, "check", "01"]))
    exercise.write_text(original)
    return first, saves, cli, rss, idle


def main():
    global ROOT, ENV
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with_pyte()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
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
        prebuild, first_check = tui_first_check(scratch)
        print(f"(b) in the workbook: the background build after opening takes {prebuild:.1f} s; then the first check of 01: {first_check * 1000:.0f} ms ({first_check / (a_check / 1000):.1f}x the warm figure)")

        solution = (ROOT / "solutions" / "01-encode-frames" / "src" / "lib.rs").read_text()
        first, saves, cli, rss, idle = tui_figures(args.runs, exercise, original, solution)
        print(f"(c) save-to-result in the workbook: {median_ms(saves):.0f} ms; `mcplings check 01` after the same saves: {median_ms(cli):.0f} ms; the app adds {median_ms(saves) - median_ms(cli):.0f} ms")

        helps = [timed([MCPLINGS, "--help"]) for _ in range(args.runs)]
        print(f"(d) mcplings --help: {median_ms(helps):.1f} ms; the workbook's first frame: {median_ms(first):.1f} ms")

        e = timed([MCPLINGS, "verify"])
        print(f"(e) mcplings verify (every exercise's stub and solution): {e:.1f} s; the workbook's peak RSS: {rss / 1024:.1f} MiB; its CPU while idle: {idle * 100:.2f} %")


if __name__ == "__main__":
    main()
