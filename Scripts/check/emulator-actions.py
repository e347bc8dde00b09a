#!/usr/bin/env python3
"""emulator-actions: does typewrite leave what cat leaves in real emulators while the user acts?

The real-emulator counterpart of Scripts/check/tmux-check.py: the user presses Ctrl-C or resizes the
window while text streams in, in xterm or kitty on a private X server, and the screen is judged from
the emulator's own cells (text and SGR attributes), not from a screenshot.

Each invocation starts one Xvfb (`Xvfb -displayfd N -screen 0 1600x1000x24 -dpi 96 -noreset`) and
runs one emulator at a time on it. The emulator runs a small shell script, no interactive shell
and no prompt: `trap : INT` (so the script outlives the key; the pipeline's commands get SIGINT's
default action back when they exec), then `$D/F | $D/T` where F is a feeder that writes the input
into the pipe in timed chunks and logs the byte offset and time of every write, and T is the program
(`exec typewrite ARGS` or `exec cat`); then it saves `$?` (the status of the pipeline's last
command, the program), writes a `#`, which shows where the program left the cursor and in which
pen, and sleeps in a loop (a late key kills a `sleep`, not the script). Both emulators use
DejaVu Sans Mono at 16 px (10x19 cells), #e5e5e5 on black, a steady block cursor, no scrollbar, no
padding, LANG=C.UTF-8, COLORTERM=truecolor, at +0+0 (80x24 unless --cols/--rows). Keys are typed with XTEST (`xdotool windowfocus W; xdotool key ctrl+c`: xterm ignores
synthetic events from `xdotool key --window`), window sizes set with `xdotool windowsize W PX PY`.

The cells come from the emulator:
  xterm  `print-immediate()` bound to F12 (`-xrm '*VT100.translations: #override <Key>F12:
         print-immediate()'`) with `printModeImmediate: 2` (SGR with colours: 38:2::r:g:b, 38:5:n) and
         `printOptsImmediate: 9` (saved lines and the screen) writes the whole scrollback to a file;
         one row a line (xterm does not reflow, so rows are not joined), a wide character followed
         by U+FFFF, which is dropped.
  kitty  `kitty @ --to unix:SOCK get-text --ansi --extent all` (kitty started with
         `-o allow_remote_control=yes --listen-on unix:SOCK`): screen and scrollback, lines that
         wrapped at the window's edge joined into one (without --add-wrap-markers), so a row here is
         a logical line.
The dump is parsed into rows of (character, style) cells; trailing blanks without background,
reverse video or lines, and trailing empty rows, are dropped. A fade colour is a foreground,
background or underline colour on the program's screen that neither the input's SGR nor cat's
screen uses: typewrite draws a character fading in with 38;2;r;g;b between the background and the
character's colour, so such a cell was never settled.

Usage: emulator-actions.py SUBCOMMAND [--term xterm|kitty] [--bin PATH] [--tries N] [--seed S] ...
  --bin PATH   the program (default .build/release/typewrite); `--bin cat` is the sanity run: every
               subcommand must come out clean with it, which shows the judge has no false positives
  --args "..." typewrite's arguments (default none)
  --keep DIR   save each failing case in DIR/SUBCOMMAND-TERM-SEED-NNNN: case.json (input, key time or
               resize schedule, verdict, cells that differ), schedule.trace (the writes, with timing),
               input.bin, feed.log, typewrite.dump and cat.dump (the emulator's raw dumps, escapes
               kept), typewrite.txt and cat.txt (the same with ESC shown as \\e), diff.txt; resize:
               progress-N-before/after.dump (the program's screen around each change) and
               cat-at-progress.dump (the closest cat with the resizes where that screen stood)
  --input NAMES only these inputs (prose, wrap); --trace FILE[:SPEED] another input (a trace: JSON
               lines {"delay_ms": N, "hex": "..."}, played SPEED times faster); --at S the key S
               seconds after the feeder starts; --cols/--rows the window (80x24)

  ctrl-c   Ctrl-C at a random moment (0.3 s after the feeder starts to 1.5 s after it ends, so
           some land while typewrite is still typing what it has read). Clean: (a) no fade
           colour; (b) the screen, text and styles, is what cat leaves for a prefix of the input
           written before the key, then the tty's `^C` echo and the `#`: the prefixes are the
           chunk boundaries among the last --candidates (4) the feeder logged, and the next one
           (the feeder can die between a write and its log line); cat's reference is the prefix
           through cat in the same emulator, then a real Ctrl-C; (c) the program's status is 130.
  resize   1-3 window size changes at random moments (30-140 columns, 10-34 rows) during the
           stream or the second after it; the screen is dumped right before and right after each
           change (in both runs, so their timing stays alike). Clean: no fade colour, no style
           cat's screen lacks, the status is 0, and in kitty, which reflows, the text of the
           logical lines equals cat's under the same feeder and the same resize schedule. What a
           reflow (kitty) or a cut (xterm: it does not reflow but cuts rows to the new width) leaves
           depends on what the screen held at that moment (kitty keeps the blank left where a wide
           character did not fit the last column, or not, depending on it), and typewrite shows text
           later than cat: when the texts differ, cat runs again with each resize placed where the
           program's screen stood (the input offset with as many non-blank characters as the dump
           before, or after, the resize; the smallest or largest such offset), and a text equal to
           one of those is `timing`, counted apart. In xterm a text difference that this does not
           explain either is `text-cut`, reported but counted apart too.
  replay   CASE-DIR: runs a case saved by --keep again (its schedule, key time or resizes; --bin
           to try another binary); prints the verdict and a diff.

Output: a line per failing try (with -v every try), then a summary line per subcommand (tries,
clean, failing with the count per label, missed: the program had exited before the key, and
counted-apart labels), and `PASS` or `FAIL`. Exit status: 0 every try clean, 1 some try not,
2 the harness itself failed (an emulator that did not start, a dump that did not come).

Labels: fade-colour, caret-missing / caret-inside (the ^C echo overwritten, or text after it),
caret-colour, pen-left (the `#` in another pen than cat's), text-lost / text-doubled / text-extra /
text-garbled (against the closest reference), text-colour (same text, a cell in another style),
layout, style-not-in-cat, rc, hang (the program did not exit within the time), harness; counted
apart: timing and text-cut (resize), missed (ctrl-c: the program had exited before the key).

Needs Python 3.8+ (standard library only) and, on Debian: xvfb xterm kitty xdotool x11-utils
(xwininfo) fonts-dejavu-core; kitty under Xvfb uses Mesa's software GL (libgl1-mesa-dri).
Measured with xterm 379 and kitty 0.26.5. Slow (2-6 s an emulator run): not part of .ci/run.
"""

