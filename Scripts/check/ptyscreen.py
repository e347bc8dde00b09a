#!/usr/bin/env python3
"""ptyscreen: run a command on a pseudo-terminal and judge the screen it leaves against cat's.

  ptyscreen.py record  [options] -- CMD...   run CMD, print a JSON summary (exit time, output bytes, …)
  ptyscreen.py compare [options] -- CMD...   also run `cat` on the same input; compare the settled
                                             screens, scrollback included (text, colours, attributes)
  ptyscreen.py frames  [options] -- CMD...   compare, and judge the fade while it ran
  ptyscreen.py lag     [options] -- CMD...   at the input's pauses, is everything received already shown?

Input (CMD's stdin is a pipe): --bin FILE, whole or in --chunk N byte pieces --delay-ms D apart;
or --trace FILE (Tests/traces format: JSON lines of {"delay_ms", "hex"}), --speed X faster.
Terminal: --cols 80 --rows 24, TERM=--term (xterm-256color), COLORTERM=--colorterm (truecolor; ''
unsets it), --env NAME=VALUE. The pty is CMD's controlling terminal, and colour queries on it
(OSC 10, OSC 11, OSC 4, then DA1) are answered as a terminal with --background dark (#e5e5e5 on
black, the default) or light (black on white) would; --no-answer leaves them unanswered.

The screen is modelled with pyte (`pip install pyte wcwidth`), with three corrections so that it
agrees with xterm, kitty, alacritty and tmux where pyte does not (docs/terminals.md): a wide
character that reaches the last column wraps first; zero-width joiners and variation selectors
stay in the cell before them; colon-form SGR (`38:2::r:g:b`, `4:3`) is read as its semicolon form
instead of being drawn as text. Line feeds reach the model as the pty delivers them (CR LF).

Summary fields (one JSON object on the last line of stdout):
  all      rc, input_bytes, output_bytes, writes (reads of the pty), first_output_s, eof_s, exit_s,
           tail_after_eof_s, cpu_s, max_rss_kib (of CMD, from wait4)
  compare  screen_identical (every row and the cursor's end state equal cat's), cat_output_bytes,
           and when they differ first_diff_line, got, want (its text), text_identical
  frames   frames (screens sampled: one per read of the pty), intermediate_colors (distinct
           foreground colours cells showed before their final one), fade_coverage (of the settled
           screen's printable cells, the share that was first shown in another foreground colour
           with the same character), non_monotonic_frames (frames where, left of the cursor on its
           row, a newer character was nearer the text colour than an older one)
  lag      quiet_points, late_count, late_at_input_s: at each input write followed by at least
           --quiet-after (1.6) s of silence, the screen --quiet-after after that write must equal
           cat's screen of the input so far; with --prefix also prefix_checks, prefix_late_count:
           at (up to 150) writes, the screen --quiet-after later must already show cat's screen of
           the input so far as its beginning (text that follows may continue the last row)
--save FILE writes the recording as JSON lines {"t": seconds, "hex": bytes}.
Exit status: 0 when the judged property holds (record: CMD exited 0), 1 when not, 2 on usage errors.
"""
import argparse, fcntl, json, os, re, select, signal, struct, subprocess, sys, termios, threading, time
import unicodedata

# ---------------------------------------------------------------------------------------------
# Input


def load_chunks(a):
    """[(delay before this write in seconds, bytes)]."""
    if a.trace:
        out = []
        with open(a.trace, encoding="ascii") as f:
            for line in f:
                if line.strip():
                    o = json.loads(line)
                    out.append((o.get("delay_ms", 0) / 1000.0 / a.speed, bytes.fromhex(o["hex"])))
        return out
    data = open(a.bin, "rb").read() if a.bin else b""
    if not a.chunk:
        return [(0.0, data)]
    return [(a.delay_ms / 1000.0, data[i:i + a.chunk]) for i in range(0, len(data), a.chunk)]


# ---------------------------------------------------------------------------------------------
# Running on a pty

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


