// Cell widths of Unicode scalars and grapheme clusters in a terminal.
//
// The per-scalar data lives in CellWidthTable.swift, generated from the Unicode Character Database
// by Scripts/generate/generate-cell-widths.py. This file holds the rules that combine it; the reasons behind
// them, and the measurements, are in docs/widths.md.

/// Cell width of text in a terminal that sums the widths of the scalars (tmux, alacritty, xterm, pyte...).
///
/// All widths are in terminal cells (columns). Per scalar (UAX #11 East Asian Width, with the
/// zero-width rules of docs/widths.md#cell-width-of-a-scalar, data from the Unicode version in ``unicodeVersion``):
///
/// - **0** for nonspacing and enclosing marks (General_Category Mn, Me), format characters (Cf),
///   Default_Ignorable_Code_Point, Hangul medial vowel and final consonant jamo (V and T:
///   U+1160–11FF, U+D7B0–D7FF) and controls (Cc: C0, DEL, C1). TAB is 0 too: it is not a glyph,
///   the caller handles it.
/// - **2** for East_Asian_Width W (wide) and F (fullwidth), unless one of the zero rules applies.
/// - **1** otherwise. East_Asian_Width A (ambiguous: — ’ “ … é Ω Ж ─ and private use) is 1, as
///   terminals treat it outside CJK locales, or 2 when `ambiguousIsWide` is true (UAX #11 §5).
///
/// U+00AD SOFT HYPHEN is Cf and Default_Ignorable, so it is 0 here as Unicode says. Terminals
/// disagree: xterm, glibc/musl `wcwidth`, utf8proc (tmux) and Python's wcwidth (pyte) draw it as a
/// visible hyphen of width 1 (ISO 8859-1 semantics), the unicode-width crate (alacritty) uses 0 since
/// 2024. So a cluster containing it is *uncertain* (see ``ClusterWidth/isCertain``).
///
/// A cluster is uncertain (``ClusterWidth/isCertain`` false) when it contains any of:
/// ZWJ U+200D; VS15/VS16 U+FE0E/U+FE0F; emoji modifiers U+1F3FB–1F3FF; regional indicators
/// U+1F1E6–1F1FF; tag characters U+E0020–E007F; COMBINING ENCLOSING KEYCAP U+20E3; U+00AD SOFT
/// HYPHEN; private use (Co); unassigned (Cn) code points and noncharacters; Extended_Pictographic
/// scalars assigned after Unicode 12.0 (U+1FAE8 measured as −1, 2 and 0: docs/widths.md#uncertain-widths). A cluster of
/// two or more scalars is also uncertain when it contains a Hangul conjoining jamo (U+1100–11FF,
/// U+A960–A97F, U+D7B0–D7FF), a spacing combining mark (Mc), or a scalar after the first whose
/// width is not 0 (Indic conjuncts such as क्षि, Thai ำ, prepended concatenation marks).
///
/// `of` does not allocate; ASCII is answered without touching the table; other scalars cost one
/// two-level table lookup.
package enum CellWidth {
    /// Width in cells of one scalar: 0 for Mn, Me, Cf, Default_Ignorable_Code_Point, Hangul medial/final jamo (V/T, U+1160–11FF, U+D7B0–D7FF), and C0/C1 controls; 2 for East_Asian_Width W and F; 1 otherwise. Ambiguous (A) is 1 unless ambiguousIsWide.
    ///
    /// - Parameters:
    ///   - scalar: any Unicode scalar (unassigned ones get their UAX #11 default: 2 in the CJK
    ///     ideograph blocks and planes 2–3, 1 elsewhere, 0 where Default_Ignorable).
    ///   - ambiguousIsWide: count East Asian Ambiguous scalars as 2 cells (CJK locales).
    /// - Returns: 0, 1 or 2 cells.
    @inlinable
    package static func of(_ scalar: Unicode.Scalar, ambiguousIsWide: Bool = false) -> Int {
        let value = scalar.value
        if value < 0x7F {
            return value >= 0x20 ? 1 : 0
        }
        return cells(ofClass: classBits(value), ambiguousIsWide: ambiguousIsWide)
    }

    /// Measures one extended grapheme cluster (as Swift's Character groups them).
    ///
    /// Pass the scalars of one `Character` (`character.unicodeScalars`). The width is the sum of
    /// the scalars' widths (``of(_:ambiguousIsWide:)``), which is what terminals without a grapheme
    /// mode display; `isCertain` tells whether terminals are known to agree on it (rules in the
    /// type's documentation). An empty sequence measures 0 cells, certain.
    @inlinable
    package static func measure<S: Sequence>(
        _ scalars: S, ambiguousIsWide: Bool = false
    ) -> ClusterWidth where S.Element == Unicode.Scalar {
        var accumulator = Accumulator()
        for scalar in scalars { accumulator.add(scalar.value, ambiguousIsWide: ambiguousIsWide) }
        return accumulator.width
    }

    /// ``measure(_:ambiguousIsWide:)`` one scalar at a time: a cluster's width so far, as its
    /// scalars arrive (the tokenizer measures clusters on bytes, and continues one a later read
    /// extends). `ambiguousIsUncertain` also makes a cluster with an East Asian Ambiguous scalar
    /// (``isAmbiguous(_:)``) uncertain (a CJK locale, where terminals disagree).
    package struct Accumulator: Sendable, Equatable {
        @usableFromInline var cells = 0
        @usableFromInline var count = 0
        @usableFromInline var union: UInt32 = 0          // OR of the scalars' classes
        @usableFromInline var laterHasWidth = false      // a scalar after the first has width > 0
        @usableFromInline var hasAmbiguous = false       // an ambiguous scalar, with ambiguousIsUncertain

        @inlinable
        package init() {}

        @inlinable @inline(__always)
        package mutating func add(_ value: UInt32, ambiguousIsWide: Bool, ambiguousIsUncertain: Bool = false) {
            let bits: UInt32 = value < 0x7F ? (value >= 0x20 ? classNarrow : classZero) : classBits(value)
            let width = CellWidth.cells(ofClass: bits, ambiguousIsWide: ambiguousIsWide)
            if count > 0 && width != 0 { laterHasWidth = true }
            if ambiguousIsUncertain && value >= 0x7F && bits & classWidthMask == classAmbiguous { hasAmbiguous = true }
            cells += width
            union |= bits
            count += 1
        }

        /// The width of the scalars added so far.
        @inlinable
        package var width: ClusterWidth {
            var certain = union & flagUncertain == 0 && !hasAmbiguous
            if count > 1 && (union & flagUncertainInSequence != 0 || laterHasWidth) {
                certain = false
            }
            return ClusterWidth(cells: cells, isCertain: certain)
        }
    }

    /// True when the scalar is East Asian Width Ambiguous (UAX #11) and not zero-width, i.e. exactly
    /// when ``of(_:ambiguousIsWide:)`` depends on `ambiguousIsWide`. (Ambiguous marks such as
    /// U+0301 and U+00AD are 0 either way and return false.)
    @inlinable
    package static func isAmbiguous(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value >= 0x7F && classBits(value) & classWidthMask == classAmbiguous
    }

    /// The Unicode version of the Character Database the width table was generated from.
    package static var unicodeVersion: String { CellWidthTable.unicodeVersion }

    // MARK: - Table access (layout documented in CellWidthTable.swift and the generator)

    @inlinable static var classWidthMask: UInt32 { 0b0011 }
    @inlinable static var classZero: UInt32 { 0 }
    @inlinable static var classNarrow: UInt32 { 1 }
    @inlinable static var classWide: UInt32 { 2 }
    @inlinable static var classAmbiguous: UInt32 { 3 }
    /// Any cluster containing the scalar is uncertain.
    @inlinable static var flagUncertain: UInt32 { 0b0100 }
    /// A cluster of two or more scalars containing the scalar is uncertain.
    @inlinable static var flagUncertainInSequence: UInt32 { 0b1000 }

    /// Width in cells of a class: the low two bits, with 3 (ambiguous) meaning 1 or 2.
    @inlinable @inline(__always)
    static func cells(ofClass bits: UInt32, ambiguousIsWide: Bool) -> Int {
        let code = Int(truncatingIfNeeded: bits & classWidthMask)
        return code == 3 ? (ambiguousIsWide ? 2 : 1) : code
    }

    /// The 4-bit class of a scalar value (0...0x10FFFF): two array reads, no allocation.
    @usableFromInline
    static func classBits(_ value: UInt32) -> UInt32 {
        let block = Int(truncatingIfNeeded: CellWidthTable.stage1[Int(truncatingIfNeeded: value &>> CellWidthTable.blockShift)])
        let wordMask = (1 << CellWidthTable.wordsPerBlockShift) - 1
        let word = CellWidthTable.stage2[
            block << CellWidthTable.wordsPerBlockShift | Int(truncatingIfNeeded: value &>> 3) & wordMask]
        return (word &>> ((value & 7) &<< 2)) & 0xF
    }
}

/// The width of a grapheme cluster and whether terminals agree on it.
package struct ClusterWidth: Equatable, Sendable {
    /// Cells the cluster occupies in a terminal that sums the widths of its scalars.
    package var cells: Int
    /// False when terminals are known to disagree on the width (emoji sequences, flags, keycaps,
    /// private use, unassigned or very new scalars, Indic conjuncts and jamo sequences, soft
    /// hyphen): such a cluster should be written settled and treated as a barrier (docs/terminals.md#the-fades-safety-rules).
    package var isCertain: Bool

    @inlinable
    package init(cells: Int, isCertain: Bool) {
        self.cells = cells
        self.isCertain = isCertain
    }
}
