/// `--collapse[=N]`: a paragraph shown in at most N rows, with a `Read more` label that expands it in
/// place (`docs/design.md#collapsed-view`), brought to the terminal.
///
/// While input streams, the first N rows (display rows, wrapped at the terminal's width) type in
/// through a `FadeRenderer`; what comes after them is held, not drawn. When the text does not fit,
/// the last row fades out toward the background and the label appears on the row below. After the
/// input has ended, keys decide (`press`): expand — the label row is replaced by the rest of the
/// text, fading in through a fresh renderer — and, when the whole text is still on screen, a
/// `Show less` label that collapses it again. The view is typewrite's own UI, so it moves the cursor
/// (CR, CUU, CUD, EL, ED) within the rows it drew; it never saves or restores the cursor.
///
/// It gives up collapsing and streams everything like the plain renderer ("expands by itself")
/// when more than `holdingLimit` bytes would be held, when the visible rows contain something the
/// row model cannot follow (cursor movement, BS), or when the terminal is resized or the job was
/// stopped. The value type does no I/O: bytes, time and keys in, bytes out; the `Session` passes it
/// the keys a driver reads.
struct CollapsedView: TerminalWriter {
    /// Text held beyond the visible rows, in bytes: beyond 16 MiB the view expands by itself.
    static let defaultHoldingLimit = 16 * 1024 * 1024
    /// Opacity the last visible row fades out to (half way, in OKLab lightness: still legible),
    /// and how long that takes.
    static let dimmedOpacity = 0.5
    static let dimDuration: Seconds = 0.3
    static let dimSteps = 8

    /// What the view is doing.
    enum Phase: Equatable, Sendable {
        /// Everything so far fits in the visible rows and goes to the renderer.
        case streaming
        /// Text reached past the visible rows: it is held while the renderer finishes the rows.
        case overflowing
        /// The rows are shown with the last one faded and the `Read more` label below.
        case collapsed
        /// A key expanded the view: the rest of the text is typing in.
        case expanding
        /// The whole text is shown with the `Show less` label below it.
        case expanded
        /// Collapsing was given up: everything streams through the renderer.
        case streamingAll
        /// The prompt is over.
        case done
    }

    /// A key, as far as the view cares.
    enum Key: Equatable, Sendable {
        /// Enter or Space: expand or collapse.
        case toggle
        /// q, Esc or Ctrl-C (Ctrl-D too): leave the view as it is.
        case quit
        case other

        /// The keys in one read from the terminal: a read that starts with ESC and has more bytes
        /// is an escape sequence (an arrow key), not the Esc key.
        static func parse(_ bytes: some Collection<UInt8>) -> [Key] {
            if bytes.first == 0x1B && bytes.count > 1 { return [.other] }
            return bytes.map { byte in
                switch byte {
                case 0x0D, 0x0A, 0x20: return .toggle
                case 0x71, 0x51, 0x1B, 0x03, 0x04: return .quit
                default: return .other
                }
            }
        }
    }

    var configuration: FadeConfiguration
    /// N: rows shown while collapsed (≥ 1).
    let visibleRows: Int
    let moreLabel: String
    let lessLabel: String
    /// Bytes held at most before the view expands by itself.
    let holdingLimit: Int
    var phase = Phase.streaming
    var renderer: FadeRenderer

    var store = ByteStore()
    var tokenizer: Tokenizer
    var queue = TokenQueue()
    var layout: RowLayout
    /// Bytes up to this offset have gone to the renderer (while streaming).
    var forwarded = 0
    var inputEnded = false
    /// The latest time seen (for text restarted where no time is passed in: resize, continue).
    var lastTime: Seconds = 0

    /// Where the held rest of the text starts, the SGR state there, and whether the cursor was on
    /// the row below the visible rows when they were done (an LF ended them) rather than at the
    /// end of the last one (the rest wraps onto the next row).
    var cut = 0
    var penAtCut = GraphicRendition()
    var cutAfterNewline = false
    /// Whether the rows of the rest can be counted (nothing the row model cannot follow).
    var restIsMeasured = true
    /// Set when the view must expand by itself at the next frame.
    var expandPending = false

