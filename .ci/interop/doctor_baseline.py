#!/usr/bin/env python3
"""mcplings doctor against pinned real servers, each outcome held to a baseline.

Usage: doctor_baseline.py --mcplings BIN --everything MAIN_JS --python PY
                          [--baseline FILE] [--only NAME] [--write]

Runs `mcplings doctor --json` against four real setups: the official
TypeScript SDK's demonstration server (@modelcontextprotocol/server-everything,
MAIN_JS, run with node) over stdio and over its Streamable HTTP mode, and the
official Python SDK's MCPServer (.ci/interop/sdk_server.py, run with PY, a
Python with mcp installed) over stdio and over Streamable HTTP. Each case's
outcome (pass, warn, fail, not_verified, not_applicable), by check id and
era, is compared with FILE (default .ci/doctor-baseline.toml), where every
outcome but pass carries the reason it is right:

    ["server-everything (stdio)"]
    "era-detection" = "pass"
    "ids-echoed (legacy)" = "warn: the SDK parses ids with JSON.parse ..."

A changed outcome, a case the baseline does not list, or one it lists that
did not run fails the run (exit 1) until the baseline changes with its reason.
A target whose changes are all "not verified" for a slow start (the process
wrote nothing within its window: the machine's load) is run once more with a
longer window before it counts.

--write prints a baseline of this run's outcomes, each non-pass with its
reason to fill in ("why?"), which this script refuses until it is written.
--only NAME runs the targets whose name contains NAME.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTCOMES = {"pass", "warn", "fail", "not_verified", "not_applicable"}
SLOW_START = "wrote nothing in this check's process"
TODO = "why?"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, server, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the HTTP server exited with {server.returncode} before it listened")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"nothing listened on port {port} within {seconds} s")


def targets(args):
    """Each target: its name and a function that runs doctor with extra flags."""
    node_main = str(args.everything)
    sdk = str(ROOT / ".ci/interop/sdk_server.py")

    def stdio(command):
        return lambda extra: doctor(args.mcplings, extra + ["--", *command])

    def http(command, env=None):
        def run(extra):
            port = free_port()
            server = subprocess.Popen(
                [part.replace("{port}", str(port)) for part in command],
                env={**os.environ, **(env or {}), "PORT": str(port)},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            try:
                wait_listening(port, server)
                return doctor(args.mcplings, extra + ["--url", f"http://127.0.0.1:{port}/mcp"])
            finally:
                server.kill()
                server.wait()

        return run

    return [
        ("server-everything (stdio)", stdio(["node", node_main, "stdio"])),
        ("server-everything (Streamable HTTP)", http(["node", node_main, "streamableHttp"])),
        ("Python SDK MCPServer (stdio)", stdio([args.python, sdk])),
        ("Python SDK MCPServer (Streamable HTTP)", http([args.python, sdk, "--http-port", "{port}"])),
    ]


def doctor(mcplings, flags):
    """Runs `mcplings doctor --json FLAGS`; the report, parsed."""
    done = subprocess.run(
        [str(mcplings), "doctor", "--json", *flags],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode not in (0, 1):
        sys.exit(f"mcplings doctor {' '.join(flags)} ended with {done.returncode}:\n{done.stderr}")
    report = json.loads(done.stdout)
    if report.get("format_version") != 2:
        sys.exit(f"doctor's JSON format_version is {report.get('format_version')}, this script knows 2")
    return report


def outcomes(report):
    """{"id (era)": (outcome, why doctor gives)} of one report."""
    got = {}
    if report.get("error"):
        got["error"] = ("fail", report["error"])
    for case in report["cases"]:
        key = f"{case['id']} ({case['era']})" if case.get("era") else case["id"]
        got[key] = (case["outcome"], case.get("reason") or case.get("note") or "")
    return got


def expected(entries, name):
    """{"id (era)": outcome} of one baseline table; exits on a malformed one."""
    want = {}
    for key, text in entries.items():
        outcome, _, why = text.partition(":")
        outcome, why = outcome.strip(), why.strip()
        if outcome not in OUTCOMES:
            sys.exit(f"baseline [{name}] {key}: `{outcome}` is no outcome ({', '.join(sorted(OUTCOMES))})")
        if outcome != "pass" and (not why or why.startswith(TODO)):
            sys.exit(f"baseline [{name}] {key}: a {outcome} needs its reason after `{outcome}: `")
        want[key] = outcome
    return want


def changes(want, got):
    """The differences between a baseline table and a run, one line each."""
    lines = []
    for key in sorted(want.keys() | got.keys()):
        before = want.get(key)
        after, why = got.get(key, (None, ""))
        if before == after:
            continue
        if before is None:
            lines.append(f"  new: {key} is {after} ({why[:200]})")
        elif after is None:
            lines.append(f"  gone: {key} (baseline {before}) did not run")
        else:
            lines.append(f"  {key}: baseline {before}, now {after} ({why[:200]})")
    return lines


def slow_start_only(want, got):
    return all(
        got.get(key, ("", ""))[0] == "not_verified" and SLOW_START in got[key][1]
        for key in want.keys() | got.keys()
        if want.get(key) != got.get(key, (None,))[0]
    )


def write(runs):
    print("# Written by .ci/interop/doctor_baseline.py --write: give each non-pass its reason.")
    for name, got in runs:
        print(f'\n["{name}"]')
        for key, (outcome, why) in got.items():
            value = outcome if outcome == "pass" else f"{outcome}: {TODO} (doctor: {why[:160]})"
            print(f"{json.dumps(key)} = {json.dumps(value)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mcplings", type=Path, required=True)
    parser.add_argument("--everything", type=Path, required=True, help="server-everything's dist/index.js")
    parser.add_argument("--python", required=True, help="a Python with the MCP SDK (mcp 2.3.0)")
    parser.add_argument("--baseline", type=Path, default=ROOT / ".ci/doctor-baseline.toml")
    parser.add_argument("--only", default="")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    chosen = [(name, run) for name, run in targets(args) if args.only in name]
    if not chosen:
        sys.exit(f"--only {args.only}: no target's name contains it")
    if args.write:
        write([(name, outcomes(run([]))) for name, run in chosen])
        return
    baseline = tomllib.loads(args.baseline.read_text())
    unknown = set(baseline) - {name for name, _ in targets(args)}
    if unknown:
        sys.exit(f"{args.baseline}: tables for no target: {sorted(unknown)}")
    missing = {name for name, _ in targets(args)} - set(baseline)
    if missing:
        sys.exit(f"{args.baseline}: no table for {sorted(missing)}")
    # The whole file is read first: a reason left to fill fails every run.
    wants = {name: expected(entries, name) for name, entries in baseline.items()}
    failed = False
    for name, run in chosen:
        want = wants[name]
        started = time.monotonic()
        got = outcomes(run([]))
        found = changes(want, got)
        if found and slow_start_only(want, got):
            print(f"{name}: only slow starts differ; once more with a 60 s window")
            got = outcomes(run(["--startup-ms", "60000"]))
            found = changes(want, got)
        counts = {}
        for outcome, _ in got.values():
            counts[outcome] = counts.get(outcome, 0) + 1
        tally = ", ".join(f"{n} {o}" for o, n in sorted(counts.items()))
        if found:
            failed = True
            print(f"{name}: CHANGED against the baseline ({tally}; {time.monotonic() - started:.0f} s)")
            print("\n".join(found))
        else:
            print(f"{name}: as the baseline says ({tally}; {time.monotonic() - started:.0f} s)")
    if failed:
        print(
            f"\nAn outcome changed. If the new one is right, change {args.baseline.relative_to(ROOT)} "
            "with the reason (a non-pass says why it is right); if not, the change in doctor or the server is a bug.",
            file=sys.stderr,
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
