import Dispatch
import Foundation

/// Types text onto a terminal the way the `typewrite` command does, from inside a Swift program:
/// each burst of text is spread over 0.15–1.5 s at 80 grapheme clusters per second, and every
/// new character fades in from the background over a soft edge about ten characters wide
/// (`docs/design.md#pacing`, `docs/design.md#the-soft-edge`). Once the fade settles, the screen is exactly what writing the text
/// straight to the terminal would have left. When the output is not a terminal (or the
/// environment asks for reduced motion) the text goes through at once, byte for byte.
///
/// Feed it **deltas** (`write`), **snapshots** of the whole text so far (`show(snapshot:)`,
/// `docs/design.md#snapshots-and-deltas`), or a whole `AsyncSequence` of either (`stream`); then `finish()` waits until everything
/// is settled, and `cancel()` (or cancelling the task) writes everything received at once,
/// settled, with the colours reset.
///
/// It reads nothing from the terminal and installs no signal handlers: the host may be using
/// both. A host that wants Ctrl-C to leave a clean screen calls `cancel()` from its own handler.
/// Writing to a closed pipe raises SIGPIPE as any write would, unless the host ignores it (then
/// `finish()` throws `TypewriteError.brokenPipe`).
///
/// Thread safety: every method may be called from any thread or task; calls are serialized by a
/// lock, and frames are written from a timer (`FrameTimer`) under the same lock.
public final class Typewriter: @unchecked Sendable {
    // @unchecked: every stored property below is either immutable or accessed only while holding
    // `lock` (state, waiters, scheduled deadline), so instances are safe to share across threads.

    /// How fast and how the text types in.
    public struct Settings: Sendable, Equatable {
        /// Typing speed in grapheme clusters per second; > 0 and ≤ 1e12. Default 80 (`docs/design.md#pacing`).
        public var charactersPerSecond: Double = 80
        /// Width of the soft leading edge in grapheme clusters; 0 (a hard edge) to 1,000,000.
        /// Default 10 (`docs/design.md#the-soft-edge`).
        public var fadeWidth: Double = 10
        /// Longest time one burst is spread over, in seconds: ≥ 0.15, or `.infinity` for a strict
        /// typewriter at `charactersPerSecond`. Default 1.5 (`docs/design.md#pacing`).
        public var maximumLag: Seconds = PacingEngine.defaultMaximumLag
        /// When to animate: `.auto` on a terminal unless `REDUCED_MOTION` is set; `.always` even
        /// into a pipe; `.never` is plain text.
        public var animate: When = .auto
        /// When to colour the fade: `.auto` honours `NO_COLOR` and `TERM`.
        public var color: When = .auto
        /// Show text at once, unchanged (the platform's Reduce Motion).
        public var reduceMotion = false
        /// East Asian ambiguous-width characters take two cells (a CJK terminal; UAX #11).
        public var ambiguousIsWide = false
        /// How bytes given to `write(bytes:)` are read: text, or a model's wire stream to decode
        /// (`.auto` decides from the first event).
        public var format: StreamFormat = .raw
        /// What a decoded stream's reasoning does: hidden (the default), dimmed, or shown.
        public var thinking: ThinkingDisplay = .hide
        /// When to highlight markdown (`MarkdownAppearance`), keeping every character in its
        /// cell: `.auto` (the default) a decoded model answer (`format` other than `.raw`),
        /// `.always` any text, `.never` none. Only when animated; with colours, or with
        /// attributes only under `NO_COLOR`.
        public var markdown: When = .auto
        /// The terminal's colours, if the host knows them (for example from its own OSC 10/11
        /// query): the fade runs from this background to this foreground. Nil: assumed from
        /// `COLORFGBG`, else a dark background.
        public var terminalColors: TerminalColors?

        public init() {}

        /// Throws `TypewriteError.invalidSetting` for a value out of range.
        public func validate() throws(TypewriteError) {
            guard charactersPerSecond.isFinite, charactersPerSecond > 0 else {
                throw .invalidSetting(setting: "charactersPerSecond", value: "\(charactersPerSecond)", expected: "a finite number > 0")
            }
            guard charactersPerSecond <= 1e12 else {
                throw .invalidSetting(setting: "charactersPerSecond", value: "\(charactersPerSecond)", expected: "at most 1e12")
            }
            guard fadeWidth.isFinite, fadeWidth >= 0, fadeWidth <= 1_000_000 else {
                throw .invalidSetting(setting: "fadeWidth", value: "\(fadeWidth)", expected: "a number from 0 to 1000000")
            }
            guard !maximumLag.isNaN, maximumLag >= PacingEngine.minimumBurstDuration else {
                throw .invalidSetting(setting: "maximumLag", value: "\(maximumLag)", expected: "seconds ≥ 0.15, or .infinity")
            }
        }
    }