    /// Whether keys are being read: labels carry a hint, `Show less` is offered.
    var prompting = false
    /// Terminal height, for deciding whether the expanded text is still on screen.
    var screenRows: Int?
    /// The label on screen and its width in cells (the cursor stands right after it).
    var labelCells = 0
    /// Fade-out of the last visible row: when it started, and the step painted last.
    var dimStart: Seconds?
    var dimStep = 0

    /// - Parameters:
    ///   - configuration: the fade renderer's settings; `columns` must be known.
    ///   - visibleRows: N, rows shown while collapsed (≥ 1).
    ///   - moreLabel, lessLabel: the labels (control characters are dropped; cut to the width).
    ///   - holdingLimit: bytes held at most before the view expands by itself.
    init(configuration: FadeConfiguration, visibleRows: Int, moreLabel: String = "Read more", lessLabel: String = "Show less",
         holdingLimit: Int = CollapsedView.defaultHoldingLimit) {
        self.configuration = configuration
        self.holdingLimit = holdingLimit
        self.visibleRows = max(1, visibleRows)
        self.moreLabel = moreLabel
        self.lessLabel = lessLabel
        self.renderer = FadeRenderer(configuration: configuration)
        self.tokenizer = configuration.cellRules.makeTokenizer()
        self.layout = RowLayout(columns: configuration.columns ?? 80, newlineReturnsCarriage: configuration.newlineReturnsCarriage,
                                recordedRow: self.visibleRows - 1)
        if configuration.columns == nil { phase = .streamingAll }
    }

    // MARK: Writer (the session drives it as it drives FadeRenderer)

    var pendingBytes: Int { renderer.pendingBytes }
    var pendingInputBytes: Int { renderer.pendingInputBytes }
    var bytesOfMemoryPerInputByte: Double { renderer.bytesOfMemoryPerInputByte }
    var hyperlinkOpen: Bool { renderer.hyperlinkOpen }
    var cursorIsMidLine: Bool { renderer.cursorIsMidLine }

    var isAnimating: Bool {
        if expandPending { return true }
        switch phase {
        case .streaming, .streamingAll: return renderer.isAnimating
        case .overflowing, .expanding: return true  // until the frame that moves on
        case .collapsed: return dimStart != nil && dimStep < dimTargetStep
        case .expanded, .done: return false
        }
    }

    /// Whether everything is drawn (the view may still wait for keys).
    var isDrawn: Bool {
        guard inputEnded, !isAnimating else { return false }
        switch phase {
        case .streaming, .streamingAll: return renderer.isFinished
        default: return true
        }
    }

    /// Whether everything is drawn and no prompt is due or open.
    var isFinished: Bool {
        switch prompt {
        case .asking: return false
        case .none: return phase != .collapsed && isDrawn
        case .done: return isDrawn || phase == .done
        }
    }

    mutating func receive(_ bytes: some Collection<UInt8>, at time: Seconds) {
        lastTime = max(lastTime, time)
        switch phase {
        case .streamingAll, .expanding, .expanded, .done:
            renderer.receive(bytes, at: time)
        case .streaming, .overflowing, .collapsed:
            store.append(contentsOf: bytes)
            tokenizer.scan(store, into: &queue)
            follow(at: time)
        }
    }

    mutating func endInput(at time: Seconds) {
        lastTime = max(lastTime, time)
        inputEnded = true
        switch phase {
        case .streaming, .overflowing, .collapsed:
            tokenizer.finish(store, into: &queue)
            follow(at: time)
            if phase == .streaming || phase == .streamingAll { renderer.endInput(at: time) }
        case .streamingAll, .expanding, .expanded, .done:
            renderer.endInput(at: time)
        }
    }

