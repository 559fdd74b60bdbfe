#!/usr/bin/env bash
# Fuzzes every target in turn with libFuzzer (cargo-fuzz), SECONDS_EACH
# seconds each (default 150), seeding each corpus from the shipped course.
# Needs cargo-fuzz (`cargo install cargo-fuzz`); the machine's stable
# toolchain serves with RUSTC_BOOTSTRAP=1, and `-s none` (no sanitizer: the
# crate forbids unsafe code, so a panic is what there is to find).
# A crash is saved under fuzz/artifacts/<target>/ and ends the run: turn it
# into a regression test in tests/fuzz.rs.
set -euo pipefail
cd "$(dirname "$0")"
each=${SECONDS_EACH:-150}
targets=${TARGETS:-classify sse lesson quiz manifest}
seed() { mkdir -p "corpus/$1"; shift; for f in "$@"; do cp "$f" "corpus/${target}/seed-$(basename "$(dirname "$f")")-$(basename "$f")" 2>/dev/null || true; done; }
for target in $targets; do
    case $target in
        lesson) seed lesson ../lessons/*/lesson.md ;;
        quiz) seed quiz ../lessons/*/quiz.toml ;;
        manifest) seed manifest ../lessons/course.toml ../lessons/*/exercises.toml ;;
        classify)
            mkdir -p corpus/classify
            i=0
            for line in '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}' \
                '{"jsonrpc":"2.0","id":"c1","result":{"content":[]}}' \
                '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' \
                '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}' \
                '[{"jsonrpc":"2.0","id":1.0,"method":"ping"}]'; do
                printf '%s' "$line" > "corpus/classify/seed-$i"; i=$((i + 1))
            done ;;
        sse)
            mkdir -p corpus/sse
            printf ': keep-alive\n\nevent: message\ndata: {"a":\ndata: 1}\nid: 7\n\ndata: x\r\n\r\nretry: 100\n\n' > corpus/sse/seed-0 ;;
    esac
    # Whole lessons are 35 kB and lay out in milliseconds: shorter inputs
    # give the fuzzer a hundred times more runs.
    max_len=4096
    echo "== fuzzing $target for ${each}s"
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" -s none -- -max_total_time="$each" -max_len="$max_len" -print_final_stats=1
done
