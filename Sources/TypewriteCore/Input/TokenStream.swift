/// The rules that decide how wide a grapheme cluster is and whether terminals agree on it: the one
/// place a `Tokenizer` is configured, so every stage that reads the text (the fade renderer, the
/// collapsed view, the timestamps) counts cells the same way (UAX #11; `docs/widths.md#uncertain-widths`).
struct CellRules: Sendable, Equatable {
    /// East Asian ambiguous-width characters take two cells (a CJK terminal).
    var ambiguousIsWide = false
    /// Clusters with ambiguous-width characters are of uncertain width (a CJK locale, where
    /// terminals disagree): written settled, and the column is unknown after them.
    var ambiguousIsUncertain = false

    /// A tokenizer at the start of a stream, following these rules.
    func makeTokenizer() -> Tokenizer {
        Tokenizer(ambiguousIsWide: ambiguousIsWide, ambiguousIsUncertain: ambiguousIsUncertain)
    }
}

/// Input bytes on their way to the terminal, tokenized once: the bytes (`ByteStore`), the tokens not
/// yet taken (`TokenQueue`), the tokenizer's state between reads, and where each read ended.
///
/// Offsets are absolute (the first byte ever appended is 0). A writer takes tokens from the front
/// and calls `discardTaken()` once their bytes are written.
struct TokenStream: Sendable {
    private(set) var store = ByteStore()
    private(set) var queue = TokenQueue()
    private var tokenizer: Tokenizer
    /// Where the tokens of each read end (increasing), for reads whose tokens are not all taken:
    /// tmux joins a ZWJ sequence only within one `write()`, so what follows a ZWJ is written in
    /// the same write exactly when it came in the same read, as `cat` writes it
    /// (`docs/terminals.md#joiners`).
    private var readEnds: [Int] = []
    private var readEndsHead = 0

    init(rules: CellRules) {
        tokenizer = rules.makeTokenizer()
        tokenizer.packsRuns = true
    }

    /// Appends one read's bytes and tokenizes them.
    /// - Returns: the grapheme clusters added (the pacing count).
    mutating func append(_ bytes: some Collection<UInt8>) -> Int {
        store.append(contentsOf: bytes)
        let clusters = tokenizer.scan(store, into: &queue)
        noteReadEnd()
        return clusters
    }

    /// End of input: anything held back (an incomplete sequence) becomes tokens.
    /// - Returns: the grapheme clusters added.
    mutating func finish() -> Int {
        let clusters = tokenizer.finish(store, into: &queue)
        noteReadEnd()
        return clusters
    }

    private mutating func noteReadEnd() {
        if queue.endOffset > (readEnds.last ?? -1) { readEnds.append(queue.endOffset) }
    }

    // MARK: Taking tokens

    /// The oldest token; the first cluster of a run of clusters is split off as a `.cluster`.
    var first: Token? {
        guard let run = queue.firstRun else { return queue.first }
        return firstCluster(of: run)
    }
    var isEmpty: Bool { queue.isEmpty }
    /// Tokens held (a text run and the control packed with it count as two, a run of clusters one
    /// per cluster).
    var count: Int { queue.count }

    @discardableResult
    mutating func removeFirst() -> Token {
        guard let run = queue.firstRun else { return queue.removeFirst() }
        let token = firstCluster(of: run)
        if case .cluster(_, let n, _, _) = token { queue.removeFromRun(length: n) }
        return token
    }

    /// The first grapheme cluster of a run entry, measured (UAX #29 on the bytes, `GraphemeBreak`).
    private func firstCluster(of run: (start: Int, length: Int, clusters: Int)) -> Token {
        let wide = tokenizer.ambiguousIsWide, uncertain = tokenizer.ambiguousIsUncertain
        let (length, width) = store.withUnsafeBytes { base, shift in
            let (end, width) = GraphemeBreak.cluster(in: base, from: run.start + shift, to: run.start + run.length + shift,
                                                     ambiguousIsWide: wide, ambiguousIsUncertain: uncertain)
            return (end - run.start - shift, width)
        }
        return .cluster(start: run.start, length: length, width: width.cells, isCertain: width.isCertain)
    }

    mutating func replaceFirst(with token: Token) { queue.replaceFirst(with: token) }

