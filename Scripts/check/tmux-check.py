#!/usr/bin/env python3
"""tmux-check: does typewrite leave what cat leaves in tmux while the user acts mid-stream?

Each try runs in its own tmux server (`tmux -S WORK/tmux.sock -f /dev/null`: no user configuration,
the socket goes with the try) with a fixed size, LANG=C.UTF-8, the TERM tmux sets in its panes
(tmux-256color unless --term), and an interactive `bash --norc --noprofile` whose prompt is `$ `. A
feeder writes the input into the pipe in timed chunks (`$F 2>/dev/null | $T`; F and T are one-word
scripts, so the command line on the screen is the same for typewrite and for cat) and logs the
byte offset and time of every write, so the judge knows which prefixes the program can have
received; `pipe-pane` records every byte the pane received, in order, so the judge can tell where
the tty's ^C/^Z echo fell among the program's writes. The screen is judged from
`capture-pane -p -e -J -S - -E -` (the whole scrollback, wrapped rows joined, with colours) parsed
into cells; a blank cell without background, reverse video or lines is the same as no cell.

Usage: tmux-check.py SUBCOMMAND [--bin PATH] [--tries N] [--seed S] [--jobs J] [--keep DIR] ...
  --bin PATH   the program (default .build/release/typewrite); `--bin cat` is the sanity run: every
               subcommand must be clean with it, which shows the judge has no false positives
  --jobs J     tries side by side, each in its own tmux server (default 1)
  --keep DIR   save each failing case (case.json, schedule.trace, input.bin, pane.log: the bytes the
               pane received, typewrite.capture, cat.capture, diff.txt) in DIR/CLASS-SEED-NNNN
  --args "..." typewrite's arguments (default none; fuzz: --cps 2000 in 4 cases of 5, else none)
  --cols/--rows the terminal (80x24); --input NAMES only these inputs; --trace FILE[:SPEED] another
               input; --at S the key S seconds after the feeder starts (ctrl-c, suspend)

  ctrl-c   C-c at a random moment. Clean: the screen, text and colours, equals what cat leaves
           for a prefix typewrite can have received (a chunk boundary among the last --candidates
           written; cat's reference is run in tmux too: the prefix through cat, then C-c, so the
           ^C echo is the tty's own), and typewrite's exit status is 130.
  resize   1-3 `resize-window` at random moments (30-140 columns, tmux reflows). Clean: the
           joined text equals cat's under the same feeder and the same resize schedule, no cell
           has a style cat's screen lacks, and the exit status is 0.
  suspend  C-z at a random moment; half the tries the shell prints `shell-line` before `fg`.
           Clean: the stream's text is cat's (the shell's lines and the ^Z echo aside), the shell's
           lines are intact, no cell has a style cat's screen lacks, and the exit status is 0.
  fuzz     Differential: random streams of grapheme clusters, controls, SGR spellings, cursor
           moves and broken UTF-8, cut into reads 0-50 ms apart, through typewrite and through cat
           with the same reads; the whole scrollback with colours and a `#` written after the
           program exits (it shows the cursor and the pen) must be equal. A difference is checked
           against cat in one write, under another split and with the same reads again (their
           timing alone moves tmux's read boundaries): typewrite equal to one of those is
           cat-equivalent; when cat disagrees with itself and typewrite matches none, the case is
           tmux's split dependence, counted apart; so is any difference in a stream with a ZWJ and no
           fade colour left (tmux shows ZWJ sequences differently for reads that fall
           differently, even for cat with the same reads). 2 cases in 5 may hold ZWJs, the rest
           are judged strictly. --avoid KINDS leaves content out, to look past a known failure.
  replay   CASE-DIR: runs a case saved by --keep again; prints the verdict and a diff.
  shrink   CASE-DIR: makes a failing fuzz case small (--attempts N for a flaky one); saves
           CASE-DIR-small and prints its reads.
  probe    Runs the inputs terminals disagree on (U+2028, ZWJ before CR/LF/CUF/SGR/BOM, a ZWJ at
           the end of a read, clusters over 21 bytes...) through cat and the program; prints what
           tmux shows and where it left the cursor, and whether the program left the same.

Output: a line per failing try (with -v every try), then per subcommand the tries, clean, failing
with the count per class (a try can have several), missed (the program had exited before the key),
and the last line `PASS` or `FAIL`. Exit status: 0 when every try is clean, 1 when one is not, 2
when the harness itself could not run (a shell that does not come back is the try's `hang`).

Classes: caret-missing / caret-inside (the tty's ^C or ^Z echo overwritten, or with text after it),
caret-colour (echo drawn in another pen), text-lost / text-doubled / text-extra / text-garbled,
fade-colour (a cell in a style cat's screen does not have), pen-left (the shell's next line drawn
in another pen than cat leaves), prompt-garbled, shell-lines-overwritten (suspend), layout,
text-colour, prompt-colour, rc, hang. Counted as clean but named: zwj-split (the texts differ only
in the input's ZWJ sequences), lost-in-flight (suspend: a piece missing where the stream stopped)
and resize-timing (the text is what cat leaves when the same resizes come up to 1.5 s later, as
late as typewrite may run behind: tmux keeps a tab's cells only while they are left of the cursor).

What tmux 3.3a does that the judge allows for (see `probe`): a ZWJ that ends one read of the pty is
dropped and the next emoji stands alone; a character that would make a cell's cluster longer than
21 bytes is dropped; so cat's screen of a ZWJ sequence depends on how its writes fell. A signal key
(^C, ^Z) flushes the tty's output queue (no NOFLSH): what the program wrote and the terminal had
not read yet is lost, with cat too, and a character cut there loses its other bytes.

Needs Python 3.8+ (standard library only) and tmux (measured with 3.3a).
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import random
import re
import shlex
import shutil
import signal
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from feeder import chunked, cut_candidates, feed_main, load_trace, prefix_chunks, read_feed_log, write_trace  # noqa: E402
from sgrcells import DEFAULT, describe_style, first_difference, row_text, styles_of  # noqa: E402
from terminal import (STOP, Harness, Hang, Server, kill_all_servers, parse_capture, settle,  # noqa: E402
                      stop, text_differences)

HERE = os.path.dirname(os.path.abspath(__file__))
SELF = os.path.abspath(__file__)
INPUT_DIR = os.path.join(HERE, "tmux-check", "inputs")
COMMAND = "$F 2>/dev/null | $T"
RC_AFTER_SIGNAL = 'echo "rc=${PIPESTATUS[1]}"'
FG_COMMAND = 'fg; echo "rc=$?"'


# ------------------------------------------------------------------------------------------------
# waiting for the shell in the pane (the pane itself: terminal.Server)


def wait_until(cond, timeout, what, interval=0.03):
    deadline = time.monotonic() + timeout
    while True:
        if STOP.is_set():
            raise Harness("stopped")
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Hang("timed out after %gs waiting for %s" % (timeout, what))
        time.sleep(interval)


def at_prompt(srv, needle=None):
    """The shell waits at an empty `$ ` prompt (and the screen shows `needle`, if given)."""
    lines, x, y = srv.screen()
    if y >= len(lines) or x != 2 or lines[y].rstrip() != "$":
        return False
    # The needle may be cut by the margin (`…sh.rc` / `=0` at 41 columns): wrapped rows are full.
    return needle is None or any(needle in line for line in lines) or needle in "".join(lines)


def wait_stable(srv, timeout=10, interval=0.08, colours=True):
    """Polls the capture until two in a row are equal; returns it."""
    return settle(lambda: srv.capture(colours=colours), timeout, interval)


# ------------------------------------------------------------------------------------------------
# the screen: capture-pane -e output parsed into cells (terminal.parse_capture)


def fade_colours(styles, data):
    """The styles among `styles` with a colour (foreground, background or underline) that no SGR
    of the input `data` sets: colours only a fade can have drawn."""
    own = set()
    for row in parse_capture(data.decode("utf-8", errors="replace").replace("\r", "\n")):
        for _, (_, fg, bg, ulc, _) in row:
            own |= {fg, bg, ulc}
    return {st for st in styles if {st[1], st[2], st[3]} - own - {None}}


def visible_escapes(text):
    return text.replace("\x1b", "\\e")


def short_diff(want, got, label_want="cat", label_got="typewrite", limit=80):
    """A unified diff of two captures, escapes shown as \\e, with the first differing cell."""
    a, b = visible_escapes(want).split("\n"), visible_escapes(got).split("\n")
    lines = list(difflib.unified_diff(a, b, label_want, label_got, n=2, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more diff lines)" % (len(lines) - limit)]
    first = first_difference(parse_capture(want), parse_capture(got), label_want, label_got)
    if first:
        lines.append("first differing cell, rows joined: " + first)
    return "\n".join(lines)


ZWJ_SEQUENCE = re.compile("(?:[^\x00-\x7f\\s][\ufe0f\U0001f3fb-\U0001f3ff]*\u200d)+[^\x00-\x7f\\s]?")
SOFT = {"zwj-split", "lost-in-flight", "resize-timing"}


def zwj_components(text):
    """The characters of `text`'s ZWJ sequences: where tmux 3.3a shows them depends on its reads."""
    chars = set()
    for m in ZWJ_SEQUENCE.finditer(text):
        chars |= set(m.group(0))
    return chars


def verdict(labels):
    """True (clean), "soft" (cat-equivalent up to tmux's read split or the tty's flush), False."""
    if not labels:
        return True
    return "soft" if set(labels) <= SOFT else False


