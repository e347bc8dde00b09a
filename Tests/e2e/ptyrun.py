#!/usr/bin/env python3
"""Run a command with its stdout (and optionally stdin) on a pseudo-terminal, for end-to-end checks.

Standard library only (pty, termios, select, signal, fcntl). Used as a module by checks.py, or
from the command line for reproductions:

    ptyrun.py [--rows 24] [--cols 80] [--stdin pipe|pty|null|FILE] [--stdout pty|pipe]
              [--feed TEXT] [--feed-file FILE] [--trace FILE] [--no-eof]
              [--signal SECONDS:SIGNAME ...] [--timeout S] [--env K=V ...] [--show]
              -- COMMAND [ARG...]

prints one JSON object: status (like subprocess: -N = killed by signal N), exit_time, times of
stop/continue events, signals sent, output (hex unless --show), stderr, cpu seconds, peak RSS,
and the O_NONBLOCK flag of stdin's open file description after the command exited.

How the terminal is set up: a helper process S becomes a session leader with the pty as its
controlling terminal, then forks the command into its own process group, made the terminal's
foreground group. The command's group is therefore not orphaned, so SIGTSTP really stops it (the
kernel discards job-control stop signals for an orphaned process group). S reports the command's
pid and every waitpid event (stopped / continued / exited, with CLOCK_MONOTONIC times and rusage)
through a pipe. This process keeps its own descriptor of the pty slave and of the stdin pipe, so
it can inspect the shared open file descriptions' flags after the command has exited.
"""

import fcntl
import json
import os
import select
import signal
import struct
import sys
import termios
import threading
import time

MONO = time.monotonic


def _set_winsize(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def nonblocking(fd):
    return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK)


def set_nonblocking(fd, on=True):
    fl = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, (fl | os.O_NONBLOCK) if on else (fl & ~os.O_NONBLOCK))


