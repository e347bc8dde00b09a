/// What a run of input bytes is to a terminal. Tokens name byte ranges by absolute offset in the
/// input (byte 0 is the first byte read), so the bytes themselves are stored once, in a `ByteStore`.
public enum Token: Equatable, Sendable {
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
    public var start: Int {
        switch self {
        case .text(let s, _), .cluster(let s, _, _, _), .extend(let s, _, _, _), .sequence(let s, _, _), .raw(let s, _),
             .control(let s, _):
            return s
        }
    }

    /// Grapheme clusters this token adds to the pacing count.
    public var clusterCount: Int {
        switch self {
        case .text(_, let count): return count
        case .cluster: return 1
        default: return 0
        }
    }
}

/// The kind of an escape sequence, as far as the writer needs to know.
public enum SequenceKind: Equatable, Sendable {
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
    public var isSelectGraphicRendition: Bool {
        if case .csi(0x6D, 0, false, false) = self { return true }
        return false
    }
}

/// Input bytes kept until they have been written: append at the end, discard from the front.
/// Offsets are absolute: the first byte ever appended has offset 0.
public struct ByteStore: Sendable {
    private var storage: [UInt8] = []
    private var head = 0  // index in storage of `start`
    /// Absolute offset of the first byte still held.
    public private(set) var start = 0

    public init() {}

    /// Absolute offset one past the last byte appended.
    public var end: Int { start + storage.count - head }
    /// Bytes held (appended and not discarded).
    public var count: Int { storage.count - head }

    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        // Reclaim the discarded front rather than grow the buffer (a grown copy briefly holds
        // both, which set the peak RSS of a long animated line).
        if head > 0 && storage.count + bytes.count > storage.capacity { compact() }
        storage.append(contentsOf: bytes)
    }

    /// The byte at absolute offset `offset`, which must be held.
    @inline(__always)
    public subscript(offset: Int) -> UInt8 { storage[offset - start + head] }

    /// The bytes at absolute offsets `range`, which must be held.
    public subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        storage[(range.lowerBound - start + head)..<(range.upperBound - start + head)]
    }

    /// Forgets bytes before absolute offset `offset`; memory is reclaimed in large steps.
    public mutating func discard(upTo offset: Int) {
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
