/// What a run of input bytes is to a terminal. Tokens name byte ranges by absolute offset in the
/// input (byte 0 is the first byte read), so the bytes themselves are stored once, in a `ByteStore`.
package enum Token: Equatable, Sendable {
    /// `count` printable ASCII bytes (0x20–0x7E), each its own grapheme cluster one cell wide.
    case text(start: Int, count: Int)
    /// One grapheme cluster (UAX #29) of valid UTF-8, `length` bytes, `width` cells (UAX #11 sum of
    /// scalar widths); `isCertain` is false when terminals disagree on its width.
    case cluster(start: Int, length: Int, width: Int, isCertain: Bool)
    /// Scalars that join the cluster just before them (a combining mark or joiner that arrived in a
    /// later read); `width` and `isCertain` describe the whole cluster as it now stands.
    case extend(start: Int, length: Int, width: Int, isCertain: Bool)
    /// A C0 control (0x00–0x1F except ESC) or DEL, one byte.
    case control(start: Int, byte: UInt8)
    /// An escape sequence (ECMA-48: ESC, CSI, OSC, DCS, SOS, PM, APC, SS2/SS3), whole.
    case sequence(start: Int, length: Int, kind: SequenceKind)
    /// Bytes that are neither text nor a sequence: invalid UTF-8, raw 0x80–0x9F, C1 controls written
    /// in UTF-8, an incomplete sequence at end of input.
    case raw(start: Int, length: Int)

    /// Absolute offset of the token's first byte.
    package var start: Int {
        switch self {
        case .text(let s, _), .cluster(let s, _, _, _), .extend(let s, _, _, _), .sequence(let s, _, _), .raw(let s, _),
             .control(let s, _):
            return s
        }
    }

    /// Grapheme clusters this token adds to the pacing count.
    package var clusterCount: Int {
        switch self {
        case .text(_, let count): return count
        case .cluster: return 1
        default: return 0
        }
    }
}

/// The kind of an escape sequence, as far as the writer needs to know.
package enum SequenceKind: Equatable, Sendable {
    /// `CSI P… I… F`: `final` byte, `privateMarker` (one of `<=>?`, 0 when none), whether it had
    /// intermediate bytes, and whether C0 controls were embedded in it (a terminal executes those).
    case csi(final: UInt8, privateMarker: UInt8, hasIntermediates: Bool, hasControls: Bool)
    /// `ESC I… F` with its last intermediate byte (0 when none).
    case escape(final: UInt8, intermediate: UInt8)
    /// `OSC … BEL|ST`.
    case operatingSystemCommand
    /// DCS, SOS, PM or APC up to ST.
    case controlString
    /// SS2 or SS3 with the character it shifts.
    case singleShift
    /// A sequence cut short by CAN, SUB or ESC, or one longer than the holding cap passed through
    /// in pieces: its effect on the cursor is unknown.
    case broken

    /// Whether this is SGR (`CSI … m` without private marker or intermediates).
    package var isSelectGraphicRendition: Bool {
        if case .csi(0x6D, 0, false, false) = self { return true }
        return false
    }
}

