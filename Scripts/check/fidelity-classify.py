#!/usr/bin/env python3
"""Group the shrunk reproductions of Scripts/check/fidelity.sh (repros.txt: "COUNT [kinds] width … | chunks")
by the bug they show, so a long run reads as a handful of causes. The classes are the causes the
fidelity work found in FadeRenderer, Tokenizer and GraphicRendition (November 2026); a class that
has been fixed simply stops appearing, and anything new is "unclassified" and needs a look (shrunk
reproductions are small enough to read; replay one with TYPEWRITE_FIDELITY_REPLAY).

  fidelity-classify.py /tmp/typewrite-fidelity/repros.txt
"""
import re, sys

ESC = r"\\x1B"
C0 = r"\\x(?:0[0-9A-F]|1[0-9A])"  # C0 controls other than ESC, as the reproductions spell them
CLASSES = [
    ("incomplete UTF-8 at end of input followed by typewrite's own bytes", re.compile(r'\\x[C-F][0-9A-F]"$')),
    ("IL/DL move the cursor to column 1; the renderer keeps the column", re.compile(ESC + r"\[[0-9]*[LM]")),
    ("DECRC / SCORC / ?1048l / ?1049l: the pen the renderer assumes after a restore is not the terminal's", re.compile(ESC + r"8|" + ESC + r"\[u|\?104[89]l")),
    ("DECSTR resets the pen; the renderer keeps its own", re.compile(ESC + r"\[!p")),
    ("autowrap off (?7l) not seen: DEC private modes parsed with the '?'", re.compile(r"\?7l")),
    ("SS2/SS3 swallow the byte after them even when it is a control or ESC", re.compile(ESC + r"[NO](?:" + ESC + "|" + C0 + r"|\\x7F)")),
    ("C0 control inside an ESC sequence moves the cursor unseen", re.compile(ESC + r"[ -/]*" + C0)),
    ("C0 control inside an SGR: the pen is not updated", re.compile(ESC + r"\[[0-9;:]*" + C0 + r"[0-9;:" + r"\\x0-9A-F]*m")),
    ("SGR the renderer models differently from the terminal (malformed colour, colon forms)", re.compile(ESC + r"\[[0-9;:]*m")),
]


def main():
    counts, examples = {}, {}
    for line in open(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin"):
        line = line.rstrip("\n")
        m = re.match(r"\s*(\d+) (.*)$", line)
        if not m:
            continue
        n, repro = int(m.group(1)), m.group(2)
        chunks = repro.split(" | ", 1)[-1]
        name = next((name for name, rx in CLASSES if rx.search(chunks)), "unclassified")
        counts[name] = counts.get(name, 0) + n
        examples.setdefault(name, repro)
    for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{n:6d}  {name}\n        e.g. {examples[name]}")


if __name__ == "__main__":
    main()
