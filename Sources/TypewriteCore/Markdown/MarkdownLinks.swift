// Links of the markdown highlighter: which bytes are a link's visible text, and where it points.
// The destination is decoded as CommonMark 0.31.2 says (6.3 link destinations, 2.4 backslash
// escapes, 2.5 entity and numeric character references, 6.5 autolinks; GFM 6.9 extended autolinks),
// written as cmark-gfm writes an HTML `href` (its `houdini_escape_href`: percent-encoding), and kept
// only when it is safe to hand to a terminal: see `MarkdownLink.destination`.
// Only the standard library is used, like the rest of this folder.

/// A link found in the markdown: the bytes of its visible text and its destination.
///
/// Reported in `MarkdownUpdate.links` when the link is first found and again whenever its text's
/// bytes or its destination change, and once more, with no ranges, when later text shows it is
/// no link after all. Each report is the whole current state of that link: it replaces the last
/// report with the same `id`.
public struct MarkdownLink: Hashable, Sendable {
    /// What kind of link it is.
    public enum Kind: UInt8, Hashable, Sendable, CaseIterable {
        /// `[text](destination "title")` (CommonMark 0.31.2, 6.3): the text between the brackets.
        case inline
        /// `[text][label]`, `[label][]` or `[label]` with a definition `[label]: destination`
        /// anywhere in the document (CommonMark 0.31.2, 6.3 and 4.7): the text between the brackets.
        case reference
        /// `<scheme:address>` (CommonMark 0.31.2, 6.5): the address between `<` and `>`.
        case autolink
        /// `<user@example.org>` (CommonMark 0.31.2, 6.5), pointing at `mailto:user@example.org`.
        case emailAutolink
        /// A bare `www.example.org/…` (GFM 6.9), pointing at `http://www.example.org/…`.
        case www
        /// A bare `https://example.org/…` or `http://…` (GFM 6.9); `ftp://` ones are found too,
        /// but never safe.
        case url
        /// A bare `user@example.org` (GFM 6.9), pointing at `mailto:user@example.org`.
        case email
    }

    /// A number unique within the highlighter (1, 2, 3, … in order of first report; 0 is never
    /// used, so it can stand for "no link" in a per-byte table). A link keeps it while its text
    /// starts at the same byte; a link found again after it was removed gets a new one.
    public let id: Int
    /// What kind of link it is.
    public var kind: Kind
    /// The visible text's bytes, as absolute offsets like `MarkdownStyleRun.range`: one range for
    /// each source line the text is on, in order, never empty. A text on several lines leaves out
    /// the line endings between them and what precedes the next line's text (its indentation,
    /// its block quote `>` and list item indentation). Empty when the link is removed.
    public var ranges: [Range<Int>]
    /// The link's destination, when it is known and safe: ASCII only, bytes 0x21–0x7E, so it can
    /// be written into an OSC 8 sequence as it is; nil while it is not known yet (an inline link
    /// whose `)` has not arrived, a bare URL that may still grow, a reference link whose `]` is the
    /// last byte so far) and when it is not safe. Safe means: the scheme is `http`, `https`
    /// (followed by `//`) or `mailto`, in any case; the decoded destination has no C0 or C1
    /// control character, no DEL and no bidirectional formatting character (U+061C, U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069), neither as it is nor once its `%XX` escapes are
    /// decoded (bytes that are not UTF-8 read as Latin-1); and it is at most
    /// `MarkdownLink.maximumDestinationLength` bytes once encoded.
    public var destination: String?
    /// The span the previous report with this `id` covered (`range` of that report), so a
    /// renderer that keeps a link id per byte knows which bytes to clear; nil on the first report.
    public var replacing: Range<Int>?

    /// Destinations longer than this many bytes, once encoded, are not linked.
    public static let maximumDestinationLength = 2048

    /// A link report.
    public init(id: Int, kind: Kind, ranges: [Range<Int>], destination: String?, replacing: Range<Int>? = nil) {
        self.id = id
        self.kind = kind
        self.ranges = ranges
        self.destination = destination
        self.replacing = replacing
    }

    /// From the first byte of the text to the end of its last byte; empty when removed.
    public var range: Range<Int> {
        guard let first = ranges.first, let last = ranges.last else { return 0..<0 }
        return first.lowerBound..<last.upperBound
    }

    /// True when later text showed this is no link: the bytes `replacing` covered are no longer
    /// part of it.
    public var isRemoved: Bool { ranges.isEmpty }
}

