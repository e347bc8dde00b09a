#!/usr/bin/env python3
"""Write a .trace to stdout with its recorded timing: python3 Tests/traces/play.py [--speed X] [--no-delay] FILE

A .trace holds one JSON object per line, {"delay_ms": N, "hex": "…"}: wait N ms after the previous
write, then write those bytes in one write(2). Waits are measured from the start on the monotonic
clock, so a long trace does not drift. --speed 4 plays four times faster; --no-delay writes the
bytes at once. A reader that goes away (`| head`) ends the replay quietly. Standard library only.

    python3 Tests/traces/play.py Tests/traces/llm-fast.trace | typewrite
"""
import argparse
import json
import os
import sys
import time


def writes(path):
    """[(delay in seconds, bytes)] of a .trace file."""
    out = []
    with open(path, encoding="ascii") as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                out.append((o.get("delay_ms", 0) / 1000.0, bytes.fromhex(o["hex"])))
    return out


def main():
    ap = argparse.ArgumentParser(description="Write a .trace to stdout with its recorded timing.")
    ap.add_argument("trace")
    ap.add_argument("--speed", type=float, default=1.0, help="play this many times faster")
    ap.add_argument("--no-delay", action="store_true", help="write every piece at once")
    a = ap.parse_args()
    start, due = time.monotonic(), 0.0
    for delay, data in writes(a.trace):
        if not a.no_delay:
            due += delay / a.speed
            pause = start + due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(1, view):]
            except BrokenPipeError:
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
