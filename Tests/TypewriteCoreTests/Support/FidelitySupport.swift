// Shared machinery of the fidelity tests (FidelityCorpusTests, FidelityRandomTests):
// a bounded driver for FadeRenderer, the settled-screen comparison against cat, fade detection,
// a seeded generator and a shrinker that turns a failing stream into a small reproduction.

import Foundation
import Testing
@testable import TypewriteCore
import TerminalJudge

// MARK: - Driver

/// Drives a `Session` on a fake clock, as the event loop does (a frame every 1/60 s while
/// animating, the first one at the arrival that starts the animation); it never traps:
/// it stops after `limitAfterInput` seconds past the last input and reports whether the renderer
/// finished, so a hang is a test failure with a reproduction instead of a crashed test process.
struct FidelityDriver {
    var configuration: FadeConfiguration
    var framePeriod: Seconds = 1.0 / 60

    init(columns: Int, depth: ColorDepth = .trueColor, cps: Double = 80, fade: Double = 10,
         maximumLag: Seconds = PacingEngine.defaultMaximumLag) {
        configuration = FadeConfiguration()
        configuration.columns = columns
        configuration.colorDepth = depth
        configuration.charactersPerSecond = cps
        configuration.fadeWidth = fade
        configuration.maximumLag = maximumLag
    }

    struct Outcome {
        var frames: [(time: Seconds, bytes: [UInt8])]
        /// `session.isFinished` after the last frame.
        var finished: Bool
        /// Arrival time of the last chunk (= end of input).
        var lastInput: Seconds
        /// Time of the frame after which nothing was animating any more (nil when it never stopped).
        var quietAt: Seconds?
        var output: [UInt8] { frames.flatMap(\.bytes) }
    }

    func run(_ chunks: [RenderHarness.Chunk], limitAfterInput: Seconds = 60) -> Outcome {
        // The product's own path: a Session schedules the frames, as the poll driver and the
        // library run it; only the clock is fake.
        var session = Session(mode: .animated(configuration), pipeline: InputPipeline(format: .raw))
        var frames: [(time: Seconds, bytes: [UInt8])] = []
        var time: Seconds = 0
        var lastFrame: Seconds = 0
        func runFrames(until limit: Seconds) {
            while let due = session.nextDeadline, due <= limit {
                var out = SessionOutput()
                session.advance(to: due, into: &out)
                if !out.bytes.isEmpty { frames.append((due, out.bytes)) }
                lastFrame = due
            }
        }
        for chunk in chunks {
            runFrames(until: time + chunk.delay)
            time += chunk.delay
            var out = SessionOutput()
            session.receive(chunk.bytes, at: time, into: &out)
            if !out.bytes.isEmpty { frames.append((time, out.bytes)) }
        }
        var out = SessionOutput()
        session.endOfInput(at: time, into: &out)
        if !out.bytes.isEmpty { frames.append((time, out.bytes)) }
        runFrames(until: time + limitAfterInput)
        return Outcome(frames: frames, finished: session.isFinished, lastInput: time,
                       quietAt: session.nextDeadline == nil ? max(lastFrame, time) : nil)
    }
}

// MARK: - Screens

/// What a settled-screen comparison covers: the VirtualTerminal snapshot (lines with attributes and
/// links, soft wraps, cursor, pending wrap, cursor visibility, pen, open link) plus the terminal
/// state the snapshot leaves out (title, alternate screen, autowrap, shift-out).
struct FidelityState: Equatable, CustomStringConvertible {
    var snapshot: VirtualTerminal.Snapshot
    var title: String?
    var alternateScreen: Bool
    var autowrap: Bool
    var shiftOut: Bool

    init(_ terminal: VirtualTerminal) {
        snapshot = terminal.snapshot()
        title = terminal.title
        alternateScreen = terminal.isAlternateScreen
        autowrap = terminal.autowrap
        shiftOut = terminal.shiftOut
    }

    var description: String {
        "\(snapshot)\n[title \(title ?? "none") alternate \(alternateScreen) autowrap \(autowrap) shiftOut \(shiftOut)]"
    }

    /// The first difference, readably; nil when equal.
    func diff(_ other: FidelityState) -> String? {
        if self == other { return nil }
        if let d = snapshot.diff(other.snapshot) { return d }
        if title != other.title { return "title: this \(title ?? "none"), other \(other.title ?? "none")" }
        return "terminal modes: this \(description.split(separator: "\n").last ?? ""), other \(other.description.split(separator: "\n").last ?? "")"
    }
}

struct FidelityScreens {
    var typewrite: FidelityState
    var cat: FidelityState
    var same: Bool { typewrite == cat }
    /// The difference, with both screens, for a failure message.
    var explanation: String {
        guard let d = typewrite.diff(cat) else { return "identical" }
        return "\(d)\n--- typewrite ---\n\(typewrite)\n--- cat ---\n\(cat)"
    }
}