/// Input bytes kept until they have been written: append at the end, discard from the front.
/// Offsets are absolute: the first byte ever appended has offset 0.
package struct ByteStore: Sendable {
    private var storage: [UInt8] = []
    private var head = 0  // index in storage of `start`
    /// Absolute offset of the first byte still held.
    package private(set) var start = 0

    package init() {}

    /// Absolute offset one past the last byte appended.
    package var end: Int { start + storage.count - head }
    /// Bytes held (appended and not discarded).
    package var count: Int { storage.count - head }

    package mutating func append(contentsOf bytes: some Collection<UInt8>) {
        // Reclaim the discarded front rather than grow the buffer (a grown copy briefly holds
        // both, which set the peak RSS of a long animated line).
        if head > 0 && storage.count + bytes.count > storage.capacity { compact() }
        storage.append(contentsOf: bytes)
    }

    /// The byte at absolute offset `offset`, which must be held.
    @inline(__always)
    package subscript(offset: Int) -> UInt8 { storage[offset - start + head] }

    /// The bytes at absolute offsets `range`, which must be held.
    package subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        storage[(range.lowerBound - start + head)..<(range.upperBound - start + head)]
    }

    /// Absolute offset of the first byte in `offset..<end` that is not printable ASCII (0x20–0x7E),
    /// or `end` when all are; the bytes must be held. Eight bytes are tested at a time.
    @inline(__always)
    package func endOfPrintableASCII(from offset: Int, to end: Int) -> Int {
        guard offset < end else { return end }
        let shift = head - start
        return storage.withUnsafeBytes { raw -> Int in
            let base = raw.baseAddress!
            var i = offset + shift
            let last = end + shift
            while i + 8 <= last {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                // A byte's high bit is set here when it is below 0x20 (the borrow of the subtraction)
                // or above 0x7E (the carry of the addition, or its own high bit). Borrows and carries
                // only run toward later bytes, so the lowest bit set is the first such byte.
                let below = (word &- 0x2020_2020_2020_2020) & ~word
                let above = (word &+ 0x0101_0101_0101_0101) | word
                let found = (below | above) & 0x8080_8080_8080_8080
                if found != 0 { return i + (found.trailingZeroBitCount >> 3) - shift }
                i += 8
            }
            while i < last, case let b = base.load(fromByteOffset: i, as: UInt8.self), b >= 0x20 && b < 0x7F { i += 1 }
            return i - shift
        }
    }

    /// Absolute offset of the first byte in `offset..<end` that does not begin a whole, valid
    /// UTF-8 scalar of printable text (printable ASCII, or U+00A0 and above: not a C0 or C1
    /// control, not cut short by `end`), or `end`; the bytes must be held.
    package func endOfValidText(from offset: Int, to end: Int) -> Int {
        let shift = head - start
        return storage.withUnsafeBytes { raw -> Int in
            let base = raw.baseAddress!
            var i = offset + shift
            let last = end + shift
            func at(_ k: Int) -> UInt32 { UInt32(base.load(fromByteOffset: k, as: UInt8.self)) }
            while i < last {
                let b0 = at(i)
                if b0 < 0x80 {
                    guard b0 >= 0x20 && b0 < 0x7F else { break }
                    i += 1
                    continue
                }
                let n: Int, low: UInt32, high: UInt32
                switch b0 {
                case 0xC2: (n, low, high) = (2, 0xA0, 0xBF)  // U+0080–U+009F are C1 controls
                case 0xC3...0xDF: (n, low, high) = (2, 0x80, 0xBF)
                case 0xE0: (n, low, high) = (3, 0xA0, 0xBF)
                case 0xED: (n, low, high) = (3, 0x80, 0x9F)
                case 0xE1...0xEF: (n, low, high) = (3, 0x80, 0xBF)
                case 0xF0: (n, low, high) = (4, 0x90, 0xBF)
                case 0xF4: (n, low, high) = (4, 0x80, 0x8F)
                case 0xF1...0xF3: (n, low, high) = (4, 0x80, 0xBF)
                default: return i - shift
                }
                guard i + n <= last, case let b1 = at(i + 1), b1 >= low && b1 <= high else { break }
                if n >= 3 { guard at(i + 2) & 0xC0 == 0x80 else { break } }
                if n == 4 { guard at(i + 3) & 0xC0 == 0x80 else { break } }
                i += n
            }
            return i - shift
        }
    }

    /// Calls `body` with the held bytes: the byte at absolute offset `o` (held) is at `base + o + shift`.
    @inline(__always)
    package func withUnsafeBytes<R>(_ body: (_ base: UnsafeRawPointer, _ shift: Int) -> R) -> R {
        let shift = head - start
        return storage.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, shift) }
    }

    /// Forgets bytes before absolute offset `offset`; memory is reclaimed in large steps.
    package mutating func discard(upTo offset: Int) {
        guard offset > start else { return }
        head += offset - start
        start = offset
        if head >= 1 << 16 && head * 2 >= storage.count { compact() }
    }

    /// Moves the held bytes to the front of the buffer; absolute offsets do not change.
    private mutating func compact() {
        storage.removeFirst(head)
        head = 0
    }
}

