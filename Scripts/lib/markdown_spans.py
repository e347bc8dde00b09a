"""Builds Scripts/check/markdown-spans, the highlighter's command-line probe: the markdown and
code-scanner sources (standard library only) compiled with one `swiftc -O`, for the markdown
checks (markdown-links-check.py, markdown-oracle-check.py)."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build(tmp):
    """Compiles the probe into folder `tmp`; returns the executable's path."""
    exe = os.path.join(tmp, "markdown-spans")
    srcs = []
    for folder in ("Markdown", "Code"):  # the highlighter and the code scanner it runs in fences
        srcdir = os.path.join(ROOT, "Sources", "TypewriteCore", folder)
        srcs += sorted(os.path.join(srcdir, f) for f in os.listdir(srcdir) if f.endswith(".swift"))
    subprocess.run(["swiftc", "-O", *srcs, os.path.join(ROOT, "Scripts", "check", "markdown-spans", "main.swift"),
                    "-o", exe], check=True)
    return exe
