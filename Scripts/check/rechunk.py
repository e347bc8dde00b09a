#!/usr/bin/env python3
"""rechunk.py N DELAY: cat with other write boundaries. Reads all of stdin, then writes it in
N-byte pieces DELAY seconds apart. The same bytes as cat, cut elsewhere: a control for the
screenshot comparisons of Scripts/check/xcheck-all.py (a picture that changes when cat's own writes are
cut differently depends on paint order, not on content; docs/terminals.md#paint-order)."""
import os
import sys
import time

size, pause = int(sys.argv[1]), float(sys.argv[2])
data = sys.stdin.buffer.read()
for at in range(0, len(data), size):
    view = memoryview(data)[at:at + size]
    while view:
        view = view[os.write(1, view):]
    time.sleep(pause)
