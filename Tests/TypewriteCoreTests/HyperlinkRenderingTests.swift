import Foundation
import Testing
@testable import TypewriteCore
import TerminalJudge

/// OSC 8 hyperlinks in the fade renderer: every character of a link's text carries its
/// destination and one id per link (so a link split across rows is one link), nothing else
/// carries one, no link is left open, and the characters are cat's.
@Suite("Hyperlinks in the fade renderer")
struct HyperlinkRenderingTests {
    static func harness(columns: Int = 80, rows: Int = 24, links: Bool = true) -> RenderHarness {
        var harness = MarkdownRenderingTests.harness(columns: columns, rows: rows)
        harness.configuration.hyperlinks = links
        harness.configuration.hyperlinkIDPrefix = "t"
        return harness
    }

    /// The styled reference (`MarkdownRenderingTests.styledReference`) with each safe link's
    /// visible bytes inside an OSC 8 link to its destination, without an id: what the settled
    /// screen must be, ids aside.
    static func linkedReference(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var styles = [MarkdownStyle](repeating: .plain, count: bytes.count)
        for run in MarkdownHighlighter.styles(of: bytes) { for i in run.range { styles[i] = run.style } }
        var links = [String?](repeating: nil, count: bytes.count)
        for link in MarkdownHighlighter.links(of: bytes) {
            guard let destination = link.destination else { continue }
            for range in link.ranges { for i in range { links[i] = destination } }
        }
        var out: [UInt8] = []
        var style: MarkdownStyle? = nil, link: String? = nil
        for (i, byte) in bytes.enumerated() {
            if links[i] != link {
                out += Array("\u{1B}]8;;\(links[i] ?? "")\u{1B}\\".utf8)
                link = links[i]
            }
            if styles[i] != style {
                out += Array("\u{1B}[0m".utf8)
                let parameters = MarkdownAppearance.parameters(for: styles[i], colors: true)
                if !parameters.isEmpty { out += Array("\u{1B}[\(parameters)m".utf8) }
                style = styles[i]
            }
            out.append(byte)
        }
        if link != nil { out += Array("\u{1B}]8;;\u{1B}\\".utf8) }
        return out + Array("\u{1B}[0m".utf8)
    }

    /// A screen with each link's `id=` taken out, and the URI each id was seen with.
    static func withoutIDs(_ snapshot: VirtualTerminal.Snapshot) -> (screen: VirtualTerminal.Snapshot, uris: [String: Set<String>]) {
        var screen = snapshot
        var uris: [String: Set<String>] = [:]
        for row in screen.lines.indices {
            for column in screen.lines[row].indices {
                guard let link = screen.lines[row][column].link, link.hasPrefix("id=") else { continue }
                let parts = link.split(separator: ";", maxSplits: 1)
                let uri = parts.count == 2 ? String(parts[1]) : ""
                uris[String(parts[0]), default: []].insert(uri)
                screen.lines[row][column].link = uri
            }
        }
        return (screen, uris)
    }

    static func chunks(_ text: String, seed: UInt64, longest: Int = 40) -> [RenderHarness.Chunk] {
        var rng = SplitMix64(seed: seed)
        let bytes = Array(text.utf8)
        var cuts: [Int] = []
        var at = 0
        while at < bytes.count { at += 1 + Int(rng.next() % UInt64(longest)); cuts.append(at) }
        return RenderHarness.chunks(bytes, cuts: cuts, delay: Double(rng.next() % 40) / 1000)
    }

    static func check(_ text: String, chunks: [RenderHarness.Chunk], columns: Int = 80, rows: Int = 24,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let harness = Self.harness(columns: columns, rows: rows)
        let (typewrite, cat) = harness.screens(chunks, margin: .xterm, rows: rows)
        var reference = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
        reference.feed(linkedReference(text))
        let expected = reference.snapshot()
        let (screen, uris) = withoutIDs(typewrite)
        #expect(Array(screen.lines.suffix(rows)) == Array(expected.lines.suffix(rows)),
                "\(screen.diff(expected) ?? "")", sourceLocation: sourceLocation)
        #expect(typewrite.text == cat.text, "cat's characters", sourceLocation: sourceLocation)
        #expect(typewrite.link == nil, "no link left open", sourceLocation: sourceLocation)
        for (id, set) in uris { #expect(set.count == 1, "id \(id) carries \(set)", sourceLocation: sourceLocation) }
    }

    /// `first` settles on the screen (3 s) before `second` arrives.
    static func checkSettledFirst(_ first: String, then second: String) {
        check(first + second, chunks: [RenderHarness.Chunk(delay: 0, bytes: Array(first.utf8)),
                                       RenderHarness.Chunk(delay: 3, bytes: Array(second.utf8))])
    }

