import Foundation
import Testing
@testable import TypewriteCore

/// Settled styles of the incremental markdown highlighter, on cases written after the rules of
/// CommonMark 0.31.2 and the GFM extensions (in this project's own words; no raw HTML).
enum MarkdownProbe {
    /// The settled styles of `markdown`, fed whole.
    static func settle(_ markdown: String) -> MarkdownStyleMap {
        var highlighter = MarkdownHighlighter()
        var map = MarkdownStyleMap()
        map.apply(highlighter.feed(Array(markdown.utf8)))
        map.apply(highlighter.finish())
        return map
    }

    /// The style of the first byte of the `occurrence`-th (0-based) `probe` in `markdown`.
    static func style(_ markdown: String, _ probe: String, occurrence: Int = 0) -> String {
        let bytes = Array(markdown.utf8), needle = Array(probe.utf8)
        var seen = 0
        for i in 0...(bytes.count - needle.count) where Array(bytes[i..<(i + needle.count)]) == needle {
            if seen == occurrence { return settle(markdown)[i].description }
            seen += 1
        }
        return "probe not found"
    }
}

@Suite("Markdown inline rules")
struct MarkdownInlineTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let markdown: String
        let probe: String
        let occurrence: Int
        let expected: String
        init(_ markdown: String, _ probe: String, _ expected: String, occurrence: Int = 0) {
            self.markdown = markdown; self.probe = probe; self.expected = expected; self.occurrence = occurrence
        }
        var testDescription: String { "\(markdown.debugDescription) at \(probe.debugDescription)" }
    }

    static let emphasis: [Case] = [
        Case("*tide pools*", "tide", "emphasis"),
        Case("*tide pools*", "*", "emphasis+marker:emphasisDelimiter"),
        Case("a * tide pools*", "tide", "plain"),                  // opener followed by a space
        Case("a*\"tide\"*", "tide", "plain"),                      // not left-flanking
        Case("sea*weed*", "weed", "emphasis"),                     // `*` may open inside a word
        Case("sea_weed_", "weed", "plain"),                        // `_` may not
        Case("_sea_weed", "sea", "plain"),
        Case("snake_case_name", "case", "plain"),
        Case("(_kelp_)", "kelp", "emphasis"),                      // punctuation around `_`
        Case("**tide pools**", "tide", "strong"),
        Case("**tide pools**", "**", "strong+marker:emphasisDelimiter"),
        Case("__tide pools__", "tide", "strong"),
        Case("__tide__pools", "tide", "plain"),
        Case("** tide**", "tide", "plain"),
        Case("*a **b** c*", "b", "strong+emphasis"),
        Case("***both***", "both", "strong+emphasis"),
        Case("*foo**bar*", "bar", "emphasis"),                     // rule of 3: `**` is text here
        Case("*foo**bar*", "**", "emphasis"),
        Case("**foo*bar**", "bar", "strong"),
        Case("foo***bar***baz", "bar", "strong+emphasis"),
        Case("*a*b*c*", "b", "plain"),
        Case("**unclosed", "unclosed", "plain"),                   // settled: no closer, no span
        Case("*unclosed", "unclosed", "plain"),
        Case("\\*escaped\\*", "escaped", "plain"),
        Case("~~gone~~", "gone", "strike"),
        Case("~gone~", "gone", "strike"),
        Case("a ~~~gone~~~", "gone", "plain"),                     // runs of three are text
        Case("~~mixed~", "mixed", "plain"),                        // lengths must match
        Case("from ~5 ms to ~10 ms", "5", "plain"),
    ]

    static let code: [Case] = [
        Case("a `tide` pool", "tide", "code"),
        Case("a `tide` pool", "`", "code+marker:codeDelimiter"),
        Case("``a ` b``", "`", "code", occurrence: 2),
        Case("`*not emphasis*`", "not", "code"),
        Case("*a `*` b*", "b", "emphasis"),
        Case("*foo`*`", "foo", "plain"),                           // the code span takes the `*`
        Case("`unclosed *x*", "x", "emphasis"),                    // settled: backtick is text
        Case("``one` two", "two", "plain"),
    ]

    static let links: [Case] = [
        Case("see [the pools](https://example.org \"Title\") now", "the", "link"),
        Case("see [the pools](https://example.org \"Title\") now", "https", "marker:linkDestination"),
        Case("see [the pools](https://example.org \"Title\") now", "Title", "marker:linkDestination"),
        Case("see [the pools](https://example.org) now", "](", "marker:linkDelimiter"),
        Case("see [the pools](https://example.org) now", "now", "plain"),
        Case("[1] and [Your Name]", "Your", "plain"),              // no definition: text
        Case("[ref]: https://example.org\n\nsee [ref] here", "ref", "link", occurrence: 1),
        Case("[ref]: https://example.org\n\nsee [text][ref] here", "text", "link"),
        Case("[link [nested] text](/uri)", "nested", "link"),
        Case("[outer [inner](/a)](/b)", "outer", "plain"),         // no link inside a link
        Case("![a tide pool](pool.png)", "tide", "link"),
        Case("**[bold link](/x)**", "bold", "strong+link"),
        Case("[a *b* c](/x)", "b", "emphasis+link"),
        Case("<https://example.org/a>", "example", "autolink"),
        Case("<https://example.org/a>", "<", "marker:linkDelimiter"),
        Case("<pools@example.org>", "pools", "autolink"),
        Case("visit www.example.org.", "example", "autolink"),
        Case("visit www.example.org.", ".", "plain", occurrence: 2),
        Case("(see https://example.org/a_(b))", "b", "autolink"),
        Case("mail pools@example.org now", "pools", "autolink"),
        Case("`https://example.org`", "https", "code"),
    ]

    @Test(arguments: emphasis + code + links)
    func inline(_ c: Case) {
        #expect(MarkdownProbe.style(c.markdown, c.probe, occurrence: c.occurrence) == c.expected)
    }
}

