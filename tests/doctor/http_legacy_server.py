"""A small legacy (2025-11-25, session-based) Streamable HTTP server for the
doctor tests (tests/doctor.rs): POST /mcp, initialize assigns an
Mcp-Session-Id, later requests must carry it and MCP-Protocol-Version,
DELETE ends the session; tools/list is answered as an SSE stream, the rest
as JSON. Right by default; `--mistake NAME` plants one mistake, one per
legacy `doctor --url` check. Standard library only.

Usage: http_legacy_server.py PORT [--mistake NAME]

http_server.py --dual serves its legacy sessions with this file's Handler.
"""

import json
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])
MISTAKE = sys.argv[sys.argv.index("--mistake") + 1] if "--mistake" in sys.argv else ""
VERSIONS = ["2025-11-25", "2025-06-18"]
TOOLS = [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]
SESSIONS = set()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def legacy_reply(self, status, body=None, headers=(), sse=False):
        data = b"" if body is None else json.dumps(body).encode()
        if body is not None and isinstance(body.get("id"), int):
            big = abs(body["id"]) > 2**53 - 1
            if MISTAKE == "float-ids" or MISTAKE == "big-ids-float" and big:
                data = data.replace(b'"id": %d' % body["id"], b'"id": %r' % float(body["id"]), 1)
        if sse:
            data = b"event: message\ndata: " + data + b"\n\n"
        self.send_response(status)
        if body is not None:
            kind = "text/event-stream" if sse else "application/json"
            self.send_header("Content-Type", "text/plain" if MISTAKE == "text-plain" else kind)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_DELETE(self):
        SESSIONS.discard(self.headers.get("Mcp-Session-Id"))
        self.legacy_reply(200)

    def do_POST(self):
        self.legacy_post(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    def legacy_post(self, body):
        if self.headers.get("Origin") and MISTAKE != "origin-ignored":
            return self.legacy_reply(403)
        try:
            message = json.loads(body)
        except ValueError:
            if MISTAKE == "not-json-202":
                return self.legacy_reply(202)
            return self.legacy_reply(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        method, rid = message.get("method"), message.get("id")
        if method == "initialize":
            asked = message["params"]["protocolVersion"]
            version = asked if asked in VERSIONS or MISTAKE == "echo-future" else VERSIONS[0]
            session = "bad session" if MISTAKE == "bad-session-id" else uuid.uuid4().hex
            SESSIONS.add(session)
            result = {"protocolVersion": version, "capabilities": {"tools": {}},
                      "serverInfo": {"name": "legacy-mock", "version": "1"}}
            return self.legacy_reply(200, {"jsonrpc": "2.0", "id": rid, "result": result}, [("Mcp-Session-Id", session)])
        session = self.headers.get("Mcp-Session-Id")
        if session is None and MISTAKE != "session-lenient":
            return self.legacy_reply(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no session"}})
        if session is not None and session not in SESSIONS and MISTAKE != "session-forever":
            return self.legacy_reply(404, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no such session"}})
        if self.headers.get("MCP-Protocol-Version") not in VERSIONS and MISTAKE != "version-lenient":
            return self.legacy_reply(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "bad version"}})
        if "id" not in message:
            if MISTAKE == "notification-200":
                return self.legacy_reply(200, {"ok": True})
            return self.legacy_reply(202)
        if method == "ping":
            result = {"pong": True} if MISTAKE == "ping-nonempty" else {}
            return self.legacy_reply(200, {"jsonrpc": "2.0", "id": rid, "result": result})
        if method == "tools/list":
            if MISTAKE == "list-error":
                return self.legacy_reply(200, {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "broken"}})
            return self.legacy_reply(200, {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}}, sse=True)
        code = -32600 if MISTAKE == "unknown-wrong-code" else -32601
        self.legacy_reply(200, {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": "Method not found"}})


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