/// Tokens waiting to be shown, oldest first.
///
/// Each is held packed in 16 bytes (its start offset and one word of fields), and a text run keeps
/// the C0 control that ends it (a line's LF, a progress line's CR) in the same 16 bytes, so a flood
/// of short lines costs about as much memory per byte as the lines themselves, not several times
/// that. Reading out gives the tokens one by one, as appended.
package struct TokenQueue: Sendable {
    /// A packed token. `word` bits 0–2 name the case; the rest by case:
    /// text: bit 3 set when the control byte in bits 8–15 follows the run, count in bits 16–63;
    /// cluster, extend: bit 3 `isCertain`, width in bits 8–23, length in bits 24–63;
    /// control: the byte in bits 8–15;
    /// sequence: kind in bits 3–5, intermediates bit 6, controls bit 7, final byte (or the
    /// escape's final) in bits 8–15, private marker (or intermediate) in bits 16–23, length in bits 24–63;
    /// raw: length in bits 24–63;
    /// run (kind 6): grapheme clusters in bits 8–23, length in bits 24–63 (`appendToRun`).
    struct Entry: Sendable {
        var start: Int
        var word: UInt64
    }

    private var entries: [Entry] = []
    private var head = 0
    /// Absolute offset one past the last byte covered by an appended token.
    package private(set) var endOffset = 0
    /// Tokens held (a text run and the control packed with it count as two).
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { head == entries.count }
    /// The oldest token; not for a run (`firstRun`), which only a `TokenStream` splits.
    package var first: Token? { isEmpty ? nil : Self.leading(entries[head]) }

    /// Kind of a run entry: whole grapheme clusters, none ending in ZWJ, packed as one entry
    /// and split again by the `TokenStream` that reads them (by `GraphemeBreak`, which is restartable
    /// at any cluster boundary).
    static let runKind: UInt64 = 6
    /// Most bytes one run entry covers (bounds the work of splitting a run from its end).
    static let runByteLimit = 4096

    /// The oldest entry when it is a run: its bytes' absolute offsets and its clusters.
    var firstRun: (start: Int, length: Int, clusters: Int)? {
        guard !isEmpty, case let entry = entries[head], entry.word & 0b111 == Self.runKind else { return nil }
        return (entry.start, Int(entry.word >> 24), Int((entry.word >> 8) & 0xFFFF))
    }

    /// Appends one grapheme cluster of `length` bytes at `start` to the run entry it follows, or
    /// starts a run. The cluster must not end in ZWJ.
    /// `clusters` (at most `runByteLimit`) clusters of `length` bytes in all, none ending in ZWJ.
    @inline(__always)
    mutating func appendToRun(start: Int, length: Int, clusters: Int = 1) {
        let added = UInt64(clusters)
        if !isEmpty, let last = entries.last, last.word & 0b111 == Self.runKind, case let n = Int(last.word >> 24),
           last.start + n == start, n + length <= Self.runByteLimit, (last.word >> 8) & 0xFFFF + added <= 0xFFFF {
            entries[entries.count - 1].word = Self.runKind | ((last.word >> 8) & 0xFFFF + added) << 8 | UInt64(n + length) << 24
        } else {
            entries.append(Entry(start: start, word: Self.runKind | added << 8 | UInt64(length) << 24))
        }
        count += clusters
        endOffset = start + length
    }

    /// Removes the first cluster, `length` bytes, of the oldest entry, a run.
    mutating func removeFromRun(length: Int) {
        let entry = entries[head]
        let clusters = (entry.word >> 8) & 0xFFFF, n = Int(entry.word >> 24)
        count -= 1
        if clusters <= 1 || n <= length {
            head += 1
            reclaimFront()
        } else {
            entries[head] = Entry(start: entry.start + length,
                                  word: Self.runKind | (clusters - 1) << 8 | UInt64(n - length) << 24)
        }
    }

    /// Memory the held tokens take, in bytes (16 per entry, not counting the array's slack).
    package var storedBytes: Int { (entries.count - head) * MemoryLayout<Entry>.stride }

    /// Memory one more entry takes, in bytes.
    package static var bytesPerEntry: Int { MemoryLayout<Entry>.stride }

    mutating func append(_ token: Token) {
        switch token {
        case .text(let s, let n):
            // The common cases first, without the general packing (a flood appends millions).
            entries.append(Entry(start: s, word: UInt64(n) << 16))
            count += 1
            endOffset = s + n
            return
        case .control(let start, let byte):
            if !isEmpty, let last = entries.last, last.word & 0b1111 == 0, last.start + Int(last.word >> 16) == start {
                // The control ending a text run shares its entry.
                entries[entries.count - 1].word |= 0b1000 | UInt64(byte) << 8
                count += 1
                endOffset = start + 1
                return
            }
        default:
            break
        }
        // Scalars joining a cluster that has not been shown yet simply become part of it, unless the
        // cluster's width is uncertain: then it is written settled anyway, and the read boundary is
        // kept as a write boundary (see `Tokenizer.segment`).
        if case .extend(let start, let length, _, true) = token, !isEmpty, let last = entries.last, last.word & 0b111 == Self.runKind,
           last.start + Int(last.word >> 24) == start {
            // Joins the run's last cluster: the run is split by segmenting its bytes again.
            entries[entries.count - 1].word = last.word & 0xFF_FFFF | UInt64(Int(last.word >> 24) + length) << 24
            endOffset = start + length
            return
        }
        if case .extend(let start, let length, let width, let certain) = token, certain, !isEmpty, let last = lastToken {
            switch last {
            case .cluster(let s, let n, _, _) where s + n == start:
                entries[entries.count - 1] = Self.pack(.cluster(start: s, length: n + length, width: width, isCertain: certain))
                endOffset = start + length
                return
            case .text(let s, let n) where s + n == start:
                if n > 1 {
                    entries[entries.count - 1] = Self.pack(.text(start: s, count: n - 1))
                } else {
                    entries.removeLast()
                    count -= 1
                }
                append(.cluster(start: start - 1, length: length + 1, width: width, isCertain: certain))
                return
            default:
                break
            }
        }
        entries.append(Self.pack(token))
        count += 1
        switch token {
        case .text(let s, let n): endOffset = s + n
        case .cluster(let s, let n, _, _), .extend(let s, let n, _, _), .sequence(let s, let n, _), .raw(let s, let n):
            endOffset = s + n
        case .control(let s, _): endOffset = s + 1
        }
    }

    /// Appends `.text(start:count:)` (`count` ≥ 1) and then `.control(start: start + count, byte:)`,
    /// packed in one entry: the end of a line or a progress line in a flood, without the general
    /// packing.
    @inline(__always)
    mutating func appendText(start: Int, count n: Int, endedBy control: UInt8) {
        entries.append(Entry(start: start, word: UInt64(n) << 16 | 0b1000 | UInt64(control) << 8))
        count += 2
        endOffset = start + n + 1
    }

    /// Appends `.text(start:count:)` (`count` ≥ 1).
    mutating func appendText(start: Int, count n: Int) {
        entries.append(Entry(start: start, word: UInt64(n) << 16))
        count += 1
        endOffset = start + n
    }

    /// Makes the next `length` bytes part of the newest token, a `.cluster` or `.extend` whose bytes
    /// end in ZWJ, of uncertain width `width` in all.
    mutating func joinLast(length: Int, width: Int) {
        switch lastToken {
        case .cluster(let s, let n, _, _)?:
            entries[entries.count - 1] = Self.pack(.cluster(start: s, length: n + length, width: width, isCertain: false))
        case .extend(let s, let n, _, _)?:
            entries[entries.count - 1] = Self.pack(.extend(start: s, length: n + length, width: width, isCertain: false))
        default:
            preconditionFailure("joinLast after a token that cannot end in ZWJ")
        }
        endOffset += length
    }

    /// Appends raw bytes, merging with a raw token just before them.
    mutating func appendRaw(start: Int, length: Int) {
        if !isEmpty, case .raw(let s, let n)? = lastToken, s + n == start {
            entries[entries.count - 1] = Self.pack(.raw(start: s, length: n + length))
            endOffset = start + length
        } else {
            append(.raw(start: start, length: length))
        }
    }

    /// Removes and returns the oldest token.
    package mutating func removeFirst() -> Token {
        let entry = entries[head]
        let token = Self.leading(entry)
        count -= 1
        if case .text(let s, let n) = token, entry.word & 0b1000 != 0 {
            // The control packed after the run is next.
            entries[head] = Self.pack(.control(start: s + n, byte: UInt8(truncatingIfNeeded: entry.word >> 8)))
            return token
        }
        head += 1
        reclaimFront()
        return token
    }

    /// Removes the oldest tokens while they are whole lines of text, each ended by CR LF (or by LF
    /// alone with `bareLineFeedEnds`: the tty's ONLCR makes it CR LF), contiguous, of at most
    /// `clusterLimit` clusters and `byteLimit` bytes in all: runs of printable ASCII, and grapheme
    /// clusters of certain width that `acceptsCluster(start, length)` takes (the carriage return
    /// and line feed make the column certain again whatever they did to it); nil for
    /// `acceptsCluster` takes none. A CR not followed at once by LF (a progress line) ends the
    /// lines taken. Returns their bytes' absolute offsets and the clusters they hold; nil when the
    /// oldest tokens are not such a line.
    mutating func removeLines(clusterLimit: Int, byteLimit: Int, bareLineFeedEnds: Bool = true,
                              acceptsCluster: ((Int, Int) -> Bool)? = nil) -> (bytes: Range<Int>, clusters: Int)? {
        let allowClusters = acceptsCluster != nil
        guard !isEmpty else { return nil }
        let first = entries[head].start
        // Where the last whole line taken so far ends: entry index, byte offset, clusters, tokens.
        let line = entries.withUnsafeBufferPointer { entries -> (i: Int, end: Int, clusters: Int, tokens: Int) in
            var end = first, clusters = 0, tokens = 0, i = head
            var line = (i: head, end: first, clusters: 0, tokens: 0)
            let byteEnd = first + byteLimit
            var carriageReturned = false  // the entry before ends in CR: only a LF may follow
            while i < entries.count {
                let entry = entries[i]
                let n: Int, bytes: Int, ends: Bool
                let lineFeed = entry.word & 0b111 == 3 && entry.word & 0xFF00 == 0x0A00
                if carriageReturned != lineFeed && !(lineFeed && bareLineFeedEnds) { return line }
                carriageReturned = false
                switch entry.word & 0b111 {
                case 0 where entry.word & 0b1000 == 0:
                    guard allowClusters else { return line }
                    n = Int(entry.word >> 16); bytes = n; ends = false
                    tokens += 1
                case 0 where entry.word & 0xFF00 == 0x0A00 && bareLineFeedEnds:
                    n = Int(entry.word >> 16); bytes = n + 1; ends = true
                    tokens += 2
                case 0 where entry.word & 0xFF00 == 0x0D00:
                    n = Int(entry.word >> 16); bytes = n + 1; ends = false
                    tokens += 2
                    carriageReturned = true
                case 3 where entry.word & 0xFF00 == 0x0A00:
                    n = 0; bytes = 1; ends = true
                    tokens += 1
                case 3 where entry.word & 0xFF00 == 0x0D00:
                    n = 0; bytes = 1; ends = false
                    tokens += 1
                    carriageReturned = true
                case 1:
                    // A cluster, of certain width or not (the line feed makes the column certain
                    // again); not one that joined scalars from a later read (`extend`), which the
                    // token loop writes (in a write of its own after a ZWJ).
                    bytes = Int(entry.word >> 24)
                    guard let accepts = acceptsCluster, accepts(entry.start, bytes) else { return line }
                    n = 1; ends = false
                    tokens += 1
                case Self.runKind:
                    // Clusters none of which ends in ZWJ.
                    guard allowClusters else { return line }
                    bytes = Int(entry.word >> 24); n = Int((entry.word >> 8) & 0xFFFF); ends = false
                    tokens += n
                default:
                    return line
                }
                guard entry.start == end, clusters &+ n <= clusterLimit, end &+ bytes <= byteEnd else { return line }
                clusters &+= n
                end &+= bytes
                i &+= 1
                if ends { line = (i, end, clusters, tokens) }
            }
            return line
        }
        guard line.i > head else { return nil }
        count -= line.tokens
        head = line.i
        reclaimFront()
        return (first..<line.end, line.clusters)
    }

    /// Frees the entries before `head` once there are many of them.
    private mutating func reclaimFront() {
        if head == entries.count {
            entries.removeAll(keepingCapacity: entries.capacity <= 4096)
            head = 0
        } else if head >= 4096 && head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Replaces the oldest token (used to consume part of a text run): a `.text` for a `.text`.
    mutating func replaceFirst(with token: Token) {
        let kept = entries[head].word & 0xFF08  // a control packed after the run stays
        entries[head] = Self.pack(token)
        if case .text = token { entries[head].word |= kept }
    }

    /// Calls `body` with the held tokens from the newest to the oldest until it returns false; a run
    /// entry goes to `run` (its start, length and clusters) instead.
    package func forEachFromNewest(run: (Int, Int, Int) -> Bool = { _, _, _ in preconditionFailure("a run outside a TokenStream") },
                                   _ body: (Token) -> Bool) {
        var i = entries.count - 1
        while i >= head {
            let entry = entries[i]
            if entry.word & 0b111 == Self.runKind {
                guard run(entry.start, Int(entry.word >> 24), Int((entry.word >> 8) & 0xFFFF)) else { return }
                i -= 1
                continue
            }
            let token = Self.leading(entry)
            if entry.word & 0b1111 == 0b1000, case .text(let s, let n) = token {
                guard body(.control(start: s + n, byte: UInt8(truncatingIfNeeded: entry.word >> 8))) else { return }
            }
            guard body(token) else { return }
            i -= 1
        }
    }

    /// Calls `body` with the held tokens from the oldest to the newest until it returns false; a run
    /// entry goes to `run` (its start, length and clusters) instead.
    package func forEachFromOldest(run: (Int, Int, Int) -> Bool = { _, _, _ in preconditionFailure("a run outside a TokenStream") },
                                   _ body: (Token) -> Bool) {
        for i in head..<entries.count {
            let entry = entries[i]
            if entry.word & 0b111 == Self.runKind {
                guard run(entry.start, Int(entry.word >> 24), Int((entry.word >> 8) & 0xFFFF)) else { return }
                continue
            }
            let token = Self.leading(entry)
            guard body(token) else { return }
            if entry.word & 0b1111 == 0b1000, case .text(let s, let n) = token {
                guard body(.control(start: s + n, byte: UInt8(truncatingIfNeeded: entry.word >> 8))) else { return }
            }
        }
    }

    /// The newest token held (nil for a run).
    private var lastToken: Token? {
        guard let entry = entries.last, !isEmpty, entry.word & 0b111 != Self.runKind else { return nil }
        let token = Self.leading(entry)
        if entry.word & 0b1111 == 0b1000, case .text(let s, let n) = token {
            return .control(start: s + n, byte: UInt8(truncatingIfNeeded: entry.word >> 8))
        }
        return token
    }

    private static func pack(_ token: Token) -> Entry {
        func sized(_ kind: UInt64, _ length: Int) -> UInt64 { kind | UInt64(length) << 24 }
        switch token {
        case .text(let s, let n):
            return Entry(start: s, word: 0 | UInt64(n) << 16)
        case .cluster(let s, let n, let width, let certain), .extend(let s, let n, let width, let certain):
            // A width past 16 bits cannot be certain (no terminal draws such a cluster predictably).
            let fits = width >= 0 && width <= 0xFFFF
            let kind: UInt64 = if case .cluster = token { 1 } else { 2 }
            return Entry(start: s, word: sized(kind, n) | (certain && fits ? 0b1000 : 0)
                | UInt64(min(max(width, 0), 0xFFFF)) << 8)
        case .control(let s, let byte):
            return Entry(start: s, word: 3 | UInt64(byte) << 8)
        case .sequence(let s, let n, let kind):
            var word = sized(4, n)
            switch kind {
            case .csi(let final, let marker, let intermediates, let controls):
                word |= UInt64(final) << 8 | UInt64(marker) << 16 | (intermediates ? 1 << 6 : 0) | (controls ? 1 << 7 : 0)
            case .escape(let final, let intermediate):
                word |= 1 << 3 | UInt64(final) << 8 | UInt64(intermediate) << 16
            case .operatingSystemCommand: word |= 2 << 3
            case .controlString: word |= 3 << 3
            case .singleShift: word |= 4 << 3
            case .broken: word |= 5 << 3
            }
            return Entry(start: s, word: word)
        case .raw(let s, let n):
            return Entry(start: s, word: sized(5, n))
        }
    }

    /// The first token an entry stands for (for a text run with a control, the run).
    private static func leading(_ entry: Entry) -> Token {
        let w = entry.word, s = entry.start
        let byte8 = UInt8(truncatingIfNeeded: w >> 8), byte16 = UInt8(truncatingIfNeeded: w >> 16)
        let length = Int(w >> 24)
        switch w & 0b111 {
        case 0: return .text(start: s, count: Int(w >> 16))
        case 1: return .cluster(start: s, length: length, width: Int((w >> 8) & 0xFFFF), isCertain: w & 0b1000 != 0)
        case 2: return .extend(start: s, length: length, width: Int((w >> 8) & 0xFFFF), isCertain: w & 0b1000 != 0)
        case 3: return .control(start: s, byte: byte8)
        case 4:
            let kind: SequenceKind
            switch (w >> 3) & 0b111 {
            case 0: kind = .csi(final: byte8, privateMarker: byte16, hasIntermediates: w & 1 << 6 != 0, hasControls: w & 1 << 7 != 0)
            case 1: kind = .escape(final: byte8, intermediate: byte16)
            case 2: kind = .operatingSystemCommand
            case 3: kind = .controlString
            case 4: kind = .singleShift
            default: kind = .broken
            }
            return .sequence(start: s, length: length, kind: kind)
        default: return .raw(start: s, length: length)
        }
    }
}
