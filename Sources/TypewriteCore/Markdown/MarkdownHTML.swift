// Raw HTML as CommonMark 0.31.2 reads it: inline raw HTML (6.6: open and closing tags, comments,
// processing instructions, declarations, CDATA sections) and the start and end conditions of HTML
// blocks (4.6). Raw HTML is not text: nothing in it is a link, an autolink or a bare address
// (cmark-gfm's autolink extension looks only at text nodes).

enum MarkdownHTML {
    /// What is at a `<`: raw HTML ending before `end`, a prefix of raw HTML that reaches the end
    /// of the bytes given (it may still become raw HTML when more arrives), or neither.
    enum Scan: Equatable {
        case html(end: Int)
        case partial
        case none
    }

    /// Where earlier scans of one text found no closer: a later scan from further on finds none
    /// either, so each byte is scanned a bounded number of times (linear time on `<?<?<?…`).
    struct Memo {
        /// Per closer (`?>`, `-->`, `]]>`, `>`, `"`, `'`): a scan from at or after it reached the end.
        var noCloserFrom = [Int](repeating: Int.max, count: 6)
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")

    static func isLetter(_ b: UInt8) -> Bool { MarkdownCharacters.isASCIILetter(b) }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

    /// Inline raw HTML at `t[i]`, which is `<`, within `t[..<n]` (6.6).
    static func inline(_ t: [UInt8], _ i: Int, _ n: Int, memo: inout Memo) -> Scan {
        var j = i + 1
        guard j < n else { return .partial }
        let c = t[j]
        if isLetter(c) { return openTag(t, j, n, memo: &memo) }
        if c == slash { return closingTag(t, j + 1, n) }
        if c == UInt8(ascii: "?") { return until(t, j + 1, n, Array("?>".utf8), 0, memo: &memo) }
        guard c == UInt8(ascii: "!") else { return .none }
        j += 1
        guard j < n else { return .partial }
        if t[j] == UInt8(ascii: "-") {
            // `<!-->`, `<!--->`, or `<!--` … `-->`.
            guard j + 1 < n else { return .partial }
            guard t[j + 1] == UInt8(ascii: "-") else { return .none }
            j += 2
            guard j < n else { return .partial }
            if t[j] == gt { return .html(end: j + 1) }
            if t[j] == UInt8(ascii: "-") {
                guard j + 1 < n else { return .partial }
                if t[j + 1] == gt { return .html(end: j + 2) }
            }
            return until(t, j, n, Array("-->".utf8), 1, memo: &memo)
        }
        if t[j] == UInt8(ascii: "[") {
            let cdata = Array("[CDATA[".utf8)
            for k in cdata.indices {
                guard j + k < n else { return .partial }
                guard t[j + k] == cdata[k] else { return .none }
            }
            return until(t, j + cdata.count, n, Array("]]>".utf8), 2, memo: &memo)
        }
        if isLetter(t[j]) { return until(t, j + 1, n, [gt], 3, memo: &memo) }
        return .none
    }

    /// The first `closer` from `j` on: raw HTML up to its end, else `.partial` (it may still come).
    private static func until(_ t: [UInt8], _ j: Int, _ n: Int, _ closer: [UInt8], _ slot: Int, memo: inout Memo) -> Scan {
        if j >= memo.noCloserFrom[slot] { return .partial }
        var k = j
        while k + closer.count <= n {
            if t[k] == closer[0] && (closer.count == 1 || t[(k + 1)..<(k + closer.count)].elementsEqual(closer[1...])) {
                return .html(end: k + closer.count)
            }
            k += 1
        }
        memo.noCloserFrom[slot] = min(memo.noCloserFrom[slot], j)
        return .partial
    }

    /// Spaces, tabs and at most one line ending from `j`.
    private static func skipSpace(_ t: [UInt8], _ j: Int, _ n: Int) -> Int {
        var k = j, lines = 0
        while k < n && isSpace(t[k]) {
            if t[k] == 0x0A { lines += 1; if lines > 1 { break } }
            k += 1
        }
        return k
    }

