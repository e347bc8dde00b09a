import Testing
import TypewriteCore

// Widths of scalars and grapheme clusters (CellWidth.swift, generated CellWidthTable.swift).
// Test strings from docs/widths.md#test-strings.

/// One scalar and its expected width, narrow (default) and with ambiguousIsWide.
struct CellWidthScalarCase: Sendable, CustomTestStringConvertible {
    let value: UInt32
    let narrow: Int
    let wide: Int
    let note: String
    init(_ value: UInt32, _ narrow: Int, _ wide: Int, _ note: String) {
        self.value = value; self.narrow = narrow; self.wide = wide; self.note = note
    }
    var testDescription: String { "U+\(String(value, radix: 16, uppercase: true)) \(note)" }
}

/// A string and the expected measure of each of its Characters.
struct CellWidthClusterCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: [ClusterWidth]
    let note: String
    init(_ text: String, _ expected: [(Int, Bool)], _ note: String) {
        self.text = text
        self.expected = expected.map { ClusterWidth(cells: $0.0, isCertain: $0.1) }
        self.note = note
    }
    var testDescription: String { note }
}

let cellWidthScalarCases: [CellWidthScalarCase] = [
    CellWidthScalarCase(0x00, 0, 0, "NUL (C0)"),
    CellWidthScalarCase(0x09, 0, 0, "TAB (C0)"),
    CellWidthScalarCase(0x0A, 0, 0, "LF (C0)"),
    CellWidthScalarCase(0x1B, 0, 0, "ESC (C0)"),
    CellWidthScalarCase(0x20, 1, 1, "SPACE"),
    CellWidthScalarCase(0x41, 1, 1, "A"),
    CellWidthScalarCase(0x7E, 1, 1, "~"),
    CellWidthScalarCase(0x7F, 0, 0, "DEL"),
    CellWidthScalarCase(0x80, 0, 0, "C1 control"),
    CellWidthScalarCase(0x9B, 0, 0, "CSI (C1)"),
    CellWidthScalarCase(0x9F, 0, 0, "C1 control"),
    CellWidthScalarCase(0xA0, 1, 1, "NO-BREAK SPACE (N)"),
    CellWidthScalarCase(0xA1, 1, 2, "¡ (A)"),
    CellWidthScalarCase(0xAD, 0, 0, "SOFT HYPHEN (Cf, A)"),
    CellWidthScalarCase(0xE9, 1, 2, "é (A)"),
    CellWidthScalarCase(0xFC, 1, 2, "ü (A)"),
    CellWidthScalarCase(0xDF, 1, 2, "ß (A)"),
    CellWidthScalarCase(0x0301, 0, 0, "COMBINING ACUTE (Mn, A)"),
    CellWidthScalarCase(0x0378, 1, 1, "unassigned (Cn)"),
    CellWidthScalarCase(0x03A9, 1, 2, "Ω (A)"),
    CellWidthScalarCase(0x0416, 1, 2, "Ж (A)"),
    CellWidthScalarCase(0x0488, 0, 0, "COMBINING CYRILLIC HUNDRED THOUSANDS (Me)"),
    CellWidthScalarCase(0x0600, 0, 0, "ARABIC NUMBER SIGN (Cf)"),
    CellWidthScalarCase(0x093F, 1, 1, "DEVANAGARI VOWEL SIGN I (Mc)"),
    CellWidthScalarCase(0x094D, 0, 0, "DEVANAGARI VIRAMA (Mn)"),
    CellWidthScalarCase(0x0E31, 0, 0, "THAI MAI HAN-AKAT (Mn)"),
    CellWidthScalarCase(0x0E33, 1, 1, "THAI SARA AM (Lo)"),
    CellWidthScalarCase(0x1100, 2, 2, "HANGUL CHOSEONG KIYEOK (W)"),
    CellWidthScalarCase(0x115F, 0, 0, "HANGUL CHOSEONG FILLER (Default_Ignorable)"),
    CellWidthScalarCase(0x1160, 0, 0, "HANGUL JUNGSEONG FILLER (V)"),
    CellWidthScalarCase(0x1161, 0, 0, "HANGUL JUNGSEONG A (V)"),
    CellWidthScalarCase(0x11A8, 0, 0, "HANGUL JONGSEONG KIYEOK (T)"),
    CellWidthScalarCase(0x11FF, 0, 0, "HANGUL JONGSEONG SSANGNIEUN (T)"),
    CellWidthScalarCase(0x200B, 0, 0, "ZERO WIDTH SPACE (Cf)"),
    CellWidthScalarCase(0x200D, 0, 0, "ZERO WIDTH JOINER (Cf)"),
    CellWidthScalarCase(0x2014, 1, 2, "EM DASH (A)"),
    CellWidthScalarCase(0x2019, 1, 2, "RIGHT SINGLE QUOTATION MARK (A)"),
    CellWidthScalarCase(0x201C, 1, 2, "LEFT DOUBLE QUOTATION MARK (A)"),
    CellWidthScalarCase(0x2026, 1, 2, "HORIZONTAL ELLIPSIS (A)"),
    CellWidthScalarCase(0x2060, 0, 0, "WORD JOINER (Cf)"),
    CellWidthScalarCase(0x20E3, 0, 0, "COMBINING ENCLOSING KEYCAP (Me)"),
    CellWidthScalarCase(0x231A, 2, 2, "WATCH (W)"),
    CellWidthScalarCase(0x2500, 1, 2, "BOX DRAWINGS LIGHT HORIZONTAL (A)"),
    CellWidthScalarCase(0x2588, 1, 2, "FULL BLOCK (A)"),
    CellWidthScalarCase(0x2764, 1, 1, "HEAVY BLACK HEART (N)"),
    CellWidthScalarCase(0x3000, 2, 2, "IDEOGRAPHIC SPACE (F)"),
    CellWidthScalarCase(0x302A, 0, 0, "IDEOGRAPHIC LEVEL TONE MARK (Mn, W)"),
    CellWidthScalarCase(0x3164, 0, 0, "HANGUL FILLER (Default_Ignorable, W)"),
    CellWidthScalarCase(0x3400, 2, 2, "CJK EXT A (W)"),
    CellWidthScalarCase(0x4E2D, 2, 2, "中 (W)"),
    CellWidthScalarCase(0x6587, 2, 2, "文 (W)"),
    CellWidthScalarCase(0xA960, 2, 2, "HANGUL CHOSEONG TIKEUT-MIEUM (W)"),
    CellWidthScalarCase(0xAC00, 2, 2, "HANGUL SYLLABLE GA (W)"),
    CellWidthScalarCase(0xD7B0, 0, 0, "HANGUL JUNGSEONG O-YEO (V)"),
    CellWidthScalarCase(0xD7FB, 0, 0, "HANGUL JONGSEONG PHIEUPH-THIEUTH (T)"),
    CellWidthScalarCase(0xD7FF, 0, 0, "unassigned in Hangul Jamo Extended-B"),
    CellWidthScalarCase(0xE000, 1, 2, "private use (Co, A)"),
    CellWidthScalarCase(0xF8FF, 1, 2, "private use (Co, A)"),
    CellWidthScalarCase(0xFE0E, 0, 0, "VS15 (Mn)"),
    CellWidthScalarCase(0xFE0F, 0, 0, "VS16 (Mn)"),
    CellWidthScalarCase(0xFEFF, 0, 0, "ZERO WIDTH NO-BREAK SPACE (Cf)"),
    CellWidthScalarCase(0xFF21, 2, 2, "FULLWIDTH A (F)"),
    CellWidthScalarCase(0xFF61, 1, 1, "HALFWIDTH IDEOGRAPHIC FULL STOP (H)"),
    CellWidthScalarCase(0xFFFD, 1, 2, "REPLACEMENT CHARACTER (A)"),
    CellWidthScalarCase(0xFFFF, 1, 1, "noncharacter"),
    CellWidthScalarCase(0x1F1FA, 1, 1, "REGIONAL INDICATOR U (N)"),
    CellWidthScalarCase(0x1F3FD, 2, 2, "EMOJI MODIFIER FITZPATRICK TYPE-4 (W)"),
    CellWidthScalarCase(0x1F44D, 2, 2, "THUMBS UP (W)"),
    CellWidthScalarCase(0x1F600, 2, 2, "GRINNING FACE (W)"),
    CellWidthScalarCase(0x1FAE8, 2, 2, "SHAKING FACE (W, Unicode 15.0)"),
    CellWidthScalarCase(0x20000, 2, 2, "CJK EXT B (W)"),
    CellWidthScalarCase(0x2FFFD, 2, 2, "unassigned plane 2 (default W)"),
    CellWidthScalarCase(0x3FFFD, 2, 2, "unassigned plane 3 (default W)"),
    CellWidthScalarCase(0x40000, 1, 1, "unassigned plane 4"),
    CellWidthScalarCase(0xE0001, 0, 0, "LANGUAGE TAG (Cf)"),
    CellWidthScalarCase(0xE0067, 0, 0, "TAG LATIN SMALL LETTER G (Cf)"),
    CellWidthScalarCase(0xE0100, 0, 0, "VS17 (Mn)"),
    CellWidthScalarCase(0xE0FFF, 0, 0, "unassigned, Default_Ignorable"),
    CellWidthScalarCase(0xF0000, 1, 2, "supplementary private use A (Co)"),
    CellWidthScalarCase(0x10FFFD, 1, 2, "supplementary private use B (Co)"),
    CellWidthScalarCase(0x10FFFF, 1, 1, "last code point (noncharacter)"),
]

