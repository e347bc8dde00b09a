// The session core on the fake-clock driver: the paths the command line's event loop takes on
// signals, end of input, diagnostics, --collapse keys and --timestamps, without a process.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TypewriteCore
import TerminalJudge
@testable import TypewriteCLI

@Suite("Session")
struct SessionTests {
    static let reset = "\u{1B}[0m"

    @Test("end of input: everything settles to cat's screen, an incomplete sequence passes through")
    func endOfInput() {
        var h = SessionHarness.animated()
        h.receive("first line\nsecond")
        h.receive(" line\n\u{1B}[3", after: 0.2)
        #expect(!h.session.isFinished)
        h.endOfInput()
        let settled = h.settle()
        #expect(settled)
        #expect(h.screen == catScreen("first line\nsecond line\n\u{1B}[3"))
        #expect(h.output.suffix(3) == Array("\u{1B}[3".utf8))
        #expect(h.session.nextDeadline == nil)  // idle: no timer
    }

    @Test("SIGINT, SIGTERM and SIGQUIT mid-fade: everything received written settled, the terminal as cat leaves it",
          arguments: [SessionSignal.interrupt, .terminate, .quit])
    func terminatingSignals(signal: SessionSignal) {
        var h = SessionHarness.animated()
        let text = "\u{1B}[34mblue words that are still fading in when the signal arrives"
        h.receive(text)
        h.run(for: 0.1)
        #expect(h.session.isAnimated)
        #expect(h.signal(signal) == .terminate)
        #expect(h.screen == catScreen(text))  // the input's own pen, blue, as cat leaves it
        #expect(h.session.nextDeadline == nil)
    }

    @Test("SIGINT after a key: the echo stands after the text, in the input's pen, as cat shows it")
    func interruptEchoAfterText() {
        var h = SessionHarness.animated()
        let text = "\u{1B}[34mblue words still fading"
        h.receive(text + " and more not yet shown")
        h.run(for: 0.1)
        // The tty wrote ^C where the text ended when the key was pressed, before the handler ran.
        h.take(tty: "^C")
        var out = SessionOutput()
        #expect(h.session.handle(.interrupt, echo: KeyEcho(Array("^C".utf8), landed: true), at: h.time, into: &out) == .terminate)
        h.take(out)
        #expect(h.screen == catScreen(text + " and more not yet shown^C"))
    }

    @Test("SIGINT that discarded output (NOFLSH clear): a cursor elsewhere ends the run with nothing more of the text")
    func interruptAfterDiscardedOutput() {
        var h = SessionHarness.animated()
        let text = "\u{1B}[34mblue words still fading"
        h.receive(text + " and more not yet shown")
        h.run(for: 0.1)
        let column = h.terminal.cursorColumn
        let echo = KeyEcho(Array("^C".utf8), landed: true)
        // Everything written reached the terminal: the cursor is after it and the tty's echo.
        #expect(h.session.outputReached(cursorColumn: column + 2, echo: echo, held: false))
        #expect(!h.session.outputReached(cursorColumn: column, echo: echo, held: false))
        #expect(h.session.outputReached(cursorColumn: column, echo: KeyEcho(Array("^C".utf8), landed: false), held: false))
        #expect(!h.session.outputReached(cursorColumn: nil, echo: echo, held: false), "no report: not known")
        // The terminal read only part of it: the text is cut there and the tty echoed ^C after it.
        var cut = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        cut.feed(Array(h.output.prefix(h.output.count - 7)))
        cut.feed("^C")
        #expect(!h.session.outputReached(cursorColumn: cut.cursorColumn, echo: echo, held: false))
        var out = SessionOutput()
        #expect(h.session.abandon(echo: echo, cursorColumn: cut.cursorColumn, at: h.time, into: &out) == .terminate)
        let after = String(decoding: out.bytes, as: UTF8.self)
        #expect(!after.contains("more"), "nothing more of the text: \(after.debugDescription)")
        #expect(!after.contains("^C"), "the tty's echo landed")
        #expect(after.hasSuffix("\u{1B}[0;34m"), "the input's own pen")
        #expect(h.session.nextDeadline == nil)
        // Where the tty did not echo, the echo is written at the cursor, as the tty would have.
        var quiet = SessionHarness.animated()
        quiet.receive(text)
        quiet.run(for: 0.1)
        out = SessionOutput()
        _ = quiet.session.abandon(echo: KeyEcho(Array("^C".utf8), landed: false), cursorColumn: nil, at: quiet.time, into: &out)
        #expect(String(decoding: out.bytes, as: UTF8.self).hasSuffix("^C"))
    }

