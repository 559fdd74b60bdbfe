"""The workbook's terminal app, driven as a person would, timed from outside.

`Tui` starts `mcplings` on a pseudo-terminal of 80x24, renders what it
writes with the terminal emulator `pyte`, and waits for text to appear on
the rendered screen. Times are taken on this side of the terminal: from
the moment the bench acts (starts the process, saves a file) to the
moment the screen shows the answer.
"""

import fcntl
import os
import select
import struct
import subprocess
import termios
import threading
import time

import pyte

COLUMNS, LINES = 80, 24


class Tui:
    def __init__(self, argv, cwd, env):
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Condition()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=dict(env, TERM="xterm-256color"), stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.5)
                if not ready:
                    if self.process.poll() is not None:
                        break
                    continue
                data = os.read(self.master, 65536)
            except OSError:
                break
            if not data:
                break
            with self.lock:
                self.stream.feed(data)
                self.lock.notify_all()
        with self.lock:
            self.closed = True
            self.lock.notify_all()

    def text(self):
        with self.lock:
            return "\n".join(self.screen.display)

    def wait_for(self, predicate, timeout=120):
        """Seconds until `predicate(screen text)` holds, counted from now."""
        start = time.perf_counter()
        deadline = start + timeout
        with self.lock:
            while not predicate("\n".join(self.screen.display)):
                left = deadline - time.perf_counter()
                if left <= 0 or self.closed:
                    raise TimeoutError("the screen never showed what was awaited:\n" + "\n".join(self.screen.display))
                self.lock.wait(min(left, 0.05))
        return time.perf_counter() - start

    def keys(self, text):
        os.write(self.master, text.encode())

    def peak_rss_kib(self):
        """VmHWM: the most resident memory the process has had, in KiB."""
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """User plus system CPU time the process has used so far."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        try:
            self.keys("\x03")  # ctrl-c quits
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
