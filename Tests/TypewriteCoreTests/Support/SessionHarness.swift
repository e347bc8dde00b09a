@testable import TypewriteCore
import TerminalJudge

/// The tests' fake-clock driver of a `Session`: the same calls the poll driver and the library
/// make, with time passed by hand. A frame runs at every deadline the session names; everything
/// written goes to a virtual terminal. Nothing sleeps.
struct SessionHarness {
    var session: Session
    var time: Seconds = 0
    var terminal: VirtualTerminal
    /// Everything written to the terminal, in order.
    var output: [UInt8] = []
    /// What `--tee` got (with `copiesText`).
    var copy: [UInt8] = []
    /// Diagnostics, in order, each with the count of terminal bytes written before it.
    var diagnostics: [(offset: Int, error: TypewriteError, afterPartialLine: Bool)] = []

    init(_ settings: SessionSettings, columns: Int = 80, rows: Int = 24) {
        self.init(session: Session(settings: settings), columns: columns, rows: rows)
    }

    init(session: Session, columns: Int = 80, rows: Int = 24) {
        self.session = session
        terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
    }

    static func animated(columns: Int = 80, cps: Double = 80, collapse: SessionSettings.Collapse? = nil,
                         format: StreamFormat = .raw) -> SessionHarness {
        var configuration = FadeConfiguration()
        configuration.columns = columns
        configuration.charactersPerSecond = cps
        return SessionHarness(SessionSettings(mode: .animated(configuration), format: format, collapse: collapse), columns: columns)
    }

    mutating func take(_ out: SessionOutput) {
        copy += out.copy
        out.visit(terminal: { bytes in
            output += bytes
            terminal.feed(bytes)
        }, diagnosticAfter: { diagnostics.append((output.count, $0, $1)) })
    }

    /// Bytes the terminal got from elsewhere (the tty's echo of a key), not from the session.
    mutating func take(tty bytes: String) {
        output += Array(bytes.utf8)
        terminal.feed(Array(bytes.utf8))
    }

    /// Lets `seconds` pass, running every frame that falls due.
    mutating func run(for seconds: Seconds) {
        let until = time + seconds
        while let due = session.nextDeadline, due <= until {
            time = max(time, due)
            var out = SessionOutput()
            session.advance(to: time, into: &out)
            take(out)
        }
        time = until
    }

    /// Frames until the session is finished or waits for something other than time.
    @discardableResult
    mutating func settle(limit: Seconds = 60) -> Bool {
        let end = time + limit
        while !session.isFinished, let due = session.nextDeadline, due <= end {
            run(for: max(0, due - time))
        }
        return session.isFinished
    }

    mutating func receive(_ text: String, after delay: Seconds = 0) { receive(Array(text.utf8), after: delay) }

    mutating func receive(_ bytes: [UInt8], after delay: Seconds = 0) {
        run(for: delay)
        var out = SessionOutput()
        session.receive(bytes, at: time, into: &out)
        take(out)
    }

    mutating func endOfInput() {
        var out = SessionOutput()
        session.endOfInput(at: time, into: &out)
        take(out)
    }

    mutating func report(_ error: TypewriteError) {
        var out = SessionOutput()
        session.report(error, into: &out)
        take(out)
    }

    mutating func signal(_ signal: SessionSignal) -> Session.SignalResponse {
        var out = SessionOutput()
        let response = session.handle(signal, at: time, into: &out)
        take(out)
        return response
    }

    mutating func resumed() {
        var out = SessionOutput()
        session.resumed(at: time, into: &out)
        take(out)
    }

    /// Resizes, answering no cursor report (as a host that reads nothing).
    mutating func resize(columns: Int) {
        var out = SessionOutput()
        session.resize(columns: columns, rows: nil, into: &out)
        if session.wantsCursorReport { session.cursorReport(column: nil, into: &out) }
        take(out)
    }

    mutating func beginPrompt(keyboard: Bool = true) {
        var out = SessionOutput()
        session.beginPrompt(keyboard: keyboard, screenRows: 24, at: time, into: &out)
        take(out)
    }

    mutating func keys(_ text: String) {
        var out = SessionOutput()
        session.keys(Array(text.utf8), at: time, into: &out)
        take(out)
    }

    var screen: VirtualTerminal.Snapshot { terminal.snapshot() }
    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// The screen `cat` of `bytes` leaves in a terminal `columns` wide.
func catScreen(_ text: String, columns: Int = 80, rows: Int = 24) -> VirtualTerminal.Snapshot {
    var terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
    terminal.feed(text)
    return terminal.snapshot()
}

extension InputPipeline {
    /// The exit status the problems found so far imply (1 when any fails the run), without
    /// taking them.
    var exitStatus: Int32 { errors.contains(where: \.failsRun) ? 1 : 0 }
}
