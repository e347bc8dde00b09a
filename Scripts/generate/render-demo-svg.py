#!/usr/bin/env python3
"""Renders a real run of `typewrite --demo` to an animated SVG (docs/demo.svg, for the README).

Regenerate (from the repository root; needs python3 and pyte: `pip install pyte`):

    swift build -c release
    python3 Scripts/generate/render-demo-svg.py --record .build/release/typewrite docs/demo.svg

That runs `typewrite --demo` in an 80-column pseudo-terminal (TERM=xterm-256color,
COLORTERM=truecolor), records every write with its time, replays the bytes through pyte (a
terminal emulator) and draws the screen every 1/FPS s as one frame. A recording made elsewhere,
in the same JSON-lines format ({"t": seconds, "hex": bytes}) that
`python3 Scripts/check/ptyscreen.py record --save FILE -- typewrite --demo` writes, can be rendered with
`--recording FILE` instead of `--record`.

The SVG is a strip of frames moved by one CSS animation with step timing (no script, so it plays
in an <img> on GitHub); each frame is monospace text in runs of one colour, each run placed at
its cell's column so the grid holds in any monospace font.
"""

import argparse
import fcntl
import json
import os
import select
import struct
import subprocess
import termios
import time
from xml.sax.saxutils import escape

import pyte

COLUMNS = 80
FOREGROUND = "#d0d0d0"  # typewrite's assumed default foreground (FadeConfiguration.foreground)
BACKGROUND = "#000000"  # and background: the fade starts near it
CELL_W, CELL_H, FONT = 8.4, 18, 14  # px; 0.6 em is the advance of common monospace fonts
PAD = 14
NAMED = {  # pyte's names for the 16 palette colours (xterm defaults)
    "black": "#000000", "red": "#cd0000", "green": "#00cd00", "brown": "#cdcd00", "blue": "#0000ee",
    "magenta": "#cd00cd", "cyan": "#00cdcd", "white": "#e5e5e5", "brightblack": "#7f7f7f",
    "brightred": "#ff0000", "brightgreen": "#00ff00", "brightbrown": "#ffff00", "brightblue": "#5c5cff",
    "brightmagenta": "#ff00ff", "brightcyan": "#00ffff", "brightwhite": "#ffffff",
}


