#!/usr/bin/env python3
"""Generate Sources/TypewriteCore/Unicode/GraphemeBreakTable.swift from the Unicode Character Database.

Usage (from the repository root):

    python3 Scripts/generate/generate-grapheme-breaks.py [UCD_DIR] [-o OUTPUT]

UCD_DIR defaults to /usr/share/unicode (Debian package `unicode-data`). OUTPUT defaults to
Sources/TypewriteCore/Unicode/GraphemeBreakTable.swift next to this script; `-o -` writes to
stdout. Python 3 standard library only; the same UCD gives the same bytes.

Files read (relative to UCD_DIR):
  auxiliary/GraphemeBreakProperty.txt   Grapheme_Cluster_Break (UAX #29)
  emoji/emoji-data.txt                  Extended_Pictographic (UTS #51)
  IndicSyllabicCategory.txt             Indic_Syllabic_Category (for Indic_Conjunct_Break)
  Scripts.txt                           Script (for Indic_Conjunct_Break)
  extracted/DerivedGeneralCategory.txt  General_Category (which scalars are assigned)

Per scalar one byte:

  bits 0-3  Grapheme_Cluster_Break: 0 Other, 1 CR, 2 LF, 3 Control, 4 Extend, 5 ZWJ,
            6 Regional_Indicator, 7 Prepend, 8 SpacingMark, 9 L, 10 V, 11 T, 12 LV, 13 LVT
  bits 4-5  Indic_Conjunct_Break: 0 None, 1 Linker, 2 Consonant, 3 Extend
  bit 6     Extended_Pictographic
  bit 7     assigned (General_Category is not Cn) in the version of the data

Indic_Conjunct_Break (the property of rule GB9c) is first published in DerivedCoreProperties.txt
of Unicode 15.1; the Debian data here is Unicode 15.0, which has no such property. It is derived
as UAX #44 (Unicode 16.0) defines it:

  Linker     Indic_Syllabic_Category = Virama, in the scripts Bengali, Devanagari, Gujarati,
             Malayalam, Oriya, Telugu
  Consonant  Indic_Syllabic_Category = Consonant, in the same scripts
  Extend     Grapheme_Cluster_Break = Extend or ZWJ, and not Linker

Swift's `Character` (Swift 6.3, Unicode 16.0) is the oracle, so where it parts from the 15.0 data
on scalars assigned in 15.0 the table follows Swift (both measured with Swift 6.3.1, every scalar):

  - U+11A3A ZANABAZAR SQUARE CLUSTER-INITIAL LETTER RA is no longer Prepend (Unicode 16.0).
  - 26 spacing marks that are Grapheme_Extend in 16.0 (Kannada U+0CC0, U+0CC7..., Balinese,
    Javanese and other spacing viramas) are Extend, not SpacingMark (and so InCB=Extend), and
    U+1171E AHOM CONSONANT SIGN MEDIAL RA is SpacingMark, not Extend.
  - Indic_Conjunct_Break=Consonant, for rule GB9c, holds 621 more scalars than the six scripts'
    consonants: letters of Myanmar, Khmer, Tai Tham, Balinese, Javanese, Meetei Mayek, Kawi and
    others that Swift joins after one of the six linkers (EXTRA_CONJUNCT_CONSONANTS below, found by
    probing every scalar with Swift: U+0915 U+094D X is one Character while "A" X is two).
  - Extended_Pictographic holds, among assigned scalars, only those that are also Emoji (emoji
    pictographs; not U+2654 WHITE CHESS KING or the mahjong tiles U+1F000...): Swift's GB11 joins
    nothing else with ZWJ. Unassigned scalars keep the file's Extended_Pictographic.

Scalars first assigned after the data's version get the default properties here (Other, not
pictographic, not assigned); the tests compare with Swift only on text whose scalars are all
assigned in this version (bit 7).

The Swift table is a two-level lookup: STAGE1[cp >> 8] selects a deduplicated 256-byte block
of STAGE2.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from generated import write_output  # noqa: E402

MAX_CP = 0x110000
BLOCK_SHIFT = 8
BLOCK_SIZE = 1 << BLOCK_SHIFT

GCB = {"Other": 0, "CR": 1, "LF": 2, "Control": 3, "Extend": 4, "ZWJ": 5, "Regional_Indicator": 6,
       "Prepend": 7, "SpacingMark": 8, "L": 9, "V": 10, "T": 11, "LV": 12, "LVT": 13}
INCB_LINKER, INCB_CONSONANT, INCB_EXTEND = 1, 2, 3
EXT_PICT = 0x40
ASSIGNED = 0x80
# Unicode 16.0 (Swift 6.3) changes to scalars assigned in 15.0: see the module docstring.
NOT_PREPEND_IN_16 = {0x11A3A}
EXTEND_IN_16 = {0x0CC0, 0x0CC7, 0x0CC8, 0x0CCA, 0x0CCB, 0x1715, 0x1734, 0x1B3B, 0x1B3D, 0x1B43, 0x1B44, 0x1BAA,
                0x1BF2, 0x1BF3, 0xA953, 0xA9C0, 0x111C0, 0x11235, 0x1134D, 0x116B6, 0x1193D, 0x11F41, 0x16FF0,
                0x16FF1, 0x1D166, 0x1D16D}
SPACING_MARK_IN_16 = {0x1171E}
EXTRA_CONJUNCT_CONSONANTS = [
    (0x1000, 0x102A), (0x103F, 0x103F), (0x1050, 0x1055), (0x105A, 0x105D), (0x1061, 0x1061),
    (0x1065, 0x1066), (0x106E, 0x1070), (0x1075, 0x1081), (0x108E, 0x108E), (0x1780, 0x17B3),
    (0x1A20, 0x1A54), (0x1B0B, 0x1B0C), (0x1B13, 0x1B33), (0x1B45, 0x1B4C), (0x1B83, 0x1BA0),
    (0x1BAE, 0x1BAF), (0x1BBB, 0x1BBD), (0xA989, 0xA98B), (0xA98F, 0xA9B2), (0xA9E0, 0xA9E4),
    (0xA9E7, 0xA9EF), (0xA9FA, 0xA9FE), (0xAA60, 0xAA6F), (0xAA71, 0xAA73), (0xAA7A, 0xAA7A),
    (0xAA7E, 0xAA7F), (0xAAE0, 0xAAEA), (0xABC0, 0xABDA), (0x10A00, 0x10A00), (0x10A10, 0x10A13),
    (0x10A15, 0x10A17), (0x10A19, 0x10A35), (0x11103, 0x11126), (0x11144, 0x11144), (0x11147, 0x11147),
    (0x11900, 0x11906), (0x11909, 0x11909), (0x1190C, 0x11913), (0x11915, 0x11916), (0x11918, 0x1192F),
    (0x11A00, 0x11A00), (0x11A0B, 0x11A32), (0x11A50, 0x11A50), (0x11A5C, 0x11A83), (0x11F04, 0x11F10),
    (0x11F12, 0x11F33),
]
CONJUNCT_SCRIPTS = {"Bengali", "Devanagari", "Gujarati", "Malayalam", "Oriya", "Telugu"}


def entries(path):
    """(first, last, value) for every data line `XXXX(..YYYY) ; value # ...` of a UCD file."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            cps = fields[0].split("..")
            yield int(cps[0], 16), int(cps[-1], 16), fields[1]


