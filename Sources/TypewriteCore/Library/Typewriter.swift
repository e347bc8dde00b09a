import Dispatch
import Foundation

/// Types text onto a terminal the way the `typewrite` command does, from inside a Swift program:
/// each burst of text is spread over 0.15–1.5 s at 80 grapheme clusters per second, and every
/// new character fades in from the background over a soft edge about ten characters wide
/// (`docs/design.md#pacing`, `docs/design.md#the-soft-edge`). Once the fade settles, the screen is
/// exactly what writing the text straight to the terminal would have left. When the output is not
/// a terminal (or the environment asks for reduced motion) the text goes through at once, byte
/// for byte.
///
/// Feed it **deltas** (`write`), **snapshots** of the whole text so far (`show(snapshot:)`,
/// `docs/design.md#snapshots-and-deltas`), or a whole `AsyncSequence` of either (`stream`); then
/// `finish()` waits until everything is settled, and `cancel()` (or cancelling the task) writes
/// everything received at once, settled, with the colours reset.
///
/// It reads nothing from the terminal and installs no signal handlers: the host may be using
/// both. A host that wants Control-C to leave a clean screen calls `cancel(forKey:)` from its own
/// handler; one that sees the terminal resized calls `resize(columns:rows:)`. Writing to a closed
/// pipe raises SIGPIPE as any write would, unless the host ignores it (then `finish()` throws
/// `TypewriteError.brokenPipe`).
///
/// Memory: it holds at most `Settings.memoryBudget` of text received and not yet shown, plus a
/// quarter of that in output the sink has not taken. `stream(_:)` and `write(waitingForRoom:)` wait
/// for room; the synchronous `write(_:)` never waits for the pacing: past the budget it writes the
/// oldest text at once, settled, and may then wait for a slow sink rather than hold more.
///
/// Thread safety: every method may be called from any thread or task. The typewriter's state is
/// kept under a lock; output is written outside it, in order, by whichever caller (or frame)
/// finds the sink idle, so a slow sink delays only that writer, never other callers' bookkeeping.
public final class Typewriter: @unchecked Sendable {
    // @unchecked: every stored property is immutable or accessed only while holding `lock`
    // (`drained` is an NSCondition used with `lock` held), so instances are safe to share.

    /// What the text is, for `stream(_:as:)`.
    public enum Chunks: Sendable {
        /// Each element is new text appended to what came before.
        case deltas
        /// Each element is the whole text so far.
        case snapshots
    }

    private let lock = NSCondition()
    private let output: TypewriterOutput
    private let timer: any FrameTimer
    private let movesCursor: Bool
    private let budget: MemoryBudget
    private var session: Session
    private var snapshots = SnapshotStage()
    private var lastColumns: Int?
    private var scheduled: Seconds?
    private var failure: TypewriteError?
    private var reported: [TypewriteError] = []
    private var cancelled = false
    /// Output not yet taken by the sink, in order, and who is writing it.
    private var queue: [ArraySlice<UInt8>] = []
    private var queueHead = 0
    private var queuedBytes = 0
    private var writing = false
    /// Callers waiting for everything to settle (`finish`), and for room (`write(waitingForRoom:)`, `stream`).
    private var finishWaiters: [CheckedContinuation<Void, any Error>] = []
    private var roomWaiters: [CheckedContinuation<Void, Never>] = []
    /// `stream` calls under way, by number: their end (or cancellation) resumes them.
    private var streams: [Int: StreamCall] = [:]
    private var nextStream = 0

    private struct StreamCall {
        var waiter: CheckedContinuation<Void, any Error>?
        var result: Result<Void, any Error>?
        var task: Task<Void, Never>?
    }

