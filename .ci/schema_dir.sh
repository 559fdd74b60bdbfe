#!/usr/bin/env bash
# Prints the folder that holds the official MCP schemas as <revision>/schema.json,
# or nothing when there is none: $MCP_SCHEMA_DIR, else ../shared/mcp-schema next to
# the checkout, else /work/shared/mcp-schema. Run from the repository root.
for d in "${MCP_SCHEMA_DIR:-}" ../shared/mcp-schema /work/shared/mcp-schema; do
    if [ -n "$d" ] && [ -f "$d/2026-07-28/schema.json" ]; then echo "$d"; exit 0; fi
done