def file_version(path):
    with open(path, encoding="utf-8") as f:
        m = re.search(r"-(\d+\.\d+\.\d+)\.txt", f.readline())
    return m.group(1) if m else "unknown"


def property_map(path, wanted=None):
    out = {}
    for a, b, v in entries(path):
        if wanted is None or v in wanted:
            for cp in range(a, b + 1):
                out[cp] = v
    return out


def property_map_multi(path):
    """Every property a scalar has in a file of binary properties (emoji-data.txt): cp -> set."""
    out = {}
    for a, b, v in entries(path):
        for cp in range(a, b + 1):
            out.setdefault(cp, set()).add(v)
    return out


def extra_consonant(cp):
    return any(a <= cp <= b for a, b in EXTRA_CONJUNCT_CONSONANTS)


def classify(ucd):
    gcb = property_map(os.path.join(ucd, "auxiliary", "GraphemeBreakProperty.txt"))
    emoji_data = property_map_multi(os.path.join(ucd, "emoji", "emoji-data.txt"))
    isc = property_map(os.path.join(ucd, "IndicSyllabicCategory.txt"), {"Virama", "Consonant"})
    script = property_map(os.path.join(ucd, "Scripts.txt"), CONJUNCT_SCRIPTS)
    unassigned = property_map(os.path.join(ucd, "extracted", "DerivedGeneralCategory.txt"), {"Cn"})
    values = bytearray(MAX_CP)
    for cp in range(MAX_CP):
        kind = gcb.get(cp, "Other")
        if cp in NOT_PREPEND_IN_16 and kind == "Prepend":
            kind = "Other"
        elif cp in EXTEND_IN_16 and kind == "SpacingMark":
            kind = "Extend"
        elif cp in SPACING_MARK_IN_16 and kind == "Extend":
            kind = "SpacingMark"
        g = GCB[kind]
        props = emoji_data.get(cp, ())
        pictographic = "Extended_Pictographic" in props and ("Emoji" in props or cp in unassigned)
        v = g
        if cp in script and isc.get(cp) == "Virama":
            v |= INCB_LINKER << 4
        elif cp in script and isc.get(cp) == "Consonant" or extra_consonant(cp):
            v |= INCB_CONSONANT << 4
        elif g in (GCB["Extend"], GCB["ZWJ"]):
            v |= INCB_EXTEND << 4
        if pictographic:
            v |= EXT_PICT
        if cp not in unassigned:
            v |= ASSIGNED
        values[cp] = v
    return values