    /// - Parameters:
    ///   - output: where the bytes go; standard output by default.
    ///   - settings: speed, fade and the decisions the command line's options make.
    ///   - environment: the environment the decisions read (`NO_COLOR`, `TERM`, `COLORTERM`,
    ///     `COLORFGBG`, `REDUCED_MOTION`, `COLUMNS`, the locale); the process's by default.
    ///   - timer: the clock and timer for frames; a Dispatch timer on the monotonic clock by default.
    /// - Throws: `TypewriteError.invalidSetting` for a setting out of range.
    public init(output: TypewriterOutput = .standardOutput, settings: Settings = Settings(),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                timer: (any FrameTimer)? = nil) throws(TypewriteError) {
        try settings.validate()
        self.output = output
        self.timer = timer ?? DispatchFrameTimer()
        let size = output.terminalSize
        let capabilities = TerminalCapabilities(environment: environment, outputIsTerminal: size != nil,
                                                animate: settings.animate, color: settings.color,
                                                reduceMotion: settings.reduceMotion)
        // A recording (animated into something that is not a terminal) assumes COLUMNS cells.
        let geometry = TerminalGeometry(columns: size?.columns ?? environment["COLUMNS"].flatMap { Int($0) } ?? 80,
                                        rows: size?.rows, newlineReturnsCarriage: output.translatesNewline)
        let sessionSettings = SessionSettings(settings, capabilities: capabilities, terminal: geometry,
                                              outputIsTerminal: size != nil)
        movesCursor = capabilities.animates && size != nil && capabilities.colorDepth != .none && geometry.newlineReturnsCarriage
        budget = sessionSettings.memoryBudget
        lastColumns = size?.columns
        session = Session(settings: sessionSettings)
    }

    /// Whether the text is animated (false: plain text, at once).
    public var isAnimated: Bool { locked { session.isAnimated } }

    // MARK: Deltas

    /// Appends `text` (a delta) to what is typing in. Never waits for the pacing: past the memory
    /// budget the oldest text is written at once, settled, and the call may then wait for a slow
    /// sink.
    public func write(_ text: some StringProtocol) {
        write(bytes: text.utf8)
    }

    /// Appends bytes as they arrived (any split, even inside a UTF-8 sequence or an escape
    /// sequence); with `Settings.format` other than `.raw`, they are a wire stream to decode. As
    /// `write(_:)`.
    public func write(bytes: some Sequence<UInt8>) {
        receive(Array(bytes), relieving: true)
    }

    /// Takes `bytes`; with `relieving`, past the budget the oldest text is written at once,
    /// settled (the flood rule), frame by frame.
    private func receive(_ bytes: [UInt8], relieving: Bool) {
        var over = false
        update { out in
            guard !cancelled else { return }
            session.receive(bytes, at: timer.now(), into: &out)
            over = relieving && session.heldBytes > budget.heldText
        }
        waitForSink()
        // One frame at a time, each written out before the next, so the output never piles up.
        while over {
            update { out in
                guard !cancelled, failure == nil, session.heldBytes > budget.heldText else { over = false; return }
                let before = session.heldBytes
                session.relieveMemory(at: timer.now(), into: &out)
                over = session.heldBytes < before && session.heldBytes > budget.heldText
            }
            waitForSink()
        }
    }

    /// Appends `text` (a delta) once the text held is within the memory budget, suspending until
    /// then: for a host that wants strict pacing (`maximumLag = .infinity`) with bounded memory, or
    /// never to block its own loop. Returns at once after `cancel()`. (A label of its own, so a
    /// synchronous `write(_:)` in async code stays synchronous.)
    public func write(waitingForRoom text: some StringProtocol) async {
        await waitForRoom()
        receive(Array(text.utf8), relieving: false)
    }

    // MARK: Snapshots

