"""The pathological markdown inputs of cmark's test suite (github.com/commonmark/cmark,
test/pathological_tests.py: shapes that make a naive parser quadratic), rebuilt here: the
benchmark (Scripts/bench/bench.py, case 14) and Scripts/check/markdown-oracle-check.py --bench time the
highlighter on them. `python3 Scripts/lib/markdown_pathological.py DIR [FACTOR]` writes them to DIR."""
import os
import sys


def pathological_markdown(d, factor=1):
    """Writes the inputs that cmark's test suite (test/pathological_tests.py) uses against parsers that
    go quadratic, one file NAME.md each, into folder `d`; returns `d`. At `factor` 1 they have that
    suite's sizes (30,000 repetitions, lists 1,000 levels deep); `factor` multiplies both."""
    n = 30000 * factor
    cases = {
        "nested-strong-emph": "*a **a " * n + "b" + " a** a*" * n,
        "emph-closers-no-openers": "a_ " * n,
        "emph-openers-no-closers": "_a " * n,
        "link-closers-no-openers": "a]" * n,
        "link-openers-no-closers": "[a" * n,
        "mismatched-openers-closers": "*a_ " * n,
        "openers-closers-multiple-of-3": "a**b" + "c* " * n,
        "link-openers-emph-closers": "[ a_" * n,
        "bracket-paren-pattern": "[ (](" * n,
        "nested-brackets": "[" * n + "a" + "]" * n,
        "nested-block-quotes": "> " * n + "a",
        "deeply-nested-lists": "".join("  " * i + "* a\n" for i in range(1000 * factor)),
        "backticks": "".join("e" + "`" * i for i in range(1, 2500)),
        "unclosed-links-a": "[a](<b" * n,
        "unclosed-links-b": "[a](b" * n,
        "many-references": "".join(f"[{i}]: u\n" for i in range(5000)) + "[0] " * 5000,
        "unclosed-fence-long": "```python\n" + "x = 1  # *a* **b** `c`\n" * 5000,
        "table-many-rows": "| a | b |\n|---|---|\n" + "| *x* | `y` |\n" * 5000,
    }
    os.makedirs(d, exist_ok=True)
    for name, text in cases.items():
        with open(os.path.join(d, name + ".md"), "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return d


if __name__ == "__main__":
    pathological_markdown(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
