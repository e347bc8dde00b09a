// The library as a Swift program uses it: `import TypewriteCore` without @testable, a manual
// frame timer instead of the wall clock, and a virtual terminal to read the screen.

import Foundation
import Testing
import TypewriteCore
import TerminalJudge

@Suite("Typewriter (public API)")
struct TypewriterTests {
    let timer = ManualFrameTimer()
    let recorder = Recorder()

    func terminalTypewriter(columns: Int = 80, rows: Int = 24, settings: Typewriter.Settings = .init(),
                            environment: [String: String] = colourTerminal) throws -> Typewriter {
        let recorder = self.recorder
        return try Typewriter(output: .terminal(columns: columns, rows: rows) { recorder.append($0) },
                              settings: settings, environment: environment, timer: timer)
    }

    @Test("deltas type in with a fade and settle to cat's screen")
    func deltas() async throws {
        let typewriter = try terminalTypewriter()
        #expect(typewriter.isAnimated)
        let text = "The tide goes out.\nAnemones close up, and snails tuck into crevices.\n"
        typewriter.write("The tide goes out.\nAnemones ")
        timer.advance(by: 0.1)
        let early = recorder.bytes
        #expect(!early.isEmpty)
        #expect(String(decoding: early, as: UTF8.self).contains("\u{1B}[38;2;"))  // fading
        #expect(recorder.screen() != catScreen(text))
        typewriter.write("close up, and snails tuck into crevices.\n")
        timer.advance(by: 3)
        typewriter.endInput()
        timer.advance(by: 1)
        try await typewriter.finish()
        #expect(recorder.screen() == catScreen(text))
        #expect(!timer.hasPending)  // idle: no more frames
    }

    @Test("each burst is spread over at most 1.5 s")
    func lagBound() throws {
        let typewriter = try terminalTypewriter()
        typewriter.write(String(repeating: "word ", count: 400))  // 2000 characters: 25 s at 80 cps
        timer.advance(by: 1.5)
        #expect(recorder.screen() == catScreen(String(repeating: "word ", count: 400)))
    }

    @Test("not a terminal: the bytes go through unchanged, at once")
    func passthrough() async throws {
        let recorder = self.recorder
        let typewriter = try Typewriter(output: .bytes { recorder.append($0) }, environment: colourTerminal, timer: timer)
        #expect(!typewriter.isAnimated)
        let pieces: [[UInt8]] = [Array("naïve ".utf8), [0xFF, 0x00, 0xE2], [0x82, 0xAC, 0x1B], Array("[31mred\n".utf8)]
        for piece in pieces { typewriter.write(bytes: piece) }
        #expect(recorder.bytes == pieces.flatMap { $0 })
        try await typewriter.finish()
        #expect(recorder.bytes == pieces.flatMap { $0 })
        #expect(!timer.hasPending)
    }

    @Test("reduced motion and NO_COLOR decide as the command line does")
    func environmentDecides() throws {
        var reduced = colourTerminal
        reduced["REDUCED_MOTION"] = "1"
        #expect(try !terminalTypewriter(environment: reduced).isAnimated)
        var settings = Typewriter.Settings()
        settings.reduceMotion = true
        #expect(try !terminalTypewriter(settings: settings).isAnimated)
        var noColor = colourTerminal
        noColor["NO_COLOR"] = "1"
        let typewriter = try terminalTypewriter(environment: noColor)
        typewriter.write("plain\n")
        timer.advance(by: 2)
        #expect(!recorder.bytes.contains(0x1B))  // paced, but no escape sequences of its own
        #expect(recorder.bytes == Array("plain\n".utf8))
    }

    @Test("invalid settings are thrown errors", arguments: [
        (0.0, 10.0), (-5, 10), (.nan, 10), (.infinity, 10), (80, -1), (80, .nan), (80, 1e20), (1e13, 10),
    ] as [(Double, Double)])
    func invalidSettings(cps: Double, fade: Double) {
        var settings = Typewriter.Settings()
        settings.charactersPerSecond = cps
        settings.fadeWidth = fade
        #expect(throws: TypewriteError.self) { try Typewriter(output: .bytes { _ in }, settings: settings, timer: timer) }
    }

