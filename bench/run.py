#!/usr/bin/env python3
"""The feedback-loop benchmark: how long a learner waits, measured.

Usage (from the repository root, after `cargo build --release`):

    python3 bench/run.py [--runs N]

Prints medians over N runs (default 10) of:

  (a) a warm re-check of exercise 01 after a one-line edit, through
      `mcplings check 01`, beside the floor for the same edit (an
      incremental `cargo build -q --manifest-path exercises/Cargo.toml -p
      exercise-01-encode-frames`, into the same target dir, plus one run of
      the harness binary), and their ratio;
  (b) the first check with an empty target dir for the exercise crates
      (dependencies compiled from scratch), once, through the CLI; and in
      the workbook, which builds every exercise's dependencies in the
      background when it opens: how long that takes, and the first check
      after it;
  (c) save-to-result in the workbook's watch mode: the time from saving
      exercise 01 (the solution, then the stub, in turn) to the screen
      showing the new verdict, beside rustlings 6.5.0 doing the same in its
      watch mode on `intro2` (a passing, then a failing file), the two
      interleaved save by save on the same kind of pseudo-terminal, and
      their ratio; and `mcplings check 01` after the same saves: the
      difference is what the workbook adds (noticing the save, drawing)
      or saves (the CLI starts a process and loads the course each time);
  (d) `mcplings --help`, and the workbook's first frame (from starting the
      process to the map on screen);
  (e) `mcplings verify` for the whole course, once; the workbook's peak
      resident memory over a session (map, exercise, checks), and its CPU
      use while idle on the map for 30 s;
  (f) every exercise's warm `mcplings check NN --solution`, wall time, the
      median of three runs after one that builds: with the windows
      stretched by the load as a learner's machine would, and with
      MCPLINGS_TIME_SCALE=1 (the windows the checkers name). The load
      average is printed beside (c) and (f).

  (g) opt-in (`--only g`, not in the default): `mcplings doctor` against
      real stdio servers, the default way (the checks that only list, read
      and validate share a process per era) beside `--isolated` (a fresh
      process per check), interleaved run by run, the median of three of
      each: the Python SDK's MCPServer (`.ci/interop/sdk_server.py`,
      dual-era; `--sdk-python` names a Python with the SDK) and
      server-everything (`--everything` names its `mcp-server-everything`);
      each line says whether the two ways gave the same verdicts. Targets
      on a quiet machine: MCPServer ≤ 15 s, server-everything ≤ 5 s.

  (h) opt-in (`--only h`, not in the default): what a learner waits for
      before the first lesson, beside rustlings: `cargo install rustlings
      --version 6.5.0 --locked` and `cargo install --path . --locked` for
      mcplings, cold (a fresh `--root` and `CARGO_TARGET_DIR` each, deleted
      after), offline from the downloaded registry (`cargo fetch` first,
      untimed), one after the other, the first of the two alternating run
      by run; the median wall of `--runs` installs each, their ratio, and
      each install's CPU seconds (user + system of cargo and every rustc)
      and the largest process's peak memory. The load average before each
      install is printed beside; the last run's `--timings` reports are kept
      in target/bench-install/. Target (issue 38), quiet: mcplings ≤ 2 min.

`--only cf` runs some of them. rustlings is installed on first use with
`cargo install rustlings --version 6.5.0 --locked --root
target/bench-tools`, and runs in a scratch workspace made by `rustlings
init`.

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
RUSTLINGS_VERSION = "6.5.0"
RUSTLINGS = REPO / "target" / "bench-tools" / "bin" / "rustlings"
# intro2 as shipped (it does not compile), and as fixed.
RUSTLINGS_FAILING = 'fn main() {\n    // TODO: Fix the code to print "Hello world!".\n    printline!("Hello world!");\n}\n'
RUSTLINGS_PASSING = 'fn main() {\n    println!("Hello world!");\n}\n'
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
    return re.search(r"\b0/\d+ pass\b", text) is not None


def all_pass(text):
    return "every case passes" in text


def rustlings_workspace(scratch):
    """A scratch rustlings workspace with `intro2` current (installing
    rustlings first if it is not in target/bench-tools); returns the
    workspace and intro2's file."""
    if not RUSTLINGS.exists():
        subprocess.run(["cargo", "install", "rustlings", "--version", RUSTLINGS_VERSION, "--locked",
                        "--root", str(REPO / "target" / "bench-tools")], check=True)
    subprocess.run([RUSTLINGS, "init"], cwd=scratch, input=b"\n", check=True, stdout=subprocess.DEVNULL)
    workspace = Path(scratch) / "rustlings"
    # The state file: intro1 done, intro2 current (no welcome screen).
    (workspace / ".rustlings-state.txt").write_text("DON'T EDIT THIS FILE!\n\nintro2\n\nintro1\n")
    return workspace, workspace / "exercises" / "00_intro" / "intro2.rs"


