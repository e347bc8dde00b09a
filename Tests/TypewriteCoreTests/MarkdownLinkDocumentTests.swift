import Foundation
import Testing
@testable import TypewriteCore
import TerminalJudge

/// Every link case of the tests gathered in one long document (Tests/markdown/links-document.md):
/// definitions apply document-wide, and the highlighter keeps only windows of it. Its links must
/// be cmark-gfm's (Tests/markdown/links-document.cmark-gfm.json, written by
/// `Scripts/check/markdown-links-check.py --document … --write-expected …`), whatever the pieces, and
/// on the screen no cell may carry a link it does not have.
@Suite("Markdown links in one long document")
struct MarkdownLinkDocumentTests {
    static func fixture(_ name: String) -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("markdown/\(name)")
        return (try? Data(contentsOf: url)) ?? Data()
    }

    static let document = String(decoding: fixture("links-document.md"), as: UTF8.self)

    /// cmark-gfm's destinations, in order (an empty one for a `javascript:`, `vbscript:`, `file:`
    /// or `data:` destination, which its safe mode blanks).
    static let oracle: [String] = {
        let object = try? JSONSerialization.jsonObject(with: fixture("links-document.cmark-gfm.json")) as? [String: Any]
        return object?["hrefs"] as? [String] ?? []
    }()

    /// A destination as cmark-gfm's safe mode writes it.
    static func asCmarkWrites(_ href: String?) -> String {
        guard let href else { return "" }
        let lower = href.lowercased()
        if ["javascript:", "vbscript:", "file:"].contains(where: { lower.hasPrefix($0) }) { return "" }
        if lower.hasPrefix("data:") && !["png", "gif", "jpeg", "webp"].contains(where: { lower.hasPrefix("data:image/\($0)") }) {
            return ""
        }
        return href
    }

    static func destinations(_ links: [LinkProbe.Found]) -> [String] { links.map { asCmarkWrites($0.destination) } }

    @Test func theFixturesAreThere() {
        #expect(Self.document.utf8.count > 30_000)
        #expect(Self.oracle.count > 180)
    }

    /// Fed whole, with the destinations the safety rules refuse kept: cmark-gfm's, in order.
    @Test func wholeDocumentLinksWhatCmarkGFMLinks() {
        let ours = Self.destinations(LinkProbe.stream(Self.document, keepingUnsafe: true).links)
        #expect(ours.count == Self.oracle.count)
        for (k, (a, b)) in zip(ours, Self.oracle).enumerated() where a != b {
            Issue.record("link \(k): \(a.prefix(80)) where cmark-gfm has \(b.prefix(80))")
            break
        }
        // The cases the long document used to get wrong.
        let found = LinkProbe.settle(Self.document)
        #expect(!found.contains { $0.destination?.contains("%22%3Eanchor") == true }, "no link inside raw HTML")
        #expect(found.contains { $0.destination == "https://example.org/snake_case_name" }, "\\_ decodes to _")
        #expect(found.contains { $0.destination == "https://example.org/late_def" }, "a late definition's escapes decode")
        #expect(found.contains { $0.destination == "mailto:a_b@example.org" }, "an address read in literal characters")
        let long = found.first { $0.destination?.hasPrefix("https://example.org/bbbb") == true }
        #expect(long?.text.utf8.count == "https://example.org/".utf8.count + 2000, "the long URL's link ends with it")
    }

    /// In pieces of any size, the same links as whole.
    @Test(arguments: [(1, 9), (2, 40), (3, 200), (4, 4000)])
    func anySplittingSettlesTheSame(seed: UInt64, longest: Int) {
        let whole = LinkProbe.stream(Self.document).links
        var generator = MarkdownAnswerTests.SplitMix(state: seed)
        var pieces: [Int] = []
        var total = 0
        while total < Self.document.utf8.count { let n = 1 + Int(generator.next() % UInt64(longest)); pieces.append(n); total += n }
        let streamed = LinkProbe.stream(Self.document, pieces: pieces).links
        #expect(streamed == whole)
        #expect(Self.destinations(LinkProbe.stream(Self.document, pieces: pieces, keepingUnsafe: true).links) == Self.oracle)
    }

    /// The settled screen's cells against the linked reference (`HyperlinkRenderingTests`):
    /// (cells linked elsewhere than the reference has them, cells the reference links and the
    /// screen does not, a few of the first described).
    static func compare(_ text: String, chunks: [RenderHarness.Chunk]) -> (wrong: Int, missing: Int, detail: [String]) {
        let rows = 24
        let harness = HyperlinkRenderingTests.harness(columns: 80, rows: rows)
        let (typewrite, _) = harness.screens(chunks, margin: .xterm, rows: rows)
        var reference = VirtualTerminal(columns: 80, rows: rows, newlineIsCRLF: true)
        reference.feed(HyperlinkRenderingTests.linkedReference(text))
        let expected = reference.snapshot()
        let (screen, _) = HyperlinkRenderingTests.withoutIDs(typewrite)
        // The bare URL of 2,000 bytes takes 26 rows: its destination is known when it ends, and
        // by then its first rows may have scrolled off (they are never redrawn).
        let longURL = expected.lines.indices.filter { expected.lines[$0].contains { $0.link?.contains("bbbbbbbb") == true } }
        let scrolledOff = (longURL.first ?? 0)..<max(longURL.first ?? 0, (longURL.last ?? 0) - (rows - 1))
        var wrong = 0, missing = 0
        var detail: [String] = []
        for r in 0..<min(screen.lines.count, expected.lines.count) {
            let a = screen.lines[r], b = expected.lines[r]
            for c in 0..<min(a.count, b.count) where a[c].link != b[c].link {
                if a[c].link == nil && scrolledOff.contains(r) { continue }
                if a[c].link == nil { missing += 1 } else { wrong += 1 }
                if detail.count < 8 {
                    detail.append("row \(r) column \(c) \(VirtualTerminal.lineText(a).prefix(40).debugDescription): "
                                  + "\(a[c].link?.prefix(50) ?? "none") where the reference has \(b[c].link?.prefix(50) ?? "none")")
                }
            }
        }
        return (wrong, missing, detail)
    }

    /// The document without its raw control characters and SGRs, whose links must all be on the
    /// screen whatever the pieces (an SGR leaves later cells in the input's colour, which no
    /// repaint keeps).
    static let withoutControls = document.replacingOccurrences(of: "\u{1B}[31m", with: "")
        .replacingOccurrences(of: "\u{85}", with: "").replacingOccurrences(of: "\u{7}", with: "")
        .replacingOccurrences(of: "\u{7F}", with: "")

    /// Streamed to an 80×24 terminal whole and in random pieces: no cell carries a link it should
    /// not, and every link is on its cells (but rows that scrolled off before the link was known).
    @Test(arguments: [0, 1, 2] as [UInt64])
    func onTheScreen(seed: UInt64) {
        let text = Self.withoutControls
        let chunks = seed == 0 ? RenderHarness.chunks(Array(text.utf8))
            : HyperlinkRenderingTests.chunks(text, seed: seed, longest: seed == 1 ? 40 : 200)
        let (wrong, missing, detail) = Self.compare(text, chunks: chunks)
        #expect(wrong == 0 && missing == 0, "\(wrong) cells linked wrongly, \(missing) missing: \(detail)")
    }

    /// With the raw control characters: none is linked wrongly (`[x](<https://example.org/ESC[31m>)`
    /// included: the SGR's `ESC [` is read where it stands). A late link may stay unlinked where
    /// cells cannot be repainted; the document's C1 control is a NEL, which leaves the pen known,
    /// so here every link is on its cells.
    @Test func onTheScreenWithTheInputsControls() {
        let chunks = HyperlinkRenderingTests.chunks(Self.document, seed: 5, longest: 200)
        let (wrong, missing, detail) = Self.compare(Self.document, chunks: chunks)
        #expect(wrong == 0 && missing == 0, "\(wrong) cells linked wrongly, \(missing) missing: \(detail)")
    }
}
