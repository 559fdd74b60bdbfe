"""A small modern (2026-07-28) Streamable HTTP server for the doctor tests
(tests/suite/doctor.rs): POST /mcp, right by default; `--mistake NAME` plants one
mistake, one per `doctor --url` check. Standard library only.

With --dual it also serves legacy (2025-11-25) sessions, with
http_legacy_server.py's handler: initialize, a request carrying an
Mcp-Session-Id, or one without a modern _meta goes there.

Usage: http_server.py PORT [--dual] [--mistake NAME]
"""

import importlib.util
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

PORT = int(sys.argv[1])
MISTAKE = sys.argv[sys.argv.index("--mistake") + 1] if "--mistake" in sys.argv else ""
DUAL = "--dual" in sys.argv
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
MODERN = "2026-07-28"
TOOLS = [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]
if MISTAKE == "bad-schema":
    TOOLS[0]["inputSchema"] = {"type": "objekt"}
RESOURCES = [{"uri": "notes://a", "name": "a"}]
SCOPE = "shared" if MISTAKE == "cache-scope-bad" else "public"


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
        self.modern_post(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

    def modern_post(self, text):
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
        # The request metadata headers must match the body (Server Validation).
        name = (message.get("params") or {}).get("uri" if method == "resources/read" else "name")
        if self.headers.get("Mcp-Method") != method and MISTAKE != "method-header-ignored":
            return error(400, -32020, "Header mismatch: Mcp-Method")
        if method in ("tools/call", "resources/read", "prompts/get") and self.headers.get("Mcp-Name") != name \
                and MISTAKE != "name-header-ignored":
            return error(400, -32020, "Header mismatch: Mcp-Name")
        if MISTAKE == "discover-500" and method == "server/discover":
            return error(500, -32603, "broken")
        if method == "server/discover":
            result = {"supportedVersions": [MODERN], "capabilities": {"tools": {}, "resources": {}}, "ttlMs": 0, "cacheScope": "public"}
        elif method == "tools/list":
            result = {"tools": TOOLS, "ttlMs": 0, "cacheScope": SCOPE}
        elif method == "resources/list":
            result = {"resources": RESOURCES, "ttlMs": 0, "cacheScope": "public"}
        elif method == "resources/templates/list":
            result = {"resourceTemplates": [], "ttlMs": 0, "cacheScope": "public"}
        elif method == "resources/read":
            if name != RESOURCES[0]["uri"]:
                return error(200, -32602, "no such resource")
            result = {"contents": [{"uri": name, "text": "x"}], "ttlMs": 0, "cacheScope": "private"}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": "ok"}]}
        else:
            return error(200 if MISTAKE == "unknown-200" else 404, -32601, "Method not found")
        if MISTAKE != "no-result-type":
            result["resultType"] = "complete"
        self.reply(200, {"jsonrpc": "2.0", "id": rid, "result": result})


if DUAL:
    spec = importlib.util.spec_from_file_location(
        "legacy", os.path.join(os.path.dirname(os.path.abspath(__file__)), "http_legacy_server.py"))
    legacy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(legacy)

    class Dual(Handler, legacy.Handler):
        """Both eras: legacy traffic to the legacy handler, the rest modern."""

        def do_POST(self):
            text = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            meta = ((message.get("params") or {}).get("_meta") or {}) if isinstance(message, dict) else {}
            old = isinstance(message, dict) and (message.get("method") == "initialize" or VERSION_KEY not in meta)
            if self.headers.get("Mcp-Session-Id") is not None or old:
                return self.legacy_post(text)
            return self.modern_post(text)

    ThreadingHTTPServer(("127.0.0.1", PORT), Dual).serve_forever()
else:
    HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
