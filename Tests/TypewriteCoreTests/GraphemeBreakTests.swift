import Foundation
import Testing
@testable import TypewriteCore

// The table-driven segmenter (GraphemeBreak, UAX #29 on UTF-8 bytes) against Swift's `Character`,
// the oracle, on text whose scalars are assigned in the table's Unicode version (15.0; Swift 6.3
// follows 16.0): random scalars of every break class, real multilingual text, and the lines of
// GraphemeBreakTest.txt (Tests/unicode) on which Swift agrees with the file.

/// Cluster lengths in bytes of valid UTF-8 `bytes`, by `GraphemeBreak.cluster`.
func graphemeClusterLengths(_ bytes: [UInt8]) -> [Int] {
    bytes.withUnsafeBytes { raw -> [Int] in
        guard let base = raw.baseAddress else { return [] }
        var lengths: [Int] = [], i = 0
        while i < raw.count {
            let end = GraphemeBreak.cluster(in: base, from: i, to: raw.count, ambiguousIsWide: false, ambiguousIsUncertain: false).end
            lengths.append(end - i)
            i = end
        }
        return lengths
    }
}

/// Cluster lengths in bytes by the state machine fed scalar by scalar (no restart at boundaries).
func graphemeClusterLengthsStreaming(_ scalars: [Unicode.Scalar]) -> [Int] {
    var state = GraphemeBreak(), lengths: [Int] = []
    for s in scalars {
        let n = String(s).utf8.count
        if state.isBoundary(before: GraphemeBreak.properties(s.value)) { lengths.append(n) } else { lengths[lengths.count - 1] += n }
    }
    return lengths
}

/// Cluster lengths in bytes by Swift's `Character`.
func swiftClusterLengths(_ scalars: [Unicode.Scalar]) -> [Int] {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars)
    return String(text).map { $0.utf8.count }
}

/// Scalars assigned in the table's Unicode version, grouped by their table byte (break property,
/// Indic conjunct property, Extended_Pictographic): up to `perClass` of each, spread over the range.
func graphemeBreakClassSamples(perClass: Int = 48) -> [[Unicode.Scalar]] {
    var byClass: [UInt8: [Unicode.Scalar]] = [:]
    for v in UInt32(0)...0x10FFFF {
        guard let s = Unicode.Scalar(v), GraphemeBreak.isAssigned(v) else { continue }
        byClass[GraphemeBreak.properties(v), default: []].append(s)
    }
    return byClass.keys.sorted().map { key in
        let all = byClass[key]!
        let step = max(1, all.count / perClass)
        return stride(from: 0, to: all.count, by: step).map { all[$0] }
    }
}

@Suite struct GraphemeBreakTests {
    static let samples = graphemeBreakClassSamples()