private let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"   // 👨‍👩‍👧‍👦
private let rainbowFlag = "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}"                     // 🏳️‍🌈
private let englandFlag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"

let cellWidthClusterCases: [CellWidthClusterCase] = [
    CellWidthClusterCase("e\u{301}", [(1, true)], "e + combining acute"),
    CellWidthClusterCase("\u{E9}", [(1, true)], "precomposed é"),
    CellWidthClusterCase("\u{1100}\u{1161}\u{11A8}", [(2, false)], "conjoining jamo L V T"),
    CellWidthClusterCase("\u{1100}", [(2, true)], "lone leading jamo"),
    CellWidthClusterCase("\u{AC01}", [(2, true)], "precomposed syllable 각"),
    CellWidthClusterCase("中文", [(2, true), (2, true)], "CJK ideographs"),
    CellWidthClusterCase("Ａ", [(2, true)], "fullwidth A"),
    CellWidthClusterCase("a\u{AD}b", [(1, true), (0, false), (1, true)], "soft hyphen: 0 per UCD, uncertain"),
    // Format characters and separators: terminals give them 0 cells or 1 (tmux 3.3a no cell for
    // U+2028, xterm one), so they are uncertain.
    CellWidthClusterCase("a\u{200B}b", [(1, true), (0, false), (1, true)], "zero width space"),
    CellWidthClusterCase("\u{200B}", [(0, false)], "lone zero width space"),
    CellWidthClusterCase("a\u{2028}b", [(1, true), (1, false), (1, true)], "line separator"),
    CellWidthClusterCase("a\u{2029}b", [(1, true), (1, false), (1, true)], "paragraph separator"),
    CellWidthClusterCase("\u{FEFF}x", [(0, false), (1, true)], "byte order mark"),
    CellWidthClusterCase("❤", [(1, true)], "text-presentation heart"),
    CellWidthClusterCase("❤\u{FE0F}", [(1, false)], "heart + VS16"),
    CellWidthClusterCase("⌚", [(2, true)], "emoji-presentation watch"),
    CellWidthClusterCase("⌚\u{FE0E}", [(2, false)], "watch + VS15"),
    CellWidthClusterCase("😀", [(2, true)], "plain emoji"),
    CellWidthClusterCase("👍🏽", [(4, false)], "emoji + skin tone modifier"),
    CellWidthClusterCase("\u{1F3FD}", [(2, false)], "lone skin tone modifier"),
    CellWidthClusterCase(family, [(8, false)], "family ZWJ sequence"),
    CellWidthClusterCase(rainbowFlag, [(3, false)], "rainbow flag"),
    CellWidthClusterCase(englandFlag, [(2, false)], "tag sequence flag"),
    CellWidthClusterCase("🇺🇸", [(2, false)], "regional indicator pair"),
    CellWidthClusterCase("🇺", [(1, false)], "lone regional indicator"),
    CellWidthClusterCase("1\u{FE0F}\u{20E3}", [(1, false)], "keycap 1"),
    CellWidthClusterCase("\u{1FAE8}", [(2, false)], "shaking face, Unicode 15.0 emoji"),
    CellWidthClusterCase("\u{1F972}", [(2, false)], "smiling face with tear, Unicode 13.0 emoji"),
    CellWidthClusterCase("\u{1F971}", [(2, true)], "yawning face, Unicode 12.0 emoji"),
    CellWidthClusterCase("\u{1F970}", [(2, true)], "smiling face with hearts, Unicode 11.0 emoji"),
    CellWidthClusterCase("สวัสดี", [(1, true), (1, true), (1, true), (1, true)], "Thai: base + Mn"),
    CellWidthClusterCase("กำ", [(2, false)], "Thai sara am (spacing, width 1)"),
    CellWidthClusterCase("\u{E000}", [(1, false)], "private use"),
    CellWidthClusterCase("\u{378}", [(1, false)], "unassigned"),
    CellWidthClusterCase("\u{FFFF}", [(1, false)], "noncharacter"),
    CellWidthClusterCase("\t", [(0, true)], "tab"),
    CellWidthClusterCase("\r\n", [(0, true)], "CR LF is one Character"),
    CellWidthClusterCase("\u{1B}", [(0, true)], "ESC"),
    CellWidthClusterCase("ab", [(1, true), (1, true)], "ASCII"),
    CellWidthClusterCase("", [], "empty"),
]