import argparse
import difflib
import json
import os
import random
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from feeder import chunked, cut_candidates, feed_main, load_trace, prefix_chunks, read_feed_log, write_trace  # noqa: E402
from sgrcells import (DEFAULT, apply_sgr, describe_style, invisible, row_text,  # noqa: E402
                      styles_of)
from sgrcells import first_difference  # noqa: E402
from terminal import Hang, Harness, settle, trimmed, without_empty_tail  # noqa: E402
from terminal import text_differences as text_labels  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SELF = os.path.abspath(__file__)
FONT, FONT_PX, FG, BG = "DejaVu Sans Mono", 16, "#e5e5e5", "#000000"
SCREEN = (1600, 1000)


# ------------------------------------------------------------------------------------------------
# the X server and the emulators


def kill_group(p):
    """SIGTERM, then SIGKILL, to the process group of `p` (started with start_new_session)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(2)
            return
        except subprocess.TimeoutExpired:
            pass


_live = []   # processes to end on the way out (Xvfb, the current emulator)


def end_all():
    for p in list(_live):
        kill_group(p)
        if p in _live:
            _live.remove(p)


def wait_until(cond, timeout, what, interval=0.03, proc=None, hang=False):
    """Polls cond() until it is true; Harness (or Hang with `hang`) after `timeout` seconds or when
    `proc` exits."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            raise Harness("the emulator exited (%s) while waiting for %s" % (proc.returncode, what))
        if time.monotonic() > deadline:
            raise (Hang if hang else Harness)("timed out after %gs waiting for %s" % (timeout, what))
        time.sleep(interval)


class Display:
    """A private Xvfb: the display number is the one Xvfb picks (-displayfd), so runs side by side
    with other X servers do not collide."""

    def __init__(self, work):
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", "%dx%dx24" % SCREEN, "-dpi", "96",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(w,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(work, "xvfb.log"), "wb"), start_new_session=True)
        _live.append(self.proc)
        os.close(w)
        try:
            buf, deadline = b"", time.monotonic() + 20
            while not buf.endswith(b"\n"):
                if time.monotonic() > deadline:
                    raise Harness("Xvfb did not report its display within 20 s")
                if select.select([r], [], [], 0.2)[0]:
                    c = os.read(r, 64)
                    if not c:
                        raise Harness("Xvfb exited at startup (see xvfb.log)")
                    buf += c
        finally:
            os.close(r)
        self.name = ":" + buf.decode().strip()

    def close(self):
        kill_group(self.proc)
        if self.proc in _live:
            _live.remove(self.proc)


def emulator_env(display, home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in (
        "TERM", "COLORTERM", "COLORFGBG", "COLUMNS", "LINES", "NO_COLOR", "REDUCED_MOTION", "STY", "TMUX",
        "WINDOWID", "KITTY_WINDOW_ID", "KITTY_LISTEN_ON", "ALACRITTY_SOCKET", "DISPLAY", "WAYLAND_DISPLAY",
        "TYPEWRITE_QUERY_COLORS")}
    env.update(DISPLAY=display, LANG="C.UTF-8", HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_RUNTIME_DIR=home, TMPDIR=home)
    return env


