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