@Suite("CellWidth")
struct CellWidthTests {
    @Test("scalar widths", arguments: cellWidthScalarCases)
    func scalarWidth(_ c: CellWidthScalarCase) throws {
        let scalar = try #require(Unicode.Scalar(c.value))
        #expect(CellWidth.of(scalar) == c.narrow)
        #expect(CellWidth.of(scalar, ambiguousIsWide: false) == c.narrow)
        #expect(CellWidth.of(scalar, ambiguousIsWide: true) == c.wide)
        #expect(CellWidth.isAmbiguous(scalar) == (c.narrow != c.wide))
        // A lone scalar measures as its own width.
        #expect(CellWidth.measure([scalar]).cells == c.narrow)
        #expect(CellWidth.measure([scalar], ambiguousIsWide: true).cells == c.wide)
    }

    @Test("cluster widths per Character", arguments: cellWidthClusterCases)
    func clusterWidth(_ c: CellWidthClusterCase) {
        let measured = c.text.map { CellWidth.measure($0.unicodeScalars) }
        #expect(measured == c.expected)
    }

    @Test("Indic conjunct क्षि is uncertain however it is clustered")
    func indicConjunct() {
        let text = "\u{915}\u{94D}\u{937}\u{93F}"   // क्षि
        // As one cluster (Unicode 15.1 rule GB9c): 1 + 0 + 1 + 1 cells, uncertain.
        #expect(CellWidth.measure(text.unicodeScalars) == ClusterWidth(cells: 3, isCertain: false))
        let clusters = text.map { CellWidth.measure($0.unicodeScalars) }
        #expect(clusters.reduce(0) { $0 + $1.cells } == 3)
        #expect(clusters.contains { !$0.isCertain })
    }

