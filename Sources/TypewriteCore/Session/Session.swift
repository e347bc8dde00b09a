/// The one core of typewrite: a state machine with no I/O of its own (after the sans-I/O protocol
/// cores of h11 and hyper). Events go in — bytes read, end of input, an input that failed, a
/// signal, a resize, keys, the terminal's colours, the passing of time — and what comes out is
/// bytes to write (with diagnostics in their place among them) and the next deadline.
///
/// Every face of typewrite drives this type: the command line's `poll` loop (`PollDriver`), the
/// library's `Typewriter`, and the tests' fake clock. A test of the session is a test of the
/// product.
///
/// Time is seconds on the caller's monotonic clock; every call passes it, never decreasing.
package struct Session {
    /// Time between frames, in seconds: at most 60 frames per second.
    package static let framePeriod: Seconds = 1.0 / 60
    /// Longest the session waits for the cursor report after a resize, from the last resize, in
    /// seconds: a terminal over ssh or on a loaded machine can take well over 0.5 s to answer
    /// (tmux under load: 1 resize in 40), and frames wait meanwhile. Past it the cells still
    /// fading are settled where their place is certain without the report
    /// (`docs/terminals.md#resize-and-reflow`).
    package static let cursorReportWait: Seconds = 2.5
    /// What the session may hold for text not yet shown: reading pauses above
    /// `MemoryBudget.heldText` (the bytes and the tokens that describe them: a flood of short
    /// lines costs far more in tokens than in bytes).
    package let memoryBudget: MemoryBudget

    private var pipeline: InputPipeline
    /// The fade renderer or the collapsed view; nil in plain mode.
    private var writer: (any TerminalWriter)?

    /// Whether input has ended (every source is done, or the stream reported an error).
    package private(set) var inputEnded = false
    /// Whether some error made the run fail (exit status 1 for the command line).
    package private(set) var failed = false
    private var nextFrame: Seconds?
    private var lastTime: Seconds = 0
    /// Errors waiting until the text before them has been shown and settled, as cat prints them
    /// between files; reading waits with them.
    private var waiting: [TypewriteError] = []
    /// Without a writer: whether the bytes written so far end mid-line (after something other
    /// than a line feed).
    private var plainEndsMidLine = false
    /// When to highlight markdown; `.auto` until the input is known to be a decoded answer.
    private var markdown: When = .never
    /// Whether the output's `copy` gets what a pipe would receive (`--tee`).
    private var copiesText = false
    /// `--notify`: the answer's first line and when it began.
    private var notifier: AnswerNotifier?
    /// `SessionSettings.decodedLineEnd`: written at the end of a decoded answer not ending in LF.
    private var decodedLineEnd: [UInt8]?
    /// The last byte of decoded text shown so far (nil: none yet, or the input is raw).
    private var lastDecodedByte: UInt8?
    /// When the last resize that made the writer want a cursor report came (seconds).
    private var cursorReportSince: Seconds?

    /// - Parameter settings: the mode and stages, decided once.
    package init(settings: SessionSettings) {
        // Typewrite's own styling (dimmed timestamps and reasoning) only where it writes escape
        // sequences of its own.
        var styles = false
        if case .animated(let configuration) = settings.mode { styles = configuration.colorDepth != .none }
        let timestamps = settings.timestampFormat.map { TimestampStage(format: $0, dimmed: styles) }
        let pipeline = InputPipeline(format: settings.format, timestamps: timestamps, thinking: settings.thinking,
                                     mayStyle: styles, suggestsFormat: settings.suggestsFormat)
        self.init(mode: settings.mode, pipeline: pipeline, collapse: settings.collapse, budget: settings.memoryBudget)
        markdown = settings.markdown
        copiesText = settings.copiesText
        notifier = settings.notifier
        decodedLineEnd = settings.decodedLineEnd
        if markdown == .always { writer?.startMarkdown() }
    }

    init(mode: SessionSettings.Mode, pipeline: InputPipeline, collapse: SessionSettings.Collapse? = nil,
         budget: MemoryBudget = .standard) {
        self.pipeline = pipeline
        memoryBudget = budget
        switch mode {
        case .plain:
            writer = nil
        case .animated(let configuration):
            if let collapse, configuration.columns != nil {
                writer = CollapsedView(configuration: configuration, visibleRows: collapse.lines,
                                       moreLabel: collapse.moreLabel, lessLabel: collapse.lessLabel,
                                       holdingLimit: budget.collapsedText)
            } else {
                writer = FadeRenderer(configuration: configuration)
            }
        }
    }

    // MARK: State

    /// Whether text is paced and faded (false: plain mode, bytes out as they come).
    package var isAnimated: Bool { writer != nil }

    /// Whether the bytes out are exactly the bytes in, at once (plain mode, raw format, no
    /// decorations): a driver may then write what it read itself and skip `receive`.
    package var passesInputThrough: Bool { !isAnimated && pipeline.isPassthrough && notifier == nil }

    /// Whether the driver should read more input now: input is open, no diagnostic waits for the
    /// text before it to settle, and the text waiting to be shown is within the memory limits.
    package var wantsInput: Bool {
        guard !inputEnded, waiting.isEmpty else { return false }
        guard let writer else { return true }
        return writer.pendingBytes <= memoryBudget.heldText
    }

    /// Memory held for text received and not yet shown, in bytes (the input bytes and the tokens
    /// that describe them); 0 in plain mode.
    package var heldBytes: Int { writer?.pendingBytes ?? 0 }

    /// Writes the oldest text held at once, settled, until what is held is within half the
    /// renderer's flood limit or one frame's worth of bytes is written (the flood rule, applied
    /// now and whatever the maximum lag): for a writer that cannot be made to wait.
    package mutating func relieveMemory(at time: Seconds, into out: inout SessionOutput) {
        lastTime = max(lastTime, time)
        writer?.relieveMemory(at: time, into: &out.bytes)
        settleDiagnostics(into: &out)
    }

    /// How many bytes the next read should take at most, in bytes (≤ `limit`, ≥ 4096): what fits
    /// in the memory left below the limits, at the last burst's cost per byte.
    package func readSize(limit: Int) -> Int {
        guard let writer else { return limit }
        let room = Double(memoryBudget.heldText - writer.pendingBytes) / writer.bytesOfMemoryPerInputByte
        return min(limit, max(4096, Int(room)))
    }

    /// When the session next needs `advance(to:)`, in seconds; nil while it waits for events only
    /// (idle costs nothing).
    package var nextDeadline: Seconds? {
        guard let due = cursorReportDue else { return nextFrame }
        return min(nextFrame ?? due, due)
    }

    /// When the session stops waiting for the cursor report (`cursorReportWait` after the last
    /// resize); nil when none is awaited.
    private var cursorReportDue: Seconds? {
        guard writer?.wantsCursorReport == true else { return nil }
        return cursorReportSince.map { $0 + Self.cursorReportWait }
    }

    /// Whether everything is done: input ended, all of it shown and settled, every diagnostic
    /// out, and the `--collapse` prompt (if any) over.
    package var isFinished: Bool {
        guard inputEnded, waiting.isEmpty else { return false }
        return writer?.isFinished ?? true
    }

    /// Whether the `--collapse` prompt is ready to ask for keys: the driver opens the keyboard (or
    /// finds it cannot) and calls `beginPrompt`.
    package var wantsKeyboard: Bool { waiting.isEmpty && writer?.wantsKeyboard == true }

    /// Whether keys are being read for the `--collapse` prompt.
    package var awaitsKeys: Bool { writer?.awaitsKeys == true }

    /// Whether the input left an OSC 8 hyperlink open.
    package var hyperlinkOpen: Bool { writer?.hyperlinkOpen ?? false }

    // MARK: Input

    /// Takes one read's bytes (any split) that arrived at `time`.
    /// - Parameter decoded: the bytes are already text (the demo's answer): `--format` decoding
    ///   is skipped, decorations still apply.
    package mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds, decoded: Bool = false,
                                 into out: inout SessionOutput) {
        guard !inputEnded else { return }
        lastTime = max(lastTime, time)
        let text: [UInt8]?
        if pipeline.isPassthrough {
            text = nil
        } else {
            text = decoded ? pipeline.decorate(Array(bytes), at: time) : pipeline.process(bytes, at: time)
            takePipelineErrors(into: &out)
        }
        if copiesText {
            if let text { out.copy += text } else { out.copy.append(contentsOf: bytes) }
        }
        if notifier != nil {
            if let text { notifier?.text(text, at: time) } else { notifier?.text(bytes, at: time) }
        }
        if let last = text?.last, decoded || pipeline.decodesModelStream { lastDecodedByte = last }
        if markdown == .auto, writer != nil, decoded || pipeline.decodesModelStream {
            writer?.startMarkdown()
            markdown = .always
        }
        if writer != nil {
            if let text { writerReceiveDocuments(text, at: time) } else { writer?.receive(bytes, at: time) }
            startFrames(at: time)
        } else {
            let before = out.bytes.count
            if let text { out.bytes += text } else { out.bytes.append(contentsOf: bytes) }
            if out.bytes.count > before { plainEndsMidLine = out.bytes[out.bytes.count - 1] != 0x0A }
        }
        if pipeline.stopped { endOfInput(at: time, into: &out) }
        settleDiagnostics(into: &out)
    }

    /// The host wrote input bytes to the output itself (passthrough), the last one `last`.
    package mutating func passedThrough(endingWith last: UInt8) { plainEndsMidLine = last != 0x0A }

    /// An input failed (it could not be opened or read): reported once the text before it has
    /// settled (at once in plain mode); the run fails. Reading waits until it is out.
    package mutating func report(_ error: TypewriteError, into out: inout SessionOutput) {
        if error.failsRun { failed = true }
        if isAnimated { waiting.append(error) } else { reportNow(error, into: &out) }
        settleDiagnostics(into: &out)
    }

    /// End of all input at `time`: whatever the stages still held is shown.
    package mutating func endOfInput(at time: Seconds, into out: inout SessionOutput) {
        guard !inputEnded else { return }
        lastTime = max(lastTime, time)
        var rest = pipeline.finish(at: time)
        if copiesText { out.copy += rest }
        takePipelineErrors(into: &out)
        inputEnded = true
        if let last = rest.last, pipeline.decodesModelStream { lastDecodedByte = last }
        if let lineEnd = decodedLineEnd, let last = lastDecodedByte, last != 0x0A {
            rest += lineEnd  // after the copy: --tee keeps the exact text
        }
        if writer != nil {
            writerReceiveDocuments(rest, at: time)
            writer?.endInput(at: time)
            startFrames(at: time)
        } else {
            out.bytes += rest
            if let last = rest.last { plainEndsMidLine = last != 0x0A }
        }
        settleDiagnostics(into: &out)
    }

    // MARK: Time

    /// Lets time pass to `time`: writes the frame that is due, if any.
    package mutating func advance(to time: Seconds, into out: inout SessionOutput) {
        lastTime = max(lastTime, time)
        if let due = cursorReportDue, time >= due {
            // No report in time (a terminal that never answers, or far too late): what is certain
            // without it is settled, and the text goes on.
            cursorReport(column: nil, into: &out)
        }
        if let due = nextFrame, time >= due {
            writer?.frame(at: time, into: &out.bytes)
            if writer?.isAnimating == true {
                let next = due + Self.framePeriod
                nextFrame = next > time ? next : time + Self.framePeriod
            } else {
                nextFrame = nil
            }
        }
        settleDiagnostics(into: &out)
    }

    // MARK: Terminal events

    /// Writes everything received so far at once, settled: for SIGINT and SIGTERM, and for a
    /// library host that cancels. Input counts as ended.
    /// - Parameters:
    ///   - echo: what the tty echoed for the key that sent the signal (`^C`), if anything: it is
    ///     written after the text, where `cat` would have shown it.
    ///   - resetting: reset the colours and close a hyperlink the input left open (a library
    ///     host going on writing); false leaves the terminal in the input's own state, as `cat`
    ///     leaves it when it dies by the signal.
    package mutating func cancel(at time: Seconds, echo: KeyEcho? = nil, resetting: Bool = true, into out: inout SessionOutput) {
        lastTime = max(lastTime, time)
        if !inputEnded {
            let rest = pipeline.finish(at: time)
            if copiesText { out.copy += rest }
            inputEnded = true
            if writer != nil { writer?.receive(rest, at: time) } else { out.bytes += rest }
        }
        guard writer != nil else { return }
        if writer?.awaitsKeys == false { writer?.endInput(at: time) }
        writer?.interrupt(echo: echo, into: &out.bytes)
        if resetting {
            if hyperlinkOpen { out.bytes += Array("\u{1B}]8;;\u{1B}\\".utf8) }
            out.bytes += Array("\u{1B}[0m".utf8)
        }
        nextFrame = nil
        for error in waiting { out.report(error) }
        waiting.removeAll()
    }

    /// Writes everything received so far at once, settled, without ending the input: before a
    /// snapshot that replaced text moves the cursor back from the end of what was shown.
    package mutating func settleNow(at time: Seconds, into out: inout SessionOutput) {
        lastTime = max(lastTime, time)
        writer?.settleNow(into: &out.bytes)
    }

    /// The bytes that erase `echo`, which the tty wrote before the session's last output reached
    /// the terminal (a signal came while it was being made, and the driver held it back); the
    /// driver writes them, then that output, then what `handle` writes with the echo as not
    /// landed. Nil when the echo's place is not certain.
    package func eraseEcho(_ echo: KeyEcho) -> [UInt8]? { writer?.eraseEcho(echo) }

    /// Whether a cursor report (`column`, 0-based; nil when none could be had) right after a key's
    /// signal that the tty sent with NOFLSH clear is where everything written left the cursor —
    /// `held`: the last output was not written yet — and the tty's `echo` after it where it
    /// landed. False: the tty discarded output the terminal had not read, and `abandon` ends the
    /// run (`docs/terminals.md#the-ttys-echo`). True in plain mode (nothing to repair).
    package func outputReached(cursorColumn column: Int?, echo: KeyEcho?, held: Bool) -> Bool {
        guard let writer else { return true }
        guard let column else { return false }
        return writer.outputReached(column: column, echo: echo, held: held)
    }

    /// Ends the run after a key's signal that discarded output the terminal had not read: nothing
    /// more of the text is written (it would land after the hole), only what lands nowhere and the
    /// key's echo where the tty did not write it (`FadeRenderer.abandon`). Input counts as ended.
    /// - Parameter cursorColumn: where the terminal reported the cursor (0-based), if it did.
    package mutating func abandon(echo: KeyEcho?, cursorColumn: Int?, at time: Seconds, into out: inout SessionOutput) -> SignalResponse {
        lastTime = max(lastTime, time)
        inputEnded = true
        nextFrame = nil
        cursorReportSince = nil
        writer?.abandon(echo: echo, cursorColumn: cursorColumn, into: &out.bytes)
        for error in waiting { out.report(error) }
        waiting.removeAll()
        return .terminate
    }

    /// What the driver does after a signal the session has seen.
    package enum SignalResponse: Equatable, Sendable {
        /// Nothing more: carry on.
        case carryOn
        /// End now by this signal (the output for it is written first; terminal modes restored).
        case terminate
        /// Stop the process (SIGTSTP's default action), then call `resumed(at:into:)`.
        case suspend
    }

    /// A signal the process received, as far as the session cares. In plain mode signals keep
    /// their default actions, so a driver need not pass them; if it does, nothing is written.
    /// - Parameter echo: what the tty echoed for the key that sent it (`^C`, `^\`, `^Z`), or
    ///   would have echoed where typewrite had the echo off; nil when the signal came from
    ///   elsewhere (`kill`) or the tty echoes no control characters.
    package mutating func handle(_ signal: SessionSignal, echo: KeyEcho? = nil, at time: Seconds,
                                into out: inout SessionOutput) -> SignalResponse {
        lastTime = max(lastTime, time)
        switch signal {
        case .interrupt, .terminate, .quit:
            // Everything received so far, settled, the key's echo after it; then the terminal as
            // cat leaves it when it dies by the signal (the input's own colours).
            cancel(at: time, echo: echo, resetting: false, into: &out)
            return .terminate
        case .hangUp:
            return .terminate  // the terminal is gone: nothing to write to
        case .suspend:
            writer?.suspend(echo: echo, into: &out.bytes)
            return .suspend
        case .resume:
            // Continued after a stop typewrite did not see (SIGSTOP): the shell may have written.
            if writer?.awaitsKeys == false { writer?.forgetCursor(into: &out.bytes) }
            return .carryOn
        }
    }

    /// The process continues after the stop `handle` asked for: the shell wrote meanwhile.
    package mutating func resumed(at time: Seconds, into out: inout SessionOutput) {
        lastTime = max(lastTime, time)
        writer?.resumed(into: &out.bytes)
        startFrames(at: time)
    }

    /// The terminal is now `columns` cells wide and `rows` high (SIGWINCH); nil when unknown.
    /// `time`, when given, is when the signal came (seconds on the session's clock).
    package mutating func resize(columns: Int?, rows: Int?, at time: Seconds? = nil, into out: inout SessionOutput) {
        writer?.resize(columns: columns, rows: rows, at: time, into: &out.bytes)
        cursorReportSince = writer?.wantsCursorReport == true ? max(lastTime, time ?? lastTime) : nil
        startFrames(at: lastTime)
    }

    /// Whether the driver should ask the terminal where the cursor is (`CSI 6 n`) and pass the
    /// answer to `cursorReport`: after a resize that may have moved the cells still fading,
    /// nothing more is written until then.
    package var wantsCursorReport: Bool { writer?.wantsCursorReport == true }

    /// The cursor's column (0-based) as the terminal reported it; nil when it could not be asked
    /// (then the cells still fading stay as they are drawn, and the text goes on settled until a
    /// line feed or carriage return).
    package mutating func cursorReport(column: Int?, into out: inout SessionOutput) {
        cursorReportSince = nil
        writer?.cursorReport(column: column, into: &out.bytes)
        startFrames(at: lastTime)
    }

    /// The terminal's colours, as it reported them (OSC 10/11): the fade runs between them from
    /// now on.
    package mutating func useTerminalColors(_ colors: TerminalColors) {
        writer?.useTerminalColors(colors)
    }

    // MARK: The --collapse prompt

    /// Starts the prompt once `wantsKeyboard`: with `keyboard` true the driver reads keys and
    /// passes them to `keys`; false (no foreground terminal) expands the view without asking.
    /// - Parameter screenRows: the terminal's height, nil when unknown.
    package mutating func beginPrompt(keyboard: Bool, screenRows: Int?, at time: Seconds, into out: inout SessionOutput) {
        guard wantsKeyboard else { return }
        lastTime = max(lastTime, time)
        writer?.beginPrompt(keyboard: keyboard, screenRows: screenRows, at: time, into: &out.bytes)
        startFrames(at: time)
    }

    /// Keys read from the terminal for the prompt (one read's bytes).
    package mutating func keys(_ bytes: some Collection<UInt8>, at time: Seconds, into out: inout SessionOutput) {
        guard awaitsKeys else { return }
        lastTime = max(lastTime, time)
        writer?.keys(bytes, at: time, into: &out.bytes)
        startFrames(at: time)
    }

    /// The keyboard is gone (hang-up, an error, or the terminal mode could not be set again after
    /// a stop): the prompt ends, the view stays as it is.
    package mutating func keyboardLost(at time: Seconds, into out: inout SessionOutput) {
        keys([0x71], at: time, into: &out)  // as q
    }

    // MARK: Answers (--notify)

    /// An answer begins at `time`: the run starts, or (`typed`) the user typed a key (a question
    /// to a program under `--exec`), whose echo is not part of the answer.
    package mutating func beginAnswer(at time: Seconds, typed: Bool = false) {
        guard typed || notifier?.hasBegun == false else { return }
        notifier?.begin(at: time, typed: typed)
    }

    /// The answer is complete at `time` (the input ended and is shown, or the program waits for
    /// keys): with `--notify`, the terminal is asked to tell the desktop when it took long enough.
    package mutating func completeAnswer(at time: Seconds, into out: inout SessionOutput) {
        if let bytes = notifier?.complete(at: time) { out.bytes += bytes }
    }

    // MARK: Helpers

    private mutating func takePipelineErrors(into out: inout SessionOutput) {
        for error in pipeline.takeErrors() {
            if error.failsRun { failed = true }
            if isAnimated { waiting.append(error) } else { reportNow(error, into: &out) }
        }
    }

    /// Writes a diagnostic after the bytes so far; a message ends with a line feed.
    private mutating func reportNow(_ error: TypewriteError, into out: inout SessionOutput) {
        out.report(error, afterPartialLine: writer?.cursorIsMidLine ?? plainEndsMidLine)
        plainEndsMidLine = false
    }

    /// Prints the waiting diagnostics once everything received so far is on screen and settled.
    private mutating func settleDiagnostics(into out: inout SessionOutput) {
        guard !waiting.isEmpty, writer?.isAnimating != true, (writer?.pendingBytes ?? 0) == 0 else { return }
        // Each message ends with a line feed: only the first can follow a partial line.
        var afterPartialLine = writer?.cursorIsMidLine ?? plainEndsMidLine
        for error in waiting {
            out.report(error, afterPartialLine: afterPartialLine)
            afterPartialLine = false
        }
        plainEndsMidLine = false
        waiting.removeAll()
        // stderr is the same terminal: the cursor moved without the renderer knowing.
        writer?.forgetCursor(into: &out.bytes)
    }

    private mutating func startFrames(at time: Seconds) {
        if nextFrame == nil && writer?.isAnimating == true { nextFrame = time }
    }

    /// Passes the pipeline's text on, starting a new markdown document where it says one starts
    /// (between reasoning and answer).
    private mutating func writerReceiveDocuments(_ text: [UInt8], at time: Seconds) {
        let breaks = pipeline.takeDocumentBreaks()
        guard writer?.highlightsMarkdown == true, !breaks.isEmpty else { writer?.receive(text, at: time); return }
        var start = 0
        for b in breaks where b >= start && b <= text.count {
            writer?.receive(text[start..<b], at: time)
            writer?.startMarkdownDocument()
            start = b
        }
        writer?.receive(text[start...], at: time)
    }

    /// The text from here on replaces what followed `context` (a snapshot that rewrote its
    /// tail): markdown highlighting reads it as continuing `context`, not what was shown after
    /// it. The first `skipping` bytes received next (cursor moves to the change) are not text.
    package mutating func restartMarkdown(after context: some Collection<UInt8>, skipping: Int = 0) {
        writer?.restartMarkdownDocument(after: context, skipping: skipping)
    }

    /// For the benchmark: clusters written, cells restyled, and restyles that could not be
    /// repainted; nil when markdown highlighting did not run.
    package var markdownStatistics: (characters: Int, restyledCells: Int, restyledOffScreen: Int)? {
        writer?.markdownStatistics
    }
}
