import TypewriteCore

/// What the executable provides that a library must not do by itself: process-wide signal
/// handling and stopping the process.
public struct ProcessHooks {
    /// Routes SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGTSTP, SIGCONT and SIGWINCH to a self-pipe and
    /// ignores SIGPIPE (so writes report EPIPE). Returns the pipe's read end; nil when it cannot.
    public var installSignalPipe: () -> Int32?
    /// Stops the process by SIGTSTP's default action; returns after SIGCONT, routed again.
    public var suspend: () -> Void

    public init(installSignalPipe: @escaping () -> Int32?, suspend: @escaping () -> Void) {
        self.installSignalPipe = installSignalPipe
        self.suspend = suspend
    }
}

/// How a run of the command line ends: the executable exits with the status or dies by the signal.
public enum RunOutcome: Equatable, Sendable {
    /// 0 success; 1 an input could not be read, the stream reported an error or held a malformed
    /// event, or the output could not be written; 2 a usage error.
    case exit(Int32)
    /// Die by this POSIX signal (128 + N for the parent): SIGINT, SIGTERM, SIGQUIT, SIGHUP, or
    /// SIGPIPE when the reader has gone.
    case signal(Int32)
}

/// The command line: parses the arguments, decides the mode once, builds the session and runs it
/// in the poll driver. Every error becomes one `typewrite: …` line on stderr here, and the outcome
/// says how the process ends; it never exits by itself.
public enum Runner {
    public static func run(arguments: [String], environment: [String: String], hooks: ProcessHooks) -> RunOutcome {
        if let helper = ExecLeader.run(arguments) { return helper }
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            System.printError("typewrite: \(error.message)")
            if let hint = error.hint { System.printError(hint) }
            return .exit(2)
        }
        if options.help { return write(Options.helpText()) }
        if options.version { return write("typewrite \(Typewrite.version)\n") }
        if let shell = options.completions { return write(Completions.script(for: shell)) }

        // --exec: the command is found (or refused, 127 / 126) before any terminal mode is touched,
        // then started on its pty, whose settings are copied from typewrite's terminal before
        // that terminal goes raw.
        var exec: ExecRelay?
        if let command = options.command {
            do {
                exec = try startExec(command, environment: environment)
            } catch {
                System.printError("typewrite: \(error.message)")
                return .exit(error.status)
            }
        }

