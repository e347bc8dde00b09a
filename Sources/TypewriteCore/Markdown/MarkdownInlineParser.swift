// Inline structure of one block's text (CommonMark 0.31.2, section 6, and the GFM extensions):
// code spans, emphasis and strong emphasis by the delimiter-stack algorithm (6.2 and its
// "process emphasis" appendix), strikethrough, links, images, autolinks and GFM extended
// autolinks. Linear time: code span closers are found through a table of backtick runs by length,
// emphasis uses the openers-bottom table, link destinations nest parentheses at most 32 deep and
// reference labels are only read when some definition exists.
//
// A tentative parse (the block is still open and its last line still growing) guesses the spans
// whose closer has not arrived yet, for openers on that last line only: a backtick run opens a
// code span, a `*` run (`*`, `**`, `***`) opens emphasis or strong, and so does a `_` run that
// starts the line; `](` opens a link. Other `_`, `~` and `[` are left as text until proven.

struct MarkdownInlineParser {
    /// The block's text: its lines, container prefixes and leading indentation removed, joined by
    /// line feeds.
    let text: [UInt8]
    /// Whether the text ends in the middle of a line that is still arriving.
    let openEnd: Bool
    /// Where the last line starts: only openers from here on are guessed.
    let guessFrom: Int
    let references: Set<String>

    /// Per byte (plus one slot past the end: the style a byte appended now would take).
    var inline: [MarkdownInline]
    var markers: [MarkdownMarker]

    var spanStarts: [(Int, Int, MarkdownInline)] = []

    /// A bracketed text that would be a reference link if its label were defined: a definition
    /// later in the document makes it one (CommonMark 0.31.2, 4.7: definitions may follow uses).
    struct ReferenceCandidate {
        let label: String
        let delimiters: [Range<Int>]
        let text: Range<Int>
        let destination: Range<Int>?
        /// `![…]`: an image, whose text never becomes a link.
        var isImage = false
    }
    var candidates: [ReferenceCandidate] = []
    /// The links found, by their text's first byte (MarkdownLinks.swift says what each kind's
    /// text and destination are). A link inside another link's text or an image's description
    /// is none: the outer link covers it, and an image is no link.
    var links: [FoundLink] = []
    /// A link: the bytes of its text, and the bytes that say its destination (`target`: an
    /// inline link's destination as written, `<…>` included, nil when empty; an autolink's or a
    /// bare address's own text) or the normalized `label` of its definition.
    struct FoundLink {
        let kind: MarkdownLink.Kind
        let text: Range<Int>
        let target: Range<Int>?
        let label: String?
        /// False when later text may still change it (its closer has not arrived, it ends where
        /// the text still arriving ends, or a `[` or `![` still open before it may close around it).
        var settled: Bool
    }

    /// The `]` of the last candidate's label: that label is not a candidate of its own.
    var labelOfLastCandidate = -1

    struct Delimiter {
        var char: UInt8
        var start: Int
        var end: Int
        let originalCount: Int
        let canOpen: Bool
        let canClose: Bool
        var previous: Int
        var next: Int
        var count: Int { end - start }
    }
    var delimiters: [Delimiter] = []
    var lastDelimiter = -1

    struct Bracket {
        let position: Int
        let isImage: Bool
        let delimiterBottom: Int
    }
    var brackets: [Bracket] = []
    /// How many of `brackets` are `![` (always active, as in cmark).
    var imageBrackets = 0
    /// Brackets whose `]` is followed by nothing yet, or by a `[` label still arriving (and
    /// whether each was active).
    var closingAtEnd: [(Bracket, Bool)] = []
    /// Brackets below this index are inactive: a link cannot contain a link.
    var linkWatermark = 0

    var backtickRuns: [Int: (starts: [Int], cursor: Int)] = [:]
    var emailRanges: [Range<Int>] = []
    /// Whether each of `emailRanges` reaches the end of a text still arriving (it may grow).
    var emailReachesEnd: [Bool] = []
    var emailCursor = 0
    /// Where earlier raw HTML scans found no closer.
    var htmlMemo = MarkdownHTML.Memo()
    /// Where raw HTML that has not ended yet may start (the text is still arriving).
    var htmlArrivingFrom = Int.max

