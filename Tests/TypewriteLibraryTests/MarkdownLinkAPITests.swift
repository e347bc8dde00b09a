import Testing
import TypewriteCore

/// The link reports as a client of the library sees them (no @testable import): the README's
/// "Highlighting markdown from Swift" example.
@Suite("Markdown links through the public API")
struct MarkdownLinkAPITests {
    @Test func aRendererKeepsALinkIdPerByte() {
        let pieces = ["Read [the gu", "ide](https://example.org/gu", "ide?a=1&b=2) or ", "www.example.org. Or [x](javascript:alert(1))."]
        var highlighter = MarkdownHighlighter()
        var linkOf: [Int] = []                          // a link id per byte, 0 for none
        var destinations: [Int: String] = [:]           // id -> URL for OSC 8
        func apply(_ update: MarkdownUpdate) {
            for link in update.links {
                if let old = link.replacing { for i in old where linkOf[i] == link.id { linkOf[i] = 0 } }
                destinations[link.id] = link.destination
                for r in link.ranges { for i in r { linkOf[i] = link.id } }
            }
        }
        for piece in pieces {
            let update = highlighter.feed(Array(piece.utf8))
            linkOf += repeatElement(0, count: piece.utf8.count)
            apply(update)
        }
        apply(highlighter.finish())
        let text = Array(pieces.joined().utf8)
        var linked: [String: String] = [:]
        for (id, url) in destinations {
            linked[String(decoding: text.indices.filter { linkOf[$0] == id }.map { text[$0] }, as: UTF8.self)] = url
        }
        #expect(linked == ["the guide": "https://example.org/guide?a=1&b=2", "www.example.org": "http://www.example.org"])
        #expect(MarkdownHighlighter.links(of: text).count == 3)  // the unsafe one too, with no destination
    }
}