    static let answer = """
        Read [the guide](https://example.com/guide "Guide") and [the spec][spec], or <https://spec.commonmark.org/>.
        Mail <someone@example.org> or write to help@example.com; see www.example.net/path and
        https://github.com/owner/repo/issues?q=is%3Aopen (bare). Not `[code](https://code.example)`,
        not ![an image](https://img.example/a.png), not [a script](javascript:alert(1)).

        [spec]: https://spec.commonmark.org/0.31.2/ "Spec"
        """ + "\n"

    @Test("a link-rich answer settles with every link's text in its link", arguments: [0, 1, 5, 17])
    func linkRichAnswer(seed: UInt64) {
        let chunks = seed == 0 ? RenderHarness.chunks(Array(Self.answer.utf8)) : Self.chunks(Self.answer, seed: seed)
        Self.check(Self.answer, chunks: chunks)
    }

    /// TYPEWRITE_MARKDOWN_DUMP=DIR also writes each as md-5NN.trace and md-5NN.ref (the linked
    /// reference), for `Scripts/check/xcheck-all.py --markdown DIR` in real emulators.
    @Test("the link-rich answers in Tests/markdown, in random pieces", arguments: 0..<10)
    func linkRichAnswers(index: Int) throws {
        let answers = MarkdownLinkAnswerTests.answers("links-answers.jsonl")
        try #require(index < answers.count)
        let chunks = Self.chunks(answers[index], seed: UInt64(index) + 7, longest: 90)
        Self.check(answers[index], chunks: chunks)
        if let dump = ProcessInfo.processInfo.environment["TYPEWRITE_MARKDOWN_DUMP"] {
            try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
            let name = "\(dump)/md-\(500 + index)"
            let trace = chunks.map { "{\"delay_ms\": \(Int(($0.delay * 1000).rounded())), \"hex\": \"\($0.bytes.map { String(format: "%02x", $0) }.joined())\"}\n" }
            _ = FileManager.default.createFile(atPath: name + ".trace", contents: Data(trace.joined().utf8))
            _ = FileManager.default.createFile(atPath: name + ".ref", contents: Data(Self.linkedReference(answers[index])))
        }
    }

    @Test("a link that wraps is one link: one id on both rows")
    func wrappedLinkHasOneID() {
        let text = "See https://example.com/a/very/long/path/that/wraps/across/the/row/edge ok\n"
        let harness = Self.harness(columns: 30)
        let screen = harness.screens(RenderHarness.chunks(Array(text.utf8), cuts: [10, 31, 50]), margin: .xterm).typewrite
        var ids: Set<String> = []
        for line in screen.lines { for cell in line { if let link = cell.link { ids.insert(String(link.split(separator: ";")[0])) } } }
        #expect(ids.count == 1)
        #expect(screen.lines.filter { $0.contains { $0.link != nil } }.count == 3)
        Self.check(text, chunks: RenderHarness.chunks(Array(text.utf8), cuts: [10, 31, 50]), columns: 30)
    }

    @Test("a destination that arrives after the link's text links the cells already drawn")
    func lateDestinationRepaints() {
        Self.checkSettledFirst("An [inline link that is long enough to have settled", then: "](https://example.com/x) and more.\n")
    }

    @Test("a reference defined after its use is linked when the definition arrives, in place")
    func lateDefinition() {
        Self.checkSettledFirst("Use [the docs][d] for this.\n\n", then: "[d]: https://docs.example/ \"Docs\"\n\nafter\n")
    }

    @Test("after a C1 control that moves the cursor at most, a late definition links in place from the next line")
    func lateDefinitionAfterNEL() {
        Self.checkSettledFirst("a\u{85}b\nUse [the docs][d] for this.\n\n", then: "[d]: https://docs.example/ \"Docs\"\n\nafter\n")
    }

