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
import argparse, json, os, sys, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from terminal import Answerer, model, render, rows_of, run_pty  # noqa: E402

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

def run(cmd, chunks, cols, rows, env, timeout, answer=None):
    """Runs cmd with stdin a pipe fed with `chunks` ([(delay before this write in seconds, bytes)])
    and stdout/stderr on a new cols x rows pty that is its controlling terminal
    (terminal.run_pty). Returns rc ("timeout" when it was killed `timeout` s after its input
    ended), fed [(t, n)], rec [(t, bytes)], eof, exit (seconds since the start), cpu_s,
    max_rss_kib."""
    schedule, due = [], 0.0
    for delay, data in chunks:
        due += delay
        schedule.append((due, data))
    res = run_pty(cmd, env, schedule=schedule, cols=cols, rows=rows, timeout=timeout, answer=answer,
                  controlling=True)
    if res["timeout"]:
        res["rc"] = "timeout"
    if res["eof"] is None:
        res["eof"] = res["exit"]
    return res


# ---------------------------------------------------------------------------------------------
# The screen model (pyte, corrected)

# model(), render() and rows_of(): Scripts/lib/terminal.py.


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