def text_labels(want, got, loose=None):
    """Labels for how text `got` differs from `want` (lost, doubled, extra, garbled). ZWJs are
    left out: tmux 3.3a drops a ZWJ that ends one read of the pty (the next emoji then stands
    alone) and drops a character that would make a cell's cluster longer than 21 bytes, so what
    cat's screen holds of a ZWJ sequence depends on how the writes fell (`fuzz` measures it). When
    the texts differ only in the characters of the input's ZWJ sequences (`loose`), the label is
    `zwj-split`: cat-equivalent for some read split, counted apart from failures."""
    want, got = want.replace("\u200d", ""), got.replace("\u200d", "")
    if want != got and loose:
        strip = lambda t: "".join(c for c in t if c not in loose)
        if strip(want) == strip(got):
            return {"zwj-split"}
    return text_differences(want, got)


# ------------------------------------------------------------------------------------------------
# inputs


def _chunked(rnd, data, **cuts):
    """Token-like writes of `data`, cut only between characters (feeder.chunked)."""
    return chunked(rnd, list(data.decode("utf-8")), **cuts)


def builtin_inputs(cols):
    """Generated inputs (deterministic for a width): name -> (chunks, speed, resize_ok)."""
    rnd = random.Random("tmux-check/inputs/v1/%d" % cols)
    words = ("tide pools look peaceful at low tide but the creatures living in them ride out one of "
             "the sharpest daily swings of any habitat on earth twice a day the sea pulls back").split()

    def sentence(k):
        return " ".join(rnd.choice(words) for _ in range(k))
    out = {}

    # Prose with SGR colours: spans inside lines, across a line end, 256 and truecolor, bold, reset.
    parts = []
    for i in range(9):
        s = sentence(rnd.randint(6, 20))
        w = s.split()
        a, b = sorted(rnd.sample(range(len(w) + 1), 2))
        sgr = ["\x1b[31m", "\x1b[1;32m", "\x1b[38;5;208m", "\x1b[38;2;90;160;255m", "\x1b[4m",
               "\x1b[1;33;44m", "\x1b[35m", "\x1b[3m", "\x1b[7m"][i]
        parts.append(" ".join(w[:a]) + " " + sgr + " ".join(w[a:b]) + "\x1b[0m " + " ".join(w[b:]) + "\n")
    parts.append("a span \x1b[36mthat runs over the line end\n and stops here\x1b[m.\n")
    out["prose-sgr"] = (_chunked(rnd, "".join(parts).encode()), 1.0, True)

    # Wide characters: CJK and emoji, a wide character that does not fit in the last column.
    cjk = "潮だまりは静かに見えるが生き物たちは一日二回の激しい変化を耐えている"
    lines = ["潮溜まり tide pool 조수 웅덩이 🦀 crab 🐚 shell",
             "emoji: 🙂 👍🏽 👨‍👩‍👧 🏳️‍🌈 🇯🇵 ❤️ 1️⃣ and text after them",
             cjk + cjk,
             "x" * (cols - 1) + "漢" + "字 wraps early",
             "é e\u0301 n\u0303 naïve café — “quotes” ½",
             "🦀" * (cols // 2) + "next line"]
    out["wide"] = (_chunked(rnd, ("\n".join(lines) + "\n").encode()), 1.0, True)

    # Long lines that wrap, some with colour across the wrap.
    lines = [sentence(40), "\x1b[32m" + sentence(35) + "\x1b[0m", sentence(60), sentence(5)]
    out["wrap"] = (_chunked(rnd, ("\n".join(lines) + "\n").encode(), small=(3, 20)), 1.0, True)

    # Lines that end exactly in the last column (pending wrap), one a column short and one over,
    # a coloured one, a wide character ending in the last column, and a last line without newline.
    def exact(n):
        s = ""
        while len(s) < n:
            s += rnd.choice(words) + " "
        return (s[:n - 1] + ".")[:n]
    lines = [exact(cols), exact(cols - 1), exact(cols + 1), "\x1b[1;31m" + exact(cols) + "\x1b[0m",
             exact(cols - 2) + "界", exact(cols), exact(cols)]
    out["exact-width"] = (_chunked(rnd, ("\n".join(lines[:-1]) + "\n" + lines[-1]).encode(), small=(2, 10)),
                          1.0, True)
    return out


def copied_inputs():
    """The recorded traces in Scripts/check/tmux-check/inputs (see its README): name -> (chunks, speed,
    resize_ok). Speeds keep each under about five seconds; inputs with CR or cursor motion are not
    used for resize (where a CR lands after a reflow depends on timing, even for cat)."""
    plan = {"llm-fast": (1.0, True), "llm-multilingual": (4.0, True), "llm-code": (2.5, True),
            "build-log": (6.0, False)}
    out = {}
    for name, (speed, resize_ok) in plan.items():
        path = os.path.join(INPUT_DIR, name + ".trace")
        if os.path.exists(path):
            out[name] = (load_trace(path), speed, resize_ok)
    return out


def all_inputs(cols, traces=()):
    """The inputs by name, with traces given by --trace (named by their file name) added."""
    d = builtin_inputs(cols)
    d.update(copied_inputs())
    for path in traces:
        speed = 1.0
        if ":" in path and path.rsplit(":", 1)[1].replace(".", "", 1).isdigit():
            path, sp = path.rsplit(":", 1)
            speed = float(sp)
        d[os.path.splitext(os.path.basename(path))[0]] = (load_trace(path), speed, True)
    return d


def input_text(chunks):
    return b"".join(c for _, c in chunks).decode("utf-8", errors="replace")


def duration(chunks, speed):
    return sum(d for d, _ in chunks) / 1000.0 / speed


# ------------------------------------------------------------------------------------------------
# a try


class Try:
    """Work space of one run in one tmux server: the F and T scripts, the feeder log."""

    def __init__(self, opts, work, name, chunks, speed, program, program_args, hold=False):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=True)
        self.trace = os.path.join(self.dir, "schedule.trace")
        write_trace(self.trace, chunks)
        self.log = os.path.join(self.dir, "feed.log")
        self.pane_log = os.path.join(self.dir, "pane.log")
        self.feed = os.path.join(self.dir, "F")
        self.prog = os.path.join(self.dir, "T")
        with open(self.feed, "w") as f:
            f.write("#!/bin/sh\nexec %s %s _feed %s %s %s%s\n" % (
                shlex.quote(sys.executable), shlex.quote(SELF), shlex.quote(self.trace),
                shlex.quote(self.log), speed, " hold" if hold else ""))
        with open(self.prog, "w") as f:
            f.write("#!/bin/sh\nexec %s\n" % " ".join(shlex.quote(a) for a in [program] + program_args))
        os.chmod(self.feed, 0o755)
        os.chmod(self.prog, 0o755)
        self.srv = Server(opts.cols, opts.rows, self.dir, opts.term)

    def shell(self):
        env = {"PS1": "$ ", "HISTFILE": "/dev/null", "INPUTRC": "/dev/null", "F": self.feed, "T": self.prog}
        cmd = "exec env -u PROMPT_COMMAND %s bash --norc --noprofile" % " ".join(
            "%s=%s" % (k, shlex.quote(v)) for k, v in env.items())
        self.srv.start(cmd, pipe_log=self.pane_log)
        wait_until(lambda: at_prompt(self.srv), 10, "the first prompt")

    def script(self, after):
        """Runs `F | T` then `after` (shell text) with sh, no job control, no prompt."""
        run = os.path.join(self.dir, "run.sh")
        with open(run, "w") as f:
            f.write('F=%s\nT=%s\n%s\n%s\n: > %s\nexec sleep 100000\n' % (
                shlex.quote(self.feed), shlex.quote(self.prog), COMMAND, after,
                shlex.quote(os.path.join(self.dir, "done"))))
        self.srv.start("exec sh " + shlex.quote(run), pipe_log=self.pane_log)

    def done(self):
        return os.path.exists(os.path.join(self.dir, "done"))

    def wait_feed_start(self, timeout=10):
        return wait_until(lambda: read_feed_log(self.log)[0], timeout, "the feeder to start", 0.005)

    def start_and_wait(self, at):
        """Runs the pipeline from the prompt and returns `at` s after the feeder started, with the
        time it started."""
        self.shell()
        self.srv.type_line(COMMAND)
        start = self.wait_feed_start()
        wait = start + at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        return start

    def pane_bytes(self):
        try:
            with open(self.pane_log, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return b""

    def kill(self):
        self.srv.kill()


def rc_from(text, pattern=r"rc=(\d*)\s*$"):
    for line in reversed(text.split("\n")):
        m = re.search(pattern, line)
        if m:
            return int(m.group(1)) if m.group(1) else None
    return None


def program_for(opts):
    is_cat = os.path.basename(opts.bin) == "cat"
    return opts.bin, ([] if is_cat else shlex.split(opts.args))


# ------------------------------------------------------------------------------------------------
# ctrl-c


class RefCache:
    """cat's screens, computed once per key, shared by the worker threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.values = {}
        self.locks = {}

    def get(self, key, compute):
        with self.lock:
            if key in self.values:
                return self.values[key]
            lk = self.locks.setdefault(key, threading.Lock())
        with lk:
            with self.lock:
                if key in self.values:
                    return self.values[key]
            value = compute()
            with self.lock:
                self.values[key] = value
            return value


def stream_region(text, end_pattern):
    """Joined lines between the typed command line and the first line matching end_pattern."""
    lines = text.split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("$ " + COMMAND))
    except StopIteration:
        return None, None, None
    end = next((i for i in range(start + 1, len(lines)) if re.match(end_pattern, lines[i])), len(lines))
    tail = lines[end:]
    while tail and not tail[-1].strip():
        tail.pop()
    return lines[start + 1:end], lines[:start + 1], tail


def ctrl_c_reference(opts, work, inp_name, chunks, speed, offset, timed, again=None):
    """cat's screen for the first `offset` bytes of the input, then C-c (the tty's ^C echo);
    `again`, a tag that makes this a sample of its own (not the cached one's work folder)."""
    prefix = prefix_chunks(chunks, speed, offset, timed, zero_gaps=True)
    t = Try(opts, work, "ref-c-%s-%d-%s%s" % (inp_name, offset, "timed" if timed else "one",
                                               "-again-%s" % again if again else ""), prefix, 1.0,
            "cat", [], hold=True)
    try:
        t.shell()
        t.srv.type_line(COMMAND)
        wait_until(lambda: read_feed_log(t.log)[2], 30, "cat's feeder to write the prefix", 0.01)
        time.sleep(0.1)
        wait_stable(t.srv)
        t.srv.keys("C-c")
        wait_until(lambda: at_prompt(t.srv), 10, "the prompt after C-c (cat)")
        t.srv.type_line(RC_AFTER_SIGNAL)
        wait_until(lambda: at_prompt(t.srv, "rc="), 10, "rc (cat)")
        colours = wait_stable(t.srv)
        plain = t.srv.capture(colours=False)
    finally:
        t.kill()
    return colours, plain


def key_missed(pane, echo):
    """The shell was back at its prompt before the key's echo: the program had already exited, so
    the try tested nothing (it is counted as missed, neither clean nor failing)."""
    i = pane.find(COMMAND.encode())
    if i < 0:
        return False
    rest = pane[i:]
    p = re.search(rb"(?:[\r\n]|\x1b\[\?2004h)\$ ", rest)
    e = rest.find(echo)
    return p is not None and (e < 0 or p.start() < e)


def without_echo(lines, echo):
    """The lines' text with the first `echo` taken out, then trailing blanks."""
    text = "\n".join(lines).replace(echo, "", 1)
    return "\n".join(l.rstrip() for l in text.split("\n"))


def find_cells(rows, needle):
    """(row, cell) of the first `needle` in the rows' text, or None."""
    for r, row in enumerate(rows):
        c = row_text(row).find(needle)
        if c >= 0:
            return r, c
    return None


def fade_and_rc(labels, info, tw_colours, ref_colours, tw_plain):
    """Adds `fade-colour` (a style on the program's screen that cat's has not) and `rc` (a nonzero
    exit status) to `labels`, and the labels, rc and fade styles to `info`."""
    fade = styles_of(parse_capture(tw_colours)) - styles_of(parse_capture(ref_colours)) - {DEFAULT}
    if fade:
        labels.add("fade-colour")
    rc = rc_from(tw_plain)
    if rc != 0:
        labels.add("rc")
    info.update(labels=sorted(labels), rc=rc,
                detail="fade styles: %s" % "; ".join(sorted(describe_style(s) for s in fade)) if fade else "")


def judge_ctrl_c(tw_colours, tw_plain, refs, loose=None):
    """refs: [(offset, colours, plain)], most likely first. Returns (labels, best ref, detail);
    no labels when the screen is one of the references."""
    tw_rows = parse_capture(tw_colours)
    for ref in refs:
        if parse_capture(ref[1]) == tw_rows:
            return set(), ref, "matches cat at offset %d" % ref[0]
    end = r"^\$ echo \"rc="
    tw_region, tw_head, tw_tail = stream_region(tw_plain, end)
    if tw_region is None:
        return {"garbled"}, refs[0], "the command line is gone"
    tw_text = "\n".join(l.rstrip() for l in tw_region)
    # The closest reference, one that differs only in what cat's own screens differ in (a ZWJ
    # sequence split by reads) first: a prefix one chunk longer can be closer in characters.
    best, best_key = None, None
    got = without_echo(tw_region, "^C")
    for ref in refs:
        region, _, _ = stream_region(ref[2], end)
        text = without_echo(region, "^C")
        ratio = 2.0 if text == got else difflib.SequenceMatcher(None, text, got, autojunk=False).ratio()
        key = (not (text_labels(text, got, loose) - SOFT), ratio)
        if best_key is None or key > best_key:
            best, best_key = ref, key
    labels = set()
    ref_region, ref_head, ref_tail = stream_region(best[2], end)
    if "^C" not in tw_text:
        labels.add("caret-missing")
    elif tw_text.index("^C") != len(tw_text.rstrip("\n")) - 2:
        labels.add("caret-inside")
    text = text_labels(without_echo(ref_region, "^C"), without_echo(tw_region, "^C"), loose)
    labels |= text
    if [l.rstrip() for l in tw_tail] != [l.rstrip() for l in ref_tail]:
        labels.add("prompt-garbled")
    ref_rows = parse_capture(best[1])
    fade = styles_of(tw_rows) - styles_of(ref_rows) - {DEFAULT}
    if fade:
        labels.add("fade-colour")
    # The pen the program leaves: cat leaves the input's, in which the shell draws its prompt.
    n_head, n_text = len(ref_head), len(ref_head) + len(ref_region)
    tw_n_text = len(tw_head) + len(tw_region)
    if n_text < len(ref_rows) and tw_n_text < len(tw_rows) and "prompt-garbled" not in labels:
        if [st for _, st in ref_rows[n_text]] != [st for _, st in tw_rows[tw_n_text]]:
            labels.add("pen-left")
    a, b = find_cells(tw_rows, "^C"), find_cells(ref_rows, "^C")
    if a and b and tw_rows[a[0]][a[1]][1] != ref_rows[b[0]][b[1]][1]:
        labels.add("caret-colour")
    if not labels:
        # Same text: the difference is which cell has which style, or where rows break.
        where = set()
        for r in range(max(len(tw_rows), len(ref_rows))):
            x = tw_rows[r] if r < len(tw_rows) else []
            y = ref_rows[r] if r < len(ref_rows) else []
            if x != y:
                if [c for c, _ in x] != [c for c, _ in y]:
                    # Cells that differ only in a ZWJ sequence's characters: tmux joins a sequence
                    # only within one read, so cat's own screen depends on the split (`fuzz`).
                    sm = difflib.SequenceMatcher(None, [c for c, _ in y], [c for c, _ in x], autojunk=False)
                    changed = set()
                    for op, i1, i2, j1, j2 in sm.get_opcodes():
                        if op != "equal":
                            changed |= {ch for c, _ in y[i1:i2] + x[j1:j2] for ch in c}
                    where.add("zwj-split" if loose and changed <= (loose | {"\u200d", " ", ""}) else "layout")
                elif n_head <= r < n_text:
                    where.add("text-colour")
                else:
                    where.add("prompt-colour")
        labels |= where or {"other"}
    detail = "fade styles: %s" % "; ".join(sorted(describe_style(s) for s in fade)) if fade else ""
    return labels, best, detail


def ctrl_c_try(opts, work, cache, inputs, index, rnd):
    name = rnd.choice(sorted(inputs))
    chunks, speed, _ = inputs[name]
    at = rnd.uniform(0.3, duration(chunks, speed) + 1.0)
    return run_ctrl_c(opts, work, cache, inputs, index, name, opts.at if opts.at is not None else at)


def run_ctrl_c(opts, work, cache, inputs, index, name, at):
    chunks, speed, _ = inputs[name]
    prog, args = program_for(opts)
    t = Try(opts, work, "c%04d" % index, chunks, speed, prog, args)
    info = {"class": "ctrl-c", "input": name, "at": round(at, 3), "cols": opts.cols, "rows": opts.rows,
            "bin": opts.bin, "args": args, "speed": speed}
    try:
        start = t.start_and_wait(at)
        key_time = time.monotonic()
        t.srv.keys("C-c")
        try:
            wait_until(lambda: at_prompt(t.srv), 10, "the prompt after C-c")
            t.srv.type_line(RC_AFTER_SIGNAL)
            wait_until(lambda: at_prompt(t.srv, "rc="), 10, "rc")
        except Hang as e:
            info["labels"] = ["hang"]
            info["detail"] = str(e)
            return False, info, t, t.srv.capture(), None
        tw_colours = wait_stable(t.srv)
        tw_plain = t.srv.capture(colours=False)
    finally:
        t.kill()
    written, nxt, cands = cut_candidates(t.log, chunks, opts.candidates)
    cands = list(dict.fromkeys(cands))
    info["written"] = written
    info["key_after_feed_start"] = round(key_time - start, 3)
    info["candidates"] = cands
    rc = rc_from(tw_plain)
    if key_missed(t.pane_bytes(), b"^C"):
        info.update(labels=["missed"], rc=rc, detail="the program had exited before C-c")
        return None, info, t, tw_colours, None
    refs = []
    tw_rows = parse_capture(tw_colours)

    def ref(off, timed):
        colours, plain = cache.get((name, off, timed, opts.cols, opts.rows),
                                   lambda: ctrl_c_reference(opts, work, name, chunks, speed, off, timed))
        return (off, colours, plain)
    # Most likely first: everything written, then the one after it, then earlier ones.
    order = sorted(cands, key=lambda c: (c != written, c == nxt, -c))
    for off in order:
        refs.append(ref(off, True))
        if parse_capture(refs[-1][1]) == tw_rows:
            break
    else:
        # tmux joins a cluster only within one read (a ZWJ sequence split between two writes stays
        # apart), so cat's screen depends on the split: the closest prefix in one write is cat too.
        _, best, _ = judge_ctrl_c(tw_colours, tw_plain, refs)
        refs.append(ref(best[0], False))
    loose = zwj_components(input_text(chunks))
    labels, best, detail = judge_ctrl_c(tw_colours, tw_plain, refs, loose)
    if labels - SOFT:
        # cat's screens are cached per prefix, and one sample can come out of a split that tmux
        # shows unlike any other (a ZWJ sequence cut differently): before calling typewrite's
        # screen wrong, ask cat again, uncached, for the likeliest prefixes.
        for off in order[:2]:
            refs.append((off,) + ctrl_c_reference(opts, work, name, chunks, speed, off, True,
                                                  again="%d-%d" % (index, off)))
        labels, best, detail = judge_ctrl_c(tw_colours, tw_plain, refs, loose)
    if rc != 130:
        labels.add("rc")
        detail = ("rc %s; " % rc) + detail
    info.update(labels=sorted(labels), detail=detail, rc=rc, compared_with=best[0])
    info["after_echo"] = after_echo(t.pane_bytes(), b"^C")
    return verdict(labels), info, t, tw_colours, best[1]


def shown(data, limit):
    s = data.decode("utf-8", errors="backslashreplace")
    s = s.replace("\x1b", "\\e").replace("\r", "\\r").replace("\n", "\\n").replace("\b", "\\b")
    return s[:limit] if limit > 0 else s[limit:]


def after_echo(pane, echo):
    """Where the tty's echo (`^C`/`^Z`) fell in what the pane received: `before`, the last bytes
    before it; `after`, the bytes the program wrote after it, up to the shell's next output (bash
    starts with CR LF then `[1]+` or `$ `); `bytes`, how many those are. Escapes shown as \\e."""
    i = pane.find(echo)
    if i < 0:
        return None
    rest = pane[i + len(echo):]
    j = len(rest)
    for m in (b"\r\n[1]", b"\r\n\x1b[?2004h$ ", b"\r\n$ ", b"\n$ ", b"\n[1]"):
        k = rest.find(m)
        if 0 <= k < j:
            j = k
    return {"bytes": j, "before": shown(pane[max(0, i - 160):i], -160), "after": shown(rest[:j], 400)}


# ------------------------------------------------------------------------------------------------
# resize


def resize_schedule(rnd, total, opts):
    n = rnd.randint(1, 3)
    times = sorted(rnd.uniform(0.2, total + 0.8) for _ in range(n))
    return [(round(t, 3), rnd.randint(30, 140), rnd.randint(max(5, opts.rows - 10), opts.rows + 10))
            for t in times]


def run_with_resizes(opts, work, name, tag, chunks, speed, prog, args, events):
    t = Try(opts, work, tag, chunks, speed, prog, args)
    try:
        t.shell()
        t.srv.type_line(COMMAND + "; " + RC_AFTER_SIGNAL)
        start = t.wait_feed_start()
        for at, c, r in events:
            wait = start + at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            t.srv.resize(c, r)
        wait_until(lambda: at_prompt(t.srv, "rc="), duration(chunks, speed) + 30, "rc")
        colours = wait_stable(t.srv)
        plain = t.srv.capture(colours=False)
        return colours, plain, t
    finally:
        t.kill()


def resize_try(opts, work, cache, inputs, index, rnd):
    names = sorted(n for n, v in inputs.items() if v[2])
    name = rnd.choice(names)
    chunks, speed, _ = inputs[name]
    events = resize_schedule(rnd, duration(chunks, speed), opts)
    return run_resize(opts, work, inputs, index, name, events)


def run_resize(opts, work, inputs, index, name, events):
    chunks, speed, _ = inputs[name]
    prog, args = program_for(opts)
    info = {"class": "resize", "input": name, "resizes": events, "cols": opts.cols, "rows": opts.rows,
            "bin": opts.bin, "args": args, "speed": speed}
    try:
        tw_colours, tw_plain, t = run_with_resizes(opts, work, name, "r%04d" % index, chunks, speed,
                                                   prog, args, events)
    except Hang as e:
        info.update(labels=["hang"], detail=str(e))
        return False, info, None, "", ""
    ref_colours, ref_plain, _ = run_with_resizes(opts, work, name, "r%04d-cat" % index, chunks, speed,
                                                 "cat", [], events)
    a = "\n".join(row_text(r).rstrip() for r in parse_capture(ref_plain))
    b = "\n".join(row_text(r).rstrip() for r in parse_capture(tw_plain))
    labels = text_labels(a, b, zwj_components(input_text(chunks)))
    if labels - SOFT:
        # typewrite runs up to --max-lag behind cat, so a resize at the same moment meets it at an
        # earlier place in the stream, and what tmux makes of a line depends on that place (a
        # tab's cells are no content: a resize while the cursor stands past them loses them).
        # cat with the resizes later by as much as typewrite lags writes the text typewrite did.
        for shift in (0.25, 0.5, 1.0, 1.5):
            later = [(round(at + shift, 3), c, r) for at, c, r in events]
            _, alt_plain, _ = run_with_resizes(opts, work, name, "r%04d-cat-%g" % (index, shift), chunks,
                                               speed, "cat", [], later)
            alt = "\n".join(row_text(r).rstrip() for r in parse_capture(alt_plain))
            if not text_labels(alt, b, zwj_components(input_text(chunks))) - SOFT:
                labels = {"resize-timing"}
                info["cat_resizes_later_by"] = shift
                break
    fade_and_rc(labels, info, tw_colours, ref_colours, tw_plain)
    return verdict(labels), info, t, tw_colours, ref_colours


# ------------------------------------------------------------------------------------------------
# suspend


STOPPED = re.compile(r"^\[1\]\+\s+Stopped\s+\$F 2> /dev/null \| \$T\s*$")


def suspend_stream(plain, echo_line):
    """((text before the stop, text after `fg`, the lines up to the stop with the echo), labels
    about the shell's lines) from a suspended-and-resumed run's text."""
    lines = [l.rstrip() for l in plain.split("\n")]
    labels = set()
    try:
        cmd = lines.index("$ " + COMMAND)
    except ValueError:
        return None, {"garbled"}
    stop = next((i for i in range(cmd + 1, len(lines)) if STOPPED.match(lines[i])), None)
    if stop is None:
        return None, {"shell-lines-overwritten"}
    i = stop + 1
    expect = (["$ echo shell-line", "shell-line"] if echo_line else []) + ["$ " + FG_COMMAND, "$F 2> /dev/null | $T"]
    for want in expect:
        if i >= len(lines) or lines[i] != want:
            labels.add("shell-lines-overwritten")
            return None, labels
        i += 1
    end = next((k for k in range(len(lines) - 1, i - 1, -1) if re.search(r"rc=\d+$", lines[k])), None)
    if end is None:
        return None, {"prompt-garbled"}
    pre = lines[cmd + 1:stop]
    if pre:
        # Trailing blanks of the line the stream stopped in are the stream's: text continues there.
        pre[-1] = plain.split("\n")[stop - 1]
    stopped = "\n".join(pre)  # the lines up to the stop, the echo where the tty wrote it
    if not pre or "^Z" not in pre[-1]:
        labels.add("caret-missing")
    else:
        z = pre[-1].index("^Z")
        if z != len(pre[-1]) - 2:
            labels.add("caret-inside")
        pre[-1] = pre[-1][:z] + pre[-1][z + 2:]
    last = lines[end]
    post = lines[i:end] + [last[:last.rindex("rc=")]]
    return ("\n".join(pre), "\n".join(post), stopped), labels


def lost_in_flight(want, pre, post, most=40):
    """Whether `pre + post` is `want` with one piece of at most `most` characters missing where the
    stream stopped: what the tty discards. A signal key (^C, ^Z) flushes the tty's output queue
    (unless NOFLSH), so bytes the program wrote that the terminal had not read yet are lost, and a
    character cut there loses its other bytes too, with cat as with anything else."""
    want, pre, post = (x.replace("\u200d", "") for x in (want, pre, post))
    got = pre + post
    if len(got) >= len(want) or len(want) - len(got) > most:
        return False
    cut = len(pre)
    return want.startswith(pre) and want.endswith(post) and len(want) - len(post) >= cut


ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_]|.)", re.S)


