#!/usr/bin/env python3
"""Records a stdio MCP conversation while relaying it.

Usage: wire.py LOG -- CMD [ARGS...]

Runs CMD, copies our stdin to CMD's stdin and CMD's stdout to our stdout,
one line at a time, and appends each line to LOG as `C->S <line>` (client to
server) or `S->C <line>` (server to client). CMD's stderr passes through.
When the client closes our stdin, CMD's stdin is closed; we exit with CMD's
exit code once its stdout closes. LOG is what run.py validates against the
official schemas afterwards.
"""

import subprocess
import sys
import threading


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    log = open(sys.argv[1], "a", buffering=1, encoding="utf-8")
    lock = threading.Lock()

    def record(direction, raw):
        with lock:
            log.write(f"{direction} {raw.decode('utf-8', 'replace').rstrip(chr(10)).rstrip(chr(13))}\n")

    child = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def client_to_server():
        for raw in sys.stdin.buffer:
            record("C->S", raw)
            try:
                child.stdin.write(raw)
                child.stdin.flush()
            except (BrokenPipeError, ValueError):
                break
        try:
            child.stdin.close()
        except OSError:
            pass

    threading.Thread(target=client_to_server, daemon=True).start()
    out = sys.stdout.buffer
    for raw in child.stdout:
        record("S->C", raw)
        try:
            out.write(raw)
            out.flush()
        except BrokenPipeError:
            break
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
