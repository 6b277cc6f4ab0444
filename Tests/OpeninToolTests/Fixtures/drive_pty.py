#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, waits for the sheet, types keys, and reports.

    drive_pty.py KEYS-AS-HEX COMMAND ARG...     (KEYS empty: no sheet is expected)

Prints what the command wrote to the terminal, then a last line "exit N".
"""
import fcntl, os, pty, select, struct, sys, termios, time

keys = bytes.fromhex(sys.argv[1])
argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
# The terminal's height: PTY_ROWS, else 24.
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", int(os.environ.get("PTY_ROWS", "24")), 100, 0, 0))

out = b""
def pump(until=None, timeout=10.0):
    global out
    end = time.time() + timeout
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            out += data
            if until is not None and until in out:
                return True
    return until is None

if keys:            # a sheet to answer; with no keys, just run to the end
    pump(b"q cancel")
# One key at a time, as a person types; an escape sequence (arrows, pages) arrives whole, as a
# terminal sends it, and a lone Esc alone.
i = 0
while i < len(keys):
    j = i + 1
    if keys[i] == 0x1B and j < len(keys) and keys[j] == ord("["):
        while j < len(keys) and not (chr(keys[j]).isalpha() or keys[j] == ord("~")):
            j += 1
        j += 1
    elif 0x20 <= keys[i] < 0x7F:       # typed text (a folder name) arrives as one burst
        while j < len(keys) and 0x20 <= keys[j] < 0x7F:
            j += 1
    os.write(fd, keys[i:j])
    time.sleep(0.15)
    i = j
pump()
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
print("\nexit %d" % (os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1))