    /// What the text is, for `stream(_:as:)`.
    public enum Chunks: Sendable {
        /// Each element is new text appended to what came before.
        case deltas
        /// Each element is the whole text so far.
        case snapshots
    }

    private let lock = NSLock()
    private let output: TypewriterOutput
    private let timer: any FrameTimer
    private let movesCursor: Bool
    private var session: Session
    private var snapshots = SnapshotStage()
    private var scheduled: Seconds?
    private var waiters: [CheckedContinuation<Void, any Error>] = []
    private var failure: TypewriteError?
    private var cancelled = false

    /// - Parameters:
    ///   - output: where the bytes go; standard output by default.
    ///   - settings: speed, fade and the decisions the command line's options make.
    ///   - environment: the environment the decisions read (`NO_COLOR`, `TERM`, `COLORTERM`,
    ///     `COLORFGBG`, `REDUCED_MOTION`, `COLUMNS`, the locale); the process's by default.
    ///   - timer: the clock and timer for frames; a Dispatch timer on the monotonic clock by default.
    /// - Throws: `TypewriteError.invalidSetting` for a setting out of range.
    public init(output: TypewriterOutput = .standardOutput, settings: Settings = Settings(),
                environment: [String: String] = System.environment(), timer: (any FrameTimer)? = nil) throws(TypewriteError) {
        try settings.validate()
        self.output = output
        self.timer = timer ?? DispatchFrameTimer()
        let size = output.terminalSize
        let capabilities = TerminalCapabilities(environment: environment, outputIsTerminal: size != nil,
                                                animate: settings.animate, color: settings.color,
                                                reduceMotion: settings.reduceMotion)
        var mode = SessionSettings.Mode.plain
        var movesCursor = false
        if capabilities.animates {
            let columns = size?.columns ?? environment["COLUMNS"].flatMap { Int($0) } ?? 80
            var configuration = capabilities.fadeConfiguration(columns: columns, rows: size?.rows,
                                                               newlineReturnsCarriage: output.translatesNewline,
                                                               ambiguousIsWide: settings.ambiguousIsWide)
            configuration.charactersPerSecond = settings.charactersPerSecond
            configuration.fadeWidth = settings.fadeWidth
            configuration.maximumLag = settings.maximumLag
            if let colors = settings.terminalColors {
                if let background = colors.background { configuration.background = background }
                if let foreground = colors.foreground { configuration.foreground = foreground }
                configuration.palette = colors.palette
            }
            mode = .animated(configuration)
            movesCursor = size != nil && capabilities.colorDepth != .none && configuration.newlineReturnsCarriage
        }
        self.movesCursor = movesCursor
        lastColumns = size?.columns
        var sessionSettings = SessionSettings(mode: mode, format: settings.format, thinking: settings.thinking)
        sessionSettings.markdown = capabilities.allowsAttributes ? settings.markdown : .never
        session = Session(settings: sessionSettings)
    }

    /// Whether the text is animated (false: plain text, at once).
    public var isAnimated: Bool { locked { session.isAnimated } }

    // MARK: Deltas

    /// Appends `text` (a delta) to what is typing in.
    public func write(_ text: some StringProtocol) {
        write(bytes: text.utf8)
    }

    /// Appends bytes as they arrived (any split, even inside a UTF-8 sequence or an escape
    /// sequence); with `Settings.format` other than `.raw`, they are a wire stream to decode.
    public func write(bytes: some Sequence<UInt8>) {
        let bytes = Array(bytes)
        locked {
            guard !cancelled else { return }
            var out = SessionOutput()
            session.receive(bytes, at: timer.now(), into: &out)
            flush(out)
        }
    }

    // MARK: Snapshots

