#!/usr/bin/env bash
# Makes target/interop-venv with the official Python SDK (mcp==2.3.0) once
# (later runs reuse it) and prints its python. Run from the repository root.
set -euo pipefail
venv=target/interop-venv
if ! "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != "2.3.0")' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp==2.3.0' >&2
fi
echo "$venv/bin/python"
