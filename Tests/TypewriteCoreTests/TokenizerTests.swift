import Testing
@testable import TypewriteCore

@Suite("Tokenizer")
struct TokenizerTests {
    /// Feeds `chunks` one after another to `tokenizer`, then ends the input: the bytes, the
    /// tokens queued and the cluster count it reported.
    static func scan(_ chunks: [[UInt8]], with tokenizer: Tokenizer) -> (ByteStore, TokenQueue, Int) {
        var store = ByteStore(), tokenizer = tokenizer, queue = TokenQueue(), clusters = 0
        for chunk in chunks {
            store.append(contentsOf: chunk)
            clusters += tokenizer.scan(store, into: &queue)
        }
        clusters += tokenizer.finish(store, into: &queue)
        return (store, queue, clusters)
    }

    /// Tokenizes `chunks` fed one after another, then ends the input.
    static func tokenize(_ chunks: [[UInt8]]) -> (tokens: [Token], store: ByteStore, clusters: Int) {
        var (store, queue, clusters) = scan(chunks, with: Tokenizer())
        var tokens: [Token] = []
        while !queue.isEmpty { tokens.append(queue.removeFirst()) }
        return (tokens, store, clusters)
    }

    /// The tokens' byte ranges tile the input exactly: nothing lost, reordered or duplicated.
    static func coveredBytes(_ tokens: [Token], _ store: ByteStore) -> [UInt8] {
        tokens.flatMap { token -> [UInt8] in
            switch token {
            case .text(let s, let n): return Array(store[s..<(s + n)])
            case .cluster(let s, let n, _, _), .extend(let s, let n, _, _), .sequence(let s, let n, _), .raw(let s, let n):
                return Array(store[s..<(s + n)])
            case .control(_, let b): return [b]
            }
        }
    }