/// The links reported so far, kept per byte: apply each update in order.
///
/// A convenience for callers that want every link's current state (and for tests); it keeps a
/// link id for every byte reported, like `MarkdownStyleMap` keeps styles.
public struct MarkdownLinkMap: Hashable, Sendable {
    private var ids: [Int] = []
    private var current: [Int: MarkdownLink] = [:]

    /// An empty map.
    public init() {}

    /// Applies an update's link reports.
    public mutating func apply(_ update: MarkdownUpdate) {
        for link in update.links {
            if let old = current[link.id] {
                for r in old.ranges { for i in r where i < ids.count && ids[i] == link.id { ids[i] = 0 } }
            }
            if link.isRemoved {
                current[link.id] = nil
                continue
            }
            current[link.id] = link
            for r in link.ranges {
                if r.upperBound > ids.count { ids.append(contentsOf: repeatElement(0, count: r.upperBound - ids.count)) }
                for i in r { ids[i] = link.id }
            }
        }
    }

    /// The id of the link whose text covers the byte at `offset`, or 0.
    public subscript(offset: Int) -> Int { offset < ids.count ? ids[offset] : 0 }

    /// The current state of the link with this id, if it is a link.
    public func link(_ id: Int) -> MarkdownLink? { current[id] }

    /// Every current link, by the offset of its text's first byte.
    public var links: [MarkdownLink] { current.values.sorted { $0.range.lowerBound < $1.range.lowerBound } }
}

// MARK: - Destinations

/// CommonMark's link destination decoding, cmark-gfm's `href` encoding and the safety rules.
enum MarkdownLinkDestination {
    /// A destination as an inline link or a definition writes it (CommonMark 0.31.2, 6.3):
    /// without its `<` `>` if it has them, spaces around it trimmed (as cmark does), backslash
    /// escapes of ASCII punctuation and character references decoded, left to right.
    static func decodeLinkDestination(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var s = raw
        if s.first == UInt8(ascii: "<") && s.last == UInt8(ascii: ">") && s.count >= 2 {
            s = s.dropFirst().dropLast()
        }
        while let f = s.first, isTrimmed(f) { s = s.dropFirst() }
        while let l = s.last, isTrimmed(l) { s = s.dropLast() }
        return decode(s, backslashEscapes: true)
    }

    /// The address of an autolink, `<…>` (CommonMark 0.31.2, 6.5): no backslash escapes;
    /// character references decoded, as cmark does.
    static func decodeAutolink(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        decode(raw, backslashEscapes: false)
    }

    private static func isTrimmed(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == 0x0B }

