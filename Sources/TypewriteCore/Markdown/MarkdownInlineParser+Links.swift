// MarkdownInlineParser+Links.swift: links, images and autolinks (CommonMark 0.31 §6.3, §6.5,
// §6.6; GFM §6.9 extended autolinks). See MarkdownInlineParser.swift.

extension MarkdownInlineParser {
    // MARK: - Links

    mutating func closeBracket(at i: Int) -> Int {
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

    mutating func recordCandidate(opener: Bracket, textStart: Int, close i: Int) {
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

    func validLabel(_ label: Range<Int>) -> Bool {
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

    mutating func popBracket() {
        if brackets.removeLast().isImage { imageBrackets -= 1 }
        linkWatermark = min(linkWatermark, brackets.count)
    }

    enum LinkTail { case link(end: Int, parts: [Range<Int>]), open(parts: [Range<Int>]), none }

    /// An inline link's `destination "title")` from just after its `(` (CommonMark 0.31.2, 6.3).
    func inlineLinkTail(at start: Int) -> LinkTail {
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
                if MarkdownCharacters.endsBareDestination(c) { break }
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
    func skipSpace(_ start: Int) -> Int {
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
    func labelEnd(from start: Int) -> Int? {
        var i = start
        while i < n && i - start < 1000 {
            let c = text[i]
            if c == UInt8(ascii: "]") { return i }
            if c == UInt8(ascii: "[") { return nil }
            i += c == UInt8(ascii: "\\") ? 2 : 1
        }
        return nil
    }

    func isDefined(_ label: Range<Int>) -> Bool {
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
    mutating func autolink(at i: Int) -> Int? {
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

    static func isWordByte(_ b: UInt8) -> Bool {
        MarkdownCharacters.isASCIIAlphanumeric(b) || b == UInt8(ascii: "_") || b >= 0x80
    }

    /// GFM extended autolinks, as cmark-gfm finds them: `www.` after the start, a space or one of
    /// `*_~(`; `http://`, `https://`, `ftp://` not glued to a letter; trailing punctuation trimmed.
    mutating func extendedAutolink(at i: Int) -> Int? {
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
        while end < n && !MarkdownCharacters.endsBareDestination(text[end]) && text[end] != UInt8(ascii: "<")
                && !(inBracket && text[end] == UInt8(ascii: "]")) { end += 1 }
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

    func hasPrefix(_ s: String, at i: Int) -> Bool {
        var j = i
        for b in s.utf8 {
            guard j < n, text[j] == b else { return false }
            j += 1
        }
        return true
    }

    func trimmedAutolinkEnd(start: Int, end initial: Int) -> Int {
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

    func hostIsValid(_ start: Int, _ end: Int, needDot: Bool) -> Bool {
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
    /// `.+-`, not preceded by one of them or `@`. Read, as cmark-gfm reads them, in the text's
    /// literal characters: a backslash escape or a character reference stands for its character
    /// (`a\_b@example.org` is `a_b@example.org`).
    mutating func scanEmails(from start: Int) {
        guard text[start...].contains(UInt8(ascii: "@")) else { return }
        // The literal bytes, each with the source bytes it comes from.
        var lit: [UInt8] = [], from: [Int] = [], to: [Int] = []
        lit.reserveCapacity(n - start)
        var k = start
        while k < n {
            let c = text[k]
            if c == UInt8(ascii: "\\") && k + 1 < n && MarkdownCharacters.isASCIIPunctuation(text[k + 1]) {
                lit.append(text[k + 1]); from.append(k); to.append(k + 2)
                k += 2
            } else if c == UInt8(ascii: "&"), let (scalars, next) = MarkdownLinkDestination.characterReference(text[...], at: k) {
                for b in scalars.utf8 { lit.append(b); from.append(k); to.append(next) }
                k = next
            } else {
                lit.append(c); from.append(k); to.append(k + 1)
                k += 1
            }
        }
        let m = lit.count
        var i = 0
        var lastAt = -1
        while i < m {
            if lit[i] == UInt8(ascii: "@") {
                var a = i
                while a > lastAt + 1 && a > 0 && (MarkdownInlineParser.isWordByte(lit[a - 1]) || ".+-".utf8.contains(lit[a - 1])) { a -= 1 }
                let precededBad = a > 0 && lit[a - 1] == UInt8(ascii: "@")
                var e = i + 1
                var dots = 0
                var segmentStart = e
                while e < m && (MarkdownInlineParser.isWordByte(lit[e]) || lit[e] == UInt8(ascii: "-")
                                || (lit[e] == UInt8(ascii: ".") && e > segmentStart)) {
                    if lit[e] == UInt8(ascii: ".") { dots += 1; segmentStart = e + 1 }
                    e += 1
                }
                let reachesEnd = openEnd && e == m
                while e > i + 1 && lit[e - 1] == UInt8(ascii: ".") { e -= 1; dots -= 1 }
                if a < i && !precededBad && dots > 0 && e > i + 1 && lit[e - 1] != UInt8(ascii: "-") && lit[e - 1] != UInt8(ascii: "_") {
                    let range = from[a]..<to[e - 1]
                    if let last = emailRanges.last, last.upperBound > range.lowerBound { } else {
                        emailRanges.append(range)
                        emailReachesEnd.append(reachesEnd)
                    }
                }
                lastAt = i
            }
            i += 1
        }
    }
}
