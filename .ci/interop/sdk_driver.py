"""What the sdk_drives_NN.py scripts share: their command line, the official
SDK client (mcp 2.3.0) connected to a stdio server, and a tally of checks.

A driver is `python sdk_drives_NN.py --mode legacy|auto -- SERVER_CMD...`.
It prints one line per check (`ok   …` or `FAIL …`) and exits 1 when any
check failed, 2 on bad usage. An exception out of the driver's body is a
failure too, reported with its type and message.
"""

import argparse
import sys
import traceback

import anyio
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError


class Checks:
    """A tally of named checks; `failed` counts the ones that did not hold."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def expect(self, label, condition, detail=""):
        """Records one check; `detail` is shown when it fails."""
        if condition:
            self.passed += 1
            print(f"ok   {label}")
        else:
            self.failed += 1
            print(f"FAIL {label}: {detail}")
        return condition

    async def expect_error(self, label, code, call):
        """Runs `call()` and checks that it raises an MCPError with `code`."""
        try:
            got = await call()
        except MCPError as e:
            return self.expect(label, e.code == code, f"error {e.code} ({e.message}), expected {code}")
        return self.expect(label, False, f"no error: {dump(got)}")


def dump(value):
    """A model or value as compact JSON text, for failure messages."""
    try:
        return value.model_dump_json(by_alias=True, exclude_none=True)
    except AttributeError:
        return repr(value)


def texts(result):
    """The text of every text content block of a result, in order."""
    return [block.text for block in result.content if getattr(block, "type", None) == "text"]


def run(body):
    """Parses the command line, connects the SDK client in the chosen mode,
    and runs `await body(client, mode, checks)`. Exits with the outcome."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["legacy", "auto"], required=True)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds the client waits for each response")
    parser.add_argument("server", nargs="+", help="the server command, after --")
    options = parser.parse_args()
    checks = Checks()

    async def main():
        server = StdioServerParameters(command=options.server[0], args=options.server[1:])
        async with Client(server, mode=options.mode, read_timeout_seconds=options.timeout) as client:
            await body(client, options.mode, checks)

    try:
        anyio.run(main)
    except BaseException as e:  # a driver crash is a failed interop run, reported plainly
        checks.expect("the session ran to the end", False, f"{type(e).__name__}: {e}")
        traceback.print_exc(file=sys.stderr)
    print(f"{checks.passed} checks passed, {checks.failed} failed")
    sys.exit(1 if checks.failed or checks.passed == 0 else 0)