def proc_cpu_ticks(pid):
    """utime + stime of pid in clock ticks (/proc/PID/stat), None if gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            data = f.read()
    except OSError:
        return None
    fields = data[data.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def proc_state(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            data = f.read()
    except OSError:
        return None
    return data[data.rindex(")") + 2:].split()[0]


class Run:
    """One run of a command. Drive it with start(), send()/feed_*(), pump(), kill(), wait()."""

    def __init__(self, argv, rows=24, cols=80, stdin="pipe", stdout="pty", env=None,
                 stdin_nonblocking=False, echo=False, stdout_pipe_nonblocking=False, ignore=(), stderr="pipe"):
        self.argv = list(argv)
        self.rows, self.cols = rows, cols
        self.stdin_kind, self.stdout_kind = stdin, stdout
        self.stderr_kind = stderr  # "pipe" (read into .stderr) or "pty" (the terminal, as in a shell)
        self.env = dict(os.environ if env is None else env)
        self.stdin_nonblocking = stdin_nonblocking
        self.stdout_pipe_nonblocking = stdout_pipe_nonblocking
        self.echo = echo
        self.ignore = tuple(ignore)  # signals the command inherits as ignored (nohup, `cmd &`)
        self.output = bytearray()
        self.chunks = []          # (time, len) of each read of the output
        self.stderr = bytearray()
        self.events = []          # (time, kind, detail) from the session helper
        self.signals = []         # (time, signo)
        self.status = None
        self.exit_time = None
        self.rusage = None
        self.pid = None
        self.stdin_w = None       # our write end of the stdin pipe
        self.stdin_shared = None  # our descriptor of stdin's open file description
        self.out_r = None         # our end of the stdout (pty master or pipe read end)
        self.fed = 0
        self.feed_error = None
        self.feed_done_time = None
        self.stdin_closed_time = None
        self._feeder = None
        self.output_closed = False
        self.read_size = 1 << 16   # a slow reader: small reads ...
        self.read_pause = 0.0      # ... with a pause after each
        self.answers_queries = False  # a terminal that answers CSI 6 n (from `Screen`) and DA1
        self._queries_seen = 0
        self._stop = threading.Event()  # set by close(): feeders stop writing

    # -- starting ---------------------------------------------------------------------------
    def start(self):
        master, slave = os.openpty()
        _set_winsize(slave, self.rows, self.cols)
        attrs = termios.tcgetattr(slave)
        if not self.echo:
            attrs[3] &= ~(termios.ECHO | termios.ECHONL)
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        # The tty's settings before the command runs (it may change them at once).
        self.initial_attrs = termios.tcgetattr(slave)
        self.master, self.slave = master, slave

        if self.stdin_kind == "pipe":
            r, w = os.pipe()
            child_in, self.stdin_w, self.stdin_shared = r, w, os.dup(r)
        elif self.stdin_kind == "pty":
            child_in, self.stdin_shared = slave, slave
        elif self.stdin_kind == "null":
            child_in = os.open("/dev/null", os.O_RDONLY)
            self.stdin_shared = os.dup(child_in)
        else:
            child_in = os.open(self.stdin_kind, os.O_RDONLY)
            self.stdin_shared = os.dup(child_in)
        if self.stdin_nonblocking:
            set_nonblocking(child_in)
        if self.stdout_kind == "pty":
            child_out, self.out_r = slave, master
        else:
            r, w = os.pipe()
            child_out, self.out_r = w, r
            if self.stdout_pipe_nonblocking:
                set_nonblocking(w)
        err_r, err_w = os.pipe()
        ev_r, ev_w = os.pipe()
        self.err_r, self.ev_r = err_r, ev_r

        self.spawn_time = MONO()
        helper = os.fork()
        if helper == 0:
            self._session_helper(slave, child_in, child_out, err_w, ev_w)  # never returns
        self.helper = helper
        os.close(err_w)
        os.close(ev_w)
        if self.stdout_kind == "pipe":
            os.close(child_out)
        if self.stdin_kind == "pipe":
            os.close(child_in)
        elif self.stdin_kind not in ("pty",):
            os.close(child_in)
        self._evbuf = b""
        deadline = MONO() + 10
        while self.pid is None and MONO() < deadline:
            self._pump_once(0.05)
        if self.pid is None:
            raise RuntimeError("session helper did not report the child pid")
        return self

    def _session_helper(self, slave, child_in, child_out, err_w, ev_w):
        try:
            # Keep only what the command needs: our copies of the other ends (the stdin pipe's
            # write end above all) must not stay open here, or the command never sees EOF.
            keep = {0, 1, 2, slave, child_in, child_out, err_w, ev_w}
            for fd in range(3, 1024):
                if fd not in keep:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            gate_r, gate_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.setpgid(0, 0)
                signal.signal(signal.SIGTTOU, signal.SIG_IGN)
                os.tcsetpgrp(slave, os.getpid())
                for s in (signal.SIGTTOU, signal.SIGPIPE, signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                          signal.SIGTSTP, signal.SIGCONT, signal.SIGWINCH, signal.SIGQUIT):
                    signal.signal(s, signal.SIG_DFL)
                for s in self.ignore:
                    signal.signal(s, signal.SIG_IGN)
                os.close(gate_w)
                os.read(gate_r, 1)
                os.dup2(child_in, 0)
                os.dup2(child_out, 1)
                os.dup2(slave if self.stderr_kind == "pty" else err_w, 2)
                os.closerange(3, 65536)
                try:
                    os.execvpe(self.argv[0], self.argv, self.env)
                except OSError as e:
                    os.write(2, ("exec failed: %s\n" % e).encode())
                    os._exit(127)
            try:
                os.setpgid(pid, pid)
            except OSError:
                pass
            os.close(gate_r)

            def report(obj):
                os.write(ev_w, (json.dumps(obj) + "\n").encode())

            report({"pid": pid, "t": MONO()})
            os.close(gate_w)
            while True:
                _, st, ru = os.wait4(pid, os.WUNTRACED | os.WCONTINUED)
                t = MONO()
                if os.WIFSTOPPED(st):
                    report({"ev": "stopped", "t": t, "sig": os.WSTOPSIG(st)})
                elif os.WIFCONTINUED(st):
                    report({"ev": "continued", "t": t})
                else:
                    code = -os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)
                    report({"ev": "exit", "t": t, "status": code,
                            "cpu": ru.ru_utime + ru.ru_stime, "maxrss_kb": ru.ru_maxrss})
                    break
        except BaseException as e:  # report and leave
            try:
                os.write(ev_w, (json.dumps({"ev": "helper-error", "error": repr(e)}) + "\n").encode())
            except OSError:
                pass
        os._exit(0)

    # -- input --------------------------------------------------------------------------------
    def send(self, data, fd=None):
        """Writes bytes to the command's stdin (pipe: the write end; pty: the master)."""
        fd = fd if fd is not None else self.stdin_w if self.stdin_kind == "pipe" else self.master
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            self.fed += n
            view = view[n:]

    def close_stdin(self):
        if self.stdin_kind == "pipe" and self.stdin_w is not None:
            os.close(self.stdin_w)
            self.stdin_w = None
        elif self.stdin_kind == "pty":
            self.send(b"\x04")  # VEOF at the start of a line
        self.stdin_closed_time = MONO()

    def feed_schedule(self, schedule, eof=True):
        """Feeds [(seconds after now, bytes)] on a thread, then closes stdin (if eof).
        The thread writes to its own duplicate of stdin's descriptor and stops at `close()`: a
        schedule outliving its run must not write into whatever the next run's pipe or pty gets
        the run's descriptor numbers (a check's text would then hold another check's lines)."""
        t0 = MONO()
        fd = os.dup(self.stdin_w if self.stdin_kind == "pipe" else self.master)

        def run():
            try:
                for at, data in schedule:
                    if self._stop.wait(max(0.0, t0 + at - MONO())):
                        return
                    self.send(data, fd)
                self.feed_done_time = MONO()
            except OSError as e:
                self.feed_error = e
                self.feed_done_time = MONO()
                return
            finally:
                os.close(fd)
            if eof and not self._stop.is_set():
                self.close_stdin()

        self._feeder = threading.Thread(target=run, daemon=True)
        self._feeder.start()

    def feed_trace(self, path, speed=1.0, eof=True):
        sched, due = [], 0.0
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    due += rec["delay_ms"] / 1000.0 / speed
                    sched.append((due, bytes.fromhex(rec["hex"])))
        self.feed_schedule(sched, eof)
        return b"".join(d for _, d in sched)

    def feed_done(self):
        return self._feeder is None or not self._feeder.is_alive()

    # -- signals, reading -----------------------------------------------------------------------
    def kill(self, signo):
        self.signals.append((MONO(), signo))
        os.kill(self.pid, signo)

    def close_output(self):
        """Closes our read end of a stdout pipe (the reader leaves)."""
        if self.out_r is not None and not self.output_closed:
            os.close(self.out_r)
            self.output_closed = True

    def _pump_once(self, timeout):
        fds = [self.err_r, self.ev_r]
        if not self.output_closed:
            fds.append(self.out_r)
        fds = [fd for fd in fds if fd is not None]
        try:
            ready, _, _ = select.select(fds, [], [], max(0.0, timeout))
        except InterruptedError:
            return
        now = MONO()
        for fd in ready:
            try:
                data = os.read(fd, self.read_size if fd == self.out_r else 1 << 16)
            except OSError:
                data = b""
            if fd == self.out_r and self.read_pause:
                time.sleep(self.read_pause)
            if fd == self.err_r:
                if data:
                    self.stderr += data
                else:
                    self.err_r = None
            elif fd == self.ev_r:
                if not data:
                    self.ev_r = None
                    continue
                self._evbuf += data
                while b"\n" in self._evbuf:
                    line, self._evbuf = self._evbuf.split(b"\n", 1)
                    ev = json.loads(line)
                    if "pid" in ev:
                        self.pid = ev["pid"]
                    elif ev["ev"] == "exit":
                        self.status, self.exit_time = ev["status"], ev["t"]
                        self.rusage = {"cpu": ev["cpu"], "maxrss_kb": ev["maxrss_kb"]}
                        self.events.append((ev["t"], "exit", ev["status"]))
                    else:
                        self.events.append((ev.get("t", now), ev["ev"], ev.get("sig") or ev.get("error")))
            else:
                if data:
                    self.output += data
                    self.chunks.append((now, len(data)))
                    if self.answers_queries:
                        self._answer_queries()
                elif self.stdout_kind == "pipe":
                    self.close_output()

    def _answer_queries(self):
        """Answers each new cursor position request (`CSI 6 n`: the cursor's row and column as
        `Screen` has it after the bytes before the request) and DA1 (`CSI c`), as a terminal does."""
        while True:
            i = self.output.find(b"\x1b[6n", self._queries_seen)
            if i < 0:
                break
            self._queries_seen = i + 4
            s = Screen(self.cols)
            s.feed(bytes(self.output[:i]))
            os.write(self.master, b"\x1b[%d;%dR" % (min(s.row, self.rows - 1) + 1, s.col % self.cols + 1))
            if self.output.find(b"\x1b[c", i) >= 0:
                os.write(self.master, b"\x1b[?62;22c")

    def pump(self, seconds):
        """Reads output and events for `seconds`."""
        end = MONO() + seconds
        while True:
            left = end - MONO()
            if left <= 0:
                break
            self._pump_once(min(left, 0.05))

    def pump_until(self, predicate, timeout):
        end = MONO() + timeout
        while not predicate():
            left = end - MONO()
            if left <= 0:
                return False
            self._pump_once(min(left, 0.02))
        return True

    def exited(self):
        return self.status is not None

    def stopped(self):
        return bool(self.events) and self.events[-1][1] == "stopped"

    def wait(self, timeout):
        """Waits for the command to exit (killing it after `timeout`), then drains the output."""
        ok = self.pump_until(self.exited, timeout)
        if not ok:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except OSError:
                pass
            self.pump_until(self.exited, 5)
        # Drain what is still buffered in the pty or pipe.
        quiet_since = MONO()
        while MONO() - quiet_since < 0.15:
            n = len(self.output)
            self._pump_once(0.03)
            if len(self.output) != n:
                quiet_since = MONO()
        self.stdin_nonblocking_after = nonblocking(self.stdin_shared) if self.stdin_shared is not None else None
        try:
            os.waitpid(self.helper, 0)
        except ChildProcessError:
            pass
        return ok

    def close(self):
        self._stop.set()
        for fd in (self.master, self.slave, self.stdin_w, self.stdin_shared if self.stdin_kind != "pty" else None,
                   None if self.output_closed or self.stdout_kind == "pty" else self.out_r):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def first_output_time(self):
        return self.chunks[0][0] if self.chunks else None

    def last_output_time(self):
        return self.chunks[-1][0] if self.chunks else None

    def result(self):
        return {
            "status": self.status,
            "exit_after_spawn": None if self.exit_time is None else round(self.exit_time - self.spawn_time, 4),
            "events": [(round(t - self.spawn_time, 4), k, d) for t, k, d in self.events],
            "signals": [(round(t - self.spawn_time, 4), s) for t, s in self.signals],
            "rusage": self.rusage,
            "stdin_nonblocking_after": getattr(self, "stdin_nonblocking_after", None),
            "stderr": self.stderr.decode("utf-8", "replace"),
            "output_bytes": len(self.output),
        }