    @Test("SIGINT with the echo on a row that begins its line: the row is erased whole and drawn again")
    func interruptEchoErasesWholeRow() {
        // 78 cells, then the echo fills the last two; the next character is wide and wraps early,
        // so cat never writes the last column: EL 2 leaves it unused, where ECH or EL 0 would
        // leave a cell tmux joins as a space (tmux-check ctrl-c seed 41 try 196).
        var h = SessionHarness.animated(columns: 80)
        let text = "first line\n" + String(repeating: "x", count: 78)
        h.receive(text)
        h.run(for: 5)  // all shown, settled: the cursor rests in column 78
        var held = SessionOutput()
        h.session.receive(Array("x漢字 wraps early\n".utf8), at: h.time, into: &held)  // not written yet
        #expect(held.bytes.isEmpty)
        h.take(tty: "^C")
        let before = h.output.count
        var out = SessionOutput()
        #expect(h.session.handle(.interrupt, echo: KeyEcho(Array("^C".utf8), landed: true), at: h.time, into: &out) == .terminate)
        h.take(out)
        let written = String(decoding: h.output[before...], as: UTF8.self)
        #expect(written.contains("\u{1B}[2K\r"))
        #expect(!written.contains("X"), "no ECH")
        #expect(h.screen.text == catScreen(text + "x漢字 wraps early\n^C").text)
    }

    @Test("SIGINT with a hyperlink open leaves it as cat does; the library's cancel() closes it")
    func interruptKeepsHyperlink() {
        var h = SessionHarness.animated()
        h.receive("\u{1B}]8;;https://example.com\u{1B}\\a link still open")
        h.run(for: 0.05)
        #expect(h.signal(.interrupt) == .terminate)
        #expect(!h.outputText.hasSuffix("\u{1B}]8;;\u{1B}\\" + Self.reset))
        var g = SessionHarness.animated()
        g.receive("\u{1B}]8;;https://example.com\u{1B}\\a link still open")
        g.run(for: 0.05)
        var out = SessionOutput()
        g.session.cancel(at: g.time, into: &out)
        g.take(out)
        #expect(g.outputText.hasSuffix("\u{1B}]8;;\u{1B}\\" + Self.reset))
    }

    @Test("SIGHUP: the terminal is gone, nothing more is written")
    func hangUp() {
        var h = SessionHarness.animated()
        h.receive("some text")
        h.run(for: 0.05)
        let before = h.output
        #expect(h.signal(.hangUp) == .terminate)
        #expect(h.output == before)
    }

    @Test("SIGTSTP settles what is drawn and resets before the stop; after SIGCONT typing carries on to cat's screen")
    func suspendAndResume() {
        var h = SessionHarness.animated()
        h.receive("\u{1B}[31mred text typing in, ")
        h.run(for: 0.1)
        #expect(h.signal(.suspend) == .suspend)
        #expect(h.outputText.hasSuffix(Self.reset))
        // What was drawn stays, settled in its colour; the rest waits for the job to continue.
        let shown = h.screen.text
        #expect(!shown.isEmpty && "red text typing in, ".hasPrefix(shown) && shown.count < 20)
        #expect(h.screen == catScreen("\u{1B}[31m" + shown + "\u{1B}[0m"))
        h.time += 30  // stopped
        h.resumed()
        h.receive("and more after the stop\n")
        h.endOfInput()
        let settled = h.settle()
        #expect(settled)
        #expect(h.screen.text == catScreen("red text typing in, and more after the stop\n").text)
    }