@Suite("Markdown block rules")
struct MarkdownBlockTests {
    static let cases: [MarkdownInlineTests.Case] = [
        .init("# Tide pools", "Tide", "h1"),
        .init("# Tide pools", "#", "h1+marker:headingMarker"),
        .init("### Tide **pools**", "pools", "h3+strong"),
        .init("## Tide ##", "#", "h2+marker:headingMarker", occurrence: 2),
        .init("####### seven", "seven", "plain"),
        .init("#5 bolt", "bolt", "plain"),
        .init("Tide pools\n==========\n", "Tide", "h1"),
        .init("Tide pools\n==========\n", "=", "h1+marker:headingMarker"),
        .init("Tide\npools\n---\n", "Tide", "h2"),
        .init("- Tide\n---\n", "---", "marker:thematicBreak"),     // the underline may not be lazy
        .init("text\n\n---\n", "---", "marker:thematicBreak"),
        .init("* * *", "*", "marker:thematicBreak"),
        .init("```swift\nlet x = 1\n```\n", "let", "code-block:keyword"),   // a known language: code roles
        .init("```swift\nlet x = 1\n```\n", "x", "code-block"),
        .init("```kt\nval x = 1\n```\n", "val", "code-block"),              // an unknown one: the base style
        .init("```swift\nlet x = 1\n```\n", "```swift", "marker:codeFence"),
        .init("```\n*not* emphasis\n", "not", "code-block"),         // a fence left open at the end
        .init("~~~\n```\nstill code\n~~~\nafter", "still", "code-block"),
        .init("~~~\n```\nstill code\n~~~\nafter", "after", "plain"),
        .init("````\ncode\n```\nmore\n````", "more", "code-block"),
        .init("    indented code", "indented", "code-block"),
        .init("a paragraph\n    not code", "not", "plain"),          // cannot interrupt a paragraph
        .init("text\n\n</\nafter", "</", "plain"),                 // a bare "</" starts no HTML block
        .init("> a quote\nlazy line", "lazy", "plain"),
        .init("> a quote\nlazy **line**", "line", "strong"),
        .init("> a quote", ">", "marker:quoteMarker"),
        .init("> # heading in a quote", "heading", "h1"),
        .init("> > nested", ">", "marker:quoteMarker", occurrence: 1),
        .init("- one\n- two", "-", "marker:listMarker", occurrence: 1),
        .init("1. one\n2. two", "2.", "marker:listMarker"),
        .init("3) three", "3)", "marker:listMarker"),
        .init("a line\n2. not an item", "2.", "plain"),            // only 1 may interrupt a paragraph
        .init("a line\n1. an item", "1.", "marker:listMarker"),
        .init("- item\n\n  continued **para**", "para", "strong"),
        .init("- item\n\n      code in item", "code", "code-block"),
        .init("-not an item", "-", "plain"),
        .init("- [ ] to do\n- [x] done", "[x]", "marker:taskBox"),
        .init("- [ ] to do", "to", "plain"),
        .init("- ```\n  fenced in item\n  ```", "fenced", "code-block"),
        .init("| a | b |\n|---|:-:|\n| c | `d` |", "|---|:-:|", "marker:tableDelimiterRow"),
        .init("| a | b |\n|---|:-:|\n| c | `d` |", "|", "marker:tablePipe", occurrence: 1),
        .init("| a | b |\n|---|:-:|\n| c | `d` |", "d", "code"),
        .init("| a | b |\n|---|:-:|\n| c | `d` |", "a", "plain"),
        .init("| a | b |\n|---|\n", "---", "plain"),               // cell counts differ: no table
        .init("intro\n| a | b |\n| - | - |\n| c | d |", "intro", "plain"),
        .init("intro\n| a | b |\n| - | - |\n| c | d |", "|", "marker:tablePipe", occurrence: 6),
    ]

