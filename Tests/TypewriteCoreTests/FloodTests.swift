import Testing
@testable import TypewriteCore
import TerminalJudge

/// Floods: text that scrolls off before the front reaches it is written at once, settled; the
/// deadline and the memory limit make the rest settle in time. All on a fake clock.
@Suite("Floods")
struct FloodTests {
    static let esc = "\u{1B}"

    static func lines(_ range: ClosedRange<Int>) -> [UInt8] { Array(range.map { "\($0)\n" }.joined().utf8) }

    /// Distinct 24-bit fade colours (`CSI 38;2;r;g;b m`) in `bytes`.
    static func fadeColours(_ bytes: some Sequence<UInt8>) -> Set<String> {
        let s = String(decoding: Array(bytes), as: UTF8.self)
        var colours = Set<String>()
        var rest = s[...]
        while let r = rest.range(of: "\(esc)[38;2;") {
            let end = rest[r.upperBound...].firstIndex(of: "m")!
            colours.insert(String(rest[r.upperBound..<end]))
            rest = rest[end...]
        }
        return colours
    }

    static func driver(rows: Int?, maximumLag: Seconds = PacingEngine.defaultMaximumLag) -> FidelityDriver {
        var driver = FidelityDriver(columns: 80, maximumLag: maximumLag)
        driver.configuration.rows = rows
        return driver
    }

    /// Screens (scrollback included) of the frames and of the input, in a 80×`rows` terminal.
    static func screens(_ frames: [(time: Seconds, bytes: [UInt8])], _ input: [UInt8], rows: Int)
        -> (typewrite: VirtualTerminal.Snapshot, cat: VirtualTerminal.Snapshot) {
        var ours = VirtualTerminal(columns: 80, rows: rows, newlineIsCRLF: true)
        for frame in frames { ours.feed(frame.bytes) }
        var cat = VirtualTerminal(columns: 80, rows: rows, newlineIsCRLF: true)
        cat.feed(input)
        return (ours.snapshot(), cat.snapshot())
    }

    @Test("a burst of many lines: the rows that scroll off are written at once, only the last screenful fades")
    func scrollAhead() {
        let input = Self.lines(1...3000)
        let outcome = Self.driver(rows: 24).run([RenderHarness.Chunk(delay: 0.05, bytes: input)])
        #expect(outcome.finished)
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        // The first frame holds everything up to the last screenful, as the input has it.
        let first = outcome.frames[0].bytes
        let unseen = Self.lines(1...(3000 - 24))
        #expect(Array(first.prefix(unseen.count)) == unseen)
        // The last screenful still fades, and nothing else is added to the input's bytes.
        #expect(Self.fadeColours(outcome.output).count >= 8)
        #expect(Self.fadeColours(first.prefix(unseen.count)).isEmpty)
        #expect(outcome.output.count - input.count <= 24 * 80 * 5)
        // The last rows still take their time to fade in, a little shorter than a burst may take.
        let settled = (outcome.quietAt ?? .infinity) - outcome.lastInput
        #expect(settled > 0.4 && settled <= FadeRenderer.lastScreenfulDuration + 1.0 / 60)
    }

    @Test("a burst of lines with wide and accented characters scrolls off in bulk too, as the input has it")
    func scrollAheadNonASCII() {
        let input = Array((1...3000).map { "\($0) café 潮だまり résumé\n" }.joined().utf8)
        let outcome = Self.driver(rows: 24).run([RenderHarness.Chunk(delay: 0.05, bytes: input)])
        #expect(outcome.finished)
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        let unseen = Array((1...(3000 - 24)).map { "\($0) café 潮だまり résumé\n" }.joined().utf8)
        #expect(Array(outcome.frames[0].bytes.prefix(unseen.count)) == unseen)
    }

