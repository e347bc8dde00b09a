/// The program: parses the command line, decides the mode once, runs it, and turns every error
/// into one `typewrite: …` line on stderr and an exit status (0 ok, 1 input or stream error,
/// 2 usage error; death by signal is 128 + N).
public enum Runner {
    /// Runs typewrite and exits.
    public static func main(arguments: [String], environment: [String: String]) -> Never {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Report.error(error.message)
            if let hint = error.hint { System.printError(hint) }
            System.exit(2)
        }
        if options.help { writeOrDie(Array(Options.helpText().utf8)); System.exit(0) }
        if options.version { writeOrDie(Array("typewrite \(Typewrite.version)\n".utf8)); System.exit(0) }
        if let shell = options.completions {
            writeOrDie(Array(Completions.script(for: shell).utf8))
            System.exit(0)
        }
        let outputIsTerminal = System.isTerminal(System.standardOutput)
        let capabilities = TerminalCapabilities(options: options, environment: environment, outputIsTerminal: outputIsTerminal)
        let inputs = options.demo ? [] : (options.files.isEmpty ? ["-"] : options.files)
        // --timestamps: dimmed when typewrite draws on a terminal with colour, plain text otherwise.
        let timestamps = options.timestampFormat.map {
            TimestampStage(format: $0, dimmed: capabilities.animates && capabilities.colorDepth != .none)
        }
        let pipeline = InputPipeline(format: options.format, timestamps: timestamps)
        let status: Int32
        if capabilities.animates {
            var configuration = FadeConfiguration()
            configuration.charactersPerSecond = options.charactersPerSecond
            configuration.fadeWidth = options.fadeWidth
            configuration.maximumLag = options.maximumLag
            configuration.colorDepth = capabilities.colorDepth
            configuration.ambiguousIsWide = options.ambiguousIsWide
            // A CJK locale hints that they may be wide, but terminals differ (tmux draws them narrow
            // whatever the locale): never fade them there, so a wrong guess cannot garble a row.
            configuration.ambiguousIsUncertain = !options.ambiguousIsWide && capabilities.ambiguousIsWide
            if capabilities.lightBackground {
                configuration.background = RGB(255, 255, 255)
                configuration.foreground = RGB(40, 40, 40)
            }
            if options.queryColors && outputIsTerminal, let colors = TerminalColors.query() {
                if let bg = colors.background { configuration.background = bg }
                if let fg = colors.foreground { configuration.foreground = fg }
            }
            if outputIsTerminal {
                configuration.columns = System.terminalColumns(System.standardOutput)
                configuration.rows = System.terminalRows(System.standardOutput)
                configuration.newlineReturnsCarriage = System.translatesNewline(System.standardOutput)
            } else {
                // Recording (--animate=always to a file or pipe): assume a terminal of COLUMNS cells.
                configuration.columns = environment["COLUMNS"].flatMap { Int($0) } ?? 80
            }
            if let lines = options.collapseLines, outputIsTerminal, configuration.columns != nil,
               let keyboard = CollapsePrompt.openKeyboard(environment: environment) {
                // --collapse: N rows, Read more / Show less (elsewhere: the whole text, no prompt).
                let view = CollapsedView(configuration: configuration, visibleRows: lines,
                                         moreLabel: options.moreLabel, lessLabel: options.lessLabel)
                status = CollapsePrompt.run(view, keyboard: keyboard, inputs: inputs,
                                            demo: options.demo ? DemoScript() : nil, pipeline: pipeline)
            } else {
                var session = AnimatedSession(renderer: FadeRenderer(configuration: configuration), inputs: inputs,
                                              demo: options.demo ? DemoScript() : nil,
                                              pipeline: pipeline)
                status = session.run()
            }
        } else {
            var session = PlainSession(inputs: inputs, demo: options.demo ? DemoScript() : nil,
                                       pipeline: pipeline)
            status = session.run()
        }
        System.exit(status)
    }

    /// Writes to stdout; a reader that has gone ends the process quietly by SIGPIPE, like cat.
    static func writeOrDie(_ bytes: [UInt8]) {
        do {
            try System.writeAll(System.standardOutput, bytes)
        } catch {
            // A broken pipe is not an error worth a message (ripgrep, cat): die by the signal.
            if error == .brokenPipe { Signals.die(by: Signals.brokenPipe) }
            Report.error("write error: \(error)")
            System.exit(1)
        }
    }
}

/// Plain mode: bytes out = bytes in, written as each read returns, nothing added — not even on a
/// signal, so signals keep their default actions (SIGPIPE included: a closed reader ends typewrite
/// quietly with status 141, as it does cat).
struct PlainSession {
    let inputs: [String]
    let demo: DemoScript?
    var pipeline: InputPipeline
    static let bufferSize = 128 * 1024

    mutating func run() -> Int32 {
        if let demo {
            for burst in demo.bursts {
                System.sleep(burst.delay)
                Runner.writeOrDie(pipeline.decorate(burst.bytes, at: System.monotonicNow()))
            }
            return 0
        }
        var status: Int32 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        inputs: for name in inputs {
            let input: InputFile
            do { input = try InputFile.open(name) } catch { Report.fileError(name, error); status = 1; continue }
            do throws(SystemError) {
                while true {
                    guard let n = try System.read(input.descriptor, into: buffer) else {
                        // The producer left our stdin non-blocking: wait for data without spinning.
                        _ = System.poll([(input.descriptor, System.pollIn)], timeout: nil)
                        continue
                    }
                    if n == 0 { break }
                    let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                    do {
                        if pipeline.isPassthrough {
                            try System.writeAll(System.standardOutput, chunk)
                        } else {
                            try System.writeAll(System.standardOutput, pipeline.process(chunk, at: System.monotonicNow()))
                            if pipeline.stopped { break inputs }
                        }
                    } catch {
                        if error == .brokenPipe { Signals.die(by: Signals.brokenPipe) }
                        Report.error("write error: \(error)")
                        return 1
                    }
                }
            } catch {
                Report.fileError(name, error)
                status = 1
            }
        }
        Runner.writeOrDie(pipeline.finish(at: System.monotonicNow()))
        return max(status, pipeline.status)
    }
}
