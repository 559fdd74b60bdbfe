#!/usr/bin/env bash
# Interop runs with the official Python SDK as a real peer (see run.py).
# Makes target/interop-venv with mcp==2.3.0 once (later runs reuse it), then
# checks the lessons' claims about the SDK (sdk_claims.py), then
# runs every scenario; the frames are validated against the official schemas
# when .ci/schema_dir.sh finds them. Arguments go to run.py (--only TEXT).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/interop-venv
if ! "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != "2.3.0")' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp==2.3.0'
fi

# What the lessons say about the SDK's current behaviour, checked first.
"$venv/bin/python" .ci/interop/sdk_claims.py

schema_dir=$(.ci/schema_dir.sh)
if [ -n "$schema_dir" ]; then
    exec "$venv/bin/python" .ci/interop/run.py --schemas "$schema_dir" "$@"
else
    exec "$venv/bin/python" .ci/interop/run.py "$@"
fi