def build_tables(values):
    blocks, stage1, stage2 = {}, [], []
    for start in range(0, MAX_CP, BLOCK_SIZE):
        block = bytes(values[start:start + BLOCK_SIZE])
        if block not in blocks:
            blocks[block] = len(blocks)
            stage2.extend(block)
        stage1.append(blocks[block])
    assert len(blocks) <= 256, "stage 1 no longer fits in UInt8"
    for cp in range(MAX_CP):
        assert stage2[stage1[cp >> BLOCK_SHIFT] << BLOCK_SHIFT | cp & (BLOCK_SIZE - 1)] == values[cp]
    return stage1, stage2


def swift_array(name, values, per_line, doc):
    lines = [f"    /// {doc}", f"    static let {name}: [UInt8] = ["]
    for i in range(0, len(values), per_line):
        lines.append("        " + ", ".join(f"0x{v:02X}" for v in values[i:i + per_line]) + ",")
    lines.append("    ]")
    return "\n".join(lines)


def render(stage1, stage2, version):
    return f"""// GENERATED FILE - DO NOT EDIT.
// Unicode {version} grapheme-break properties, generated from the Unicode Character Database
// (auxiliary/GraphemeBreakProperty.txt, emoji/emoji-data.txt, IndicSyllabicCategory.txt, Scripts.txt,
// extracted/DerivedGeneralCategory.txt) by:
//
//     python3 Scripts/generate/generate-grapheme-breaks.py /usr/share/unicode
//
// The rules that use it are in GraphemeBreak.swift (UAX #29); the derivation in the generator.

/// Per-scalar grapheme-break properties from the Unicode {version} Character Database.
///
/// One byte per scalar: bits 0-3 Grapheme_Cluster_Break (0 Other, 1 CR, 2 LF, 3 Control, 4 Extend,
/// 5 ZWJ, 6 Regional_Indicator, 7 Prepend, 8 SpacingMark, 9 L, 10 V, 11 T, 12 LV, 13 LVT), bits 4-5
/// Indic_Conjunct_Break (0 None, 1 Linker, 2 Consonant, 3 Extend; derived as UAX #44 of Unicode 16.0
/// defines it), bit 6 Extended_Pictographic, bit 7 assigned in Unicode {version}.
/// Lookup of scalar value `v`: `stage2[Int(stage1[v >> 8]) << 8 | v & 0xFF]`.
enum GraphemeBreakTable {{
    /// Unicode version of the data the table was generated from.
    static let unicodeVersion = "{version}"

{swift_array("stage1", stage1, 16, f"Block number of each 256-scalar block: 0x110000 >> 8 = {len(stage1)} entries.")}

{swift_array("stage2", stage2, 16, f"The {len(stage2) // BLOCK_SIZE} distinct blocks, 256 properties each.")}
}}
"""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(here, "..", "..", "Sources", "TypewriteCore", "Unicode", "GraphemeBreakTable.swift")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ucd", nargs="?", default="/usr/share/unicode", help="Unicode Character Database folder")
    parser.add_argument("-o", "--output", default=os.path.normpath(default_out), help="output file, - for stdout")
    a = parser.parse_args()
    version = file_version(os.path.join(a.ucd, "auxiliary", "GraphemeBreakProperty.txt"))
    stage1, stage2 = build_tables(classify(a.ucd))
    text = render(stage1, stage2, version)
    write_output(text, a.output)


if __name__ == "__main__":
    main()
