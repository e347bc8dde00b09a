"""What the generators in Scripts/generate share."""
import sys


def write_output(text, path):
    """Writes a generated file's `text` to `path`, or to standard output when `path` is "-"."""
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
