// The library's promises about cancellation, memory and its output, as a client sees them: each
// test drives the public API with a manual frame timer; nothing sleeps on the wall clock (the
// time limits only stop a test that would otherwise hang).

import Foundation
import Testing
import TypewriteCore

@Suite("Typewriter contracts", .timeLimit(.minutes(1)))
struct TypewriterContractTests {
    let timer = ManualFrameTimer()
    let recorder = Recorder()

    func terminalTypewriter(settings: Typewriter.Settings = .init()) throws -> Typewriter {
        let recorder = self.recorder
        return try Typewriter(output: .terminal(columns: 80, rows: 24) { recorder.append($0) },
                              settings: settings, environment: colourTerminal, timer: timer)
    }

    @Test("cancel() ends stream(_:) for a source that never stops yielding")
    func cancelEndlessSource() async throws {
        let typewriter = try terminalTypewriter()
        let source = EndlessSource(chunk: "more text ")
        let task = Task { try await typewriter.stream(source) }
        while source.pulled < 10 { await Task.yield() }
        typewriter.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(recorder.screen().text.hasPrefix("more text more text"))
        #expect(String(decoding: recorder.bytes, as: UTF8.self).hasSuffix("\u{1B}[0m"))
    }

    @Test("cancel() ends stream(_:) for a source that yields once and then is silent")
    func cancelSilentSource() async throws {
        let typewriter = try terminalTypewriter()
        let (chunks, continuation) = AsyncStream.makeStream(of: String.self)
        continuation.yield("one chunk, then nothing")
        let task = Task { try await typewriter.stream(chunks) }
        while recorder.bytes.isEmpty && !timer.hasPending { await Task.yield() }
        typewriter.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(recorder.screen().text == "one chunk, then nothing")
        continuation.finish()
    }

    @Test("cancel() ends stream(_:) even when the source ignores cancellation")
    func cancelStubbornSource() async throws {
        let typewriter = try terminalTypewriter()
        let source = StubbornSource()
        let task = Task { try await typewriter.stream(source) }
        while !source.isWaiting { await Task.yield() }
        typewriter.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        source.release()
    }