def record(binary, rows, timeout=60):
    """Runs `binary --demo` on a pty; returns [(seconds, bytes)] of everything it wrote."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, COLUMNS, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "REDUCED_MOTION", "COLORFGBG")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor")
    start = time.monotonic()
    proc = subprocess.Popen([binary, "--demo"], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                            env=env, start_new_session=True)
    os.close(slave)
    writes = []
    deadline = start + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                break
            writes.append((time.monotonic() - start, data))
        elif proc.poll() is not None:
            break
    proc.wait(timeout=5)
    os.close(master)
    if proc.returncode != 0:
        raise SystemExit("typewrite --demo exited with status %d" % proc.returncode)
    return writes


def load(path):
    with open(path) as f:
        return [(o["t"], bytes.fromhex(o["hex"])) for o in map(json.loads, filter(str.strip, f))]


def colour(value, default):
    if value == "default":
        return default
    if value in NAMED:
        return NAMED[value]
    return "#" + value if len(value) == 6 else default


def snapshot(screen):
    """The screen as rows of runs (column, text, fill, bold), plus the cursor."""
    rows = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        runs, current = [], None
        for x in range(screen.columns):
            ch = line[x]
            if ch.data == "":
                continue  # right half of a wide glyph
            fill = colour(ch.bg if ch.reverse else ch.fg, BACKGROUND if ch.reverse else FOREGROUND)
            style = (fill, ch.bold)
            adjacent = current is not None and current[0] + len(current[1]) == x
            if ch.data == " " and not ch.reverse:
                if adjacent:
                    current[1] += " "  # a space joins whatever run it follows (trimmed at the end)
                continue
            if adjacent and tuple(current[2:]) == style:
                current[1] += ch.data
            else:
                current = [x, ch.data, fill, ch.bold]
                runs.append(current)
        for run in runs:
            run[1] = run[1].rstrip(" ")
        rows.append(tuple(tuple(r) for r in runs))
    return tuple(rows), (screen.cursor.y, screen.cursor.x)


def frames(writes, rows, fps, hold):
    screen = pyte.Screen(COLUMNS, rows)
    stream = pyte.ByteStream(screen)
    end = writes[-1][0] if writes else 0
    out, i, t = [], 0, 0.0
    while t <= end + 1e-9:
        while i < len(writes) and writes[i][0] <= t:
            stream.feed(writes[i][1])
            i += 1
        shot = snapshot(screen)
        if out and out[-1][0] == shot:
            out[-1][1] += 1.0 / fps
        else:
            out.append([shot, 1.0 / fps])
        t += 1.0 / fps
    while i < len(writes):
        stream.feed(writes[i][1])
        i += 1
    last = snapshot(screen)
    if out[-1][0] == last:
        out[-1][1] += hold
    else:
        out.append([last, hold])
    return out


def render(frames, command, used_rows):
    """Each row's distinct states, each drawn once and shown only during its own time span
    (a per-element CSS animation with step timing), so text that stays is not repeated per frame."""
    width = round(2 * PAD + COLUMNS * CELL_W)
    top = PAD + CELL_H  # the prompt line
    height = round(top + used_rows * CELL_H + PAD)
    total = sum(d for _, d in frames)
    starts, at = [], 0.0
    for _, duration in frames:
        starts.append(at)
        at += duration

    # (kind, y or cursor, content, start, end) for every span of time a row or the cursor stays the same.
    spans = []
    for y in range(used_rows):
        current, since = None, 0.0
        for n, ((rows, _), _) in enumerate(frames):
            if rows[y] != current:
                if current:
                    spans.append(("row", y, current, since, starts[n]))
                current, since = rows[y], starts[n]
        if current:
            spans.append(("row", y, current, since, total))
    current, since = None, 0.0
    for n, ((_, cursor), _) in enumerate(frames):
        if cursor != current:
            if current is not None:
                spans.append(("cursor", None, current, since, starts[n]))
            current, since = cursor, starts[n]
    spans.append(("cursor", None, current, since, total))

    def percent(t):
        return ("%.3f" % (100 * t / total)).rstrip("0").rstrip(".")

    css, body = [], []
    for n, (kind, y, content, begin, end) in enumerate(spans):
        keys = []
        if begin > 0:
            keys.append("0%{visibility:hidden}")
        keys.append("%s%%{visibility:visible}" % percent(begin))
        if end < total:
            keys.append("%s%%{visibility:hidden}" % percent(end))
        css.append("@keyframes k%d{%s}.s%d{animation-name:k%d}" % (n, "".join(keys), n, n))
        if kind == "row":
            tspans = "".join(
                '<tspan x="%.1f" fill="%s"%s>%s</tspan>' % (x * CELL_W, fill, ' class="b"' if bold else "", escape(text))
                for x, text, fill, bold in content)
            body.append('<text class="s%d" y="%d">%s</text>' % (n, y * CELL_H + FONT, tspans))
        else:
            cy, cx = content
            if cy < used_rows:
                body.append('<rect class="s%d" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" opacity="0.7"/>'
                            % (n, cx * CELL_W, cy * CELL_H + 2, CELL_W, CELL_H - 2, FOREGROUND))
    return "\n".join([
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (width, height, width, height),
        "<style>",
        "text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono','Liberation Mono',monospace;"
        "font-size:%dpx;white-space:pre}" % FONT,
        ".b{font-weight:bold}",
        "g>text,g>rect{visibility:hidden;animation:%.2fs steps(1,end) infinite}" % total,
    ] + css + [
        "</style>",
        '<rect width="100%%" height="100%%" rx="8" fill="%s"/>' % BACKGROUND,
        '<text x="%d" y="%d" fill="#8a8a8a">$ <tspan fill="%s">%s</tspan></text>' % (PAD, PAD + FONT, FOREGROUND, escape(command)),
        '<g id="s" transform="translate(%d %d)">' % (PAD, top),
    ] + body + ["</g></svg>"]) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--record", metavar="TYPEWRITE", help="record `TYPEWRITE --demo` now")
    source.add_argument("--recording", metavar="FILE", help="a recording in termcheck's JSON-lines format")
    ap.add_argument("--save-recording", metavar="FILE", help="also keep the recording made with --record")
    ap.add_argument("--rows", type=int, default=22, help="terminal height while recording (default 22)")
    ap.add_argument("--fps", type=float, default=20, help="frames per second (default 20)")
    ap.add_argument("--hold", type=float, default=3, help="seconds the last frame stays (default 3)")
    ap.add_argument("output", help="the SVG to write, e.g. docs/demo.svg")
    a = ap.parse_args()
    writes = record(a.record, a.rows) if a.record else load(a.recording)
    if a.save_recording:
        with open(a.save_recording, "w") as f:
            for t, data in writes:
                f.write(json.dumps({"t": round(t, 6), "hex": data.hex()}) + "\n")
    shots = frames(writes, a.rows, a.fps, a.hold)
    used = max((y + 1 for (rows, _), _ in shots for y, runs in enumerate(rows) if runs), default=1)
    svg = render(shots, "typewrite --demo", min(used + 1, a.rows))
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        f.write(svg)
    print("%s: %d frames, %.1f s, %d KiB" % (a.output, len(shots), sum(d for _, d in shots), len(svg) // 1024))


if __name__ == "__main__":
    main()