    /// East Asian Ambiguous letters and punctuation: narrow by default, wide on request, and certain.
    @Test("ambiguous characters", arguments: Array("\u{2014}\u{2019}\u{201C}\u{2026}\u{E9}\u{3A9}\u{416}\u{2500}"))   // —’“…éΩЖ─
    func ambiguous(_ character: Character) {
        #expect(CellWidth.measure(character.unicodeScalars) == ClusterWidth(cells: 1, isCertain: true))
        #expect(CellWidth.measure(character.unicodeScalars, ambiguousIsWide: true)
                == ClusterWidth(cells: 2, isCertain: true))
        #expect(character.unicodeScalars.allSatisfy { CellWidth.isAmbiguous($0) })
    }

    @Test("controls are zero width", arguments: Array(0x00...0x1F) + Array(0x7F...0x9F))
    func controls(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(CellWidth.of(scalar) == 0)
        #expect(CellWidth.of(scalar, ambiguousIsWide: true) == 0)
    }

    @Test("printable ASCII is one cell", arguments: Array(0x20...0x7E))
    func printableASCII(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(CellWidth.of(scalar) == 1)
        #expect(!CellWidth.isAmbiguous(scalar))
    }

    /// Every scalar goes through the table without trapping; widths are 0, 1 or 2; only ambiguous
    /// scalars depend on the option; a few structural counts guard against a broken table.
    @Test("every scalar 0...0x10FFFF")
    func everyScalar() {
        var histogram = [0, 0, 0]
        var ambiguousCount = 0
        var uncertainAlone = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }   // surrogates
            let narrow = CellWidth.of(scalar)
            let wide = CellWidth.of(scalar, ambiguousIsWide: true)
            guard (0...2).contains(narrow), (0...2).contains(wide) else {
                Issue.record("U+\(String(value, radix: 16)) width \(narrow)/\(wide)")
                return
            }
            histogram[narrow] += 1
            if CellWidth.isAmbiguous(scalar) {
                ambiguousCount += 1
                #expect(narrow == 1 && wide == 2)
            } else if narrow != wide {
                Issue.record("U+\(String(value, radix: 16)) depends on the option but is not ambiguous")
            }
            if !CellWidth.measure(CollectionOfOne(scalar)).isCertain { uncertainAlone += 1 }
        }
        #expect(histogram.reduce(0, +) == 0x110000 - 0x800)
        // Spot values at block edges of the two-level table.
        #expect(CellWidth.of("\u{FF}") == 1 && CellWidth.of("\u{100}") == 1)
        #expect(CellWidth.of("\u{4DBF}") == 2 && CellWidth.of("\u{4DC0}") == 1)   // Ext A | Yijing
        #expect(CellWidth.of("\u{1F5FF}") == 2 && CellWidth.of("\u{1F650}") == 1)
        #expect(CellWidth.of("\u{E01EF}") == 0 && CellWidth.of("\u{10FFFF}") == 1)
        // Spot values of the Unicode 15.0 table: CJK and planes 2-3 dominate width 2, unassigned
        // planes 4-13 and private use make most of the uncertain scalars.
        #expect(histogram[2] > 170_000)            // 182,507 in Unicode 15.0
        #expect(histogram[0] > 4_000)              // 6,245
        #expect(ambiguousCount > 130_000)          // 138,370, of which 137,468 private use
        #expect(uncertainAlone > 800_000)          // 963,075: Cn + Co + emoji components...
        #expect(uncertainAlone < 0x110000 - 140_000)
    }

    /// The generated table agrees with the toolchain's own Unicode data for scalars that exist in
    /// both (age <= 15.0): zero-width categories and Default_Ignorable_Code_Point. Unicode occasionally
    /// re-categorises a scalar (U+1171E AHOM CONSONANT SIGN MEDIAL RA went from Mn to Mc in 16.0, which
    /// the Swift 6.3 stdlib knows), so a few differences are tolerated; a broken table gives thousands.
    @Test("table agrees with Unicode.Scalar.Properties on zero-width scalars")
    func agreesWithStdlib() {
        var mismatches: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age,
                  age.major < 15 || (age.major == 15 && age.minor == 0) else { continue }
            let category = scalar.properties.generalCategory
            let zero = [.nonspacingMark, .enclosingMark, .format, .control].contains(category)
                || scalar.properties.isDefaultIgnorableCodePoint
                || (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
            if zero != (CellWidth.of(scalar) == 0) {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
        #expect(mismatches.count <= 8, "\(mismatches.prefix(20))")
    }

    @Test("generated table names its Unicode version")
    func unicodeVersion() {
        let parts = CellWidth.unicodeVersion.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
    }
}