def xrun(env, *args, check=True, timeout=20):
    try:
        r = subprocess.run(list(args), env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Harness("%s timed out" % args[0])
    if check and r.returncode:
        raise Harness("%s %s failed: %s" % (args[0], args[1] if len(args) > 1 else "",
                                            r.stderr.decode(errors="replace").strip()[:300]))
    return r.stdout.decode("utf-8", errors="surrogateescape")


class Emulator:
    """One emulator window running `script` (see the module docstring) on the display."""

    def __init__(self, display, term, cols, rows, d, script):
        self.term, self.cols, self.rows, self.dir = term, cols, rows, d
        home = os.path.join(d, "home")
        os.makedirs(os.path.join(home, ".config"), exist_ok=True)
        self.env = emulator_env(display.name, home)
        self.title = "emulator-actions-%d-%s" % (os.getpid(), os.path.basename(d))
        self.sock = os.path.join(d, "kitty.sock")
        self.dump_prefix = os.path.join(d, "xterm-dump-")
        if term == "xterm":
            argv = ["xterm", "-T", self.title, "-geometry", "%dx%d+0+0" % (cols, rows),
                    "-fa", "%s:pixelsize=%d" % (FONT, FONT_PX), "-bg", BG, "-fg", FG, "-cr", FG,
                    "-b", "0", "-bw", "0", "+sb", "+bc", "-u8", "-sl", "20000",
                    "-xrm", "*cursorBlink: false", "-xrm", "*borderWidth: 0",
                    "-xrm", "*printModeImmediate: 2", "-xrm", "*printOptsImmediate: 9",
                    "-xrm", "*printFileImmediate: " + self.dump_prefix,
                    "-xrm", "*VT100.translations: #override <Key>F12: print-immediate()",
                    "-e", script]
        elif term == "kitty":
            opts = ["font_family=" + FONT, "font_size=%g" % (FONT_PX * 0.75), "cursor_blink_interval=0",
                    "window_padding_width=0", "initial_window_width=%dc" % cols,
                    "initial_window_height=%dc" % rows, "remember_window_size=no",
                    "placement_strategy=top-left", "background=" + BG, "foreground=" + FG, "cursor=" + FG,
                    "enable_audio_bell=no", "linux_display_server=x11", "allow_remote_control=yes",
                    "update_check_interval=0", "scrollback_lines=20000", "confirm_os_window_close=0"]
            argv = (["kitty", "--config", "NONE", "--title", self.title, "--listen-on", "unix:" + self.sock]
                    + sum((["-o", o] for o in opts), []) + [script])
        else:
            raise Harness("unknown terminal %s" % term)
        self.log = os.path.join(d, "emulator.log")
        self.proc = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL, stdout=open(self.log, "wb"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        _live.append(self.proc)
        try:
            self.wid = wait_until(lambda: xrun(self.env, "xdotool", "search", "--name", "^%s$" % self.title,
                                               check=False).split(), 30, "the window", 0.1, self.proc)[0]
            size = wait_until(lambda: self._read("size"), 30, "the script to start", 0.05, self.proc).split()
            if size != [str(rows), str(cols)]:
                raise Harness("%s gave a %s (rows cols) tty, wanted %d %d" % (term, " ".join(size), rows, cols))
            g = dict(l.strip().split(":", 1) for l in xrun(self.env, "xwininfo", "-id", self.wid).splitlines()
                     if ":" in l)
            w, h = int(g["Width"]), int(g["Height"])
            self.cell = (w // cols, h // rows)
            self.extra = (w - cols * self.cell[0], h - rows * self.cell[1])
            xrun(self.env, "xdotool", "mousemove", str(SCREEN[0] - 1), str(SCREEN[1] - 1))
            if term == "kitty":
                wait_until(lambda: os.path.exists(self.sock), 10, "kitty's socket", 0.05, self.proc)
        except BaseException:
            self.close()
            raise

    def _read(self, name):
        try:
            with open(os.path.join(self.dir, name)) as f:
                return f.read()
        except FileNotFoundError:
            return None

    def go(self):
        open(os.path.join(self.dir, "go"), "w").close()

    def rc(self):
        v = self._read("rc")
        return int(v) if v and v.strip().isdigit() else None

    def key(self, keys):
        """Types `keys` (xdotool key names) into the window with XTEST, the window focused."""
        xrun(self.env, "xdotool", "windowfocus", self.wid, check=False)
        xrun(self.env, "xdotool", "key", keys)

    def resize(self, cols, rows):
        xrun(self.env, "xdotool", "windowsize", self.wid, str(cols * self.cell[0] + self.extra[0]),
             str(rows * self.cell[1] + self.extra[1]))

    def dump(self):
        """The emulator's cells with attributes as text with SGR (see the module docstring)."""
        if self.proc.poll() is not None:
            raise Harness("the emulator exited (%s)" % self.proc.returncode)
        if self.term == "kitty":
            return xrun(self.env, "kitty", "@", "--to", "unix:" + self.sock, "get-text", "--ansi",
                        "--extent", "all", timeout=30)
        d, base = os.path.split(self.dump_prefix)
        for f in os.listdir(d):
            if f.startswith(base):
                os.unlink(os.path.join(d, f))
        self.key("F12")

        def complete():
            files = [f for f in os.listdir(d) if f.startswith(base)]
            if not files:
                return None
            path = os.path.join(d, files[0])
            a = os.path.getsize(path)
            time.sleep(0.05)
            return path if a and os.path.getsize(path) == a else None
        path = wait_until(complete, 10, "xterm's print-immediate file", 0.05, self.proc)
        with open(path, "rb") as f:
            data = f.read()
        os.unlink(path)
        return data.decode("utf-8", errors="surrogateescape")

    def settled(self, timeout=15, interval=0.3):
        """Dumps until two in a row are equal; returns the dump."""
        return settle(self.dump, timeout, interval)

    def size_now(self):
        """(columns, rows) of the tty now, as the emulator sees it."""
        if self.term == "kitty":
            out = json.loads(xrun(self.env, "kitty", "@", "--to", "unix:" + self.sock, "ls"))
            w = out[0]["tabs"][0]["windows"][0]
            return w["columns"], w["lines"]
        g = dict(l.strip().split(":", 1) for l in xrun(self.env, "xwininfo", "-id", self.wid).splitlines() if ":" in l)
        return int(g["Width"]) // self.cell[0], int(g["Height"]) // self.cell[1]

    def close(self):
        kill_group(self.proc)
        if self.proc in _live:
            _live.remove(self.proc)


# ------------------------------------------------------------------------------------------------
# a run: the script in the emulator, the feeder and the program


SCRIPT = """#!/bin/sh
trap : INT
export LANG=C.UTF-8 COLORTERM=truecolor
D=%(dir)s
stty size > "$D/size.tmp"; mv "$D/size.tmp" "$D/size"
while [ ! -e "$D/go" ]; do sleep 0.02; done
"$D/F" | "$D/T"
echo $? > "$D/rc.tmp"; mv "$D/rc.tmp" "$D/rc"
printf '#'
while :; do sleep 1000; done
"""


class Run:
    """The work space of one emulator run: run.sh, F (the feeder), T (the program), the logs."""

    def __init__(self, ctx, tag, chunks, speed, program, args, hold=False):
        self.ctx = ctx
        self.dir = os.path.join(ctx.work, tag)
        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(self.dir)
        self.trace = os.path.join(self.dir, "schedule.trace")
        write_trace(self.trace, chunks)
        self.log = os.path.join(self.dir, "feed.log")
        q = shlex.quote
        files = {
            "F": "#!/bin/sh\nexec %s %s _feed %s %s %s%s\n" % (q(sys.executable), q(SELF), q(self.trace), q(self.log),
                                                              speed, " hold" if hold else ""),
            "T": "#!/bin/sh\nexec %s\n" % " ".join(q(a) for a in [program] + list(args)),
            "run.sh": SCRIPT % {"dir": q(self.dir)},
        }
        for name, text in files.items():
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)
            os.chmod(os.path.join(self.dir, name), 0o755)
        self.emu = None

    def start(self):
        self.emu = Emulator(self.ctx.display, self.ctx.term, self.ctx.cols, self.ctx.rows, self.dir,
                            os.path.join(self.dir, "run.sh"))
        self.emu.go()
        start = wait_until(lambda: read_feed_log(self.log)[0], 15, "the feeder to start", 0.005, self.emu.proc)
        return start

    def close(self):
        if self.emu:
            self.emu.close()


# ------------------------------------------------------------------------------------------------
# the dump parsed into cells


SEQ = re.compile(r"\x1b\[([0-9;:?]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[#()][0-9A-Za-z]|\x1b[^\[\]]")


def parse_dump(text):
    """Rows of [(character, style)] from a dump; the pen carries from row to row (kitty starts each
    row with SGR 0 and the row's style again, xterm each cell); xterm's U+FFFF after a wide
    character and its DECSWL (ESC # 5) are dropped; trailing invisible blanks and empty rows too;
    a row with a byte no cell can hold is cut (see `junk_char`)."""
    style = DEFAULT
    rows = Rows()
    lines = text.replace("\r", "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        cells, pos = [], 0

        def add(s):
            for ch in s:
                if ch == "\uffff":
                    continue
                if cells and unicodedata_combining(ch):
                    cells[-1] = (cells[-1][0] + ch, cells[-1][1])
                else:
                    cells.append((ch, style))
        for m in SEQ.finditer(line):
            add(line[pos:m.start()])
            if m.group(2) == "m":
                style = apply_sgr(style, m.group(1))
            pos = m.end()
        add(line[pos:])
        bad = next((i for i, (ch, _) in enumerate(cells) if junk_char(ch)), None)
        if bad is not None:
            # xterm 379's print-immediate, after the window was made narrower and then wider,
            # prints saved lines with bytes from past their end (invalid UTF-8, C0 controls, stray
            # letters) after a long run of blanks: the row is cut at the longest run of blanks
            # before the first such byte.
            best, k = (0, bad), 0
            while k < bad:
                if cells[k][0] == " ":
                    e = k
                    while e < bad and cells[e][0] == " ":
                        e += 1
                    if e - k > best[0]:
                        best = (e - k, k)
                    k = e
                else:
                    k += 1
            cells = cells[:best[1]]
            rows.junk += 1
        rows.append(trimmed(cells))
    return without_empty_tail(rows)


class Rows(list):
    """Parsed rows; `junk` counts the rows cut where the dump held bytes no cell can hold."""
    junk = 0


def junk_char(ch):
    o = ord(ch[0])
    return 0xDC80 <= o <= 0xDCFF or o < 0x20 or 0x7F <= o < 0xA0


def unicodedata_combining(ch):
    return ch in "\u200d\ufe0f\ufe0e" or unicodedata.combining(ch) != 0


def screen_text(rows):
    return "\n".join(row_text(r).rstrip() for r in rows)


def visible_cells(rows):
    """(row, column, character, style) of every cell one can see."""
    for r, row in enumerate(rows):
        for c, (ch, st) in enumerate(row):
            if ch != " " or not invisible(st):
                yield r, c, ch, st


def colours_of_style(st, blank):
    _, fg, bg, ulc, _ = st
    out = [("bg", bg), ("ul", ulc)] + ([] if blank else [("fg", fg)])
    return [(k, v) for k, v in out if v is not None]


def input_colours(data):
    """Every colour the input's SGR sequences set (fg, bg or underline)."""
    text = data.decode("utf-8", errors="replace")
    out, style = set(), DEFAULT
    for m in re.finditer(r"\x1b\[([0-9;:]*)m", text):
        style = apply_sgr(style, m.group(1))
        out |= {v for v in style[1:4] if v is not None}
    return out


def fade_cells(rows, allowed):
    """Cells whose fg (non-blank), bg or underline colour is not in `allowed`: [(row, col, ch, style)]."""
    out = []
    for r, c, ch, st in visible_cells(rows):
        if any(v not in allowed for _, v in colours_of_style(st, ch == " ")):
            out.append((r, c, ch, st))
    return out


def describe_cells(cells, limit=8):
    parts = ["row %d col %d %r (%s)" % (r, c, ch, describe_style(st)) for r, c, ch, st in cells[:limit]]
    if len(cells) > limit:
        parts.append("... %d cells in all" % len(cells))
    return "; ".join(parts)


def show(text):
    return text.replace("\x1b", "\\e")


def text_diff(want, got, label_want="cat", label_got="typewrite", limit=60):
    lines = list(difflib.unified_diff(want.split("\n"), got.split("\n"), label_want, label_got, n=1, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more diff lines)" % (len(lines) - limit)]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# inputs


UNIT = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|.", re.S)


def chunked_text(rnd, text, **cuts):
    """Token-like writes of `text`, cut between characters and never inside an escape sequence,
    each 8-40 ms after the last, with an occasional stall of 200-500 ms (feeder.chunked)."""
    return chunked(rnd, UNIT.findall(text), **cuts)


SPANS = [("\x1b[31m", "\x1b[0m"), ("\x1b[1;32m", "\x1b[0m"), ("\x1b[38;5;208m", "\x1b[39m"),
         ("\x1b[38;2;90;160;255m", "\x1b[0m"), ("\x1b[1;33;44m", "\x1b[0m"), ("\x1b[4m", "\x1b[24m"),
         ("\x1b[35m", "\x1b[m"), ("\x1b[3m", "\x1b[23m"), ("\x1b[38;2;230;120;40m", "\x1b[39m"),
         ("\x1b[7m", "\x1b[27m")]
CJK = ["潮だまり", "漢字", "조수 웅덩이", "全角文字", "生き物たち", "静かに見える", "中文字"]


def generated_inputs(cols):
    """name -> (chunks, speed): `prose`, lines of 4-22 words (some wrap) with CJK words and colour
    spans (16, 256 and 24-bit colours, bold, underline, italic, reverse, a background), one span
    over a line end, a CJK line that wraps with a wide character at the last column; `wrap`, long
    lines (120-260 columns) whose colour spans cross the wrap points, for reflow."""
    rnd = random.Random("emulator-actions/inputs/v1/%d" % cols)
    words = ("tide pools look peaceful at low tide but the creatures living in them ride out one of "
             "the sharpest daily swings of any habitat on earth twice a day the sea pulls back").split()

    def line(k, cjk_p=0.3, span=True):
        w = [rnd.choice(words) for _ in range(k)]
        if rnd.random() < cjk_p:
            w.insert(rnd.randint(0, len(w)), rnd.choice(CJK))
        if span and len(w) > 2:
            a, b = sorted(rnd.sample(range(len(w) + 1), 2))
            on, off = rnd.choice(SPANS)
            return " ".join(w[:a]) + (" " if a else "") + on + " ".join(w[a:b]) + off + (" " if b < len(w) else "") + " ".join(w[b:])
        return " ".join(w)
    out = {}
    lines = [line(rnd.randint(4, 22), span=rnd.random() < 0.7) for _ in range(12)]
    lines.insert(5, "")
    lines.insert(8, "x" * (cols - 1) + "漢字 wraps early")
    lines.insert(3, "a span \x1b[36mthat runs over the line end")
    lines.insert(4, "and stops here\x1b[m, then " + rnd.choice(CJK) + " and more words")
    out["prose"] = (chunked_text(rnd, "\n".join(lines) + "\n"), 1.0)
    lines = []
    for _ in range(5):
        parts = []
        while sum(len(p) for p in parts) < rnd.randint(120, 260):
            parts.append(line(rnd.randint(5, 12), cjk_p=0.5))
        lines.append(" ".join(parts))
    out["wrap"] = (chunked_text(rnd, "\n".join(lines) + "\n", small=(2, 14)), 1.0)
    return out


def all_inputs(opts):
    d = generated_inputs(opts.cols)
    for path in opts.trace:
        speed = 1.0
        if ":" in path and path.rsplit(":", 1)[1].replace(".", "", 1).isdigit():
            path, sp = path.rsplit(":", 1)
            speed = float(sp)
        d[os.path.splitext(os.path.basename(path))[0]] = (load_trace(path), speed)
    if opts.input:
        d = {k: v for k, v in d.items() if k in opts.input.split(",")}
        if not d:
            raise Harness("no input named %s" % opts.input)
    return d


def duration(chunks, speed):
    return sum(d for d, _ in chunks) / 1000.0 / speed


def input_bytes(chunks):
    return b"".join(c for _, c in chunks)


def unit_boundary(data, offset):
    """The largest offset <= `offset` that does not cut a UTF-8 character or an escape sequence."""
    text_units = UNIT.findall(data.decode("utf-8", errors="surrogateescape"))
    n = 0
    for u in text_units:
        k = len(u.encode("utf-8", errors="surrogateescape"))
        if n + k > offset:
            break
        n += k
    return n


# ------------------------------------------------------------------------------------------------
# ctrl-c


def ctrl_c_reference(ctx, name, chunks, speed, offset):
    """cat's dump for the first `offset` bytes, then a real Ctrl-C (the tty's ^C echo), then `#`."""
    key = (ctx.term, ctx.cols, ctx.rows, name, offset)
    if key in ctx.refs:
        return ctx.refs[key]
    run = Run(ctx, "ref-%s-%d" % (name, offset), prefix_chunks(chunks, speed, offset), 1.0, "cat", [], hold=True)
    try:
        run.start()
        wait_until(lambda: read_feed_log(run.log)[2], 30, "cat's feeder to write the prefix", 0.02, run.emu.proc)
        time.sleep(0.1)
        run.emu.settled()
        run.emu.key("ctrl+c")
        wait_until(lambda: run.emu.rc() is not None, 10, "cat's status after Ctrl-C", 0.03, run.emu.proc)
        dump = run.emu.settled()
    finally:
        run.close()
    ctx.refs[key] = dump
    return dump


def judge_ctrl_c(tw_rows, refs, allowed):
    """refs: [(offset, dump)]. Returns (labels, best (offset, dump), detail)."""
    parsed = [(off, dump, parse_dump(dump)) for off, dump in refs]
    for off, dump, rows in parsed:
        if rows == tw_rows:
            return set(), (off, dump), "matches cat at offset %d" % off
    labels, details = set(), []
    tw_text = screen_text(tw_rows)
    allowed = set(allowed)
    for _, _, rows in parsed:
        allowed |= {v for st in styles_of(rows) for v in st[1:4] if v is not None}
    fade = fade_cells(tw_rows, allowed)
    if fade:
        labels.add("fade-colour")
        details.append("fade colours: " + describe_cells(fade))

    def body(t):
        t = t.rstrip()
        return t[:-3] if t.endswith("^C#") else t
    best = max(parsed, key=lambda p: (2.0 if body(screen_text(p[2])) == body(tw_text) else
                                      difflib.SequenceMatcher(None, body(screen_text(p[2])), body(tw_text),
                                                              autojunk=False).ratio()))
    ref_rows = best[2]
    if "^C" not in tw_text:
        labels.add("caret-missing")
    elif not tw_text.rstrip().endswith("^C#"):
        labels.add("caret-inside")
        i = tw_text.rindex("^C")
        details.append("after the ^C: %r" % tw_text[i + 2:i + 80])
    tl = text_labels(body(screen_text(ref_rows)), body(tw_text))
    labels |= tl
    if tl:
        details.append("text against cat at offset %d:\n%s" % (best[0], text_diff(body(screen_text(ref_rows)), body(tw_text))))

    def find(rows, needle):
        """(row, cell) of the last `needle` on the screen, or None."""
        for r in range(len(rows) - 1, -1, -1):
            chars = [ch for ch, _ in rows[r]]
            for c in range(len(chars) - len(needle), -1, -1):
                if "".join(chars[c:c + len(needle)]) == needle:
                    return r, c
        return None
    a, b = find(tw_rows, "^C"), find(ref_rows, "^C")
    if a and b and tw_rows[a[0]][a[1]][1] != ref_rows[b[0]][b[1]][1]:
        labels.add("caret-colour")
        details.append("^C in %s, cat's in %s" % (describe_style(tw_rows[a[0]][a[1]][1]),
                                                  describe_style(ref_rows[b[0]][b[1]][1])))
    a, b = find(tw_rows, "#"), find(ref_rows, "#")
    if a and b and tw_text.rstrip().endswith("#") and tw_rows[a[0]][a[1]][1] != ref_rows[b[0]][b[1]][1]:
        labels.add("pen-left")
        details.append("# in %s, cat's in %s" % (describe_style(tw_rows[a[0]][a[1]][1]),
                                                 describe_style(ref_rows[b[0]][b[1]][1])))
    if not labels:
        labels.add("text-colour" if body(screen_text(ref_rows)) == body(tw_text) else "layout")
    diff = first_difference(ref_rows, tw_rows)
    if diff:
        details.append("first differing cell (against cat at offset %d): %s" % (best[0], diff))
    return labels, (best[0], best[1]), "\n".join(details)


def ctrl_c_try(ctx, index, rnd):
    name = rnd.choice(sorted(ctx.inputs))
    chunks, speed = ctx.inputs[name]
    at = rnd.uniform(0.3, duration(chunks, speed) + 1.5)
    return run_ctrl_c(ctx, index, name, chunks, speed, ctx.opts.at if ctx.opts.at is not None else at)


def run_ctrl_c(ctx, index, name, chunks, speed, at):
    info = {"class": "ctrl-c", "term": ctx.term, "input": name, "speed": speed, "at": round(at, 3),
            "cols": ctx.cols, "rows": ctx.rows, "bin": ctx.bin, "args": ctx.args}
    run = Run(ctx, "c%04d" % index, chunks, speed, ctx.bin, ctx.args)
    result = {"info": info, "run": run, "got": "", "want": ""}
    try:
        start = run.start()
        wait = start + at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        already = run.emu.rc() is not None
        key_time = time.monotonic()
        run.emu.key("ctrl+c")
        info["key_after_feed_start"] = round(key_time - start, 3)
        try:
            wait_until(lambda: run.emu.rc() is not None, 15, "the program to exit after Ctrl-C", 0.03, run.emu.proc, hang=True)
        except Hang as e:
            info.update(labels=["hang"], detail=str(e))
            result.update(verdict=False, got=run.emu.dump())
            return result
        got = run.emu.settled()
    finally:
        run.close()
    rc = int(open(os.path.join(run.dir, "rc")).read())
    info["rc"] = rc
    result["got"] = got
    if already or rc == 0:
        info.update(labels=["missed"], detail="the program had exited before Ctrl-C")
        result["verdict"] = None
        return result
    written, nxt, cands = cut_candidates(run.log, chunks, ctx.opts.candidates)
    data = input_bytes(chunks)
    cands += [unit_boundary(data, c) for c in cands]
    cands = list(dict.fromkeys(cands))
    info["written"] = written
    info["candidates"] = cands
    tw_rows = parse_dump(got)
    refs = []
    for off in sorted(cands, key=lambda c: (c != written, c == nxt, -c)):
        refs.append((off, ctrl_c_reference(ctx, name, chunks, speed, off)))
        if parse_dump(refs[-1][1]) == tw_rows:
            break
    labels, best, detail = judge_ctrl_c(tw_rows, refs, input_colours(data))
    if rc != 130:
        labels.add("rc")
        detail = ("status %s, not 130\n" % rc) + detail
    info.update(labels=sorted(labels), detail=detail, compared_with=best[0])
    result.update(verdict=not labels, want=best[1])
    return result


# ------------------------------------------------------------------------------------------------
# resize


def resize_schedule(rnd, total):
    n = rnd.randint(1, 3)
    times = sorted(rnd.uniform(0.2, total + 1.0) for _ in range(n))
    return [(round(t, 3), rnd.randint(30, 140), rnd.randint(10, 34)) for t in times]


def run_with_resizes(ctx, tag, chunks, speed, program, args, events, watch=True):
    """(dump, status, the Run, progress) after the program exited and the screen settled. With
    `watch`, the screen is dumped right before and right after each resize: progress is
    [(before, after)], what the program had shown when the window changed."""
    run = Run(ctx, tag, chunks, speed, program, args)
    progress = []
    try:
        start = run.start()
        for at, c, r in events:
            wait = start + at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            before = run.emu.dump() if watch else None
            run.emu.resize(c, r)
            progress.append((before, run.emu.dump() if watch else None))
            if watch:
                for name, text in zip(("before", "after"), progress[-1]):
                    with open(os.path.join(run.dir, "progress-%d-%s.dump" % (len(progress), name)), "w",
                              encoding="utf-8", errors="surrogateescape") as f:
                        f.write(text)
        wait_until(lambda: run.emu.rc() is not None, duration(chunks, speed) + 30,
                   "%s to exit" % os.path.basename(program), 0.05, run.emu.proc, hang=True)
        dump = run.emu.settled()
        size = run.emu.size_now()
        want = (events[-1][1], events[-1][2]) if events else (ctx.cols, ctx.rows)
        if tuple(size) != want:
            raise Harness("the window is %dx%d after the resizes, wanted %dx%d" % (size + want))
        return dump, run.emu.rc(), run, progress
    finally:
        run.close()


def progress_offsets(data, dump):
    """(smallest, largest) input offset whose text has as many non-blank characters as the dump's
    screen (blanks are ambiguous there: a space at a line's end, a newline not yet followed by text),
    never inside a character or an escape sequence."""
    n = sum(1 for ch in screen_text(parse_dump(dump)) if not ch.isspace() and ch != "#")
    count, off, lo = 0, 0, 0 if n == 0 else None
    for u in UNIT.findall(data.decode("utf-8", errors="surrogateescape")):
        k = len(u.encode("utf-8", errors="surrogateescape"))
        if not u.startswith("\x1b") and not u.isspace():
            if count == n:
                break
            count += 1
            off += k
            if count == n:
                lo = off
            continue
        off += k
    return (off if lo is None else lo), off


def progress_reference(ctx, tag, data, events, offsets):
    """cat's dump when the window changes where the program's screen stood: the input written up to
    the first resize's offset, 0.4 s later that resize, 0.4 s later the input up to the next offset,
    and so on, then the rest."""
    t, last, writes, evs = 0.15, 0, [], []
    for (_, c, r), off in zip(events, offsets):
        off = max(off, last)
        if off > last:
            writes.append((t, data[last:off]))
            last = off
            t += 0.4
        evs.append((round(t, 3), c, r))
        t += 0.4
    if last < len(data):
        writes.append((t, data[last:]))
    chunks, prev = [], 0.0
    for at, piece in writes:
        chunks.append(((at - prev) * 1000.0, piece))
        prev = at
    dump, _, _, _ = run_with_resizes(ctx, tag, chunks, 1.0, "cat", [], evs, watch=False)
    return dump


def resize_try(ctx, index, rnd):
    name = rnd.choice(sorted(ctx.inputs))
    chunks, speed = ctx.inputs[name]
    return run_resize(ctx, index, name, chunks, speed, resize_schedule(rnd, duration(chunks, speed)))


def run_resize(ctx, index, name, chunks, speed, events):
    info = {"class": "resize", "term": ctx.term, "input": name, "speed": speed, "resizes": events,
            "cols": ctx.cols, "rows": ctx.rows, "bin": ctx.bin, "args": ctx.args}
    result = {"info": info, "run": None, "got": "", "want": ""}
    try:
        got, rc, run, progress = run_with_resizes(ctx, "r%04d" % index, chunks, speed, ctx.bin, ctx.args, events)
    except Hang as e:
        info.update(labels=["hang"], detail=str(e))
        result["verdict"] = False
        return result
    result.update(run=run, got=got)
    want, _, _, _ = run_with_resizes(ctx, "r%04d-cat" % index, chunks, speed, "cat", [], events)
    result["want"] = want
    data = input_bytes(chunks)
    tw_rows, cat_rows = parse_dump(got), parse_dump(want)
    labels, details, soft = set(), [], set()
    if tw_rows.junk or cat_rows.junk:
        info["junk_rows_cut"] = {"typewrite": tw_rows.junk, "cat": cat_rows.junk}
        details.append("rows cut where xterm printed bytes from past a saved line's end: typewrite %d, cat %d"
                       % (tw_rows.junk, cat_rows.junk))
    a, b = screen_text(cat_rows), screen_text(tw_rows)
    refs, prog_dumps = [cat_rows], []
    if a != b:
        # Where the window changed matters (kitty reflows what is there, xterm cuts it): cat with
        # the resizes where the program's screen stood is cat too.
        spans = [[progress_offsets(data, d) for d in pair] for pair in progress]
        info["progress"] = [[list(x) for x in pair] for pair in spans]
        tried = []
        for which in (0, 1):
            for end in (0, 1):
                offs = [pair[which][end] for pair in spans]
                if offs in tried:
                    continue
                tried.append(offs)
                dump = progress_reference(ctx, "r%04d-cat-p%d" % (index, len(tried)), data, events, offs)
                rows = parse_dump(dump)
                refs.append(rows)
                prog_dumps.append((offs, dump, rows))
                if screen_text(rows) == b:
                    info["same_as_cat_at_offsets"] = offs
                    result["want_progress"] = dump
                    break
            if "same_as_cat_at_offsets" in info:
                break
    allowed = input_colours(data)
    cat_styles = set()
    for rows in refs:
        cat_styles |= styles_of(rows)
    allowed |= {v for st in cat_styles for v in st[1:4] if v is not None}
    fade = fade_cells(tw_rows, allowed)
    if fade:
        labels.add("fade-colour")
        details.append("fade colours: " + describe_cells(fade))
    extra = styles_of(tw_rows) - cat_styles
    if extra and not fade:
        cells = [c for c in visible_cells(tw_rows) if c[3] in extra]
        labels.add("style-not-in-cat")
        details.append("styles cat's screen lacks: " + describe_cells(cells))
    if a != b:
        if "same_as_cat_at_offsets" in info:
            soft.add("timing")
            details.append("text differs from cat's under the same schedule but equals cat's with the resizes "
                           "at offsets %s, where the program's screen stood:\n%s"
                           % (info["same_as_cat_at_offsets"], text_diff(a, b)))
        else:
            if ctx.term == "kitty":
                labels |= text_labels(a, b)
            else:
                soft.add("text-cut")
            details.append("text (%s) against cat under the same schedule:\n%s"
                           % ("logical lines" if ctx.term == "kitty" else "rows, which xterm cuts", text_diff(a, b)))
            if prog_dumps:
                offs, dump, rows = max(prog_dumps, key=lambda p: difflib.SequenceMatcher(
                    None, screen_text(p[2]), b, autojunk=False).ratio())
                result["want_progress"] = dump
                details.append("against the closest cat with the resizes where the program's screen stood "
                               "(offsets %s; before/after each resize: %s):\n%s" % (offs, info["progress"],
                                                                                    text_diff(screen_text(rows), b)))
    elif tw_rows != cat_rows:
        if ctx.term == "kitty" and not labels:
            labels.add("text-colour")
        details.append("same text, first differing cell: %s" % first_difference(cat_rows, tw_rows))
    if rc != 0:
        labels.add("rc")
        details.insert(0, "status %s, not 0" % rc)
    info.update(labels=sorted(labels | soft), hard=sorted(labels), detail="\n".join(details), rc=rc)
    result["verdict"] = (not labels) and (not soft or "soft")
    return result


# ------------------------------------------------------------------------------------------------
# driver


class Context:
    def __init__(self, opts, display, work):
        self.opts, self.display, self.work = opts, display, work
        self.term, self.cols, self.rows = opts.term, opts.cols, opts.rows
        self.bin = opts.bin
        self.args = [] if os.path.basename(opts.bin) == "cat" else shlex.split(opts.args)
        self.refs = {}
        self.inputs = {}


def keep_case(opts, result, name):
    if not opts.keep:
        return None
    d = os.path.join(opts.keep, name)
    os.makedirs(d, exist_ok=True)
    info = result["info"]
    with open(os.path.join(d, "case.json"), "w", encoding="utf-8", errors="surrogateescape") as f:
        json.dump(info, f, indent=1, ensure_ascii=False)
    run = result.get("run")
    if run is not None:
        for fn in ["schedule.trace", "feed.log"] + sorted(f for f in os.listdir(run.dir) if f.startswith("progress-")):
            src = os.path.join(run.dir, fn)
            if os.path.exists(src):
                shutil.copy(src, os.path.join(d, fn))
        with open(os.path.join(d, "input.bin"), "wb") as f:
            f.write(input_bytes(load_trace(run.trace)))
    dumps = [("typewrite", result.get("got") or ""), ("cat", result.get("want") or "")]
    if result.get("want_progress"):
        dumps.append(("cat-at-progress", result["want_progress"]))
    for label, text in dumps:
        with open(os.path.join(d, label + ".dump"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        with open(os.path.join(d, label + ".txt"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(show(text))
    with open(os.path.join(d, "diff.txt"), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write((info.get("detail") or "") + "\n\n" + text_diff(screen_text(parse_dump(result.get("want") or "")),
                                                               screen_text(parse_dump(result.get("got") or ""))) + "\n")
    return d


def one_try(ctx, kind, index, fn, rnd):
    try:
        return fn(ctx, index, rnd)
    except Harness as e:
        return {"info": {"class": kind, "labels": ["harness"], "detail": str(e)}, "verdict": False, "harness": True}


def report_line(opts, kind, index, result):
    info, verdict = result["info"], result["verdict"]
    if opts.verbose or verdict is False or verdict == "soft":
        what = "clean" if verdict is True else ",".join(info.get("labels", []))
        if verdict == "soft":
            what += " (counted apart)"
        extra = ""
        if info.get("class") == "ctrl-c" and "at" in info:
            extra = " at %.2fs" % info["at"]
        elif info.get("resizes"):
            extra = " resizes %s" % " ".join("%.2fs:%dx%d" % tuple(e) for e in info["resizes"])
        print("  %s try %d: %s (%s%s)%s" % (kind, index, what, info.get("input", "?"), extra,
                                           ("\n    " + info["detail"].replace("\n", "\n    ")) if opts.verbose and info.get("detail") and verdict is not True else ""),
              flush=True)


def summarise(kind, term, results):
    total = len(results)
    failing = [r for r in results if r["verdict"] is False]
    missed = [r for r in results if r["verdict"] is None]
    soft = [r for r in results if r["verdict"] == "soft"]
    soft_counts = {}
    for r in soft:
        for lab in set(r["info"].get("labels", [])) - set(r["info"].get("hard", [])):
            soft_counts[lab] = soft_counts.get(lab, 0) + 1
    counts = {}
    for r in failing:
        for lab in r["info"].get("labels", ["?"]):
            counts[lab] = counts.get(lab, 0) + 1
    parts = ", ".join("%s %d" % kv for kv in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    print("%s in %s: %d tries, %d clean%s, %d failing%s%s" % (
        kind, term, total, total - len(failing) - len(missed),
        " (%d of them counted apart: %s)" % (len(soft), ", ".join("%s %d" % kv for kv in sorted(soft_counts.items())))
        if soft else "",
        len(failing), (": " + parts) if parts else "",
        (", %d missed (the program had exited before the key)" % len(missed)) if missed else ""))
    return len(failing)


def cmd_tries(opts, ctx):
    kind = opts.command
    fn = {"ctrl-c": ctrl_c_try, "resize": resize_try}[kind]
    ctx.inputs = all_inputs(opts)
    results = []
    for i in range(opts.tries):
        rnd = random.Random("emulator-actions/%s/%s/%d" % (kind, opts.seed, i))
        result = one_try(ctx, kind, i, fn, rnd)
        result["info"]["try"] = i
        result["info"]["seed"] = opts.seed
        if result["verdict"] is False or (result["verdict"] == "soft" and opts.keep_soft):
            result["info"]["kept"] = keep_case(opts, result, "%s-%s-%s-%04d" % (kind, ctx.term, opts.seed, i))
        report_line(opts, kind, i, result)
        results.append(result)
    failing = summarise(kind, ctx.term, results)
    harness = any(r.get("harness") for r in results)
    return failing, harness


def cmd_replay(opts, ctx):
    with open(os.path.join(opts.case, "case.json"), encoding="utf-8", errors="surrogateescape") as f:
        case = json.load(f)
    chunks = load_trace(os.path.join(opts.case, "schedule.trace"))
    ctx.term, ctx.cols, ctx.rows = case["term"], case["cols"], case["rows"]
    if not opts.bin_given:
        ctx.bin = case["bin"]
        ctx.args = case.get("args", [])
    if case["class"] == "ctrl-c":
        result = run_ctrl_c(ctx, 0, case["input"], chunks, case["speed"], case["at"])
    else:
        result = run_resize(ctx, 0, case["input"], chunks, case["speed"], [tuple(e) for e in case["resizes"]])
    info = result["info"]
    print("%s in %s: %s %s" % (case["class"], ctx.term, "clean" if result["verdict"] is True else
                               ",".join(info.get("labels", [])), info.get("detail", "")))
    if opts.keep:
        print("kept in %s" % keep_case(opts, result, "replay-" + os.path.basename(opts.case.rstrip("/"))))
    return (0 if result["verdict"] is not False else 1), False


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_feed":
        return feed_main(argv[1:])
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")   # dumps may hold bytes that are not UTF-8
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("command", choices=["ctrl-c", "resize", "replay"])
    ap.add_argument("case", nargs="?", help="replay: a case directory saved by --keep")
    ap.add_argument("--term", choices=["xterm", "kitty"], default="xterm")
    ap.add_argument("--bin", help="the program to judge (default .build/release/typewrite; `cat` for sanity)")
    ap.add_argument("--args", default="", help="typewrite's arguments (default none)")
    ap.add_argument("--tries", type=int, default=None, help="tries (default: ctrl-c 20, resize 10)")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--keep", help="save each failing case in a directory under KEEP")
    ap.add_argument("--keep-soft", action="store_true", help="save the text-cut cases too")
    ap.add_argument("--keep-work", action="store_true", help="leave the temporary work directory")
    ap.add_argument("--cols", type=int, default=80)
    ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--input", help="only these inputs (comma separated: prose, wrap, or a --trace's name)")
    ap.add_argument("--trace", action="append", default=[], metavar="FILE[:SPEED]")
    ap.add_argument("--at", type=float, help="ctrl-c: the key this many seconds after the feeder starts")
    ap.add_argument("--candidates", type=int, default=4, help="ctrl-c: chunk boundaries tried as prefixes")
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args(argv)
    for tool in ("Xvfb", "xdotool", "xwininfo", opts.term):
        if shutil.which(tool) is None:
            print("emulator-actions: %s is not installed" % tool, file=sys.stderr)
            return 2
    opts.bin_given = opts.bin is not None
    if opts.bin is None:
        opts.bin = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".build", "release", "typewrite")
    resolved = shutil.which(opts.bin) if os.sep not in opts.bin else opts.bin
    if (opts.command != "replay" or opts.bin_given) and (not resolved or not os.access(resolved, os.X_OK)):
        print("emulator-actions: %s is not an executable" % opts.bin, file=sys.stderr)
        return 2
    opts.bin = os.path.abspath(resolved or opts.bin)
    if opts.tries is None:
        opts.tries = 20 if opts.command == "ctrl-c" else 10
    if opts.command == "replay" and not opts.case:
        print("emulator-actions: replay needs a case directory", file=sys.stderr)
        return 2

    def stop(*_):
        end_all()
        sys.exit(2)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, stop)
    work = tempfile.mkdtemp(prefix="emulator-actions-")
    started = time.monotonic()
    display = None
    try:
        display = Display(work)
        ctx = Context(opts, display, work)
        if opts.command == "replay":
            failing, harness = cmd_replay(opts, ctx)
        else:
            failing, harness = cmd_tries(opts, ctx)
        if harness:
            print("HARNESS FAILURE (%d of %d failing; %.0f s)" % (failing, opts.tries, time.monotonic() - started))
            return 2
        if opts.command != "replay":
            print("%s (%d of %d failing; %.0f s)" % ("FAIL" if failing else "PASS", failing, opts.tries,
                                                    time.monotonic() - started))
        return 1 if failing else 0
    except Harness as e:
        print("emulator-actions: %s" % e, file=sys.stderr)
        return 2
    except Exception:
        import traceback
        traceback.print_exc()
        print("emulator-actions: the harness failed", file=sys.stderr)
        return 2
    finally:
        end_all()
        if not opts.keep_work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