    init(text: [UInt8], from start: Int = 0, openEnd: Bool, guessFrom: Int, references: Set<String>) {
        self.text = text
        self.openEnd = openEnd
        self.guessFrom = guessFrom
        self.references = references
        inline = Array(repeating: [], count: text.count + 1)
        markers = Array(repeating: .none, count: text.count + 1)
        scanBacktickRuns(from: start)
        scanEmails(from: start)
        parse(from: start)
        applySpans()
    }

    var n: Int { text.count }

    func byte(_ i: Int) -> UInt8 { i < text.count ? text[i] : 0 }

    mutating func span(_ a: Int, _ b: Int, _ flag: MarkdownInline) {
        if b > a { spanStarts.append((a, b, flag)) }
    }

    mutating func mark(_ a: Int, _ b: Int, _ marker: MarkdownMarker) {
        var i = max(a, 0)
        while i < min(b, n + 1) { markers[i] = marker; i += 1 }
    }

    mutating func applySpans() {
        // Each span opens and closes a count per flag; sweep the sorted ends once.
        var events: [(position: Int, flag: MarkdownInline, delta: Int32)] = []
        events.reserveCapacity(spanStarts.count * 2)
        for (a, b, flag) in spanStarts {
            events.append((a, flag, 1))
            events.append((b, flag, -1))
        }
        events.sort { $0.position < $1.position }
        var counts = [Int32](repeating: 0, count: 6)
        var value: UInt8 = 0
        var k = 0
        var i = 0
        while i <= n {
            while k < events.count && events[k].position <= i {
                let e = events[k]
                for bit in 0..<6 where e.flag.rawValue & (1 << bit) != 0 {
                    counts[bit] += e.delta
                    if counts[bit] > 0 { value |= 1 << bit } else { value &= ~(1 << bit) }
                }
                k += 1
            }
            let next = k < events.count ? min(events[k].position, n + 1) : n + 1
            if value != 0 {
                let flags = MarkdownInline(rawValue: value)
                while i < next { inline[i] = flags; i += 1 }
            } else {
                i = next
            }
        }
    }

    // MARK: - Scanning

    mutating func scanBacktickRuns(from start: Int) {
        var i = start
        while i < n {
            if text[i] == UInt8(ascii: "`") {
                var j = i
                while j < n && text[j] == UInt8(ascii: "`") { j += 1 }
                backtickRuns[j - i, default: ([], 0)].starts.append(i)
                i = j
            } else {
                i += 1
            }
        }
    }

    /// Where a backtick string of `length` that starts after `position` begins, if any.
    mutating func closingBackticks(length: Int, after position: Int) -> Int? {
        guard var entry = backtickRuns[length] else { return nil }
        while entry.cursor < entry.starts.count && entry.starts[entry.cursor] <= position { entry.cursor += 1 }
        backtickRuns[length] = entry
        return entry.cursor < entry.starts.count ? entry.starts[entry.cursor] : nil
    }