    @Test("SIGCONT without a stop it saw: the column is forgotten, the screen still right")
    func resumeUnseen() {
        var h = SessionHarness.animated()
        h.receive("typing ")
        h.run(for: 0.05)
        #expect(h.signal(.resume) == .carryOn)
        h.receive("on\n", after: 0.1)
        h.endOfInput()
        let settled = h.settle()
        #expect(settled)
        #expect(h.screen == catScreen("typing on\n"))
    }

    @Test("SIGWINCH mid-row: fading goes on or stops where it is; the screen is cat's at the new width")
    func windowChange() {
        var h = SessionHarness.animated(columns: 80)
        h.receive("a short row, then a resize\n")
        h.run(for: 0.1)
        h.resize(columns: 40)
        h.receive("and text after it, long enough to wrap at forty columns wide\n")
        h.endOfInput()
        let settled = h.settle()
        #expect(settled)
        #expect(h.screen.text == catScreen("a short row, then a resize\nand text after it, long enough to wrap at forty columns wide\n").text)
    }

    @Test("an input that fails between files is reported once the text before it has settled")
    func diagnosticsWaitForTheText() {
        var h = SessionHarness.animated()
        h.receive("first file\n")
        h.report(.unreadableInput(name: "missing.txt", SystemError(ENOENT)))
        #expect(!h.session.wantsInput)  // reading waits with the message
        #expect(h.diagnostics.isEmpty)
        h.run(for: 2)
        #expect(h.diagnostics.count == 1)
        #expect(h.diagnostics[0].error.line == "typewrite: missing.txt: No such file or directory")
        #expect(h.screen.text == "first file")  // the text was there before the message
        #expect(h.session.wantsInput)
        #expect(h.session.failed)
    }

    @Test("plain mode: bytes out as they come, diagnostics at once, signals write nothing")
    func plain() {
        var h = SessionHarness(SessionSettings(mode: .plain))
        #expect(h.session.passesInputThrough)
        h.receive([0x61, 0xFF, 0x00, 0x1B])
        #expect(h.output == [0x61, 0xFF, 0x00, 0x1B])
        h.report(.unreadableInput(name: "-", SystemError(EISDIR)))
        #expect(h.diagnostics.map(\.offset) == [4])
        #expect(h.signal(.interrupt) == .terminate)
        #expect(h.output == [0x61, 0xFF, 0x00, 0x1B])
        h.endOfInput()
        #expect(h.session.isFinished)
    }

    @Test("--format: the decoded answer, an error event stops reading and keeps the text before it")
    func decodedStreamStops() {
        var h = SessionHarness.animated(format: .sse)
        h.receive("data: {\"choices\":[{\"delta\":{\"content\":\"Kept.\"}}]}\n\n")
        h.receive("event: error\ndata: {\"error\":{\"message\":\"rate limited\"}}\n\n", after: 0.05)
        #expect(h.session.inputEnded)
        #expect(!h.session.wantsInput)
        let settled = h.settle()
        #expect(settled)
        #expect(h.screen.text == "Kept.")
        #expect(h.diagnostics.map(\.error) == [.remoteError(message: "rate limited")])
        #expect(h.diagnostics.map(\.afterPartialLine) == [true])  // "Kept." ends mid-line
        #expect(h.session.failed)
    }

    @Test("a diagnostic says whether the text before it ended mid-line (animated and plain)")
    func diagnosticsAfterPartialLines() {
        var h = SessionHarness.animated()
        h.receive("a whole line\n")
        h.report(.unreadableInput(name: "missing.txt", SystemError(ENOENT)))
        h.report(.unreadableInput(name: "other.txt", SystemError(ENOENT)))
        h.run(for: 2)
        #expect(h.diagnostics.map(\.afterPartialLine) == [false, false])
        var partial = SessionHarness.animated()
        partial.receive("no line feed")
        partial.report(.unreadableInput(name: "missing.txt", SystemError(ENOENT)))
        partial.report(.unreadableInput(name: "other.txt", SystemError(ENOENT)))
        partial.run(for: 2)
        #expect(partial.diagnostics.map(\.afterPartialLine) == [true, false])  // one line feed for both
        var plain = SessionHarness(SessionSettings(mode: .plain))
        plain.receive("no line feed")
        plain.report(.unreadableInput(name: "-", SystemError(EISDIR)))
        plain.receive("line\n")
        plain.report(.unreadableInput(name: "-", SystemError(EISDIR)))
        #expect(plain.diagnostics.map(\.afterPartialLine) == [true, false])
    }

