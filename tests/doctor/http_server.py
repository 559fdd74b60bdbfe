"""A small modern (2026-07-28) Streamable HTTP server for the doctor tests
(tests/suite/doctor.rs): POST /mcp, right by default; `--mistake NAME` plants one
mistake, one per `doctor --url` check. Standard library only.

Usage: http_server.py PORT [--mistake NAME]
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

PORT = int(sys.argv[1])
MISTAKE = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--mistake" else ""
MODERN = "2026-07-28"
TOOLS = [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]
if MISTAKE == "bad-schema":
    TOOLS[0]["inputSchema"] = {"type": "objekt"}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        big = body is not None and isinstance(body.get("id"), int) and abs(body["id"]) > 2**53 - 1
        if (MISTAKE == "float-ids" or MISTAKE == "big-ids-float" and big) and body is not None and isinstance(body.get("id"), int):
            data = data.replace(b'"id": %d' % body["id"], b'"id": %r' % float(body["id"]), 1)
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        text = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        origin = self.headers.get("Origin")
        if origin and "evil" in origin and MISTAKE != "origin-ignored":
            return self.reply(403, {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Forbidden origin"}})
        try:
            message = json.loads(text)
        except ValueError:
            status = 200 if MISTAKE == "not-json-200" else 400
            return self.reply(status, {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}})
        if "id" not in message:
            return self.reply(200 if MISTAKE == "notification-200" else 202, {"ok": True} if MISTAKE == "notification-200" else None)
        rid, method = message["id"], message.get("method")
        meta = (message.get("params") or {}).get("_meta") or {}

        def error(status, code, text):
            return self.reply(status, {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": text}})

        if meta.get("io.modelcontextprotocol/protocolVersion") != MODERN and MISTAKE != "future-200":
            return error(400, -32022, "Unsupported protocol version")
        if not isinstance(meta.get("io.modelcontextprotocol/clientCapabilities"), dict):
            return error(200 if MISTAKE == "meta-200" else 400, -32602, "missing clientCapabilities")
        if MISTAKE == "discover-500" and method == "server/discover":
            return error(500, -32603, "broken")
        if method == "server/discover":
            result = {"supportedVersions": [MODERN], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"}
        elif method == "tools/list":
            result = {"tools": TOOLS, "ttlMs": 0, "cacheScope": "public"}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": "ok"}]}
        else:
            return error(200 if MISTAKE == "unknown-200" else 404, -32601, "Method not found")
        if MISTAKE != "no-result-type":
            result["resultType"] = "complete"
        self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": result})


HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
