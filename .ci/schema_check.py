#!/usr/bin/env python3
"""Validates every JSON-RPC frame the reference solutions send during
`mcplings check ID --solution` against the official MCP JSON Schema of its
revision, and against the definition for its method (a request's own
definition; for a response, the result type of the request it answers).

Usage: schema_check.py SCHEMA_DIR MCPLINGS [EXERCISE…]
  SCHEMA_DIR  holds <revision>/schema.json (the official schemas)
  MCPLINGS    the mcplings binary

The revision of a frame is 2026-07-28 when the request carries the modern
`_meta` protocol version, else 2025-11-25 (the legacy revision every
legacy case of these checkers negotiates). Exits 1 on any violation.
"""

import json
import subprocess
import sys
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
META_VERSION = "io.modelcontextprotocol/protocolVersion"

# The result definition for each method's response.
RESULTS = {
    "initialize": "InitializeResult",
    "ping": "EmptyResult",
    "server/discover": "DiscoverResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "resources/read": "ReadResourceResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "elicitation/create": "ElicitResult",
}

# The definition for each method's request or notification.
REQUESTS = {
    "initialize": "InitializeRequest",
    "notifications/initialized": "InitializedNotification",
    "ping": "PingRequest",
    "server/discover": "DiscoverRequest",
    "tools/list": "ListToolsRequest",
    "tools/call": "CallToolRequest",
    "subscriptions/listen": "SubscriptionsListenRequest",
    "notifications/progress": "ProgressNotification",
    "notifications/cancelled": "CancelledNotification",
}

# Exercises whose solutions send MCP frames of their own.
DEFAULT = ["03-handshake-gate", "04-era-probe", "07-tool-server", "08-pagination-walker", "09-progress-cancel", "10-input-required", "11-capstone-server"]


class Schemas:
    def __init__(self, root):
        self.docs = {rev: json.loads((root / rev / "schema.json").read_text()) for rev in (LEGACY, MODERN)}
        self.validators = {}

    def check(self, rev, definition, value):
        """The schema's messages for `value` against `definition`."""
        key = (rev, definition)
        if key not in self.validators:
            doc = self.docs[rev]
            if definition not in doc["$defs"]:
                return [f"no definition {definition} in {rev}"]
            registry = Registry().with_resource("urn:mcp", Resource.from_contents(doc))
            schema = {"$ref": f"urn:mcp#/$defs/{definition}"}
            self.validators[key] = Draft202012Validator(schema, registry=registry)
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in self.validators[key].iter_errors(value)]


def revision_of(request):
    meta = (request.get("params") or {}).get("_meta") or {}
    return MODERN if META_VERSION in meta else LEGACY


def frames(entries, direction):
    for entry in entries:
        if entry["dir"] == direction and entry["kind"] == "frame":
            try:
                yield json.loads(entry["line"])
            except ValueError:
                pass


def check_exercise(mcplings, exercise, schemas):
    out = subprocess.run([mcplings, "check", exercise, "--solution", "--json"], capture_output=True, text=True)
    report = json.loads(out.stdout)
    problems, checked = [], 0
    for case in report["cases"]:
        sent = {}
        for request in frames(case["transcript"], "to_learner"):
            if "method" in request and "id" in request:
                sent[json.dumps(request["id"])] = request
        for frame in frames(case["transcript"], "from_learner"):
            where = f"{exercise} / {case['name']}"
            if "method" in frame:
                rev = revision_of(frame)
                definition = REQUESTS.get(frame["method"])
                if definition is None:
                    continue
                found = schemas.check(rev, definition, frame)
            else:
                request = sent.get(json.dumps(frame.get("id")))
                if request is None:
                    continue
                rev = revision_of(request)
                if "error" in frame:
                    definition = "JSONRPCErrorResponse"
                    found = schemas.check(rev, definition, frame)
                else:
                    definition = RESULTS.get(request["method"])
                    if definition is None:
                        continue
                    found = schemas.check(rev, "JSONRPCResultResponse", frame) + schemas.check(rev, definition, frame.get("result"))
            checked += 1
            problems += [f"{where}: {definition} ({rev}): {p}\n    {json.dumps(frame)[:300]}" for p in found]
    return checked, problems


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    root, mcplings = Path(sys.argv[1]), sys.argv[2]
    schemas = Schemas(root)
    listed = json.loads(subprocess.run([mcplings, "list", "--json"], capture_output=True, text=True, check=True).stdout)
    known = {e["id"] for part in listed["parts"] for e in part["exercises"]}
    total, problems = 0, []
    for exercise in sys.argv[3:] or [e for e in DEFAULT if e in known]:
        checked, found = check_exercise(mcplings, exercise, schemas)
        print(f"{exercise:22} {checked} frames checked, {len(found)} violations")
        total += checked
        problems += found
    for p in problems:
        print("  -", p)
    print(f"schema: {total} frames checked, {len(problems)} violations")
    return 1 if problems or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
