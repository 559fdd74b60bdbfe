#!/usr/bin/env python3
"""The official SDK client drives exercise 03's server (a legacy-only
server, 2025-11-25 basic/lifecycle).

Usage: sdk_drives_03.py --mode legacy|auto -- SERVER_CMD...

Expected values come from the exercise's task and its given code (tools(),
call_tool): the version is negotiated by echoing one the server implements
(the SDK offers 2025-11-25, which it does); ping is answered; the one tool, echo, returns its text; an unknown tool
is a protocol error, -32602. In auto mode the SDK probes server/discover
first; a legacy-only server refuses it, and the SDK must fall back to the
handshake. (A second initialize cannot be sent through the SDK: its
session answers from the first result without touching the wire; the
checker covers that refusal.)
"""

import warnings

from sdk_driver import dump, run, texts

warnings.simplefilter("ignore")  # ping is deprecated in 2026-07-28; this is a 2025-11-25 session


async def body(client, mode, checks):
    checks.expect("negotiated 2025-11-25 (the handshake era, also under auto)", client.protocol_version == "2025-11-25", client.protocol_version)
    checks.expect("declares the tools capability", client.server_capabilities.tools is not None, dump(client.server_capabilities))
    listed = await client.list_tools()
    checks.expect("tools/list names only echo", [t.name for t in listed.tools] == ["echo"], dump(listed))
    result = await client.call_tool("echo", {"text": "hi there"})
    checks.expect("echo returns its text", texts(result) == ["hi there"] and not result.is_error, dump(result))
    result = await client.call_tool("echo", {"text": "line one\nline two"})
    checks.expect("a newline survives the line-delimited transport", texts(result) == ["line one\nline two"], dump(result))
    await checks.expect_error("an unknown tool is -32602", -32602, lambda: client.call_tool("nope", {"text": "x"}))
    pong = await client.send_ping()
    checks.expect("ping is answered with {}", pong is not None, dump(pong))
    result = await client.call_tool("echo", {"text": "still here"})
    checks.expect("the session goes on after the error and the ping", texts(result) == ["still here"], dump(result))


if __name__ == "__main__":
    run(body)
