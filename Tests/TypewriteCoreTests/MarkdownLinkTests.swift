import Foundation
import Testing
@testable import TypewriteCore

/// The links the markdown highlighter reports, settled and streamed.
enum LinkProbe {
    struct Found: Hashable, CustomStringConvertible {
        let text: String
        let destination: String?
        let kind: MarkdownLink.Kind
        let ranges: [Range<Int>]
        var description: String { "\(text.debugDescription) -> \(destination ?? "nil") (\(kind))" }
    }

    static func describe(_ links: [MarkdownLink], in bytes: [UInt8]) -> [Found] {
        links.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { link in
            Found(text: link.ranges.map { String(decoding: bytes[$0], as: UTF8.self) }.joined(separator: "\n"),
                  destination: link.destination, kind: link.kind, ranges: link.ranges)
        }
    }

    /// The settled links of `markdown` fed in the given piece lengths (whole by default), and
    /// every report made on the way.
    static func stream(_ markdown: String, pieces: [Int]? = nil, keepingUnsafe: Bool = false)
        -> (links: [Found], reports: [MarkdownLink]) {
        let bytes = Array(markdown.utf8)
        var highlighter = MarkdownHighlighter(keepingUnsafeDestinations: keepingUnsafe)
        var map = MarkdownLinkMap()
        var reports: [MarkdownLink] = []
        var i = 0
        for n in pieces ?? [bytes.count] where i < bytes.count {
            let end = min(bytes.count, i + n)
            let update = highlighter.feed(bytes[i..<end])
            reports += update.links
            map.apply(update)
            i = end
            for link in update.links { #expect(link.range.upperBound <= end) }
        }
        if i < bytes.count {
            let update = highlighter.feed(bytes[i...])
            reports += update.links
            map.apply(update)
        }
        let last = highlighter.finish()
        reports += last.links
        map.apply(last)
        // Whatever is reported can be written into an OSC 8 sequence as it is.
        for link in reports { if let d = link.destination { #expect(d.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }) } }
        return (describe(map.links, in: bytes), reports)
    }

    static func settle(_ markdown: String, keepingUnsafe: Bool = false) -> [Found] {
        stream(markdown, keepingUnsafe: keepingUnsafe).links
    }

    /// `(text, destination)` pairs of the settled links.
    static func pairs(_ markdown: String) -> [String] {
        settle(markdown).map { "\($0.text) -> \($0.destination ?? "nil")" }
    }
}

@Suite("Markdown links")
struct MarkdownLinkTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let markdown: String
        let expected: [String]
        init(_ markdown: String, _ expected: [String]) { self.markdown = markdown; self.expected = expected }
        var testDescription: String { markdown.debugDescription }
    }

    /// What each kind of link covers and where it points, settled.
    static let cases: [Case] = [
        // Inline links: the text between the brackets; the destination decoded, then encoded.
        Case("see [the docs](https://example.org/a?b=1&c=2) now", ["the docs -> https://example.org/a?b=1&c=2"]),
        Case("[a](https://example.org/\\(x\\))", ["a -> https://example.org/(x)"]),
        Case("[a](<https://example.org/a b>)", ["a -> https://example.org/a%20b"]),
        Case("[a](https://example.org/&ouml;&#42;&#x41;)", ["a -> https://example.org/%C3%B6*A"]),
        Case("[a](https://example.org/?q=\"x\")", ["a -> https://example.org/?q=%22x%22"]),
        Case("[a](https://example.org/a\\b)", ["a -> https://example.org/a%5Cb"]),
        Case("[a](HTTPS://EXAMPLE.ORG/)", ["a -> HTTPS://EXAMPLE.ORG/"]),
        Case("[write](mailto:pools@example.org)", ["write -> mailto:pools@example.org"]),
        Case("[a](https://example.org/ü)", ["a -> https://example.org/%C3%BC"]),
        Case("[a](https://example.org/a%20b)", ["a -> https://example.org/a%20b"]),
        Case("[a](https://example.org/it's)", ["a -> https://example.org/it's"]),
        Case("[a](https://example.org/{x}|[y]^`)", ["a -> https://example.org/%7Bx%7D%7C%5By%5D%5E%60"]),
        Case("[a](https://example.org/ \"Title\")", ["a -> https://example.org/"]),
        Case("[a](  https://example.org/b  )", ["a -> https://example.org/b"]),
        Case("[a](\nhttps://example.org/c)", ["a -> https://example.org/c"]),
        Case("[a [b] c](https://example.org/n)", ["a [b] c -> https://example.org/n"]),
        Case("[a *b* `c`](https://example.org/e)", ["a *b* `c` -> https://example.org/e"]),
        Case("**[bold](https://example.org/s)**", ["bold -> https://example.org/s"]),
        Case("[a\nb](https://example.org/ab)", ["a\nb -> https://example.org/ab"]),
        Case("> quote [a\n> b](https://example.org/q)", ["a\nb -> https://example.org/q"]),
        Case("- item [a\n  b](https://example.org/l)", ["a\nb -> https://example.org/l"]),
        Case("# [Heading](https://example.org/h)", ["Heading -> https://example.org/h"]),
        Case("| a | [b](https://example.org/t) |\n|---|---|\n| [c](https://example.org/u) | d |",
             ["b -> https://example.org/t", "c -> https://example.org/u"]),
        Case("Title [x](https://example.org/x)\n===", ["x -> https://example.org/x"]),
        // Reference links, with the definition before or after.
        Case("[ref]: https://example.org/r\n\nsee [ref] and [x][ref] and [ref][]", ["ref -> https://example.org/r", "x -> https://example.org/r", "ref -> https://example.org/r"]),
        Case("[REF  Label]: <https://example.org/a b> \"t\"\n\n[ref label]", ["ref label -> https://example.org/a%20b"]),
        Case("[r]: https://example.org/first\n[r]: https://example.org/second\n\n[r]", ["r -> https://example.org/first"]),
        Case("see [ref] here\n\n[ref]: https://example.org/late", ["ref -> https://example.org/late"]),
        Case("see [text][ref] and [ref][]\n\n> [ref]: https://example.org/q", ["text -> https://example.org/q", "ref -> https://example.org/q"]),
        Case("[1] and [Your Name]", []),
        Case("[ref]: https://example.org/r\n\n[ref](https://example.org/inline)", ["ref -> https://example.org/inline"]),
        // Autolinks: the address between `<` and `>`.
        Case("<https://example.org/a> and <pools@example.org>", ["https://example.org/a -> https://example.org/a", "pools@example.org -> mailto:pools@example.org"]),
        Case("<https://example.org/a&amp;b>", ["https://example.org/a&amp;b -> https://example.org/a&b"]),
        Case("<https://example.org/\\[x>", ["https://example.org/\\[x -> https://example.org/%5C%5Bx"]),
        Case("<MAILTO:pools@example.org>", ["MAILTO:pools@example.org -> MAILTO:pools@example.org"]),
        // GFM extended autolinks: the address itself, trailing punctuation left out.
        Case("visit www.example.org. now", ["www.example.org -> http://www.example.org"]),
        Case("(see https://example.org/a_(b))", ["https://example.org/a_(b) -> https://example.org/a_(b)"]),
        Case("mail pools@example.org now", ["pools@example.org -> mailto:pools@example.org"]),
        Case("https://example.org/a&amp;b", ["https://example.org/a&amp;b -> https://example.org/a&amp;b"]),
        Case("https://example.org/ü?q=1", ["https://example.org/ü?q=1 -> https://example.org/%C3%BC?q=1"]),
        Case("**https://example.org/bold**", ["https://example.org/bold -> https://example.org/bold"]),
        Case("[see https://example.org/x]", []),                          // not inside an open bracket (cmark-gfm)
        Case("[https://example.org/t](https://example.org/d)", ["https://example.org/t -> https://example.org/d"]),
        // Never links: code, images; a link inside a link's text is the outer link's text.
        Case("`[a](https://example.org/c)` and `https://example.org/d`", []),
        Case("```\n[a](https://example.org/f)\nhttps://example.org/g\n```", []),
        Case("    [a](https://example.org/i)", []),
        Case("![alt](https://example.org/i.png)", []),
        Case("![foo [bar](https://example.org/b)](https://example.org/i.png)", []),
        Case("[![badge](https://example.org/i.svg)](https://example.org/home)", ["![badge](https://example.org/i.svg) -> https://example.org/home"]),
        Case("[a <https://example.org/in> b](https://example.org/out)", ["a <https://example.org/in> b -> https://example.org/out"]),
        Case("[a me@example.org b](https://example.org/out)", ["a me@example.org b -> https://example.org/out"]),
        Case("[outer [inner](https://example.org/a)](https://example.org/b)",
             ["inner -> https://example.org/a", "https://example.org/b -> https://example.org/b"]),
        Case("[](https://example.org/empty)", []),
        // Raw HTML is not text (CommonMark 0.31.2, 6.6 and 4.6): nothing in it is linked.
        Case("an <a href=\"https://example.com/x\">anchor</a> in html", []),
        Case("a <!-- https://example.org/c --> b <span title=\"www.example.org\">x</span> <?p a@example.org ?>", []),
        Case("[foo <bar attr=\"](https://example.org/b)\">", []),
        Case("<div>\nhttps://example.org/in-block [a](https://example.org/a)\n</div>", []),
        Case("<div>\n\nhttps://example.org/after", ["https://example.org/after -> https://example.org/after"]),
        Case("text\n<span>\nhttps://example.org/p", ["https://example.org/p -> https://example.org/p"]),
        Case("<!--\nhttps://example.org/c\n-->\nhttps://example.org/d", ["https://example.org/d -> https://example.org/d"]),
        // A bare address is read in literal characters: escapes and references stand for theirs.
        Case("mail a\\_b@example.org or x&#95;y@example.org", ["a\\_b@example.org -> mailto:a_b@example.org", "x&#95;y@example.org -> mailto:x_y@example.org"]),
    ]

    @Test(arguments: cases)
    func settled(_ c: Case) {
        #expect(LinkProbe.pairs(c.markdown) == c.expected)
    }

    /// The same links whatever the pieces: whole, byte by byte, random pieces.
    @Test(arguments: cases)
    func anySplittingSettlesTheSame(_ c: Case) {
        let whole = LinkProbe.stream(c.markdown)
        let bytes = c.markdown.utf8.count
        #expect(LinkProbe.stream(c.markdown, pieces: Array(repeating: 1, count: bytes)).links == whole.links)
        var generator = MarkdownAnswerTests.SplitMix(state: UInt64(bytes))
        for _ in 0..<4 {
            var pieces: [Int] = []
            var total = 0
            while total < bytes { let n = 1 + Int(generator.next() % 9); pieces.append(n); total += n }
            #expect(LinkProbe.stream(c.markdown, pieces: pieces).links == whole.links)
        }
    }

    /// Only the text's bytes carry the link's id; ids count from 1.
    @Test func onlyTheTextCarriesTheId() {
        let markdown = "see [the docs](https://example.org/d) and <https://example.org/a> now"
        let bytes = Array(markdown.utf8)
        var highlighter = MarkdownHighlighter()
        var map = MarkdownLinkMap()
        map.apply(highlighter.feed(bytes))
        map.apply(highlighter.finish())
        let covered = String(decoding: bytes.indices.filter { map[$0] != 0 }.map { bytes[$0] }, as: UTF8.self)
        #expect(covered == "the docs" + "https://example.org/a")
        #expect(Set(bytes.indices.map { map[$0] }) == [0, 1, 2])
        #expect(highlighter.linkCount == 2)
    }
}

@Suite("Markdown links while streaming")
struct MarkdownLinkStreamingTests {
    static func feed(_ pieces: [String]) -> [[MarkdownLink]] {
        var highlighter = MarkdownHighlighter()
        var out = pieces.map { highlighter.feed(Array($0.utf8)).links }
        out.append(highlighter.finish().links)
        return out
    }