    @Test(arguments: cases)
    func block(_ c: MarkdownInlineTests.Case) {
        #expect(MarkdownProbe.style(c.markdown, c.probe, occurrence: c.occurrence) == c.expected)
    }

    @Test func fenceLanguageRidesOnItsRuns() {
        var highlighter = MarkdownHighlighter()
        let update = highlighter.feed(Array("```python title\nprint(1)\n```\n".utf8))
        let code = update.runs.filter { $0.style.isCodeBlock }
        #expect(!code.isEmpty && code.allSatisfy { $0.codeLanguage == "python" })
        #expect(update.runs.filter { $0.style.marker == .codeFence }.allSatisfy { $0.codeLanguage == "python" })
        #expect(update.runs.filter { $0.style.isPlain }.allSatisfy { $0.codeLanguage == nil })
    }
}

@Suite("Markdown streaming")
struct MarkdownStreamingTests {
    /// Feeds `pieces` in order; returns every update and the settled map.
    static func stream(_ pieces: [String]) -> (updates: [MarkdownUpdate], map: MarkdownStyleMap) {
        var highlighter = MarkdownHighlighter()
        var map = MarkdownStyleMap()
        var updates: [MarkdownUpdate] = []
        for piece in pieces {
            let u = highlighter.feed(Array(piece.utf8))
            updates.append(u)
            map.apply(u)
        }
        let u = highlighter.finish()
        updates.append(u)
        map.apply(u)
        return (updates, map)
    }

    /// The style the bytes of `text` got when they were first fed, given `before`.
    static func firstGuess(after before: String, _ text: String) -> String {
        var highlighter = MarkdownHighlighter()
        _ = highlighter.feed(Array(before.utf8))
        let runs = highlighter.feed(Array(text.utf8)).runs
        return Set(runs.map(\.style.description)).sorted().joined(separator: " ")
    }

    @Test func openersAreGuessedByHowOftenTheyOpen() {
        #expect(Self.firstGuess(after: "a **", "bold") == "strong")
        #expect(Self.firstGuess(after: "a `", "code") == "code")
        #expect(Self.firstGuess(after: "a *", "emph") == "emphasis")
        #expect(Self.firstGuess(after: "a _", "maybe") == "plain")
        #expect(Self.firstGuess(after: "a [", "maybe") == "plain")
        #expect(Self.firstGuess(after: "a ~", "5 ms") == "plain")
        #expect(Self.firstGuess(after: "a [text](", "https") == "marker:linkDestination")
        #expect(Self.firstGuess(after: "_", "a line in italics") == "emphasis")
        #expect(Self.firstGuess(after: "## ", "Head") == "h2")
        #expect(Self.firstGuess(after: "Title\n", "==") == "h1+marker:headingMarker")
        #expect(Self.firstGuess(after: "Title\n", "--") == "h2+marker:headingMarker")
        #expect(Self.firstGuess(after: "| a | b |\n", "|--") == "marker:tableDelimiterRow")
        #expect(Self.firstGuess(after: "text\n", "-") == "marker:listMarker")
        #expect(Self.firstGuess(after: "text\n\n", "12") == "marker:listMarker")
        #expect(Self.firstGuess(after: "text\n\n", "*") == "marker:listMarker")
        #expect(Self.firstGuess(after: "text\n\n* ", "**") == "strong+marker:emphasisDelimiter")
        #expect(Self.firstGuess(after: "text\n\n- ", "2") == "plain")
        #expect(Self.firstGuess(after: "```\ncode\n", "``") == "marker:codeFence")
        #expect(Self.firstGuess(after: "```\n", "code") == "code-block")
    }

