"""terminal: run a program in a pty or in tmux and read the cells it leaves.

The one runner of the checks and the benchmark (Scripts/README.md):
  pty    run_pty: the program's stdout and stderr on a new pty of COLS x ROWS (its controlling
         terminal with controlling=True), stdin a pipe written on a schedule, or a file; every read
         of the pty kept with its time. Answerer replies to colour queries as xterm does.
  pyte   model(): pyte's screen with the corrections docs/terminals.md measures (a wide character
         that reaches the last column wraps first; zero-width joiners and variation selectors stay
         in the cell before them) and a normaliser that reads colon-form SGR as its semicolon form;
         render() feeds it. Needs `pip install pyte wcwidth`, imported on first use.
  tmux   Server: a private tmux server (`tmux -S WORK/tmux.sock -f /dev/null`) with one pane;
         capture() and parse_capture() read its cells with their SGR styles (Scripts/lib/sgrcells.py).
  settle polls a screen until two reads in a row are equal; text_differences names how one
         screen's text differs from cat's.
Times are seconds from the start (time.monotonic). Standard library only, but for pyte."""
import difflib
import fcntl
import os
import re
import select
import shlex
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import unicodedata

from sgrcells import DEFAULT, apply_sgr, invisible


class Harness(Exception):
    """The harness could not run a try (not a verdict on the program)."""


class Hang(Exception):
    """The program or the shell did not come back in time: a verdict (`hang`)."""


STOP = threading.Event()   # set on SIGTERM/SIGINT: workers start nothing new


# ------------------------------------------------------------------------------------------------
# pty


def spawn(argv, stdin_fd, stdout_fd, stderr_fd=None, env=None, setsid=False):
    """posix_spawn of argv with the given descriptors as 0, 1 (and 2); returns the pid."""
    actions = [(os.POSIX_SPAWN_DUP2, stdin_fd, 0), (os.POSIX_SPAWN_DUP2, stdout_fd, 1)]
    if stderr_fd is not None:
        actions.append((os.POSIX_SPAWN_DUP2, stderr_fd, 2))
    return os.posix_spawnp(argv[0], argv, env if env is not None else os.environ, file_actions=actions,
                           setsid=setsid)


PALETTE = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
           (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
           (255, 0, 255), (0, 255, 255), (255, 255, 255)]  # xterm's default 16 colours
QUERY = re.compile(rb"\x1b\](10|11|4;(\d+));\?(?:\x07|\x1b\\)|\x1b\[0?c")


def _rgb(c):
    return "rgb:" + "/".join("%02x%02x" % (v, v) for v in c)


class Answerer:
    """Answers the colour queries a program writes to its terminal, as xterm does."""

    def __init__(self, light):
        self.fg, self.bg = ((0, 0, 0), (255, 255, 255)) if light else ((229, 229, 229), (0, 0, 0))
        self.tail = b""

    def replies(self, data):
        buf = self.tail + data
        out, end = [], 0
        for m in QUERY.finditer(buf):
            end = m.end()
            q = m.group(1)
            if q is None:
                out.append(b"\x1b[?64;1;2;6;9;15;18;21;22c")  # DA1: a VT420 with the usual options
            elif q == b"10":
                out.append(b"\x1b]10;" + _rgb(self.fg).encode() + b"\x07")
            elif q == b"11":
                out.append(b"\x1b]11;" + _rgb(self.bg).encode() + b"\x07")
            else:
                n = int(m.group(2))
                c = PALETTE[n] if n < 16 else (128, 128, 128)
                out.append(b"\x1b]4;%d;" % n + _rgb(c).encode() + b"\x07")
        rest = buf[end:]
        esc = rest.rfind(b"\x1b")
        self.tail = rest[esc:][-64:] if esc >= 0 else b""
        return b"".join(out)


