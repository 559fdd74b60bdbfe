"""A small dual-era MCP server for the doctor tests (tests/suite/doctor.rs).

Right by default; `--mistake NAME` plants one mistake, so each doctor check
has a server that breaks it (see MISTAKES in tests/suite/doctor.rs). Standard
library only; one JSON-RPC message per line on stdin and stdout.
"""

import json
import sys
import time

MISTAKE = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--mistake" else ""
MODERN = "2026-07-28"
LEGACY = ["2025-11-25", "2025-06-18"]
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId"
# The ids of the subscriptions/listen requests still open.
LISTENING = set()
# listen-notify-late: the subscription cancelled, whose change notification
# goes out after the next response (the cancel read: a MUST NOT broken).
LATE = []

TOOLS = [
    {"name": "greet", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}}},
    {"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
     "outputSchema": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}},
    {"name": "now", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
]
if MISTAKE == "bad-schema":
    TOOLS[0]["inputSchema"] = {"type": "objekt"}
if MISTAKE == "schema-invalid":
    del TOOLS[2]["name"]
RESOURCES = [{"uri": "notes://a", "name": "a"}, {"uri": "notes://b", "name": "b"}]
PROMPTS = [{"name": "hello"}, {"name": "sum", "arguments": [{"name": "text", "required": True}]}]
CAPS = {"tools": {"listChanged": True}, "resources": {}, "prompts": {}}


class Error(Exception):
    def __init__(self, code, message):
        self.code, self.message = code, message


def send(frame):
    text = json.dumps(frame)
    big = isinstance(frame.get("id"), int) and abs(frame["id"]) > 2**53 - 1
    if (MISTAKE == "float-ids" or MISTAKE == "big-ids-float" and big) and isinstance(frame.get("id"), int):
        text = text.replace('"id": %d' % frame["id"], '"id": %r' % float(frame["id"]), 1)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def page(items, key, params):
    start = int(params.get("cursor", "0")) if "cursor" in params else 0
    result = {key: items[start:start + 2]}
    if start + 2 < len(items):
        result["nextCursor"] = "0" if MISTAKE == "cursor-loop" else str(start + 2)
    return result


def serve(method, params, modern):
    if method == "server/discover" and modern:
        return {"supportedVersions": [MODERN], "capabilities": CAPS, "ttlMs": 0, "cacheScope": "public"}
    if method == "ping" and not modern:
        return {"ok": True} if MISTAKE == "ping-nonempty" else {}
    if method == "tools/list":
        if MISTAKE == "list-error":
            raise Error(-32603, "cannot list")
        return page(TOOLS, "tools", params)
    if method == "tools/call":
        if params.get("name") == "add":
            args = params.get("arguments", {})
            total = args.get("a", 0) + args.get("b", 0)
            structured = {"sum": "many"} if MISTAKE == "structured-mismatch" else {"sum": total}
            return {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}
        return {"content": [{"type": "text", "text": "ok"}]}
    if method == "resources/list":
        return page(RESOURCES, "resources", params)
    if method == "resources/read":
        if MISTAKE == "read-empty":
            return {"contents": []}
        return {"contents": [{"uri": params.get("uri"), "text": "x"}]}
    if method == "resources/templates/list":
        if MISTAKE == "templates-error":
            raise Error(-32603, "templates broke")
        return {"resourceTemplates": []}
    if method == "prompts/list":
        return page(PROMPTS, "prompts", params)
    if method == "prompts/get":
        if MISTAKE == "prompt-get-error":
            raise Error(-32603, "prompt broke")
        return {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}
    if MISTAKE == "unknown-wrong-code":
        raise Error(-32600, "no")
    raise Error(-32601, "Method not found: " + method)


session = None


