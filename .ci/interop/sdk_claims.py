#!/usr/bin/env python3
"""Checks what the lessons say about the pinned Python SDK (mcp 2.3.0): as a
server on stdio, byte by byte, and for three client defaults, in its
source; so no claim about its current behaviour rests on memory (issue 14,
item 15).

Usage: sdk_claims.py            run every claim against a fresh SDK server
       sdk_claims.py --serve    be that server (one tool, one prompt, one
                                resource; the SDK's defaults otherwise)

Each claim names the lesson passage it backs. One line per claim, then a
summary; exit 1 if any claim no longer holds (then correct the lesson, or
date the claim as history).
"""

import json
import subprocess
import sys
import time

LEGACY = "2025-11-25"
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "claims", "version": "0"},
}


def serve():
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("claims-peer", version="2.3.0-claims")

    @server.tool()
    def echo(text: str) -> str:
        """Returns the text it is given."""
        return text

    @server.prompt()
    def review(code: str) -> str:
        """Asks for a review of the code."""
        return f"Please review:\n{code}"

    @server.resource("notes://about")
    def about() -> str:
        """A short note."""
        return "about"

    server.run()


class Peer:
    """A fresh SDK server on stdio, spoken to in raw lines."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        self.proc.stdin.write(line if isinstance(line, str) else json.dumps(line))
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()

    def recv(self, want_id):
        """The next response with this id (notifications are skipped)."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed stdout while id {want_id} was awaited")
            frame = json.loads(line)
            if "id" in frame and ("result" in frame or "error" in frame):
                if frame["id"] == want_id:
                    return frame
                raise RuntimeError(f"awaited id {want_id}, got {line.strip()}")

    def call(self, id, method, params=None):
        frame = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            frame["params"] = params
        self.send(frame)
        return self.recv(id)

    def handshake(self, version=LEGACY):
        answer = self.call(0, "initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "claims", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self):
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


def code(frame):
    return (frame.get("error") or {}).get("code")


def before_initialize(p):
    answer = p.call(1, "tools/list")
    return code(answer) == -32602 and "Invalid request parameters" in answer["error"]["message"], answer


def second_initialize(p):
    p.handshake()
    again = p.call(2, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "claims", "version": "0"}})
    return (again.get("result") or {}).get("protocolVersion") == "2024-11-05", again


def counter_offer(p):
    answer = p.handshake("1999-01-01")
    return (answer.get("result") or {}).get("protocolVersion") == LEGACY, answer


def unknown_tool(p):
    p.handshake()
    answer = p.call(1, "tools/call", {"name": "nope", "arguments": {}})
    result = answer.get("result") or {}
    text = [b.get("text") for b in result.get("content", [])]
    return result.get("isError") is True and text == ["Unknown tool: nope"], answer


def garbage_dropped(p):
    p.handshake()
    p.send("{not json")
    p.send('[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","id":8,"method":"tools/list"}]')
    p.send('{"jsonrpc":"2.0","id":null,"method":"tools/list"}')
    answer = p.call(9, "ping")
    return answer.get("result") == {}, answer


def exit_on_eof(p):
    p.handshake()
    start = time.monotonic()
    status = p.close()
    return status == 0 and time.monotonic() - start < 3, {"exit": status, "seconds": round(time.monotonic() - start, 2)}


def initialize_after_probe(p):
    p.call(1, "server/discover", {"_meta": META})
    answer = p.call(2, "initialize", {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "claims", "version": "0"}})
    return code(answer) == -32022, answer


def unknown_resource_legacy(p):
    p.handshake()
    answer = p.call(1, "resources/read", {"uri": "notes://missing"})
    return code(answer) == -32602, answer


def unknown_resource_modern(p):
    answer = p.call(1, "resources/read", {"uri": "notes://missing", "_meta": META})
    return code(answer) == -32602, answer


def unknown_prompt(p):
    p.handshake()
    answer = p.call(1, "prompts/get", {"name": "summarise", "arguments": {}})
    return code(answer) == 0, answer


def default_cache_hints(p):
    answer = p.call(1, "tools/list", {"_meta": META})
    result = answer.get("result") or {}
    return result.get("ttlMs") == 0 and result.get("cacheScope") == "private", {k: result.get(k) for k in ("ttlMs", "cacheScope")}


def client_env_vars(_p):
    from mcp.client import stdio

    want = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]
    return sys.platform == "win32" or list(stdio.DEFAULT_INHERITED_ENV_VARS) == want, list(stdio.DEFAULT_INHERITED_ENV_VARS)


def client_probe_timeout(_p):
    from mcp.client import session

    return session.DISCOVER_TIMEOUT_SECONDS == 10.0, session.DISCOVER_TIMEOUT_SECONDS


def client_token_is_request_id(_p):
    import inspect

    from mcp.shared import jsonrpc_dispatcher

    source = inspect.getsource(jsonrpc_dispatcher)
    return 'out_meta["progressToken"] = request_id' in source, "jsonrpc_dispatcher: progressToken assignment"


CLAIMS = [
    ("Part 2 › Before initialize: a request before initialize gets -32602 \"Invalid request parameters\"", before_initialize),
    ("Part 2 › A second initialize: it negotiates afresh", second_initialize),
    ("Part 2 › Version negotiation; quiz 2: an unknown version gets the counter-offer 2025-11-25", counter_offer),
    ("Part 4 › unknown tool; quiz 1 unknown-tool-error: an isError result \"Unknown tool: nope\"", unknown_tool),
    ("Part 3 › Garbage in, silence out: a bad line, an array and a null id get no reply", garbage_dropped),
    ("Part 3 › Shutdown: EOF first, then signals: exit code 0 within 3 s of EOF", exit_on_eof),
    ("Part 2 › Rules that keep the probe honest: initialize after a modern probe gets -32022", initialize_after_probe),
    ("Part 4 › resources: an unknown URI gets -32602 (legacy)", unknown_resource_legacy),
    ("Part 4 › resources: an unknown URI gets -32602 (modern)", unknown_resource_modern),
    ("Part 4 › prompts; quiz 4: an unknown prompt gets error code 0", unknown_prompt),
    ("Part 4 › caching: default hints ttlMs 0, cacheScope \"private\"", default_cache_hints),
    ("Part 3 › The client owns the server: the client passes only HOME, LOGNAME, PATH, SHELL, TERM, USER on Unix (its source)", client_env_vars),
    ("Part 2 › Rules that keep the probe honest: the client gives the probe 10 s (its source)", client_probe_timeout),
    ("Part 5 › progress: the client's token is the request id (its source)", client_token_is_request_id),
]


def main():
    failed = 0
    for name, check in CLAIMS:
        peer = Peer()
        try:
            ok, seen = check(peer)
        except Exception as e:  # a claim that cannot even run has failed
            ok, seen = False, repr(e)
        finally:
            if peer.proc.poll() is None:
                peer.close()
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f"\n     saw: {json.dumps(seen)[:400]}"))
    print(f"sdk claims: {len(CLAIMS) - failed} hold, {failed} do not (mcp 2.3.0)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve()
    else:
        main()
