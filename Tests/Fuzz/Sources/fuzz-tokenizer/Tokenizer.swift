import FuzzSupport
@testable import TypewriteCore

/// What one input byte is to the terminal, as a token classifies it.
private enum ByteClass: Equatable {
    case text
    case control
    /// A byte of the sequence starting at `start`, of that kind.
    case sequence(start: Int, kind: SequenceKind)
    case raw
}

/// Tokenizes `pieces` fed one after another, then ends the input.
private func tokenize(_ pieces: [ArraySlice<UInt8>]) -> (tokens: [Token], store: ByteStore, clusters: Int, maxHeld: Int) {
    var store = ByteStore()
    var tokenizer = Tokenizer()
    var queue = TokenQueue()
    var clusters = 0
    var maxHeld = 0
    for piece in pieces {
        store.append(contentsOf: piece)
        clusters += tokenizer.scan(store, into: &queue)
        maxHeld = max(maxHeld, store.end - tokenizer.heldFrom - piece.count)
    }
    clusters += tokenizer.finish(store, into: &queue)
    var tokens: [Token] = []
    while !queue.isEmpty { tokens.append(queue.removeFirst()) }
    return (tokens, store, clusters, maxHeld)
}

/// Properties of the tokenizer on one input:
/// - every input byte is covered by exactly one token, in order (the tokens tile the input);
/// - the class of every byte (text, control, which sequence of which kind, raw) is the same for
///   any chunking, and so is the pacing count, except that a cluster split across reads may count
///   as less (a continuation adds nothing);
/// - text tokens hold only printable text: `.text` is printable ASCII, clusters valid UTF-8 with
///   no C0, DEL or ESC; `.control` is one C0 or DEL byte;
/// - what is held back between reads stays within the holding limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    var rng = FuzzRNG(hashing: bytes)
    let whole = tokenize([bytes[...]])
    let reference = check(whole.tokens, whole.store, bytes, cuts: [])
    var chunkings = [FuzzChunking.cuts(bytes, &rng), FuzzChunking.cuts(bytes, &rng)]
    if bytes.count <= 300 { chunkings.append(Array(1..<max(1, bytes.count))) }
    for cuts in chunkings {
        let split = tokenize(FuzzChunking.split(bytes, at: cuts))
        let classes = check(split.tokens, split.store, bytes, cuts: cuts)
        fuzzCheck(classes == reference, "every byte is classified the same for any chunking",
                  "input: \(fuzzDescribe(bytes))\ncuts: \(cuts)\nfirst difference at byte \((0..<bytes.count).first { classes[$0] != reference[$0] } ?? -1)"
                  + "\nwhole: \(whole.tokens)\nsplit: \(split.tokens)")
        fuzzCheck(split.clusters <= whole.clusters, "a split never adds grapheme clusters",
                  "input: \(fuzzDescribe(bytes))\ncuts: \(cuts)\n\(split.clusters) > \(whole.clusters)")
        fuzzCheck(split.maxHeld <= Tokenizer.holdingLimit, "holding stays within the limit",
                  "input: \(fuzzDescribe(bytes))\nheld \(split.maxHeld)")
    }
    return 0
}

/// Checks that `tokens` tile `bytes` and hold what they say; returns each byte's class.
private func check(_ tokens: [Token], _ store: ByteStore, _ bytes: [UInt8], cuts: [Int]) -> [ByteClass] {
    var classes: [ByteClass] = []
    classes.reserveCapacity(bytes.count)
    var offset = 0
    func fail(_ what: String) -> Never {
        fuzzFailure(what, "input: \(fuzzDescribe(bytes))\ncuts: \(cuts)\ntokens: \(tokens)")
    }
    for token in tokens {
        let (start, length): (Int, Int)
        switch token {
        case .text(let s, let n): (start, length) = (s, n)
        case .cluster(let s, let n, _, _), .extend(let s, let n, _, _), .sequence(let s, let n, _), .raw(let s, let n):
            (start, length) = (s, n)
        case .control(let s, let b):
            (start, length) = (s, 1)
            if s < bytes.count && bytes[s] != b { fail("a control token carries its own byte") }
        }
        if start != offset { fail("tokens tile the input in order (token at \(start), expected \(offset))") }
        if length <= 0 && !(length == 0 && bytes.isEmpty) { fail("tokens are not empty") }
        if start + length > bytes.count { fail("tokens stay inside the input") }
        let slice = bytes[start..<(start + length)]
        if Array(store[start..<(start + length)]) != Array(slice) { fail("the store holds the input's bytes") }
        let byteClass: ByteClass
        switch token {
        case .text:
            if !slice.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { fail(".text is printable ASCII") }
            byteClass = .text
        case .cluster, .extend:
            if String(validating: slice, as: UTF8.self) == nil { fail("clusters are whole UTF-8 scalars") }
            if slice.contains(where: { $0 < 0x20 || $0 == 0x7F }) { fail("clusters hold no controls") }
            byteClass = .text
        case .control(_, let b):
            if !(b < 0x20 && b != 0x1B) && b != 0x7F { fail(".control is C0 or DEL") }
            byteClass = .control
        case .sequence(let s, _, let kind):
            byteClass = .sequence(start: s, kind: kind)
        case .raw:
            byteClass = .raw
        }
        classes += repeatElement(byteClass, count: length)
        offset = start + length
    }
    if offset != bytes.count { fail("tokens cover the whole input (\(offset) of \(bytes.count))") }
    return classes
}
