#!/usr/bin/env bash
# mcplings doctor against pinned real servers, every outcome held to
# .ci/doctor-baseline.toml (doctor_baseline.py says how): installs
# @modelcontextprotocol/server-everything (pinned below) into
# target/everything once (npm, by name and version) and the official Python
# SDK into target/interop-venv (venv.sh), builds mcplings, and runs doctor
# over stdio and Streamable HTTP against each. Node: the one the conformance
# run installs into target/conformance when present, else node on PATH.
# Arguments go to doctor_baseline.py (--only NAME, --write).
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
python=$(.ci/interop/venv.sh)

cargo build --locked --quiet
echo "server-everything $want, the Python SDK (mcp 2.3.0), node $(node --version)"
exec python3 .ci/interop/doctor_baseline.py --mcplings target/debug/mcplings \
    --everything "$dir/node_modules/@modelcontextprotocol/server-everything/dist/index.js" \
    --python "$python" "$@"