    mutating func frame(at time: Seconds, into out: inout [UInt8]) {
        lastTime = max(lastTime, time)
        if expandPending {
            expandPending = false
            expand(at: time, restoringLastRow: true, into: &out)
            phase = .streamingAll
            dropHeldText()
        }
        switch phase {
        case .streaming, .streamingAll:
            renderer.frame(at: time, into: &out)
        case .overflowing:
            renderer.frame(at: time, into: &out)
            if !renderer.isAnimating { showCollapsed(at: time, fromTextEnd: true, into: &out) }
        case .collapsed:
            paintDim(at: time, into: &out)
        case .expanding:
            renderer.frame(at: time, into: &out)
            if !renderer.isAnimating { finishExpansion(into: &out) }
        case .expanded, .done:
            break
        }
        notePromptProgress(into: &out)
    }

    /// Everything received, settled, for a signal that ends the run: a prompt that is open ends
    /// as with q; text still typing is written at once; interrupted before the label was drawn,
    /// the view is drawn as it would have ended.
    mutating func interrupt(echo: KeyEcho?, into out: inout [UInt8]) {
        if prompt == .asking {
            press(.quit, at: lastTime, into: &out)
            out += Self.resetPen
            prompt = .done
            return
        }
        renderer.interrupt(echo: echo, into: &out)
        if phase == .overflowing {
            showCollapsed(at: lastTime, fromTextEnd: true, into: &out)
            paintDim(step: dimTargetStep, into: &out)
        }
        prompt = .done
    }

    /// The view's rows are drawn by moving the cursor: where the key left it tells nothing
    /// (`outputReached` is false), so after output was discarded only the renderer's pen and echo
    /// are written.
    mutating func abandon(echo: KeyEcho?, cursorColumn: Int?, into out: inout [UInt8]) {
        renderer.abandon(echo: echo, cursorColumn: nil, into: &out)
        prompt = .done
    }

    mutating func suspend(echo: KeyEcho?, into out: inout [UInt8]) {
        if prompt == .asking {
            // Stopped from outside (Ctrl-Z is a key in the prompt): end the prompt, then stop.
            press(.quit, at: lastTime, into: &out)
            prompt = .done
            return
        }
        renderer.suspend(echo: echo, into: &out)
        if phase == .overflowing {
            showCollapsed(at: lastTime, fromTextEnd: true, into: &out)
            paintDim(step: dimTargetStep, into: &out)
        }
    }

    mutating func resumed(into out: inout [UInt8]) {
        if prompt != .done { forgetCursor(into: &out) }
    }

    mutating func settleNow(into out: inout [UInt8]) { renderer.settleNow(into: &out) }

    func eraseEcho(_ echo: KeyEcho) -> [UInt8]? { phase == .streaming || phase == .streamingAll ? renderer.eraseEcho(echo) : nil }

    mutating func relieveMemory(at time: Seconds, into out: inout [UInt8]) {
        // Held text beyond the rows: the view expands by itself past its limit; the renderer's
        // own text is relieved as for the fade.
        renderer.relieveMemory(at: time, into: &out)
    }

    var wantsCursorReport: Bool { renderer.wantsCursorReport }
    mutating func cursorReport(column: Int?, into out: inout [UInt8]) { renderer.cursorReport(column: column, into: &out) }

    mutating func useTerminalColors(_ colors: TerminalColors) { renderer.useTerminalColors(colors) }

    // Markdown is not highlighted in the collapsed view.
    var highlightsMarkdown: Bool { false }
    var markdownStatistics: (characters: Int, restyledCells: Int, restyledOffScreen: Int)? { nil }
    mutating func startMarkdown() {}
    mutating func startMarkdownDocument() {}
    mutating func restartMarkdownDocument(after context: some Collection<UInt8>, skipping: Int) {}

    // MARK: The prompt

    enum PromptState { case none, asking, done }
    var prompt = PromptState.none

