#!/usr/bin/env python3
"""End-to-end checks of `typewrite --collapse` in a real pseudo-terminal.

    Tests/e2e/collapse_test.py path/to/typewrite [NAME-SUBSTRING...]

Each check starts typewrite with stdin a pipe and stdout on a pty that is its controlling
terminal (so /dev/tty works, and its process group is the foreground one unless a check says
otherwise), presses keys by writing to the pty's master side, and reads the screen through pyte.
Prints `ok - name`, `ok - name # SKIP reason` or `not ok - name: detail` per check, like
Tests/e2e/checks.py, then exits 1 if any check failed. Needs python3 and pyte
(`pip install pyte`); without pyte every check is skipped.
"""

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time

try:
    import pyte
except ImportError:  # reported per check as a skip
    pyte = None

COLS, ROWS = 80, 24
WAIT = 10.0  # seconds any one expected screen may take (loaded CI machine)
HINT_MORE = "Read more  Enter or Space to expand, q to quit"
HINT_LESS = "Show less  Enter or Space to collapse, q to quit"

PARAGRAPH = ("When the sea pulls back, a tide pool becomes a small island of water that has to last "
             "until the next high tide; its residents close up and wait for the water to return.")
TEXT = "alpha\nbravo\ncharlie\ndelta\necho\n" + PARAGRAPH + "\nfoxtrot\n"


def env(**extra):
    e = {k: v for k, v in os.environ.items()
         if k not in ("NO_COLOR", "REDUCED_MOTION", "COLUMNS", "LINES", "COLORFGBG")}
    e.update(TERM="xterm-256color", COLORTERM="truecolor")
    e.update(extra)
    return e


def cat_screen(text, cols=COLS, rows=ROWS):
    """The rows cat leaves for `text` on a fresh screen (a pty turns LF into CR LF)."""
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(text.replace("\n", "\r\n").encode())
    return [line.rstrip() for line in screen.display]