    /// Takes whole settled lines of text from the front (`TokenQueue.removeLines`, with
    /// `bareLineFeedEnds` when a LF alone returns the carriage too): printable
    /// ASCII, and with `clusters` grapheme clusters of certain width too, but none that ends in
    /// ZWJ (its read boundary stays a write boundary: `docs/terminals.md#joiners`).
    mutating func removeLines(clusterLimit: Int, byteLimit: Int, bareLineFeedEnds: Bool = true,
                              clusters: Bool) -> (bytes: Range<Int>, clusters: Int)? {
        guard clusters else {
            return queue.removeLines(clusterLimit: clusterLimit, byteLimit: byteLimit, bareLineFeedEnds: bareLineFeedEnds)
        }
        let store = self.store
        return queue.removeLines(clusterLimit: clusterLimit, byteLimit: byteLimit, bareLineFeedEnds: bareLineFeedEnds) {
            !Self.endsInJoiner(store, $0, $1)
        }
    }

    subscript(offset: Int) -> UInt8 { store[offset] }
    subscript(range: Range<Int>) -> ArraySlice<UInt8> { store[range] }

    /// Offset of the first byte not yet taken (tokens waiting, or bytes the tokenizer holds).
    var takenEnd: Int {
        guard let first = queue.first else { return min(queue.endOffset, tokenizer.heldFrom) }
        return first.start
    }

    /// One past the last byte tokenized.
    var tokenizedEnd: Int { queue.endOffset }

    /// Input bytes received and not yet taken.
    var pendingBytes: Int { store.end - takenEnd }

    /// Memory the waiting tokens take, in bytes.
    var storedTokenBytes: Int { queue.storedBytes }

    /// Forgets the bytes of the tokens taken.
    mutating func discardTaken() {
        let end = takenEnd
        store.discard(upTo: end)
        while readEndsHead < readEnds.count && readEnds[readEndsHead] <= end { readEndsHead += 1 }
        if readEndsHead >= 1024 && readEndsHead * 2 >= readEnds.count {
            readEnds.removeFirst(readEndsHead)
            readEndsHead = 0
        }
    }

    /// The end of the read whose tokens include the byte before `offset` (`.max` when unknown).
    func readEnd(atOrAfter offset: Int) -> Int {
        var i = readEndsHead
        while i < readEnds.count && readEnds[i] < offset { i += 1 }
        return i < readEnds.count ? readEnds[i] : .max
    }

    /// Whether the bytes at `start..<start + length` end in ZWJ (U+200D, UTF-8 E2 80 8D).
    func endsInJoiner(_ start: Int, _ length: Int) -> Bool { Self.endsInJoiner(store, start, length) }

    private static func endsInJoiner(_ store: ByteStore, _ start: Int, _ length: Int) -> Bool {
        length >= 3 && store[start + length - 1] == 0x8D && store[start + length - 2] == 0x80 && store[start + length - 3] == 0xE2
    }

    /// Visits the waiting tokens from the newest until `body` returns false (a run of clusters
    /// cluster by cluster).
    func forEachFromNewest(_ body: (Token) -> Bool) {
        var clusters: [Token] = []
        queue.forEachFromNewest(run: { start, length, _ in
            clusters.removeAll(keepingCapacity: true)
            forEachCluster(start, length) { clusters.append($0); return true }
            for token in clusters.reversed() { guard body(token) else { return false } }
            return true
        }, body)
    }

    /// Visits the waiting tokens from the oldest until `body` returns false (a run of clusters
    /// cluster by cluster).
    func forEachFromOldest(_ body: (Token) -> Bool) {
        queue.forEachFromOldest(run: { start, length, _ in forEachCluster(start, length, body) }, body)
    }

    /// Visits the clusters of the run at `start..<start + length` in order until `body` returns false;
    /// returns false when it did.
    @discardableResult
    private func forEachCluster(_ start: Int, _ length: Int, _ body: (Token) -> Bool) -> Bool {
        var s = start
        while s < start + length {
            let token = firstCluster(of: (s, start + length - s, 1))
            guard body(token), case .cluster(_, let n, _, _) = token else { return false }
            s += n
        }
        return true
    }
}
