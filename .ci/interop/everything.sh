#!/usr/bin/env bash
# mcplings doctor against @modelcontextprotocol/server-everything (pinned
# below), over stdio: the official TypeScript SDK's demonstration server, a
# real peer that exercises tools, resources, templates and prompts. Installs
# it into target/everything once (npm, by name and version), runs doctor,
# prints its text report (every warn and fail with the sentence it cites)
# and fails on a fail. Node: the one the conformance run installs into
# target/conformance when present, else node on PATH.
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
server=("node" "$dir/node_modules/@modelcontextprotocol/server-everything/dist/index.js" stdio)
echo "doctor on server-everything $want (stdio), node $(node --version)"
status=0
target/debug/mcplings doctor -- "${server[@]}" || status=$?
if [ "$status" -ne 0 ]; then
    echo "doctor ended with $status on server-everything (0: no fail)" >&2
    exit 1
fi