# -- a small terminal model, enough to read back what typewrite drew --------------------------

class Screen:
    """Logical-line terminal model: printable bytes overwrite at the cursor, CR goes to column 0,
    LF to the next line, CSI n C/D/G move within the line, EL 0 erases to the end of the physical
    row, other escapes are parsed and ignored.
    Lines never wrap (typewrite never moves the cursor across a row boundary, so a logical line
    is what the rows of a real terminal show joined). Tracks the SGR state that matters for
    "left the terminal as cat would": foreground, background, intensity, and whether
    synchronized output (CSI ?2026 h) is open."""

    def __init__(self, width=80):
        self.width = width  # for CHA: which physical row of a long logical line the cursor is on
        self.lines = [[]]  # each line: a list of cells, each cell the bytes of one character
        self.row = 0
        self.col = 0
        self.fg = self.bg = None
        self.intensity = 0
        self.other_attrs = set()
        self.sync_open = False
        self.link_open = False

    def _put(self, b):
        line = self.lines[self.row]
        if 0x80 <= b <= 0xBF and self.col > 0 and self.col <= len(line) and line[self.col - 1] \
                and line[self.col - 1][0] >= 0xC0 and len(line[self.col - 1]) < 4:
            line[self.col - 1] += bytes([b])  # UTF-8 continuation: same cell (all cells 1 wide)
            return
        if self.col < len(line):
            line[self.col] = bytes([b])
        else:
            line.extend([b" "] * (self.col - len(line)))
            line.append(bytes([b]))
        self.col += 1

    def feed(self, data):
        i, n = 0, len(data)
        while i < n:
            b = data[i]
            if b == 0x1B and i + 1 < n:
                c = data[i + 1]
                if c == 0x5B:  # CSI
                    j = i + 2
                    while j < n and not (0x40 <= data[j] <= 0x7E):
                        j += 1
                    if j >= n:
                        break
                    self._csi(bytes(data[i + 2:j]), data[j])
                    i = j + 1
                    continue
                if c == 0x5D:  # OSC, ends with BEL or ST
                    j = i + 2
                    while j < n and data[j] != 0x07 and not (data[j] == 0x1B and j + 1 < n and data[j + 1] == 0x5C):
                        j += 1
                    body = bytes(data[i + 2:j])
                    if body.startswith(b"8;"):
                        self.link_open = body.split(b";", 2)[-1] != b""
                    i = j + (1 if j < n and data[j] == 0x07 else 2)
                    continue
                i += 2
                continue
            if b == 0x0D:
                self.col = 0
            elif b == 0x0A:
                self.row += 1
                if self.row == len(self.lines):
                    self.lines.append([])  # LF keeps the column: the pty's ONLCR sends CR first
            elif b == 0x08:
                self.col = max(0, self.col - 1)
            elif b >= 0x20 or b == 0x09:
                self._put(b)
            i += 1

    def _csi(self, params, final):
        if final == ord("D"):
            self.col = max(0, self.col - int(params or b"1"))
        elif final == ord("C"):
            self.col += int(params or b"1")
        elif final == ord("G"):  # CHA: column n of the cursor's physical row
            w, c = self.width, self.col
            row_start = 0 if c == 0 else ((c - 1) // w) * w if c % w == 0 else (c // w) * w
            self.col = row_start + max(1, int(params or b"1")) - 1
        elif final == ord("K") and params in (b"", b"0"):  # EL 0: to the end of the physical row
            line, w = self.lines[self.row], self.width
            end = (self.col // w + 1) * w
            del line[self.col:end]
            if self.col < len(line):
                line[self.col:self.col] = [b" "] * (end - self.col)
            while line and line[-1] == b" ":
                line.pop()
        elif final in (ord("h"), ord("l")) and params == b"?2026":
            self.sync_open = final == ord("h")
        elif final == ord("m") and not params.startswith((b"?", b">", b"<", b"=")):
            self._sgr(params)

    def _sgr(self, params):
        ps = [p.split(b":") for p in params.split(b";")] if params else [[b"0"]]
        k = 0
        while k < len(ps):
            head = ps[k][0]
            v = int(head) if head.isdigit() else 0
            if v == 0:
                self.fg = self.bg = None
                self.intensity = 0
                self.other_attrs.clear()
            elif v in (1, 2):
                self.intensity = v
            elif v == 22:
                self.intensity = 0
            elif 30 <= v <= 37 or 90 <= v <= 97:
                self.fg = v
            elif 40 <= v <= 47 or 100 <= v <= 107:
                self.bg = v
            elif v in (38, 48):
                if len(ps[k]) > 1:
                    val = tuple(ps[k][1:])
                else:
                    kind = ps[k + 1][0] if k + 1 < len(ps) else b"5"
                    take = 2 if kind == b"5" else 4
                    val = tuple(p[0] for p in ps[k + 1:k + 1 + take])
                    k += take
                if v == 38:
                    self.fg = val
                else:
                    self.bg = val
            elif v == 39:
                self.fg = None
            elif v == 49:
                self.bg = None
            elif 3 <= v <= 9:
                self.other_attrs.add(v)
            elif 23 <= v <= 29:
                self.other_attrs.discard(v - 20)
                if v == 24:
                    self.other_attrs.discard(4)
            k += 1

    def pen_is_default(self):
        return self.fg is None and self.bg is None and self.intensity == 0 and not self.other_attrs

    def text(self):
        """The logical lines joined with LF, trailing spaces kept."""
        return b"\n".join(b"".join(line) for line in self.lines)


def plain_text_of(data):
    """What a logical-line terminal shows for plain input `data` (LF = new line)."""
    s = Screen()
    s.feed(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    return s.text()


# -- command line -----------------------------------------------------------------------------

def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="run a command on a pty and report what happened (JSON)")
    ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--cols", type=int, default=80)
    ap.add_argument("--stdin", default="pipe", help="pipe (fed from --feed/--trace), pty, null or a FILE")
    ap.add_argument("--stdout", default="pty", choices=["pty", "pipe"])
    ap.add_argument("--nonblocking-stdin", action="store_true", help="set O_NONBLOCK on stdin before exec")
    ap.add_argument("--feed", help="text to write to stdin (\\n escapes allowed)")
    ap.add_argument("--feed-file", help="file whose bytes are written to stdin at once")
    ap.add_argument("--trace", help=".trace file replayed into stdin with its timing")
    ap.add_argument("--no-eof", action="store_true", help="keep stdin open after feeding")
    ap.add_argument("--signal", action="append", default=[], help="SECONDS:SIGNAME, e.g. 0.5:INT")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--env", action="append", default=[], help="K=V added to the environment")
    ap.add_argument("--show", action="store_true", help="print the output as text instead of hex")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    r = Run(cmd, rows=a.rows, cols=a.cols, stdin=a.stdin, stdout=a.stdout, env=env,
            stdin_nonblocking=a.nonblocking_stdin).start()
    if a.trace:
        r.feed_trace(a.trace, eof=not a.no_eof)
    elif a.feed is not None or a.feed_file:
        data = a.feed.encode().decode("unicode_escape").encode("latin-1") if a.feed is not None else open(a.feed_file, "rb").read()
        r.feed_schedule([(0, data)], eof=not a.no_eof)
    elif a.stdin == "pipe" and not a.no_eof:
        r.close_stdin()
    t0 = MONO()
    for spec in sorted(a.signal, key=lambda s: float(s.split(":")[0])):
        at, name = spec.split(":")
        r.pump(max(0, t0 + float(at) - MONO()))
        if not r.exited():
            r.kill(getattr(signal, "SIG" + name.upper().replace("SIG", "")))
    r.wait(a.timeout)
    res = r.result()
    res["output"] = r.output.decode("utf-8", "replace") if a.show else r.output.hex()
    res["screen"] = Screen()
    res["screen"].feed(r.output)
    res["screen"] = res["screen"].text().decode("utf-8", "replace")
    print(json.dumps(res, indent=1))
    r.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