    /// Shows `snapshot`, the whole text so far (`docs/design.md#snapshots-and-deltas`: Foundation Models streams snapshots).
    /// Snapshots are compared with the previous snapshot only: use either snapshots or deltas
    /// (`write`) with one typewriter, not both. After `finish()` or `cancel()` nothing more is
    /// shown.
    /// What extends the previous snapshot types in. Text that was replaced restarts from where
    /// the two differ when that place is still on screen and every row between it and the cursor
    /// has certain geometry; otherwise history is not rewritten and the text from the start of
    /// the line where the change begins is written again below.
    /// - Returns: which of these happened.
    @discardableResult
    public func show(snapshot: some StringProtocol) -> SnapshotUpdate {
        let bytes = Array(snapshot.utf8)
        return locked {
            guard !cancelled else { return .unchanged }
            let size = output.terminalSize  // re-read: a resize makes the old rows uncertain
            if let size, session.isAnimated, size.columns != lastColumns {
                lastColumns = size.columns
                var out = SessionOutput()
                session.resize(columns: size.columns, rows: size.rows, into: &out)
                flush(out)
            }
            let terminal = SnapshotStage.Terminal(movesCursor: movesCursor, columns: size?.columns, rows: size?.rows)
            let (text, update, needsSettling) = snapshots.update(to: bytes, terminal: terminal)
            var out = SessionOutput()
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
            flush(out)
            return update
        }
    }

    private var lastColumns: Int?

    // MARK: Streams

    /// Types a whole sequence of text chunks, then waits until everything is settled. Cancelling
    /// the task, or an error from the sequence, writes everything received at once, settled
    /// (`cancel()`), before the error is thrown: the screen is never left half faded.
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
                                                           text: (S.Element) -> T) async throws {
        do {
            try await withTaskCancellationHandler {
                for try await chunk in chunks {
                    try Task.checkCancellation()
                    switch kind {
                    case .deltas: write(text(chunk))
                    case .snapshots: show(snapshot: text(chunk))
                    }
                }
            } onCancel: {
                self.cancel()
            }
        } catch {
            cancel()
            throw error
        }
        try await finish()
    }

    // MARK: Ending

    /// No more text will come: what the stages still hold (an incomplete sequence) is shown.
    /// `finish()` does this too.
    public func endInput() {
        locked {
            var out = SessionOutput()
            session.endOfInput(at: timer.now(), into: &out)
            flush(out)
        }
    }

    /// Ends the input and waits until everything is shown and settled, with the cursor where
    /// writing the text straight out would have left it. Cancelling the task cancels the typing.
    /// - Throws: `TypewriteError` when the output failed (`.brokenPipe`, `.outputFailed`), the
    ///   stream reported an error (`.remoteError`), or it held a malformed event; `CancellationError`.
    public func finish() async throws {
        endInput()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                locked {
                    if session.isFinished || cancelled || failure != nil {
                        continuation.resume(with: result)
                    } else {
                        waiters.append(continuation)
                    }
                }
            }
        } onCancel: {
            self.cancel()
        }
        try Task.checkCancellation()
    }

    /// Stops typing: everything received is written at once, settled; colours are reset and an
    /// open hyperlink closed. Later text is ignored; `finish()` returns at once.
    public func cancel() {
        locked {
            guard !cancelled else { return }
            cancelled = true
            var out = SessionOutput()
            session.cancel(at: timer.now(), into: &out)
            flush(out)
            timer.cancel()
            scheduled = nil
            resumeWaiters()
        }
    }

    /// The errors found in the stream so far (a malformed event, a remote error) and the output's
    /// failure, in order.
    public var errors: [TypewriteError] { locked { reported + (failure.map { [$0] } ?? []) } }

    private var reported: [TypewriteError] = []

    // MARK: Frames

    private func tick() {
        locked {
            scheduled = nil
            guard !cancelled else { return }
            var out = SessionOutput()
            session.advance(to: timer.now(), into: &out)
            flush(out)
        }
    }

    /// Writes what the session produced and arranges the next frame. Called with `lock` held.
    private func flush(_ out: SessionOutput) {
        out.visit(terminal: { bytes in
            guard failure == nil else { return }
            do throws(TypewriteError) { try output.write(bytes) } catch { failure = error }
        }, diagnostic: { reported.append($0) })
        if let deadline = session.nextDeadline, !cancelled, failure == nil {
            if scheduled != deadline {
                scheduled = deadline
                timer.schedule(at: deadline) { [weak self] in self?.tick() }
            }
        }
        if session.isFinished || failure != nil { resumeWaiters() }
    }

    private var result: Result<Void, any Error> {
        if let failure { return .failure(failure) }
        if let first = reported.first(where: \.failsRun) { return .failure(first) }
        return .success(())
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume(with: result) }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Where a `Typewriter` writes.
public struct TypewriterOutput: Sendable {
    private enum Target: Sendable {
        case descriptor(Int32)
        case sink(columns: Int, rows: Int, newlineReturnsCarriage: Bool, write: @Sendable (ArraySlice<UInt8>) throws -> Void)
        case pipe(write: @Sendable (ArraySlice<UInt8>) throws -> Void)
    }
    private let target: Target