    mutating func parse(from start: Int) {
        var i = start
        let backtick = UInt8(ascii: "`")
        while i < n {
            if emailCursor < emailRanges.count && emailRanges[emailCursor].lowerBound <= i {
                let r = emailRanges[emailCursor]
                emailCursor += 1
                if r.lowerBound == i {
                    span(r.lowerBound, r.upperBound, .autolink)
                    links.append(FoundLink(kind: .email, text: r, target: r, label: nil, settled: !emailReachesEnd[emailCursor - 1]))
                    i = r.upperBound
                    continue
                }
                continue
            }
            let c = text[i]
            switch c {
            case UInt8(ascii: "\\"):
                i += (i + 1 < n && MarkdownCharacters.isASCIIPunctuation(text[i + 1])) ? 2 : 1
            case backtick:
                var j = i
                while j < n && text[j] == backtick { j += 1 }
                let length = j - i
                if let close = closingBackticks(length: length, after: i) {
                    span(i, close + length, .code)
                    mark(i, j, .codeDelimiter)
                    mark(close, close + length, .codeDelimiter)
                    i = close + length
                } else if openEnd && i >= guessFrom {
                    span(i, n + 1, .code)
                    mark(i, j, .codeDelimiter)
                    i = n
                } else {
                    i = j
                }
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                i = scanDelimiterRun(at: i)
            case UInt8(ascii: "["):
                brackets.append(Bracket(position: i, isImage: false, delimiterBottom: lastDelimiter))
                i += 1
            case UInt8(ascii: "!") where byte(i + 1) == UInt8(ascii: "["):
                brackets.append(Bracket(position: i, isImage: true, delimiterBottom: lastDelimiter))
                imageBrackets += 1
                i += 2
            case UInt8(ascii: "]"):
                i = closeBracket(at: i)
            case UInt8(ascii: "<"):
                if let end = autolink(at: i) {
                    i = end
                    continue
                }
                // Raw HTML is not text: nothing in it is linked (CommonMark 0.31.2, 6.6).
                switch MarkdownHTML.inline(text, i, n, memo: &htmlMemo) {
                case .html(let end):
                    i = end
                case .partial where openEnd:
                    // A tag still arriving: what follows may be inside it.
                    htmlArrivingFrom = min(htmlArrivingFrom, i)
                    i += 1
                default:
                    i += 1
                }
            case UInt8(ascii: "w") where byte(i + 1) == UInt8(ascii: "w"),
                 UInt8(ascii: "h") where byte(i + 1) == UInt8(ascii: "t"),
                 UInt8(ascii: "f") where byte(i + 1) == UInt8(ascii: "t"):
                i = extendedAutolink(at: i) ?? i + 1
            default:
                i += 1
            }
        }
        processEmphasis(bottom: -1, guessing: true)
        if openEnd { unsettleLinksInOpenBrackets() }
        for k in links.indices where links[k].text.lowerBound > htmlArrivingFrom { links[k].settled = false }
    }

    /// In a text still arriving, an image still open may close around the links after its `![`
    /// (an image's description holds no link), and a `[` still open (and active) around the
    /// autolinks after it (links do not nest).
    mutating func unsettleLinksInOpenBrackets() {
        guard !brackets.isEmpty || !closingAtEnd.isEmpty else { return }
        var imageStart = Int.max, linkStart = Int.max
        for (k, b) in brackets.enumerated() {
            if b.isImage { imageStart = min(imageStart, b.position) } else if k >= linkWatermark { linkStart = min(linkStart, b.position) }
        }
        for (b, active) in closingAtEnd {
            if b.isImage { imageStart = min(imageStart, b.position) } else if active { linkStart = min(linkStart, b.position) }
        }
        var k = links.count - 1
        while k >= 0 && links[k].text.lowerBound > min(imageStart, linkStart) {
            let start = links[k].text.lowerBound
            let isAutolink = links[k].kind != .inline && links[k].kind != .reference
            if start > imageStart || (isAutolink && start > linkStart) { links[k].settled = false }
            k -= 1
        }
    }

    // MARK: - Emphasis

    mutating func scanDelimiterRun(at i: Int) -> Int {
        let c = text[i]
        var j = i
        while j < n && text[j] == c { j += 1 }
        if c == UInt8(ascii: "~") && j - i > 2 { return j }
        let before = MarkdownCharacters.scalar(before: i, in: text).map(MarkdownCharacters.flank) ?? .whitespace
        var after: MarkdownCharacters.Flank
        if j < n {
            after = MarkdownCharacters.scalar(at: j, in: text, end: n).map(MarkdownCharacters.flank) ?? .whitespace
        } else if openEnd {
            // The next character has not arrived. After a space the run likely opens; after
            // anything else it may still grow (`*` becoming the `**` that closes a strong span),
            // so it waits for that character, shown as a delimiter of the spans around it.
            if before != .whitespace {
                if c == UInt8(ascii: "*") { mark(i, j, .emphasisDelimiter) }
                return j
            }
            after = .other
        } else {
            after = .whitespace
        }
        let left = after != .whitespace && (after != .punctuation || before != .other)
        let right = before != .whitespace && (before != .punctuation || after != .other)
        var canOpen = left
        var canClose = right
        if c == UInt8(ascii: "_") {
            canOpen = left && (!right || before == .punctuation)
            canClose = right && (!left || after == .punctuation)
        }
        if canOpen || canClose {
            let index = delimiters.count
            delimiters.append(Delimiter(char: c, start: i, end: j, originalCount: j - i, canOpen: canOpen,
                                        canClose: canClose, previous: lastDelimiter, next: -1))
            if lastDelimiter >= 0 { delimiters[lastDelimiter].next = index }
            lastDelimiter = index
        }
        return j
    }

