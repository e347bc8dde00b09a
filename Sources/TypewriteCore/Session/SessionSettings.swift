/// The signals the session reacts to (POSIX names in the comments).
package enum SessionSignal: Equatable, Sendable {
    /// SIGINT (Ctrl-C).
    case interrupt
    /// SIGTERM.
    case terminate
    /// SIGQUIT (Ctrl-\).
    case quit
    /// SIGHUP: the terminal is gone.
    case hangUp
    /// SIGTSTP (Ctrl-Z).
    case suspend
    /// SIGCONT.
    case resume
}

/// How a session is set up, decided once at start.
package struct SessionSettings: Sendable {
    /// Plain or animated.
    package enum Mode: Sendable {
        /// Bytes out = bytes in (or the decoded text), as each read returns; nothing added.
        case plain
        /// Paced and faded with these settings.
        case animated(FadeConfiguration)
    }

    /// `--collapse`: at most `lines` rows, then a label that expands the view (`docs/design.md#collapsed-view`).
    package struct Collapse: Sendable {
        /// Rows shown while collapsed (≥ 1).
        package var lines: Int
        package var moreLabel: String
        package var lessLabel: String

        package init(lines: Int, moreLabel: String = "Read more", lessLabel: String = "Show less") {
            self.lines = max(1, lines)
            self.moreLabel = moreLabel
            self.lessLabel = lessLabel
        }
    }

    package var mode: Mode
    /// How the input bytes are read: raw text, or a model's wire stream to decode.
    package var format: StreamFormat
    /// What a decoded stream's reasoning does: hidden, shown dimmed before the answer, or shown.
    package var thinking: ThinkingDisplay
    /// Raw input only: say once at the end which `--format` would decode it, when it is plainly
    /// a model stream (meant for a terminal, where nobody parses the output).
    package var suggestsFormat: Bool
    /// strftime(3) format of per-line timestamps; nil for none.
    package var timestampFormat: String?
    /// When text is highlighted as markdown (animated mode only): `.auto` when it is a decoded
    /// model answer (any format but raw, the demo's answer), `.always` raw text too.
    package var markdown: When = .auto
    /// The collapsed view, on a terminal only; nil for none.
    package var collapse: Collapse?
    /// What the session may hold for text not yet shown; every holding cap derives from it.
    package var memoryBudget = MemoryBudget.standard
    /// Whether `SessionOutput.copy` gets what a pipe would receive (`--tee`).
    package var copiesText = false
    /// `--notify`: when a long answer is complete, the terminal is asked to tell the desktop (on a
    /// terminal only); nil for never.
    package var notifier: AnswerNotifier?
    /// The bytes that end a decoded answer's last line when the answer does not end with LF
    /// (LF, or CR LF on a tty that does not translate LF), so the shell's prompt starts on a line
    /// of its own; nil writes the exact text (not a terminal, or a library host). Not copied to
    /// `SessionOutput.copy`; raw input never gets it (it stays as cat leaves it).
    package var decodedLineEnd: [UInt8]?

    package init(mode: Mode, format: StreamFormat = .raw, thinking: ThinkingDisplay = .hide, suggestsFormat: Bool = false,
                timestampFormat: String? = nil, collapse: Collapse? = nil) {
        self.mode = mode
        self.format = format
        self.thinking = thinking
        self.suggestsFormat = suggestsFormat
        self.timestampFormat = timestampFormat
        self.collapse = collapse
    }
}

/// The terminal an output ends on, as far as the caller knows it.
package struct TerminalGeometry: Sendable, Equatable {
    /// Width in cells; nil when unknown (nothing fades then).
    package var columns: Int?
    /// Height in rows; nil when unknown (nothing is written ahead of the rows then).
    package var rows: Int?
    /// Whether the tty turns LF into CR LF (termios OPOST and ONLCR).
    package var newlineReturnsCarriage: Bool

    package init(columns: Int?, rows: Int?, newlineReturnsCarriage: Bool = true) {
        self.columns = columns
        self.rows = rows
        self.newlineReturnsCarriage = newlineReturnsCarriage
    }
}