    @Test("snapshots that grow type in only what is new")
    func growingSnapshots() async throws {
        let typewriter = try terminalTypewriter()
        #expect(typewriter.show(snapshot: "Tide pools") == .extended)
        timer.advance(by: 0.4)
        #expect(typewriter.show(snapshot: "Tide pools") == .unchanged)
        #expect(typewriter.show(snapshot: "Tide pools hold water") == .extended)
        timer.advance(by: 0.4)
        #expect(typewriter.show(snapshot: "Tide pools hold water.\n") == .extended)
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen() == catScreen("Tide pools hold water.\n"))
    }

    @Test("through a pipe, growing snapshots give exactly the last one")
    func snapshotsThroughAPipe() async throws {
        let recorder = self.recorder
        let typewriter = try Typewriter(output: .bytes { recorder.append($0) }, environment: colourTerminal, timer: timer)
        for snapshot in ["A", "A tide", "A tide pool", "A tide pool.\n"] { typewriter.show(snapshot: snapshot) }
        try await typewriter.finish()
        #expect(recorder.bytes == Array("A tide pool.\n".utf8))
    }

    @Test("a snapshot that replaces the end of the current row restarts where they differ")
    func replacedWithinRow() async throws {
        let typewriter = try terminalTypewriter()
        typewriter.show(snapshot: "The answer is forty-one")
        timer.advance(by: 0.2)  // still typing
        #expect(typewriter.show(snapshot: "The answer is 42") == .rewritten(offset: 14))
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen() == catScreen("The answer is 42"))
    }

    @Test("a snapshot that replaces a row above the cursor, still on screen, rewrites it in place")
    func replacedAbove() async throws {
        let typewriter = try terminalTypewriter(columns: 20, rows: 10)
        let first = "First line.\nSecond line that wraps past twenty.\nThird.\n"
        typewriter.show(snapshot: first)
        timer.advance(by: 2)
        let second = "First line.\nSecond row, replaced.\nThird!\n"
        #expect(typewriter.show(snapshot: second) == .rewritten(offset: 19))
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen(columns: 20, rows: 10) == catScreen(second, columns: 20, rows: 10))
    }

    @Test("markdown: a snapshot that rewrites its tail is highlighted as continuing the text kept",
          arguments: [("a **b c", "a **b** c\n"), ("a **b c and more\n", "a **b** c\n"),
                      ("Title line\nmore", "Title line\n===\n"), ("| a | b |\nx", "| a | b |\n|---|---|\n| 1 | 2 |\n")])
    func markdownSnapshotRewrite(first: String, second: String) async throws {
        var settings = Typewriter.Settings()
        settings.markdown = .always
        let typewriter = try terminalTypewriter(settings: settings)
        typewriter.show(snapshot: first)
        timer.advance(by: 2)
        typewriter.show(snapshot: second)
        timer.advance(by: 2)
        try await typewriter.finish()
        // What cat of the final text with each run in its final style shows.
        var reference: [UInt8] = []
        let bytes = Array(second.utf8)
        for run in MarkdownHighlighter.styles(of: bytes) {
            let sgr = MarkdownAppearance.parameters(for: run.style)
            reference += Array("\u{1B}[0m".utf8) + (sgr.isEmpty ? [] : Array("\u{1B}[\(sgr)m".utf8)) + bytes[run.range]
        }
        reference += Array("\u{1B}[0m".utf8)
        #expect(recorder.screen() == catScreen(String(decoding: reference, as: UTF8.self)))
    }

    @Test("a snapshot that replaces everything from its first byte rewrites it in place")
    func replacedFromTheStart() async throws {
        let typewriter = try terminalTypewriter()
        typewriter.show(snapshot: "abc")
        timer.advance(by: 2)
        #expect(typewriter.show(snapshot: "xyz") == .rewritten(offset: 0))
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen() == catScreen("xyz"))
    }

    @Test("a replaced row that has scrolled off is not rewritten: the line is written again below")
    func replacedOffScreen() async throws {
        let typewriter = try terminalTypewriter(columns: 20, rows: 4)
        let first = "one\ntwo\nthree\nfour\nfive\nsix\n"
        typewriter.show(snapshot: first)
        timer.advance(by: 2)
        #expect(typewriter.show(snapshot: "one\nTWO\nthree\n") == .appendedBelow(lineStart: 4))
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen(columns: 20, rows: 4) == catScreen(first + "TWO\nthree\n", columns: 20, rows: 4))
    }

    @Test("rows that scrolled away while the text was longer are not rewritten after it shrank")
    func replacedAfterShrinking() async throws {
        // Found by the snapshot fuzzer: 4 rows on a 3-row screen scrolled the first away; a
        // replacement then shortened the text to 2 rows; a third snapshot changed the first row.
        let typewriter = try terminalTypewriter(columns: 8, rows: 3)
        let snapshots = ["ThLLLLLLLLLLLeinXXX@XXforty", "ThLLLLLLLLL)d", "ThLL XXXX\n"]
        #expect(typewriter.show(snapshot: snapshots[0]) == .extended)
        timer.advance(by: 1)
        #expect(typewriter.show(snapshot: snapshots[1]) == .rewritten(offset: 11))
        timer.advance(by: 1)
        #expect(typewriter.show(snapshot: snapshots[2]) == .appendedBelow(lineStart: 0))
        timer.advance(by: 2)
        try await typewriter.finish()
        let screen = recorder.screen(columns: 8, rows: 3)
        #expect(Array(screen.lines.suffix(2)).map(VirtualTerminal.lineText) == ["ThLL XXX", "X"])
    }

    @Test("a wide character that wrapped, replaced by one that fits, restarts where the cursor stood")
    func replacedWideWrap() async throws {
        // Found by the snapshot fuzzer: 本 did not fit in the last column and wrapped; the new
        // text puts a space there instead.
        let typewriter = try terminalTypewriter(columns: 8, rows: 24)
        typewriter.show(snapshot: "abcdefg本 tail")
        timer.advance(by: 1)
        #expect(typewriter.show(snapshot: "abcdefg 42\nnext") == .rewritten(offset: 7))
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen(columns: 8).text == catScreen("abcdefg 42\nnext", columns: 8).text)
    }

    @Test("a replacement across text of uncertain width is written again below")
    func replacedAcrossUncertainWidth() async throws {
        let typewriter = try terminalTypewriter()
        typewriter.show(snapshot: "flags 🇺🇸 here")
        timer.advance(by: 2)
        #expect(typewriter.show(snapshot: "flags 🇺🇸 there") == .appendedBelow(lineStart: 0))
        timer.advance(by: 2)
        try await typewriter.finish()
        #expect(recorder.screen() == catScreen("flags 🇺🇸 here\nflags 🇺🇸 there"))
    }

    @Test("cancellation mid-fade writes everything settled and resets the colours")
    func cancelMidFade() async throws {
        let typewriter = try terminalTypewriter()
        let text = "\u{1B}[32mgreen text that is still typing\u{1B}]8;;https://example.com\u{1B}\\link"
        typewriter.write(text)
        timer.advance(by: 0.1)
        typewriter.cancel()
        let output = String(decoding: recorder.bytes, as: UTF8.self)
        #expect(output.hasSuffix("\u{1B}]8;;\u{1B}\\\u{1B}[0m"))  // hyperlink closed, then the pen reset
        var cat = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        cat.feed(text + "\u{1B}]8;;\u{1B}\\\u{1B}[0m")
        #expect(recorder.screen() == cat.snapshot())
        typewriter.write("ignored")
        try await typewriter.finish()  // returns at once
        #expect(!String(decoding: recorder.bytes, as: UTF8.self).contains("ignored"))
        #expect(!timer.hasPending)
    }

    @Test("cancelling the task that streams cancels the typing, and nothing hangs")
    func taskCancellation() async throws {
        let typewriter = try terminalTypewriter()
        let (chunks, continuation) = AsyncStream.makeStream(of: String.self)
        continuation.yield("a stream that never ends")
        let task = Task { try await typewriter.stream(chunks) }
        // Wait (on the task, not the clock) until the first chunk has been taken.
        while recorder.bytes.isEmpty && timer.hasPending == false { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        timer.advance(by: 5)
        #expect(recorder.screen().text == "a stream that never ends")
        continuation.finish()
    }

    @Test("a sequence that throws: everything received is written settled before the error comes out")
    func throwingSequence() async throws {
        struct Broken: Error {}
        let typewriter = try terminalTypewriter()
        let chunks = AsyncThrowingStream<String, any Error> { continuation in
            continuation.yield("Line 1: the start\nLine 2: more")
            continuation.finish(throwing: Broken())
        }
        await #expect(throws: Broken.self) { try await typewriter.stream(chunks) }
        #expect(recorder.screen() == catScreen("Line 1: the start\nLine 2: more\u{1B}[0m"))
    }

    @Test("stream from the main actor with a non-Sendable closure (compiles in Swift 6) delivers the snapshots")
    func streamFromTheMainActor() async throws {
        // Plain output (bytes, not a terminal): nothing waits on the frame timer, and growing
        // snapshots come out as exactly the last one.
        let recorder = self.recorder
        let typewriter = try Typewriter(output: .bytes { recorder.append($0) }, timer: timer)
        let (stream, continuation) = AsyncStream.makeStream(of: Snap.self)
        for snapshot in ["Low", "Low tide", "Low tide.\n"] { continuation.yield(Snap(content: snapshot)) }
        continuation.finish()
        try await streamOnMainActor(typewriter, stream)
        #expect(recorder.bytes == Array("Low tide.\n".utf8))
    }

    @Test("an AsyncSequence of snapshots streams in one call")
    func streamOfSnapshots() async throws {
        let typewriter = try terminalTypewriter()
        let snapshots = ["Low", "Low tide", "Low tide.\n"]
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        for snapshot in snapshots { continuation.yield(snapshot) }
        continuation.finish()
        let timer = self.timer
        // Time runs on a helper task until the stream has finished: finish() waits for settling.
        let clock = Task { while !Task.isCancelled { timer.advance(by: 0.05); await Task.yield() } }
        try await typewriter.stream(stream, as: .snapshots)
        clock.cancel()
        #expect(recorder.screen() == catScreen("Low tide.\n"))
    }

    @Test("decoded streams: Settings.format turns a model's wire bytes into its answer")
    func decodedStream() async throws {
        let recorder = self.recorder
        var settings = Typewriter.Settings()
        settings.format = .sse
        let typewriter = try Typewriter(output: .bytes { recorder.append($0) }, settings: settings, timer: timer)
        let wire = """
            data: {"choices":[{"delta":{"content":"Hel"}}]}

            data: {"choices":[{"delta":{"content":"lo"}}]}

            data: [DONE]


            """
        for byte in wire.utf8 { typewriter.write(bytes: [byte]) }
        try await typewriter.finish()
        #expect(recorder.bytes == Array("Hello".utf8))
    }

    @Test("a stream's error is thrown by finish, the text before it kept")
    func streamError() async throws {
        let recorder = self.recorder
        var settings = Typewriter.Settings()
        settings.format = .sse
        let typewriter = try Typewriter(output: .bytes { recorder.append($0) }, settings: settings, timer: timer)
        typewriter.write("data: {\"choices\":[{\"delta\":{\"content\":\"Partial\"}}]}\n\nevent: error\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n")
        await #expect(throws: TypewriteError.remoteError(message: "overloaded")) { try await typewriter.finish() }
        #expect(recorder.bytes == Array("Partial".utf8))
    }
}

/// A snapshot element as Foundation Models gives them (`ResponseStream.Snapshot` has `content`).
struct Snap: Sendable { var content: String }

@MainActor
func streamOnMainActor(_ typewriter: Typewriter, _ stream: AsyncStream<Snap>) async throws {
    try await typewriter.stream(stream, as: .snapshots) { $0.content }
}
