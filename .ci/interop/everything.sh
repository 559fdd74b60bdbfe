#!/usr/bin/env bash
# mcplings doctor against @modelcontextprotocol/server-everything (pinned
# below): the official TypeScript SDK's demonstration server, a real peer
# that exercises tools, resources, templates and prompts. Installs it into
# target/everything once (npm, by name and version), runs doctor over stdio
# and over its legacy (session-based) Streamable HTTP mode, and prints each
# text report (every warn and fail with the sentence it cites). Over stdio
# any fail fails the run. Over HTTP the server breaks two MUSTs, verified
# against their sentences (2025-11-25 basic/transports): a request in a
# session ended with DELETE gets 400, not 404 (› Session Management), and a
# foreign Origin is served, not refused with 403 (› Security Warning); a
# fail of any other check fails the run. Node: the one the conformance run
# installs into target/conformance when present, else node on PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."

want=2026.8.31
dir=target/everything
if [ -d target/conformance/node_modules/.bin ]; then
    export PATH=$PWD/target/conformance/node_modules/.bin:$PATH
fi
installed() { node -e "process.stdout.write(require('./node_modules/@modelcontextprotocol/server-everything/package.json').version)" 2>/dev/null; }
mkdir -p "$dir"
if [ "$(cd "$dir" && installed)" != "$want" ]; then
    (cd "$dir" && { [ -f package.json ] || npm init -y >/dev/null; } \
        && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/server-everything@$want")
fi

cargo build --locked --quiet
main=$dir/node_modules/@modelcontextprotocol/server-everything/dist/index.js
echo "doctor on server-everything $want (stdio), node $(node --version)"
status=0
target/debug/mcplings doctor -- node "$main" stdio || status=$?
if [ "$status" -ne 0 ]; then
    echo "doctor ended with $status on server-everything over stdio (0: no fail)" >&2
    exit 1
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$port node "$main" streamableHttp >"$dir/http.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then break; fi
    sleep 0.1
done
echo "doctor on server-everything $want (Streamable HTTP)"
target/debug/mcplings doctor --url "http://127.0.0.1:$port/mcp" || true
target/debug/mcplings doctor --json --url "http://127.0.0.1:$port/mcp" >"$dir/http.json" || true
python3 - "$dir/http.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
known = {"http-session-ended-404", "http-origin-403"}
if report.get("format_version") != 2:
    sys.exit(f"doctor's JSON format_version is {report.get('format_version')}, this reader knows 2")
if report.get("error"):
    sys.exit(f"doctor could not run over HTTP: {report['error']}")
fails = {c["id"] for c in report["cases"] if c["outcome"] == "fail"}
if fails - known:
    sys.exit(f"new fails over HTTP: {sorted(fails - known)}")
print(f"over HTTP: the known fails only ({sorted(fails)})")
PY