    /// After a C1 control that opens a sequence (kitty reads `U+009B 31m` as an SGR) the pen is not
    /// known until an SGR reset: nothing is repainted, so a late definition may leave its reference
    /// unlinked there, and links nothing wrongly; after the reset it links in place again.
    @Test("after a C1 control that opens a sequence, no cell is linked wrongly; after a reset, late links come back")
    func lateDefinitionAfterCSI() {
        let first = "a\u{9B}31m b\nUse [the docs][d] for this.\n\n\u{1B}[0mThen [more][d] here.\n\n"
        let second = "[d]: https://docs.example/\n\nafter\n"
        let chunks = [RenderHarness.Chunk(delay: 0, bytes: Array(first.utf8)), RenderHarness.Chunk(delay: 3, bytes: Array(second.utf8))]
        let (typewrite, _) = Self.harness().screens(chunks, margin: .xterm)
        let (screen, _) = Self.withoutIDs(typewrite)
        var reference = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        reference.feed(Self.linkedReference(first + second))
        let expected = reference.snapshot()
        for (a, b) in zip(screen.lines, expected.lines) {
            for (x, y) in zip(a, b) where x.link != nil { #expect(x.link == y.link, "\(VirtualTerminal.lineText(a))") }
        }
        let more = screen.lines.first { VirtualTerminal.lineText($0).hasPrefix("Then") }
        #expect(more?.contains { $0.text == "m" && $0.link == "https://docs.example/" } == true, "linked again after the reset")
    }

    @Test("hostile links: none linked, cat's characters, nothing left open", arguments: MarkdownHostileLinkTests.cases)
    func hostile(text: String) {
        let harness = Self.harness()
        let bytes = Array((text + "\n").utf8)
        let (typewrite, cat) = harness.screens(RenderHarness.chunks(bytes, cuts: [bytes.count / 2]), margin: .xterm)
        #expect(typewrite.text == cat.text)
        #expect(typewrite.link == nil)
        let output = harness.output(RenderHarness.chunks(bytes))
        // Whatever is linked has a safe destination: http, https or mailto, printable ASCII only.
        var at = 0
        let open = Array("\u{1B}]8;id=".utf8)
        while at + open.count <= output.count {
            if Array(output[at..<(at + open.count)]) == open {
                var end = at + open.count
                while end < output.count && output[end] != 0x1B { #expect(output[end] > 0x20 && output[end] < 0x7F); end += 1 }
                let uri = String(decoding: output[(at + open.count)..<end], as: UTF8.self).split(separator: ";", maxSplits: 1).last ?? ""
                #expect(uri.hasPrefix("http://") || uri.hasPrefix("https://") || uri.hasPrefix("mailto:"), "\(uri)")
                #expect(uri.utf8.count <= MarkdownLink.maximumDestinationLength)
                at = end
            } else {
                at += 1
            }
        }
    }

    /// Escape sequences inside a destination or a bare URL: the terminal shows no cell for them,
    /// but the bytes are there, so the destination holds control characters and nothing is linked
    /// (as `MarkdownHighlighter.links(of:)` on the raw bytes, the reference, finds).
    static let sequencesInDestinations: [String] = [
        "[x](https://a.example/\u{1B}[31mred) after\n",
        "see https://a.example/\u{1B}[31mred\u{1B}[0m here\n",
        "see https://a.exa\u{1B}[1mmple/red here\n",
        "[x](https://a.example/x\u{1B}]0;title\u{7}y) after\n",
        "<https://a.example/\u{1B}[4mx> after\n",
        "see www.a.example/\u{1B}[31mred here\n",
        "[r] used\n\n[r]: https://a.example/\u{1B}[1mx\n",
    ]

    @Test("an escape sequence inside a destination or a bare URL: nothing linked, whatever the pieces",
          arguments: sequencesInDestinations)
    func sequenceInDestination(text: String) {
        let bytes = Array(text.utf8)
        for cuts in [[], Array(1..<bytes.count), [bytes.count / 2]] {
            let screen = Self.harness().screens(RenderHarness.chunks(bytes, cuts: cuts), margin: .xterm).typewrite
            let linked = screen.lines.flatMap { $0 }.filter { $0.link != nil }.map(\.text).joined()
            #expect(linked.isEmpty, "cells linked: \(linked.debugDescription), cuts \(cuts.count)")
        }
        #expect(MarkdownHighlighter.links(of: bytes).allSatisfy { $0.destination == nil }, "the reference links nothing")
    }

    /// The links of the settled screen, ids left out, against the linked reference's (the raw
    /// bytes' links): (cells linked where the reference links them otherwise or not at all, cells
    /// the reference links and the screen does not).
    static func linkDifferences(_ screen: VirtualTerminal.Snapshot, _ text: String) -> (wrong: Int, missing: Int) {
        var reference = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        reference.feed(linkedReference(text))
        let expected = reference.snapshot()
        var wrong = 0, missing = 0
        for (a, b) in zip(withoutIDs(screen).screen.lines, expected.lines) {
            for (x, y) in zip(a, b) where x.link != y.link { if x.link == nil { missing += 1 } else { wrong += 1 } }
        }
        return (wrong, missing)
    }

    @Test("around escape sequences outside destinations, links and styles stay")
    func sequencesAroundLinks() {
        let text = "\u{1B}[1m**bold**\u{1B}[0m and [x](https://a.example/) \u{1B}[34m[y](https://b.example/)\u{1B}[0m\n\n"
            + "https://c.example/ \u{1B}[2mend\u{1B}[0m\n"
        let bytes = Array(text.utf8)
        for cuts in [[], Array(1..<bytes.count)] {
            let screen = Self.harness().screens(RenderHarness.chunks(bytes, cuts: cuts), margin: .xterm).typewrite
            func cell(_ s: String, row: Int) -> VirtualTerminal.Cell {
                let cells = screen.lines[row], line = VirtualTerminal.lineText(cells)
                guard let found = line.range(of: s) else { Issue.record("no \(s) in \(line)"); return .blank }
                return cells[line.distance(from: line.startIndex, to: found.lowerBound)]
            }
            #expect(cell("bold", row: 0).style.bold)
            #expect(cell("[x]", row: 0).link == nil && cell("and", row: 0).link == nil)
            #expect(cell("x]", row: 0).link?.hasSuffix(";https://a.example/") == true)
            // In the input's own colour: linked when its destination is known as it is drawn (a
            // repaint would not keep the input's pen), and never to another destination.
            let y = cell("y]", row: 0).link
            #expect(y?.hasSuffix(";https://b.example/") ?? !cuts.isEmpty, "\(y ?? "none")")
            #expect(cell("https", row: 2).link?.hasSuffix(";https://c.example/") == true)
            #expect(cell("end", row: 2).link == nil)
            let wrong = Self.linkDifferences(screen, text).wrong
            #expect(wrong == 0)
        }
    }

    /// A CSI's `[` is an open bracket to a parser of the raw bytes, and cmark-gfm links no bare
    /// URL or address while one is open: after an SGR in the same paragraph nothing bare is linked.
    @Test("after an SGR in its paragraph a bare URL is not linked, as on the raw bytes",
          arguments: ["\u{1B}[1mSee\u{1B}[0m https://a.example/ and www.b.example here\n",
                      "x \u{1B}[34mhttps://a.example/\u{1B}[0m y\n",
                      "\u{1B}[1mfoo\u{1B}[0m](https://a.example/) x\n"])
    func bareURLAfterAnSGR(text: String) {
        let bytes = Array(text.utf8)
        for cuts in [[], Array(1..<bytes.count)] {
            let screen = Self.harness().screens(RenderHarness.chunks(bytes, cuts: cuts), margin: .xterm).typewrite
            let linked = screen.lines.flatMap { $0 }.filter { $0.link != nil }.map(\.text).joined()
            #expect(linked.isEmpty, "cells linked: \(linked.debugDescription)")
            // (On the raw bytes the last one is a link whose text is the SGR's own `0m`: no cell.)
            #expect(Self.linkDifferences(screen, text).wrong == 0)
        }
    }

    @Test("with hyperlinks off, no OSC 8 is added")
    func off() {
        let output = Self.harness(links: false).output(RenderHarness.chunks(Array(Self.answer.utf8)))
        #expect(!String(decoding: output, as: UTF8.self).contains("\u{1B}]8;"))
    }

    @Test("the input's own hyperlink passes as it came, and typewrite opens none inside it")
    func inputsOwnLink() {
        let text = "a \u{1B}]8;;https://own.example/\u{1B}\\see https://inner.example/ here\u{1B}]8;;\u{1B}\\ and https://after.example/ b\n"
        let harness = Self.harness()
        let output = String(decoding: harness.output(RenderHarness.chunks(Array(text.utf8), cuts: [20, 40])), as: UTF8.self)
        #expect(!output.contains("inner.example/\u{1B}\\"), "no link of typewrite's inside the input's")
        #expect(output.contains(";https://after.example/\u{1B}\\"), "after it, links again")
        let screen = harness.screens(RenderHarness.chunks(Array(text.utf8), cuts: [20, 40]), margin: .xterm).typewrite
        let row = screen.lines[0]
        let inner = VirtualTerminal.lineText(row).range(of: "inner")!.lowerBound.utf16Offset(in: VirtualTerminal.lineText(row))
        #expect(row[inner].link == "https://own.example/")
        #expect(screen.link == nil)
    }

    @Test("the settings decide: never, NO_COLOR and TERM=dumb add none; auto elsewhere")
    func settings() {
        func links(_ environment: [String: String], _ when: When) -> Bool {
            let capabilities = TerminalCapabilities(environment: environment, outputIsTerminal: true)
            return capabilities.fadeConfiguration(columns: 80, hyperlinks: when).hyperlinks
        }
        let xterm = ["TERM": "xterm-256color"]
        #expect(links(xterm, .auto))
        #expect(!links(xterm, .never))
        #expect(links(["TERM": "linux"], .auto))
        #expect(links(["TERM": "xterm-256color", "NO_COLOR": "1"], .always))
        #expect(!links(["TERM": "xterm-256color", "NO_COLOR": "1"], .auto))
        #expect(!links(["TERM": "dumb"], .always))
        var settings = Typewriter.Settings()
        settings.hyperlinks = .never
        let session = SessionSettings(settings, capabilities: TerminalCapabilities(environment: xterm, outputIsTerminal: true),
                                      terminal: TerminalGeometry(columns: 80, rows: 24), outputIsTerminal: true)
        guard case .animated(let configuration) = session.mode else { Issue.record("not animated"); return }
        #expect(!configuration.hyperlinks)
    }
}
