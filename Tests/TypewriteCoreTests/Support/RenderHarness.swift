@testable import TypewriteCore
import TerminalJudge

/// Drives a `FadeRenderer` on a fake clock, the way the event loop does (a frame every 1/60 s
/// while animating), and feeds every frame to virtual terminals. Nothing sleeps.
struct RenderHarness {
    /// One input write: `bytes` arriving `delay` seconds after the previous one.
    struct Chunk { var delay: Seconds; var bytes: [UInt8] }

    var configuration: FadeConfiguration
    var framePeriod: Seconds = 1.0 / 60

    init(columns: Int, depth: ColorDepth = .trueColor, cps: Double = 80, fade: Double = 10) {
        configuration = FadeConfiguration()
        configuration.columns = columns
        configuration.colorDepth = depth
        configuration.charactersPerSecond = cps
        configuration.fadeWidth = fade
    }

    /// Runs the chunks through the renderer; returns every frame's bytes in order, with its time.
    /// The frame loop is `FidelityDriver`'s; here a renderer that never finishes is a trap.
    func frames(_ chunks: [Chunk]) -> [(time: Seconds, bytes: [UInt8])] {
        var driver = FidelityDriver(columns: configuration.columns ?? 80)
        driver.configuration = configuration
        driver.framePeriod = framePeriod
        let outcome = driver.run(chunks)
        precondition(outcome.finished, "renderer did not finish within 60 s of the last input")
        return outcome.frames
    }

    /// The output bytes, all frames concatenated.
    func output(_ chunks: [Chunk]) -> [UInt8] { frames(chunks).flatMap { $0.bytes } }

    /// The settled screen typewrite leaves and the one cat leaves, in terminals of this width
    /// that turn LF into CR LF (a pty's ONLCR), under `margin`.
    func screens(_ chunks: [Chunk], margin: VirtualTerminal.MarginConvention, rows: Int = 24)
        -> (typewrite: VirtualTerminal.Snapshot, cat: VirtualTerminal.Snapshot) {
        let columns = configuration.columns ?? 80
        var ours = VirtualTerminal(columns: columns, rows: rows, margin: margin, newlineIsCRLF: true)
        for frame in frames(chunks) { ours.feed(frame.bytes) }
        var cats = VirtualTerminal(columns: columns, rows: rows, margin: margin, newlineIsCRLF: true)
        for chunk in chunks { cats.feed(chunk.bytes) }
        return (ours.snapshot(), cats.snapshot())
    }

    /// Splits `bytes` into chunks at `cuts` (byte offsets), `delay` seconds apart.
    static func chunks(_ bytes: [UInt8], cuts: [Int] = [], delay: Seconds = 0.05) -> [Chunk] {
        var result: [Chunk] = []
        var last = 0
        for c in cuts.sorted() where c > last && c < bytes.count {
            result.append(Chunk(delay: delay, bytes: Array(bytes[last..<c])))
            last = c
        }
        result.append(Chunk(delay: delay, bytes: Array(bytes[last...])))
        return result
    }
}