def logical_lines(text):
    """What a terminal shows of `text` as logical lines (unwrapped rows), for the stream text a
    stop can split: escape sequences dropped, CR back to the line's start, BS one left, TAB to the
    next multiple of 8, LF a new line; a character overwrites the one at the cursor. Each step
    yields (index in `text` after it, the lines so far, the cursor's column) for the prefixes a
    stop can leave."""
    lines, col = [[]], 0
    i = 0
    while i < len(text):
        m = ESCAPE.match(text, i) if text[i] == "\x1b" else None
        if m:
            i = m.end()
            continue
        ch = text[i]
        i += 1
        line = lines[-1]
        if ch == "\n":
            lines.append([])
            col = 0
        elif ch == "\r":
            col = 0
        elif ch == "\b":
            col = max(0, col - 1)
        elif ch == "\t":
            col = (col // 8 + 1) * 8
        elif ch < " " or ch == "\x7f":
            continue
        else:
            while len(line) < col:
                line.append(" ")
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
        yield i, lines, col


def split_by_stop(text, stopped, post):
    """Whether a stop after some prefix of `text` leaves `stopped` (the lines up to the stop, with
    the tty's ^Z echo written over the two cells at the cursor) and, written again from a new line
    after `fg`, `post`: how cat shows a stream stopped inside a line that CR rewrites
    (`Receiving objects:   7% (1^Z742), 0.19 MiB`, the rest of an earlier rewrite after the echo),
    which an uninterrupted cat's text cannot show."""
    def norm(lines):
        lines = [l.rstrip() for l in lines]
        while lines and not lines[-1]:
            lines.pop()
        return lines
    pre, post = [l.rstrip() for l in stopped.split("\n")], norm(post.split("\n"))
    for at, lines, col in logical_lines(text):
        if len(lines) != len(pre):
            continue
        last = list(lines[-1]) + [" "] * max(0, col + 2 - len(lines[-1]))
        last[col:col + 2] = ["^", "Z"]
        if "".join(last).rstrip() == pre[-1] and ["".join(l).rstrip() for l in lines[:-1]] == pre[:-1]:
            rest = None
            for _, rest, _ in logical_lines(text[at:]):
                pass
            if rest is not None and norm("".join(l) for l in rest) == post:
                return True
    return False


def suspend_reference(opts, work, name, chunks, speed):
    t = Try(opts, work, "ref-z-%s" % name, chunks, speed * 4, "cat", [])
    try:
        t.shell()
        t.srv.type_line(COMMAND + "; " + RC_AFTER_SIGNAL)
        wait_until(lambda: at_prompt(t.srv, "rc="), duration(chunks, speed) + 30, "rc (cat)")
        return wait_stable(t.srv), t.srv.capture(colours=False)
    finally:
        t.kill()


def suspend_try(opts, work, cache, inputs, index, rnd):
    name = rnd.choice(sorted(inputs))
    chunks, speed, _ = inputs[name]
    at = rnd.uniform(0.3, duration(chunks, speed) + 1.0)
    echo_line = rnd.random() < 0.5
    pause = rnd.uniform(0.1, 1.0)
    return run_suspend(opts, work, cache, inputs, index, name, opts.at if opts.at is not None else at,
                       echo_line, pause)


def run_suspend(opts, work, cache, inputs, index, name, at, echo_line, pause):
    chunks, speed, _ = inputs[name]
    prog, args = program_for(opts)
    info = {"class": "suspend", "input": name, "at": round(at, 3), "echo_line": echo_line,
            "pause": round(pause, 3), "cols": opts.cols, "rows": opts.rows, "bin": opts.bin,
            "args": args, "speed": speed}
    t = Try(opts, work, "z%04d" % index, chunks, speed, prog, args)
    try:
        t.start_and_wait(at)
        t.srv.keys("C-z")
        try:
            wait_until(lambda: at_prompt(t.srv), 10, "the prompt after C-z")
            if not at_prompt(t.srv, "Stopped"):
                if key_missed(t.pane_bytes(), b"^Z"):
                    info.update(labels=["missed"], detail="the program had exited before C-z")
                    return None, info, t, t.srv.capture(), None
                raise Hang("the shell came back but the job did not stop")
            time.sleep(pause)
            if echo_line:
                t.srv.type_line("echo shell-line")
                wait_until(lambda: at_prompt(t.srv, "shell-line\n") or at_prompt(t.srv), 10, "echo")
                time.sleep(0.05)
            t.srv.type_line(FG_COMMAND)
            wait_until(lambda: at_prompt(t.srv, "rc="), duration(chunks, speed) + 30, "rc after fg")
        except Hang as e:
            info.update(labels=["hang"], detail=str(e))
            return False, info, t, t.srv.capture(), ""
        tw_colours = wait_stable(t.srv)
        tw_plain = t.srv.capture(colours=False)
    finally:
        t.kill()
    if key_missed(t.pane_bytes(), b"^Z"):
        info.update(labels=["missed"], detail="the program had exited before C-z")
        return None, info, t, tw_colours, None
    ref_colours, ref_plain = cache.get(("z", name, opts.cols, opts.rows),
                                       lambda: suspend_reference(opts, work, name, chunks, speed))
    region, _, tail = stream_region(ref_plain, r".*rc=\d+$")
    if region is None or not tail:
        raise Harness("cat's reference has no command line or no rc line")
    ref_text = "\n".join([l.rstrip() for l in region] + [tail[0][:tail[0].rindex("rc=")]])
    parts, labels = suspend_stream(tw_plain, echo_line)
    if parts is not None:
        # Blanks at the end of a line are nothing on screen (the stream may stop after a space
        # that a line feed follows once it continues).
        joined = "\n".join(l.rstrip() for l in (parts[0] + parts[1]).split("\n"))
        text_diff = text_labels(ref_text, joined, zwj_components(input_text(chunks)))
        if text_diff and lost_in_flight(ref_text, *parts[:2]):
            text_diff = {"lost-in-flight"}
        elif (text_diff or "caret-inside" in labels) and "\r" in input_text(chunks) \
                and split_by_stop(input_text(chunks), parts[2], parts[1]):
            # Stopped inside a line CR rewrites: what cat leaves stopped after the same prefix.
            text_diff = set()
            labels.discard("caret-inside")
        labels |= text_diff
    fade_and_rc(labels, info, tw_colours, ref_colours, tw_plain)
    info["after_echo"] = after_echo(t.pane_bytes(), b"^Z")
    return verdict(labels), info, t, tw_colours, ref_colours


# ------------------------------------------------------------------------------------------------
# fuzz


FUZZ_WORDS = ("tide pool anemone barnacle snail rock sun warm cold sea shell crab kelp wave salt "
              "the a of and in to is it on that with as for").split()
ACCENTED = ["é", "e\u0301", "n\u0303", "a\u0308\u0323", "\u1100\u1161\u11a8", "ó", "x\u0336", "Å",
            "ç", "o\u0302\u0301", "\u0915\u094d\u0937", "\u0e01\u0e34"]
CJK = "潮溜まり漢字かなカナ한국어中文字全角"
EMOJI = ["🙂", "👍🏽", "👨\u200d👩\u200d👧", "🏳️\u200d🌈", "🇯🇵", "🇫🇷", "❤️", "☺️", "1️⃣", "❤︎",
         "🧑\u200d💻", "👩🏽\u200d🚀", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "🦀",
         "🇺", "✌", "✌️", "#️⃣"]
SPECIAL = ["\u2028", "\u2029", "\ufeff", "\u00ad", "\u200b", "\u200d", "\u200c", "\u2060", "\u0301"]
CONTROLS = ["\r", "\t", "\b", "\n", "\r\n"]
BROKEN = [b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf", b"\xfe"]


def fuzz_sgr(rnd):
    n = lambda: rnd.randint(0, 255)
    return rnd.choice([
        "\x1b[1;31m", "\x1b[0m", "\x1b[m", "\x1b[%dm" % rnd.choice([31, 32, 33, 34, 35, 36, 91, 94]),
        "\x1b[38;5;%dm" % n(), "\x1b[48;5;%dm" % n(), "\x1b[38;2;%d;%d;%dm" % (n(), n(), n()),
        "\x1b[48;2;%d;%d;%dm" % (n(), n(), n()), "\x1b[38:2::%d:%d:%dm" % (n(), n(), n()),
        "\x1b[38:5:%dm" % n(), "\x1b[4:3m", "\x1b[7m", "\x1b[22m", "\x1b[39;49m", "\x1b[2m",
        "\x1b[3m", "\x1b[9m", "\x1b[1m", "\x1b[27m", "\x1b[24m", "\x1b[58;5;%dm" % n(), "\x1b[0;1;4;35m",
        "\x1b[;31m", "\x1b[38;5m", "\x1b[21m"])


def fuzz_move(rnd, cols):
    k = rnd.choice(["", "0", "1", str(rnd.randint(2, 12))])
    return rnd.choice(["\x1b[%sD" % k, "\x1b[%sC" % k, "\x1b[%sG" % rnd.choice(["", str(rnd.randint(1, cols + 5))]),
                       "\x1b[K", "\x1b[0K", "\x1b[1K", "\x1b[2K"])


AVOIDABLE = {"seps": "U+2028 and U+2029", "zwj": "ZWJ", "broken": "broken UTF-8", "moves": "cursor moves and EL",
             "controls": "CR, TAB, BS", "specials": "BOM, soft hyphen, ZWSP, ZWNJ, WJ, U+2028/9, lone marks",
             "sgr": "SGR", "emoji": "emoji", "wide": "CJK"}


def fuzz_stream(rnd, cols, zwj=True, avoid=()):
    """200-2000 bytes of random text. Without `zwj` no ZWJ at all: tmux 3.3a shows a ZWJ sequence
    differently depending on its reads, so such cases are often inconclusive (split-dependent).
    `avoid` names kinds of content left out (AVOIDABLE), to look past a failure already known."""
    target = rnd.randint(200, 2000)
    out = bytearray()
    tokens = []
    zwj = zwj and "zwj" not in avoid
    off = lambda name, w: 0 if name in avoid else w
    kinds = [("word", 30), ("newline", 5), ("accent", 6), ("cjk", off("wide", 6)), ("emoji", off("emoji", 7)),
             ("special", off("specials", 4)), ("zwj-then", 3 if zwj and "emoji" not in avoid else 0),
             ("control", off("controls", 5)), ("sgr", off("sgr", 9)), ("move", off("moves", 4)),
             ("broken", off("broken", 2)), ("long", 2)]
    total = sum(w for _, w in kinds)
    while len(out) < target:
        r = rnd.uniform(0, total)
        for kind, w in kinds:
            r -= w
            if r <= 0:
                break
        if kind == "word":
            s = rnd.choice(FUZZ_WORDS) + rnd.choice([" ", " ", " ", ", ", ". "])
        elif kind == "newline":
            s = "\n"
        elif kind == "accent":
            s = rnd.choice(ACCENTED)
        elif kind == "cjk":
            s = "".join(rnd.choice(CJK) for _ in range(rnd.randint(1, 4)))
        elif kind == "emoji":
            s = rnd.choice([e for e in EMOJI if zwj or "\u200d" not in e])
        elif kind == "special":
            s = rnd.choice([c for c in SPECIAL if (zwj or c != "\u200d") and
                            ("seps" not in avoid or c not in "\u2028\u2029")])
        elif kind == "zwj-then":
            s = rnd.choice(["👨", "🏳️", "a", "👩🏽"]) + "\u200d" + rnd.choice(
                ["\r", "\n", "\x1b[C", "\x1b[D", "\ufeff", "\x1b[31m", "\t", "\b", "\x1b[K"]) + rnd.choice(["👩", "x", "🌈", ""])
        elif kind == "control":
            s = rnd.choice(CONTROLS)
        elif kind == "sgr":
            s = fuzz_sgr(rnd)
        elif kind == "move":
            s = fuzz_move(rnd, cols)
        elif kind == "long":
            s = " ".join(rnd.choice(FUZZ_WORDS) for _ in range(rnd.randint(15, 40))) + " "
        if kind == "broken":
            b = rnd.choice(BROKEN)
        else:
            b = s.encode("utf-8")
        tokens.append(b)
        out += b
    if rnd.random() < 0.5:
        out += b"\n"
    return bytes(out)


def fuzz_split(rnd, data):
    """Random reads of `data` (any byte may be a cut), each 0-50 ms after the last (0 a third of the
    time, so several coalesce)."""
    n = len(data)
    reads = rnd.randint(3, 40)
    cuts = sorted(rnd.sample(range(1, n), min(reads - 1, n - 1))) if n > 1 else []
    bounds = [0] + cuts + [n]
    chunks = []
    for a, b in zip(bounds, bounds[1:]):
        delay = 0.0 if rnd.random() < 0.33 else rnd.uniform(0, 50)
        chunks.append((round(delay, 1), data[a:b]))
    return chunks


def run_script_pair(opts, work, tag, runs):
    """runs: [(name, chunks, program, args)], run side by side, each in its own server; returns
    {name: (colours capture, Try, (cursor column, cursor row))} after each program exited and its
    screen settled (the cursor is where the `#` written after the program left it)."""
    tries = {}
    try:
        for name, chunks, prog, args in runs:
            t = Try(opts, work, "%s-%s" % (tag, name), chunks, 1.0, prog, args)
            tries[name] = t
            t.script("printf '#'")
        out = {}
        for name, chunks, _, _ in runs:
            t = tries[name]
            wait_until(t.done, duration(chunks, 1.0) + 30, "%s to exit" % name, 0.02)
        for name, _, _, _ in runs:
            srv = tries[name].srv
            cap = wait_stable(srv)
            x, y = srv.tmux("display", "-p", "-t", "s", "#{cursor_x} #{cursor_y}").split()
            out[name] = (cap, tries[name], (int(x), int(y)))
        return out
    finally:
        for t in tries.values():
            t.kill()


def fuzz_case(opts, work, index, seed):
    rnd = random.Random("tmux-check/fuzz/%s/%d" % (seed, index))
    cols = rnd.choice([10, 20, 33, 40, 80])
    rows = rnd.choice([5, 8, 24])
    zwj = rnd.random() < 0.4
    data = fuzz_stream(rnd, cols, zwj, opts.avoid)
    chunks = fuzz_split(rnd, data)
    prog, args = program_for(opts)
    if os.path.basename(prog) != "cat" and not opts.args_given:
        args = ["--cps", "2000"] if rnd.random() < 0.8 else []
    case = {"class": "fuzz", "seed": seed, "index": index, "cols": cols, "rows": rows, "zwj": zwj, "bin": opts.bin,
            "args": args, "schedule": [[d, c.hex()] for d, c in chunks]}
    return run_fuzz_case(opts, work, case, rnd)


def run_fuzz_case(opts, work, case, rnd):
    chunks = [(d, bytes.fromhex(h)) for d, h in case["schedule"]]
    sub = argparse.Namespace(**vars(opts))
    sub.cols, sub.rows = case["cols"], case["rows"]
    tag = "f%s-%05d" % (case["seed"], case["index"])
    try:
        got = run_script_pair(sub, work, tag, [("tw", chunks, case["bin"], case["args"]),
                                               ("cat", chunks, "cat", [])])
    except Hang as e:
        case.update(labels=["hang"], detail=str(e))
        return "fail", case, None, "", ""
    tw, tw_try, _ = got["tw"]
    cat, _, _ = got["cat"]
    a, b = parse_capture(cat), parse_capture(tw)
    if a == b:
        return "same", case, tw_try, tw, cat
    # Does cat agree with itself under other read splits? (one write; another random split; the same
    # reads again: their timing alone can join or part writes where tmux reads them)
    data = b"".join(c for _, c in chunks)
    alt_rnd = random.Random("tmux-check/fuzz-alt/%s/%d" % (case["seed"], case["index"]))
    alts = [("one", [(0.0, data)]), ("resplit", fuzz_split(alt_rnd, data)), ("again", chunks)]
    try:
        got_alt = run_script_pair(sub, work, tag + "-alt", [(n, c, "cat", []) for n, c in alts])
    except Hang as e:
        case.update(labels=["hang"], detail="cat with another split: %s" % e)
        return "fail", case, tw_try, tw, cat
    same_as = [n for n, _ in alts if parse_capture(got_alt[n][0]) == b]
    if same_as:
        case["same_as_split"] = same_as
        return "same-other", case, tw_try, tw, cat
    split = [n for n, _ in alts if parse_capture(got_alt[n][0]) != a]
    labels = set()
    ta = [row_text(r) for r in a]
    tb = [row_text(r) for r in b]
    if ta != tb:
        loose = zwj_components(data.decode("utf-8", errors="replace"))
        labels |= text_labels("\n".join(ta), "\n".join(tb), loose) or {"zwj-split"}
    else:
        labels.add("colour")
    fade = styles_of(b) - styles_of(a) - {DEFAULT}
    if fade:
        labels.add("fade-colour")
    case.update(labels=sorted(labels),
                detail="fade styles: %s" % "; ".join(sorted(describe_style(s) for s in fade)) if fade else "")
    if "\u200d".encode() in data and not (fade and fade_colours(fade, data)):
        # tmux 3.3a shows a ZWJ sequence differently for reads that fall differently, even for cat
        # with the same reads, and a cursor move after it then lands elsewhere (the sanity runs saw
        # both; a character joined into the cell before it takes that cell's colours, so a colour
        # of the input's own can go missing from cat's screen): with a ZWJ in the stream only a
        # colour the input never sets is charged to the program.
        split = split or ["zwj"]
    if split:
        case["split_dependent"] = split
        case["cat_alt"] = {n: got_alt[n][0] for n in split if n in got_alt}
        return "split", case, tw_try, tw, cat
    return "fail", case, tw_try, tw, cat


# ------------------------------------------------------------------------------------------------
# shrink: a failing fuzz case made small


UNIT = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|\x1b[ -/]*[0-~]|"
                  rb"[\xc0-\xf7][\x80-\xbf]{0,3}|[\x00-\xff]", re.S)


def units_of(chunks):
    """[(read starts here: delay ms or None, bytes)]: escape sequences and characters kept whole."""
    out = []
    for delay, data in chunks:
        first = True
        for m in UNIT.finditer(data):
            out.append((delay if first else None, m.group(0)))
            first = False
    return out


def chunks_of(units):
    chunks = []
    for delay, b in units:
        if delay is not None or not chunks:
            chunks.append((delay or 0.0, bytearray(b)))
        else:
            chunks[-1][1].extend(b)
    return [(d, bytes(b)) for d, b in chunks]


def fuzz_fails(opts, work, case, chunks, tag):
    """typewrite differs from cat under the same reads, and cat in one write agrees with cat."""
    sub = argparse.Namespace(**vars(opts))
    sub.cols, sub.rows = case["cols"], case["rows"]
    data = b"".join(c for _, c in chunks)
    try:
        got = run_script_pair(sub, work, tag, [("tw", chunks, case["bin"], case["args"]),
                                               ("cat", chunks, "cat", []), ("one", [(0.0, data)], "cat", [])])
    except Hang:
        return True
    tw, cat, one = (parse_capture(got[n][0]) for n in ("tw", "cat", "one"))
    return tw != cat and cat == one and tw != one


def cmd_shrink(opts):
    """Removes pieces of a failing fuzz case's stream (whole reads, then runs of characters and
    escape sequences), then joins reads and drops delays, while typewrite still differs from cat
    (and cat agrees with itself in one write); saves the result as a case next to the original."""
    with open(os.path.join(opts.case, "case.json")) as f:
        case = json.load(f)
    if case.get("class") != "fuzz":
        print("tmux-check: shrink takes a fuzz case", file=sys.stderr)
        return 2
    if opts.bin_given:
        case["bin"] = opts.bin
    work = tempfile.mkdtemp(prefix="tmux-check-")
    n = [0]

    def fails(units):
        chunks = chunks_of(units)
        if not chunks:
            return False
        for _ in range(opts.attempts):
            n[0] += 1
            if fuzz_fails(opts, work, case, chunks, "s%04d" % n[0]):
                return True
        return False
    try:
        units = units_of([(d, bytes.fromhex(h)) for d, h in case["schedule"]])
        if not fails(units):
            print("the case does not fail now; nothing to shrink")
            return 1
        size = len(units) // 2
        while size >= 1:
            i, changed = 0, False
            while i < len(units):
                trial = units[:i] + units[i + size:]
                if i + size < len(units) and units[i][0] is not None and trial[i:i + 1] and trial[i][0] is None:
                    trial[i] = (units[i][0], trial[i][1])
                if trial and fails(trial):
                    units, changed = trial, True
                    print("  %d units, %d reads (%d runs)" % (len(units), len(chunks_of(units)), n[0]), flush=True)
                else:
                    i += size
            if not changed:
                size //= 2
        for i in range(1, len(units)):
            if units[i][0] is not None:
                trial = units[:i] + [(None, units[i][1])] + units[i + 1:]
                if fails(trial):
                    units = trial
        for i in range(len(units)):
            if units[i][0]:
                trial = units[:i] + [(0.0, units[i][1])] + units[i + 1:]
                if fails(trial):
                    units = trial
        chunks = chunks_of(units)
        again = sum(1 for _ in range(3) if fuzz_fails(opts, work, case, chunks_of(units), "again%d" % _))
        small = dict(case, schedule=[[d, c.hex()] for d, c in chunks], shrunk_from=os.path.abspath(opts.case),
                     reproduced="%d of 3" % again)
        for k in ("labels", "detail", "kept", "split_dependent", "cat_alt", "same_as_split"):
            small.pop(k, None)
        out = opts.case.rstrip("/") + "-small"
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "case.json"), "w") as f:
            json.dump(small, f, indent=1)
        print("shrunk to %d reads, %d bytes, reproduced %d of 3 (%d runs): %s" % (
            len(chunks), sum(len(c) for _, c in chunks), again, n[0], out))
        for d, c in chunks:
            print("  after %5.1f ms: %r" % (d, c))
        return 0
    finally:
        if not opts.keep_work:
            shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------------------------