    static func split(_ bytes: [UInt8], at cuts: [Int]) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var last = 0
        for c in cuts.sorted() where c > last && c < bytes.count { chunks.append(Array(bytes[last..<c])); last = c }
        chunks.append(Array(bytes[last...]))
        return chunks
    }

    static let samples: [String] = [
        "plain ascii text\n",
        "caf\u{E9} na\u{EF}ve e\u{301} \u{4E2D}\u{6587} \u{1F44D}\u{1F3FD} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "\u{1B}[1;31merror\u{1B}[0m: \u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\ done\r\n",
        "\u{1B}[38:2::10:20:30mrgb\u{1B}[m\ttab\u{8}bs\u{7}",
        "\u{1F1FA}\u{1F1F8} 1\u{FE0F}\u{20E3} \u{1100}\u{1161}\u{11A8} \u{915}\u{94D}\u{937}\u{93F}",
        // Lines of printable ASCII (the fast path) ended by every kind of byte that may follow them.
        "ab\ncd\r\nlonger than eight bytes\tx\u{7F}y\u{1B}[1mz\u{80}w\ne\u{301}\nq\u{8}\n\nend",
    ]

    @Test("splitting at every byte position changes no byte and no cluster count", arguments: samples)
    func splitAnywhere(sample: String) {
        let bytes = Array(sample.utf8)
        let whole = Self.tokenize([bytes])
        #expect(Self.coveredBytes(whole.tokens, whole.store) == bytes)
        for cut in 1..<bytes.count {
            let split = Self.tokenize(Self.split(bytes, at: [cut]))
            #expect(Self.coveredBytes(split.tokens, split.store) == bytes, "cut at \(cut)")
            #expect(split.clusters <= whole.clusters, "cut at \(cut)")
        }
        let byByte = Self.tokenize(bytes.map { [$0] })
        #expect(Self.coveredBytes(byByte.tokens, byByte.store) == bytes)
    }

    /// Tokens of `chunks` by a tokenizer that packs runs (as a `TokenStream`'s does), runs split
    /// into their clusters by `GraphemeBreak.cluster`, and the cluster count it reported.
    static func packedTokens(_ chunks: [[UInt8]], simpleClusterRuns: Bool) -> (tokens: [Token], clusters: Int) {
        var tokenizer = Tokenizer()
        tokenizer.packsRuns = true
        tokenizer.simpleClusterRuns = simpleClusterRuns
        let (store, queue, clusters) = scan(chunks, with: tokenizer)
        var tokens: [Token] = []
        queue.forEachFromOldest(run: { start, length, count in
            var s = start, n = 0
            while s < start + length {
                let (end, width) = store.withUnsafeBytes { base, shift in
                    GraphemeBreak.cluster(in: base, from: s + shift, to: start + length + shift, ambiguousIsWide: false,
                                          ambiguousIsUncertain: false)
                }
                tokens.append(.cluster(start: s, length: end - shift(store) - s, width: width.cells, isCertain: width.isCertain))
                s = end - shift(store)
                n += 1
            }
            if n != count { tokens.append(.raw(start: -1, length: n - count)) }  // a miscount shows as a token
            return true
        }) { tokens.append($0); return true }
        return (tokens, clusters)
    }

    private static func shift(_ store: ByteStore) -> Int { store.withUnsafeBytes { _, shift in shift } }

    @Test("runs of clusters of the common shape packed in one step give the tokens and counts of one cluster at a time",
          arguments: [UInt64(1), 2, 3])
    func simpleClusterRunsAgree(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let samples = GraphemeBreakTests.samples
        // Common letters and marks more often than the rest, so runs of the common shape form.
        let common: [Unicode.Scalar] = ["a", " ", "\u{E9}", "\u{301}", "\u{4E2D}", "\u{915}", "\u{93F}", "\u{94D}", "\u{E01}",
                                        "\u{E31}", "\u{628}", "\u{64E}", "\u{1F44B}", "\u{1F3FD}", "\u{FE0F}", "\u{200D}", "\u{AC00}",
                                        "\u{AC01}", "\u{1100}", "\u{1161}", "\u{11A8}"]
        var differing: [String] = []
        for _ in 0..<3_000 {
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                if Bool.random(using: &rng) {
                    scalars.append(common[Int.random(in: 0..<common.count, using: &rng)])
                } else {
                    let group = samples[Int.random(in: 0..<samples.count, using: &rng)]
                    scalars.append(group[Int.random(in: 0..<group.count, using: &rng)])
                }
            }
            let bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
            let cuts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1...bytes.count, using: &rng) }
            let chunks = Self.split(bytes, at: cuts)
            let fast = Self.packedTokens(chunks, simpleClusterRuns: true)
            let slow = Self.packedTokens(chunks, simpleClusterRuns: false)
            if fast.tokens != slow.tokens || fast.clusters != slow.clusters {
                differing.append(scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") + " cuts \(cuts)")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) differ, first: \(differing.prefix(4))")
    }

    @Test("a short line and the control that ends it are one entry; a combining mark in the next read still joins")
    func linesAreOneEntry() {
        let lines = Self.tokenize([Array("ab\ncd\rxy\u{1B}[m".utf8)])
        #expect(lines.tokens == [.text(start: 0, count: 2), .control(start: 2, byte: 0x0A), .text(start: 3, count: 2),
                                 .control(start: 5, byte: 0x0D), .text(start: 6, count: 2),
                                 .sequence(start: 8, length: 3, kind: .csi(final: 0x6D, privateMarker: 0, hasIntermediates: false,
                                                                           hasControls: false))])
        var store = ByteStore()
        var tokenizer = Tokenizer()
        var queue = TokenQueue()
        store.append(contentsOf: Array("ab\nxe".utf8))
        #expect(tokenizer.scan(store, into: &queue) == 4)
        #expect(queue.storedBytes == 2 * TokenQueue.bytesPerEntry)
        store.append(contentsOf: Array("\u{301}".utf8))
        #expect(tokenizer.scan(store, into: &queue) == 0)
        var tokens: [Token] = []
        while !queue.isEmpty { tokens.append(queue.removeFirst()) }
        #expect(tokens == [.text(start: 0, count: 2), .control(start: 2, byte: 0x0A), .text(start: 3, count: 1),
                           .cluster(start: 4, length: 3, width: 1, isCertain: true)])
    }

    @Test("the end of a run of printable ASCII is found as a byte-by-byte scan finds it")
    func endOfPrintableASCII() {
        var rng = FidelityRNG(seed: 13)
        for _ in 0..<2000 {
            var store = ByteStore()
            let front = Int.random(in: 0...9, using: &rng)
            store.append(contentsOf: Array(repeating: 0x41, count: front))
            store.discard(upTo: Int.random(in: 0...front, using: &rng))
            store.append(contentsOf: (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                Bool.random(using: &rng) ? UInt8.random(in: 0x20...0x7E, using: &rng) : UInt8.random(in: 0...255, using: &rng)
            })
            let from = Int.random(in: store.start...store.end, using: &rng)
            let to = Int.random(in: from...store.end, using: &rng)
            var expected = from
            while expected < to, store[expected] >= 0x20 && store[expected] < 0x7F { expected += 1 }
            #expect(store.endOfPrintableASCII(from: from, to: to) == expected)
        }
    }

    @Test("a combining mark in a later read joins the cluster before it")
    func extendAcrossReads() {
        // Still queued: the cluster simply grows.
        let queued = Self.tokenize([Array("ae".utf8), Array("\u{301}x".utf8)])
        #expect(queued.clusters == 3)
        #expect(queued.tokens.count == 3)
        if case .cluster(1, 3, 1, true) = queued.tokens[1] {} else { Issue.record("tokens: \(queued.tokens)") }
        // Already taken by the writer: an `.extend` tells it to amend what it wrote.
        var store = ByteStore()
        var tokenizer = Tokenizer()
        var queue = TokenQueue()
        store.append(contentsOf: Array("e".utf8))
        #expect(tokenizer.scan(store, into: &queue) == 1)
        _ = queue.removeFirst()
        store.append(contentsOf: Array("\u{301}".utf8))
        #expect(tokenizer.scan(store, into: &queue) == 0)
        if case .extend(1, 2, 1, true)? = queue.first {} else { Issue.record("first: \(String(describing: queue.first))") }
    }

    @Test("a ZWJ keeps the read boundary after it: joined within a read, `.extend` across reads")
    func joinerReadBoundaries() {
        // ZWJ sequence split after the ZWJ: the emoji that completes it stays a token of its own.
        let family = Self.tokenize([Array("👩\u{200D}".utf8), Array("💻 x".utf8)])
        #expect(family.tokens.count >= 3)
        if case .cluster(0, 7, _, false) = family.tokens[0] {} else { Issue.record("tokens: \(family.tokens)") }
        if case .extend(7, 4, _, false) = family.tokens[1] {} else { Issue.record("tokens: \(family.tokens)") }
        // Sinhala "ශ්‍රී": two clusters (UAX #29), the first ending in ZWJ. In one read they are one
        // token (tmux joins them); across reads the second is an `.extend`.
        let sri = Array("ශ්\u{200D}රී".utf8)
        let whole = Self.tokenize([sri])
        #expect(whole.tokens.count == 1)
        if case .cluster(0, sri.count, 2, false) = whole.tokens[0] {} else { Issue.record("tokens: \(whole.tokens)") }
        let split = Self.tokenize([Array(sri[0..<9]), Array(sri[9...])])
        #expect(split.tokens.count == 2)
        if case .extend(9, 6, 2, false) = split.tokens[1] {} else { Issue.record("tokens: \(split.tokens)") }
        // ASCII after a ZWJ is not joined (tmux drops the ZWJ either way).
        let ascii = Self.tokenize([Array("中\u{200D}ab".utf8)])
        if case .cluster(0, 6, 2, false) = ascii.tokens[0] {} else { Issue.record("tokens: \(ascii.tokens)") }
        #expect(ascii.clusters == 3)
        // A cluster that begins with ASCII after a ZWJ is its own (fuzz finding: ZWJ "n" ZWJ counted
        // one cluster whole and two when split before the "n").
        let bytes = Array("\u{200D}n\u{200D}".utf8)
        let joinedWhole = Self.tokenize([bytes])
        #expect(joinedWhole.clusters == 2)
        #expect(Self.tokenize(Self.split(bytes, at: [1, 2, 3, 6])).clusters == 2)
    }

    @Test("a continuation keeps the width of the whole token it extends, ZWJ-joined part included")
    func continuationKeepsTheTokenWidth() {
        // "ශ්‍ර" (ශ ් ZWJ ර, joined within one read: 2 cells, uncertain) continued by "ී" in the
        // next read: the token stays 2 cells and uncertain, not the 1 cell of "රී" alone.
        let first = Array("in ශ්\u{200D}ර".utf8), second = Array("ී lanka".utf8)
        let result = Self.tokenize([first, second, [0x0A]])
        let widths = result.tokens.compactMap { token -> (Int, Bool)? in
            switch token {
            case .cluster(_, _, let w, let c), .extend(_, _, let w, let c): return (w, c)
            default: return nil
            }
        }
        #expect(widths.count == 2)
        #expect(widths.allSatisfy { $0 == (2, false) }, "\(result.tokens)")
    }

    @Test("C0 controls inside CSI and after ESC are kept in the sequence, which goes on",
          arguments: [("\u{1B}[?7\u{0}l", UInt8(0x3F)), ("\u{1B}\u{0}[?7l", 0x3F), ("\u{1B}[\u{0}?7l", 0x3F),
                      ("\u{1B}[\u{D}?7l", 0x3F), ("\u{1B}[3\u{8}1m", 0)])
    func controlsInsideSequences(_ input: String, _ marker: UInt8) {
        let bytes = Array(input.utf8)
        for cut in 0..<bytes.count {
            let tokens = Self.tokenize(cut == 0 ? [bytes] : Self.split(bytes, at: [cut])).tokens
            #expect(tokens.count == 1, "cut \(cut): \(tokens)")
            if case .sequence(0, bytes.count, .csi(_, marker, false, true))? = tokens.first {} else {
                Issue.record("cut \(cut): \(tokens)")
            }
        }
    }

    @Test("escape sequences are classified whole, wherever they are split")
    func sequences() {
        let input = Array("a\u{1B}[31mb\u{1B}[?25l\u{1B}]0;title\u{7}\u{1B}(0q\u{1B}(B".utf8)
        for cut in 1..<input.count {
            let kinds = Self.tokenize(Self.split(input, at: [cut])).tokens.compactMap { token -> SequenceKind? in
                if case .sequence(_, _, let kind) = token { return kind }
                return nil
            }
            #expect(kinds == [.csi(final: 0x6D, privateMarker: 0, hasIntermediates: false, hasControls: false),
                              .csi(final: 0x6C, privateMarker: 0x3F, hasIntermediates: false, hasControls: false),
                              .operatingSystemCommand,
                              .escape(final: 0x30, intermediate: 0x28),
                              .escape(final: 0x42, intermediate: 0x28)], "cut at \(cut)")
        }
    }

    @Test("invalid UTF-8, C1 bytes and a truncated sequence pass through raw")
    func invalidBytes() {
        let input: [UInt8] = [0x61, 0xFF, 0x80, 0x9B, 0xC3, 0x28, 0xE2, 0x82, 0x62, 0xC2, 0x85, 0x1B, 0x5B, 0x33]
        let result = Self.tokenize([input])
        #expect(Self.coveredBytes(result.tokens, result.store) == input)
        #expect(result.clusters == 3)  // a, (, b: nothing else counts as text
    }

    @Test("a byte of 0x80 or more inside ESC or CSI stays in the sequence, as tmux reads it, and makes it broken")
    func highBytesInsideSequences() {
        let input: [UInt8] = Array("a\u{1B}[31".utf8) + [0xCB] + Array("mX\u{1B}".utf8) + [0xE4, 0xB8, 0xAD] + Array("[1m\u{1B}(".utf8)
            + [0xC3, 0x88] + Array("0Y\u{1B}]0;".utf8) + [0xC3, 0xA9] + Array("\u{7}Z".utf8)
        for cut in 0...input.count {
            let result = Self.tokenize(cut == 0 ? [input] : [Array(input[..<cut]), Array(input[cut...])])
            #expect(Self.coveredBytes(result.tokens, result.store) == input)
            let sequences = result.tokens.compactMap { token -> SequenceKind? in
                if case .sequence(_, _, let kind) = token { return kind }
                return nil
            }
            #expect(sequences == [.broken, .broken, .broken, .operatingSystemCommand], "cut at \(cut)")
            #expect(result.clusters == 4, "cut at \(cut)")  // a, X, Y, Z
        }
    }

    @Test("a runaway OSC streams through in bounded pieces")
    func runawayOSC() {
        var input = Array("\u{1B}]2;".utf8)
        input += Array(repeating: 0x41, count: Tokenizer.holdingLimit * 3)
        var store = ByteStore()
        var tokenizer = Tokenizer()
        var queue = TokenQueue()
        var pieces = 0
        for chunk in stride(from: 0, to: input.count, by: 4096) {
            store.append(contentsOf: input[chunk..<min(input.count, chunk + 4096)])
            tokenizer.scan(store, into: &queue)
            while !queue.isEmpty { _ = queue.removeFirst(); pieces += 1 }
            #expect(store.end - tokenizer.heldFrom <= Tokenizer.holdingLimit + 4096)
        }
        #expect(pieces >= 2)
    }
}
