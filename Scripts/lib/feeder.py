"""feeder: writes a trace into standard output in timed writes and logs each one.

Shared by Scripts/check/tmux-check.py and Scripts/check/emulator-actions.py, whose `_feed` subcommand runs it
inside the terminal under test, so the judge knows which prefixes the program can have received.
A trace is JSON lines {"delay_ms": N, "hex": "..."}: one write(2) each, N ms after the last (the
format of Tests/traces). Standard library only."""

import json
import os
import signal
import time


def load_trace(path):
    """[(delay in ms, bytes)...] from a trace file."""
    chunks = []
    with open(path, encoding="ascii") as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                chunks.append((float(rec.get("delay_ms", 0)), bytes.fromhex(rec["hex"])))
    return chunks


def chunked(rnd, units, small=(1, 12), gap=(8, 40), stall=0.04, first=150.0):
    """Token-like writes [(delay in ms, bytes)...] of the text `units` (a list of strings: the
    characters, or characters and whole escape sequences), cut only between units: `small` units a
    write, each `gap` ms after the last (`first` ms for the first) with an occasional (`stall`)
    stall of 200-500 ms more. `rnd` is a random.Random."""
    chunks, i = [], 0
    while i < len(units):
        n = rnd.randint(*small)
        piece = "".join(units[i:i + n])
        i += n
        delay = first if not chunks else rnd.uniform(*gap)
        if chunks and rnd.random() < stall:
            delay += rnd.uniform(200, 500)
        chunks.append((round(delay, 1), piece.encode("utf-8")))
    return chunks


def random_pieces(rnd, data, start=0.0):
    """[(seconds since the start, bytes)...]: `data` in pieces of 1 to 120 bytes, each 0, 5, 20 or
    40 ms after the last, the first at `start` or later. `rnd` is a random.Random."""
    out, i, t = [], 0, start
    while i < len(data):
        n = rnd.randint(1, 120)
        t += rnd.choice((0, 0.005, 0.02, 0.04))
        out.append((t, data[i:i + n]))
        i += n
    return out


def prefix_chunks(chunks, speed, offset, timed=True, zero_gaps=False):
    """The first `offset` bytes of `chunks` (a trace played `speed` times faster) as the feeder
    wrote them: `timed` keeps each write apart, the gaps shortened to an eighth and at least 3 ms
    (with `zero_gaps`, a write that followed at once still does), so a terminal reads them one by
    one as it did; else everything in one write."""
    out, n = [], 0
    for delay, data in chunks:
        if n >= offset:
            break
        piece = data[:offset - n]
        n += len(piece)
        if timed:
            d = delay / speed
            out.append((0.0 if not out or (zero_gaps and d == 0) else max(3.0, d / 8), piece))
        elif out:
            out[0] = (0.0, out[0][1] + piece)
        else:
            out.append((0.0, piece))
    return out


def cut_candidates(log, chunks, most):
    """Where a stream the feeder was writing may have been cut (a key pressed mid-stream), from its
    log: (offset of the last write it logged, the end of the next write or None, candidates: that
    next end (the feeder can die between a write and its log line) then the `most` last logged
    offsets, newest first)."""
    _, writes, _ = read_feed_log(log)
    bounds = [0] + [o for o, _ in writes]
    ends, n = [], 0
    for _, data in chunks:
        n += len(data)
        ends.append(n)
    nxt = next((e for e in ends if e > bounds[-1]), None)
    return bounds[-1], nxt, ([nxt] if nxt else []) + list(reversed(bounds))[:most]


def write_trace(path, chunks):
    with open(path, "w", encoding="ascii") as f:
        for delay, data in chunks:
            f.write(json.dumps({"delay_ms": round(delay, 3), "hex": data.hex()}) + "\n")


def feed_main(argv):
    """`_feed TRACE LOG [SPEED] [hold]`: writes the trace SPEED times faster (dies by SIGINT or
    SIGPIPE as any writer in a pipeline would; stops on SIGTSTP). LOG gets `start T`, then
    `OFFSET T` after each write, then `end T`; with `hold` it then sleeps, keeping the pipe open
    (the references: cat waits for more)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    chunks = load_trace(argv[0])
    log = open(argv[1], "w", buffering=1)
    speed = float(argv[2]) if len(argv) > 2 else 1.0
    start = time.monotonic()
    log.write("start %.6f\n" % start)
    due, offset = 0.0, 0
    for delay, data in chunks:
        due += delay / 1000.0 / speed
        wait = start + due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        view = memoryview(data)
        while view:
            view = view[os.write(1, view):]
        offset += len(data)
        log.write("%d %.6f\n" % (offset, time.monotonic()))
    log.write("end %.6f\n" % time.monotonic())
    if len(argv) > 3 and argv[3] == "hold":
        while True:
            time.sleep(3600)
    return 0


def read_feed_log(path):
    """(start time, [(offset, time)...], ended) from a feeder log; (None, [], False) when there is
    no log yet."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None, [], False
    start, writes, ended = None, [], False
    for line in lines:
        parts = line.split()
        if len(parts) != 2:
            continue   # a line cut by the feeder's death
        if parts[0] == "start":
            start = float(parts[1])
        elif parts[0] == "end":
            ended = True
        else:
            try:
                writes.append((int(parts[0]), float(parts[1])))
            except ValueError:
                pass
    return start, writes, ended
