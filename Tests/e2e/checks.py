#!/usr/bin/env python3
"""End-to-end checks of the typewrite binary that need a pty, timing, signals or descriptor
flags. Standard library only.

    checks.py TYPEWRITE [NAME-SUBSTRING...]

prints one line per check, `ok - name`, `ok - name # SKIP reason` or `not ok - name: detail`,
and exits 0. Tests/e2e.sh runs it and counts the lines. Timing bounds carry margins for a
loaded 2-core CI machine; each failure line says what was measured.
"""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptyrun import MONO, Run, Screen, plain_text_of, proc_cpu_ticks, proc_state, set_nonblocking  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TRACES = os.path.join(REPO, "Tests", "traces")
FULL = os.environ.get("TYPEWRITE_E2E_FULL") == "1"
FRAME = 1.0 / 60


class Skip(Exception):
    pass


def base_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "REDUCED_MOTION", "COLUMNS", "LINES", "COLORFGBG")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor")
    env.update(extra)
    return env


WORDS = ("tide pools hold small worlds of anemones barnacles mussels and snails that wait out the "
         "low water in damp crevices while the sun warms the rock and the salt grows stronger "
         "until cold seawater floods back in and everything opens up to feed again").split()


def prose(n, seed=1):
    """Deterministic ASCII prose of about n bytes, lines of at most 72 characters, ending in LF."""
    out, line, i = [], "", seed
    total = 0
    while total < n:
        i = (i * 1103515245 + 12345) & 0x7FFFFFFF
        w = WORDS[i % len(WORDS)]
        if len(line) + len(w) + 1 > 72:
            out.append(line + "\n")
            total += len(line) + 1
            line = w
        else:
            line = (line + " " + w) if line else w
    out.append(line + "\n")
    return "".join(out).encode()


def sig_status_ok(status, signo):
    return status in (-signo, 128 + signo)


def fmt(x):
    return "None" if x is None else "%.3f" % x


def finish(r, timeout):
    try:
        r.wait(timeout)
    finally:
        r.close()
    return r


# ------------------------------------------------------------------------------------------------
# pipes

def check_slow_producer(tw):
    """A producer writing a line every 300 ms: each line appears downstream as it arrives."""
    lines = [b"line %d of a slow producer\n" % k for k in range(5)]
    r = Run([tw], stdout="pipe", env=base_env()).start()
    t0 = MONO()
    r.feed_schedule([(0.3 * k, l) for k, l in enumerate(lines)])
    finish(r, 10)
    if r.output != b"".join(lines):
        return "output differs from input: %r" % bytes(r.output[:200])
    lags, total, ends = [], 0, []
    for l in lines:
        total += len(l)
        ends.append(total)
    k, seen = 0, 0
    for t, n in r.chunks:
        seen += n
        while k < len(ends) and seen >= ends[k]:
            lags.append(t - (t0 + 0.3 * k))
            k += 1
    if max(lags) > 0.25:
        return "a line appeared late downstream: lags %s s (bound 0.25)" % [round(x, 3) for x in lags]
    if r.status != 0:
        return "status %s" % r.status
    return None