def handle(message):
    global session
    if not isinstance(message, dict):
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    method, has_id = message.get("method"), "id" in message
    if method is None:
        if MISTAKE == "silent-invalid":
            return None
        return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32600, "message": "Invalid Request"}}
    if not has_id:
        cancelled = (message.get("params") or {}).get("requestId")
        if method == "notifications/cancelled" and cancelled in LISTENING:
            LISTENING.discard(cancelled)
            if MISTAKE == "listen-notify-late":
                LATE.append(cancelled)
            if MISTAKE == "listen-after-cancel":
                # The subscription's response, after the client ended it.
                return {"jsonrpc": "2.0", "id": cancelled,
                        "result": {"resultType": "complete", "_meta": {SUBSCRIPTION_KEY: cancelled}}}
            return None
        if method == "notifications/initialized":
            # As server-everything does: a notification right after the
            # handshake, which no check may take for an answer.
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        if MISTAKE == "answers-notifications":
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32601, "message": "no"}}
        return None
    rid = message["id"]
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        if MISTAKE != "serves-null-id" or rid is not None:
            return {"jsonrpc": "2.0", "error": {"code": -32600, "message": "bad id"}}
    if method == "doctor/no-such-method" and MISTAKE == "silent-unknown":
        return None
    params = message.get("params") or {}
    meta = params.get("_meta") or {}
    modern = VERSION_KEY in meta and MISTAKE != "legacy-only"
    try:
        if modern:
            if meta[VERSION_KEY] != MODERN and MISTAKE != "future-accepted":
                raise Error(-32022, "Unsupported protocol version")
            if not isinstance(meta.get(CAPS_KEY), dict) and MISTAKE != "meta-lenient":
                raise Error(-32602, "missing clientCapabilities")
        elif method == "initialize" and MISTAKE == "modern-only":
            raise Error(-32601, "Method not found")
        elif method == "initialize":
            asked = params.get("protocolVersion")
            version = asked if asked in LEGACY or MISTAKE == "echo-future" else LEGACY[0]
            session = version
            return {"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": version, "capabilities": CAPS,
                                                            "serverInfo": {"name": "mock", "version": "1"}}}
        elif session is None and method != "ping" and MISTAKE != "no-gate":
            raise Error(-32600, "initialize first")
        if method == "subscriptions/listen" and modern:
            wanted = params.get("notifications") or {}
            if MISTAKE == "listen-no-ack":
                return {"jsonrpc": "2.0", "id": rid, "result": {"resultType": "complete", "_meta": {SUBSCRIPTION_KEY: rid}}}
            # Acknowledged first, then open until the client cancels it.
            LISTENING.add(rid)
            agreed = {k: v for k, v in wanted.items() if k == "toolsListChanged"}
            send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                  "params": {"_meta": {SUBSCRIPTION_KEY: rid}, "notifications": agreed}})
            if MISTAKE in ("listen-notify-early", "listen-notify-late"):
                # A change on the open stream (right: it is acknowledged
                # and not cancelled), on its way before the cancel is read.
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                      "params": {"_meta": {SUBSCRIPTION_KEY: rid}}})
            return None
        result = serve(method, params, modern)
        if modern and MISTAKE != "no-result-type":
            result["resultType"] = "complete"
            if method.endswith("/list") or method == "resources/read":
                result.update({"ttlMs": "0" if MISTAKE == "ttl-string" else 0, "cacheScope": "public"})
        return {"jsonrpc": "2.0", "id": rid, "result": result}
    except Error as e:
        error = {"code": e.code, "message": e.message}
        if e.code == -32022:
            error["data"] = {"supported": [MODERN], "requested": meta.get(VERSION_KEY)}
        return {"jsonrpc": "2.0", "id": rid, "error": error}


if MISTAKE == "banner":
    print("mock server ready")
    sys.stdout.flush()
if MISTAKE == "hang":
    time.sleep(60)
# slow-later: answers at once in a doctor run's two probes (the first line
# it reads is the probe's `server/discover` or `initialize`), and in every
# other process writes nothing for an hour, as an interpreter on a loaded
# machine. Told apart by what the process reads, not by counting starts: a
# process killed before the interpreter reached a counter would not count.
PROBE_IDS = ("doctor-probe", "doctor-init")
first = True
while True:
    line = sys.stdin.readline()
    if not line:
        if MISTAKE == "no-exit":
            time.sleep(60)
        break
    if not line.strip():
        continue
    try:
        message = json.loads(line)
    except ValueError:
        if MISTAKE == "crash-on-junk":
            sys.exit(3)
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        continue
    if MISTAKE == "slow-later" and first and not (isinstance(message, dict) and message.get("id") in PROBE_IDS):
        # Longer than any window doctor gives a process, however far the
        # machine's load stretches it (a minute did not do under load 8).
        time.sleep(3600)
    first = False
    if MISTAKE == "flood":
        # 9 MiB without a newline: more than a client should buffer.
        for _ in range(9):
            sys.stdout.write("x" * (1 << 20))
        sys.stdout.flush()
        time.sleep(60)
    reply = handle(message)
    if reply is not None:
        send(reply)
        while LATE and "id" in reply:
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                  "params": {"_meta": {SUBSCRIPTION_KEY: LATE.pop()}}})