    /// Shows `snapshot`, the whole text so far (`docs/design.md#snapshots-and-deltas`: Foundation
    /// Models streams snapshots). Snapshots are compared with the previous snapshot only: use either
    /// snapshots or deltas (`write`) with one typewriter, not both. After `finish()` or `cancel()`
    /// nothing more is shown.
    /// What extends the previous snapshot types in. Text that was replaced restarts from where
    /// the two differ when that place is still on screen and every row between it and the cursor
    /// has certain geometry; otherwise history is not rewritten and the text from the start of
    /// the line where the change begins is written again below.
    /// - Returns: which of these happened.
    @discardableResult
    public func show(snapshot: some StringProtocol) -> SnapshotUpdate {
        let bytes = Array(snapshot.utf8)
        var result = SnapshotUpdate.unchanged
        update { out in
            guard !cancelled else { return }
            let size = output.terminalSize  // re-read: a resize makes the old rows uncertain
            if let size, session.isAnimated, size.columns != lastColumns { resizeLocked(size.columns, size.rows, into: &out) }
            let terminal = SnapshotStage.Terminal(movesCursor: movesCursor, columns: size?.columns, rows: size?.rows)
            let (text, update, needsSettling) = snapshots.update(to: bytes, terminal: terminal)
            let now = timer.now()
            if needsSettling { session.settleNow(at: now, into: &out) }
            // The moves before a rewritten tail (or the LF before a line written again below)
            // are not text of the answer.
            switch update {
            case .rewritten(let offset):
                session.restartMarkdown(after: bytes[..<offset], skipping: text.count - (bytes.count - offset))
            case .appendedBelow(let lineStart):
                session.restartMarkdown(after: bytes[..<lineStart], skipping: text.count - (bytes.count - lineStart))
            default: break
            }
            if !text.isEmpty { session.receive(text, at: now, into: &out) }
            result = update
        }
        waitForSink()
        return result
    }

    // MARK: Streams

    /// Types a whole sequence of text chunks, then waits until everything is settled. The next
    /// chunk is asked for only when the text held is within the memory budget, so a source that
    /// always has text ready is paced, not drained.
    ///
    /// `cancel()`, or cancelling the task, ends it within a frame whatever the source is doing
    /// (yielding, silent, never finishing): everything received is written at once, settled, and
    /// `stream` throws `CancellationError`; the source's iteration is cancelled and left behind.
    /// An error from the sequence does the same, then is thrown: the screen is never left half
    /// faded.
    /// - Parameter isolation: the caller's actor (by default), where the sequence is iterated, so
    ///   a `@MainActor` caller can pass its own non-`Sendable` sequence.
    /// - Throws: what the sequence throws, `CancellationError`, or a `TypewriteError` from the output.
    public func stream<S: AsyncSequence>(_ chunks: S, as kind: Chunks = .deltas,
                                         isolation: isolated (any Actor)? = #isolation) async throws where S.Element: StringProtocol {
        try await stream(chunks, as: kind, isolation: isolation) { $0 }
    }

