#!/usr/bin/env python3
"""Generate Sources/TypewriteCore/Unicode/CellWidthTable.swift from the Unicode Character Database.

Usage (from the repository root):

    python3 Scripts/generate/generate-cell-widths.py [UCD_DIR] [-o OUTPUT] [--stats]

UCD_DIR defaults to /usr/share/unicode (Debian package `unicode-data`). OUTPUT defaults to
Sources/TypewriteCore/Unicode/CellWidthTable.swift next to this script; `-o -` writes to stdout.
Python 3 standard library only. The output is deterministic: the same UCD gives the same bytes.

Files read (paths relative to UCD_DIR; the first one found is used):
  EastAsianWidth.txt                                   UAX #11 East_Asian_Width (W, F, A, ...)
  extracted/DerivedEastAsianWidth.txt (optional)       only its `@missing` defaults
  extracted/DerivedGeneralCategory.txt | UnicodeData.txt   General_Category (Mn, Me, Cf, Mc, Co, Cn)
  DerivedCoreProperties.txt                            Default_Ignorable_Code_Point
  emoji/emoji-data.txt | emoji-data.txt                Extended_Pictographic (UTS #51)
  DerivedAge.txt                                       Age (to find pictographs newer than 12.0)

Per scalar we compute a 4-bit class (the rules and the measurements behind them are in
docs/widths.md, and are documented on `CellWidth` in CellWidth.swift):

  bits 0-1  width code: 0 = zero width, 1 = narrow, 2 = wide, 3 = East Asian Ambiguous
            (1 cell, or 2 when the caller asks for ambiguous-is-wide)
  bit 2     UNCERTAIN: any cluster containing this scalar has a width terminals disagree on
  bit 3     MULTI: a cluster of two or more scalars containing this scalar is uncertain
            (Hangul conjoining jamo, spacing combining marks Mc)

The Swift table is a two-level lookup: STAGE1[cp >> 8] selects a 256-scalar block (UInt8 while
there are at most 256 distinct blocks, else UInt16); STAGE2 stores the deduplicated blocks, eight
4-bit classes per UInt32 word, 32 words per block.
Flat arrays of integer literals with an explicit element type keep the Swift type checker fast.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from generated import write_output  # noqa: E402

MAX_CP = 0x110000
BLOCK_SHIFT = 8
BLOCK_SIZE = 1 << BLOCK_SHIFT          # scalars per stage-2 block
NIBBLES_PER_WORD = 8                   # 4-bit classes per UInt32
WORDS_PER_BLOCK = BLOCK_SIZE // NIBBLES_PER_WORD

ZERO, NARROW, WIDE, AMBIGUOUS = 0, 1, 2, 3
UNCERTAIN = 4
MULTI = 8

# Pictographs (Extended_Pictographic) that entered Unicode after this version are "very new":
# terminals built on older tables disagree on their width (docs/widths.md#uncertain-widths: U+1FAE8
# measured as -1 / 2 / 0).
NEW_EMOJI_AFTER = (12, 0)

EAW_LONG = {"Neutral": "N", "Wide": "W", "Fullwidth": "F", "Halfwidth": "H",
            "Narrow": "Na", "Ambiguous": "A"}

# UAX #11: unassigned code points in these ranges default to W (older EastAsianWidth.txt files
# state this only in prose; newer ones also have `@missing` lines, which are parsed as well).
EAW_WIDE_DEFAULTS = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
                     (0x20000, 0x2FFFD), (0x30000, 0x3FFFD)]

LINE_RE = re.compile(r"^([0-9A-Fa-f]{4,6})(?:\.\.([0-9A-Fa-f]{4,6}))?\s*;\s*([^#]*?)\s*(?:#.*)?$")
MISSING_RE = re.compile(r"^#\s*@missing:\s*([0-9A-Fa-f]{4,6})\.\.([0-9A-Fa-f]{4,6})\s*;\s*(.*?)\s*$")
VERSION_RE = re.compile(r"^#\s*\S+-(\d+\.\d+\.\d+)\.txt")


def find(ucd, *candidates, required=True):
    for rel in candidates:
        path = os.path.join(ucd, rel)
        if os.path.isfile(path):
            return path
    if required:
        sys.exit("generate-cell-widths: none of %s found in %s (the Unicode Character Database: Debian package "
                 "unicode-data, or the files of https://www.unicode.org/Public/15.0.0/ucd/ given as UCD_DIR)" % (", ".join(candidates), ucd))
    return None


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def entries(path):
    """Yield (first, last, fields) for each data line of a UCD property file."""
    for line in read_lines(path):
        if not line or line.startswith("#"):
            continue
        m = LINE_RE.match(line)
        if not m:
            sys.exit("generate-cell-widths: cannot parse %s: %r" % (path, line))
        first = int(m.group(1), 16)
        last = int(m.group(2), 16) if m.group(2) else first
        yield first, last, [f.strip() for f in m.group(3).split(";")]


def missing(path):
    for line in read_lines(path):
        m = MISSING_RE.match(line)
        if m:
            yield int(m.group(1), 16), int(m.group(2), 16), m.group(3)


def file_version(path):
    for line in read_lines(path)[:3]:
        m = VERSION_RE.match(line)
        if m:
            return m.group(1)
    return None


def general_category(ucd):
    gc = ["Cn"] * MAX_CP
    derived = find(ucd, "extracted/DerivedGeneralCategory.txt", required=False)
    if derived:
        for first, last, fields in entries(derived):
            gc[first:last + 1] = [fields[0]] * (last - first + 1)
        return gc, derived
    path = find(ucd, "UnicodeData.txt")
    range_start = None
    for line in read_lines(path):
        fields = line.split(";")
        cp, name, cat = int(fields[0], 16), fields[1], fields[2]
        if name.endswith(", First>"):
            range_start = cp
        elif name.endswith(", Last>"):
            gc[range_start:cp + 1] = [cat] * (cp - range_start + 1)
        else:
            gc[cp] = cat
    return gc, path


def east_asian_width(ucd):
    path = find(ucd, "EastAsianWidth.txt")
    eaw = ["N"] * MAX_CP
    for first, last in EAW_WIDE_DEFAULTS:
        eaw[first:last + 1] = ["W"] * (last - first + 1)
    sources = [path]
    derived = find(ucd, "extracted/DerivedEastAsianWidth.txt", required=False)
    if derived:
        sources.append(derived)
    for source in sources:
        for first, last, value in missing(source):
            if (first, last) == (0, MAX_CP - 1):
                continue  # the global default N, already applied
            value = EAW_LONG.get(value, value)
            eaw[first:last + 1] = [value] * (last - first + 1)
    for first, last, fields in entries(path):
        eaw[first:last + 1] = [fields[0]] * (last - first + 1)
    return eaw, path


def binary_property(path, name):
    result = bytearray(MAX_CP)
    for first, last, fields in entries(path):
        if fields[0] == name:
            result[first:last + 1] = b"\x01" * (last - first + 1)
    if not any(result):
        sys.exit("generate-cell-widths: no %s in %s" % (name, path))
    return result


def ages(ucd):
    path = find(ucd, "DerivedAge.txt")
    age = [None] * MAX_CP
    for first, last, fields in entries(path):
        major, minor = (int(x) for x in fields[0].split("."))
        age[first:last + 1] = [(major, minor)] * (last - first + 1)
    return age, path


def in_ranges(cp, ranges):
    return any(first <= cp <= last for first, last in ranges)


HANGUL_ZERO = [(0x1160, 0x11FF), (0xD7B0, 0xD7FF)]       # medial vowels V and final consonants T
HANGUL_JAMO = [(0x1100, 0x11FF), (0xA960, 0xA97F), (0xD7B0, 0xD7FF)]
ALWAYS_UNCERTAIN = [
    (0x200D, 0x200D),     # ZERO WIDTH JOINER
    (0xFE0E, 0xFE0F),     # VS15 (text presentation), VS16 (emoji presentation)
    (0x1F3FB, 0x1F3FF),   # emoji modifiers (skin tones)
    (0x1F1E6, 0x1F1FF),   # regional indicators (flags)
    (0xE0020, 0xE007F),   # tag characters (subdivision flags)
    (0x20E3, 0x20E3),     # COMBINING ENCLOSING KEYCAP
    (0x00AD, 0x00AD),     # SOFT HYPHEN: Cf, width 0 by Unicode, but xterm, glibc, utf8proc and
                          # Python wcwidth draw a hyphen of width 1 (ISO 8859-1 semantics)
]


def is_noncharacter(cp):
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def classify(ucd):
    gc, gc_path = general_category(ucd)
    eaw, eaw_path = east_asian_width(ucd)
    dicp_path = find(ucd, "DerivedCoreProperties.txt")
    dicp = binary_property(dicp_path, "Default_Ignorable_Code_Point")
    emoji_path = find(ucd, "emoji/emoji-data.txt", "emoji-data.txt")
    pict = binary_property(emoji_path, "Extended_Pictographic")
    age, age_path = ages(ucd)

    classes = bytearray(MAX_CP)
    for cp in range(MAX_CP):
        cat = gc[cp]
        if (cat in ("Mn", "Me", "Cf", "Cc") or dicp[cp] or in_ranges(cp, HANGUL_ZERO)):
            cls = ZERO
        elif eaw[cp] in ("W", "F"):
            cls = WIDE
        elif eaw[cp] == "A":
            cls = AMBIGUOUS
        else:
            cls = NARROW
        # Format characters (Cf) and the line and paragraph separators (Zl, Zp): terminals give
        # them 0 cells or 1 (tmux 3.3a draws U+2028 in no cell, xterm in one), and some join
        # them to the cell before.
        if (cat in ("Co", "Cn", "Cf", "Zl", "Zp") or is_noncharacter(cp) or in_ranges(cp, ALWAYS_UNCERTAIN)
                or (pict[cp] and (age[cp] is None or age[cp] > NEW_EMOJI_AFTER))):
            cls |= UNCERTAIN
        if cat == "Mc" or in_ranges(cp, HANGUL_JAMO):
            cls |= MULTI
        classes[cp] = cls

    used = [gc_path, eaw_path, dicp_path, emoji_path, age_path]
    versions = sorted({v for v in (file_version(p) for p in used) if v})
    return classes, used, versions


def build_tables(classes):
    blocks = {}
    stage1 = []
    stage2 = []
    for start in range(0, MAX_CP, BLOCK_SIZE):
        block = bytes(classes[start:start + BLOCK_SIZE])
        index = blocks.get(block)
        if index is None:
            index = len(blocks)
            blocks[block] = index
            for w in range(WORDS_PER_BLOCK):
                word = 0
                for n in range(NIBBLES_PER_WORD):
                    word |= block[w * NIBBLES_PER_WORD + n] << (4 * n)
                stage2.append(word)
        stage1.append(index)
    return stage1, stage2


def verify(classes, stage1, stage2):
    for cp in range(MAX_CP):
        word = stage2[(stage1[cp >> BLOCK_SHIFT] * WORDS_PER_BLOCK) | ((cp >> 3) & (WORDS_PER_BLOCK - 1))]
        if (word >> ((cp & 7) * 4)) & 0xF != classes[cp]:
            sys.exit("generate-cell-widths: table self-check failed at U+%04X" % cp)


def swift_array(name, type_name, values, per_line, width, doc):
    lines = ["    %s" % d for d in doc]
    lines.append("    static let %s: [%s] = [" % (name, type_name))
    fmt = "0x%%0%dX" % width
    for i in range(0, len(values), per_line):
        chunk = values[i:i + per_line]
        lines.append("        " + ", ".join(fmt % v for v in chunk) + ",")
    lines.append("    ]")
    return "\n".join(lines)


def render(stage1, stage2, used, versions, ucd):
    version = versions[-1] if versions else "unknown"
    files = ", ".join(os.path.relpath(p, ucd) for p in used)
    blocks = len(stage2) // WORDS_PER_BLOCK
    stage1_type, stage1_width = ("UInt8", 2) if blocks <= 256 else ("UInt16", 4)
    word_bits = (WORDS_PER_BLOCK - 1).bit_length()
    out = [
        "// GENERATED FILE - DO NOT EDIT.",
        "// Unicode %s cell-width classes, generated from the Unicode Character Database" % version,
        "// (%s) by:" % files,
        "//",
        "//     python3 Scripts/generate/generate-cell-widths.py %s" % ucd,
        "//",
        "// The rules are documented on `CellWidth` (CellWidth.swift) and in the generator.",
        "",
        "/// Per-scalar cell-width classes from the Unicode %s Character Database." % version,
        "///",
        "/// A class is 4 bits: bits 0-1 width code (0 zero, 1 narrow, 2 wide, 3 East Asian Ambiguous),",
        "/// bit 2 uncertain in any cluster, bit 3 uncertain in a cluster of two or more scalars.",
        "/// Lookup of scalar value `v`:",
        "/// `stage2[Int(stage1[v >> %d]) << %d | (v >> 3) & %d] >> ((v & 7) * 4) & 0xF`."
        % (BLOCK_SHIFT, word_bits, WORDS_PER_BLOCK - 1),
        "enum CellWidthTable {",
        "    /// Unicode version of the data the table was generated from.",
        "    static let unicodeVersion = \"%s\"" % version,
        "    /// log2 of the number of scalars per block.",
        "    static let blockShift: UInt32 = %d" % BLOCK_SHIFT,
        "    /// log2 of the number of stage-2 words per block.",
        "    static let wordsPerBlockShift = %d" % word_bits,
        "",
        swift_array("stage1", stage1_type, stage1, 16, stage1_width,
                    ["/// Block number of each %d-scalar block: 0x110000 >> %d = %d entries."
                     % (BLOCK_SIZE, BLOCK_SHIFT, len(stage1))]),
        "",
        swift_array("stage2", "UInt32", stage2, 8, 8,
                    ["/// %d distinct blocks of %d words, eight 4-bit classes per word, lowest nibble first."
                     % (blocks, WORDS_PER_BLOCK)]),
        "}",
        "",
    ]
    return "\n".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(here, "..", "..", "Sources", "TypewriteCore", "Unicode", "CellWidthTable.swift")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ucd", nargs="?", default="/usr/share/unicode",
                        help="directory of the Unicode Character Database (default: %(default)s)")
    parser.add_argument("-o", "--output", default=os.path.normpath(default_out),
                        help="Swift file to write, '-' for stdout (default: %(default)s)")
    parser.add_argument("--stats", action="store_true", help="print table statistics to stderr")
    args = parser.parse_args()

    classes, used, versions = classify(args.ucd)
    if len(versions) > 1:
        print("generate-cell-widths: warning: mixed UCD versions %s" % ", ".join(versions), file=sys.stderr)
    stage1, stage2 = build_tables(classes)
    verify(classes, stage1, stage2)
    text = render(stage1, stage2, used, versions, args.ucd)

    write_output(text, args.output)
    if args.stats:
        print("stage1: %d entries, stage2: %d UInt32 (%d blocks), %d bytes of table data"
              % (len(stage1), len(stage2), len(stage2) // WORDS_PER_BLOCK, len(stage1) + 4 * len(stage2)),
              file=sys.stderr)


if __name__ == "__main__":
    main()
