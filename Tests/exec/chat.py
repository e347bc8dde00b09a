#!/usr/bin/env python3
"""A small chat REPL for the --exec checks: a prompt, a typed question, a streamed answer.

    chat.py [--readline] [--delay SECONDS] [--chunk-gap SECONDS]

With --readline, input() edits the line through GNU readline (non-canonical mode while it
waits, as llm chat, aichat and python3 -i do); without, the tty's canonical mode reads whole
lines (as a plain input() loop does). The answer (about 600 characters, with a code block) is
written a few words at a time, as a model streams; /bye ends the session with status 0, and an
end of file with status 0 too.
"""
import argparse
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--readline", action="store_true")
parser.add_argument("--delay", type=float, default=0.4, help="before the answer's first words")
parser.add_argument("--chunk-gap", type=float, default=0.05, help="between two pieces of the answer")
parser.add_argument("--prompt", default="\x1b[1;32myou>\x1b[0m ")
args = parser.parse_args()
if args.readline:
    import readline  # noqa: F401  (input() uses it once imported)

ANSWER = (
    "Tide pools survive low tide because their residents \x1b[1mhold water\x1b[0m, seal themselves in, "
    "or hide under wet seaweed until the sea comes back.\n\n"
    "Here is a tiny model of a pool's temperature:\n\n"
    "```python\n"
    "def pool_temperature(sun_hours, depth_cm):\n"
    "    # shallow pools warm faster\n"
    "    return 12.0 + sun_hours * 3.5 / max(depth_cm, 1)\n"
    "```\n\n"
    "Anemones close up, mussels clamp shut, and crabs wait in crevices. "
    "When the tide returns, everything opens again and feeding resumes within minutes.\n"
)

def stream(text):
    words = text.split(" ")
    i = 0
    while i < len(words):
        piece = " ".join(words[i:i + 3]) + (" " if i + 3 < len(words) else "")
        sys.stdout.write(piece)
        sys.stdout.flush()
        time.sleep(args.chunk_gap)
        i += 3

print("Tide-pool chat. Type a question, /bye to leave.")
n = 0
while True:
    try:
        line = input(args.prompt)
    except EOFError:
        print()
        break
    if line.strip() == "/bye":
        print("bye")
        break
    if not line.strip():
        continue
    n += 1
    time.sleep(args.delay)
    stream(ANSWER if n % 2 else ANSWER.replace("Tide pools", "Rock pools"))
sys.exit(0)