    @Test func aBareURLGrowsThenGetsItsDestination() {
        let updates = Self.feed(["see https://example.org/pa", "th", " and more"])
        #expect(updates[0].count == 1 && updates[0][0].range == 4..<26 && updates[0][0].destination == nil)
        #expect(updates[1].count == 1 && updates[1][0].id == updates[0][0].id && updates[1][0].range == 4..<28)
        #expect(updates[1][0].replacing == 4..<26 && updates[1][0].destination == nil)
        #expect(updates[2].count == 1 && updates[2][0].destination == "https://example.org/path" && updates[2][0].range == 4..<28)
        #expect(updates[3].isEmpty)
    }

    @Test func anInlineLinkGetsItsDestinationWithItsParenthesis() {
        let updates = Self.feed(["read [the", " docs](https://exa", "mple.org/d", ") now"])
        #expect(updates[0].isEmpty)
        #expect(updates[1].count == 1 && updates[1][0].range == 6..<14 && updates[1][0].destination == nil)
        #expect(updates[2].isEmpty)
        #expect(updates[3].count == 1 && updates[3][0].id == updates[1][0].id && updates[3][0].destination == "https://example.org/d")
    }

    @Test func aKnownReferenceIsLinkedOnceItsBracketIsFollowed() {
        let updates = Self.feed(["[r]: https://example.org/r\n\nsee [r", "]", " now"])
        #expect(updates[1].count == 1 && updates[1][0].destination == nil)
        #expect(updates[2].count == 1 && updates[2][0].destination == "https://example.org/r")
    }