    /// The view is drawn collapsed after the end of input: keys decide what comes next.
    var wantsKeyboard: Bool { prompt == .none && inputEnded && phase == .collapsed && !isAnimating }

    /// Whether keys are being read for the prompt.
    var awaitsKeys: Bool { prompt == .asking }

    /// Starts the prompt once `wantsKeyboard`: with `keyboard` the driver reads keys and passes
    /// them to `keys`; without (no foreground terminal) the view expands without asking.
    mutating func beginPrompt(keyboard: Bool, screenRows: Int?, at time: Seconds, into out: inout [UInt8]) {
        guard wantsKeyboard else { return }
        lastTime = max(lastTime, time)
        if keyboard {
            beginPrompt(screenRows: screenRows, into: &out)
        } else {
            expandWithoutAsking(at: time, into: &out)
        }
        prompt = .asking
        notePromptProgress(into: &out)
    }

    /// Keys read from the terminal for the prompt (one read's bytes); a lost keyboard is `q`.
    mutating func keys(_ bytes: some Collection<UInt8>, at time: Seconds, into out: inout [UInt8]) {
        guard prompt == .asking else { return }
        lastTime = max(lastTime, time)
        for key in Key.parse(bytes) where awaitsKey { press(key, at: time, into: &out) }
        notePromptProgress(into: &out)
    }

    /// The prompt is over once the view stops awaiting keys.
    mutating func notePromptProgress(into out: inout [UInt8]) {
        guard prompt == .asking, !awaitsKey else { return }
        if !isDrawn {
            // The view gave up folding (a resize): the rest of the text, at once.
            renderer.settleNow(into: &out)
        }
        prompt = .done
    }

    mutating func resize(columns newColumns: Int?, rows newRows: Int?, at time: Seconds? = nil, into out: inout [UInt8]) {
        configuration.columns = newColumns
        configuration.rows = newRows
        giveUp(labelRowKnown: true, into: &out)
        renderer.resize(columns: newColumns, rows: newRows, at: time, into: &out)
    }

    mutating func forgetCursor(into out: inout [UInt8]) {
        // The shell wrote to the terminal meanwhile: the rows drawn are no longer where they were.
        giveUp(labelRowKnown: false, into: &out)
        renderer.forgetCursor(into: &out)
    }

    // MARK: Keys

    /// Keys are read from now on: the label gets its hint.
    /// - Parameter screenRows: the terminal's height (nil when unknown: no `Show less`).
    mutating func beginPrompt(screenRows: Int?, into out: inout [UInt8]) {
        prompting = true
        self.screenRows = screenRows
        if phase == .collapsed { drawLabel(expanded: false, into: &out) }
    }

    /// Whether the prompt goes on (keys are read).
    var awaitsKey: Bool { phase == .collapsed || phase == .expanding || phase == .expanded }

    /// Acts on one key at `time`.
    mutating func press(_ key: Key, at time: Seconds, into out: inout [UInt8]) {
        switch (key, phase) {
        case (.toggle, .collapsed):
            expand(at: time, restoringLastRow: true, into: &out)
            phase = .expanding
        case (.toggle, .expanding):
            // Impatient: the rest at once.
            renderer.settleNow(into: &out)
            finishExpansion(into: &out)
        case (.toggle, .expanded):
            collapse(at: time, into: &out)
        case (.quit, .collapsed), (.quit, .expanded):
            prompting = false
            drawLabel(expanded: phase == .expanded, into: &out)
            out += Self.resetPen + Array("\r\n".utf8)
            phase = .done
        case (.quit, .expanding):
            renderer.settleNow(into: &out)
            phase = .done
        default:
            break
        }
    }

    /// The prompt cannot be shown (no foreground terminal): expand without asking.
    mutating func expandWithoutAsking(at time: Seconds, into out: inout [UInt8]) {
        guard phase == .collapsed else { return }
        prompting = false
        expand(at: time, restoringLastRow: true, into: &out)
        phase = .expanding
    }