    static func decode(_ s: ArraySlice<UInt8>, backslashEscapes: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        let end = s.endIndex
        while i < end {
            let c = s[i]
            if backslashEscapes && c == UInt8(ascii: "\\") && i + 1 < end && MarkdownCharacters.isASCIIPunctuation(s[i + 1]) {
                out.append(s[i + 1])
                i += 2
            } else if c == UInt8(ascii: "&"), let (scalars, next) = characterReference(s, at: i) {
                out.append(contentsOf: scalars.utf8)
                i = next
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    /// `&name;`, `&#digits;` (1–7 digits) or `&#xhex;` (1–6 hex digits) at `i` (CommonMark 0.31.2,
    /// 2.5): the text it stands for (U+FFFD for 0, a surrogate or beyond U+10FFFF) and where it
    /// ends; nil when it is none.
    static func characterReference(_ s: ArraySlice<UInt8>, at start: Int) -> (String, Int)? {
        let end = s.endIndex
        var i = start + 1
        guard i < end else { return nil }
        if s[i] == UInt8(ascii: "#") {
            i += 1
            var value: UInt32 = 0
            var digits = 0
            if i < end && (s[i] == UInt8(ascii: "x") || s[i] == UInt8(ascii: "X")) {
                i += 1
                while i < end, let d = hexValue(s[i]), digits < 6 { value = value * 16 + UInt32(d); digits += 1; i += 1 }
            } else {
                while i < end && s[i] >= 0x30 && s[i] <= 0x39 && digits < 7 { value = value * 10 + UInt32(s[i] - 0x30); digits += 1; i += 1 }
            }
            guard digits > 0, i < end, s[i] == UInt8(ascii: ";") else { return nil }
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(scalar ?? "\u{FFFD}"), i + 1)
        }
        while i < end && MarkdownCharacters.isASCIIAlphanumeric(s[i]) && i - start <= MarkdownEntities.longestName { i += 1 }
        guard i > start + 1, i < end, s[i] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: s[(start + 1)..<i], as: UTF8.self)
        guard let value = MarkdownEntities.table[name] else { return nil }
        return (value, i + 1)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// Bytes cmark-gfm's `houdini_escape_href` writes as they are: ASCII letters and digits and
    /// `-_.+!*(),%#@?=;:/$~`; `&` and `'` too (it writes them as HTML character references,
    /// which stand for themselves in the URL). Every other byte becomes `%XX` (upper-case hex).
    private static let hrefKeeps: [Bool] = (0..<256).map { b in
        let b = UInt8(b)
        return MarkdownCharacters.isASCIIAlphanumeric(b) || "-_.+!*(),%#@?=;:/$~&'".utf8.contains(b)
    }

    /// The destination as cmark-gfm writes it into an `href`, with its HTML escaping undone:
    /// ASCII 0x21–0x7E only.
    static func encodeHref(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for b in bytes {
            if hrefKeeps[Int(b)] {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The encoded destination of decoded bytes when it is safe (see `MarkdownLink.destination`),
    /// else nil.
    static func safeHref(_ decoded: [UInt8]) -> String? {
        guard hasSafeScheme(decoded), !hasForbiddenCharacter(decoded), !hasForbiddenCharacter(percentDecoded(decoded)) else { return nil }
        let href = encodeHref(decoded)
        return href.utf8.count <= MarkdownLink.maximumDestinationLength ? href : nil
    }

    /// `http://x`, `https://x` or `mailto:x`, the scheme in any case, something after it.
    static func hasSafeScheme(_ d: [UInt8]) -> Bool {
        func prefix(_ p: String) -> Bool {
            let p = Array(p.utf8)
            guard d.count > p.count else { return false }
            for k in p.indices where d[k] | (d[k] >= 0x41 && d[k] <= 0x5A ? 0x20 : 0) != p[k] { return false }
            return true
        }
        return prefix("http://") || prefix("https://") || prefix("mailto:")
    }

    /// `%XX` escapes decoded; everything else as it is.
    static func percentDecoded(_ d: [UInt8]) -> [UInt8] {
        guard d.contains(UInt8(ascii: "%")) else { return d }
        var out: [UInt8] = []
        out.reserveCapacity(d.count)
        var i = 0
        while i < d.count {
            if d[i] == UInt8(ascii: "%"), i + 2 < d.count, let h = hexValue(d[i + 1]), let l = hexValue(d[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(d[i])
                i += 1
            }
        }
        return out
    }

    /// A C0 or C1 control character, DEL, or a bidirectional formatting character, in bytes read
    /// as UTF-8 (a byte that is not part of a valid sequence read as Latin-1).
    static func hasForbiddenCharacter(_ d: [UInt8]) -> Bool {
        var i = 0
        while i < d.count {
            let b = d[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x7F { return true }
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            var scalar: UInt32 = UInt32(b)
            var valid = false
            if length > 1 && i + length <= d.count {
                var decoder = UTF8()
                var iterator = d[i..<(i + length)].makeIterator()
                if case .scalarValue(let s) = decoder.decode(&iterator), s.utf8.count == length {
                    scalar = s.value
                    valid = true
                }
            }
            if !valid {
                // Latin-1: the byte itself.
                if b < 0xA0 { return true }
                i += 1
                continue
            }
            if isForbidden(scalar) { return true }
            i += length
        }
        return false
    }

    static func isForbidden(_ v: UInt32) -> Bool {
        v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0x061C || v == 0x200E || v == 0x200F
            || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
    }
}

// MARK: - From the parsers to the reports

/// A definition's destination (CommonMark 0.31.2, 4.7), encoded; `safe` says whether it passed
/// the safety rules.
struct MarkdownLinkTarget {
    let href: String
    let safe: Bool

    init(decoded: [UInt8]) {
        if let safe = MarkdownLinkDestination.safeHref(decoded) {
            href = safe
            self.safe = true
        } else {
            href = MarkdownLinkDestination.encodeHref(decoded)
            safe = false
        }
    }
}

/// A link as one parse of a block found it, in absolute offsets.
struct MarkdownResolvedLink {
    let kind: MarkdownLink.Kind
    let ranges: [Range<Int>]
    let destination: String?
}

/// What the parsers decided about links, in order, for the highlighter to compare with what it
/// reported: the links starting in a range are forgotten (`clear`), or replaced by those a parse
/// found there (`replace`); a reference resolved by a later definition is a new link (`late`).
struct MarkdownLinkLog {
    enum Event {
        case clear(Range<Int>)
        case replace(Range<Int>, [MarkdownResolvedLink])
        case late(MarkdownResolvedLink)
    }
    var events: [Event] = []
    /// Tests only: destinations that fail the safety rules are reported anyway (encoded).
    var keepsUnsafeDestinations = false
    /// While a copy of the block parser examines the open text: what it resolves late, the
    /// parser itself resolves again when the text ends, and only that is reported.
    var ignoresLate = false

    mutating func clear(_ range: Range<Int>) {
        if !range.isEmpty { events.append(.clear(range)) }
    }

    /// The links of `range`, just cleared with the rest of its line, stay as they were (a line
    /// added to an open paragraph keeps its guesses until the paragraph is parsed again).
    mutating func keep(_ range: Range<Int>) {
        var k = events.count - 1
        while k >= 0 && k >= events.count - 4 {
            if case .clear(let r) = events[k], r.lowerBound <= range.lowerBound && range.upperBound <= r.upperBound {
                events[k] = .clear(r.lowerBound..<range.lowerBound)
                if range.upperBound < r.upperBound { events.insert(.clear(range.upperBound..<r.upperBound), at: k + 1) }
                return
            }
            k -= 1
        }
    }

    /// The links one parse of a block found, resolved: `map` gives each byte of the parsed text
    /// its absolute offset (-1 for the line feeds joining its lines); links starting before
    /// `skipBefore` (a definition still arriving) are left out.
    mutating func replace(_ span: Range<Int>, _ found: [MarkdownInlineParser.FoundLink], text: [UInt8], map: [Int],
                          skipBefore: Int, definitions: [String: MarkdownLinkTarget]) {
        var resolved: [MarkdownResolvedLink] = []
        for link in found where link.text.lowerBound >= skipBefore {
            let ranges = Self.pieces(link.text, map)
            guard !ranges.isEmpty else { continue }
            resolved.append(MarkdownResolvedLink(kind: link.kind, ranges: ranges,
                                                 destination: link.settled ? destination(link, text, definitions) : nil))
        }
        events.append(.replace(span, resolved))
    }

    /// A reference link whose definition came after its block ended.
    mutating func late(_ ranges: [Range<Int>], _ target: MarkdownLinkTarget?) {
        guard !ignoresLate, !ranges.isEmpty else { return }
        events.append(.late(MarkdownResolvedLink(kind: .reference, ranges: ranges, destination: href(target))))
    }

    private func href(_ target: MarkdownLinkTarget?) -> String? {
        guard let target else { return nil }
        return target.safe || keepsUnsafeDestinations ? target.href : nil
    }

    private func destination(_ link: MarkdownInlineParser.FoundLink, _ text: [UInt8],
                             _ definitions: [String: MarkdownLinkTarget]) -> String? {
        if link.kind == .reference { return href(link.label.flatMap { definitions[$0] }) }
        var decoded: [UInt8]
        switch link.kind {
        case .inline: decoded = link.target.map { MarkdownLinkDestination.decodeLinkDestination(text[$0]) } ?? []
        case .autolink: decoded = MarkdownLinkDestination.decodeAutolink(text[link.target ?? link.text])
        case .emailAutolink: decoded = Array("mailto:".utf8) + MarkdownLinkDestination.decodeAutolink(text[link.target ?? link.text])
        case .www: decoded = Array("http://".utf8) + text[link.text]
        case .email: decoded = Array("mailto:".utf8) + MarkdownLinkDestination.decode(text[link.text], backslashEscapes: true)
        case .url, .reference: decoded = Array(text[link.text])
        }
        return href(MarkdownLinkTarget(decoded: decoded))
    }

    /// Whether one of `links` (in order of their text's start) starts in `r`.
    static func anyLink(_ links: [MarkdownInlineParser.FoundLink], startingIn r: Range<Int>) -> Bool {
        var low = 0, high = links.count
        while low < high {
            let mid = (low + high) / 2
            if links[mid].text.lowerBound < r.lowerBound { low = mid + 1 } else { high = mid }
        }
        return low < links.count && links[low].text.lowerBound < r.upperBound
    }

    /// The absolute ranges of a text range: one per run of consecutive offsets.
    static func pieces(_ r: Range<Int>, _ map: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = r.lowerBound
        while i < r.upperBound {
            guard map[i] >= 0 else { i += 1; continue }
            let start = map[i]
            var j = i + 1
            while j < r.upperBound && map[j] == map[j - 1] + 1 { j += 1 }
            out.append(start..<(map[j - 1] + 1))
            i = j
        }
        return out
    }
}

/// The links of the open text as last reported, and the numbering: turns the parsers' decisions
/// into `MarkdownLink` reports of what changed.
struct MarkdownLinkRegistry {
    private struct Entry {
        let key: Int
        var id = 0
        var present = true
        var kind: MarkdownLink.Kind
        var ranges: [Range<Int>]
        var destination: String?
        var reportedRanges: [Range<Int>] = []
        var reportedDestination: String?
        var reportedKind: MarkdownLink.Kind = .inline
    }

    /// By `key`, the offset of the text's first byte.
    private var entries: [Entry] = []
    private var nextID = 1
    private var touchedLow = Int.max, touchedHigh = Int.min

    /// Links reported so far.
    private(set) var reportedCount = 0

    private func lowerIndex(_ key: Int) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].key < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private mutating func touch(_ r: Range<Int>) {
        touchedLow = min(touchedLow, r.lowerBound)
        touchedHigh = max(touchedHigh, r.upperBound)
    }

    private mutating func clear(_ r: Range<Int>) {
        guard !r.isEmpty else { return }
        touch(r)
        var k = lowerIndex(r.lowerBound)
        while k < entries.count && entries[k].key < r.upperBound {
            entries[k].present = false
            k += 1
        }
    }

    private mutating func put(_ link: MarkdownResolvedLink) {
        let key = link.ranges[0].lowerBound
        touch(key..<(key + 1))
        let k = lowerIndex(key)
        if k < entries.count && entries[k].key == key {
            entries[k].present = true
            entries[k].kind = link.kind
            entries[k].ranges = link.ranges
            entries[k].destination = link.destination
        } else {
            entries.insert(Entry(key: key, kind: link.kind, ranges: link.ranges, destination: link.destination), at: k)
        }
    }

    /// Applies the parsers' decisions and returns the reports of what changed, by offset.
    mutating func collect(_ log: inout MarkdownLinkLog) -> [MarkdownLink] {
        var reports: [MarkdownLink] = []
        for event in log.events {
            switch event {
            case .clear(let r):
                clear(r)
            case .replace(let span, let links):
                clear(span)
                for link in links { put(link) }
            case .late(let link):
                reports.append(MarkdownLink(id: nextID, kind: link.kind, ranges: link.ranges, destination: link.destination))
                nextID += 1
                reportedCount += 1
            }
        }
        log.events = []
        guard touchedLow <= touchedHigh else { return reports }
        var k = lowerIndex(touchedLow)
        while k < entries.count && entries[k].key < touchedHigh {
            let e = entries[k]
            if !e.present {
                if e.id != 0 {
                    reports.append(MarkdownLink(id: e.id, kind: e.reportedKind, ranges: [], destination: nil,
                                                replacing: Self.span(e.reportedRanges)))
                }
                entries.remove(at: k)
                continue
            }
            if e.id == 0 {
                entries[k].id = nextID
                nextID += 1
                reportedCount += 1
                reports.append(MarkdownLink(id: entries[k].id, kind: e.kind, ranges: e.ranges, destination: e.destination))
            } else if e.ranges != e.reportedRanges || e.destination != e.reportedDestination || e.kind != e.reportedKind {
                reports.append(MarkdownLink(id: e.id, kind: e.kind, ranges: e.ranges, destination: e.destination,
                                            replacing: Self.span(e.reportedRanges)))
            }
            entries[k].reportedRanges = e.ranges
            entries[k].reportedDestination = e.destination
            entries[k].reportedKind = e.kind
            k += 1
        }
        touchedLow = Int.max
        touchedHigh = Int.min
        return reports
    }

    /// Forgets the links that start before `offset`: no later text can change them.
    mutating func settle(before offset: Int) {
        let k = lowerIndex(offset)
        if k > 0 { entries.removeFirst(k) }
    }

    private static func span(_ ranges: [Range<Int>]) -> Range<Int>? {
        guard let first = ranges.first, let last = ranges.last else { return nil }
        return first.lowerBound..<last.upperBound
    }
}