    @Test func aLateDefinitionLinksTheEarlierReference() {
        let updates = Self.feed(["see [the guide] here\n\nmore text\n\n", "[the guide]: https://example.org/g\n", "\nafter"])
        #expect(updates[0].isEmpty && updates[1].isEmpty)
        // The definition is known when its paragraph ends (a title could still follow it).
        #expect(updates[2].count == 1)
        let link = updates[2][0]
        #expect(link.range == 5..<14 && link.destination == "https://example.org/g" && link.kind == .reference)
    }

    @Test func aLateDefinitionReachesBytesTheHighlighterNoLongerHolds() {
        let filler = String(repeating: "Some words in a paragraph of their own.\n\n", count: 400)
        let updates = Self.feed(["see [far] here\n\n", filler, "[far]: https://example.org/far\n"])
        #expect(updates[3].count == 1 && updates[3][0].range == 5..<8 && updates[3][0].destination == "https://example.org/far")
    }

    @Test func aGuessThatFailsIsRemoved() {
        let updates = Self.feed(["read [the docs](https://example.org/d", "\n\nnext"])
        #expect(updates[0].count == 1 && updates[0][0].destination == nil)
        // No `)`: not a link; the address after the `(` is a bare URL (as cmark-gfm reads it).
        #expect(updates[1].count == 2 && updates[1][0].isRemoved && updates[1][0].id == updates[0][0].id)
        #expect(updates[1][0].replacing == 6..<14)
        #expect(updates[1][1].range == 16..<37 && updates[1][1].destination == "https://example.org/d")
    }