    /// Standard output (file descriptor 1).
    public static var standardOutput: TypewriterOutput { .fileDescriptor(System.standardOutput) }

    /// An open file descriptor, written with `write(2)` (partial writes and EINTR retried). A
    /// terminal (`isatty`) animates; its size is read with `TIOCGWINSZ` whenever it matters.
    public static func fileDescriptor(_ descriptor: Int32) -> TypewriterOutput { TypewriterOutput(target: .descriptor(descriptor)) }

    /// A byte sink that ends on a terminal of `columns` × `rows` cells (a pseudo-terminal the
    /// host drives, a test's virtual terminal): the text animates as on a terminal.
    /// - Parameter newlineReturnsCarriage: whether LF also returns to column 0 (a tty's ONLCR).
    public static func terminal(columns: Int, rows: Int, newlineReturnsCarriage: Bool = true,
                                write: @escaping @Sendable (ArraySlice<UInt8>) throws -> Void) -> TypewriterOutput {
        TypewriterOutput(target: .sink(columns: columns, rows: rows, newlineReturnsCarriage: newlineReturnsCarriage, write: write))
    }

    /// A byte sink that is not a terminal: text passes through unchanged.
    public static func bytes(_ write: @escaping @Sendable (ArraySlice<UInt8>) throws -> Void) -> TypewriterOutput {
        TypewriterOutput(target: .pipe(write: write))
    }

    /// The terminal's size now (columns, rows), nil when the output is not a terminal.
    var terminalSize: (columns: Int, rows: Int)? {
        switch target {
        case .descriptor(let fd):
            guard System.isTerminal(fd) else { return nil }
            return (System.terminalColumns(fd) ?? 80, System.terminalRows(fd) ?? 24)
        case .sink(let columns, let rows, _, _):
            return (columns, rows)
        case .pipe:
            return nil
        }
    }

    var translatesNewline: Bool {
        switch target {
        case .descriptor(let fd): return System.isTerminal(fd) ? System.translatesNewline(fd) : true
        case .sink(_, _, let translates, _): return translates
        case .pipe: return true
        }
    }

    func write(_ bytes: ArraySlice<UInt8>) throws(TypewriteError) {
        switch target {
        case .descriptor(let fd):
            let error: SystemError? = bytes.withUnsafeBytes { raw in
                do throws(SystemError) { try System.writeAll(fd, raw); return nil } catch { return error }
            }
            if let error { throw error == .brokenPipe ? .brokenPipe : .outputFailed(error) }
        case .sink(_, _, _, let write), .pipe(let write):
            do { try write(bytes) } catch let error as TypewriteError { throw error } catch {
                throw .outputFailed(SystemError(5))  // EIO: the sink failed
            }
        }
    }
}

/// The clock and the timer a `Typewriter` draws its frames with. Inject one to drive the fade by
/// hand (a test advances time and sees each frame at once).
public protocol FrameTimer: Sendable {
    /// Now, in seconds on a monotonic clock.
    func now() -> Seconds
    /// Calls `action` once at `deadline` (seconds on the same clock), or as soon after as it can;
    /// replaces any call scheduled before and not yet made. Never call `action` from inside
    /// `schedule` (even when the deadline has passed): the typewriter schedules while it holds
    /// its lock, and `action` takes it.
    func schedule(at deadline: Seconds, _ action: @escaping @Sendable () -> Void)
    /// Drops the call scheduled, if any.
    func cancel()
}

/// Frames on a Dispatch timer (a private serial queue), on the monotonic clock (`DispatchTime`).
public final class DispatchFrameTimer: FrameTimer, @unchecked Sendable {
    // @unchecked: `generation` is only read and written on `queue` (a serial queue), and `queue`
    // itself is immutable and thread-safe.
    private let queue = DispatchQueue(label: "typewrite.frames")
    private var generation = 0

    public init() {}

    public func now() -> Seconds { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    public func schedule(at deadline: Seconds, _ action: @escaping @Sendable () -> Void) {
        queue.async {
            self.generation += 1
            let mine = self.generation
            let when = DispatchTime(uptimeNanoseconds: UInt64(max(0, deadline) * 1e9))
            self.queue.asyncAfter(deadline: when) {
                guard self.generation == mine else { return }
                action()
            }
        }
    }

    public func cancel() {
        queue.async { self.generation += 1 }
    }
}