class Session:
    """typewrite on a pty; `background` puts it in a process group that is not the foreground."""

    def __init__(self, tw, args, text, cols=COLS, rows=ROWS, background=False, extra_env=None):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.original = termios.tcgetattr(self.slave)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        in_r, in_w = os.pipe()
        err_r, err_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()
                fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
                os.dup2(in_r, 0)
                os.dup2(self.slave, 1)
                os.dup2(err_w, 2)
                os.closerange(3, 1024)
                argv = [tw] + list(args)
                e = env(**(extra_env or {}))
                if not background:
                    os.execve(tw, argv, e)
                # The session leader stays in the foreground group; typewrite runs in another.
                child = os.fork()
                if child == 0:
                    os.setpgid(0, 0)
                    os.execve(tw, argv, e)
                _, status = os.waitpid(child, 0)
                os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
            except BaseException as error:  # noqa: BLE001 - report anything, never return
                os.write(2, ("exec failed: %r\n" % error).encode())
                os._exit(127)
        self.pid = pid
        os.close(in_r)
        os.close(err_w)
        self.err_r = err_r
        self.stderr = b""
        self.status = None
        os.write(in_w, text.encode())
        os.close(in_w)

    def pump(self, timeout):
        ready, _, _ = select.select([self.master, self.err_r], [], [], timeout)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if fd == self.master and data:
                self.raw += data
                self.stream.feed(data)
            elif fd == self.err_r:
                self.stderr += data
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)

    def lines(self):
        return [line.rstrip() for line in self.screen.display]

    def wait(self, predicate, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return
            self.pump(0.02)
        if predicate(self):
            return
        raise AssertionError("waited %.0f s for %s; screen:\n%s" % (timeout, what, "\n".join(
            "  |" + line for line in self.lines() if line) or "  (empty)"))

    def wait_exit(self, timeout=WAIT):
        self.wait(lambda s: s.status is not None, "typewrite to exit", timeout)
        deadline = time.monotonic() + 0.3  # what it wrote last
        while time.monotonic() < deadline:
            self.pump(0.02)
        return self.status

    def press(self, key):
        os.write(self.master, key)

    def settle(self, seconds=0.4):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.pump(0.02)

    def mode(self):
        return termios.tcgetattr(self.slave)

    def key_mode(self):
        lflag = self.mode()[3]
        return not lflag & (termios.ICANON | termios.ECHO | termios.ISIG)

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        for fd in (self.master, self.slave, self.err_r):
            try:
                os.close(fd)
            except OSError:
                pass


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def has_prompt(s, hint=HINT_MORE):
    return any(line == hint for line in s.lines())


# ------------------------------------------------------------------------------------------------

def check_enter_enter_q(tw):
    """Enter expands in place, Enter collapses again, q leaves the view."""
    cat = cat_screen(TEXT)
    s = Session(tw, ["--collapse=2", "--cps", "400"], TEXT)
    try:
        s.wait(has_prompt, "the Read more prompt")
        expect(s.lines()[:3] == ["alpha", "bravo", HINT_MORE], "collapsed: %r" % s.lines()[:4])
        expect(all(not line for line in s.lines()[3:]), "text below the label: %r" % s.lines()[3:6])
        expect(s.screen.cursor.y == 2, "cursor row %d, not the label row" % s.screen.cursor.y)
        dim = s.screen.buffer[1][0].fg
        expect(dim != "default" and s.screen.buffer[0][0].fg == "default",
               "last row not faded (fg %s), first row fg %s" % (dim, s.screen.buffer[0][0].fg))
        expect(s.screen.buffer[2][0].bold, "label not bold")
        expect(s.key_mode(), "terminal not in key mode while prompting")

        s.press(b"\r")
        s.wait(lambda s: has_prompt(s, HINT_LESS), "Show less after Enter")
        n = len([line for line in cat if line])
        expect(s.lines()[:n] == cat[:n], "expanded text differs from cat's:\n%r\n%r" % (s.lines()[:n], cat[:n]))
        expect(s.lines()[n] == HINT_LESS, "label row %r" % s.lines()[n])
        expect(all(s.screen.buffer[1][x].fg == "default" for x in range(5)), "last row still faded")

        s.press(b"\r")
        s.wait(lambda s: has_prompt(s, HINT_MORE) and not any("charlie" in l for l in s.lines()),
               "Read more again after the second Enter")
        expect(s.lines()[:3] == ["alpha", "bravo", HINT_MORE], "collapsed again: %r" % s.lines()[:4])
        expect(all(not line for line in s.lines()[3:]), "rest not erased: %r" % s.lines()[3:6])

        s.press(b"q")
        status = s.wait_exit()
        expect(status == 0, "exit status %s after q" % status)
        expect(s.lines()[:3] == ["alpha", "bravo", "Read more"], "after q: %r" % s.lines()[:4])
        expect((s.screen.cursor.y, s.screen.cursor.x) == (3, 0), "cursor at %d,%d after q" % (s.screen.cursor.y, s.screen.cursor.x))
        expect(s.mode() == s.original, "terminal settings not restored after q")
        expect(s.stderr == b"", "stderr: %r" % s.stderr)
    finally:
        s.close()


def check_space_and_escape(tw):
    s = Session(tw, ["--collapse=2", "--cps", "400"], TEXT)
    try:
        s.wait(has_prompt, "the Read more prompt")
        s.press(b" ")
        s.wait(lambda s: has_prompt(s, HINT_LESS), "Show less after Space")
        s.press(b"\x1b")
        status = s.wait_exit()
        expect(status == 0, "exit status %s after Esc" % status)
        expect("Show less" in s.lines(), "Show less not left on screen: %r" % s.lines())
        expect(s.mode() == s.original, "terminal settings not restored after Esc")
    finally:
        s.close()


def check_ctrl_c_key(tw):
    s = Session(tw, ["--collapse=2", "--cps", "400"], TEXT)
    try:
        s.wait(has_prompt, "the Read more prompt")
        s.press(b"\x03")
        status = s.wait_exit()
        expect(status == 0, "exit status %s after Ctrl-C at the prompt" % status)
        expect(s.lines()[:3] == ["alpha", "bravo", "Read more"], "after Ctrl-C: %r" % s.lines()[:4])
        expect(s.mode() == s.original, "terminal settings not restored after Ctrl-C")
    finally:
        s.close()


def check_too_tall_for_show_less(tw):
    text = "".join("line %d\n" % i for i in range(1, 41))
    s = Session(tw, ["--collapse=5", "--cps", "4000"], text, rows=12)
    try:
        s.wait(has_prompt, "the Read more prompt")
        s.press(b"\r")
        status = s.wait_exit()
        expect(status == 0, "exit status %s" % status)
        expect(not any(l.startswith("Show less") or l.startswith("Read more") for l in s.lines()),
               "a label is left: %r" % s.lines())
        expect(s.lines()[-2:] == ["line 40", ""], "end of text: %r" % s.lines()[-2:])
        expect(s.mode() == s.original, "terminal settings not restored")
    finally:
        s.close()


def check_fits(tw):
    s = Session(tw, ["--collapse=3"], "one\ntwo\nthree\n")
    try:
        status = s.wait_exit()
        expect(status == 0, "exit status %s" % status)
        expect(s.lines()[:4] == ["one", "two", "three", ""], "screen: %r" % s.lines()[:4])
        expect(s.mode() == s.original, "terminal settings changed")
    finally:
        s.close()


def check_sigterm_at_prompt(tw):
    s = Session(tw, ["--collapse=2", "--cps", "400"], TEXT)
    try:
        s.wait(has_prompt, "the Read more prompt")
        expect(s.key_mode(), "not in key mode")
        os.kill(s.pid, signal.SIGTERM)
        status = s.wait_exit()
        expect(status == -signal.SIGTERM, "status %s, not death by SIGTERM" % status)
        expect(s.mode() == s.original, "terminal settings not restored after SIGTERM")
        expect(s.lines()[2] == "Read more", "label row after SIGTERM: %r" % s.lines()[2])
    finally:
        s.close()


def check_background(tw):
    """Not in the foreground process group: no prompt, the view expands by itself."""
    s = Session(tw, ["--collapse=2", "--cps", "400"], TEXT, background=True)
    try:
        status = s.wait_exit()
        expect(status == 0, "exit status %s" % status)
        cat = cat_screen(TEXT)
        expect(s.lines() == cat, "screen differs from cat's:\n%r\n%r" % (s.lines()[:10], cat[:10]))
        expect(s.mode() == s.original, "terminal settings changed by a background job")
    finally:
        s.close()


def check_reduced_motion(tw):
    s = Session(tw, ["--collapse=2"], TEXT, extra_env={"REDUCED_MOTION": "1"})
    try:
        status = s.wait_exit()
        expect(status == 0, "exit status %s" % status)
        expect(bytes(s.raw) == TEXT.replace("\n", "\r\n").encode(), "output is not the input: %r" % bytes(s.raw[:80]))
    finally:
        s.close()


def check_pipe(tw):
    p = subprocess.run([tw, "--collapse=2"], input=TEXT.encode(), capture_output=True, env=env(), timeout=WAIT)
    expect(p.returncode == 0, "status %d" % p.returncode)
    expect(p.stdout == TEXT.encode(), "stdout is not the input")


CHECKS = [
    ("collapse: Enter, Enter, q in a pty", check_enter_enter_q),
    ("collapse: Space expands, Esc leaves Show less", check_space_and_escape),
    ("collapse: Ctrl-C at the prompt exits 0, view as is", check_ctrl_c_key),
    ("collapse: text taller than the screen: no Show less", check_too_tall_for_show_less),
    ("collapse: text that fits: no label, no prompt", check_fits),
    ("collapse: SIGTERM at the prompt restores the terminal", check_sigterm_at_prompt),
    ("collapse: background job: no prompt, expands by itself", check_background),
    ("collapse: REDUCED_MOTION=1: the whole text at once, no prompt", check_reduced_motion),
    ("collapse: stdout a pipe: bytes out = bytes in", check_pipe),
]


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    tw = os.path.abspath(argv[1])
    filters = argv[2:]
    failed = 0
    for name, check in CHECKS:
        if filters and not any(f in name for f in filters):
            continue
        if pyte is None:
            print("ok - %s # SKIP pyte not installed (pip install pyte)" % name)
            continue
        started = time.monotonic()
        try:
            check(tw)
            print("ok - %s" % name)
        except AssertionError as error:
            failed += 1
            print("not ok - %s: %s" % (name, str(error).replace("\n", "\n#   ")))
        if os.environ.get("TYPEWRITE_E2E_VERBOSE") == "1":
            print("#   %.2f s" % (time.monotonic() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
