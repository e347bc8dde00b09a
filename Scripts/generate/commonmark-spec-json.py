#!/usr/bin/env python3
"""commonmark-spec-json.py SPEC.txt > spec.json: the examples of a CommonMark spec.txt as JSON.

Prints a JSON list with one object per example, in the order of the spec:
  markdown    the example's input (the text between the opening fence and the "." line)
  html        the expected HTML (between the "." line and the closing fence)
  example     its number, counting from 1
  start_line  the line number (from 1) of its opening fence line
  end_line    the line number of its closing fence line
  section     the text of the last heading ("#", "##", ... at the start of a line) before it
This is the shape of the spec's own `test/spec_tests.py --dump-tests`. In both texts a "→" stands for
a tab, as the spec writes it. An example is fenced like this (32 backticks each):

    ```````````````````````````````` example
    markdown lines
    .
    html lines
    ````````````````````````````````

Used to make Tests/markdown/commonmark-spec-0.31.2.json from CommonMark 0.31.2's spec.txt (see
Tests/markdown/README.md); only the standard library. With `--extension NAME` it takes the examples
of a GFM spec.txt fenced "example NAME" instead (`--extension autolink` made
Tests/markdown/gfm-autolink-examples.json).
"""
import json
import re
import sys

FENCE = "`" * 32
HEADING = re.compile(r"#+ ")


def examples(lines, opening=" example"):
    """The examples of spec.txt, given as its lines (each with its newline)."""
    out, section = [], ""
    state, fence_line, md, html = "text", 0, [], []
    for number, line in enumerate(lines, 1):
        bare = line.strip()
        if bare == FENCE + opening:
            state, fence_line, md, html = "markdown", number, [], []
        elif bare == "." and state == "markdown":
            state = "html"
        elif bare == FENCE and state == "html":
            out.append({"markdown": "".join(md).replace("→", "\t"),
                        "html": "".join(html).replace("→", "\t"),
                        "example": len(out) + 1, "start_line": fence_line, "end_line": number,
                        "section": section})
            state = "text"
        elif state == "markdown":
            md.append(line)
        elif state == "html":
            html.append(line)
        elif HEADING.match(line):
            section = HEADING.sub("", line, count=1).strip()
    if state != "text":
        sys.exit("commonmark-spec-json.py: the example opened at line %d is not closed" % fence_line)
    return out


def main():
    args = sys.argv[1:]
    opening = " example"
    if len(args) == 3 and args[0] == "--extension":
        opening = " example " + args[1]
        args = args[2:]
    if len(args) != 1 or args[0] in ("-h", "--help"):
        sys.exit(__doc__.split("\n\n")[0])
    with open(args[0], encoding="utf-8", newline="\n") as f:
        tests = examples(f.readlines(), opening)
    sys.stdout.write(json.dumps(tests, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
