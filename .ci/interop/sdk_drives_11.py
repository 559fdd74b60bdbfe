#!/usr/bin/env python3
"""The official Python SDK's client (mcp==2.3.0) drives exercise 11's server.

Usage: sdk_drives_11.py --mode legacy|auto -- SERVER_CMD [ARGS...]

  legacy  the SDK opens a session with initialize (offering 2025-11-25)
  auto    the SDK probes server/discover at 2026-07-28 and, as this server
          answers it, speaks the modern era: _meta on every request

It calls every tool (asserting each result), reads every resource, gets
every prompt, drives progress (asserting the notifications it receives)
and a cancellation (asserting, from the frames on the wire, that the
server sends nothing more for the cancelled call, and that it stays
usable). The server runs behind a small relay (this script, with
--relay LOG) that records every line both ways. Prints one summary line,
`interop 11 MODE: N checks passed`, and exits 1 on the first failure.
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ABOUT_URI = "notes://capstone/about"
ABOUT_TEXT = "The mcplings capstone server: three tools, one resource, one prompt, two eras."
TOOLS = ["reverse", "word_count", "countdown"]


def relay(log_path, cmd):
    """Runs CMD, copying stdin to it and its stdout back, and logging each
    line as `C->S line` or `S->C line` with a monotonic time."""
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    log = open(log_path, "a", buffering=1)
    lock = threading.Lock()

    def record(direction, line):
        with lock:
            log.write(f"{time.monotonic():.3f} {direction} {line.decode(errors='replace').rstrip()}\n")

    def upstream():
        for line in sys.stdin.buffer:
            record("C->S", line)
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()

    threading.Thread(target=upstream, daemon=True).start()
    for line in child.stdout:
        record("S->C", line)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    return child.wait()


class Failed(Exception):
    pass


def wire(log_path):
    """The logged frames: (time, direction, parsed JSON)."""
    frames = []
    with open(log_path) as f:
        for row in f:
            stamp, direction, line = row.rstrip("\n").split(" ", 2)
            try:
                frames.append((float(stamp), direction, json.loads(line)))
            except ValueError:
                frames.append((float(stamp), direction, line))
    return frames


async def drive(mode, cmd, log_path):
    import anyio
    from mcp import Client, StdioServerParameters

    passed = 0

    def check(condition, what):
        nonlocal passed
        if not condition:
            raise Failed(what)
        passed += 1

    relay_cmd = StdioServerParameters(command=sys.executable, args=[os.path.abspath(__file__), "--relay", log_path, "--", *cmd])
    async with Client(relay_cmd, mode=mode, read_timeout_seconds=10) as c:
        expected_version = "2025-11-25" if mode == "legacy" else "2026-07-28"
        check(c.protocol_version == expected_version, f"negotiated {c.protocol_version}, expected {expected_version}")

        tools = await c.list_tools()
        names = [t.name for t in tools.tools]
        check(names == TOOLS, f"tools/list gave {names}")

        r = await c.call_tool("reverse", {"text": "Ada"})
        check(not r.is_error and [b.text for b in r.content] == ["adA"], f"reverse: {r}")

        r = await c.call_tool("word_count", {"text": "hi there"})
        mirror = json.loads(r.content[0].text) if r.content and getattr(r.content[0], "text", None) else None
        check(r.structured_content == {"words": 2, "characters": 8} and mirror == r.structured_content, f"word_count: {r}")

        r = await c.call_tool("countdown", {"steps": 0})
        check(r.is_error is True and r.content and r.content[0].text, f"countdown 0 should be a tool error: {r}")

        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total, message))

        r = await c.call_tool("countdown", {"steps": 3}, progress_callback=on_progress)
        check([b.text for b in r.content] == ["Liftoff after 3 steps."], f"countdown 3: {r}")
        check(seen == [(1, 3, "step 1 of 3"), (2, 3, "step 2 of 3"), (3, 3, "step 3 of 3")], f"progress of countdown 3: {seen}")

        resources = await c.list_resources()
        check([str(x.uri) for x in resources.resources] == [ABOUT_URI], f"resources/list: {resources}")
        for resource in resources.resources:
            read = await c.read_resource(str(resource.uri))
            check([(str(x.uri), x.text) for x in read.contents] == [(ABOUT_URI, ABOUT_TEXT)], f"resources/read: {read}")

        prompts = await c.list_prompts()
        check([p.name for p in prompts.prompts] == ["review_code"], f"prompts/list: {prompts}")
        got = await c.get_prompt("review_code", {"code": "fn main() {}"})
        check([(m.role, m.content.text) for m in got.messages] == [("user", "Please review this code:\n\nfn main() {}")], f"prompts/get: {got}")

        # Cancellation: abandon a countdown after its first progress; the
        # SDK then sends notifications/cancelled for it.
        first = anyio.Event()

        async def on_first(progress, total, message):
            first.set()

        async with anyio.create_task_group() as tg:
            async def long_call():
                await c.call_tool("countdown", {"steps": 10}, progress_callback=on_first)
            tg.start_soon(long_call)
            with anyio.fail_after(5):
                await first.wait()
            tg.cancel_scope.cancel()
        await anyio.sleep(10 * 0.2 + 0.5)  # past the end the countdown would have had
        r = await c.call_tool("reverse", {"text": "on"})
        check([b.text for b in r.content] == ["no"], f"reverse after the cancellation: {r}")

    frames = wire(log_path)
    calls = [(t, f) for t, d, f in frames if d == "C->S" and isinstance(f, dict) and f.get("method") == "tools/call" and f["params"].get("arguments") == {"steps": 10}]
    check(len(calls) == 1, f"one countdown 10 on the wire, found {len(calls)}")
    call = calls[0][1]
    token = call["params"].get("_meta", {}).get("progressToken")
    cancels = [(t, f) for t, d, f in frames if d == "C->S" and isinstance(f, dict) and f.get("method") == "notifications/cancelled" and f["params"].get("requestId") == call["id"]]
    check(len(cancels) == 1, f"the SDK should have sent one notifications/cancelled for {call['id']}, found {len(cancels)}")
    cancelled_at = cancels[0][0]
    after = [f for t, d, f in frames if d == "S->C" and t > cancelled_at + 0.1 and isinstance(f, dict)
             and (f.get("id") == call["id"] and "method" not in f or (f.get("params") or {}).get("progressToken") == token and f.get("method") == "notifications/progress")]
    check(after == [], f"the server went on with the cancelled call: {after}")
    junk = [f for _, d, f in frames if d == "S->C" and not isinstance(f, dict)]
    check(junk == [], f"lines on stdout that are not JSON: {junk}")
    return passed


def main():
    args = sys.argv[1:]
    if args[:1] == ["--relay"] and len(args) >= 3 and args[2] == "--":
        return relay(args[1], args[3:])
    if len(args) < 4 or args[0] != "--mode" or args[1] not in ("legacy", "auto") or args[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    mode, cmd = args[1], args[3:]
    import anyio
    with tempfile.TemporaryDirectory(prefix="interop-11-") as tmp:
        log_path = os.path.join(tmp, "wire.log")
        try:
            passed = anyio.run(drive, mode, cmd, log_path)
        except Failed as e:
            print(f"interop 11 {mode}: FAILED: {e}")
            print(f"  wire log: {open(log_path).read()[-3000:] if os.path.exists(log_path) else '(none)'}", file=sys.stderr)
            return 1
        except Exception as e:  # the SDK refused something: a failure too
            while isinstance(e, BaseExceptionGroup) and e.exceptions:
                e = e.exceptions[0]
            print(f"interop 11 {mode}: FAILED: {type(e).__name__}: {e}")
            return 1
    print(f"interop 11 {mode}: {passed} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
