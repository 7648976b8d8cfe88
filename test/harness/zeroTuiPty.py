"""Drives zero's interactive TUI in a pseudo-terminal, for test/harness/recordComposerFacts.ts.

    python3 zeroTuiPty.py <zero binary> <cwd> <keys file>

zero's TUI (bubbletea v2) needs a terminal: a window size, and answers to the capability queries it
sends at start (DECRQM, OSC 11 background colour, device attributes, kitty keyboard flags). This
script gives it both, waits until the composer is drawn, then types the keys file: each character
with a short pause (so the command menu sees them as typed), where "\x01" is a one-second pause and
"\x1b[13u" is Enter as the kitty keyboard protocol sends it (zero enables that protocol; a bare CR
does not submit). It then keeps answering until it is stopped (SIGTERM/SIGINT) or 60 s pass, and
kills zero when it exits. zero's screen output is written to stdout when it ends.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

zero, cwd, keys_file = sys.argv[1], sys.argv[2], sys.argv[3]
keys = open(keys_file, encoding="utf-8").read()

pid, fd = pty.fork()
if pid == 0:
    os.chdir(cwd)
    os.execv(zero, [zero])

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))


def stop(*_):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    sys.stdout.buffer.write(screen)
    sys.stdout.flush()
    os._exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)

QUERIES = [
    (rb"\x1b\[\?(\d+)\$p", lambda m: b"\x1b[?" + m.group(1) + b";0$y"),
    (rb"\x1b\[0?c", lambda m: b"\x1b[?62;22c"),
    (rb"\x1b\](1[01]);\?(?:\x07|\x1b\\)", lambda m: b"\x1b]" + m.group(1) + b";rgb:0000/0000/0000\x07"),
    (rb"\x1b\[6n", lambda m: b"\x1b[1;1R"),
    (rb"\x1b\[\?u", lambda m: b"\x1b[?0u"),
]

screen = b""
scanned = 0
typed = False
started = time.time()


def pump(timeout):
    """Reads what zero drew and answers each capability query once."""
    global screen, scanned
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return
    try:
        data = os.read(fd, 65536)
    except OSError:
        stop()
    if not data:
        stop()
    screen += data
    # A query may be split across two reads: look back a little, answer only matches that end in new data.
    base = max(0, scanned - 32)
    for pattern, reply in QUERIES:
        for match in re.finditer(pattern, screen[base:]):
            if base + match.end() > scanned:
                os.write(fd, reply(match))
    scanned = len(screen)


while time.time() - started < 60:
    pump(0.1)
    if not typed and b"describe a task" in screen:
        for part in keys.split("\x01"):
            if part.startswith("\x1b"):
                os.write(fd, part.encode())
            else:
                for char in part:
                    os.write(fd, char.encode())
                    pump(0.05)
            deadline = time.time() + 1
            while time.time() < deadline:
                pump(0.1)
        typed = True
stop()
