#!/usr/bin/env bash
# Interop runs with the official Python SDK as a real peer (see run.py).
# Makes target/interop-venv with mcp==2.3.0 once (venv.sh), then
# checks the lessons' claims about the SDK (sdk_claims.py), then
# runs every scenario; the frames are validated against the official schemas
# when .ci/schema_dir.sh finds them. Arguments go to run.py (--only TEXT).
set -euo pipefail
cd "$(dirname "$0")/../.."

python=$(.ci/interop/venv.sh)

# What the lessons say about the SDK's current behaviour, checked first.
"$python" .ci/interop/sdk_claims.py

schema_dir=$(.ci/schema_dir.sh)
if [ -n "$schema_dir" ]; then
    exec "$python" .ci/interop/run.py --schemas "$schema_dir" "$@"
else
    exec "$python" .ci/interop/run.py "$@"
fi
