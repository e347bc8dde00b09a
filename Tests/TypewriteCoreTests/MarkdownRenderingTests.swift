import Foundation
import Testing
@testable import TypewriteCore
import TerminalJudge

/// Markdown in the fade renderer: cat's characters in cat's cells, each role in its look once
/// settled, whatever the pieces, and restyles repainted where the cells still are.
@Suite("Markdown rendering")
struct MarkdownRenderingTests {
    static let answer = """
        # Title

        Some **bold** text, *italic*, ~~struck~~ and `code` with a [link](https://example.com).

        Setext heading
        ==============

        - item one
        - [ ] a task

        ```swift
        let x = 1
        ```

        | a | b |
        |---|---|
        | 1 | 2 |

        > quoted **strong**

        ---
        """ + "\n"

    /// What the settled screen must be: every byte drawn in the look its final role has (cat's
    /// bytes, each run preceded by its SGR).
    static func expectedScreen(_ text: String, columns: Int = 80, rows: Int = 24, colors: Bool = true) -> VirtualTerminal.Snapshot {
        var terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
        terminal.feed(styledReference(text, colors: colors))
        return terminal.snapshot()
    }

    /// The text with each run of one final style preceded by its SGR: what `cat` of it shows is
    /// what typewrite must settle to.
    static func styledReference(_ text: String, colors: Bool = true) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        for run in MarkdownHighlighter.styles(of: bytes) {
            let parameters = MarkdownAppearance.parameters(for: run.style, colors: colors)
            out += Array("\u{1B}[0m".utf8)
            if !parameters.isEmpty { out += Array("\u{1B}[\(parameters)m".utf8) }
            out += bytes[run.range]
        }
        return out + Array("\u{1B}[0m".utf8)
    }

    /// Real answers streamed in random pieces (1 to 120 bytes, 0 to 40 ms apart, as a model's
    /// stream comes) into 80 x 24: the visible screen is the styled reference's, restyles
    /// included (rows that scrolled off are the one exception the rule allows, so only the last
    /// 24 rows are compared). TYPEWRITE_MARKDOWN_DUMP=DIR also writes each case as md-NN.trace
    /// (play.py's format) and md-NN.ref (the styled reference), for `Scripts/check/xcheck-all.py
    /// --markdown DIR` in real emulators.
    @Test("real answers streamed in pieces settle to the styled reference", arguments: 0..<4)
    func realAnswers(part: Int) throws {
        let answers = MarkdownAnswerTests.answers
        let dump = ProcessInfo.processInfo.environment["TYPEWRITE_MARKDOWN_DUMP"]
        if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
        for k in stride(from: part, to: answers.count, by: 10) {
            var rng = SplitMix64(seed: UInt64(k) &+ 1000)
            let bytes = Array(answers[k].utf8)
            var chunks: [RenderHarness.Chunk] = []
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, 1 + Int(rng.next() % 120))
                chunks.append(RenderHarness.Chunk(delay: Double(rng.next() % 41) / 1000, bytes: Array(bytes[at..<(at + n)])))
                at += n
            }
            let screen = Self.typewriteScreen(chunks, harness: Self.harness())
            let expected = Self.expectedScreen(answers[k])
            #expect(Array(screen.lines.suffix(24)) == Array(expected.lines.suffix(24)), "answer \(k): \(screen.diff(expected) ?? "")")
            // Cat's characters (a styled blank at the end of a line is still a blank).
            func characters(_ snapshot: VirtualTerminal.Snapshot) -> [String] {
                snapshot.text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { String($0.reversed().drop { $0 == " " }.reversed()) }
            }
            #expect(characters(screen) == characters(catScreen(answers[k])), "answer \(k)")
            if let dump {
                let name = "\(dump)/md-\(String(format: "%03d", k))"
                let trace = chunks.map { "{\"delay_ms\": \(Int(($0.delay * 1000).rounded())), \"hex\": \"\($0.bytes.map { String(format: "%02x", $0) }.joined())\"}\n" }
                _ = FileManager.default.createFile(atPath: name + ".trace", contents: Data(trace.joined().utf8))
                _ = FileManager.default.createFile(atPath: name + ".ref", contents: Data(Self.styledReference(answers[k])))
            }
        }
    }

    static func harness(columns: Int = 80, rows: Int = 24) -> RenderHarness {
        var harness = RenderHarness(columns: columns)
        harness.configuration.rows = rows
        harness.configuration.highlightsMarkdown = true
        return harness
    }

    static func typewriteScreen(_ chunks: [RenderHarness.Chunk], harness: RenderHarness, rows: Int = 24) -> VirtualTerminal.Snapshot {
        harness.screens(chunks, margin: .xterm, rows: rows).typewrite
    }

    @Test("an answer settles to cat's characters with each role in its look",
          arguments: [0, 1, 7, 40])
    func settlesInLooks(step: Int) {
        let bytes = Array(Self.answer.utf8)
        let cuts = step == 0 ? [] : Array(stride(from: step, to: bytes.count, by: step))
        let screen = Self.typewriteScreen(RenderHarness.chunks(bytes, cuts: cuts, delay: 0.03), harness: Self.harness())
        let expected = Self.expectedScreen(Self.answer)
        #expect(screen == expected, "\(screen.diff(expected) ?? "")")
        #expect(screen.text == catScreen(Self.answer).text)
    }

    @Test("random pieces give the same screen", arguments: [3, 11, 29])
    func sameScreenForAnySplitting(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let bytes = Array(Self.answer.utf8)
        var cuts: [Int] = []
        var at = 0
        while at < bytes.count { at += 1 + Int(rng.next() % 24); cuts.append(at) }
        let screen = Self.typewriteScreen(RenderHarness.chunks(bytes, cuts: cuts, delay: 0.01), harness: Self.harness())
        #expect(screen == Self.expectedScreen(Self.answer), "\(screen.diff(Self.expectedScreen(Self.answer)) ?? "")")
    }

    @Test("a setext underline arriving after its line settled repaints the row above")
    func setextRestyleAbove() {
        let first = Array("Heading text\n".utf8)
        let second = Array("---\nafter\n".utf8)
        let harness = Self.harness()
        let chunks = [RenderHarness.Chunk(delay: 0, bytes: first), RenderHarness.Chunk(delay: 3, bytes: second)]
        let output = String(decoding: harness.output(chunks), as: UTF8.self)
        #expect(output.contains("\u{1B}[A"), "moves up to the heading")
        let screen = Self.typewriteScreen(chunks, harness: harness)
        let expected = Self.expectedScreen("Heading text\n---\nafter\n")
        #expect(screen == expected, "\(screen.diff(expected) ?? "")")
        #expect(screen.lines[0][0].style.bold)
    }

    @Test("a restyle of rows that scrolled off is not repainted")
    func scrolledOffRowsAreLeft() {
        // A paragraph taller than the screen, then its setext underline.
        let paragraph = (1...8).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let chunks = [RenderHarness.Chunk(delay: 0, bytes: Array(paragraph.utf8)),
                      RenderHarness.Chunk(delay: 3, bytes: Array("===\n".utf8))]
        var harness = Self.harness(rows: 4)
        harness.configuration.rows = 4
        let out = harness.output(chunks)
        var terminal = VirtualTerminal(columns: 80, rows: 4, newlineIsCRLF: true)
        terminal.feed(out)
        let screen = terminal.snapshot()
        #expect(screen.text == catScreen(paragraph + "===\n", rows: 4).text)
        // No move reaches above the top of the screen.
        let text = String(decoding: out, as: UTF8.self)
        for n in 4...12 { #expect(!text.contains("\u{1B}[\(n)A")) }
        // The rows still on the screen took the heading's look, and the top one did not move.
        let underline = screen.lines.firstIndex { VirtualTerminal.lineText($0) == "===" }!
        #expect(screen.lines[underline - 1][0].style.bold, "line 8, on the screen")
        #expect(!screen.lines[0][0].style.bold, "line 1, scrolled off when the underline came")
    }

    /// Inputs where a repaint could go wrong: links, scroll regions, a progress line drawn over
    /// itself, BS, wide characters at the margin, an SGR colour, a late underline each time.
    static let hostile: [String] = [
        "\u{1B}]8;;https://x\u{1B}\\a link **open\u{1B}]8;;\u{1B}\\ still**\n===\n",
        "\u{1B}[2;5r\u{1B}[5;1Hone **two\nthree\nfour\nfive\nsix\n---\n\u{1B}[r",
        "progress 10%\rprogress **50%\rprogress 100%\n===\n",
        "ab**cd\u{8}\u{8}XY\n---\n",
        String(repeating: "x", count: 77) + "日本**語\n===\n",
        "\u{1B}[31m**red\u{1B}[0m and more\n---\n",
        "a `span\r\nover` crlf\r\n---\r\n",
    ]

    @Test("hostile inputs: cat's characters in cat's cells, whatever the pieces", arguments: hostile.indices)
    func hostileInputsKeepCatsCharacters(index: Int) {
        let text = Self.hostile[index]
        let bytes = Array(text.utf8)
        for step in [0, 1, 5] {
            let cuts = step == 0 ? [] : Array(stride(from: step, to: bytes.count, by: step))
            let chunks = RenderHarness.chunks(bytes, cuts: cuts, delay: 0.4)
            for margin in VirtualTerminal.MarginConvention.allCases {
                let screens = Self.harness(rows: 6).screens(chunks, margin: margin, rows: 6)
                #expect(screens.typewrite.text == screens.cat.text, "step \(step) \(margin): \(screens.typewrite.diff(screens.cat) ?? "")")
                #expect(screens.typewrite.cursorRow == screens.cat.cursorRow && screens.typewrite.cursorColumn == screens.cat.cursorColumn)
                #expect(screens.typewrite.style == screens.cat.style && screens.typewrite.link == screens.cat.link)
            }
        }
    }

    @Test("a restyle while the cursor is in pending wrap moves before it draws, and comes back to it",
          arguments: ["--", "*a", "-- The C", "ab**c"])
    func restyleInPendingWrap(text: String) {
        // One or two columns: every character ends in the last column.
        for columns in [1, 2] {
            let bytes = Array(text.utf8)
            var harness = RenderHarness(columns: columns, depth: .palette256, cps: 2000, fade: 3)
            harness.configuration.rows = 8
            harness.configuration.highlightsMarkdown = true
            let chunks = RenderHarness.chunks(bytes, cuts: Array(1..<bytes.count), delay: 0.3)
            for margin in VirtualTerminal.MarginConvention.allCases {
                let screens = harness.screens(chunks, margin: margin, rows: 8)
                #expect(screens.typewrite.text == screens.cat.text, "\(columns) columns, \(margin)")
                #expect(screens.typewrite.pendingWrap == screens.cat.pendingWrap)
            }
        }
    }

    @Test("plain prose is written exactly as without markdown")
    func plainProseUnchanged() {
        let text = Array("Just a sentence, with nothing to highlight in it at all.\nAnd a second one.\n".utf8)
        var plain = RenderHarness(columns: 80)
        plain.configuration.rows = 24
        let chunks = RenderHarness.chunks(text, cuts: [9, 30], delay: 0.05)
        #expect(Self.harness().output(chunks) == plain.output(chunks))
    }

    @Test("text in the input's own colours keeps them")
    func inputColoursWin() {
        let text = "\u{1B}[31m**red** and `code`\u{1B}[0m then **bold**\n"
        let screen = Self.typewriteScreen(RenderHarness.chunks(Array(text.utf8)), harness: Self.harness())
        let row = screen.lines[0]
        #expect(row[2].text == "r" && row[2].style.fg == .indexed(1) && !row[2].style.bold)
        #expect(row[13].text == "c" && row[13].style.fg == .indexed(1))
        let bold = row.first { $0.text == "b" }!
        #expect(bold.style.bold && bold.style.fg == .default)
    }

    @Test("the fade of a styled character ends on its palette colour as the terminal reported it")
    func fadesTowardReportedPalette() {
        var harness = Self.harness()
        harness.configuration.palette = [6: RGB(1, 2, 3)]
        let out = String(decoding: harness.output(RenderHarness.chunks(Array("see `c`\n".utf8))), as: UTF8.self)
        // The last fade step before the code span settles is within one step of (1, 2, 3): the
        // ramp runs from the background (black) to it, so every step is at most that bright.
        #expect(out.contains("\u{1B}[36m") || out.contains(";36m"))
        #expect(!out.contains("38;2;0;205;205"), "not xterm's default cyan")
    }

    @Test("under NO_COLOR the looks are attributes only")
    func attributesOnly() {
        var harness = Self.harness()
        harness.configuration.colorDepth = .none
        harness.configuration.markdownUsesColor = false
        let text = "# Head\n\n**b** `c`\n"
        let screen = Self.typewriteScreen(RenderHarness.chunks(Array(text.utf8)), harness: harness)
        #expect(screen == Self.expectedScreen(text, colors: false), "\(screen.diff(Self.expectedScreen(text, colors: false)) ?? "")")
        #expect(screen.lines[0][2].style.bold && screen.lines[0][2].style.fg == .default)
    }

    @Test("looks: strong unlike emphasis, every construct unlike plain, markers dim")
    func appearance() {
        func look(_ style: MarkdownStyle) -> String { MarkdownAppearance.parameters(for: style) }
        #expect(look(.plain) == "")
        let constructs: [MarkdownStyle] = [MarkdownStyle(inline: .strong), MarkdownStyle(inline: .emphasis),
            MarkdownStyle(inline: .code), MarkdownStyle(inline: .link), MarkdownStyle(inline: .strikethrough),
            MarkdownStyle(headingLevel: 1), MarkdownStyle(headingLevel: 3), MarkdownStyle(isCodeBlock: true)]
        for style in constructs { #expect(!look(style).isEmpty && look(style) != "2", "\(style)") }
        #expect(look(MarkdownStyle(inline: .strong)) != look(MarkdownStyle(inline: .emphasis)))
        #expect(look(MarkdownStyle(inline: .strong, marker: .emphasisDelimiter)) == "2")
        #expect(look(MarkdownStyle(headingLevel: 2, marker: .headingMarker)) == "2;95")
        #expect(look(MarkdownStyle(inline: [.strong, .code])) == "36", "code is never bold")
        // Without colours every construct still differs from plain text by an attribute.
        func bare(_ style: MarkdownStyle) -> String { MarkdownAppearance.parameters(for: style, colors: false) }
        for style in constructs { #expect(!bare(style).isEmpty && bare(style) != "2", "\(style) without colours") }
        #expect(bare(MarkdownStyle(inline: .code)) == "7" && bare(MarkdownStyle(isCodeBlock: true)) == "7")
        #expect(bare(MarkdownStyle(headingLevel: 2)) != bare(MarkdownStyle(inline: .strong)))
    }

    @Test("the terminal's palette replies are read (OSC 4)")
    func paletteReplies() {
        let reply = Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{7}\u{1B}]4;6;rgb:0000/8080/8080\u{1B}\\\u{1B}]4;13;rgb:ff/00/ff\u{7}\u{1B}[?62c".utf8)
        let colors = TerminalColors.parse(reply)
        #expect(colors.background == RGB(255, 255, 255))
        #expect(colors.palette[6] == RGB(0, 128, 128))
        #expect(colors.palette[13] == RGB(255, 0, 255))
        let request = String(decoding: TerminalColors.request(palette: MarkdownAppearance.paletteIndices), as: UTF8.self)
        #expect(request.contains("\u{1B}]4;6;?\u{7}") && request.hasSuffix("\u{1B}[c"))
        #expect(!String(decoding: TerminalColors.request, as: UTF8.self).contains("]4;"))
    }

    // MARK: Sessions

    static func sse(_ deltas: [String], reasoning: [String] = []) -> String {
        func event(_ field: String, _ text: String) -> String {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "data: {\"choices\":[{\"delta\":{\"\(field)\":\"\(escaped)\"}}]}\n\n"
        }
        return reasoning.map { event("reasoning_content", $0) }.joined() + deltas.map { event("content", $0) }.joined()
            + "data: [DONE]\n\n"
    }

    static func session(format: StreamFormat, markdown: When, thinking: ThinkingDisplay = .hide) -> SessionHarness {
        var configuration = FadeConfiguration()
        configuration.columns = 80
        configuration.rows = 24
        var settings = SessionSettings(mode: .animated(configuration), format: format, thinking: thinking)
        settings.markdown = markdown
        return SessionHarness(settings)
    }

    @Test("a decoded model stream is highlighted by default; raw text is not")
    func autoMeansDecodedAnswers() {
        var decoded = Self.session(format: .sse, markdown: .auto)
        decoded.receive(Self.sse(["Some **bold", "** here\n"]))
        decoded.endOfInput()
        decoded.settle()
        #expect(decoded.screen.lines[0][7].style.bold)

        var raw = Self.session(format: .raw, markdown: .auto)
        raw.receive("Some **bold** here\n")
        raw.endOfInput()
        raw.settle()
        #expect(!raw.outputText.contains("\u{1B}[1m") && !raw.screen.lines[0][6].style.bold)

        var always = Self.session(format: .raw, markdown: .always)
        always.receive("Some **bold** here\n")
        always.endOfInput()
        always.settle()
        #expect(always.screen.lines[0][7].style.bold)
    }

    @Test("plain mode never changes a byte, even with markdown always")
    func plainModeIsBytesIn() {
        var settings = SessionSettings(mode: .plain)
        settings.markdown = .always
        var plain = SessionHarness(settings)
        plain.receive("# Head\n**b**\n")
        plain.endOfInput()
        #expect(plain.outputText == "# Head\n**b**\n")
    }

    @Test("reasoning is a document of its own: an open fence there does not reach the answer")
    func reasoningIsItsOwnDocument() {
        var harness = Self.session(format: .sse, markdown: .auto, thinking: .show)
        harness.receive(Self.sse(["plain answer\n"], reasoning: ["thinking\n```\nstill thinking\n"]))
        harness.endOfInput()
        harness.settle()
        let row = harness.screen.lines.firstIndex { VirtualTerminal.lineText($0).hasPrefix("plain answer") }!
        #expect(harness.screen.lines[row][0].style == VirtualTerminal.Style(), "answer text is plain")
        let thinking = harness.screen.lines.firstIndex { VirtualTerminal.lineText($0).hasPrefix("still thinking") }!
        #expect(harness.screen.lines[thinking][0].style.fg == .indexed(2), "code block inside the reasoning")
    }
}
