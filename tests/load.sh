#!/bin/sh
# Runs the test suite under load: N busy loops (default 4) beside
# `cargo test`, RUNS times in a row (default 1), with no
# MCPLINGS_TIME_SCALE set (the windows stretch by the load average, as on a
# learner's machine). Prints each run's result and wall time, and the load
# average at its end. Extra arguments go to `cargo test`:
#
#   tests/load.sh                       # the whole suite, once, 4 loops
#   LOOPS=4 RUNS=3 tests/load.sh        # issue 30's bar: three runs in a row
#   tests/load.sh --test suite checkers::ex08   # one module, under load
#
# The loops are this script's own children, ended when it ends.
set -u
loops=${LOOPS:-4}
runs=${RUNS:-1}
unset MCPLINGS_TIME_SCALE
pids=""
i=0
while [ "$i" -lt "$loops" ]; do
    sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done
trap 'kill $pids 2>/dev/null' EXIT INT TERM HUP
failed=0
run=1
while [ "$run" -le "$runs" ]; do
    start=$(date +%s)
    if cargo test "$@"; then result=passed; else result=FAILED; failed=$((failed + 1)); fi
    echo "load.sh: run $run of $runs $result in $(( $(date +%s) - start )) s with $loops busy loops; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    run=$((run + 1))
done
[ "$failed" -eq 0 ]
