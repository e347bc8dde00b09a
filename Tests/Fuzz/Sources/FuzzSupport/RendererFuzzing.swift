@testable import TypewriteCore

/// Settings and reads one renderer fuzz input runs with, all derived from its bytes.
public struct RendererCase {
    public var bytes: [UInt8]
    public var configuration = FadeConfiguration()
    /// The reads: each arrives `delay` seconds after the one before.
    public var reads: [(delay: Seconds, bytes: ArraySlice<UInt8>)] = []

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var rng = FuzzRNG(hashing: bytes, salt: 1)
        configuration.columns = rng.pick([80, 80, 40, 20, 79, 10, 3, 2, 1])
        configuration.colorDepth = rng.pick([.trueColor, .trueColor, .palette256, .basic16, .none])
        configuration.charactersPerSecond = rng.pick([80, 80, 20, 400, 2000])
        configuration.fadeWidth = rng.pick([10, 10, 3, 0, 40])
        configuration.maximumLag = rng.pick([PacingEngine.defaultMaximumLag, PacingEngine.minimumBurstDuration, 0.5])
        let delays: [Seconds] = [0, 0.001, 0.02, 0.02, 0.3, 2.0]
        for piece in FuzzChunking.split(bytes, at: FuzzChunking.cuts(bytes, &rng)) {
            reads.append((rng.pick(delays), piece))
        }
        // Drawn last, so the settings above stay those the committed seeds were found with.
        if rng.chance(0.3) {
            configuration.highlightsMarkdown = true
            configuration.rows = 8  // the judge's screen: restyles may repaint rows above
            configuration.markdownUsesColor = configuration.colorDepth != .none
        }
    }

    public var description: String {
        let c = configuration
        return "columns \(c.columns ?? 0), depth \(c.colorDepth), cps \(c.charactersPerSecond), fade \(c.fadeWidth), "
            + "max lag \(c.maximumLag)\(c.highlightsMarkdown ? ", markdown" : "")\nreads:\n" + reads.map { "+\($0.delay)s \"\(fuzzDescribe($0.bytes))\"" }.joined(separator: "\n")
    }
}

/// What the renderer wrote for one case on a fake clock: a frame every 1/60 s while it animates,
/// the first at the arrival that starts it (as the event loop does), for at most
/// `limitAfterInput` seconds after the last read.
public struct RendererRun {
    public var frames: [[UInt8]] = []
    public var finished = false
    public var lastInput: Seconds = 0
    /// When nothing was animating any more (nil when it never stopped).
    public var quietAt: Seconds?
    /// For each read, when all of its bytes that the tokenizer let go of (all but an incomplete
    /// UTF-8 scalar or escape sequence at its end, held until a later read completes it) had been
    /// written (nil when never).
    public var writtenAt: [Seconds?] = []
    public var arrivals: [Seconds] = []
    /// Most input bytes held at once, and the input received by then.
    public var maxPending = 0

    public static let framePeriod: Seconds = 1.0 / 60

    public init(_ c: RendererCase, limitAfterInput: Seconds = 30) {
        var renderer = FadeRenderer(configuration: c.configuration)
        var time: Seconds = 0
        var nextFrame: Seconds?
        var lastFrame: Seconds = 0
        var received = 0
        var ends: [Int] = []
        // A second tokenizer says how much of the input is complete after each read.
        var store = ByteStore(), tokenizer = Tokenizer(), queue = TokenQueue()
        writtenAt = Array(repeating: nil, count: c.reads.count)
        func noteWritten(at t: Seconds) {
            let written = received - renderer.pendingInputBytes
            for (i, end) in ends.enumerated() where writtenAt[i] == nil && written >= end { writtenAt[i] = t }
            maxPending = max(maxPending, renderer.pendingBytes)
        }
        func runFrames(until limit: Seconds) {
            while let due = nextFrame, due <= limit {
                var out: [UInt8] = []
                renderer.frame(at: due, into: &out)
                if !out.isEmpty { frames.append(out) }
                lastFrame = due
                noteWritten(at: due)
                nextFrame = renderer.isAnimating ? due + Self.framePeriod : nil
            }
        }
        for read in c.reads {
            runFrames(until: time + read.delay)
            time += read.delay
            renderer.receive(read.bytes, at: time)
            received += read.bytes.count
            store.append(contentsOf: read.bytes)
            tokenizer.scan(store, into: &queue)
            while !queue.isEmpty { _ = queue.removeFirst() }
            ends.append(tokenizer.heldFrom)
            store.discard(upTo: tokenizer.heldFrom)
            arrivals.append(time)
            noteWritten(at: time)
            if nextFrame == nil && renderer.isAnimating { nextFrame = time }
        }
        renderer.endInput(at: time)
        if nextFrame == nil && renderer.isAnimating { nextFrame = time }
        runFrames(until: time + limitAfterInput)
        noteWritten(at: max(lastFrame, time))
        lastInput = time
        finished = renderer.isFinished
        quietAt = nextFrame == nil ? max(lastFrame, time) : nil
    }
}