def rustlings_passes(text):
    return "Exercise done" in text


def rustlings_fails(text):
    return "printline" in text and "Exercise done" not in text


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


def tui_figures(runs, exercise, original, solution, scratch):
    """(c), (d)'s first frame and (e)'s memory and idle CPU, from the app."""
    from tui import Tui

    workspace, intro2 = rustlings_workspace(scratch)

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
    rustlings = Tui([RUSTLINGS], workspace, ENV)
    rustlings.wait_for(rustlings_fails, timeout=600)
    # Each app: (its file, the passing and failing text, when each shows).
    apps = {
        "mcplings": (app, exercise, (solution, all_pass), (original, none_pass)),
        "rustlings": (rustlings, intro2, (RUSTLINGS_PASSING, rustlings_passes), (RUSTLINGS_FAILING, rustlings_fails)),
    }
    saves = {name: [] for name in apps}
    # One round to warm up, then `runs` rounds; each round saves a passing
    # and then a failing file in each app, the apps taking turns to go first.
    for n in range(runs + 1):
        order = list(apps) if n % 2 == 0 else list(reversed(apps))
        for name in order:
            tui, file, *versions = apps[name]
            for text, shown in versions:
                file.write_text(text + f"\n// bench save {n}\n")
                waited = tui.wait_for(shown, timeout=120)
                if n > 0:
                    saves[name].append(waited)
                # A learner reads the verdict before saving again; rustlings
                # also ignores saves made while it is still running one.
                time.sleep(0.5)
    rss = app.peak_rss_kib()
    rustlings.close()
    app.close()
    exercise.write_text(original)

    cli = []
    for n in range(runs):
        for text in (solution, original):
            exercise.write_text(text + f"\n// bench cli {n}\n")
            cli.append(timed([MCPLINGS, "check", "01"]))
    exercise.write_text(original)
    return first, saves, cli, rss, idle


def warm_checks(env=None):
    """(f): each exercise's warm `mcplings check NN --solution`, seconds:
    the median of three runs after one that builds."""
    figures = {}
    for solution in sorted((ROOT / "solutions").iterdir()):
        number = solution.name[:2]
        timed([MCPLINGS, "check", number, "--solution"], env)
        figures[number] = statistics.median(timed([MCPLINGS, "check", number, "--solution"], env) for _ in range(3))
    return figures


def doctor_figures(servers, mcplings, runs=3):
    """(g): for each server (a label and its command), the median wall
    seconds of `mcplings doctor --json` shared and `--isolated`, the runs
    interleaved, and whether every run gave the same verdicts (each
    check's id, era and outcome)."""
    import json

    times = {label: {"shared": [], "isolated": []} for label, _ in servers}
    verdicts = {label: set() for label, _ in servers}
    for _ in range(runs):
        for label, command in servers:
            for mode in ("shared", "isolated"):
                flags = ["--isolated"] if mode == "isolated" else []
                started = time.perf_counter()
                done = subprocess.run([mcplings, "doctor", "--json", *flags, "--", *command], cwd=REPO,
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True)
                times[label][mode].append(time.perf_counter() - started)
                try:
                    cases = json.loads(done.stdout)["cases"]
                    verdicts[label].add(tuple((c["id"], c.get("era"), c["outcome"]) for c in cases))
                except (ValueError, KeyError):
                    verdicts[label].add(("exit", done.returncode, done.stderr[-200:]))
    return {label: (statistics.median(t["shared"]), statistics.median(t["isolated"]), len(verdicts[label]) == 1)
            for label, t in times.items()}


