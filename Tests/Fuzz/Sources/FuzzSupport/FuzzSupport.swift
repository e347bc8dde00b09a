// Shared machinery of the fuzz targets: a deterministic generator seeded by the input itself
// (so a finding reproduces from its file alone), the way an input is cut into reads, and the
// failure report. Properties, not only "no crash": each target checks what its stage promises.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A property failed: say which and why on stderr, then abort, so libFuzzer keeps the input.
public func fuzzFailure(_ property: String, _ detail: @autoclosure () -> String = "") -> Never {
    let text = "\nFUZZ PROPERTY FAILED: \(property)\n\(detail())\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// Checks a property; on failure reports it (see `fuzzFailure`).
@inline(__always)
public func fuzzCheck(_ condition: Bool, _ property: String, _ detail: @autoclosure () -> String = "") {
    if !condition { fuzzFailure(property, detail()) }
}

/// SplitMix64 seeded by an FNV-1a hash of the input: the chunking and settings each input runs
/// with are a function of its bytes.
public struct FuzzRNG: RandomNumberGenerator {
    private var state: UInt64

    public init(hashing bytes: [UInt8], salt: UInt64 = 0) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        state = h
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}

/// Ways of cutting an input into reads, all derived from the input.
public enum FuzzChunking {
    /// Byte offsets where reads end (sorted, inside the input): a few random cuts, sometimes
    /// every byte (for short inputs), sometimes at every line end or ESC (where writers split).
    public static func cuts(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [Int] {
        guard bytes.count > 1 else { return [] }
        switch rng.int(0...5) {
        case 0 where bytes.count <= 512:
            return Array(1..<bytes.count)
        case 1:
            return (1..<bytes.count).filter { bytes[$0 - 1] == 0x0A || bytes[$0] == 0x1B }
        default:
            let n = rng.int(1...min(16, bytes.count - 1))
            return Array(Set((0..<n).map { _ in rng.int(1...(bytes.count - 1)) })).sorted()
        }
    }

    /// `bytes` split at `cuts`.
    public static func split(_ bytes: [UInt8], at cuts: [Int]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var last = 0
        for c in cuts where c > last && c < bytes.count {
            pieces.append(bytes[last..<c])
            last = c
        }
        pieces.append(bytes[last...])
        return pieces
    }
}

/// The bytes libFuzzer passes, as an array.
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// A short, printable rendering of `bytes` for failure messages.
public func fuzzDescribe(_ bytes: some Collection<UInt8>, limit: Int = 400) -> String {
    var s = ""
    for b in bytes.prefix(limit) {
        switch b {
        case 0x5C: s += "\\\\"
        case 0x20..<0x7F: s += String(UnicodeScalar(b))
        default: s += "\\x" + (b < 0x10 ? "0" : "") + String(b, radix: 16)
        }
    }
    return bytes.count > limit ? s + "… (\(bytes.count) bytes)" : s
}