    @Test("a read that ends inside a cluster: its rest goes in the same frame, unless the part before ends in ZWJ",
          arguments: [("👋", false), ("🇪", false), ("e", false), ("👨\u{200D}", true)])
    func readEndsInsideCluster(before: String, afterJoiner: Bool) {
        // Line 100 is cut after `before`, and both reads come at once, as in a flood. tmux joins a
        // skin tone, a flag's second half or a combining mark whether or not it comes in the same
        // write, and a ZWJ's next scalar only within one (docs/terminals.md#joiners).
        let line = "👋🏽 🇪🇬 e\u{301} 👨\u{200D}👩 end\n"
        let input = Array((1...300).map { "\($0) \(line)" }.joined().utf8)
        let cut = Array((1...99).map { "\($0) \(line)" }.joined().utf8).count
            + Array("100 \(line)".utf8).firstRange(of: Array(before.utf8))!.upperBound
        let outcome = Self.driver(rows: 24).run([RenderHarness.Chunk(delay: 0.05, bytes: Array(input[..<cut])),
                                                 RenderHarness.Chunk(delay: 0, bytes: Array(input[cut...]))])
        #expect(outcome.finished)
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        // The first read's frame writes the rows before the cut; the next frame the rest that
        // scrolls off, in one piece, or only up to the cut when a ZWJ ends the first read.
        let written = outcome.frames.prefix(2).flatMap(\.bytes)
        if afterJoiner {
            #expect(written.count == cut && written[...] == input[..<cut])
        } else {
            let unseen = Array((1...(300 - 24)).map { "\($0) \(line)" }.joined().utf8)
            #expect(written.count >= unseen.count && written[..<unseen.count] == input[..<unseen.count])
        }
    }