def run_pty(argv, env, schedule=None, stdin_path=None, feeder=None, cols=80, rows=24, timeout=60, keep=True,
            answer=None, controlling=False):
    """Runs argv with stdout/stderr on a new pty of cols x rows, stdin a pipe (fed by `schedule`,
    [(seconds since start, bytes)], one write each at its time, or by `feeder(write, ctx)`) or the
    file `stdin_path`. Records every read of the pty master with its time (`keep=False`: only
    counts them). `answer` (an Answerer) replies to the colour queries it reads. With
    `controlling`, the pty is the program's controlling terminal (it can open /dev/tty, and gets
    SIGWINCH); otherwise it runs in a new session without one (posix_spawn, the cheaper start).
    `timeout` counts from the end of the input; past it the program's group gets SIGKILL.
    Returns dict: rec [(t, bytes)], fed [(t, nbytes)], nbytes, eof and exit times, timeout, rc,
    cpu_s, max_rss_kib (of the program, from wait4)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    if stdin_path:
        rfd, wfd = os.open(stdin_path, os.O_RDONLY), None
    else:
        rfd, wfd = os.pipe()
    t0 = time.monotonic()
    if controlling:
        p = subprocess.Popen(argv, stdin=rfd, stdout=slave, stderr=slave, env=env, start_new_session=True,
                             preexec_fn=lambda: fcntl.ioctl(1, termios.TIOCSCTTY, 0))
        pid = p.pid
    else:
        pid = spawn(argv, rfd, slave, slave, env=env, setsid=True)
    os.close(slave)
    os.close(rfd)
    ctx = {"pid": pid, "t0": t0, "rec": [], "nbytes": 0, "last_out": None, "fed": []}
    exited = threading.Event()
    result = {}

    def reader():
        rec = ctx["rec"]
        while True:
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    if exited.is_set():
                        break
                    continue
                b = os.read(master, 1 << 16)
            except OSError:
                break
            if not b:
                break
            t = time.monotonic() - t0
            ctx["nbytes"] += len(b)
            ctx["last_out"] = t
            if keep:
                rec.append((t, b))
            reply = answer.replies(b) if answer is not None else None
            if reply:
                try:
                    os.write(master, reply)
                except OSError:
                    pass

    def waiter():
        _, status, ru = os.wait4(pid, 0)
        result["exit"] = time.monotonic() - t0
        result["status"] = status
        result["ru"] = ru
        exited.set()

    th_r = threading.Thread(target=reader, daemon=True)
    th_w = threading.Thread(target=waiter, daemon=True)
    th_r.start()
    th_w.start()

    def write(data):
        t = time.monotonic() - t0
        view = memoryview(data)
        try:
            while view:
                n = os.write(wfd, view)
                view = view[n:]
        except BrokenPipeError:
            return t
        ctx["fed"].append((t, len(data)))
        return t

    try:
        if wfd is not None:
            try:
                if feeder:
                    feeder(write, ctx)
                elif schedule:
                    for when, data in schedule:
                        wait = t0 + when - time.monotonic()
                        if wait > 0:
                            time.sleep(wait)
                        write(data)
            finally:
                ctx["eof"] = time.monotonic() - t0
                os.close(wfd)
        if not exited.wait(timeout):
            os.killpg(pid, signal.SIGKILL)
            exited.wait(5)
            result["timeout"] = True
    finally:
        th_r.join(3)
        os.close(master)
    if controlling and "status" in result:
        p.returncode = os.waitstatus_to_exitcode(result["status"])
    ru = result.get("ru")
    return {"rec": ctx["rec"], "fed": ctx["fed"], "nbytes": ctx["nbytes"], "eof": ctx.get("eof"),
            "exit": result.get("exit"), "timeout": result.get("timeout", False),
            "rc": os.waitstatus_to_exitcode(result["status"]) if "status" in result else None,
            "cpu_s": (ru.ru_utime + ru.ru_stime) if ru else None, "max_rss_kib": ru.ru_maxrss if ru else None}


# ------------------------------------------------------------------------------------------------
# pyte: the screen a pty's output leaves

_model = None


def model():
    """(pyte, Screen class, SGR normaliser class), imported on first use."""
    global _model
    if _model:
        return _model
    try:
        import pyte
        from wcwidth import wcwidth
    except ImportError:
        sys.exit("%s: needs pyte and wcwidth (pip install pyte wcwidth)" % os.path.basename(sys.argv[0]))

    class Screen(pyte.HistoryScreen):
        def draw(self, data):
            run = ""
            for ch in data:
                w = wcwidth(ch)
                if w == 2 and self.cursor.x == self.columns - 1 and pyte.modes.DECAWM in self.mode:
                    if run:
                        super().draw(run)
                        run = ""
                    self.cursor.x = self.columns  # wrap before the wide character, as terminals do
                if w == 0 and ch != "\x00" and not unicodedata.combining(ch):
                    # ZWJ, variation selectors, tags: part of the cell before (stock pyte drops them
                    # and everything after them in this call)
                    if run:
                        super().draw(run)
                        run = ""
                    x = min(self.cursor.x, self.columns) - 1
                    line = self.buffer[self.cursor.y]
                    if x >= 0:
                        if line[x].data == "" and x > 0:
                            x -= 1
                        line[x] = line[x]._replace(data=line[x].data + ch)
                        self.dirty.add(self.cursor.y)
                    continue
                run += ch
            if run:
                super().draw(run)

    sgr = re.compile(rb"\x1b\[([0-9:;]*)m")
    cut = re.compile(rb"\x1b(\[[0-9:;]*)?$")

    def semicolons(m):
        params, out, i = m.group(1).split(b";"), [], 0
        while i < len(params):
            p = params[i]
            if b":" in p:
                sub = p.split(b":")
                if sub[0] in (b"38", b"48") and len(sub) >= 3:
                    if sub[1] == b"2" and len(sub) >= 5:
                        out += [sub[0], b"2"] + sub[-3:]
                    elif sub[1] == b"5":
                        out += [sub[0], b"5", sub[2]]
                elif sub[0] == b"4":
                    out.append(b"24" if len(sub) > 1 and sub[1] == b"0" else b"4")
                elif sub[0] != b"58":
                    out.append(sub[0])
            elif p == b"58":  # underline colour: pyte has none; drop it with its arguments
                nxt = params[i + 1] if i + 1 < len(params) else b""
                i += 5 if nxt == b"2" else 3 if nxt == b"5" else 1
                continue
            else:
                out.append(p)
            i += 1
        return b"\x1b[" + b";".join(out) + b"m"

    class Normaliser:
        """Rewrites SGR sequences into pyte's dialect; holds a sequence cut by a read boundary."""

        def __init__(self):
            self.held = b""

        def feed(self, b):
            data = self.held + b
            tail = data[-64:]
            m = cut.search(tail) if b"\x1b" in tail else None
            at = len(data) - len(tail) + m.start() if m else len(data)
            self.held = data[at:]
            return sgr.sub(semicolons, data[:at])

        def flush(self):
            rest, self.held = self.held, b""
            return rest

    _model = (pyte, Screen, Normaliser)
    return _model