# probe: what tmux does with the inputs terminals disagree on, and whether typewrite leaves the same


M, W, Z = "\U0001f468", "\U0001f469", "\u200d"
PROBES = [
    # (name, reads 80 ms apart, columns)
    ("U+2028 LINE SEPARATOR", ["ab\u2028cd"], 20),
    ("U+2029 PARAGRAPH SEPARATOR", ["ab\u2029cd"], 20),
    ("BOM mid-line", ["ab\ufeffcd"], 20),
    ("soft hyphen", ["ab\u00adcd"], 20),
    ("ZWSP", ["ab\u200bcd"], 20),
    ("VS16 after a text-default emoji", ["ab\u2764\ufe0fcd"], 20),
    ("ZWJ sequence, one read", ["ab" + M + Z + W + "cd"], 20),
    ("ZWJ ends a read", ["ab" + M + Z, W + "cd"], 20),
    ("ZWJ starts a read", ["ab" + M, Z + W + "cd"], 20),
    ("ZWJ alone in a read", ["ab" + M, Z, W + "cd"], 20),
    ("ZWJ then CR, one read", ["ab" + M + Z + "\r" + W + "cd"], 20),
    ("ZWJ then CR, CR in the next read", ["ab" + M + Z, "\r" + W + "cd"], 20),
    ("ZWJ then LF, one read", ["ab" + M + Z + "\n" + W + "cd"], 20),
    ("ZWJ then CUF, one read", ["ab" + M + Z + "\x1b[C" + W + "cd"], 20),
    ("ZWJ then CUB, one read", ["ab" + M + Z + "\x1b[D" + W + "cd"], 20),
    ("ZWJ then CHA, one read", ["ab" + M + Z + "\x1b[1G" + W + "cd"], 20),
    ("ZWJ then EL, one read", ["ab" + M + Z + "\x1b[K" + W + "cd"], 20),
    ("ZWJ then SGR, one read", ["ab" + M + Z + "\x1b[31m" + W + "cd"], 20),
    ("ZWJ then SGR, SGR in the next read", ["ab" + M + Z, "\x1b[31m" + W + "cd"], 20),
    ("ZWJ then BOM, one read", ["ab" + M + Z + "\ufeff" + W + "cd"], 20),
    ("ZWJ then TAB, one read", ["ab" + M + Z + "\t" + W + "cd"], 20),
    ("ZWJ then BS, one read", ["ab" + M + Z + "\b" + W + "cd"], 20),
    ("ZWJ at the start of the screen", [Z + "ab" + W + "cd"], 20),
    ("cluster longer than 21 bytes", ["ab" + M + Z + W + Z + "\U0001f467" + Z + "\U0001f466" + "cd"], 20),
    ("skin tone in the next read", ["ab\U0001f44d", "\U0001f3fdcd"], 20),
    ("combining mark in the next read", ["abe", "\u0301cd"], 20),
    ("second regional indicator in the next read", ["ab\U0001f1ef", "\U0001f1f5cd"], 20),
    ("wide character that does not fit the last column", ["123456789\u6f22cd"], 10),
    ("text ends exactly in the last column", ["1234567890"], 10),
    ("UTF-8 cut by CR", [b"ab\xc3", b"\r\xa9cd"], 20),
]