        let output = System.standardOutput
        let outputIsTerminal = System.isTerminal(output)
        let settings = options.settings
        let capabilities = TerminalCapabilities(environment: environment, outputIsTerminal: outputIsTerminal, animate: settings.animate,
                                                color: settings.color, reduceMotion: settings.reduceMotion)
        // Recording (--animate=always to a file or pipe): assume a terminal of COLUMNS cells.
        let geometry = outputIsTerminal
            ? TerminalGeometry(columns: System.terminalColumns(output), rows: System.terminalRows(output),
                               newlineReturnsCarriage: System.translatesNewline(output))
            : TerminalGeometry(columns: environment["COLUMNS"].flatMap { Int($0) } ?? 80, rows: nil)
        let keyboard = options.collapseLines != nil && outputIsTerminal && geometry.columns != nil && capabilities.animates
            ? Self.keyboard(environment) : nil
        let collapse = keyboard == nil ? nil : options.collapseLines.map {
            SessionSettings.Collapse(lines: $0, moreLabel: options.moreLabel, lessLabel: options.lessLabel)
        }
        var sessionSettings = SessionSettings(settings, capabilities: capabilities, terminal: geometry, outputIsTerminal: outputIsTerminal,
                                              timestampFormat: options.timestampFormat, collapse: collapse)
        if let seconds = options.notifyAfter, outputIsTerminal, (environment["TERM"] ?? "") != "dumb" {
            sessionSettings.notifier = AnswerNotifier(threshold: seconds, kind: DesktopNotification(environment: environment))
        }
        let files = options.files.isEmpty ? ["-"] : options.files
        let readsStandardInput = !options.demo && exec == nil && files.contains("-")
        var setup = PollDriver.Setup(inputs: options.demo ? [.demo(DemoScript())] : files.map { .file($0) })
        if let exec, let name = options.command?.first {
            setup.inputs = [.pseudoTerminal(exec.child.master, name: name)]
            setup.exec = exec
            // Signals matter whether or not the output animates: SIGTERM hangs the command up,
            // SIGWINCH resizes its terminal, Control-Z's stop is passed on.
            setup.signals = hooks.installSignalPipe()
            setup.suspend = hooks.suspend
        }
        if let path = options.tee {
            // Created before any input is read, as a shell's `>` would be; never one of the inputs.
            if let input = files.first(where: { $0 != "-" && System.isSameFile($0, path) }) {
                System.printError("typewrite: \(input): input file is also the --tee file")
                return .exit(2)
            }
            do {
                setup.tee = (try System.createFile(path), path)
            } catch {
                System.printError("typewrite: \(path): \(error)")
                return .exit(2)
            }
            sessionSettings.copiesText = true
        }
        if capabilities.animates {
            // Ask the terminal for its colours whenever the fade uses them (bat, delta and neovim do),
            // unless the option or TYPEWRITE_QUERY_COLORS=never says not to; the driver asks only
            // when typewrite is in the terminal's foreground and no key is waiting.
            let query = options.queryColorsGiven ? options.queryColors
                : environment["TYPEWRITE_QUERY_COLORS"].flatMap(When.init(rawValue:)) ?? .auto
            // Not when typewrite reads the terminal itself (standard input is the terminal and
            // is an input): the user types the text in, and the reply mode (no line editing)
            // would take Control-D's end of input away. `typewrite FILE` asks as a pipe does.
            // Nor inside GNU screen (STY set, or TERM screen*): it answers DA1 itself at once but
            // passes OSC 11 on to the outer terminal, whose reply then arrives after the sentinel
            // and would be echoed into the text (measured in screen 4.9 inside xterm).
            let term = environment["TERM"] ?? ""
            let insideScreen = environment["STY"] != nil || term == "screen" || term.hasPrefix("screen.") || term.hasPrefix("screen-")
            setup.queryColors = query != .never && outputIsTerminal && capabilities.colorDepth != .none
                && !(System.isTerminal(System.standardInput) && readsStandardInput) && !insideScreen
            // The palette only when the text may be highlighted: always, or a decoded answer.
            if sessionSettings.mayHighlightMarkdown(decodedInput: options.demo) {
                setup.queryPalette = MarkdownAppearance.paletteIndices
            }
            setup.keyboard = keyboard
            if setup.signals == nil { setup.signals = hooks.installSignalPipe() }
            setup.suspend = hooks.suspend
        }
        var session = Session(settings: sessionSettings)
        var driver = PollDriver(setup)
        let outcome = driver.run(&session)
        // The command's status is the run's (its death by signal N: 128 + N, as a shell reports).
        let commandStatus = driver.exec?.child.finish()
        if let path = environment["TYPEWRITE_MARKDOWN_STATS"], !path.isEmpty, let stats = session.markdownStatistics {
            // For the benchmark: how often settled cells were restyled.
            let json = "{\"characters\": \(stats.characters), \"restyledCells\": \(stats.restyledCells), "
                + "\"restyledOffScreen\": \(stats.restyledOffScreen)}\n"
            try? System.writeFile(path, Array(json.utf8))
        }
        if let keyboard = setup.keyboard { System.closeDescriptor(keyboard) }
        if let tee = setup.tee { System.closeDescriptor(tee.descriptor) }
        switch outcome {
        case .finished(let failed):
            if let commandStatus { return .exit(commandStatus == 0 && failed ? 1 : commandStatus) }
            return .exit(failed ? 1 : 0)
        case .signal(let signal):
            return .signal(signal.posixNumber)
        case .brokenPipe:
            // A reader that has gone is not an error worth a message (ripgrep, cat): die by SIGPIPE.
            return .signal(System.brokenPipeSignal)
        case .outputFailed(let error):
            System.printError(TypewriteError.outputFailed(error).line)
            return .exit(1)
        }
    }

    /// Finds `command`'s file and starts it on a pseudo-terminal of its own, with typewrite's
    /// standard input as its keys (put in raw mode when it is a terminal typewrite has the
    /// foreground of). - Throws: `ExecChild.StartError` (127 not found, 126 not executable or not
    /// started).
    static func startExec(_ command: [String], environment: [String: String]) throws(ExecChild.StartError) -> ExecRelay {
        let file = try ExecChild.resolve(command[0], path: environment["PATH"])
        let input = System.standardInput
        let terminal = [input, System.standardOutput, System.standardError].first { System.isTerminal($0) }
        let fallback = WindowSize(rows: UInt16(environment["LINES"].flatMap { Int($0) }.map { min(max($0, 1), 9999) } ?? 24),
                                  columns: UInt16(environment["COLUMNS"].flatMap { Int($0) }.map { min(max($0, 1), 9999) } ?? 80))
        let child: ExecChild
        do {
            child = try ExecChild.start(file: file, arguments: command, terminal: terminal, fallbackSize: fallback)
        } catch {
            throw ExecChild.StartError(message: "\(command[0]): \(error)", status: 126)
        }
        var relay = ExecRelay(child: child, keys: input, keysAreTerminal: System.isTerminal(input), terminal: terminal,
                              at: System.monotonicNow())
        relay.enterRawMode()
        return relay
    }

    /// The controlling terminal, opened for keys, when --collapse can work on this terminal: it
    /// understands cursor movement (TERM set and not `dumb`) and /dev/tty opens.
    static func keyboard(_ environment: [String: String]) -> Int32? {
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return nil }
        return try? System.openControllingTerminal()
    }

    /// Writes `text` to stdout; a reader that has gone ends the process quietly by SIGPIPE, like cat.
    static func write(_ text: String) -> RunOutcome {
        do {
            try System.writeAll(System.standardOutput, Array(text.utf8))
            return .exit(0)
        } catch {
            if error == .brokenPipe { return .signal(System.brokenPipeSignal) }
            System.printError(TypewriteError.outputFailed(error).line)
            return .exit(1)
        }
    }
}
