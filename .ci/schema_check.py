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
    "subscriptions/listen": "SubscriptionsListenResult",
}

# Exercises whose solutions send MCP frames of their own.
DEFAULT = ["03-handshake-gate", "04-era-probe", "07-tool-server", "08-pagination-walker", "09-progress-cancel", "10-input-required", "11-capstone-server"]


class Schemas:
    def __init__(self, root):
        self.docs = {rev: json.loads((root / rev / "schema.json").read_text()) for rev in (LEGACY, MODERN)}
        self.validators = {}
        # Each revision's definition of a request or notification, found by
        # its `method` constant (the Client…/Server… unions left out).
        self.methods = {
            rev: {
                d["properties"]["method"]["const"]: name
                for name, d in doc["$defs"].items()
                if "const" in d.get("properties", {}).get("method", {}) and not name.startswith(("Client", "Server"))
            }
            for rev, doc in self.docs.items()
        }

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


def check_conversation(messages, schemas, checked_sides):
    """Validates a conversation between two sides.

    `messages` is every JSON-RPC message in wire order as (side, message),
    the side being a label of who sent it; a response answers the last
    request with its id sent by the other side. Only messages sent by a side
    in `checked_sides` are validated: a request or notification against its
    method's definition, a response against JSONRPCResultResponse and the
    result definition of the request it answers (InputRequiredResult when
    a 2026-07-28 result says so), or against JSONRPCErrorResponse.

    Revision: a request's own (2026-07-28 when it carries the modern `_meta`
    version); a response's is its request's; a notification without that
    `_meta` has the era the conversation is in (2026-07-28 after a modern
    request, 2025-11-25 after `initialize` or before anything modern).

    Returns (frames checked, [(definition, revision, problem, message)]).
    """
    pending = {}  # (side, id) -> request
    era = LEGACY
    checked, problems = 0, []
    for side, message in messages:
        method = message.get("method")
        if method is not None:
            own = revision_of(message)
            if method == "initialize":
                era = LEGACY
            elif own == MODERN and "id" in message:
                era = MODERN
            rev = own if own == MODERN or "id" in message else era
            if "id" in message:
                pending[(side, json.dumps(message["id"]))] = message
            if side not in checked_sides:
                continue
            definition = schemas.methods[rev].get(method)
            if definition is None:
                continue
            found = schemas.check(rev, definition, message)
        else:
            request = next((r for (s, i), r in pending.items() if s != side and i == json.dumps(message.get("id"))), None)
            if request is None or side not in checked_sides:
                continue
            rev = revision_of(request)
            if "error" in message:
                definition = "JSONRPCErrorResponse"
                found = schemas.check(rev, definition, message)
            else:
                definition = RESULTS.get(request["method"])
                if rev == MODERN and (message.get("result") or {}).get("resultType") == "input_required":
                    definition = "InputRequiredResult"  # 2026-07-28 basic/patterns/mrtr
                if definition is None:
                    continue
                found = schemas.check(rev, "JSONRPCResultResponse", message) + schemas.check(rev, definition, message.get("result"))
        checked += 1
        problems += [(definition, rev, p, message) for p in found]
    return checked, problems


def check_exercise(mcplings, exercise, schemas):
    out = subprocess.run([mcplings, "check", exercise, "--solution", "--json"], capture_output=True, text=True)
    report = json.loads(out.stdout)
    total, problems = 0, []
    for case in report["cases"]:
        messages = []
        for entry in case["transcript"]:
            if entry["kind"] == "frame":
                try:
                    messages.append((entry["dir"], json.loads(entry["line"])))
                except ValueError:
                    pass
        checked, found = check_conversation([(s, m) for s, m in messages if isinstance(m, dict)], schemas, {"from_learner"})
        total += checked
        where = f"{exercise} / {case['name']}"
        problems += [f"{where}: {d} ({rev}): {p}\n    {json.dumps(m)[:300]}" for d, rev, p, m in found]
    return total, problems


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