    // MARK: Following the input

    /// Takes the tokens scanned so far: while streaming, those on the visible rows go to the
    /// renderer; the rest is measured and held.
    mutating func follow(at time: Seconds) {
        var forwardEnd = forwarded
        while let token = queue.first {
            if phase == .streaming {
                var overflows = false
                if case .text(let start, let count) = token {
                    // A run of ASCII may start on a visible row and go on past the last one.
                    let fitting = layout.textBytesFitting(before: visibleRows)
                    if fitting < count {
                        if fitting > 0 {
                            layout.applyText(start: start, count: fitting)
                            forwardEnd = start + fitting
                            queue.replaceFirst(with: .text(start: start + fitting, count: count - fitting))
                        }
                        overflows = true
                    }
                } else if let landing = layout.landingRow(of: token), landing >= visibleRows {
                    overflows = true
                }
                if overflows {
                    cut = forwardEnd
                    penAtCut = layout.pen
                    cutAfterNewline = layout.row >= visibleRows
                    phase = .overflowing
                    continue
                }
                layout.apply(token, store)
                _ = queue.removeFirst()
                forwardEnd = Self.end(of: token)
                if layout.lost {
                    // Cursor movement on the visible rows: nothing here can be repainted safely.
                    phase = .streamingAll
                    break
                }
            } else {
                layout.apply(token, store)
                _ = queue.removeFirst()
                if layout.lost { restIsMeasured = false }
            }
        }
        if phase == .streamingAll {
            // Everything not yet forwarded, scanned or not, goes on to the renderer.
            forwardEnd = store.end
        }
        if forwardEnd > forwarded {
            renderer.receive(store[forwarded..<forwardEnd], at: time)
            forwarded = forwardEnd
        }
        if phase == .streaming && layout.row < visibleRows - 1 {
            // Rows above the last visible one are never repainted: their bytes can go.
            store.discard(upTo: min(layout.rowStart, forwarded, tokenizer.heldFrom))
        } else if phase == .streamingAll {
            dropHeldText()
        }
        if store.count > holdingLimit {
            // Too much to hold: the view expands by itself.
            if phase == .overflowing {
                var nothing: [UInt8] = []
                giveUp(labelRowKnown: true, into: &nothing)
            } else if phase == .collapsed {
                expandPending = true  // drawn at the next frame
            }
        }
    }

    mutating func dropHeldText() {
        store = ByteStore()
        queue = TokenQueue()
        tokenizer = configuration.cellRules.makeTokenizer()
    }

    static func end(of token: Token) -> Int {
        switch token {
        case .text(let s, let n): return s + n
        case .cluster(let s, let n, _, _), .extend(let s, let n, _, _), .sequence(let s, let n, _), .raw(let s, let n):
            return s + n
        case .control(let s, _): return s + 1
        }
    }

    /// Stops collapsing: from now on everything streams through the renderer. Before the label is
    /// drawn, the held text simply follows the rows; after, the rest starts on a fresh renderer at
    /// the label's row (erased when `labelRowKnown`; else wherever the cursor is, column unknown).
    mutating func giveUp(labelRowKnown: Bool, into out: inout [UInt8]) {
        switch phase {
        case .streaming:
            phase = .streamingAll
            dropHeldText()
        case .overflowing:
            if store.end > forwarded { renderer.receive(store[forwarded..<store.end], at: lastTime) }
            phase = .streamingAll
            dropHeldText()
        case .collapsed:
            out += Self.resetPen
            if labelRowKnown { out += Array("\r\u{1B}[K".utf8) }
            labelCells = 0
            dimStart = nil
            restartRenderer(at: lastTime)
            if !labelRowKnown { renderer.forgetCursor(into: &out) }
            phase = .streamingAll
            dropHeldText()
        default:
            break
        }
        expandPending = false
    }
}