    /// `<name attribute…>` or `<name attribute… />` from the name's first letter at `j` (6.6).
    static func openTag(_ t: [UInt8], _ j: Int, _ n: Int, memo: inout Memo) -> Scan {
        var k = j
        while k < n && (MarkdownCharacters.isASCIIAlphanumeric(t[k]) || t[k] == UInt8(ascii: "-")) { k += 1 }
        while true {
            guard k < n else { return .partial }
            let afterSpace = skipSpace(t, k, n)
            guard afterSpace < n else { return .partial }
            let c = t[afterSpace]
            if c == gt { return .html(end: afterSpace + 1) }
            if c == slash {
                guard afterSpace + 1 < n else { return .partial }
                return t[afterSpace + 1] == gt ? .html(end: afterSpace + 2) : .none
            }
            // An attribute: whitespace first, then its name.
            guard afterSpace > k, isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") else { return .none }
            k = afterSpace + 1
            while k < n && (MarkdownCharacters.isASCIIAlphanumeric(t[k]) || "_.:-".utf8.contains(t[k])) { k += 1 }
            guard k < n else { return .partial }
            let beforeEquals = skipSpace(t, k, n)
            guard beforeEquals < n else { return .partial }
            guard t[beforeEquals] == UInt8(ascii: "=") else { continue }
            var v = skipSpace(t, beforeEquals + 1, n)
            guard v < n else { return .partial }
            let q = t[v]
            if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                let slot = q == UInt8(ascii: "\"") ? 4 : 5
                if v + 1 >= memo.noCloserFrom[slot] { return .partial }
                var e = v + 1
                while e < n && t[e] != q { e += 1 }
                guard e < n else { memo.noCloserFrom[slot] = min(memo.noCloserFrom[slot], v + 1); return .partial }
                k = e + 1
            } else {
                let start = v
                while v < n && !isSpace(t[v]) && !"\"'=<>`".utf8.contains(t[v]) { v += 1 }
                guard v > start else { return .none }
                k = v
            }
        }
    }

    /// `</name>` from the name's first letter at `j` (6.6).
    static func closingTag(_ t: [UInt8], _ j: Int, _ n: Int) -> Scan {
        guard j < n else { return .partial }
        guard isLetter(t[j]) else { return .none }
        var k = j
        while k < n && (MarkdownCharacters.isASCIIAlphanumeric(t[k]) || t[k] == UInt8(ascii: "-")) { k += 1 }
        k = skipSpace(t, k, n)
        guard k < n else { return .partial }
        return t[k] == gt ? .html(end: k + 1) : .none
    }

    // MARK: - HTML blocks (4.6)

    /// The block-level tag names of start condition 6.
    static let blockNames: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html",
        "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option",
        "p", "param", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
        "track", "ul",
    ]

    /// The start condition (1–7) a line's content `line` (from its first non-blank byte) meets,
    /// if any; 7 only when `mayBeKind7` (it cannot interrupt a paragraph).
    static func blockStart(_ line: [UInt8], mayBeKind7: Bool) -> UInt8? {
        let n = line.count
        guard n >= 2, line[0] == lt else { return nil }
        func hasPrefix(_ s: String, at j: Int, caseless: Bool = true) -> Bool {
            let p = Array(s.utf8)
            guard j + p.count <= n else { return false }
            for k in p.indices where (caseless ? line[j + k] | 0x20 : line[j + k]) != p[k] { return false }
            return true
        }
        func endsName(_ j: Int) -> Bool { j == n || line[j] == 0x20 || line[j] == 0x09 || line[j] == gt }
        for name in ["pre", "script", "style", "textarea"] where hasPrefix(name, at: 1) && endsName(1 + name.utf8.count) {
            return 1
        }
        if hasPrefix("!--", at: 1) { return 2 }
        if line[1] == UInt8(ascii: "?") { return 3 }
        if line[1] == UInt8(ascii: "!") && n > 2 && isLetter(line[2]) { return 4 }
        if hasPrefix("![CDATA[", at: 1, caseless: false) { return 5 }
        let nameStart = line[1] == slash ? 2 : 1
        var k = nameStart
        while k < n && MarkdownCharacters.isASCIIAlphanumeric(line[k]) { k += 1 }
        if k > nameStart, blockNames.contains(String(decoding: line[nameStart..<k], as: UTF8.self).lowercased()),
           k == n || line[k] == 0x20 || line[k] == 0x09 || line[k] == gt || (line[k] == slash && k + 1 < n && line[k + 1] == gt) {
            return 6
        }
        guard mayBeKind7, nameStart < n, isLetter(line[nameStart]) else { return nil }
        var memo = Memo()
        let scan = nameStart == 2 ? closingTag(line, 2, n) : openTag(line, 1, n, memo: &memo)
        guard case .html(let end) = scan else { return nil }
        let name = String(decoding: line[nameStart..<k], as: UTF8.self).lowercased()
        if nameStart == 1 && ["pre", "script", "style", "textarea"].contains(name) { return nil }
        return line[end...].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) ? 7 : nil
    }

    /// Whether a line (of a block with start condition 1–5) meets that condition's end.
    static func blockEnds(_ line: [UInt8], kind: UInt8) -> Bool {
        func contains(_ s: String, caseless: Bool = false) -> Bool {
            let p = Array(s.utf8)
            guard line.count >= p.count else { return false }
            for j in 0...(line.count - p.count) {
                var ok = true
                for k in p.indices where (caseless ? line[j + k] | 0x20 : line[j + k]) != p[k] { ok = false; break }
                if ok { return true }
            }
            return false
        }
        switch kind {
        case 1: return contains("</pre>", caseless: true) || contains("</script>", caseless: true)
            || contains("</style>", caseless: true) || contains("</textarea>", caseless: true)
        case 2: return contains("-->")
        case 3: return contains("?>")
        case 4: return contains(">")
        case 5: return contains("]]>")
        default: return false
        }
    }
}