def cmd_probe(opts):
    """Runs each probe through cat and the program; prints cat's row (`#` marks where the cursor was
    left; invisible characters as \\uXXXX) and whether the program left the same screen."""
    work = tempfile.mkdtemp(prefix="tmux-check-")
    prog, args = program_for(opts)
    if os.path.basename(prog) != "cat" and not opts.args_given:
        args = ["--cps", "2000"]
    differing = 0
    try:
        for k, (name, reads, cols) in enumerate(PROBES):
            chunks = [(80.0 if i else 0.0, r if isinstance(r, bytes) else r.encode("utf-8"))
                      for i, r in enumerate(reads)]
            sub = argparse.Namespace(**vars(opts))
            sub.cols, sub.rows = cols, 5
            got = run_script_pair(sub, work, "p%02d" % k, [("cat", chunks, "cat", []), ("tw", chunks, prog, args)])
            cat_rows, tw_rows = parse_capture(got["cat"][0]), parse_capture(got["tw"][0])
            same = cat_rows == tw_rows
            differing += not same

            def show(rows):
                t = " / ".join(row_text(r) for r in rows)
                return "".join(c if c.isprintable() and c not in "\u00ad\u200b" else "\\u%04x" % ord(c) for c in t)
            print("%-50s %-44s cat: %s  (cursor at column %d)" % (
                name, " | ".join(ascii(r).lstrip("b")[1:-1] for r in reads)[:44], show(cat_rows), got["cat"][2][0] - 1))
            if not same:
                print("%-50s %-44s %s: %s  (cursor at column %d)" % ("", "", os.path.basename(prog), show(tw_rows),
                                                                      got["tw"][2][0] - 1))
            print("%-50s %-44s %s" % ("", "", "same" if same else "DIFFERS"), flush=True)
    finally:
        if not opts.keep_work:
            shutil.rmtree(work, ignore_errors=True)
    print("probe: %d probes, %d where %s differs from cat" % (len(PROBES), differing, os.path.basename(prog)))
    return differing


