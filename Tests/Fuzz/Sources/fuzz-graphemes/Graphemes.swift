import FuzzSupport
@testable import TypewriteCore

/// Scalars assigned in the table's Unicode version (15.0), grouped by their grapheme-break table
/// byte (break property, Indic conjunct property, Extended_Pictographic): every class is reachable
/// from two input bytes.
private let classes: [[Unicode.Scalar]] = {
    var byClass: [UInt8: [Unicode.Scalar]] = [:]
    for v in UInt32(0)...0x10FFFF {
        guard let s = Unicode.Scalar(v), GraphemeBreak.isAssigned(v) else { continue }
        byClass[GraphemeBreak.properties(v), default: []].append(s)
    }
    return byClass.keys.sorted().map { byClass[$0]! }
}()

/// The scalars an input stands for: its UTF-8 text when the first byte is even (invalid bytes
/// dropped), else pairs of bytes naming a class and a member of it, so that rare classes (Prepend,
/// Indic linkers, regional indicators, conjoining jamo) come up as often as letters. Scalars not
/// assigned in Unicode 15.0 are left out: Swift (Unicode 16.0) knows properties the table cannot.
private func scalars(_ bytes: [UInt8]) -> [Unicode.Scalar] {
    guard let first = bytes.first else { return [] }
    if first & 1 == 0 {
        var out: [Unicode.Scalar] = []
        var decoder = UTF8()
        var it = bytes.dropFirst().makeIterator()
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s): if GraphemeBreak.isAssigned(s.value) { out.append(s) }
            case .emptyInput: break loop
            case .error: continue
            }
        }
        return out
    }
    var out: [Unicode.Scalar] = []
    var i = 1
    while i + 1 < bytes.count {
        let group = classes[Int(bytes[i]) % classes.count]
        out.append(group[(Int(bytes[i + 1]) &* 7919) % group.count])
        i += 2
    }
    return out
}

/// Properties on one input: `GraphemeBreak` finds the same grapheme clusters as Swift's
/// `Character` (UAX #29 as Swift 6.3 implements it), both restarting at every boundary
/// (`GraphemeBreak.cluster`) and fed scalar by scalar; and the clusters' widths are
/// `CellWidth.measure` of the same scalars.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphemes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = scalars(fuzzBytes(data, size))
    guard !input.isEmpty else { return 0 }
    var view = String.UnicodeScalarView()
    view.append(contentsOf: input)
    let text = String(view)
    let expected = text.map { Array($0.unicodeScalars) }
    let describe = { input.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") }

    var streaming: [[Unicode.Scalar]] = []
    var state = GraphemeBreak()
    for s in input {
        if state.isBoundary(before: GraphemeBreak.properties(s.value)) { streaming.append([s]) } else { streaming[streaming.count - 1].append(s) }
    }
    fuzzCheck(streaming == expected, "scalar by scalar, the clusters are Swift's", "scalars \(describe())")

    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
        var i = 0, k = 0
        while i < raw.count {
            let (end, width) = GraphemeBreak.cluster(in: raw.baseAddress!, from: i, to: raw.count, ambiguousIsWide: false,
                                                     ambiguousIsUncertain: false)
            guard k < expected.count else { fuzzCheck(false, "no more clusters than Swift's", "scalars \(describe())"); return }
            let character = expected[k]
            fuzzCheck(end - i == character.reduce(0) { $0 + String($1).utf8.count },
                      "restarting at each boundary, cluster \(k) is Swift's", "scalars \(describe())")
            fuzzCheck(width == CellWidth.measure(character), "cluster \(k) measures as CellWidth.measure", "scalars \(describe())")
            i = end
            k += 1
        }
        fuzzCheck(k == expected.count, "as many clusters as Swift's", "scalars \(describe())")
    }
    return 0
}