def render(pieces, cols, rows, each=None):
    """The screen after feeding `pieces` (bytes); `each(screen)` is called after every piece."""
    pyte, Screen, Normaliser = model()
    scr = Screen(cols, rows, history=10 ** 7, ratio=0.5)
    stream = pyte.ByteStream(scr)
    norm = Normaliser()
    for b in pieces:
        scr.dirty.clear()
        stream.feed(norm.feed(b))
        if each:
            each(scr)
    stream.feed(norm.flush())
    return scr


BLANK_STYLE = ("default", "default", False, False, False, False, False)


def cell(c):
    """A pyte cell as (character, fg, bg, bold, italics, underscore, reverse, strikethrough)."""
    return (c.data, c.fg, c.bg, c.bold, c.italics, c.underscore, c.reverse, c.strikethrough)


def rows_of(scr):
    """Scrollback then screen, each row a list of cells without its trailing default blanks; no
    trailing empty rows."""
    out = []
    for line in list(scr.history.top) + [scr.buffer[y] for y in range(scr.lines)]:
        cells = [cell(line[x]) for x in range(scr.columns)]
        while cells and cells[-1][0] in (" ", "") and cells[-1][1:] == BLANK_STYLE:
            cells.pop()
        out.append(cells)
    return without_empty_tail(out)


def settle(read, timeout=10, interval=0.08):
    """Calls read() until two results in a row are equal; returns it. Hang after `timeout` s."""
    last = read()
    deadline = time.monotonic() + timeout
    while True:
        time.sleep(interval)
        now = read()
        if now == last:
            return now
        if time.monotonic() > deadline:
            raise Hang("the screen did not settle in %gs" % timeout)
        last = now


def trimmed(cells):
    """A row without its trailing blanks that look empty."""
    while cells and cells[-1][0] == " " and invisible(cells[-1][1]):
        cells.pop()
    return cells


def without_empty_tail(rows):
    """`rows` without its trailing empty rows."""
    while rows and not rows[-1]:
        rows.pop()
    return rows