    @Test("lines ended by CR LF (a pty's output) scroll off in bulk too, whether or not a LF alone returns the carriage",
          arguments: [true, false])
    func scrollAheadCRLF(newlineReturnsCarriage: Bool) {
        let input = Array((1...3000).map { "\($0) café 潮だまり résumé\r\n" }.joined().utf8)
        var driver = Self.driver(rows: 24)
        driver.configuration.newlineReturnsCarriage = newlineReturnsCarriage
        let outcome = driver.run([RenderHarness.Chunk(delay: 0.05, bytes: input)])
        #expect(outcome.finished)
        var ours = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: newlineReturnsCarriage)
        for frame in outcome.frames { ours.feed(frame.bytes) }
        var cat = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: newlineReturnsCarriage)
        cat.feed(input)
        #expect(ours.snapshot() == cat.snapshot(), "\(ours.snapshot().diff(cat.snapshot()) ?? "")")
        let unseen = Array((1...(3000 - 24)).map { "\($0) café 潮だまり résumé\r\n" }.joined().utf8)
        #expect(Array(outcome.frames[0].bytes.prefix(unseen.count)) == unseen)
    }

    @Test("the bulk path ends a line at CR LF, at LF alone only where it returns the carriage, never at a CR alone")
    func bulkLineEnds() {
        func queue(_ tokens: [Token]) -> TokenQueue {
            var q = TokenQueue()
            for token in tokens { q.append(token) }
            return q
        }
        // "ab\r\n" then "c\r" + "d\n": the CR not followed by LF ends what is taken.
        let crlf: [Token] = [.text(start: 0, count: 2), .control(start: 2, byte: 0x0D), .control(start: 3, byte: 0x0A),
                             .text(start: 4, count: 1), .control(start: 5, byte: 0x0D), .text(start: 6, count: 1),
                             .control(start: 7, byte: 0x0A)]
        for bare in [true, false] {
            var q = queue(crlf)
            #expect(q.removeLines(clusterLimit: 100, byteLimit: 100, bareLineFeedEnds: bare).map { [$0.bytes.upperBound, $0.clusters] } == [4, 2])
            #expect(q.removeLines(clusterLimit: 100, byteLimit: 100, bareLineFeedEnds: bare) == nil)
        }
        // "ab\n": a line only where a LF alone returns the carriage (the tty's ONLCR).
        let lf: [Token] = [.text(start: 0, count: 2), .control(start: 2, byte: 0x0A)]
        var withONLCR = queue(lf), raw = queue(lf)
        #expect(withONLCR.removeLines(clusterLimit: 100, byteLimit: 100, bareLineFeedEnds: true)?.bytes == 0..<3)
        #expect(raw.removeLines(clusterLimit: 100, byteLimit: 100, bareLineFeedEnds: false) == nil)
        // A lone CR LF after a cluster.
        var cluster = queue([.cluster(start: 0, length: 2, width: 1, isCertain: true), .control(start: 2, byte: 0x0D),
                             .control(start: 3, byte: 0x0A)])
        #expect(cluster.removeLines(clusterLimit: 100, byteLimit: 100, bareLineFeedEnds: false) { _, _ in true }?.bytes == 0..<4)
    }

    @Test("a line whose cluster ends in ZWJ is not joined to the next read's bytes by the bulk path")
    func bulkStopsAtJoiner() {
        var queue = TokenQueue()
        queue.append(.text(start: 0, count: 2))
        queue.append(.cluster(start: 2, length: 2, width: 1, isCertain: true))  // é
        queue.append(.control(start: 4, byte: 0x0A))
        queue.append(.cluster(start: 5, length: 7, width: 2, isCertain: true))  // 🙂 + ZWJ
        queue.append(.control(start: 12, byte: 0x0A))
        let endsInJoiner: (Int, Int) -> Bool = { start, length in start + length == 12 }
        let taken = queue.removeLines(clusterLimit: 100, byteLimit: 100) { !endsInJoiner($0, $1) }
        #expect(taken.map { [$0.bytes.lowerBound, $0.bytes.upperBound, $0.clusters] } == [0, 5, 3])
        #expect(queue.removeLines(clusterLimit: 100, byteLimit: 100) { !endsInJoiner($0, $1) } == nil)
        // Without a cluster test, only runs of ASCII are taken.
        var ascii = TokenQueue()
        ascii.append(.text(start: 0, count: 2))
        ascii.append(.cluster(start: 2, length: 2, width: 1, isCertain: true))
        ascii.append(.control(start: 4, byte: 0x0A))
        #expect(ascii.removeLines(clusterLimit: 100, byteLimit: 100) == nil)
    }

    @Test("lines arriving in many reads settle to cat's screen and scrollback, each within the bound")
    func scrollAheadInPieces() {
        let input = Self.lines(1...4000) + Array("the end, no newline".utf8)
        let chunks = RenderHarness.chunks(input, cuts: Array(stride(from: 997, to: input.count, by: 1231)), delay: 0.004)
        let outcome = Self.driver(rows: 24).run(chunks)
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        #expect((outcome.quietAt ?? .infinity) <= outcome.lastInput + PacingEngine.defaultMaximumLag + 1.0 / 60)
        // Each read adds at most the fade of a screenful, whatever came before it.
        #expect(outcome.output.count - input.count <= chunks.count * 24 * 80)
    }

    @Test("long wrapped lines count as the rows they take: a single line of many rows")
    func scrollAheadWraps() {
        let input = Array(String(repeating: "0123456789", count: 800).utf8)  // 100 rows of 80, no newline
        let outcome = Self.driver(rows: 24).run([RenderHarness.Chunk(delay: 0.05, bytes: input)])
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        let first = outcome.frames[0].bytes
        #expect(first.count >= 76 * 80)  // all but the last screenful at once
        #expect(Self.fadeColours(first.prefix(76 * 80)).isEmpty)
        #expect(Self.fadeColours(outcome.output).count >= 8)
    }

    @Test("a barrier in the last screenful (cursor movement) keeps today's pacing before it")
    func barrierStopsScrollAhead() {
        let input = Self.lines(1...100) + Array("\(Self.esc)[5A".utf8) + Self.lines(1...3)
        let outcome = Self.driver(rows: 24).run([RenderHarness.Chunk(delay: 0.05, bytes: input)])
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        // Nothing was written ahead: the first frame is one frame's worth of typing.
        #expect(outcome.frames[0].bytes.count < 200)
    }

    @Test("rows unknown, or a strict typewriter (--max-lag inf): nothing is written ahead",
          arguments: [(Int?.none, PacingEngine.defaultMaximumLag), (Int?.some(24), Seconds.infinity)])
    func noScrollAhead(rows: Int?, lag: Seconds) {
        let input = Self.lines(1...60)
        var driver = Self.driver(rows: rows, maximumLag: lag)
        driver.configuration.charactersPerSecond = 200
        let outcome = driver.run([RenderHarness.Chunk(delay: 0.05, bytes: input)])
        #expect(outcome.frames[0].bytes.count < 120)
        // The first line faded.
        #expect(!Self.fadeColours(outcome.frames[0].bytes).isEmpty)
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        if lag.isInfinite {
            // 111 clusters and the fade width at 200 per second, every one typed.
            #expect((outcome.quietAt ?? 0) - outcome.lastInput >= 0.6)
        }
    }

    @Test("a flood of CR progress rewrites (nothing scrolls) settles within the bound, as cat shows it")
    func carriageReturnFlood() {
        var input: [UInt8] = []
        for i in 0..<20_000 { input += Array("progress \(i)/20000 [\(String(repeating: "#", count: i / 1000))]\r".utf8) }
        input += [0x0A]
        let chunks = RenderHarness.chunks(input, cuts: Array(stride(from: 4096, to: input.count, by: 4096)), delay: 0.001)
        let outcome = Self.driver(rows: 24).run(chunks)
        let screens = Self.screens(outcome.frames, input, rows: 24)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        #expect((outcome.quietAt ?? .infinity) <= outcome.lastInput + PacingEngine.defaultMaximumLag + 1.0 / 60)
    }

    @Test("every burst is settled by its deadline even when frames come late")
    func deadlineAfterLateFrames() {
        var renderer = FadeRenderer(configuration: Self.driver(rows: nil).configuration)
        let text = Array("one line that is typed at eighty characters per second\r".utf8)
        let clusters = text.count - 1
        var out: [UInt8] = []
        renderer.receive(text, at: 0)
        renderer.frame(at: 0, into: &out)
        // The writer was blocked: the next frame comes only at the first burst's deadline.
        renderer.receive(text, at: 0.5)
        let deadline = PacingEngine.defaultMaximumLag
        renderer.frame(at: deadline, into: &out)
        #expect(renderer.pacing.settledCount(front: renderer.pacing.front(at: deadline)) >= clusters)
        renderer.frame(at: 0.5 + deadline, into: &out)
        #expect(!renderer.isAnimating)
        var vt = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        vt.feed(out)
        var cat = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        cat.feed(text + text)
        #expect(vt.snapshot() == cat.snapshot(), "\(vt.diff(cat.snapshot()) ?? "")")
    }

    @Test("past the memory limit the oldest text is written at once, down to half the limit")
    func memoryLimit() {
        var configuration = Self.driver(rows: nil).configuration
        configuration.memoryBudget = MemoryBudget(bytes: 96 << 10)  // settles above 64 KiB
        var renderer = FadeRenderer(configuration: configuration)
        var input: [UInt8] = []
        for i in 0..<20_000 { input += Array("\(i % 10)\r".utf8) }
        renderer.receive(input, at: 0)
        #expect(renderer.pendingBytes > 64 << 10)
        var out: [UInt8] = []
        renderer.frame(at: 1.0 / 60, into: &out)
        #expect(renderer.pendingBytes <= 32 << 10)
        var time = 1.0 / 60
        while renderer.isAnimating && time < 5 {
            time += 1.0 / 60
            renderer.frame(at: time, into: &out)
        }
        #expect(time <= PacingEngine.defaultMaximumLag + 1.0 / 60)
        var vt = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        vt.feed(out)
        var cat = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        cat.feed(input)
        #expect(vt.snapshot() == cat.snapshot(), "\(vt.diff(cat.snapshot()) ?? "")")
    }

    @Test("a short line with its LF is one 16-byte entry: memory per byte close to the bytes")
    func tokenMemory() {
        var renderer = FadeRenderer(configuration: Self.driver(rows: nil).configuration)
        let input = Array(String(repeating: "ab\n", count: 100_000).utf8)
        renderer.receive(input, at: 0)
        #expect(renderer.pendingBytes <= input.count + 2 * 16 * 100_000)
        #expect(TokenQueue.bytesPerEntry == 16)
    }

    @Test("random streams on a short screen, written ahead often, settle to cat's screen within the bound",
          arguments: 0..<4)
    func randomStreamsWrittenAhead(shard: Int) {
        var failures: [String] = []
        for i in Swift.stride(from: shard, to: 60, by: 4) {
            let seed = UInt64(7_000 + i)
            var generator = StreamGenerator(seed: seed, families: Set(Family.allCases), forPyte: false)
            let spec = generator.stream(seed: seed)
            var driver = FidelityDriver(columns: spec.width, depth: spec.depth, cps: spec.cps, fade: spec.fade)
            driver.configuration.rows = 3
            let outcome = driver.run(spec.chunks, limitAfterInput: 30)
            guard outcome.finished else { failures.append("seed \(seed): not finished"); continue }
            if let quiet = outcome.quietAt, quiet > outcome.lastInput + driver.configuration.maximumLag + 2 * driver.framePeriod + 1e-9 {
                failures.append("seed \(seed): still animating \(quiet - outcome.lastInput) s after the last read")
            }
            for margin in VirtualTerminal.MarginConvention.allCases {
                let screens = Fidelity.screens(frames: outcome.frames.map(\.bytes), chunks: spec.chunks, columns: spec.width,
                                               margin: margin, rows: 3)
                if screens.typewrite != screens.cat { failures.append("seed \(seed) \(margin): \(screens.explanation)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
    }

    @Test("a resize gives the renderer the new height")
    func resizeRows() {
        var renderer = FadeRenderer(configuration: Self.driver(rows: nil).configuration)
        var out: [UInt8] = []
        renderer.resize(columns: 80, rows: 24, into: &out)
        let input = Self.lines(1...500)
        renderer.receive(input, at: 0)
        renderer.frame(at: 0, into: &out)
        #expect(out.count >= Self.lines(1...476).count)
    }
}