    @Test func runsTileTheBytesJustFed() {
        var highlighter = MarkdownHighlighter()
        var offset = 0
        for piece in ["# Ti", "tle\n\nSome **bo", "ld** text and `co", "de`.\n", ""] {
            let runs = highlighter.feed(Array(piece.utf8)).runs
            var at = offset
            for run in runs { #expect(run.range.lowerBound == at); at = run.range.upperBound }
            offset += piece.utf8.count
            #expect(at == offset)
        }
    }

    @Test func aSetextUnderlineRestylesItsParagraphWhenItsLineEnds() {
        var highlighter = MarkdownHighlighter()
        _ = highlighter.feed(Array("Tide pools\n".utf8))
        let partial = highlighter.feed(Array("===".utf8))
        #expect(partial.restyles.isEmpty)
        let ended = highlighter.feed(Array("\n".utf8))
        #expect(ended.restyles.contains { $0.range == 0..<10 && $0.style == MarkdownStyle(headingLevel: 1) })
    }

    @Test func aDelimiterRowRestylesTheHeaderRow() {
        var highlighter = MarkdownHighlighter()
        _ = highlighter.feed(Array("| a | b |\n".utf8))
        let ended = highlighter.feed(Array("|---|---|\n".utf8))
        #expect(ended.restyles.contains { $0.range == 0..<1 && $0.style.marker == .tablePipe })
    }

    @Test func anUnclosedStrongBecomesTextWhenItsLineEnds() {
        var highlighter = MarkdownHighlighter()
        let open = highlighter.feed(Array("a **b".utf8))
        #expect(open.runs.contains { $0.range.contains(4) && $0.style.inline == .strong })
        let ended = highlighter.feed(Array("\n".utf8))
        #expect(ended.restyles.contains { $0.range.contains(4) && $0.style == .plain })
    }

    @Test func aCloserArrivingLaterKeepsTheGuess() {
        let (updates, map) = Self.stream(["a **b", "old", "** c\n"])
        #expect(updates.allSatisfy { $0.restyles.allSatisfy { !$0.range.contains(4) } })
        #expect(map[4].inline == .strong)
    }

    @Test func aRunThatMayStillGrowWaitsForItsNextCharacter() {
        // `*` then `*`: the first is not taken for an emphasis closer.
        let (updates, map) = Self.stream(["3. **Ginger Tea", "*", "*: warm\n"])
        #expect(updates.allSatisfy { $0.restyles.isEmpty })
        #expect(map[6].inline == .strong)
    }

    @Test func piecesMaySplitAUTF8Sequence() {
        let text = "**été** 🦀 `ß`\n"
        let bytes = Array(text.utf8)
        var highlighter = MarkdownHighlighter()
        var map = MarkdownStyleMap()
        for b in bytes { map.apply(highlighter.feed([b])) }
        map.apply(highlighter.finish())
        #expect(map.runs == MarkdownHighlighter.styles(of: bytes))
    }

    @Test func finishDecidesWhatIsStillOpen() {
        let (_, map) = Self.stream(["See `this and **that"])
        #expect((0..<map.count).allSatisfy { map[$0] == .plain })
    }
}

@Suite("Markdown README example")
struct MarkdownReadmeExampleTests {
    /// The README's "Highlighting markdown from Swift" example, as it stands there.
    @Test func readmeExampleStylesEveryByte() {
        let pieces: [[UInt8]] = ["# Tide", " pools\n\nSome **bo", "ld** and `code`\n"].map { Array($0.utf8) }
        var highlighter = MarkdownHighlighter()
        var styles: [MarkdownStyle] = []                  // one per byte of the answer so far
        for piece in pieces {                             // [UInt8], as the answer streams in
            let update = highlighter.feed(piece)
            for run in update.runs { styles += repeatElement(run.style, count: run.range.count) }
            for run in update.restyles { for i in run.range { styles[i] = run.style } }
        }
        for run in highlighter.finish().restyles { for i in run.range { styles[i] = run.style } }
        #expect(styles.count == pieces.joined().count)
        #expect(styles[2].headingLevel == 1)
        #expect(styles[20].inline.contains(.strong))
        #expect(MarkdownHighlighter.styles(of: Array(pieces.joined())).flatMap { run in repeatElement(run.style, count: run.range.count) } == styles)
    }
}

@Suite("Markdown on real answers")
struct MarkdownAnswerTests {
    /// Real model answers (Tests/markdown/answers.jsonl; its README says where they came from).
    static let answers: [String] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("markdown/answers.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["text"] as? String
        }
    }()

    struct SplitMix { var state: UInt64; mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15; var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) &* 0x94D049BB133111EB; return z ^ (z >> 31) } }

    @Test func answersAreThere() {
        #expect(Self.answers.count == 120)
    }

    /// Any splitting into pieces settles to the styles of the whole answer. Each seed streams a
    /// sixth of the answers, to keep the test quick in a debug build; the oracle check script
    /// streams them all.
    @Test(arguments: [0, 1, 2])
    func randomPiecesSettleAsTheWhole(seed: UInt64) {
        var generator = SplitMix(state: seed)
        for (k, answer) in Self.answers.enumerated() where k % 6 == Int(seed) {
            let bytes = Array(answer.utf8)
            let whole = MarkdownHighlighter.styles(of: bytes)
            var highlighter = MarkdownHighlighter()
            var map = MarkdownStyleMap()
            var i = 0
            while i < bytes.count {
                let n = min(bytes.count - i, 1 + Int(generator.next() % 48))
                let update = highlighter.feed(bytes[i..<(i + n)])
                #expect(update.runs.first?.range.lowerBound == i && update.runs.last?.range.upperBound == i + n)
                map.apply(update)
                i += n
            }
            map.apply(highlighter.finish())
            #expect(map.runs == whole)
            if map.runs != whole { break }
        }
    }
}