    @Test("cancelling the task ends stream(_:) for a silent source")
    func taskCancellationSilentSource() async throws {
        let typewriter = try terminalTypewriter()
        let source = StubbornSource()
        let task = Task { try await typewriter.stream(source) }
        while !source.isWaiting { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        source.release()
    }

    @Test("strict pacing: stream(_:) asks for a chunk only when the text held is within the budget")
    func backPressure() async throws {
        var settings = Typewriter.Settings()
        settings.maximumLag = .infinity
        settings.memoryBudget = 1 << 20
        let typewriter = try terminalTypewriter(settings: settings)
        let source = EndlessSource(chunk: String(repeating: "x", count: 64 << 10))
        let task = Task { try await typewriter.stream(source) }
        // Let the stream take all it will without any time passing (no frame shows anything).
        var stable = 0, last = -1
        while stable < 200 {
            await Task.yield()
            if source.pulled == last { stable += 1 } else { stable = 0; last = source.pulled }
        }
        // Held text is the input bytes and their tokens: at most the budget plus one chunk.
        #expect(source.pulled >= 1 && source.pulled <= 18, "pulled \(source.pulled) chunks of 64 KiB with a 1 MiB budget")
        // Time passes: the text types in and the stream asks for more.
        let before = source.pulled
        timer.advance(by: 60)
        for _ in 0..<200 { await Task.yield() }
        #expect(source.pulled >= before)
        typewriter.cancel()
        _ = try? await task.value
    }

    @Test("the synchronous write never holds more than the budget: the oldest text is written at once")
    func writeFlood() throws {
        var settings = Typewriter.Settings()
        settings.memoryBudget = 1 << 20
        let typewriter = try terminalTypewriter(settings: settings)
        let piece = String(repeating: "0123456789abcdef\n", count: 4096)  // 68 KiB
        for _ in 0..<64 { typewriter.write(piece) }  // 4.25 MiB, no time passing
        // All but about the budget's worth is already on the screen (written settled).
        let written = recorder.bytes.count
        #expect(written >= 64 * piece.utf8.count - (1 << 20), "only \(written) bytes written")
        typewriter.cancel()
    }

    @Test("with strict pacing the synchronous write applies the flood rule too")
    func writeFloodStrict() throws {
        var settings = Typewriter.Settings()
        settings.maximumLag = .infinity
        settings.memoryBudget = 1 << 20
        let typewriter = try terminalTypewriter(settings: settings)
        let piece = String(repeating: "0123456789abcdef\n", count: 4096)
        for _ in 0..<64 { typewriter.write(piece) }
        #expect(recorder.bytes.count >= 64 * piece.utf8.count - (1 << 20))
        typewriter.cancel()
    }

    @Test("write(waitingForRoom:) waits while the text held is over the budget")
    func asyncWriteWaits() async throws {
        var settings = Typewriter.Settings()
        settings.maximumLag = .infinity
        settings.memoryBudget = 64 << 10
        let typewriter = try terminalTypewriter(settings: settings)
        await typewriter.write(waitingForRoom: String(repeating: "y", count: 200 << 10))  // room: it goes in, past the budget
        let done = Flag()
        let task = Task {
            await typewriter.write(waitingForRoom: "z")
            done.set()
        }
        for _ in 0..<200 { await Task.yield() }
        #expect(!done.isSet)
        typewriter.cancel()  // room for everyone: the typewriter is done
        await task.value
        #expect(done.isSet)
    }

    @Test("a sink's own error comes out of finish() as the underlying error")
    func sinkError() async throws {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
        let typewriter = try Typewriter(output: .bytes { _ in throw DiskFull() }, timer: timer)
        typewriter.write("text")
        do {
            try await typewriter.finish()
            Issue.record("finish() did not throw")
        } catch let error as TypewriteError {
            guard case .sinkFailed(let failure) = error else { Issue.record("got \(error)"); return }
            #expect(failure.underlying is DiskFull)
            #expect(error.description == "write error: disk full")
        }
    }

    @Test("a slow sink delays only the call writing to it: others queue their text and return")
    func writesOutsideTheLock() throws {
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let recorder = self.recorder
        let first = Flag()
        let typewriter = try Typewriter(output: .bytes { bytes in
            if !first.isSet { first.set(); entered.signal(); gate.wait() }
            recorder.append(bytes)
        }, timer: timer)
        let writer = Thread { typewriter.write("first ") }
        writer.start()
        entered.wait()  // the first write is inside the sink, blocked
        typewriter.write("second")  // returns: its text is queued behind the first
        #expect(recorder.bytes.isEmpty)
        gate.signal()
        while recorder.bytes.count < 12 { usleep(1000) }
        #expect(String(decoding: recorder.bytes, as: UTF8.self) == "first second")
    }

    @Test("resize(columns:rows:) on a terminal sink: the text goes on and settles to cat's screen")
    func resize() async throws {
        let typewriter = try terminalTypewriter()
        typewriter.write("a line that is typing in")
        timer.advance(by: 0.1)
        typewriter.resize(columns: 60, rows: 20)
        typewriter.write(", and more after the resize\n")
        timer.advance(by: 5)
        try await typewriter.finish()
        #expect(recorder.screen().text == "a line that is typing in, and more after the resize")
    }
}

/// A source that always has a chunk ready, counting the chunks taken.
final class EndlessSource: AsyncSequence, @unchecked Sendable {
    // @unchecked: `count` is only touched while holding `lock`.
    typealias Element = String
    let chunk: String
    private let lock = NSLock()
    private var count = 0

    init(chunk: String) { self.chunk = chunk }

    var pulled: Int { lock.withLock { count } }

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: EndlessSource
        mutating func next() async -> String? {
            source.lock.withLock { source.count += 1 }
            await Task.yield()
            return source.chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

/// A source whose `next()` waits for `release()`, ignoring cancellation (a model that went silent
/// behind a library that does not check for it).
final class StubbornSource: AsyncSequence, @unchecked Sendable {
    // @unchecked: `waiting` and `released` are only touched while holding `lock`.
    typealias Element = String
    private let lock = NSLock()
    private var waiting: CheckedContinuation<Void, Never>?
    private var released = false

    var isWaiting: Bool { lock.withLock { waiting != nil } }

    func release() {
        let continuation: CheckedContinuation<Void, Never>? = lock.withLock {
            released = true
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume()
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: StubbornSource
        mutating func next() async -> String? {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = source.lock.withLock {
                    if source.released { return true }
                    source.waiting = continuation
                    return false
                }
                if now { continuation.resume() }
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