def run(cmd, chunks, cols, rows, env, timeout, answer=None):
    """Runs cmd with stdin a pipe fed with `chunks` on their schedule and stdout/stderr on a new
    cols x rows pty that is its controlling terminal. Returns rc, fed [(t, n)], rec [(t, bytes)],
    eof, exit (seconds since the start), cpu_s, max_rss_kib."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    r, w = os.pipe()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=r, stdout=slave, stderr=slave, env=env, start_new_session=True,
                         preexec_fn=lambda: fcntl.ioctl(1, termios.TIOCSCTTY, 0))
    os.close(slave)
    os.close(r)
    rec, fed, stop = [], [], threading.Event()

    def reader():
        while True:
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    if stop.is_set():
                        return
                    continue
                b = os.read(master, 1 << 16)
            except OSError:
                return
            if not b:
                return
            rec.append((time.monotonic() - t0, b))
            if answer is not None:
                reply = answer.replies(b)
                if reply:
                    try:
                        os.write(master, reply)
                    except OSError:
                        pass

    th = threading.Thread(target=reader, daemon=True)
    th.start()

    def feed():
        due = 0.0
        try:
            for delay, data in chunks:
                due += delay
                pause = t0 + due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                view = memoryview(data)
                while view:
                    view = view[os.write(w, view):]
                fed.append((time.monotonic() - t0, len(data)))
        except BrokenPipeError:
            pass
        finally:
            os.close(w)
        return time.monotonic() - t0

    feeder_result = {}
    feeder = threading.Thread(target=lambda: feeder_result.update(eof=feed()), daemon=True)
    feeder.start()
    deadline = t0 + timeout
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            rc = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() > deadline:
            os.killpg(p.pid, signal.SIGKILL)
            _, status, ru = os.wait4(p.pid, 0)
            rc = "timeout"
            break
        time.sleep(0.002)
    p.returncode = rc if isinstance(rc, int) else -9
    exit_at = time.monotonic() - t0
    feeder.join(timeout + 5)
    time.sleep(0.05)
    stop.set()
    th.join(2)
    os.close(master)
    return {"rc": rc, "fed": fed, "rec": rec, "eof": feeder_result.get("eof", exit_at), "exit": exit_at,
            "cpu_s": ru.ru_utime + ru.ru_stime, "max_rss_kib": ru.ru_maxrss}


# ---------------------------------------------------------------------------------------------
# The screen model (pyte, corrected)

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
        sys.exit("ptyscreen.py: needs pyte and wcwidth (pip install pyte wcwidth)")

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
    while out and not out[-1]:
        out.pop()
    return out


def end_state(scr):
    c = scr.cursor
    return {"row": len(scr.history.top) + c.y, "column": c.x, "hidden": bool(c.hidden),
            "pen": [c.attrs.fg, c.attrs.bg, c.attrs.bold, c.attrs.italics, c.attrs.underscore, c.attrs.reverse]}


def text(rows):
    return "\n".join("".join(c[0] for c in r) for r in rows)


def luminance(fg, light):
    if fg == "default":
        return 0.0 if light else 1.0
    if isinstance(fg, str) and len(fg) == 6:
        try:
            r, g, b = (int(fg[i:i + 2], 16) for i in (0, 2, 4))
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
        except ValueError:
            return None
    return None


# ---------------------------------------------------------------------------------------------
# Modes


def compare_screens(summary, got, want):
    gr, wr = rows_of(got), rows_of(want)
    ge, we = end_state(got), end_state(want)
    same = gr == wr and ge == we
    summary["screen_identical"] = same
    if ge != we:
        summary["end_state"] = {"got": ge, "want": we}
    if not same:
        summary["text_identical"] = text(gr) == text(wr)
        for n in range(max(len(gr), len(wr))):
            x = gr[n] if n < len(gr) else []
            y = wr[n] if n < len(wr) else []
            if x != y:
                summary["first_diff_line"] = n
                summary["got"] = "".join(c[0] for c in x)[:120]
                summary["want"] = "".join(c[0] for c in y)[:120]
                summary["cells"] = [str(d) for d in [(i, p, q) for i, (p, q) in enumerate(zip(x, y)) if p != q][:3]]
                break
    return same


def frames_watcher(light):
    """A per-piece callback collecting what cells showed, and the collected figures."""
    shown = {}  # (absolute row, column) -> {(character, foreground)}
    stats = {"frames": 0, "non_monotonic": 0}
    state = {"history": 0}

    def look(scr):
        stats["frames"] += 1
        base = len(scr.history.top)
        rows = set(scr.dirty)
        if base != state["history"]:
            for r in range(state["history"], base):  # rows that scrolled into the history
                line = scr.history.top[r]
                for x in range(scr.columns):
                    c = line[x]
                    if c.data not in ("", " "):
                        shown.setdefault((r, x), set()).add((c.data, c.fg))
            rows = set(range(scr.lines))
            state["history"] = base
        for y in rows:
            line = scr.buffer[y]
            for x in range(scr.columns):
                c = line[x]
                if c.data not in ("", " "):
                    shown.setdefault((base + y, x), set()).add((c.data, c.fg))
        lums = []
        row = scr.buffer[scr.cursor.y]
        for x in range(min(scr.cursor.x, scr.columns)):
            c = row[x]
            if c.data not in ("", " "):
                v = luminance(c.fg, light)
                if v is not None:
                    lums.append(v)
        for older, newer in zip(lums, lums[1:]):
            if (newer < older - 1e-9) if light else (newer > older + 1e-9):
                stats["non_monotonic"] += 1
                break

    def figures(final_rows):
        final = {(r, x): c for r, cells in enumerate(final_rows) for x, c in enumerate(cells) if c[0] not in ("", " ")}
        colours = set()
        faded = 0
        for key, c in final.items():
            before = {fg for ch, fg in shown.get(key, ()) if fg != c[1]}
            colours |= before
            if any(ch == c[0] and fg != c[1] for ch, fg in shown.get(key, ())):
                faded += 1
        return {"frames": stats["frames"], "intermediate_colors": len(colours),
                "fade_coverage": round(faded / len(final), 3) if final else None,
                "non_monotonic_frames": stats["non_monotonic"]}

    return look, figures


def lag_checks(a, res, data):
    fed, rec = res["fed"], res["rec"]
    out = {}

    def screen_at(t):
        return rows_of(render([b for when, b in rec if when <= t], a.cols, a.rows))

    def cat_of(k):
        return rows_of(render([b"".join(data[:k + 1]).replace(b"\n", b"\r\n")], a.cols, a.rows))

    late = []
    quiet = 0
    for k in range(len(fed)):
        after = fed[k + 1][0] if k + 1 < len(fed) else res["exit"] + 10
        t = fed[k][0] + a.quiet_after
        if after <= t or t > res["exit"]:
            continue
        quiet += 1
        if screen_at(t) != cat_of(k):
            late.append(round(fed[k][0], 2))
    out.update(quiet_points=quiet, late_count=len(late), late_at_input_s=late[:10])
    if a.prefix:
        ks = [k for k in range(len(fed)) if fed[k][0] + a.quiet_after <= res["exit"]]
        step = max(1, len(ks) // 150)
        plate, checks = [], 0

        def base(rows):  # a cell may still gain combining marks or joiners: compare first code points
            return [[(unicodedata.normalize("NFD", c[0])[:1],) + c[1:] for c in r] for r in rows]

        for k in ks[::step]:
            checks += 1
            got, want = base(screen_at(fed[k][0] + a.quiet_after)), base(cat_of(k))
            ok = len(got) >= len(want) and got[:len(want) - 1] == want[:len(want) - 1] and \
                (not want or got[len(want) - 1][:len(want[-1])] == want[-1])
            if not ok:
                plate.append(round(fed[k][0], 2))
        out.update(prefix_checks=checks, prefix_late_count=len(plate), prefix_late_at_input_s=plate[:10])
    return out


def main():
    ap = argparse.ArgumentParser(description="Run a command on a pty and judge its screen against cat's.",
                                 usage="ptyscreen.py {record,compare,frames,lag} [options] -- CMD...")
    ap.add_argument("mode", choices=["record", "compare", "frames", "lag"])
    ap.add_argument("--bin"), ap.add_argument("--trace")
    ap.add_argument("--chunk", type=int, default=0), ap.add_argument("--delay-ms", type=int, default=0)
    ap.add_argument("--speed", type=float, default=1.0, help="play a trace this many times faster")
    ap.add_argument("--cols", type=int, default=80), ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--term", default="xterm-256color"), ap.add_argument("--colorterm", default="truecolor")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the command")
    ap.add_argument("--background", choices=["dark", "light"], default="dark")
    ap.add_argument("--no-answer", action="store_true", help="leave colour queries unanswered")
    ap.add_argument("--ref-bin", help="compare with `cat FILE` instead of cat of the same input")
    ap.add_argument("--quiet-after", type=float, default=1.6)
    ap.add_argument("--prefix", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--save")
    argv = sys.argv[1:]
    if "--" not in argv:
        ap.error("give the command after --")
    k = argv.index("--")
    a = ap.parse_args(argv[:k])
    cmd = argv[k + 1:]
    if not cmd:
        ap.error("no command after --")
    light = a.background == "light"
    env = {n: v for n, v in os.environ.items()
           if n not in ("NO_COLOR", "COLORTERM", "COLORFGBG", "TERM", "FORCE_COLOR", "CLICOLOR_FORCE", "REDUCED_MOTION",
                        "COLUMNS", "LINES", "STY", "TMUX")}
    env["TERM"] = a.term
    if a.colorterm:
        env["COLORTERM"] = a.colorterm
    for kv in a.env:
        n, _, v = kv.partition("=")
        env[n] = v
    if a.mode != "record":
        model()  # fail early when pyte is missing
    chunks = load_chunks(a)
    res = run(cmd, chunks, a.cols, a.rows, env, a.timeout, None if a.no_answer else Answerer(light))
    out = b"".join(b for _, b in res["rec"])
    summary = {"rc": res["rc"], "input_bytes": sum(n for _, n in res["fed"]), "output_bytes": len(out),
               "writes": len(res["rec"]), "first_output_s": round(res["rec"][0][0], 3) if res["rec"] else None,
               "eof_s": round(res["eof"], 3), "exit_s": round(res["exit"], 3),
               "tail_after_eof_s": round(res["exit"] - res["eof"], 3), "cpu_s": round(res["cpu_s"], 3),
               "max_rss_kib": res["max_rss_kib"]}
    if a.save:
        with open(a.save, "w") as f:
            for t, b in res["rec"]:
                f.write(json.dumps({"t": round(t, 6), "hex": b.hex()}) + "\n")
    ok_exit = res["rc"] == 0
    if a.mode == "record":
        print(json.dumps(summary))
        return 0 if ok_exit else 1
    if a.mode == "lag":
        summary.update(lag_checks(a, res, [d for _, d in chunks]))
        print(json.dumps(summary))
        checks = summary["quiet_points"] + summary.get("prefix_checks", 0)
        return 0 if ok_exit and checks and not summary["late_count"] and not summary.get("prefix_late_count") else 1
    ref_chunks = [(0.0, open(a.ref_bin, "rb").read())] if a.ref_bin else chunks
    ref = run(["cat"], ref_chunks, a.cols, a.rows, env, a.timeout)
    summary["cat_output_bytes"] = sum(len(b) for _, b in ref["rec"])
    look, figures = frames_watcher(light) if a.mode == "frames" else (None, None)
    got = render([b for _, b in res["rec"]], a.cols, a.rows, look)
    want = render([b for _, b in ref["rec"]], a.cols, a.rows)
    same = compare_screens(summary, got, want)
    if a.mode == "frames":
        summary.update(figures(rows_of(got)))
    print(json.dumps(summary))
    return 0 if same and ok_exit else 1


if __name__ == "__main__":
    sys.exit(main())