    mutating func unlink(_ d: Int) {
        let p = delimiters[d].previous, nx = delimiters[d].next
        if p >= 0 { delimiters[p].next = nx }
        if nx >= 0 { delimiters[nx].previous = p } else { lastDelimiter = p }
        delimiters[d].previous = -2
    }

    func charIndex(_ c: UInt8) -> Int { c == UInt8(ascii: "*") ? 0 : c == UInt8(ascii: "_") ? 1 : 2 }

    /// CommonMark 0.31.2, appendix "process emphasis", over the delimiters above `bottom`
    /// (-1: all); then removes them, first guessing the openers on the last line when allowed.
    mutating func processEmphasis(bottom: Int, guessing: Bool) {
        var openersBottom = [Int](repeating: bottom, count: 3 * 3 * 2)
        var closer = bottom >= 0 ? delimiters[bottom].next : firstDelimiter(above: bottom)
        while closer >= 0 {
            let d = delimiters[closer]
            if !d.canClose { closer = d.next; continue }
            let slot = charIndex(d.char) * 6 + (d.originalCount % 3) * 2 + (d.canOpen ? 1 : 0)
            var opener = d.previous
            var found = -1
            while opener >= 0 && opener != bottom && opener != openersBottom[slot] {
                let o = delimiters[opener]
                if o.canOpen && o.char == d.char {
                    let oddMatch = (d.canOpen || o.canClose) && (o.originalCount + d.originalCount) % 3 == 0
                        && !(o.originalCount % 3 == 0 && d.originalCount % 3 == 0)
                    if !oddMatch { found = opener; break }
                }
                opener = o.previous
            }
            if found < 0 {
                openersBottom[slot] = d.previous
                let next = d.next
                if !d.canOpen { unlink(closer) }
                closer = next
                continue
            }
            let o = delimiters[found]
            if d.char == UInt8(ascii: "~") {
                if o.count != d.count { closer = d.next; continue }
                span(o.start, d.end, .strikethrough)
                mark(o.start, o.end, .emphasisDelimiter)
                mark(d.start, d.end, .emphasisDelimiter)
                removeBetween(found, closer)
                let next = d.next
                unlink(found)
                unlink(closer)
                closer = next
                continue
            }
            let use = (o.count >= 2 && d.count >= 2) ? 2 : 1
            span(o.end - use, d.start + use, use == 2 ? .strong : .emphasis)
            mark(o.end - use, o.end, .emphasisDelimiter)
            mark(d.start, d.start + use, .emphasisDelimiter)
            delimiters[found].end -= use
            delimiters[closer].start += use
            removeBetween(found, closer)
            if delimiters[found].count == 0 { unlink(found) }
            if delimiters[closer].count == 0 {
                let next = delimiters[closer].next
                unlink(closer)
                closer = next
            }
        }
        // What is left above the bottom is unmatched.
        var d = bottom >= 0 ? delimiters[bottom].next : firstDelimiter(above: bottom)
        while d >= 0 {
            let x = delimiters[d]
            // `*` runs open a span 64 % of the time in answers, `_` runs 45 % (but nearly always
            // when they start the line), `~` 6 %.
            let likely = x.char == UInt8(ascii: "*") || (x.char == UInt8(ascii: "_") && x.start == guessFrom)
            if guessing && openEnd && x.start >= guessFrom && likely && x.canOpen && !x.canClose {
                if x.count >= 2 { span(x.start, n + 1, .strong) }
                if x.count % 2 == 1 { span(x.start, n + 1, .emphasis) }
                mark(x.start, x.end, .emphasisDelimiter)
            }
            let next = x.next
            unlink(d)
            d = next
        }
    }

    func firstDelimiter(above bottom: Int) -> Int {
        // Walk back from the last one: the list above the bottom is short-lived in practice, and
        // every delimiter is visited once per processing.
        var d = lastDelimiter
        var first = -1
        while d >= 0 && d != bottom { first = d; d = delimiters[d].previous }
        return first
    }

    mutating func removeBetween(_ a: Int, _ b: Int) {
        var d = delimiters[a].next
        while d >= 0 && d != b {
            let next = delimiters[d].next
            unlink(d)
            d = next
        }
    }
}