enum Fidelity {
    /// Settled screens of typewrite's frames and of cat's chunks, in terminals that turn LF into CR LF
    /// (a pty's ONLCR), under `margin`.
    static func screens(frames: [[UInt8]], chunks: [RenderHarness.Chunk], columns: Int,
                        margin: VirtualTerminal.MarginConvention, rows: Int = 24) -> FidelityScreens {
        var ours = VirtualTerminal(columns: columns, rows: rows, margin: margin, newlineIsCRLF: true)
        for frame in frames { ours.feed(frame) }
        var cats = VirtualTerminal(columns: columns, rows: rows, margin: margin, newlineIsCRLF: true)
        for chunk in chunks { cats.feed(chunk.bytes) }
        return FidelityScreens(typewrite: FidelityState(ours), cat: FidelityState(cats))
    }

    /// Splits `bytes` at `cuts`, each chunk arriving `delays[i % delays.count]` after the previous.
    static func chunks(_ bytes: [UInt8], cuts: [Int], delays: [Seconds] = [0.05]) -> [RenderHarness.Chunk] {
        var result: [RenderHarness.Chunk] = []
        var last = 0
        for c in Set(cuts).sorted() where c > last && c < bytes.count {
            result.append(.init(delay: delays[result.count % delays.count], bytes: Array(bytes[last..<c])))
            last = c
        }
        result.append(.init(delay: delays[result.count % delays.count], bytes: Array(bytes[last...])))
        return result
    }

    // MARK: Fade evidence

    /// SGR parameter lists (`ESC [ params m`, params of 0-9 ; :) in `bytes`, in order.
    static func sgrParameters(_ bytes: [UInt8]) -> [[Substring]] {
        var result: [[Substring]] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0x1B && bytes[i + 1] == 0x5B {
                var j = i + 2
                while j < bytes.count, (0x30...0x3B).contains(bytes[j]) { j += 1 }
                if j < bytes.count && bytes[j] == 0x6D {
                    let text = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                    result.append(text.split(separator: ";", omittingEmptySubsequences: false))
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        return result
    }

    /// Foreground colours selected by SGR in `bytes`: "2;r;g;b" for 24-bit, "5;n" for 256-colour
    /// (semicolon forms, the ones typewrite writes).
    static func foregroundColours(_ bytes: [UInt8]) -> Set<String> {
        var colours = Set<String>()
        for params in sgrParameters(bytes) {
            var k = 0
            while k < params.count {
                if params[k] == "38", k + 1 < params.count {
                    if params[k + 1] == "2", k + 4 < params.count {
                        colours.insert("2;\(params[k + 2]);\(params[k + 3]);\(params[k + 4])"); k += 5; continue
                    }
                    if params[k + 1] == "5", k + 2 < params.count {
                        colours.insert("5;\(params[k + 2])"); k += 3; continue
                    }
                }
                k += 1
            }
        }
        return colours
    }

    /// How many SGR parameters set faint (2) in `bytes`, not counting the arguments of 38/48/58.
    static func faintCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        for params in sgrParameters(bytes) {
            var k = 0
            while k < params.count {
                let p = params[k]
                if (p == "38" || p == "48" || p == "58") && k + 1 < params.count {
                    k += params[k + 1] == "2" ? 5 : params[k + 1] == "5" ? 3 : 2
                    continue
                }
                if p == "2" { count += 1 }
                k += 1
            }
        }
        return count
    }

    /// Whether typewrite's output shows a fade of its own: a 24-bit or 256-colour foreground the input
    /// never asked for, or (16 colours) an SGR with faint (2) when the input never wrote one.
    static func showsFade(output: [UInt8], input: [UInt8], depth: ColorDepth) -> Bool {
        switch depth {
        case .none: return false
        case .basic16:
            return faintCount(output) > faintCount(input)
        case .palette256, .trueColor:
            let prefix = depth == .trueColor ? "2;" : "5;"
            return foregroundColours(output).subtracting(foregroundColours(input)).contains { $0.hasPrefix(prefix) }
        }
    }

    // MARK: Describing inputs

    /// `bytes` as a Swift string literal body (printable ASCII kept, the rest escaped).
    static func literal(_ bytes: [UInt8]) -> String {
        var s = ""
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x5C: s += "\\\\"
            case 0x22: s += "\\\""
            case 0x20..<0x7F: s += String(UnicodeScalar(b))
            default:
                // Valid multi-byte UTF-8 is shown as the scalar.
                let len = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xC2 && b <= 0xDF ? 2 : 1
                if len > 1, i + len <= bytes.count,
                   let str = String(validating: bytes[i..<(i + len)], as: UTF8.self), let scalar = str.unicodeScalars.first,
                   scalar.value >= 0xA0 {
                    s += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                    i += len
                    continue
                }
                s += "\\x" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
            }
            i += 1
        }
        return s
    }

    static func describe(_ chunks: [RenderHarness.Chunk]) -> String {
        chunks.map { "+\(String(format: "%.3f", $0.delay))s \"\(literal($0.bytes))\"" }.joined(separator: "\n")
    }

    // MARK: Environment

    static func environmentInt(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func environmentString(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}

// MARK: - Random numbers

/// SplitMix64: small, fast and deterministic across platforms, so a seed names a stream forever.
struct FidelityRNG: RandomNumberGenerator {
    private var base: SplitMix64
    init(seed: UInt64) { base = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D ^ 0x6A09_E667_F3BC_C909) }
    mutating func next() -> UInt64 { base.next() }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}