    @Test("--collapse: the view folds, Enter expands it, Enter collapses it again, q ends the prompt")
    func collapseKeys() {
        var h = SessionHarness.animated(columns: 40, cps: 400, collapse: SessionSettings.Collapse(lines: 2))
        h.receive((1...6).map { "line \($0)" }.joined(separator: "\n") + "\n")
        h.endOfInput()
        h.settle()
        #expect(h.session.wantsKeyboard)
        #expect(!h.session.isFinished)
        h.beginPrompt()
        #expect(h.session.awaitsKeys)
        #expect(h.screen.text.contains("Read more"))
        #expect(!h.screen.text.contains("line 3"))
        h.keys("\r")
        h.settle(limit: 5)
        #expect(h.screen.text.contains("line 6"))
        #expect(h.screen.text.contains("Show less"))
        h.keys(" ")
        h.settle(limit: 5)
        #expect(!h.screen.text.contains("line 6"))
        h.keys("q")
        #expect(!h.session.awaitsKeys)
        #expect(h.session.isFinished)
    }

    @Test("--collapse without a keyboard expands by itself and finishes")
    func collapseWithoutKeyboard() {
        var h = SessionHarness.animated(columns: 40, cps: 400, collapse: SessionSettings.Collapse(lines: 2))
        h.receive("one\ntwo\nthree\nfour\n")
        h.endOfInput()
        h.settle()
        h.beginPrompt(keyboard: false)
        let settled = h.settle(limit: 5)
        #expect(settled)
        #expect(h.screen.text == catScreen("one\ntwo\nthree\nfour\n", columns: 40).text)
    }

    @Test("--collapse: SIGINT during the prompt leaves the view as it is, colours reset")
    func collapseInterrupted() {
        var h = SessionHarness.animated(columns: 40, cps: 400, collapse: SessionSettings.Collapse(lines: 2))
        h.receive("one\ntwo\nthree\nfour\n")
        h.endOfInput()
        h.settle()
        h.beginPrompt()
        #expect(h.signal(.interrupt) == .terminate)
        #expect(h.outputText.hasSuffix(CollapsedView.resetPen.map { String(UnicodeScalar($0)) }.joined()))
        #expect(h.session.isFinished)
    }

    @Test("--timestamps: each line starts with the time its first byte arrived")
    func timestamps() {
        let stage = TimestampStage(dimmed: false, clock: .fixed(1000),
                                   formatter: LocalTimeFormatter(format: "[%s]") { _, second in "[\(second)]" })
        var configuration = FadeConfiguration()
        configuration.columns = 80
        var h = SessionHarness(session: Session(mode: .animated(configuration), pipeline: InputPipeline(format: .raw, timestamps: stage)))
        h.receive("first\nsec")
        h.receive("ond\n", after: 2)
        h.receive("third\n", after: 3)
        h.endOfInput()
        let settled = h.settle()
        #expect(settled)
        #expect(h.screen.text == "[1000] first\n[1000] second\n[1005] third")
    }
}

