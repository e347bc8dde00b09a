// Extended grapheme cluster boundaries (UAX #29) over UTF-8 bytes, from the generated table in
// GraphemeBreakTable.swift (Scripts/generate/generate-grapheme-breaks.py). No `Character`, `String` or
// allocation: one table lookup per scalar and a few bytes of state.

/// The UAX #29 extended grapheme cluster rules (GB3–GB13, with GB9c, the Indic conjunct rule of
/// Unicode 15.1 and later) as a state machine fed one scalar at a time.
///
/// Scalar properties come from the Unicode version in ``unicodeVersion`` (15.0), with the changes
/// Swift's `Character` (Unicode 16.0) makes to scalars assigned in 15.0; Indic_Conjunct_Break is
/// derived as UAX #44 of Unicode 16.0 defines it (Scripts/generate/generate-grapheme-breaks.py lists both).
/// Swift is the oracle the tests compare with, on text whose scalars are assigned in both.
///
/// The state is restartable at a boundary: segmenting from any cluster's first scalar with a fresh
/// state finds the same boundaries as segmenting from the start of the text.
package struct GraphemeBreak: Sendable, Equatable {
    // Grapheme_Cluster_Break values, as in the table's low four bits.
    static let other: UInt8 = 0, cr: UInt8 = 1, lf: UInt8 = 2, control: UInt8 = 3,
        extend: UInt8 = 4, zwj: UInt8 = 5, regionalIndicator: UInt8 = 6, prepend: UInt8 = 7, spacingMark: UInt8 = 8,
        l: UInt8 = 9, v: UInt8 = 10, t: UInt8 = 11, lv: UInt8 = 12, lvt: UInt8 = 13
    /// The table byte of every printable ASCII scalar (U+0020–U+007E): Other, assigned.
    static let printableASCII: UInt8 = 0x80
    /// No scalar before (start of text): a boundary comes before the next scalar.
    static let start: UInt8 = 0xF

    /// Grapheme_Cluster_Break of the scalar before (``start`` at the start of text).
    var previous: UInt8 = GraphemeBreak.start
    /// GB9c: 0 none; 1 after InCB=Consonant [Extend Linker]* with no Linker yet; 2 with a Linker.
    var conjunct: UInt8 = 0
    /// GB11: 0 none; 1 after Extended_Pictographic Extend*; 2 after that and ZWJ.
    var pictographic: UInt8 = 0
    /// GB12/GB13: an odd number of Regional_Indicator scalars ends the text so far.
    var regionalOdd = false

    package init() {}

    /// The Unicode version of the properties.
    package static var unicodeVersion: String { GraphemeBreakTable.unicodeVersion }

    /// The table byte of a scalar value (0...0x10FFFF): bits 0-3 Grapheme_Cluster_Break, 4-5
    /// Indic_Conjunct_Break, 6 Extended_Pictographic, 7 assigned (GraphemeBreakTable.swift).
    @inline(__always)
    package static func properties(_ value: UInt32) -> UInt8 {
        let block = Int(truncatingIfNeeded: GraphemeBreakTable.stage1[Int(truncatingIfNeeded: value &>> 8)])
        return GraphemeBreakTable.stage2[block &<< 8 | Int(truncatingIfNeeded: value & 0xFF)]
    }

    /// Whether the scalar is assigned (General_Category not Cn) in ``unicodeVersion``.
    package static func isAssigned(_ value: UInt32) -> Bool { properties(value) & 0x80 != 0 }

    /// Takes the next scalar, given its table byte; returns whether a cluster boundary comes before it.
    @inline(__always)
    package mutating func isBoundary(before properties: UInt8) -> Bool {
        let kind = properties & 0xF, conjunctClass = (properties &>> 4) & 3, isPictographic = properties & 0x40 != 0
        let p = previous
        let boundary: Bool
        if p == Self.start {
            boundary = true
        } else if p == Self.cr && kind == Self.lf {
            boundary = false                                                     // GB3
        } else if p == Self.cr || p == Self.lf || p == Self.control
                    || kind == Self.cr || kind == Self.lf || kind == Self.control {
            boundary = true                                                      // GB4, GB5
        } else if p == Self.l && (kind == Self.l || kind == Self.v || kind == Self.lv || kind == Self.lvt) {
            boundary = false                                                     // GB6
        } else if (p == Self.lv || p == Self.v) && (kind == Self.v || kind == Self.t) {
            boundary = false                                                     // GB7
        } else if (p == Self.lvt || p == Self.t) && kind == Self.t {
            boundary = false                                                     // GB8
        } else if kind == Self.extend || kind == Self.zwj || kind == Self.spacingMark || p == Self.prepend {
            boundary = false                                                     // GB9, GB9a, GB9b
        } else if conjunctClass == 2 && conjunct == 2 {
            boundary = false                                                     // GB9c
        } else if isPictographic && pictographic == 2 {
            boundary = false                                                     // GB11
        } else if kind == Self.regionalIndicator && p == Self.regionalIndicator && regionalOdd {
            boundary = false                                                     // GB12, GB13
        } else {
            boundary = true                                                      // GB999
        }
        // State after this scalar.
        switch conjunctClass {
        case 2: conjunct = 1
        case 1: conjunct = conjunct != 0 ? 2 : 0
        case 3: break
        default: conjunct = 0
        }
        if isPictographic {
            pictographic = 1
        } else if pictographic == 1 && kind == Self.extend {
            pictographic = 1
        } else if pictographic == 1 && kind == Self.zwj {
            pictographic = 2
        } else {
            pictographic = 0
        }
        regionalOdd = kind == Self.regionalIndicator && !(p == Self.regionalIndicator && regionalOdd)
        previous = kind
        return boundary
    }

    /// The scalar that starts at `i` in valid UTF-8 `bytes` (below `end`), and its length in bytes.
    @inline(__always)
    package static func decode(_ bytes: UnsafeRawPointer, at i: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(bytes.load(fromByteOffset: i, as: UInt8.self))
        if b0 < 0x80 { return (b0, 1) }
        let b1 = UInt32(bytes.load(fromByteOffset: i + 1, as: UInt8.self)) & 0x3F
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | b1, 2) }
        let b2 = UInt32(bytes.load(fromByteOffset: i + 2, as: UInt8.self)) & 0x3F
        if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | b1 << 6 | b2, 3) }
        let b3 = UInt32(bytes.load(fromByteOffset: i + 3, as: UInt8.self)) & 0x3F
        return ((b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
    }

    /// Whether a scalar with these table bytes starts a cluster of the common shape: Other of
    /// Indic_Conjunct_Break None or Consonant (printable ASCII included), or a Hangul LV or LVT syllable.
    @inline(__always)
    package static func startsSimpleCluster(_ properties: UInt8) -> Bool {
        let kind = properties & 0xF
        return kind == other && properties & 0x10 == 0 || kind == lv || kind == lvt
    }

    /// Whether, in this state, a boundary comes before any scalar that ``startsSimpleCluster(_:)``
    /// (see ``simpleClusters(in:from:to:)``), and the state after that scalar's cluster does not
    /// depend on the state before it.
    var isBeforeSimpleCluster: Bool {
        let p = previous
        return (p == Self.other || p == Self.extend || p == Self.spacingMark || p == Self.lv || p == Self.lvt)
            && conjunct != 2 && pictographic != 2
    }

    /// Clusters of the common shape in a row, from `start` (a scalar that ``startsSimpleCluster(_:)``,
    /// with a boundary before it) in valid UTF-8 text `bytes` with no controls, scanning whole
    /// scalars that begin before `limit`: each cluster is one such scalar (an Other scalar of
    /// Indic_Conjunct_Break None or Consonant, printable ASCII included, or a Hangul LV or LVT
    /// syllable) followed by Extend or SpacingMark scalars that are not Indic_Conjunct_Break Linkers.
    ///
    /// Within such a run UAX #29 puts a boundary before each starting scalar and none before the
    /// others: after Other, LV, LVT, Extend or SpacingMark, and before Other, LV or LVT, only GB9,
    /// GB9a (no boundary before Extend, SpacingMark) and GB999 apply, since GB6 needs an L before,
    /// GB7 and GB8 a V or T after, GB9b a Prepend before, GB9c a Linker, GB11 a ZWJ and GB12/GB13
    /// regional indicators. So one table lookup per scalar, and no state, finds them.
    /// - Returns: `complete`, the end of the last cluster known to be whole (where the next one
    ///   starts), and `count`, the clusters in `start..<complete`; `end`, where the scan stopped
    ///   (before the first scalar of another shape, or at `limit`): the cluster `complete..<end`
    ///   may go on past it.
    @inline(__always)
    package static func simpleClusters(in bytes: UnsafeRawPointer, from start: Int, to limit: Int)
        -> (complete: Int, count: Int, end: Int) {
        var open = start, count = 0
        var i = start + decode(bytes, at: start).length
        while i < limit {
            if bytes.load(fromByteOffset: i, as: UInt8.self) < 0x80 {
                // Printable ASCII: Other, InCB None.
                count += 1
                open = i
                i += 1
                continue
            }
            let (value, length) = decode(bytes, at: i)
            let p = properties(value), kind = p & 0xF, conjunctClass = (p &>> 4) & 3
            if kind == other && conjunctClass & 1 == 0 || kind == lv || kind == lvt {
                // Other of InCB None or Consonant, or a Hangul syllable: a boundary before it; it
                // starts the next cluster.
                count += 1
                open = i
            } else if (kind == extend || kind == spacingMark) && conjunctClass != 1 {
                // Extend or SpacingMark, not a Linker: part of the open cluster.
            } else {
                break
            }
            i += length
        }
        return (open, count, i)
    }

    /// Where the grapheme cluster that starts at byte offset `start` of valid UTF-8 `bytes` ends
    /// (at most `end`), segmenting from a fresh state (`start` must be a boundary, or the start of
    /// the text), with the cluster's width in cells measured as ``CellWidth/measure(_:ambiguousIsWide:)``.

    package static func cluster(in bytes: UnsafeRawPointer, from start: Int, to end: Int, ambiguousIsWide: Bool,
                                ambiguousIsUncertain: Bool) -> (end: Int, width: ClusterWidth) {
        var state = GraphemeBreak()
        var width = CellWidth.Accumulator()
        var i = start
        while i < end {
            let (value, length) = decode(bytes, at: i)
            if !state.isBoundary(before: properties(value)) || i == start {
                width.add(value, ambiguousIsWide: ambiguousIsWide, ambiguousIsUncertain: ambiguousIsUncertain)
                i += length
            } else {
                break
            }
        }
        return (i, width.width)
    }
}
