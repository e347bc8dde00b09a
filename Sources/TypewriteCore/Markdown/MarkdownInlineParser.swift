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
    private(set) var inline: [MarkdownInline]
    private(set) var markers: [MarkdownMarker]

    private var spanStarts: [(Int, Int, MarkdownInline)] = []

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
    private(set) var candidates: [ReferenceCandidate] = []
    /// The links found, by their text's first byte (MarkdownLinks.swift says what each kind's
    /// text and destination are). A link inside another link's text or an image's description
    /// is none: the outer link covers it, and an image is no link.
    private(set) var links: [FoundLink] = []
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
    private var labelOfLastCandidate = -1

    private struct Delimiter {
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
    private var delimiters: [Delimiter] = []
    private var lastDelimiter = -1

    private struct Bracket {
        let position: Int
        let isImage: Bool
        let delimiterBottom: Int
    }
    private var brackets: [Bracket] = []
    /// How many of `brackets` are `![` (always active, as in cmark).
    private var imageBrackets = 0
    /// Brackets whose `]` is followed by nothing yet, or by a `[` label still arriving (and
    /// whether each was active).
    private var closingAtEnd: [(Bracket, Bool)] = []
    /// Brackets below this index are inactive: a link cannot contain a link.
    private var linkWatermark = 0

    private var backtickRuns: [Int: (starts: [Int], cursor: Int)] = [:]
    private var emailRanges: [Range<Int>] = []
    /// Whether each of `emailRanges` reaches the end of a text still arriving (it may grow).
    private var emailReachesEnd: [Bool] = []
    private var emailCursor = 0

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

    private var n: Int { text.count }

    private func byte(_ i: Int) -> UInt8 { i < text.count ? text[i] : 0 }

    private mutating func span(_ a: Int, _ b: Int, _ flag: MarkdownInline) {
        if b > a { spanStarts.append((a, b, flag)) }
    }

    private mutating func mark(_ a: Int, _ b: Int, _ marker: MarkdownMarker) {
        var i = max(a, 0)
        while i < min(b, n + 1) { markers[i] = marker; i += 1 }
    }

    private mutating func applySpans() {
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

    private mutating func scanBacktickRuns(from start: Int) {
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
    private mutating func closingBackticks(length: Int, after position: Int) -> Int? {
        guard var entry = backtickRuns[length] else { return nil }
        while entry.cursor < entry.starts.count && entry.starts[entry.cursor] <= position { entry.cursor += 1 }
        backtickRuns[length] = entry
        return entry.cursor < entry.starts.count ? entry.starts[entry.cursor] : nil
    }

    private mutating func parse(from start: Int) {
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
                i = autolink(at: i) ?? i + 1
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
    }

    /// In a text still arriving, an image still open may close around the links after its `![`
    /// (an image's description holds no link), and a `[` still open (and active) around the
    /// autolinks after it (links do not nest).
    private mutating func unsettleLinksInOpenBrackets() {
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

    private mutating func scanDelimiterRun(at i: Int) -> Int {
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

    private mutating func unlink(_ d: Int) {
        let p = delimiters[d].previous, nx = delimiters[d].next
        if p >= 0 { delimiters[p].next = nx }
        if nx >= 0 { delimiters[nx].previous = p } else { lastDelimiter = p }
        delimiters[d].previous = -2
    }

    private func charIndex(_ c: UInt8) -> Int { c == UInt8(ascii: "*") ? 0 : c == UInt8(ascii: "_") ? 1 : 2 }

    /// CommonMark 0.31.2, appendix "process emphasis", over the delimiters above `bottom`
    /// (-1: all); then removes them, first guessing the openers on the last line when allowed.
    private mutating func processEmphasis(bottom: Int, guessing: Bool) {
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

    private func firstDelimiter(above bottom: Int) -> Int {
        // Walk back from the last one: the list above the bottom is short-lived in practice, and
        // every delimiter is visited once per processing.
        var d = lastDelimiter
        var first = -1
        while d >= 0 && d != bottom { first = d; d = delimiters[d].previous }
        return first
    }

    private mutating func removeBetween(_ a: Int, _ b: Int) {
        var d = delimiters[a].next
        while d >= 0 && d != b {
            let next = delimiters[d].next
            unlink(d)
            d = next
        }
    }

    // MARK: - Links

    private mutating func closeBracket(at i: Int) -> Int {
        guard let opener = brackets.last else { return i + 1 }
        if brackets.count - 1 < linkWatermark && !opener.isImage {
            popBracket()
            return i + 1
        }
        let textStart = opener.position + (opener.isImage ? 2 : 1)
        var end = -1
        var destination: [Range<Int>] = []
        var delimiterRanges: [Range<Int>] = []
        var guessed = false
        var isInline = false
        var referenceLabel = ""
        if byte(i + 1) == UInt8(ascii: "(") {
            isInline = true
            switch inlineLinkTail(at: i + 2) {
            case .link(let e, let parts):
                end = e
                destination = parts
                delimiterRanges = [i..<(i + 2), (e - 1)..<e]
            case .open(let parts):
                end = n
                destination = parts
                delimiterRanges = [i..<(i + 2)]
                guessed = true
            case .none:
                isInline = false
            }
        }
        if end < 0 && !references.isEmpty {
            if byte(i + 1) == UInt8(ascii: "["), let close = labelEnd(from: i + 2) {
                let label = close == i + 2 ? textStart..<i : (i + 2)..<close
                if isDefined(label) {
                    referenceLabel = MarkdownInlineParser.normalizedLabel(text[label])
                    end = close + 1
                    delimiterRanges = [i..<end]
                    if close > i + 2 { destination = [(i + 2)..<close] }
                }
            } else if isDefined(textStart..<i) {
                referenceLabel = MarkdownInlineParser.normalizedLabel(text[textStart..<i])
                end = i + 1
                delimiterRanges = [i..<(i + 1)]
            }
        }
        if end < 0 {
            recordCandidate(opener: opener, textStart: textStart, close: i)
            if openEnd && (i + 1 >= n || (byte(i + 1) == UInt8(ascii: "[") && labelEnd(from: i + 2) == nil)) {
                // What follows this `]` has not arrived: it may still close a link or an image.
                closingAtEnd.append((opener, brackets.count - 1 >= linkWatermark))
            }
            popBracket()
            return i + 1
        }
        span(textStart, i, .link)
        mark(opener.position, textStart, .linkDelimiter)
        for r in delimiterRanges { mark(r.lowerBound, r.upperBound, .linkDelimiter) }
        for r in destination { mark(r.lowerBound, r.upperBound, .linkDestination) }
        if guessed { mark(n, n + 1, .linkDestination) }
        processEmphasis(bottom: opener.delimiterBottom, guessing: false)
        while let last = links.last, last.text.lowerBound >= textStart { links.removeLast() }
        if !opener.isImage {
            if isInline {
                links.append(FoundLink(kind: .inline, text: textStart..<i, target: destination.first, label: nil, settled: !guessed))
            } else {
                // `[label]` as the last bytes so far may still become `[text](…)` or `[text][label]`.
                links.append(FoundLink(kind: .reference, text: textStart..<i, target: nil, label: referenceLabel,
                                       settled: !(openEnd && end == n && delimiterRanges.first?.count == 1)))
            }
        } else {
            imageBrackets -= 1
        }
        brackets.removeLast()
        linkWatermark = opener.isImage ? min(linkWatermark, brackets.count) : brackets.count
        return end
    }

    private mutating func recordCandidate(opener: Bracket, textStart: Int, close i: Int) {
        guard i != labelOfLastCandidate, i - textStart < 1000, validLabel(textStart..<i) else { return }
        if byte(i + 1) == UInt8(ascii: "["), let close = labelEnd(from: i + 2) {
            let collapsed = close == i + 2
            let label = collapsed ? textStart..<i : (i + 2)..<close
            guard validLabel(label) else { return }
            if !collapsed { labelOfLastCandidate = close }
            candidates.append(ReferenceCandidate(label: MarkdownInlineParser.normalizedLabel(text[label]),
                                                 delimiters: [opener.position..<textStart, i..<(close + 1)], text: textStart..<i,
                                                 destination: collapsed ? nil : label, isImage: opener.isImage))
        } else {
            candidates.append(ReferenceCandidate(label: MarkdownInlineParser.normalizedLabel(text[textStart..<i]),
                                                 delimiters: [opener.position..<textStart, i..<(i + 1)], text: textStart..<i,
                                                 destination: nil, isImage: opener.isImage))
        }
    }

    private func validLabel(_ label: Range<Int>) -> Bool {
        guard label.count < 1000 else { return false }
        var i = label.lowerBound
        var blank = true
        while i < label.upperBound {
            let c = text[i]
            if c == UInt8(ascii: "\\") { i += 2; blank = false; continue }
            if c == UInt8(ascii: "[") || c == UInt8(ascii: "]") { return false }
            if c > 0x20 { blank = false }
            i += 1
        }
        return !blank
    }

    private mutating func popBracket() {
        if brackets.removeLast().isImage { imageBrackets -= 1 }
        linkWatermark = min(linkWatermark, brackets.count)
    }

    private enum LinkTail { case link(end: Int, parts: [Range<Int>]), open(parts: [Range<Int>]), none }

    /// An inline link's `destination "title")` from just after its `(` (CommonMark 0.31.2, 6.3).
    private func inlineLinkTail(at start: Int) -> LinkTail {
        var i = skipSpace(start)
        var parts: [Range<Int>] = []
        let mayGuess = openEnd && start >= guessFrom
        if i >= n { return mayGuess ? .open(parts: []) : .none }
        if byte(i) == UInt8(ascii: ")") { return .link(end: i + 1, parts: []) }
        let destStart = i
        if byte(i) == UInt8(ascii: "<") {
            i += 1
            while i < n && text[i] != UInt8(ascii: ">") {
                let c = text[i]
                if c == 0x0A || c == UInt8(ascii: "<") { return .none }
                i += c == UInt8(ascii: "\\") && i + 1 < n ? 2 : 1
            }
            if i >= n { return mayGuess ? .open(parts: [destStart..<n]) : .none }
            i += 1
        } else {
            var depth = 0
            while i < n {
                let c = text[i]
                if c <= 0x20 || c == 0x7F { break }
                if c == UInt8(ascii: "\\") && i + 1 < n && MarkdownCharacters.isASCIIPunctuation(text[i + 1]) { i += 2; continue }
                if c == UInt8(ascii: "(") { depth += 1; if depth > 32 { return .none } }
                if c == UInt8(ascii: ")") { if depth == 0 { break }; depth -= 1 }
                i += 1
            }
            if i >= n { return mayGuess ? .open(parts: [destStart..<n]) : .none }
            if depth != 0 { return .none }
        }
        parts.append(destStart..<i)
        let afterDest = i
        i = skipSpace(i)
        if i >= n { return mayGuess ? .open(parts: parts) : .none }
        if i > afterDest, let opening = Optional(text[i]),
           opening == UInt8(ascii: "\"") || opening == UInt8(ascii: "'") || opening == UInt8(ascii: "(") {
            let closing = opening == UInt8(ascii: "(") ? UInt8(ascii: ")") : opening
            let titleStart = i
            i += 1
            while i < n && text[i] != closing {
                if opening == UInt8(ascii: "(") && text[i] == opening { return .none }
                if text[i] == 0x0A && i + 1 < n && text[i + 1] == 0x0A { return .none }
                i += text[i] == UInt8(ascii: "\\") && i + 1 < n ? 2 : 1
            }
            if i >= n { return mayGuess ? .open(parts: parts + [titleStart..<n]) : .none }
            i += 1
            parts.append(titleStart..<i)
            i = skipSpace(i)
        }
        if i >= n { return mayGuess ? .open(parts: parts) : .none }
        return text[i] == UInt8(ascii: ")") ? .link(end: i + 1, parts: parts) : .none
    }

    /// Spaces and tabs, and at most one line ending.
    private func skipSpace(_ start: Int) -> Int {
        var i = start
        var newlines = 0
        while i < n {
            let c = text[i]
            if c == 0x0A { newlines += 1; if newlines > 1 { break } } else if !MarkdownCharacters.isSpaceOrTab(c) { break }
            i += 1
        }
        return i
    }

    /// The `]` that ends a link label starting at `start` (at most 999 bytes, no unescaped `[`).
    private func labelEnd(from start: Int) -> Int? {
        var i = start
        while i < n && i - start < 1000 {
            let c = text[i]
            if c == UInt8(ascii: "]") { return i }
            if c == UInt8(ascii: "[") { return nil }
            i += c == UInt8(ascii: "\\") ? 2 : 1
        }
        return nil
    }

    private func isDefined(_ label: Range<Int>) -> Bool {
        guard validLabel(label) else { return false }
        let key = MarkdownInlineParser.normalizedLabel(text[label])
        return !key.isEmpty && references.contains(key)
    }

    /// A link label matched as CommonMark says (6.3): case-folded (lower, upper, lower again, so
    /// that `ẞ` matches `SS`), inner whitespace collapsed.
    static func normalizedLabel(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var pendingSpace = false
        for b in bytes {
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self).lowercased().uppercased().lowercased()
    }

    // MARK: - Autolinks

    /// `<scheme:address>` or `<user@host>` (CommonMark 0.31.2, 6.5).
    private mutating func autolink(at i: Int) -> Int? {
        guard i + 1 < n else { return nil }
        var j = i + 1
        var schemeLength = 0
        while j < n && (MarkdownCharacters.isASCIIAlphanumeric(text[j]) || text[j] == UInt8(ascii: "+")
                        || text[j] == UInt8(ascii: ".") || text[j] == UInt8(ascii: "-")) {
            j += 1; schemeLength += 1
        }
        var ok = false
        var isEmail = false
        if schemeLength >= 2 && schemeLength <= 32 && MarkdownCharacters.isASCIILetter(text[i + 1])
            && j < n && text[j] == UInt8(ascii: ":") {
            j += 1
            while j < n && text[j] > 0x20 && text[j] != UInt8(ascii: "<") && text[j] != UInt8(ascii: ">") { j += 1 }
            ok = j < n && text[j] == UInt8(ascii: ">")
        } else {
            isEmail = true
            j = i + 1
            let local = j
            while j < n && (MarkdownCharacters.isASCIIAlphanumeric(text[j]) || ".!#$%&'*+/=?^_`{|}~-".utf8.contains(text[j])) { j += 1 }
            if j > local && j < n && text[j] == UInt8(ascii: "@") {
                j += 1
                var labelStart = j
                var labels = 0
                while true {
                    while j < n && (MarkdownCharacters.isASCIIAlphanumeric(text[j]) || text[j] == UInt8(ascii: "-")) { j += 1 }
                    let length = j - labelStart
                    if length == 0 || length > 63 || text[labelStart] == UInt8(ascii: "-") || text[j - 1] == UInt8(ascii: "-") { break }
                    labels += 1
                    if j < n && text[j] == UInt8(ascii: ".") { j += 1; labelStart = j; continue }
                    ok = labels > 0 && j < n && text[j] == UInt8(ascii: ">")
                    break
                }
            }
        }
        guard ok else { return nil }
        links.append(FoundLink(kind: isEmail ? .emailAutolink : .autolink, text: (i + 1)..<j, target: (i + 1)..<j,
                               label: nil, settled: true))
        mark(i, i + 1, .linkDelimiter)
        mark(j, j + 1, .linkDelimiter)
        span(i + 1, j, .autolink)
        return j + 1
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        MarkdownCharacters.isASCIIAlphanumeric(b) || b == UInt8(ascii: "_") || b >= 0x80
    }

    /// GFM extended autolinks, as cmark-gfm finds them: `www.` after the start, a space or one of
    /// `*_~(`; `http://`, `https://`, `ftp://` not glued to a letter; trailing punctuation trimmed.
    private mutating func extendedAutolink(at i: Int) -> Int? {
        let previous: UInt8? = i > 0 ? text[i - 1] : nil
        var bodyStart: Int
        var needDot: Bool
        if hasPrefix("www.", at: i) {
            if let p = previous, !(p == 0x20 || p == 0x09 || p == 0x0A || "*_~(".utf8.contains(p)) { return nil }
            bodyStart = i + 4
            needDot = true
        } else if let length = ["http://", "https://", "ftp://"].first(where: { hasPrefix($0, at: i) })?.utf8.count {
            if let p = previous, MarkdownCharacters.isASCIILetter(p) { return nil }
            bodyStart = i + length
            needDot = false
        } else {
            return nil
        }
        var end = bodyStart
        // Inside a bracket the address stops at a `]`: the link that bracket may open comes first.
        let inBracket = !brackets.isEmpty
        while end < n && text[end] > 0x20 && text[end] != UInt8(ascii: "<") && !(inBracket && text[end] == UInt8(ascii: "]")) { end += 1 }
        let reachesEnd = openEnd && end == n
        end = trimmedAutolinkEnd(start: i, end: end)
        if end <= bodyStart || (needDot && end - i <= 4) { return nil }
        guard hostIsValid(bodyStart, end, needDot: needDot) else { return nil }
        span(i, end, .autolink)
        // cmark-gfm links no bare address while a `[` or `![` is open before it.
        if brackets.count <= linkWatermark && imageBrackets == 0 {
            links.append(FoundLink(kind: needDot ? .www : .url, text: i..<end, target: i..<end, label: nil, settled: !reachesEnd))
        }
        return end
    }

    private func hasPrefix(_ s: String, at i: Int) -> Bool {
        var j = i
        for b in s.utf8 {
            guard j < n, text[j] == b else { return false }
            j += 1
        }
        return true
    }

    private func trimmedAutolinkEnd(start: Int, end initial: Int) -> Int {
        var end = initial
        while end > start {
            let c = text[end - 1]
            if "?!.,:*_~'\"".utf8.contains(c) { end -= 1; continue }
            if c == UInt8(ascii: ";") {
                var k = end - 2
                while k > start && MarkdownCharacters.isASCIILetter(text[k]) { k -= 1 }
                if k >= start && text[k] == UInt8(ascii: "&") && k < end - 2 { end = k } else { end -= 1 }
                continue
            }
            if c == UInt8(ascii: ")") {
                var open = 0, close = 0
                for k in start..<end { if text[k] == UInt8(ascii: "(") { open += 1 } else if text[k] == UInt8(ascii: ")") { close += 1 } }
                if close > open { end -= 1; continue }
            }
            break
        }
        return end
    }

    private func hostIsValid(_ start: Int, _ end: Int, needDot: Bool) -> Bool {
        var j = start
        if j < end && (MarkdownCharacters.isASCIIAlphanumeric(text[j]) || text[j] >= 0x80) { j += 1 }
        while j < end && (MarkdownInlineParser.isWordByte(text[j]) || text[j] == UInt8(ascii: "-") || text[j] == UInt8(ascii: ".")) { j += 1 }
        guard j > start else { return false }
        let host = text[start..<j]
        let parts = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.suffix(2).contains(where: { $0.contains(UInt8(ascii: "_")) }) { return false }
        return !needDot || host.contains(UInt8(ascii: "."))
    }

    /// Bare e-mail addresses (GFM): `local@domain.tld`, the local part of word characters and
    /// `.+-`, not preceded by one of them or `@`.
    private mutating func scanEmails(from start: Int) {
        var i = start
        var lastAt = start - 1
        while i < n {
            if text[i] == UInt8(ascii: "@") {
                var a = i
                while a > lastAt + 1 && a > start && (MarkdownInlineParser.isWordByte(text[a - 1]) || ".+-".utf8.contains(text[a - 1])) { a -= 1 }
                let precededBad = a > start && text[a - 1] == UInt8(ascii: "@")
                var e = i + 1
                var dots = 0
                var segmentStart = e
                while e < n && (MarkdownInlineParser.isWordByte(text[e]) || text[e] == UInt8(ascii: "-")
                                || (text[e] == UInt8(ascii: ".") && e > segmentStart)) {
                    if text[e] == UInt8(ascii: ".") { dots += 1; segmentStart = e + 1 }
                    e += 1
                }
                let reachesEnd = openEnd && e == n
                while e > i + 1 && text[e - 1] == UInt8(ascii: ".") { e -= 1; dots -= 1 }
                if a < i && !precededBad && dots > 0 && e > i + 1 && text[e - 1] != UInt8(ascii: "-") && text[e - 1] != UInt8(ascii: "_") {
                    if let last = emailRanges.last, last.upperBound > a { } else { emailRanges.append(a..<e); emailReachesEnd.append(reachesEnd) }
                }
                lastAt = i
            }
            i += 1
        }
    }
}