extension SessionSettings {
    /// Everything about a session decided once, the same way for the command line and the library:
    /// plain or animated (`TerminalCapabilities`), the fade's configuration from `settings`, and
    /// whether markdown is highlighted — only where typewrite writes escape sequences of its own,
    /// and not under the timestamps' prefixes or in the collapsed view, which are not the answer.
    /// - Parameters:
    ///   - settings: the settings, validated.
    ///   - capabilities: what may be written to this output, from the environment.
    ///   - terminal: the terminal's size and newline translation (a recording assumes `COLUMNS`).
    ///   - outputIsTerminal: whether the output is a terminal (advice about `--format` only there).
    package init(_ settings: Typewriter.Settings, capabilities: TerminalCapabilities, terminal: TerminalGeometry,
                 outputIsTerminal: Bool, timestampFormat: String? = nil, collapse: Collapse? = nil) {
        let budget = MemoryBudget(bytes: settings.memoryBudget)
        var mode = Mode.plain
        if capabilities.animates {
            var configuration = capabilities.fadeConfiguration(columns: terminal.columns, rows: terminal.rows,
                                                               newlineReturnsCarriage: terminal.newlineReturnsCarriage,
                                                               ambiguousIsWide: settings.ambiguousIsWide,
                                                               hyperlinks: settings.hyperlinks)
            configuration.charactersPerSecond = settings.charactersPerSecond
            configuration.fadeWidth = settings.fadeWidth
            configuration.maximumLag = settings.maximumLag
            configuration.memoryBudget = budget
            // Ids of one session's links differ from those of any other on the screen.
            configuration.hyperlinkIDPrefix = "tw" + String(UInt32.random(in: .min ... .max), radix: 36)
            if let colors = settings.terminalColors {
                if let background = colors.background { configuration.background = background }
                if let foreground = colors.foreground { configuration.foreground = foreground }
                configuration.palette = colors.palette
            }
            mode = .animated(configuration)
        }
        self.init(mode: mode, format: settings.format, thinking: settings.thinking,
                  suggestsFormat: capabilities.animates && outputIsTerminal, timestampFormat: timestampFormat,
                  collapse: collapse)
        markdown = capabilities.animates && capabilities.allowsAttributes && timestampFormat == nil && collapse == nil
            ? settings.markdown : .never
        memoryBudget = budget
    }

    /// Whether markdown may be highlighted at all: always, or when the text is a decoded answer
    /// (a `format` that decodes, or the demo's answer, `decodedInput`). The palette entries the
    /// looks use are asked for only then.
    package func mayHighlightMarkdown(decodedInput: Bool = false) -> Bool {
        markdown == .always || (markdown == .auto && (format != .raw || decodedInput))
    }
}

/// What a session call writes: terminal bytes, with diagnostics at their places among them (a
/// diagnostic goes to standard error after the bytes before it and before the bytes after it).
package struct SessionOutput: Sendable {
    /// Bytes for the terminal (standard output), in order.
    package var bytes: [UInt8] = []
    /// What a pipe would have received for the same input, as it arrived (`--tee`): the decoded
    /// answer, the timestamps' prefixes, or the bytes as they came; only with `copiesText`.
    package var copy: [UInt8] = []
    /// Diagnostics, each with the count of `bytes` written before it, and whether those bytes
    /// left the cursor after some text on its row (`afterPartialLine`: on a terminal shared with
    /// standard error the message then starts on a line of its own).
    package private(set) var diagnostics: [(offset: Int, error: TypewriteError, afterPartialLine: Bool)] = []

    package init() {}

    /// Appends `other` after what this holds, diagnostics in their places.
    package mutating func append(_ other: SessionOutput) {
        let base = bytes.count
        bytes += other.bytes
        copy += other.copy
        diagnostics += other.diagnostics.map { (base + $0.offset, $0.error, $0.afterPartialLine) }
    }

    /// Adds a diagnostic after the bytes so far.
    package mutating func report(_ error: TypewriteError, afterPartialLine: Bool = false) {
        diagnostics.append((bytes.count, error, afterPartialLine))
    }

    /// Whether there is nothing to write.
    package var isEmpty: Bool { bytes.isEmpty && diagnostics.isEmpty && copy.isEmpty }

    /// Empties it for reuse.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        copy.removeAll(keepingCapacity: true)
        diagnostics.removeAll()
    }

    /// Visits the output in order: runs of terminal bytes and the diagnostics between them.
    package func visit(terminal: (ArraySlice<UInt8>) throws -> Void, diagnostic: (TypewriteError) -> Void) rethrows {
        try visit(terminal: terminal, diagnosticAfter: { error, _ in diagnostic(error) })
    }

    /// Visits the output in order: runs of terminal bytes and the diagnostics between them, each
    /// with whether the text before it ended mid-line.
    package func visit(terminal: (ArraySlice<UInt8>) throws -> Void,
                       diagnosticAfter diagnostic: (TypewriteError, _ afterPartialLine: Bool) -> Void) rethrows {
        var start = 0
        for (offset, error, afterPartialLine) in diagnostics {
            if offset > start { try terminal(bytes[start..<offset]) }
            start = offset
            diagnostic(error, afterPartialLine)
        }
        if start < bytes.count { try terminal(bytes[start...]) }
    }
}