@Suite("PollDriver")
struct PollDriverTests {
    /// A pipe whose write end is filled with `bytes` and closed.
    static func inputPipe(_ bytes: [UInt8]) -> Int32 {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0)
        _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        return ends[0]
    }

    @Test("a reader that has gone ends the run as a broken pipe, quietly")
    func brokenPipe() throws {
        signal(SIGPIPE, SIG_IGN)  // as the executable does: writes report EPIPE
        var output: [Int32] = [-1, -1]
        #expect(pipe(&output) == 0)
        close(output[0])  // the reader left
        defer { close(output[1]) }
        let input = Self.inputPipe(Array("some text\n".utf8))
        defer { close(input) }
        var setup = PollDriver.Setup(inputs: [.file("/dev/fd/\(input)")])
        setup.output = output[1]
        var session = Session(settings: SessionSettings(mode: .plain))
        var driver = PollDriver(setup)
        #expect(driver.run(&session) == .brokenPipe)
    }

    @Test("files and standard input in order, an unreadable one reported between them, like cat")
    func filesInOrder() throws {
        var output: [Int32] = [-1, -1]
        #expect(pipe(&output) == 0)
        let first = Self.inputPipe(Array("one\n".utf8)), second = Self.inputPipe([0xFF, 0x00, 0x0A])
        var setup = PollDriver.Setup(inputs: [.file("/dev/fd/\(first)"), .file("/nonexistent/file"), .file("/dev/fd/\(second)")])
        setup.output = output[1]
        var session = Session(settings: SessionSettings(mode: .plain))
        var driver = PollDriver(setup)
        #expect(driver.run(&session) == .finished(failed: true))
        close(output[1])
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(output[0], &bytes, 64)
        #expect(Array(bytes[0..<n]) == Array("one\n".utf8) + [0xFF, 0x00, 0x0A])
        close(output[0]); close(first); close(second)
    }

    @Test("on a terminal a decoded answer without a final LF ends its line; the copy and raw text stay exact",
          arguments: [(StreamFormat.sse, true), (.raw, true), (.sse, false)])
    func decodedAnswerEndsItsLine(format: StreamFormat, animated: Bool) {
        let wire = format == .raw ? "no final newline"
            : "data: {\"choices\":[{\"delta\":{\"content\":\"See the docs.\"}}]}\n\ndata: [DONE]\n\n"
        let text = format == .raw ? "no final newline" : "See the docs."
        var configuration = FadeConfiguration()
        configuration.columns = 80
        var settings = SessionSettings(mode: animated ? .animated(configuration) : .plain, format: format)
        settings.copiesText = true
        settings.decodedLineEnd = [0x0A]
        var h = SessionHarness(settings)
        h.receive(wire)
        h.endOfInput()
        h.settle()
        #expect(h.copy == Array(text.utf8))  // --tee: the exact text
        if animated {
            #expect(h.terminal.cursorColumn == (format == .raw ? text.count : 0))
        } else {
            #expect(h.output == Array(text.utf8) + (format == .raw ? [] : [0x0A]))
        }
        guard format != .raw else { return }
        // An answer that ends its line gets nothing more.
        var ended = SessionHarness(settings)
        ended.receive(wire.replacingOccurrences(of: "docs.", with: "docs.\\n"))
        ended.endOfInput()
        ended.settle()
        #expect(ended.copy == Array((text + "\n").utf8))
        if animated {
            #expect(ended.terminal.cursorColumn == 0 && ended.terminal.cursorRow == 1)
        } else {
            #expect(ended.output == ended.copy)
        }
    }

    @Test("--tee: the copy is what a pipe would get, as it arrives, whatever the terminal shows",
          arguments: [StreamFormat.raw, .sse])
    func teeCopiesWhatAPipeGets(format: StreamFormat) {
        let wire = format == .raw ? "plain \u{1B}[31mred\u{1B}[0m text\n"
            : "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"lo **there**\"}}]}\n\n"
        var plain = SessionHarness(SessionSettings(mode: .plain, format: format))
        plain.receive(wire)
        plain.endOfInput()
        var configuration = FadeConfiguration()
        configuration.columns = 80
        var settings = SessionSettings(mode: .animated(configuration), format: format)
        settings.copiesText = true
        var h = SessionHarness(settings)
        h.receive(wire)
        #expect(h.copy == plain.output)  // at once, before any frame
        h.endOfInput()
        h.settle()
        #expect(h.copy == plain.output)
        #expect(h.output != plain.output)
    }

}