def text_differences(want, got):
    """How text `got` differs from `want`: text-lost, text-doubled, text-extra, text-garbled."""
    labels = set()
    if want == got:
        return labels
    sm = difflib.SequenceMatcher(None, want, got, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "delete":
            labels.add("text-lost")
        elif op == "insert":
            piece = got[j1:j2]
            labels.add("text-doubled" if piece.strip() and piece in want else "text-extra")
        elif op == "replace":
            labels.add("text-garbled")
    return labels


# ------------------------------------------------------------------------------------------------
# tmux

_servers = set()
_servers_lock = threading.Lock()


def clean_env(term_override=None):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": tempfile.gettempdir(),
        "LANG": "C.UTF-8",
        "SHELL": "/bin/sh",
        "TERM": os.environ.get("TERM") or "xterm-256color",
    }
    return env


class Server:
    """One private tmux server (`tmux -S WORK/tmux.sock -f /dev/null`: its socket lives and dies
    with the try's directory) with one session `s` of one pane."""

    def __init__(self, cols, rows, work, term=None):
        self.sock = os.path.join(work, "tmux.sock")
        with _servers_lock:
            _servers.add(self.sock)
        self.cols, self.rows, self.work, self.term = cols, rows, work, term
        self.env = clean_env()

    def tmux(self, *args, check=True, timeout=20):
        if STOP.is_set() and args[0] != "kill-server":
            raise Harness("stopped")
        try:
            r = subprocess.run(["tmux", "-u", "-S", self.sock, "-f", "/dev/null"] + list(args),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=self.env, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Harness("tmux %s timed out" % args[0])
        if check and r.returncode != 0:
            raise Harness("tmux %s failed: %s" % (" ".join(args[:2]), r.stderr.decode(errors="replace").strip()))
        return r.stdout.decode("utf-8", errors="surrogateescape")

    def start(self, command, pipe_log=None):
        args = ["start-server", ";", "set", "-g", "history-limit", "200000", ";",
                "set", "-g", "exit-empty", "off", ";"]
        if self.term:
            args += ["set", "-g", "default-terminal", self.term, ";"]
        args += ["new-session", "-d", "-s", "s", "-x", str(self.cols), "-y", str(self.rows), command]
        if pipe_log:
            args += [";", "pipe-pane", "-t", "s", "-o", "cat >> " + shlex.quote(pipe_log)]
        self.tmux(*args)

    def kill(self):
        self.tmux("kill-server", check=False)
        with _servers_lock:
            _servers.discard(self.sock)
        try:
            os.unlink(self.sock)
        except OSError:
            pass

    def screen(self):
        """(visible rows as text, cursor x, cursor y)."""
        out = self.tmux("capture-pane", "-p", "-N", "-t", "s", ";", "display", "-p", "-t", "s",
                        "#{cursor_x} #{cursor_y}")
        lines = out.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        x, y = map(int, lines[-1].split())
        return lines[:-1], x, y

    def capture(self, colours=True, join=True):
        args = ["capture-pane", "-p", "-t", "s", "-S", "-", "-E", "-"]
        if colours:
            args.append("-e")
        if join:
            args.append("-J")
        return self.tmux(*args)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "s", *keys)

    def type_line(self, text):
        self.tmux("send-keys", "-t", "s", "-l", text)
        self.tmux("send-keys", "-t", "s", "Enter")

    def resize(self, cols, rows):
        self.tmux("resize-window", "-t", "s", "-x", str(cols), "-y", str(rows))


def kill_all_servers():
    with _servers_lock:
        socks = list(_servers)
    for sock in socks:
        subprocess.run(["tmux", "-S", sock, "kill-server"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            os.unlink(sock)
        except OSError:
            pass


def stop(*_):
    """For SIGTERM, SIGHUP, SIGINT: no new tmux command, every server killed (the tries under way
    end as Harness failures)."""
    STOP.set()
    kill_all_servers()


SEQ = re.compile(r"\x1b\[([0-9;:]*)m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^\[\]]")


def parse_capture(text):
    """Rows of [(character, style)], trailing invisible blanks and trailing empty rows dropped.
    The pen carries from row to row, as capture-pane writes it."""
    style = DEFAULT
    rows = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        cells = []
        pos = 0
        for m in SEQ.finditer(line):
            for ch in line[pos:m.start()]:
                cells.append((ch, style))
            if m.group(0).endswith("m") and m.group(0).startswith("\x1b["):
                style = apply_sgr(style, m.group(1))
            pos = m.end()
        for ch in line[pos:]:
            cells.append((ch, style))
        rows.append(trimmed(cells))
    return without_empty_tail(rows)