    @Test func aCodeSpanClosingLaterRemovesTheLinksItCovers() {
        let updates = Self.feed(["a `b\nsee https://example.org/c d", "`"])
        #expect(updates[0].count == 1 && updates[0][0].destination == "https://example.org/c")
        #expect(updates[1].count == 1 && updates[1][0].isRemoved)
    }

    @Test func aDefinitionStillArrivingIsNoLink() {
        let pieces = "[r]: https://example.org/r\n\n[r]".map { String($0) }
        for update in Self.feed(pieces) {
            for link in update where !link.isRemoved { #expect(link.range.lowerBound > 20) }
        }
        // `[r]:` of a second definition is not yet a reference to the first.
        for second in ["[r]: https://example.org/r\n\n[r]: <https://example.org/s> \"t\"\n\n[r]",
                       "[r]: https://example.org/r\n\n[r]: <https://example.org/s t>\n\"u\"\n\n[r]"] {
            for update in Self.feed(second.map { String($0) }) {
                for link in update where link.destination != nil { #expect(link.range.lowerBound > 60, "\(link)") }
            }
        }
        // Text after the destination on its line: no definition; the links are found at once.
        let updates = Self.feed(["[r]: https://example.org/r\n\n[r]: not one, see", " https://example.org/u then"])
        #expect(updates[1].contains { $0.destination == "https://example.org/u" })
    }

    /// A tag still arriving may hold the address after it: no destination until it is known not to.
    @Test func rawHTMLIsNeverLinkedWhileArriving() {
        let text = "an <a href=\"https://example.com/x\" title=\"t\">anchor</a> and <span title='www.example.org'>s</span>\n"
        for update in Self.feed(text.map { String($0) }) {
            for link in update { #expect(link.destination == nil, "\(link)") }
        }
    }

    /// A control character other than a space, tab or line ending does not end a destination or
    /// a bare URL (as cmark-gfm reads it): the whole is one link, not safe, so nothing is linked —
    /// never the part before the control, whatever the pieces.
    @Test(arguments: [
        ("[x](https://example.org/a\u{1B}[31mb) c", "https://example.org/a%1B%5B31mb"),
        ("see https://example.org/a\u{1B}[31mb c", "https://example.org/a%1B%5B31mb"),
        ("see www.example.org/a\u{7}b c", "http://www.example.org/a%07b"),
        ("[r] c\n\n[r]: https://example.org/a\u{1B}b\n", "https://example.org/a%1Bb"),
        ("[x](https://example.org/a\u{7F}b) c", "https://example.org/a%7Fb"),
    ])
    func aControlCharacterStaysInTheDestination(text: String, unsafe: String) {
        #expect(LinkProbe.settle(text, keepingUnsafe: true).map(\.destination) == [unsafe])
        #expect(LinkProbe.settle(text).allSatisfy { $0.destination == nil })
        for update in Self.feed(text.map { String($0) }) {
            for link in update { #expect(link.destination == nil, "\(link)") }
        }
    }

    /// At most `maximumPendingReferences` bracketed texts wait for a definition.
    @Test func pendingReferencesAreBounded() {
        let uses = (0..<5000).map { "see [r\($0)]\n\n" }.joined()
        let definitions = (0..<5000).map { "[r\($0)]: https://example.org/\($0)\n" }.joined()
        let updates = Self.feed([uses, definitions])
        let late = updates.flatMap { $0 }.filter { !$0.isRemoved && $0.destination != nil }
        #expect(late.count == MarkdownBlockParser.maximumPendingReferences)
    }
}

/// Links that must not be linked: other schemes, control and bidirectional characters however
/// they are written, destinations too long, links in code, images. Their text stays (styled as
/// before); no report of any of them ever carries a destination, streamed whole or byte by byte.
@Suite("Markdown hostile links")
struct MarkdownHostileLinkTests {
    static let long = String(repeating: "a", count: 3000)

    static let cases: [String] = [
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](javascript&#58;alert(1))",
        "[x](jav&#x61;script:alert(1))",
        "[x](java\\script:alert(1))",
        "[x](<javascript:alert(1)>)",
        "[x]( javascript:alert(1) )",
        "[x](vbscript:msgbox(1))",
        "[x](file:///etc/passwd)",
        "[x](FILE:///etc/passwd)",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](/relative/path)",
        "[x](relative.html)",
        "[x](//example.org/protocol-relative)",
        "[x](#anchor)",
        "[x](ftp://example.org/file)",
        "[x](ssh://example.org)",
        "[x](https:example.org)",
        "[x](http:/example.org)",
        "[x](https://)",
        "[x](mailto:)",
        "[x](<https://example.org/\u{1B}[31m>)",
        "[x](<https://example.org/a\tb>)",
        "[x](https://example.org/&#27;[31m)",
        "[x](https://example.org/&#x1b;[2J)",
        "[x](https://example.org/&#7;)",
        "[x](https://example.org/&#x9b;31m)",
        "[x](https://example.org/&#127;)",
        "[x](https://example.org/a\u{85}b)",
        "[x](https://example.org/%1b[31m)",
        "[x](https://example.org/%1B]8;;https://evil.example/%1B%5C)",
        "[x](https://example.org/%07)",
        "[x](https://example.org/%0a)",
        "[x](https://example.org/%0D%0A)",
        "[x](https://example.org/%7f)",
        "[x](https://example.org/%c2%9b)",
        "[x](https://example.org/%9b)",
        "[x](https://example.org/%E2%80%AE)",
        "[x](https://example.org/\u{202E}gpj.exe)",
        "[x](https://example.org/&#x202E;)",
        "[x](https://example.org/&#8238;)",
        "[x](https://example.org/\u{2066}a\u{2069})",
        "[x](https://example.org/\u{200F})",
        "[x](https://example.org/\u{061C})",
        "[x](&#104;ttps://example.org/&#x1b;)",
        "see https://example.org/\u{202E}abc",
        "see www.example.org/\u{200E}x",
        "see https://example.org/%1b",
        "<mailto:a%1b@example.org>",
        "<https://example.org/\u{202E}>",
        "<https://example.org/&#x1b;>",
        "<https://example.org/%1b>",
        "<javascript:alert(1)>",
        "<file:///etc/passwd>",
        "<data:text/html,x>",
        "<irc://example.org/channel>",
        "see ftp://example.org/file",
        "[x](https://example.org/\(long))".replacingOccurrences(of: "long", with: long),
        "see https://example.org/\(long) here",
        "see www.example.org/\(long) here",
        "<https://example.org/\(long)>",
        "[x][r]\n\n[r]: https://example.org/\(long)",
        "[r]: https://example.org/\(long)\n\n[x][r]",
        "[r]: javascript:alert(1)\n\n[x][r] and [r]",
        "[x][r] and [r]\n\n[r]: javascript:alert(1)",
        "[r]: <https://example.org/%1b> \"t\"\n\n[r]",
        "`[x](https://example.org/c)` and `https://example.org/d` and `www.example.org`",
        "``a `[x](https://example.org/c)` b``",
        "```\n[x](https://example.org/f)\nhttps://example.org/g\n<https://example.org/h>\n```",
        "~~~md\n[x](https://example.org/f)\n~~~",
        "    [x](https://example.org/i) https://example.org/j",
        "- item\n\n      https://example.org/indented-code-in-item",
        "![x](https://example.org/i.png)",
        "![x][r]\n\n[r]: https://example.org/i.png",
        "![https://example.org/alt](https://example.org/i.png)",
        "![a [b](https://example.org/b) c](https://example.org/i.png)",
        "[x](javascript:alert(1)",
        "[x](<javascript:alert(1)",
        "[[[x](javascript:a)](javascript:b)](javascript:c)",
        "[a\n\nb](javascript:alert(1))",
    ]

    @Test func thereAreEnough() { #expect(Self.cases.count >= 50) }

    @Test(arguments: cases)
    func notLinked(_ markdown: String) {
        let bytes = markdown.utf8.count
        // Byte by byte re-parses the open paragraph each time: long cases go by 61 bytes.
        for pieces in [nil, Array(repeating: bytes > 300 ? 61 : 1, count: bytes), [3, 5, 7, 11, 13, 17, 19]] {
            let (links, reports) = LinkProbe.stream(markdown, pieces: pieces)
            #expect(links.allSatisfy { $0.destination == nil }, "\(links)")
            #expect(reports.allSatisfy { $0.destination == nil })
        }
    }

    /// With the safety rules off, the same destinations are found and encoded: they are refused
    /// for what they are, not missed.
    @Test func theRulesRefuseWhatTheParserFinds() {
        let found = LinkProbe.settle("[x](https://example.org/%1b) [y](javascript:a) <https://example.org/&#x1b;>", keepingUnsafe: true)
        #expect(found.map { $0.destination ?? "nil" } == ["https://example.org/%1b", "javascript:a", "https://example.org/%1B"])
    }
}

/// The destinations the highlighter gives against those of the CommonMark spec's and the GFM
/// spec's examples (Tests/markdown/README.md says where they come from).
@Suite("Markdown links against the specs")
struct MarkdownLinkSpecTests {
    struct Example { let markdown: String; let html: String; let number: Int; let section: String }

    static func examples(_ file: String) -> [Example] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("markdown/\(file)")
        guard let data = try? Data(contentsOf: url),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return list.map { Example(markdown: $0["markdown"] as! String, html: $0["html"] as! String,
                                  number: $0["example"] as! Int, section: $0["section"] as! String) }
    }

    /// The `href` values of the `<a>` elements of an example's HTML, in order, HTML escaping undone.
    static func hrefs(_ html: String) -> [String] {
        var out: [String] = []
        var rest = html[...]
        while let r = rest.range(of: "<a href=\"") {
            rest = rest[r.upperBound...]
            guard let close = rest.firstIndex(of: "\"") else { break }
            // A link with no text has nothing to show: it is not reported.
            if rest[close...].hasPrefix("\"></a>") { continue }
            out.append(String(rest[..<close]).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&"))
            rest = rest[close...]
        }
        return out
    }

    /// Agreement over the examples: (compared, agreeing, the disagreeing ones described).
    static func agreement(_ examples: [Example], extended: Bool) -> (Int, Int, [String]) {
        var compared = 0, agreeing = 0
        var misses: [String] = []
        for e in examples {
            let expected = hrefs(e.html)
            let ours = LinkProbe.settle(e.markdown, keepingUnsafe: true)
                .filter { extended || ![.www, .url, .email].contains($0.kind) }
                .map { $0.destination ?? "(unknown)" }
            // Raw HTML passes into the examples' HTML as it is: its `<a>` elements are no links of
            // the markdown's (and nothing in raw HTML is linked here).
            if e.markdown.contains("<a ") || e.markdown.contains("<a>") { continue }
            if expected.isEmpty && ours.isEmpty { continue }
            compared += 1
            if expected == ours { agreeing += 1 } else { misses.append("example \(e.number) (\(e.section)): \(e.markdown.debugDescription) expected \(expected) got \(ours)") }
        }
        return (compared, agreeing, misses)
    }

    @Test func commonMarkExamples() {
        let all = Self.examples("commonmark-spec-0.31.2.json")
        #expect(all.count == 652)
        let (compared, agreeing, misses) = Self.agreement(all, extended: false)
        print("CommonMark 0.31.2 examples with links: \(agreeing) of \(compared) agree")
        for m in misses { print("  " + m) }
        // Raw HTML is not text: `[foo <bar attr="](baz)">` (examples 524 and 536) links nothing.
        #expect(compared == 109 && agreeing == 109)
    }

    @Test func gfmAutolinkExamples() {
        let all = Self.examples("gfm-autolink-examples.json")
        #expect(all.count == 11)
        let (compared, agreeing, misses) = Self.agreement(all, extended: true)
        print("GFM autolink examples: \(agreeing) of \(compared) agree")
        for m in misses { print("  " + m) }
        #expect(compared == 11 && agreeing == 11)
    }
}

/// Links in answers: the real ones (Tests/markdown/answers*.jsonl) have few; links-answers.jsonl
/// was written for these tests, in the manner of model answers, with many.
@Suite("Markdown links in answers")
struct MarkdownLinkAnswerTests {
    static func answers(_ file: String) -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("markdown/\(file)")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String
        }
    }

    static func census(_ answers: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for answer in answers {
            for link in LinkProbe.settle(answer) {
                counts["\(link.kind)", default: 0] += 1
                counts["links", default: 0] += 1
                if link.destination != nil { counts["safe", default: 0] += 1 }
            }
        }
        return counts
    }

    @Test func linkRichAnswers() {
        let answers = Self.answers("links-answers.jsonl")
        #expect(answers.count == 10)
        let counts = Self.census(answers)
        print("links-answers.jsonl: \(counts.sorted { $0.key < $1.key })")
        #expect(counts == ["links": 51, "safe": 49, "inline": 26, "reference": 5, "autolink": 2, "emailAutolink": 1,
                           "url": 11, "www": 3, "email": 3])
    }

    @Test func realAnswers() {
        var all: [String] = []
        for file in ["answers.jsonl", "answers-more.jsonl", "answers-code.jsonl"] { all += Self.answers(file) }
        #expect(all.count == 400)
        let counts = Self.census(all)
        print("400 real answers: \(counts.sorted { $0.key < $1.key })")
        #expect(counts == ["links": 4, "safe": 4, "autolink": 3, "www": 1])
    }

    /// Whole, byte by byte and in random pieces, the same links.
    @Test func anySplittingSettlesTheSame() {
        var generator = MarkdownAnswerTests.SplitMix(state: 41)
        for answer in Self.answers("links-answers.jsonl") {
            let whole = LinkProbe.stream(answer).links
            #expect(LinkProbe.stream(answer, pieces: Array(repeating: 1, count: answer.utf8.count)).links == whole)
            for _ in 0..<3 {
                let pieces = (0..<answer.utf8.count).map { _ in 1 + Int(generator.next() % 40) }
                #expect(LinkProbe.stream(answer, pieces: pieces).links == whole)
            }
        }
    }
}