def install_cold(argv, scratch, name):
    """One cold `cargo install --timings` (a fresh root and target dir under
    `scratch`, deleted after; the timings report kept as
    target/bench-install/NAME-timing.html): wall seconds, CPU seconds (user
    + system of cargo and every process it waited for) and the peak RSS in
    MiB of the largest of them."""
    root, target = Path(scratch) / "root", Path(scratch) / "target"
    for d in (root, target):
        shutil.rmtree(d, ignore_errors=True)
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    started = time.perf_counter()
    child = subprocess.Popen([*argv, "--timings", "--root", str(root)], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    report = target / "cargo-timings" / "cargo-timing.html"
    if report.exists():
        kept = REPO / "target" / "bench-install"
        kept.mkdir(parents=True, exist_ok=True)
        shutil.copy(report, kept / f"{name}-timing.html")
    for d in (root, target):
        shutil.rmtree(d, ignore_errors=True)
    if child.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed:\n{stderr.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def install_figures(runs):
    """(h): rustlings' and mcplings' cold installs, `runs` of each, the
    first of the two alternating run by run; per tool the wall times, CPU
    seconds, peak RSS and the load average before each install."""
    rustlings = ["cargo", "install", "rustlings", "--version", RUSTLINGS_VERSION, "--locked", "--offline"]
    mcplings = ["cargo", "install", "--path", str(REPO), "--locked", "--offline"]
    # The sources, downloaded untimed: mcplings' through its lockfile;
    # rustlings' (its package carries its lockfile) by installing it once
    # online into target/bench-tools, as (c) does, when the registry cache
    # does not hold it.
    subprocess.run(["cargo", "fetch", "--locked"], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    cargo_home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    if not list(cargo_home.glob(f"registry/cache/*/rustlings-{RUSTLINGS_VERSION}.crate")):
        subprocess.run(["cargo", "install", "rustlings", "--version", RUSTLINGS_VERSION, "--locked", "--force",
                        "--root", str(REPO / "target" / "bench-tools")], check=True)
    figures = {"rustlings": [], "mcplings": []}
    with tempfile.TemporaryDirectory(prefix="mcplings-bench-install-") as scratch:
        for n in range(runs):
            order = ["rustlings", "mcplings"] if n % 2 == 0 else ["mcplings", "rustlings"]
            for name in order:
                before = load()
                wall, cpu, rss = install_cold(rustlings if name == "rustlings" else mcplings, scratch, name)
                figures[name].append((wall, cpu, rss, before))
                print(f"(h) run {n + 1}: {name} {wall:.0f} s wall, {cpu:.0f} s CPU, peak {rss:.0f} MiB ({before} before)",
                      flush=True)
    return figures


def load():
    """The 1-minute load average, to print beside a figure: on a shared
    machine it says how far the figure is from a quiet one's."""
    return f"load {os.getloadavg()[0]:.1f}"


def main():
    global ROOT, ENV
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--only", default="abcdef", help="which figures to measure, e.g. `cf` (default: all but g and h)")
    parser.add_argument("--sdk-python", help="(g) a Python with the MCP SDK installed, to run .ci/interop/sdk_server.py")
    parser.add_argument("--everything", help="(g) the mcp-server-everything command (stdio)")
    parser.add_argument("--mcplings", type=Path, default=MCPLINGS, help="(g) the mcplings binary doctor runs from (default: the release build)")
    args = parser.parse_args()
    only = set(args.only)
    if only & set("bcde"):
        with_pyte()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if "g" in only:
        if not (args.sdk_python and args.everything):
            sys.exit("(g) needs --sdk-python PYTHON and --everything COMMAND")
        if not args.mcplings.exists():
            sys.exit(f"no {args.mcplings}: cargo build --release, or name a binary with --mcplings")
        servers = [
            ("MCPServer (Python SDK, dual-era)", [args.sdk_python, str(REPO / ".ci" / "interop" / "sdk_server.py")]),
            ("server-everything (stdio)", [args.everything]),
        ]
        for label, (shared, isolated, same) in doctor_figures(servers, args.mcplings).items():
            agree = "same verdicts" if same else "VERDICTS DIFFER between runs or ways"
            print(f"(g) doctor, {label}, median of 3: shared {shared:.1f} s, --isolated {isolated:.1f} s; {agree} ({load()})")
        only.discard("g")
        if not only:
            return
    if "h" in only:
        figures = install_figures(args.runs)
        walls = {name: statistics.median(f[0] for f in runs) for name, runs in figures.items()}
        cpus = {name: statistics.median(f[1] for f in runs) for name, runs in figures.items()}

        def minutes(s):
            return f"{int(s // 60)}:{s % 60:04.1f}"
        print(f"(h) cold install, median of {args.runs}: mcplings {minutes(walls['mcplings'])} ({cpus['mcplings']:.0f} s CPU), "
              f"rustlings {RUSTLINGS_VERSION} {minutes(walls['rustlings'])} ({cpus['rustlings']:.0f} s CPU): "
              f"ratio {walls['mcplings'] / walls['rustlings']:.1f} wall, {cpus['mcplings'] / cpus['rustlings']:.1f} CPU ({load()})")
        only.discard("h")
        if not only:
            return
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
        # mcplings builds the crates' workspace (exercises/Cargo.toml) into
        # exercises/ under the target dir; the floor builds the same way.
        crates_target = Path(scratch) / "target" / "exercises"
        harness = crates_target / "debug" / "exercise-01-encode-frames"

        if only & set("ab"):
            # (b) first: the target dir is still empty.
            b = timed([MCPLINGS, "check", "01"])
            check, floor = [], []
            for n in range(args.runs):
                touch_line(exercise, original, n)
                check.append(timed([MCPLINGS, "check", "01"]))
                touch_line(exercise, original, n + 1000)
                started = time.perf_counter()
                subprocess.run(["cargo", "build", "-q", "--manifest-path", "exercises/Cargo.toml", "-p", "exercise-01-encode-frames"], cwd=ROOT, env=dict(ENV, CARGO_TARGET_DIR=str(crates_target)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                subprocess.run([harness, "encode"], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                floor.append(time.perf_counter() - started)
            exercise.write_text(original)
            a_check, a_floor = median_ms(check), median_ms(floor)
            print(f"(a) warm re-check after a one-line edit: {a_check:.0f} ms; floor (cargo build -p + run): {a_floor:.0f} ms; ratio {a_check / a_floor:.2f}")
            print(f"(b) first check with an empty target dir: {b * 1000:.0f} ms ({b / (a_check / 1000):.1f}x the warm figure)")
        if "b" in only:
            # The workbook's half of (b) (it needs pyte, which `--only a`
            # does not install).
            prebuild, first_check = tui_first_check(scratch)
            print(f"(b) in the workbook: the background build after opening takes {prebuild:.1f} s; then the first check of 01: {first_check * 1000:.0f} ms ({first_check / (a_check / 1000):.1f}x the warm figure)")

        if only & set("cde"):
            solution = (ROOT / "solutions" / "01-encode-frames" / "src" / "lib.rs").read_text()
            first, saves, cli, rss, idle = tui_figures(args.runs, exercise, original, solution, scratch)
            ours, theirs = median_ms(saves["mcplings"]), median_ms(saves["rustlings"])
            print(f"(c) save to verdict on screen, interleaved, {len(saves['mcplings'])} saves each: mcplings (01) {ours:.0f} ms, rustlings {RUSTLINGS_VERSION} (intro2) {theirs:.0f} ms: ratio {ours / theirs:.2f} ({load()})")
            added = ours - median_ms(cli)
            # The workbook may be the quicker one: the CLI starts a process
            # and loads the course for every check, the workbook does not.
            said = f"the workbook adds {added:.0f} ms" if added >= 0 else f"the workbook is {-added:.0f} ms quicker"
            print(f"(c) `mcplings check 01` after the same saves: {median_ms(cli):.0f} ms; {said}")
            helps = [timed([MCPLINGS, "--help"]) for _ in range(args.runs)]
            print(f"(d) mcplings --help: {median_ms(helps):.1f} ms; the workbook's first frame: {median_ms(first):.1f} ms")
            print(f"(e) the workbook's peak RSS: {rss / 1024:.1f} MiB; its CPU while idle: {idle * 100:.2f} %")

        if "e" in only:
            e = timed([MCPLINGS, "verify"])
            print(f"(e) mcplings verify (every exercise's stub and solution): {e:.1f} s")

        if "f" in only:
            # As a learner's machine runs them (windows stretched by the
            # load, session/slack.rs), and with the windows as the checkers
            # name them (MCPLINGS_TIME_SCALE=1): the checks' own floor.
            for label, env in (("load-scaled", None), ("MCPLINGS_TIME_SCALE=1", dict(ENV, MCPLINGS_TIME_SCALE="1"))):
                figures = warm_checks(env)
                slowest = max(figures, key=figures.get)
                print(f"(f) warm `mcplings check NN --solution`, wall, {label}: " + ", ".join(f"{n} {s:.2f} s" for n, s in figures.items()) + f"; slowest {slowest} ({load()})")

if __name__ == "__main__":
    main()