    @Test func everyBreakClassIsSampled() {
        // Other, CR, LF, Control, Extend, ZWJ, RI, Prepend, SpacingMark, L, V, T, LV, LVT, and the
        // Indic conjunct classes and pictographs among them.
        let kinds = Set(Self.samples.map { GraphemeBreak.properties($0[0].value) & 0xF })
        #expect(kinds == Set(0...13))
        let conjunct = Set(Self.samples.map { (GraphemeBreak.properties($0[0].value) >> 4) & 3 })
        #expect(conjunct == Set(0...3))
        #expect(Self.samples.contains { GraphemeBreak.properties($0[0].value) & 0x40 != 0 })
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomScalarsOfEveryClassAgreeWithSwift(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var differing: [String] = []
        for _ in 0..<25_000 {
            let count = Int.random(in: 1...10, using: &rng)
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<count {
                let group = Self.samples[Int.random(in: 0..<Self.samples.count, using: &rng)]
                scalars.append(group[Int.random(in: 0..<group.count, using: &rng)])
            }
            let bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
            let expected = swiftClusterLengths(scalars)
            if graphemeClusterLengths(bytes) != expected || graphemeClusterLengthsStreaming(scalars) != expected {
                differing.append(scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
                    + " swift \(expected) table \(graphemeClusterLengths(bytes))")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(8))")
    }

    /// Every assigned scalar X (but the large blocks of one property: Han, Hangul syllables,
    /// Tangut, private use) in the contexts that tell its properties apart: "A" X, X "A", after a
    /// Devanagari consonant and virama (GB9c), and around ZWJ with an emoji (GB11).
    @Test func everyAssignedScalarInTheTellingContexts() {
        let uniform: [ClosedRange<UInt32>] = [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xE000...0xF8FF,
                                              0x17000...0x18CFF, 0x20000...0x3FFFF, 0xF0000...0x10FFFF]
        var differing: [String] = []
        for v in UInt32(0x20)...0x10FFFF {
            guard let x = Unicode.Scalar(v), GraphemeBreak.isAssigned(v), !uniform.contains(where: { $0.contains(v) }) else { continue }
            for context: [Unicode.Scalar] in [["A", x], [x, "A"], ["\u{915}", "\u{94D}", x], [x, "\u{200D}", "\u{1F468}"],
                                              ["\u{1F468}", "\u{200D}", x], ["\u{1F600}", x, "\u{200D}", "\u{1F600}"]] {
                let bytes = Array(String(String.UnicodeScalarView(context)).utf8)
                if graphemeClusterLengths(bytes) != swiftClusterLengths(context) {
                    differing.append(context.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " "))
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(12))")
    }

    static let realText: [String] = [
        "日本語のテキスト、漢字とかな。東京都渋谷区",
        "中文文本：你好，世界！简体与繁體。",
        "한국어 텍스트입니다. 안녕하세요! \u{1100}\u{1161}\u{11A8} \u{1112}\u{1161}\u{11AB}",
        "नमस्ते दुनिया, क्षत्रिय, क्‍ष, श्री, हिन्दी, द्व्य, र्क्ष्म्य",
        "বাংলা ক্ষ্ম, ગુજરાતી ક્ષ, ଓଡ଼ିଆ କ୍ଷ, తెలుగు క్ష, മലയാളം ക്ഷ, தமிழ் க்ஷ",
        "ภาษาไทย กำลัง น้ำ ที่ สวัสดีครับ",
        "العربية: مرحبا بالعالم، السَّلَامُ عَلَيْكُمْ",
        "עברית: שָׁלוֹם",
        "cafe\u{301} nai\u{308}ve re\u{301}sume\u{301} Ångström café naïve",
        "👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 🇯🇵🇫🇷🇺🇸🇩 👍🏿 ❤️ #️⃣ 1️⃣ 🧑‍🤝‍🧑 🏴󠁧󠁢󠁳󠁣󠁴󠁿",
        "Zalgo: Z\u{335}\u{321}a\u{334}\u{32a}l\u{336}g\u{337}o\u{338}",
        "\u{600}123 \u{110BD}x \u{D7B0}\u{AC00}\u{11A8} \u{200D}\u{1F600} a\u{200D}b",
    ]

    @Test func realMultilingualTextAgreesWithSwift() {
        for text in Self.realText {
            let scalars = Array(text.unicodeScalars)
            #expect(graphemeClusterLengths(Array(text.utf8)) == swiftClusterLengths(scalars), "\(text)")
            #expect(graphemeClusterLengthsStreaming(scalars) == swiftClusterLengths(scalars), "\(text)")
        }
    }

    @Test func graphemeBreakTestFileWhereSwiftAgrees() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("unicode/GraphemeBreakTest.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var checked = 0, swiftDiffers = 0, failures: [String] = []
        for line in text.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.first == "÷" else { continue }
            var scalars: [Unicode.Scalar] = [], lengths: [Int] = []
            var boundary = true
            for field in fields.dropFirst() {
                if field == "÷" { boundary = true; continue }
                if field == "×" { boundary = false; continue }
                guard let value = UInt32(field, radix: 16), let s = Unicode.Scalar(value) else { scalars = []; break }
                if boundary || lengths.isEmpty { lengths.append(0) }
                lengths[lengths.count - 1] += String(s).utf8.count
                scalars.append(s)
            }
            guard !scalars.isEmpty, scalars.allSatisfy({ GraphemeBreak.isAssigned($0.value) || $0.value < 0x20 }) else { continue }
            guard swiftClusterLengths(scalars) == lengths else { swiftDiffers += 1; continue }
            checked += 1
            let bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
            if graphemeClusterLengths(bytes) != lengths { failures.append(String(line.prefix(120))) }
        }
        #expect(checked > 500)
        #expect(swiftDiffers < 40, "Swift and the 15.0 test file part on \(swiftDiffers) lines")
        #expect(failures.isEmpty, "\(failures.count) lines differ: \(failures.prefix(5))")
    }
}