/// The settled-screen comparison: the VirtualTerminal's snapshot and the modes it leaves out.
struct SettledState: Equatable {
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

    /// The same state with every cell's style taken away (the pen, links and the rest kept):
    /// what markdown highlighting must leave as cat does — cat's characters in cat's cells.
    var characters: SettledState {
        var copy = self
        copy.snapshot.lines = snapshot.lines.map { line in
            var cells = line.map { cell -> VirtualTerminal.Cell in
                var plain = cell
                plain.style = VirtualTerminal.Style()
                return plain
            }
            while let last = cells.last, last.text == " " || last.text.isEmpty, last.link == nil { cells.removeLast() }
            return cells
        }
        // As `settledLines()` does: no empty lines at the end.
        while let last = copy.snapshot.lines.last, last.isEmpty { copy.snapshot.lines.removeLast() }
        copy.snapshot.softWrapped = Array(copy.snapshot.softWrapped.prefix(copy.snapshot.lines.count))
        return copy
    }
}

/// The renderer's properties on one fuzz input:
/// - it finishes (no hang) and stops animating within the maximum lag (plus two frames) of the
///   last read, and writes every read within that bound of its arrival;
/// - the settled screen (cells, attributes, links, soft wraps, cursor, pending wrap, pen, title,
///   modes) equals cat's in the VirtualTerminal, under both margin conventions, cat writing each
///   read as it came;
/// - without colour every input byte is written exactly once, in order, and nothing else;
/// - memory held for unwritten input is bounded by what was received (a few token strides a byte).
public func fuzzRenderer(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    let c = RendererCase(fuzzBytes(data, size))
    let run = RendererRun(c)
    fuzzCheck(run.finished, "the renderer finishes within 30 s of the last read", c.description)
    let bound = c.configuration.maximumLag + 2 * RendererRun.framePeriod + 1e-9
    if let quiet = run.quietAt {
        fuzzCheck(quiet <= run.lastInput + bound, "animation stops within the maximum lag of the last read",
                  "quiet \(quiet - run.lastInput) s after the last read\n" + c.description)
    }
    for (i, written) in run.writtenAt.enumerated() {
        let late = written.map { $0 - run.arrivals[i] }
        fuzzCheck(late.map { $0 <= bound } ?? false, "each read is written within the maximum lag of its arrival",
                  "read \(i) written after \(late.map { "\($0) s" } ?? "never")\n" + c.description)
    }
    fuzzCheck(run.maxPending <= 64 * c.bytes.count + 4096, "memory held is bounded by the input",
              "\(run.maxPending) bytes held for \(c.bytes.count) input bytes\n" + c.description)
    let output = run.frames.flatMap { $0 }
    if c.configuration.colorDepth == .none && !c.configuration.highlightsMarkdown {
        fuzzCheck(output == c.bytes, "without colour the output is the input, byte for byte",
                  "output: \(fuzzDescribe(output))\n" + c.description)
    }
    let columns = c.configuration.columns ?? 80
    for margin in VirtualTerminal.MarginConvention.allCases {
        var ours = VirtualTerminal(columns: columns, rows: 8, margin: margin, newlineIsCRLF: true)
        for frame in run.frames { ours.feed(frame) }
        var cats = VirtualTerminal(columns: columns, rows: 8, margin: margin, newlineIsCRLF: true)
        for read in c.reads { cats.feed(read.bytes) }
        var a = SettledState(ours), b = SettledState(cats)
        if c.configuration.highlightsMarkdown { a = a.characters; b = b.characters }
        if a != b {
            let why = a.snapshot.diff(b.snapshot) ?? "modes: title \(a.title ?? "-")/\(b.title ?? "-") alternate \(a.alternateScreen)/"
                + "\(b.alternateScreen) autowrap \(a.autowrap)/\(b.autowrap) shift-out \(a.shiftOut)/\(b.shiftOut)"
            fuzzFailure("the settled screen equals cat's (\(margin) margin)",
                        "\(why)\n--- typewrite ---\n\(a.snapshot)\n--- cat ---\n\(b.snapshot)\n" + c.description)
        }
    }
}
