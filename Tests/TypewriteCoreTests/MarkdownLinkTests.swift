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
        }
        if i < bytes.count {
            let update = highlighter.feed(bytes[i...])
            reports += update.links
            map.apply(update)
        }
        let last = highlighter.finish()
        reports += last.links
        map.apply(last)
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
    @Test func quick() {
        for md in ["see [the docs](https://example.org/a?b=1&c=2) now",
                   "[ref]: https://example.org/r\n\nsee [ref] and [x][ref]",
                   "see [ref] here\n\n[ref]: https://example.org/late",
                   "visit www.example.org. or https://x.org/a_(b) or me@example.org",
                   "<https://example.org/a> and <me@example.org>",
                   "![img](https://example.org/i.png) and [![b](https://x/i)](https://example.org/b)",
                   "`[no](https://example.org)` [a\nb](https://example.org/ab)",
                   "> quote [a\n> b](https://example.org/q)",
                   "[x](javascript:alert(1)) [y](https://example.org/%1b)"] {
            print(md.debugDescription, LinkProbe.pairs(md))
        }
    }
}