def check_broken_pipe_counting(tw, args, label, strict=False, idle=False):
    """The reader leaves after 3 lines: typewrite dies by SIGPIPE within 1 s, quietly, and does not
    read the rest of the input (the producer counts what it could write)."""
    env = base_env(COLUMNS="80")
    r = Run([tw] + args, stdout="pipe", env=env).start()
    total = 64 << 20
    if idle:
        r.feed_schedule([(0, b"one\ntwo\nthree\n")], eof=False)
    else:
        chunk = b"".join(b"line %07d of a long stream that nobody reads to the end\n" % k for k in range(1100))[:65536]
        r.feed_schedule([(0, chunk)] * (total // len(chunk)), eof=False)
    if not r.pump_until(lambda: r.output.count(b"\n") >= 3, 10):
        r.kill(signal.SIGKILL)
        finish(r, 2)
        return "fewer than 3 lines came out in 10 s"
    if idle:
        r.pump(0.3)  # all shown; typewrite now sleeps in poll
    t_close = MONO()
    r.close_output()
    r.pump_until(r.exited, 5)
    fed = r.fed
    exited = r.exited()
    finish(r, 3)
    problems = []
    if not sig_status_ok(r.status, signal.SIGPIPE):
        problems.append("status %s, expected SIGPIPE (-13/141)" % r.status)
    if exited and r.exit_time - t_close > 1.0:
        problems.append("died %.3f s after the reader left (bound 1 s)" % (r.exit_time - t_close))
    if r.stderr:
        problems.append("stderr: %r" % bytes(r.stderr[:200]))
    if not idle and fed >= total:
        problems.append("the producer could write all %d bytes: the rest of the input was read" % total)
    if problems:
        return "; ".join(problems) + " (producer wrote %.1f MiB)" % (fed / 2**20)
    return None


def check_stdout_nonblocking(tw, args):
    """stdout is a pipe someone made non-blocking, read slowly: EAGAIN waits, nothing is lost."""
    data = os.urandom(2 << 20)
    r = Run([tw] + args, stdout="pipe", env=base_env(COLUMNS="80"), stdout_pipe_nonblocking=True).start()
    r.read_size, r.read_pause = 4096, 0.001
    r.feed_schedule([(0, data)])
    finish(r, 60)
    if r.status != 0:
        return "status %s, stderr %r" % (r.status, bytes(r.stderr[:300]))
    if bytes(r.output) != data:
        return "output differs: %d bytes out of %d" % (len(r.output), len(data))
    return None


def check_timestamps_arrival(tw, stdout, args):
    """--timestamps when not animating: a line 2 s after the one before is stamped with its own
    arrival, not with the time the one before ended (the read that waits for it comes first)."""
    r = Run([tw, "--timestamps=%.s"] + args, stdout=stdout, env=base_env()).start()
    sent = []

    def feed():
        for k, line in enumerate([b"one\n", b"two\n", b"three\n"]):
            if k:
                time.sleep(2.0)
            sent.append(time.time())
            r.send(line)
        r.close_stdin()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    finish(r, 20)
    feeder.join(5)
    if r.status != 0:
        return "status %s" % r.status
    stamps = re.findall(rb"(\d+\.\d{6}) (one|two|three)\r?\n", bytes(r.output))
    if [w for _, w in stamps] != [b"one", b"two", b"three"] or len(sent) != 3:
        return "output %r" % bytes(r.output[:200])
    offsets = [float(s) - t for (s, _), t in zip(stamps, sent)]
    if max(abs(x) for x in offsets) > 1.0:
        return "stamp minus time sent %s s (bound 1 s)" % [round(x, 3) for x in offsets]
    return None


SSE_NO_NEWLINE = (b'data: {"choices":[{"delta":{"content":"See [the docs]"}}]}\n\n'
                  b'data: {"choices":[{"delta":{"content":"(https://example.com/docs)."}}]}\n\ndata: [DONE]\n\n')
ANSWER_NO_NEWLINE = b"See [the docs](https://example.com/docs)."


def check_decoded_line_end(tw, stdout, args, data, want_column):
    """Where the cursor is left after an input without a final newline: a decoded answer ends its
    line on a terminal (column 0, the prompt on a line of its own); raw text stays as cat leaves
    it. Through a pipe and in --tee the bytes are the answer's exact text."""
    with tempfile.TemporaryDirectory() as d:
        tee = os.path.join(d, "tee")
        r = Run([tw, "--tee", tee] + args, stdout=stdout, env=base_env()).start()
        r.feed_schedule([(0, data)])
        finish(r, 15)
        copy = open(tee, "rb").read()
    want = ANSWER_NO_NEWLINE if "--format" in " ".join(args) else data
    if r.status != 0:
        return "status %s" % r.status
    if copy != want:
        return "--tee copy %r, want the exact text %r" % (copy[:120], want)
    if stdout == "pipe":
        return None if bytes(r.output) == want else "pipe got %r, want the exact text" % bytes(r.output[:120])
    s = Screen()
    s.feed(r.output)
    if plain_text_of(bytes(want)).rstrip(b"\n") not in s.text():
        return "screen %r lacks the text" % s.text()[:120]
    if s.col != want_column:
        return "cursor at column %d at exit, want %d" % (s.col, want_column)
    return None


# ------------------------------------------------------------------------------------------------
# --notify

NOTIFY_FIRST = b"Tide pools hold water at low tide."
NOTIFY_KINDS = [  # (label, environment, the bytes the terminal must get)
    ("kitty", {"TERM": "xterm-kitty"},
     b"\x1b]99;i=typewrite:d=0;typewrite\x1b\\\x1b]99;i=typewrite:d=1:p=body;" + NOTIFY_FIRST + b"\x1b\\"),
    ("foot", {"TERM": "foot"}, b"\x1b]777;notify;typewrite;" + NOTIFY_FIRST + b"\x1b\\"),
    ("WezTerm", {"TERM_PROGRAM": "WezTerm"}, b"\x1b]777;notify;typewrite;" + NOTIFY_FIRST + b"\x1b\\"),
    ("iTerm2", {"TERM_PROGRAM": "iTerm.app"}, b"\x1b]9;" + NOTIFY_FIRST + b"\x07"),
    ("tmux", {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"}, b"\x07"),
    ("unknown", {}, b"\x07"),
]


def check_notify(tw):
    """--notify in a pty: a 12-second stream gets the sequence its terminal calls for, with the
    answer's first line, once, at the end; a 2-second stream none; a pipe none. The runs go side
    by side (about 13 s in all)."""
    def run(extra, stdout, seconds):
        r = Run([tw, "--notify"], stdout=stdout, env=base_env(**extra)).start()
        r.feed_schedule([(0, b"\n" + NOTIFY_FIRST + b"\nMore of it.\n"), (seconds / 2, b"Later.\n"), (seconds, b"The end.\n")])
        return finish(r, seconds + 10)
    results = {}
    jobs = [(label, extra, "pty", 12) for label, extra, _ in NOTIFY_KINDS]
    jobs += [("short", {"TERM": "xterm-kitty"}, "pty", 2), ("pipe", {"TERM": "xterm-kitty"}, "pipe", 12)]
    threads = [threading.Thread(target=lambda j=j: results.__setitem__(j[0], run(j[1], j[2], j[3]))) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    problems = []
    queries = re.compile(rb"\x1b\][0-9;]*\?(\x07|\x1b\\\\)")  # typewrite asking for the colours
    for label, _, want in NOTIFY_KINDS:
        r = results[label]
        out = queries.sub(b"", bytes(r.output))
        if r.status != 0:
            problems.append("%s: status %s" % (label, r.status))
        elif not out.endswith(want) or out.count(want) != 1:
            problems.append("%s: output ends %r, want %r once at the end" % (label, out[-80:], want))
        elif want == b"\x07" and re.search(rb"\x1b\](9|99|777);", out):
            problems.append("%s: an OSC notification besides the bell" % label)
    for label in ("short", "pipe"):
        out = queries.sub(b"", bytes(results[label].output))
        if b"\x07" in out or re.search(rb"\x1b\](9|99|777);", out):
            problems.append("%s: a notification %r" % (label, out[-80:]))
    return "; ".join(problems) or None


# ------------------------------------------------------------------------------------------------
# plain mode in a pty

def check_plain_pty(tw, args, env_extra):
    data = prose(3000) + "naïve café — “quotes”\nno newline at the end".encode()
    r = Run([tw] + args, stdout="pty", env=base_env(**env_extra)).start()
    r.feed_schedule([(0, data[:1000]), (0.1, data[1000:])])
    finish(r, 10)
    want = data.replace(b"\n", b"\r\n")
    if r.status != 0:
        return "status %s" % r.status
    if b"\x1b" in r.output:
        i = r.output.index(b"\x1b")
        return "ESC written at byte %d: %r" % (i, bytes(r.output[max(0, i - 20):i + 20]))
    if bytes(r.output) != want:
        return "output differs from input (with LF->CRLF): %d vs %d bytes" % (len(r.output), len(want))
    return None


def check_error_after_partial_line(tw):
    """An error event mid-line in --format sse, stderr on the same pty: the message starts a line."""
    def delta(text):
        return ('data: {"choices":[{"delta":{"content":%s}}]}\n\n' % json.dumps(text)).encode()
    stream = delta("A whole first line.\n") + delta("The answer stops mid") + delta("-line")
    error = b'event: error\ndata: {"error":{"message":"rate limited"}}\n\n'
    r = Run([tw, "--format", "sse"], stdout="pty", stderr="pty", env=base_env()).start()
    r.feed_schedule([(0, stream), (0.3, error)])
    finish(r, 10)
    s = Screen()
    s.feed(r.output)
    lines = s.text().decode("utf-8", "replace").split("\n")
    want = ["A whole first line.", "The answer stops mid-line", "typewrite: the stream reported an error: rate limited"]
    if r.status != 1:
        return "status %s (want 1: the stream failed)" % r.status
    if lines[:3] != want:
        return "screen %r, want %r" % (lines[:4], want)
    return None


def check_unreadable_after_partial_line(tw, args):
    """A file that cannot be read after one that ends mid-line: the message starts a line."""
    with tempfile.TemporaryDirectory() as tmp:
        first = os.path.join(tmp, "first.txt")
        with open(first, "wb") as f:
            f.write(b"one line\nno line feed at the end")
        r = Run([tw] + args + [first, os.path.join(tmp, "missing.txt")], stdout="pty", stderr="pty",
                stdin="null", env=base_env()).start()
        finish(r, 10)
    s = Screen()
    s.feed(r.output)
    lines = s.text().decode("utf-8", "replace").split("\n")
    if r.status != 1:
        return "status %s (want 1)" % r.status
    if lines[:3] != ["one line", "no line feed at the end", "typewrite: %s: No such file or directory"
                     % os.path.join(tmp, "missing.txt")]:
        return "screen %r" % lines[:4]
    return None


def check_reduced_motion_0(tw):
    data = prose(800)
    r = Run([tw], stdout="pty", env=base_env(REDUCED_MOTION="0")).start()
    r.feed_schedule([(0, data)])
    finish(r, 10)
    s = Screen()
    s.feed(r.output)
    if b"\x1b[" not in r.output:
        return "no escape sequences: did not animate"
    if s.text() != plain_text_of(data):
        return "settled text differs from the input"
    if r.status != 0:
        return "status %s" % r.status
    return None


# ------------------------------------------------------------------------------------------------
# signals in a pty

def check_signal_mid_fade(tw, signo, args=(), osc8=False):
    a = prose(1500, seed=2)
    if osc8:
        a = b"Start \x1b]8;;https://example.com/tide\x1b\\linked " + a  # never closed
    b = prose(300, seed=3)
    r = Run([tw] + list(args), stdout="pty", env=base_env()).start()
    r.feed_schedule([(0, a), (0.2, b)], eof=False)
    r.pump(0.45)
    if r.exited():
        finish(r, 1)
        return "exited before the signal (status %s)" % r.status
    r.kill(signo)
    t_sig = r.signals[-1][0]
    r.pump_until(r.exited, 3)
    finish(r, 3)
    s = Screen()
    s.feed(r.output)
    problems = []
    if not sig_status_ok(r.status, signo):
        problems.append("status %s, expected death by signal %d" % (r.status, signo))
    if r.exit_time is None or r.exit_time - t_sig > 0.2:
        problems.append("exit %s s after the signal (bound 0.2)" % fmt(r.exit_time and r.exit_time - t_sig))
    if s.text() != plain_text_of(a + b):
        problems.append("screen does not show all input received (%d of %d lines)"
                        % (len(s.text().split(b"\n")), len(plain_text_of(a + b).split(b"\n"))))
    # cat dies by the signal with the terminal in the input's own SGR state (and its hyperlink
    # open, when it opened one): typewrite leaves the same, and nothing of its own.
    cat = Screen()
    cat.feed(a + b)
    state = lambda x: (x.fg, x.bg, x.intensity, sorted(x.other_attrs), x.link_open)
    if state(s) != state(cat):
        problems.append("terminal left in %r, cat leaves %r: ...%r" % (state(s), state(cat), bytes(r.output[-30:])))
    if s.sync_open:
        problems.append("synchronized output left on")
    if osc8:
        opens = [m.group(1) for m in re.finditer(rb"\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)", bytes(r.output))]
        if not opens or opens[-1] != b"https://example.com/tide":
            problems.append("the input's link not left open as cat leaves it (last OSC 8: %r)" % (opens[-1] if opens else None))
    if r.stderr:
        problems.append("stderr: %r" % bytes(r.stderr[:200]))
    return "; ".join(problems) or None


def check_query_colors_signal(tw, signo):
    """--query-colors changes the terminal's modes while it waits for a reply (up to its cap; this
    pty never answers): a signal then must still leave ICANON and ECHO as they were."""
    import termios
    r = Run([tw, "--query-colors"], stdout="pty", env=base_env(), echo=True).start()
    # Read before the command started: it enters its reply mode at once (CI read it afterwards).
    before = r.initial_attrs[3]
    r.feed_schedule([(0, prose(500))], eof=False)
    # Signal while the query is out (its write follows the mode change; the reply wait is 200 ms).
    r.pump_until(lambda: b"\x1b]11;?" in r.output, 2)
    r.pump(0.02)
    r.kill(signo)
    r.wait(5)
    after = termios.tcgetattr(r.slave)[3]
    r.close()
    problems = []
    for flag in ("ICANON", "ECHO", "ISIG"):
        bit = getattr(termios, flag)
        if before & bit != after & bit:
            problems.append("%s %s after the signal" % (flag, "set" if after & bit else "cleared"))
    if not sig_status_ok(r.status, signo):
        problems.append("status %s" % r.status)
    return "; ".join(problems) or None


def prefix_then_echo(r, data):
    """Problems with a run ended by Ctrl-C whose screen must be a prefix of `data`'s text, whole
    (no hole, nothing doubled), then ^C, the command dead by SIGINT."""
    problems = []
    if not sig_status_ok(r.status, signal.SIGINT):
        problems.append("status %s, expected death by SIGINT" % r.status)
    s = Screen()
    s.feed(r.output)
    text = s.text().rstrip(b"\n")
    # The tty's echo after output cut inside a CSI: its `^` ends that sequence, as after cat's;
    # cut right after an ESC, `ESC ^` is an escape of its own (a PM's start) and `C` is left.
    at = r.output.find(b"^C")
    echo = b"C" if at > 0 and re.search(rb"\x1b(\[[0-9;:?]*)?$", bytes(r.output[:at])) else b"^C"
    if not text.endswith(echo):
        problems.append("the screen does not end in the echo: ...%r" % text[-40:])
    elif not plain_text_of(data).startswith(text[:-len(echo)]):
        at = next(i for i, (x, y) in enumerate(zip(text, plain_text_of(data))) if x != y)
        problems.append("text lost (a hole) or doubled at byte %d: ...%r" % (at, text[max(0, at - 40):at + 40]))
    return problems


def check_key_with_full_queue(tw):
    """Ctrl-C typed while the terminal has stopped reading (its queue full). Without NOFLSH the
    tty discards what typewrite wrote and the terminal had not read yet, and typewrite, writing on
    after the key, would continue after a gap. The screen must hold the text received, whole, then
    the tty's ^C; the tty's settings are left as they were."""
    import termios
    data = b"".join(b"line %04d tide pools hold small worlds of anemones and barnacles\n" % i for i in range(600))
    step = len(data) // 200
    r = Run([tw, "--cps", "5000"], stdout="pty", env=base_env(TYPEWRITE_QUERY_COLORS="never"), echo=True).start()
    before = r.initial_attrs
    r.feed_schedule([(i * 0.03, data[i * step:(i + 1) * step]) for i in range(201)], eof=False)
    r.pump(0.5)
    time.sleep(0.8)  # the terminal reads nothing: typewrite's writes wait in the pty
    os.write(r.master, b"\x03")
    r.pump_until(r.exited, 3)
    r.wait(3)
    after = termios.tcgetattr(r.slave)
    r.close()
    problems = prefix_then_echo(r, data)
    if after != before:
        problems.append("tty settings changed: lflag %#x, was %#x" % (after[3], before[3]))
    return "; ".join(problems) or None


def check_key_after_modes_put_back(tw):
    """Ctrl-C while the terminal has stopped reading, after another program of the job put the
    user's modes back (as sudo or ssh do with the modes they saved, clearing NOFLSH and turning the
    echo on again) while typewrite is blocked writing, so it cannot set NOFLSH again: the tty
    discards what the terminal had not read and echoes ^C where the terminal is. Whatever
    typewrite writes after the key would land after that hole. The screen must be a prefix of the
    text, then ^C: no hole, nothing after the echo."""
    import termios
    data = b"".join(b"line %04d tide pools hold small worlds of anemones and barnacles\n" % i for i in range(600))
    step = len(data) // 200
    r = Run([tw, "--cps", "5000"], stdout="pty", env=base_env(TYPEWRITE_QUERY_COLORS="never"), echo=True).start()
    r.feed_schedule([(i * 0.03, data[i * step:(i + 1) * step]) for i in range(201)], eof=False)
    r.pump(0.5)
    time.sleep(0.8)  # the terminal reads nothing: typewrite's writes wait in the pty, it blocks
    # The other program's modes, put back while typewrite cannot set NOFLSH again; then the key.
    termios.tcsetattr(r.slave, termios.TCSANOW, r.initial_attrs)
    os.write(r.master, b"\x03")
    r.answers_queries = True  # the terminal reads again and answers where its cursor is
    r.pump_until(r.exited, 5)
    r.wait(3)
    r.close()
    return "; ".join(prefix_then_echo(r, data)) or None


def check_keys_typed_mid_fade(tw):
    """Keys typed while text fades (not signal keys). With the tty's echo on they land inside the
    text, where the next repaint, which counts only its own cells, garbles them. The echo is off
    while typewrite animates: the screen holds the text alone, the keys wait unread for the shell
    (a partly typed line and a whole one), and the tty's settings are put back as they were."""
    import termios, tty
    a = prose(400, seed=4)
    r = Run([tw, "--cps", "300"], stdout="pty", env=base_env(TYPEWRITE_QUERY_COLORS="never"), echo=True).start()
    before = r.initial_attrs
    r.feed_schedule([(0, a[:200]), (0.6, a[200:])], eof=True)
    r.pump_until(lambda: len(r.output) > 0, 5)  # typewrite has started (its modes are set first)
    r.pump(0.2)
    os.write(r.master, b"echo typed")
    r.pump(0.4)
    os.write(r.master, b" ahead\rls")  # Enter (ICRNL), then a line not ended
    r.pump_until(r.exited, 10)
    r.wait(3)
    after = termios.tcgetattr(r.slave)
    tty.setraw(r.slave, termios.TCSANOW)  # not TCSAFLUSH: that would discard the keys looked for
    left = b""
    set_nonblocking(r.slave)
    try:
        while True:
            chunk = os.read(r.slave, 4096)
            if not chunk:
                break
            left += chunk
    except BlockingIOError:
        pass
    r.close()
    problems = []
    if r.status != 0:
        problems.append("status %s" % r.status)
    s = Screen()
    s.feed(r.output)
    if s.text() != plain_text_of(a):
        got, want = s.text(), plain_text_of(a)
        i = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]), min(len(got), len(want)))
        problems.append("the screen is not the text alone: from byte %d it shows %r where the text has %r"
                        % (i, got[max(0, i - 20):i + 60], want[max(0, i - 20):i + 60]))
    if left != b"echo typed ahead\nls":
        problems.append("keys left unread: %r, typed b'echo typed ahead\\nls'" % left)
    if after != before:
        problems.append("tty settings changed: lflag %#x, was %#x" % (after[3], before[3]))
    return "; ".join(problems) or None


def check_inherited_ignore(tw, signo):
    """A signal ignored when typewrite starts (nohup ignores SIGHUP; a shell script's `cmd &`
    ignores SIGINT and SIGQUIT) stays ignored, as in plain mode and in cat: typewrite finishes."""
    data = prose(600)
    r = Run([tw], stdout="pty", env=base_env(), ignore=(signo,)).start()
    r.feed_schedule([(0, data), (0.8, b"")])
    r.pump(0.3)
    r.kill(signo)
    finish(r, 5)
    s = Screen()
    s.feed(r.output)
    if r.status != 0:
        return "status %s: the signal, ignored at start, ended typewrite" % r.status
    if s.text() != plain_text_of(data):
        return "screen does not show the input"
    return None


def check_sighup(tw):
    r = Run([tw], stdout="pty", env=base_env()).start()
    r.feed_schedule([(0, prose(1500))], eof=False)
    r.pump(0.4)
    r.kill(signal.SIGHUP)
    t_sig = r.signals[-1][0]
    r.pump_until(r.exited, 3)
    finish(r, 3)
    problems = []
    if not sig_status_ok(r.status, signal.SIGHUP):
        problems.append("status %s, expected death by SIGHUP" % r.status)
    elif r.exit_time - t_sig > 0.2:
        problems.append("exit %.3f s after SIGHUP" % (r.exit_time - t_sig))
    if r.stderr:
        problems.append("stderr: %r" % bytes(r.stderr[:200]))
    return "; ".join(problems) or None


def check_tstp_cont(tw):
    a, b = prose(1500, seed=4), prose(400, seed=5)
    import termios
    r = Run([tw], stdout="pty", env=base_env()).start()
    before = r.initial_attrs
    r.feed_schedule([(0, a), (0.8, b), (1.3, b"")])
    r.pump(0.4)
    r.kill(signal.SIGTSTP)
    t_sig = r.signals[-1][0]
    problems = []
    if not r.pump_until(r.stopped, 1.0):
        problems.append("did not stop within 1 s of SIGTSTP")
    else:
        state = proc_state(r.pid)
        if state != "T":
            problems.append("/proc state %r while stopped, expected T" % state)
        r.pump(0.2)
        s = Screen()
        s.feed(r.output)
        if not s.pen_is_default():
            problems.append("terminal left with a non-default pen when stopped (fg %r, intensity %r)" % (s.fg, s.intensity))
        if s.sync_open:
            problems.append("synchronized output left on when stopped")
        if termios.tcgetattr(r.slave) != before:
            problems.append("tty settings changed while stopped (lflag %#x, was %#x)" % (termios.tcgetattr(r.slave)[3], before[3]))
        stop_lag = [t for t, k, _ in r.events if k == "stopped"][0] - t_sig
        if stop_lag > 0.2:
            problems.append("stopped %.3f s after SIGTSTP" % stop_lag)
    r.pump(max(0, 1.0 - (MONO() - t_sig)))
    r.kill(signal.SIGCONT)
    r.pump_until(r.exited, 6)
    finish(r, 3)
    if not any(k == "continued" for _, k, _ in r.events):
        problems.append("no continue event")
    if r.status != 0:
        problems.append("status %s after SIGCONT, expected 0" % r.status)
    s = Screen()
    s.feed(r.output)
    if s.text() != plain_text_of(a + b):
        problems.append("final screen does not show the full text")
    if not s.pen_is_default():
        problems.append("pen not default at exit")
    return "; ".join(problems) or None


def check_winch_storm(tw):
    """Twenty resizes mid-fade (SIGWINCH through the pty): no crash, all text shown, exit 0."""
    from ptyrun import _set_winsize
    data = prose(2500, seed=9)
    r = Run([tw], stdout="pty", env=base_env()).start()
    r.feed_schedule([(0, data[:1500]), (0.5, data[1500:])])
    for k in range(20):
        r.pump(0.05)
        _set_winsize(r.master, 24, (40, 120, 79, 80, 61)[k % 5])
    finish(r, 6)
    s = Screen()
    s.feed(r.output)
    problems = []
    if r.status != 0:
        problems.append("status %s, stderr %r" % (r.status, bytes(r.stderr[:200])))
    if s.text() != plain_text_of(data):
        problems.append("screen does not show the input")
    return "; ".join(problems) or None


# ------------------------------------------------------------------------------------------------
# stdin flags

def check_stdin_flags(tw, stdin_kind, path, mode, start_nonblocking=False):
    """O_NONBLOCK of stdin's open file description is as it was, after the given exit path."""
    if mode == "plain":
        args = ["--reduce-motion"] if path != "epipe" else []
    else:
        args = [] if path != "epipe" else ["--animate=always"]
    if path == "file-error":
        args += ["/nonexistent/typewrite-e2e", "-"]
    stdout = "pipe" if path == "epipe" else "pty"
    r = Run([tw] + args, stdin=stdin_kind, stdout=stdout, env=base_env(),
            stdin_nonblocking=start_nonblocking).start()
    expect = {"eof": 0, "file-error": 1, "int": -2, "term": -15, "epipe": -13}[path]
    if path in ("eof", "file-error"):
        r.feed_schedule([(0, b"hello\n"), (0.15, b"world\n")])
    elif path in ("int", "term"):
        r.feed_schedule([(0, b"hello\n" + prose(1200))], eof=False)
        r.pump(0.4)
        r.kill(signal.SIGINT if path == "int" else signal.SIGTERM)
    else:
        r.feed_schedule([(0, b"one\n"), (0.4, b"two\n"), (0.6, b"three\n")], eof=False)
        r.pump_until(lambda: b"\n" in r.output, 5)
        r.close_output()
    finish(r, 6)
    problems = []
    if not (r.status == expect or (expect < 0 and r.status == 128 - expect)):
        problems.append("status %s, expected %s" % (r.status, expect))
    if r.stdin_nonblocking_after != start_nonblocking:
        problems.append("O_NONBLOCK on stdin is %s after exit, was %s at start"
                        % (r.stdin_nonblocking_after, start_nonblocking))
    return "; ".join(problems) or None


def check_nonblocking_stdin_start(tw, mode):
    """The producer made the pipe non-blocking before typewrite started: everything is read and
    the flag is still set at exit."""
    parts = [prose(700, seed=k) for k in range(4)]
    big = os.urandom(1 << 20) if mode == "plain" else b""
    sched = [(0.25 * k, p) for k, p in enumerate(parts)] + ([(1.0, big)] if big else [])
    stdout = "pipe" if mode == "plain" else "pty"
    r = Run([tw], stdin="pipe", stdout=stdout, env=base_env(), stdin_nonblocking=True).start()
    r.feed_schedule(sched)
    finish(r, 10)
    data = b"".join(p for _, p in sched)
    problems = []
    if r.status != 0:
        problems.append("status %s, stderr %r" % (r.status, bytes(r.stderr[:200])))
    if mode == "plain":
        if bytes(r.output) != data:
            problems.append("output differs: %d of %d bytes" % (len(r.output), len(data)))
    else:
        s = Screen()
        s.feed(r.output)
        if s.text() != plain_text_of(data):
            problems.append("screen does not show the whole input")
    if r.stdin_nonblocking_after is not True:
        problems.append("O_NONBLOCK was cleared")
    return "; ".join(problems) or None


# ------------------------------------------------------------------------------------------------
# waiting costs nothing, exit timing

def check_cpu_idle(tw, mode):
    stdout = "pipe" if mode == "plain" else "pty"
    r = Run([tw], stdout=stdout, env=base_env()).start()
    r.feed_schedule([(0, b"hello there\n"), (2.3, b"world\n")])
    t0 = MONO()
    r.pump(0.7)
    c1 = proc_cpu_ticks(r.pid)
    r.pump(max(0, 2.1 - (MONO() - t0)))
    c2 = proc_cpu_ticks(r.pid)
    finish(r, 6)
    if c1 is None or c2 is None:
        return "process gone while the producer paused (status %s)" % r.status
    hz = os.sysconf("SC_CLK_TCK")
    if c2 - c1 > 2:
        return "used %d ticks (%.0f ms) of CPU during a 1.4 s pause of the producer" % (c2 - c1, 1000.0 * (c2 - c1) / hz)
    if r.status != 0:
        return "status %s" % r.status
    return None


def check_animated_regular_file(tw):
    data = prose(3000, seed=7)
    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(data)
    try:
        r = Run([tw, "--animate=always"], stdin=f.name, stdout="pty", env=base_env()).start()
        finish(r, 10)
    finally:
        os.unlink(f.name)
    s = Screen()
    s.feed(r.output)
    problems = []
    if r.status != 0:
        problems.append("status %s" % r.status)
    first = r.first_output_time()
    # The file arrives at once when typewrite starts: exit within 1.5 s + a frame of that, with an
    # allowance of 0.25 s for process start-up on a loaded machine.
    if r.exit_time is None or r.exit_time - r.spawn_time > 1.5 + FRAME + 0.25:
        problems.append("exit %s s after start (bound %.2f)" % (fmt(r.exit_time and r.exit_time - r.spawn_time), 1.5 + FRAME + 0.25))
    if r.exit_time and r.last_output_time() and r.exit_time - r.last_output_time() > 0.25:
        problems.append("lingered %.3f s after the last output" % (r.exit_time - r.last_output_time()))
    if r.rusage and r.rusage["cpu"] > 0.5:
        problems.append("CPU %.2f s for a 1.5 s animation: spinning?" % r.rusage["cpu"])
    if s.text() != plain_text_of(data):
        problems.append("screen differs from the file")
    del first
    return "; ".join(problems) or None


def check_trace_exit(tw, name):
    trace = os.path.join(TRACES, name)
    r = Run([tw], stdin="pipe", stdout="pty", env=base_env()).start()
    want = r.feed_trace(trace)
    finish(r, 60)
    eof = {"t": r.stdin_closed_time} if r.stdin_closed_time else {}
    s = Screen()
    s.feed(r.output)
    problems = []
    if r.status != 0:
        problems.append("status %s" % r.status)
    lag = r.exit_time - eof["t"] if r.exit_time and "t" in eof else None
    if lag is None or lag > 1.6:
        problems.append("exit %s s after EOF (bound 1.6)" % fmt(lag))
    if s.text() != plain_text_of(want):
        problems.append("settled screen differs from the trace text")
    if problems:
        return "; ".join(problems)
    return None


def demo_answer():
    """The demo answer's last line (Sources/TypewriteCLI/Demo.swift); it fits one row."""
    return b"When the tide returns, cold fresh seawater floods in, and everything opens up to feed again."


def check_demo(tw):
    r = Run([tw, "--demo"], stdin="null", stdout="pty", env=base_env()).start()
    finish(r, 35)
    s = Screen()
    s.feed(r.output)
    problems = []
    if r.status != 0:
        problems.append("status %s" % r.status)
    if r.exit_time is None or r.exit_time - r.spawn_time > 30:
        problems.append("took %s s (bound 30)" % fmt(r.exit_time and r.exit_time - r.spawn_time))
    answer = demo_answer()
    if answer not in s.text():
        problems.append("the answer text is not on the screen")
    return "; ".join(problems) or None


# ------------------------------------------------------------------------------------------------
# memory

# wait4's ru_maxrss of a child exec'd from this process counts this process's image before exec
# (Linux carries the high-water mark across execve), so a check that ran late read this
# interpreter's size. A small Python that forks typewrite and reports its child's wait4 reads
# typewrite's own peak: max(~9 MiB for that Python's copy, typewrite's peak).
SPAWN = ("import os, sys\n"
         "pid = os.fork()\n"
         "if pid == 0:\n"
         "    os.execvp(sys.argv[2], sys.argv[2:])\n"
         "_, st, ru = os.wait4(pid, 0)\n"
         "open(sys.argv[1], 'w').write('%d' % ru.ru_maxrss)\n"
         "os._exit(128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st))\n")


def peak_rss(argv, generator, env, stdin_file=None):
    """Runs argv with stdin from a shell generator (or a file), stdout /dev/null; returns
    (status, peak RSS MiB of argv's own process, seconds)."""
    t = MONO()
    if stdin_file:
        src = open(stdin_file, "rb")
        prod = None
    else:
        prod = subprocess.Popen(["bash", "-c", generator], stdout=subprocess.PIPE)
        src = prod.stdout
    fd, report = tempfile.mkstemp()
    os.close(fd)
    try:
        c = subprocess.Popen([sys.executable, "-S", "-c", SPAWN, report] + list(argv), stdin=src,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        src.close()
        c.communicate()
        if prod:
            prod.wait()
        status = -(c.returncode - 128) if c.returncode > 128 else c.returncode
        rss_kib = int(open(report).read() or 0)
    finally:
        os.unlink(report)
    return status, rss_kib / 1024.0, MONO() - t


LINE = "The quick brown fox jumps over the lazy dog, and the tide comes in again."


def check_memory_plain(tw):
    size = 1 << 30
    d = tempfile.mkdtemp()
    path = os.path.join(d, "big.txt")
    try:
        subprocess.run(["bash", "-c", "yes '%s' | head -c %d > '%s'" % (LINE, size, path)], check=True)
        status, rss, secs = peak_rss([tw], None, base_env(), stdin_file=path)
    finally:
        subprocess.run(["rm", "-rf", d])
    if status != 0:
        return "status %s" % status
    if rss > 64:
        return "peak RSS %.1f MiB passing 1 GiB plain (bound 64)" % rss
    print("# plain 1 GiB: peak RSS %.1f MiB, %.1f s" % (rss, secs))
    return None


def check_memory_animated(tw, kind, pacing="fast"):
    # 100 MiB; short lines (my addition, the slowest: ~10 s idle, ~25 s loaded)
    # use 32 MiB unless TYPEWRITE_E2E_FULL=1 — already twice the 16 MiB the reader may hold.
    size = (32 << 20) if kind == "short-lines" and not FULL else (100 << 20)
    gen = {
        "lines": "yes '%s' | head -c %d" % (LINE, size),
        "one-line": "yes '%s' | tr -d '\\n' | head -c %d" % (LINE, size),
        "short-lines": "yes ab | head -c %d" % size,
    }[kind]
    argv = [tw, "--animate=always"] + (["--cps", "100000000", "--max-lag", "0.15"] if pacing == "fast" else [])
    status, rss, secs = peak_rss(argv, gen, base_env(COLUMNS="80"))
    print("# animated %d MiB %s, %s pacing: peak RSS %.1f MiB, %.1f s" % (size >> 20, kind, pacing, rss, secs))
    if status != 0:
        return "status %s" % status
    if rss > 64:
        return "peak RSS %.1f MiB passing %d MiB animated (%s, %s pacing; bound 64)" % (rss, size >> 20, kind, pacing)
    return None


# ------------------------------------------------------------------------------------------------

def all_checks(tw):
    c = []
    add = lambda name, fn, *a, **k: c.append((name, lambda: fn(tw, *a, **k)))
    add("slow producer: each line appears downstream as it arrives", check_slow_producer)
    add("broken pipe plain: SIGPIPE, quiet, rest not read", check_broken_pipe_counting, [], "plain")
    add("broken pipe animated: SIGPIPE within 1 s, quiet, rest not read", check_broken_pipe_counting,
        ["--animate=always"], "animated")
    add("broken pipe animated strict pacing: SIGPIPE within 1 s, rest not read", check_broken_pipe_counting,
        ["--animate=always", "--cps", "80", "--max-lag", "inf"], "strict")
    add("broken pipe animated while idle: SIGPIPE within 1 s", check_broken_pipe_counting,
        ["--animate=always"], "idle", idle=True)
    add("stdout non-blocking, slow reader, plain: nothing lost", check_stdout_nonblocking, [])
    add("stdout non-blocking, slow reader, animated --color=never: nothing lost", check_stdout_nonblocking,
        ["--animate=always", "--color=never", "--cps", "100000000", "--max-lag", "0.15"])
    add("--timestamps to a pipe: each line stamped within 1 s of its arrival", check_timestamps_arrival, "pipe", [])
    add("--timestamps --reduce-motion in a pty: each line stamped within 1 s of its arrival",
        check_timestamps_arrival, "pty", ["--reduce-motion"])
    add("--format sse in a pty, answer without final newline: cursor at column 0 at exit, --tee exact",
        check_decoded_line_end, "pty", ["--format", "sse"], SSE_NO_NEWLINE, 0)
    add("--format auto --reduce-motion in a pty, answer without final newline: cursor at column 0",
        check_decoded_line_end, "pty", ["--format", "auto", "--reduce-motion"], SSE_NO_NEWLINE, 0)
    add("--format sse to a pipe, answer without final newline: the exact text, --tee too",
        check_decoded_line_end, "pipe", ["--format", "sse"], SSE_NO_NEWLINE, None)
    add("raw text without final newline in a pty: the cursor stays after it, as cat leaves it",
        check_decoded_line_end, "pty", [], ANSWER_NO_NEWLINE, len(ANSWER_NO_NEWLINE))
    add("--notify: a 12 s answer notifies as kitty, foot, WezTerm, iTerm2, tmux and others want; 2 s or a pipe: none",
        check_notify)
    add("--reduce-motion in a pty: input bytes exactly, no ESC", check_plain_pty, ["--reduce-motion"], {})
    add("REDUCED_MOTION=1 in a pty: input bytes exactly, no ESC", check_plain_pty, [], {"REDUCED_MOTION": "1"})
    add("REDUCED_MOTION=0 in a pty: animates", check_reduced_motion_0)
    add("SSE error event mid-line, stderr on the same pty: the message starts its own line", check_error_after_partial_line)
    add("unreadable file after a partial line, animated: the message starts its own line",
        check_unreadable_after_partial_line, [])
    add("unreadable file after a partial line, plain: the message starts its own line",
        check_unreadable_after_partial_line, ["--reduce-motion"])
    add("SIGINT mid-fade: all input shown, the input's SGR state, dies by SIGINT within 200 ms", check_signal_mid_fade, signal.SIGINT)
    add("SIGTERM mid-fade: all input shown, the input's SGR state, dies by SIGTERM within 200 ms", check_signal_mid_fade, signal.SIGTERM)
    add("SIGINT mid-fade, strict --max-lag inf: all input shown within 200 ms", check_signal_mid_fade, signal.SIGINT,
        args=["--cps", "80", "--max-lag", "inf"])
    add("SIGINT with the input's OSC 8 link open: left open as cat leaves it", check_signal_mid_fade, signal.SIGINT, osc8=True)
    add("Ctrl-C with the terminal's queue full: no text lost, ^C after it, tty settings kept", check_key_with_full_queue)
    add("Ctrl-C with the queue full after another program put NOFLSH back: a prefix, ^C, no hole", check_key_after_modes_put_back)
    add("keys typed mid-fade: not echoed into the text, left typed ahead, tty settings kept", check_keys_typed_mid_fade)
    add("SIGHUP: dies quietly by SIGHUP", check_sighup)
    add("SIGHUP ignored at start (nohup) stays ignored", check_inherited_ignore, signal.SIGHUP)
    add("SIGINT ignored at start (script's cmd &) stays ignored", check_inherited_ignore, signal.SIGINT)
    add("SIGINT during --query-colors: terminal modes restored", check_query_colors_signal, signal.SIGINT)
    add("SIGTERM during --query-colors: terminal modes restored", check_query_colors_signal, signal.SIGTERM)
    add("SIGTSTP stops (state T, terminal reset), SIGCONT finishes the full text", check_tstp_cont)
    add("SIGWINCH storm mid-fade: text intact, exit 0", check_winch_storm)
    for stdin_kind in ("pipe", "pty"):
        for mode in ("animated", "plain"):
            for path in ("eof", "int", "term", "epipe", "file-error"):
                add("stdin flags unchanged: %s stdin, %s, %s" % (stdin_kind, mode, path),
                    check_stdin_flags, stdin_kind, path, mode)
    add("stdin pipe non-blocking at start, plain: all read, flag kept", check_nonblocking_stdin_start, "plain")
    add("stdin pipe non-blocking at start, animated: all read, flag kept", check_nonblocking_stdin_start, "animated")
    add("stdin pipe non-blocking at start, animated, SIGINT: flag kept", check_stdin_flags, "pipe", "int", "animated",
        start_nonblocking=True)
    add("waiting costs nothing: plain, producer pausing", check_cpu_idle, "plain")
    add("waiting costs nothing: animated, producer pausing", check_cpu_idle, "animated")
    add("animated regular file: exits within 1.5 s + a frame, no spinning", check_animated_regular_file)
    add("llm-fast.trace in a pty: exit within 1.6 s of EOF, screen = text", check_trace_exit, "llm-fast.trace")
    add("--demo in a pty: exit 0 within 30 s, whole answer shown", check_demo)
    add("memory: 1 GiB plain, peak RSS <= 64 MiB", check_memory_plain)
    add("memory: 100 MiB animated lines, peak RSS <= 64 MiB", check_memory_animated, "lines")
    add("memory: 100 MiB animated one line without newline, peak RSS <= 64 MiB", check_memory_animated, "one-line")
    add("memory: %d MiB animated 3-byte lines, peak RSS <= 64 MiB" % (100 if FULL else 32),
        check_memory_animated, "short-lines")
    # Default pacing (80 cps, 1.5 s): the reader fills its 16 MiB allowance, the worst case for
    # memory. ~8 s each; the 100 MiB inputs only with TYPEWRITE_E2E_FULL=1.
    add("memory: %d MiB animated 3-byte lines, default pacing, peak RSS <= 64 MiB" % (100 if FULL else 32),
        check_memory_animated, "short-lines", "default")
    if FULL:
        add("memory: 100 MiB animated lines, default pacing, peak RSS <= 64 MiB", check_memory_animated, "lines", "default")
        add("memory: 100 MiB animated one line, default pacing, peak RSS <= 64 MiB", check_memory_animated,
            "one-line", "default")
    return c


def main(argv):
    tw = os.path.abspath(argv[0])
    filters = argv[1:]
    for name, fn in all_checks(tw):
        if filters and not any(f in name for f in filters):
            continue
        t = MONO()
        try:
            detail = fn()
        except Skip as e:
            print("ok - %s # SKIP %s" % (name, e), flush=True)
            continue
        except Exception as e:  # a harness error is a failure, with its reason
            detail = "harness error: %r" % e
        if os.environ.get("TYPEWRITE_E2E_VERBOSE"):
            print("# %s: %.2f s" % (name, MONO() - t), flush=True)
        if detail:
            print("not ok - %s: %s" % (name, detail), flush=True)
        else:
            print("ok - %s" % name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