    /// Types a sequence whose elements hold text (Foundation Models' `ResponseStream` snapshots:
    /// `{ $0.content }`), then waits until everything is settled; as `stream(_:as:)`.
    public func stream<S: AsyncSequence, T: StringProtocol>(_ chunks: S, as kind: Chunks, isolation: isolated (any Actor)? = #isolation,
                                                           text: @escaping (S.Element) -> T) async throws {
        let id = locked { () -> Int in nextStream += 1; streams[nextStream] = StreamCall(); return nextStream }
        // The source is iterated in a task of its own, on the caller's actor, so that a source
        // that never yields cannot keep `stream` from returning after `cancel()`.
        let iteration = Task {
            _ = isolation
            var outcome: Result<Void, any Error> = .success(())
            do {
                for try await chunk in chunks {
                    await self.waitForRoom()
                    try Task.checkCancellation()
                    if self.isCancelled { break }
                    switch kind {
                    case .deltas: self.receive(Array(text(chunk).utf8), relieving: false)
                    case .snapshots: self.show(snapshot: text(chunk))
                    }
                }
            } catch {
                outcome = .failure(error)
            }
            self.endStream(id, outcome)
        }
        locked { streams[id]?.task = iteration }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    locked {
                        if cancelled {
                            continuation.resume(throwing: CancellationError())
                            streams[id] = nil
                        } else if let result = streams[id]?.result {
                            continuation.resume(with: result)
                            streams[id] = nil
                        } else {
                            streams[id]?.waiter = continuation
                        }
                    }
                }
            } onCancel: {
                self.cancel()
            }
        } catch {
            iteration.cancel()
            cancel()
            throw error
        }
        try await finish()
    }

    /// The iteration of stream `id` ended with `result`.
    private func endStream(_ id: Int, _ result: Result<Void, any Error>) {
        locked {
            guard var call = streams[id] else { return }
            if let waiter = call.waiter {
                waiter.resume(with: result)
                streams[id] = nil
            } else {
                call.result = result
                streams[id] = call
            }
        }
    }

    private var isCancelled: Bool { locked { cancelled } }

    // MARK: Ending

    /// No more text will come: what the stages still hold (an incomplete sequence) is shown.
    /// `finish()` does this too.
    public func endInput() {
        update { out in session.endOfInput(at: timer.now(), into: &out) }
    }

    /// Ends the input and waits until everything is shown and settled, with the cursor where
    /// writing the text straight out would have left it. Cancelling the task cancels the typing.
    /// - Throws: `TypewriteError` when the output failed (`.brokenPipe`, `.outputFailed`,
    ///   `.sinkFailed`), the stream reported an error (`.remoteError`), or it held a malformed
    ///   event; `CancellationError`.
    public func finish() async throws {
        endInput()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                locked {
                    if isSettled || cancelled || failure != nil {
                        continuation.resume(with: result)
                    } else {
                        finishWaiters.append(continuation)
                    }
                }
            }
        } onCancel: {
            self.cancel()
        }
        try Task.checkCancellation()
    }

    /// Stops typing: everything received is written at once, settled; colours are reset and an
    /// open hyperlink closed. Later text is ignored; `finish()` returns at once, `stream` throws
    /// `CancellationError`.
    public func cancel() {
        cancel(echo: nil, resetting: true)
    }

    /// Stops typing for a signal a key on the terminal sent (`SIGINT` for Control-C, `SIGQUIT`),
    /// as the command does before it dies by the signal: where the output is the controlling
    /// terminal and its mode echoes control characters (ISIG, ECHO, ECHOCTL), the tty has already
    /// echoed the key (`^C`) where the text ended; the text still held goes there, and the echo
    /// after it, where `cat` would have shown it (`docs/terminals.md#the-ttys-echo`). The terminal
    /// is left in the input's own colours, as `cat` leaves it. Call it from the host's signal
    /// handling for a key, then exit; for a signal from elsewhere (`kill`), `cancel()`.
    ///
    /// From a `DispatchSource` signal source on a global queue, in Swift 6 top-level code, make
    /// the handler `@Sendable` (`setEventHandler { @Sendable in … }`): a closure written there is
    /// otherwise isolated to the main actor, and the runtime traps (SIGILL) when Dispatch runs it
    /// on another queue. The README's "Use it from Swift" has the whole program.
    public func cancel(forKey signal: Int32) {
        cancel(echo: output.keyEcho(for: signal), resetting: false)
    }

    private func cancel(echo: KeyEcho?, resetting: Bool) {
        update { out in
            guard !cancelled else { return }
            cancelled = true
            session.cancel(at: timer.now(), echo: echo, resetting: resetting, into: &out)
            timer.cancel()
            scheduled = nil
            for (id, call) in streams {
                call.task?.cancel()
                if let waiter = call.waiter {
                    waiter.resume(throwing: CancellationError())
                    streams[id] = nil
                }
            }
        }
    }

    /// The terminal is now `columns` × `rows` cells (SIGWINCH): text still fading where the
    /// terminal may have moved it is left as drawn and the text goes on settled until the column is
    /// certain again (`docs/terminals.md#resize-and-reflow`). For an output on a file descriptor,
    /// nil reads the size from the terminal (`TIOCGWINSZ`); for a `.terminal` sink, pass its size.
    public func resize(columns: Int? = nil, rows: Int? = nil) {
        update { out in
            guard session.isAnimated, !cancelled else { return }
            let size = output.terminalSize
            resizeLocked(columns ?? size?.columns, rows ?? size?.rows, into: &out)
        }
    }

    private func resizeLocked(_ columns: Int?, _ rows: Int?, into out: inout SessionOutput) {
        output.resized(columns: columns, rows: rows)
        lastColumns = columns
        session.resize(columns: columns, rows: rows, into: &out)
        // A library reads nothing from the terminal: no cursor position report to ask for.
        if session.wantsCursorReport { session.cursorReport(column: nil, into: &out) }
    }

    /// The errors found in the stream so far (a malformed event, a remote error) and the output's
    /// failure, in order.
    public var errors: [TypewriteError] { locked { reported + (failure.map { [$0] } ?? []) } }

    // MARK: Frames

    private func tick() {
        update { out in
            scheduled = nil
            guard !cancelled else { return }
            session.advance(to: timer.now(), into: &out)
        }
    }

    // MARK: Output

    /// Runs `body` on the state with the lock held, queues what it wrote, arranges the next frame,
    /// and then writes the queue out, outside the lock, unless another caller already is.
    private func update(_ body: (inout SessionOutput) -> Void) {
        var out = SessionOutput()
        lock.lock()
        body(&out)
        out.visit(terminal: { bytes in
            guard failure == nil else { return }
            queue.append(bytes)
            queuedBytes += bytes.count
        }, diagnostic: { reported.append($0) })
        if let deadline = session.nextDeadline, !cancelled, failure == nil, scheduled != deadline {
            scheduled = deadline
            timer.schedule(at: deadline) { [weak self] in self?.tick() }
        }
        let drains = !writing && queueHead < queue.count
        if drains { writing = true }
        settleWaiters()
        lock.unlock()
        if drains { drain() }
    }

    /// Writes the queue out in order, outside the lock; other callers add to it meanwhile.
    private func drain() {
        lock.lock()
        while queueHead < queue.count, failure == nil {
            let chunk = queue[queueHead]
            queueHead += 1
            lock.unlock()
            var error: TypewriteError?
            do throws(TypewriteError) { try output.write(chunk) } catch let e { error = e }
            lock.lock()
            queuedBytes -= chunk.count
            if let error {
                failure = error
                queue.removeAll()
                queueHead = 0
                queuedBytes = 0
            }
            lock.broadcast()
            settleWaiters()
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        writing = false
        lock.broadcast()
        settleWaiters()
        lock.unlock()
    }

    /// Waits, blocking, while the sink has more than its share of the budget to take.
    private func waitForSink() {
        lock.lock()
        while queuedBytes > budget.queuedOutput, failure == nil { lock.wait() }
        lock.unlock()
    }

    /// Waits until the text held is within the memory budget (or the typewriter is done).
    private func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            locked {
                if hasRoom { continuation.resume() } else { roomWaiters.append(continuation) }
            }
        }
    }

    private var hasRoom: Bool {
        cancelled || failure != nil || session.heldBytes + queuedBytes <= budget.heldText
    }

    /// Everything received is shown and settled, and the sink has taken it.
    private var isSettled: Bool { session.isFinished && !writing && queueHead == queue.count }

    /// Resumes the waiters whose condition holds. Called with the lock held.
    private func settleWaiters() {
        if !roomWaiters.isEmpty && hasRoom {
            let waiting = roomWaiters
            roomWaiters.removeAll()
            for waiter in waiting { waiter.resume() }
        }
        if !finishWaiters.isEmpty && (isSettled || cancelled && !writing || failure != nil) {
            let waiting = finishWaiters
            finishWaiters.removeAll()
            for waiter in waiting { waiter.resume(with: result) }
        }
    }

    private var result: Result<Void, any Error> {
        if let failure { return .failure(failure) }
        if let first = reported.first(where: \.failsRun) { return .failure(first) }
        return .success(())
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