# ------------------------------------------------------------------------------------------------
# driver


def keep_case(opts, info, t, got, want, name):
    if not opts.keep:
        return None
    d = os.path.join(opts.keep, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(info, f, indent=1, ensure_ascii=False, default=list)
    if t is not None:
        for fn in ("schedule.trace", "pane.log", "feed.log"):
            src = os.path.join(t.dir, fn)
            if os.path.exists(src):
                shutil.copy(src, os.path.join(d, fn))
        try:
            data = b"".join(c for _, c in load_trace(t.trace))
            with open(os.path.join(d, "input.bin"), "wb") as f:
                f.write(data)
        except OSError:
            pass
    with open(os.path.join(d, "typewrite.capture"), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(got or "")
    with open(os.path.join(d, "cat.capture"), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(want or "")
    with open(os.path.join(d, "diff.txt"), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(short_diff(want or "", got or "") + "\n")
    return d


def summarise(kind, results, extra=""):
    total = len(results)
    bad = [r for r in results if r[0] is False]
    missed = len([r for r in results if r[0] is None])
    soft = {}
    for status, info in results:
        if status == "soft":
            for lab in info.get("labels", []):
                soft[lab] = soft.get(lab, 0) + 1
    counts = {}
    for _, info in bad:
        for lab in info.get("labels", ["?"]):
            counts[lab] = counts.get(lab, 0) + 1
    parts = ", ".join("%s %d" % kv for kv in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    n_soft = len([r for r in results if r[0] == "soft"])
    print("%s: %d tries, %d clean%s, %d failing%s%s%s" % (
        kind, total, total - len(bad) - missed,
        (" (%d of them only as cat for another read split or flush: %s)" % (
            n_soft, ", ".join("%s %d" % kv for kv in sorted(soft.items())))) if n_soft else "",
        len(bad), (": " + parts) if parts else "",
        (", %d missed (the program had exited before the key)" % missed) if missed else "", extra))
    return len(bad)


def every_try(opts, work, one):
    """one(i) for every try, --jobs at once; then the work folder goes (unless --keep-work)."""
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
            list(ex.map(one, range(opts.tries)))
    finally:
        if not opts.keep_work:
            shutil.rmtree(work, ignore_errors=True)


def run_tries(opts, kind, fn):
    inputs = all_inputs(opts.cols, opts.trace)
    if opts.input:
        inputs = {k: v for k, v in inputs.items() if k in opts.input.split(",")}
        if not inputs:
            raise Harness("no input named %s" % opts.input)
    work = tempfile.mkdtemp(prefix="tmux-check-")
    cache = RefCache()
    results = []
    lock = threading.Lock()

    def one(i):
        if STOP.is_set():
            return
        rnd = random.Random("tmux-check/%s/%s/%d" % (kind, opts.seed, i))
        try:
            clean, info, t, got, want = fn(opts, work, cache, inputs, i, rnd)
        except (Harness, Hang) as e:
            label = "hang" if isinstance(e, Hang) else "harness"
            clean, info, t, got, want = False, {"class": kind, "labels": [label], "detail": str(e)}, None, "", ""
        info["try"] = i
        info["seed"] = opts.seed
        if clean is not True and clean is not None:
            info["kept"] = keep_case(opts, info, t, got, want, "%s-%s-%04d" % (kind, opts.seed, i))
        with lock:
            results.append((clean, info))
            if opts.verbose or clean is False:
                print("  %s try %d: %s %s%s" % (kind, i, "clean" if clean is True else ",".join(info.get("labels", [])),
                                              info.get("input", ""), (" (%s)" % info["detail"]) if info.get("detail") and opts.verbose else ""),
                      flush=True)
        return clean

    every_try(opts, work, one)
    results.sort(key=lambda r: r[1]["try"])
    return results


def cmd_fuzz(opts):
    work = tempfile.mkdtemp(prefix="tmux-check-")
    counts = {"same": 0, "same-other": 0, "fail": 0, "split": 0}
    results = []
    lock = threading.Lock()

    def one(i):
        if STOP.is_set():
            return
        try:
            verdict, case, t, got, want = fuzz_case(opts, work, i, opts.seed)
        except (Harness, Hang) as e:
            verdict, case, t, got, want = "fail", {"class": "fuzz", "index": i,
                                                   "labels": ["hang" if isinstance(e, Hang) else "harness"],
                                                   "detail": str(e)}, None, "", ""
        if verdict in ("fail", "split"):
            name = "fuzz-%s-%05d%s" % (opts.seed, i, "-split" if verdict == "split" else "")
            case["kept"] = keep_case(opts, case, t, got, want, name)
        with lock:
            counts[verdict] += 1
            results.append((verdict, case))
            if verdict == "fail" or opts.verbose:
                print("  fuzz case %d: %s %s" % (i, {"same": "identical", "same-other": "identical to cat under another split",
                                                     "split": "split-dependent", "fail": "differs"}[verdict],
                                                ",".join(case.get("labels", []))), flush=True)

    every_try(opts, work, one)
    bad = {}
    for verdict, case in results:
        if verdict == "fail":
            for lab in case.get("labels", []):
                bad[lab] = bad.get(lab, 0) + 1
    parts = ", ".join("%s %d" % kv for kv in sorted(bad.items(), key=lambda kv: (-kv[1], kv[0])))
    zwj = sum(1 for v, c in results if v == "split" and c.get("split_dependent") == ["zwj"])
    print("fuzz: %d cases, %d identical (%d of them to cat under another read split), %d differing (typewrite)%s, "
          "%d split-dependent (typewrite matches no cat, and cat differs with itself%s)"
          % (opts.tries, counts["same"] + counts["same-other"], counts["same-other"], counts["fail"],
             (": " + parts) if parts else "", counts["split"],
             (", or, in %d, the stream holds a ZWJ and no fade colour is left" % zwj) if zwj else ""))
    return counts["fail"]


def cmd_replay(opts):
    with open(os.path.join(opts.case, "case.json")) as f:
        case = json.load(f)
    if opts.bin_given:
        case["bin"] = opts.bin
    opts.cols, opts.rows = case.get("cols", opts.cols), case.get("rows", opts.rows)
    work = tempfile.mkdtemp(prefix="tmux-check-")
    try:
        kind = case["class"]
        if kind == "fuzz":
            for k in ("labels", "detail", "split_dependent", "cat_alt", "kept"):
                case.pop(k, None)
            verdict, info, t, got, want = run_fuzz_case(opts, work, case, None)
            clean = verdict in ("same", "same-other")
            print("fuzz case: %s %s" % ({"same": "identical", "same-other": "identical to cat under another split",
                                         "fail": "differs", "split": "split-dependent"}[verdict],
                                        ",".join(info.get("labels", []))))
        else:
            opts.bin = case["bin"]
            opts.args = " ".join(shlex.quote(a) for a in case.get("args", []))
            inputs = all_inputs(opts.cols, opts.trace)
            name = case["input"]
            if name not in inputs:
                raise Harness("input %s is not known" % name)
            if kind == "ctrl-c":
                clean, info, t, got, want = run_ctrl_c(opts, work, RefCache(), inputs, 0, name, case["at"])
            elif kind == "resize":
                clean, info, t, got, want = run_resize(opts, work, inputs, 0, name,
                                                       [tuple(e) for e in case["resizes"]])
            elif kind == "suspend":
                clean, info, t, got, want = run_suspend(opts, work, RefCache(), inputs, 0, name, case["at"],
                                                        case["echo_line"], case.get("pause", 0.3))
            else:
                raise Harness("unknown class %s" % kind)
            print("%s: %s %s %s" % (kind, "clean" if clean else "failing", ",".join(info.get("labels", [])),
                                     info.get("detail", "")))
            if info.get("after_echo") is not None:
                print("after the echo: %s" % json.dumps(info["after_echo"], ensure_ascii=False))
        if not clean:
            print(short_diff(want or "", got or ""))
        if opts.keep:
            print("kept in %s" % keep_case(opts, info, t, got, want, "replay-" + os.path.basename(opts.case.rstrip("/"))))
        return 0 if clean else 1
    finally:
        if not opts.keep_work:
            shutil.rmtree(work, ignore_errors=True)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_feed":
        return feed_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("command", choices=["ctrl-c", "resize", "suspend", "fuzz", "replay", "shrink", "probe"])
    ap.add_argument("case", nargs="?", help="replay, shrink: a case directory saved by --keep")
    ap.add_argument("--bin", help="the program to judge (default .build/release/typewrite; `cat` for sanity)")
    ap.add_argument("--args", help="arguments for typewrite (default: none; fuzz: --cps 2000 or none)")
    ap.add_argument("--tries", type=int, default=None, help="tries (fuzz: cases); default 20 (fuzz 100)")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=1, help="tries run side by side, each in its own tmux server")
    ap.add_argument("--keep", help="save each failing case in a directory under KEEP")
    ap.add_argument("--keep-work", action="store_true", help="leave the temporary work directory")
    ap.add_argument("--cols", type=int, default=80)
    ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--term", help="default-terminal for the panes (default: tmux's own)")
    ap.add_argument("--input", help="only these inputs (comma separated names)")
    ap.add_argument("--trace", action="append", default=[], metavar="FILE[:SPEED]",
                    help="another input: a trace file (JSON lines {delay_ms, hex}), named by its file name")
    ap.add_argument("--at", type=float, help="ctrl-c, suspend: the key this many seconds after the feeder starts")
    ap.add_argument("--candidates", type=int, default=4, help="ctrl-c: chunk boundaries tried as prefixes")
    ap.add_argument("--avoid", default="", help="fuzz: leave out these kinds of content (comma separated: %s)"
                    % ", ".join(sorted(AVOIDABLE)))
    ap.add_argument("--attempts", type=int, default=1,
                    help="shrink: a smaller case still fails when one of this many runs fails (for flaky ones)")
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux-check: tmux is not installed", file=sys.stderr)
        return 2
    opts.avoid = set(a for a in opts.avoid.split(",") if a)
    if opts.avoid - set(AVOIDABLE):
        print("tmux-check: --avoid takes %s" % ", ".join(sorted(AVOIDABLE)), file=sys.stderr)
        return 2
    opts.bin_given = opts.bin is not None
    opts.args_given = opts.args is not None
    if opts.args is None:
        opts.args = ""
    if opts.bin is None:
        opts.bin = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".build", "release", "typewrite")
    resolved = shutil.which(opts.bin) if os.sep not in opts.bin else opts.bin
    if not resolved or not os.access(resolved, os.X_OK):
        print("tmux-check: %s is not an executable" % opts.bin, file=sys.stderr)
        return 2
    opts.bin = os.path.abspath(resolved)
    if opts.tries is None:
        opts.tries = 100 if opts.command == "fuzz" else 20
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, stop)
    started = time.monotonic()
    try:
        if opts.command in ("replay", "shrink"):
            if not opts.case:
                print("tmux-check: %s needs a case directory" % opts.command, file=sys.stderr)
                return 2
            return cmd_replay(opts) if opts.command == "replay" else cmd_shrink(opts)
        if opts.command == "probe":
            failing = cmd_probe(opts)
            opts.tries = len(PROBES)
        elif opts.command == "fuzz":
            failing = cmd_fuzz(opts)
        else:
            fn = {"ctrl-c": ctrl_c_try, "resize": resize_try, "suspend": suspend_try}[opts.command]
            results = run_tries(opts, opts.command, fn)
            failing = summarise(opts.command, results)
        took = time.monotonic() - started
        if STOP.is_set():
            print("tmux-check: stopped", file=sys.stderr)
            return 2
        print("%s (%d of %d failing; %.0f s)" % ("FAIL" if failing else "PASS", failing, opts.tries, took))
        return 1 if failing else 0
    except Harness as e:
        print("tmux-check: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 2
    finally:
        kill_all_servers()


if __name__ == "__main__":
    sys.exit(main())
