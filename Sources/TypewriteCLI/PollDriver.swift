#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TypewriteCore

/// Where the text comes from, in order.
package enum InputSource: Sendable {
    /// A file by name; "-" is standard input.
    case file(String)
    /// The built-in demo: an answer streamed the way a language model sends tokens.
    case demo(DemoScript)
    /// The pseudo-terminal of the command `--exec` runs (its master), named for messages: read
    /// until EIO, which is its end once every program on it has closed it.
    case pseudoTerminal(Int32, name: String)
}

/// The command line's event loop around a `Session`: the design card's non-blocking reader
/// (each input a `FileHandle`, read with `poll` + `read(2)`, never changing its `O_NONBLOCK`
/// flag), one `write(2)` per frame, and the signals, keys and terminal replies it is given. In
/// plain mode a regular file passes through inside the kernel where it can (`sendfile`, as pv
/// splices), to anything but a terminal.
///
/// It owns no process-wide state: the host passes the read end of a signal self-pipe (one byte
/// per signal number), decides what a signal's death or a stop means, and turns the outcome into
/// an exit. The only timer is the session's next deadline: idle, the loop sleeps in `poll` with no
/// timeout (zero system calls).
package struct PollDriver {
    /// What the loop works with.
    package struct Setup {
        /// The inputs, in order.
        package var inputs: [InputSource]
        /// Where terminal bytes go (standard output).
        package var output: Int32 = System.standardOutput
        /// Read end of a self-pipe that carries signal numbers as bytes (nil: no signals).
        package var signals: Int32?
        /// The controlling terminal, open for the `--collapse` prompt's keys (nil: no keys).
        package var keyboard: Int32?
        /// Whether to ask the terminal for its colours (OSC 10/11 with a DA1 sentinel) on
        /// `/dev/tty` while the text streams.
        package var queryColors = false
        /// Palette entries to ask for with the colours (OSC 4), when markdown may be highlighted.
        package var queryPalette: [UInt8] = []
        /// Stops the process (SIGTSTP's default action) and returns once it continues.
        package var suspend: () -> Void = {}
        /// `--tee FILE`: where what a pipe would receive is copied, as it arrives, and its name
        /// for a message.
        package var tee: (descriptor: Int32, name: String)?
        /// `--exec`: the command on its pty (one of the inputs) and the keys that go to it.
        var exec: ExecRelay?

        package init(inputs: [InputSource]) { self.inputs = inputs }
    }

    /// How the loop ended.
    package enum Outcome: Equatable, Sendable {
        /// Everything was shown; `failed` when some error made the run fail (exit status 1).
        case finished(failed: Bool)
        /// A signal ends the run (its output written, terminal modes restored): the host dies by it.
        case signal(SessionSignal)
        /// The reader of the output has gone (EPIPE or a closed pipe): quiet, like cat.
        case brokenPipe
        /// Writing the output failed otherwise.
        case outputFailed(SystemError)
    }

    /// Most bytes taken in as one burst when animating, in bytes (a pipe gives at most 64 KiB a
    /// call; reading on until the pipe is empty paces a large burst from its arrival).
    package static let burstSize = 1024 * 1024
    /// Bytes read at a time in plain mode.
    package static let plainReadSize = 128 * 1024
    /// How long the loop lets the tty's echo of a signal's key reach the terminal before it
    /// writes, in seconds.
    static let echoWait: Seconds = 0.001
    /// How often a run that holds no terminal modes checks whether it is now in the foreground,
    /// in seconds.
    static let foregroundCheckInterval: Seconds = 0.25
    /// Bytes copied at a time inside the kernel in plain mode (see `copiesInKernel`).
    static let kernelCopySize = 1024 * 1024

    var setup: Setup
    /// `--exec`: the command and its keys (the setup's, owned by the loop from `init` on).
    var exec: ExecRelay?
    /// `--exec`: the size of the last read of the pty, in bytes, and when it was (`execInputRestsUntil`).
    var lastPieceSize = Int.max
    private var nextInput = 0
    var current: (file: InputFile, name: String)?
    private var demo: (script: DemoScript, next: Int, due: Seconds)?
    /// End of input seen behind the last burst's bytes: the next turn takes it (a terminal's
    /// Control-D is reported only once, so it must not be lost behind the data before it).
    private var endSeen = false
    private var keyMode: SavedTerminalMode?
    var colorQuery: TerminalQuery?
    var cursorQuery: TerminalQuery?
    /// When the next cursor position query may be sent (a moment after a resize), and how many
    /// answers in a row came from before it.
    private var cursorQueryFrom: Seconds = 0
    private var cursorQueries = 0
    /// When the last SIGWINCH came.
    private var resizedAt: Seconds = -.infinity
    /// A resize came while a cursor position query was out: its answer may be from before it.
    private var cursorQueryIsStale = false
    /// The width the session was last told of (SIGWINCH), to tell a resize whose signal is still
    /// on its way.
    private var toldColumns: Int?
    /// The copy's write failed (said once; the run goes on and fails at the end).
    private var teeFailed = false
    /// Output made before a signal arrived and not written yet: it goes out after the signal is
    /// handled, behind the erasure of the key's echo.
    private var held = SessionOutput()
    /// What `keepQueues` changed in the terminal's modes, to be put back.
    var keptQueues: System.KeptQueues?
    /// When `keepQueues` is next tried while it holds nothing (the job may have been brought to
    /// the foreground).
    private var queuesCheckDue: Seconds = 0
    /// A key on the terminal (Ctrl-C, Ctrl-\) ended the run.
    private var endedByKey = false
    /// Whether the current input goes to the output inside the kernel (`System.copyInKernel`):
    /// bytes passed through unchanged from a regular file to anything but a terminal. Decided
    /// when the input opens; off for good once the kernel refuses the pair.
    private var copiesInKernel = false
    /// Whether standard error is the terminal the output goes to.
    private let errorsShareTerminal: Bool

    package init(_ setup: Setup) {
        self.setup = setup
        exec = setup.exec
        self.setup.exec = nil
        errorsShareTerminal = System.sameTerminal(setup.output, System.standardError)
    }

    /// Runs `session` until it is finished, a signal ends it, or the output fails.
    package mutating func run(_ session: inout Session) -> Outcome {
        keepQueues(session)
        let outcome = loop(&session)
        leaveKeyMode()
        if outcome != .signal(.hangUp) {
            finishColorQuery(&session)
            cursorQuery?.finish()
        }
        cursorQuery = nil
        // After the queries, which put back the raw mode they found.
        endExec(outcome)
        // Last: the queries' and the prompt's saved modes carry NOFLSH.
        releaseQueues(discardTypedAhead: endedByKey)
        return outcome
    }

    private mutating func loop(_ session: inout Session) -> Outcome {
        let readLimit = session.isAnimated ? Self.burstSize : Self.plainReadSize
        // Page-aligned, as cat's: the kernel copies from the page cache several times faster into a
        // page-aligned buffer than into one 16 bytes past a page boundary (measured: 4x on 1 GiB).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readLimit, alignment: 4096)
        defer { buffer.deallocate() }
        let watchReader = session.isAnimated && System.isPipe(setup.output)
        var out = SessionOutput()
        session.beginAnswer(at: System.monotonicNow())
        if setup.queryColors && session.isAnimated {
            colorQuery = TerminalQuery.start(TerminalColors.request(palette: setup.queryPalette), giveUp: 2, output: setup.output)
        }

        while true {
            var now = System.monotonicNow()
            if let signals = setup.signals, Self.isReadable(signals) {
                // A signal came since the last poll (which it may have cut short). Output made
                // meanwhile waits until it is handled: the tty may have echoed a key where the
                // cursor rests now. And no frame is made first: after a resize the terminal
                // already has its new width, and a frame made for the old one would land there.
                held.append(out)
                out.removeAll()
                if let response = handleSignals(signals, &session, at: now, out: &out) { return response }
                continue
            }
            if now >= queuesCheckDue {
                // Brought to the foreground by `fg` while running (the shell sends no signal then),
                // or another program of the job put its own modes back (sudo, ssh): set again.
                queuesCheckDue = now + Self.foregroundCheckInterval
                keepQueues(session)
                if exec?.holdsRawMode == false, exec?.keysAreTerminal == true { resumeExec() }
            }
            if !held.isEmpty {
                held.append(out)
                out = held
                held.removeAll()
            }
            if let failure = emit(&out) { return failure }
            if current == nil && demo == nil && !session.inputEnded && session.wantsInput {
                openNextInput(&session, at: now, into: &out)
                continue
            }
            if session.isFinished {
                // A key's signal often comes with the end of the input (the producer in the same
                // process group died of it first): one that came before the exit ends the run as
                // it would have ended cat's, by the signal.
                if let signals = setup.signals, Self.isReadable(signals) {
                    if let response = handleSignals(signals, &session, at: now, out: &out) { return response }
                    continue
                }
                session.completeAnswer(at: now, into: &out)
                if let failure = emit(&out) { return failure }
                return .finished(failed: session.failed || teeFailed)
            }
            if session.wantsKeyboard {
                beginPrompt(&session, at: now, into: &out)
                continue
            }
            // The first frames wait a moment for the terminal's colours, so no cell starts its fade
            // from an assumed background (a dark one on a light terminal runs backwards).
            let framesFrom = colorQuery.map { $0.firstFrameAt } ?? 0
            if let relay = exec, relay.isDue(at: now), execDue(&session, at: now, into: &out) { continue }
            if let due = session.nextDeadline, now >= max(due, framesFrom) {
                session.advance(to: now, into: &out)
                continue
            }

            var reading = session.wantsInput ? current : nil
            var timeout = endSeen && reading != nil ? 0 : session.nextDeadline.map { max($0, framesFrom) - now }
            if reading != nil, let resting = execInputRestsUntil(at: now) {
                reading = nil
                timeout = min(timeout ?? .infinity, resting - now)
            }
            if let demo { timeout = min(timeout ?? .infinity, demo.due - now) }
            if let wait = exec?.timeout(from: now) { timeout = min(timeout ?? .infinity, wait) }
            if exec != nil && exec?.holdsRawMode == false && exec?.keysAreTerminal == true {
                timeout = min(timeout ?? .infinity, Self.foregroundCheckInterval)  // `fg` sends no signal
            }
            if let query = colorQuery {
                if now >= query.giveUpAt {
                    colorQuery?.abandon()
                    exec?.forward(TerminalQuery.typedKeys(in: query.reply), at: now)
                    colorQuery = nil
                    continue
                }
                timeout = min(timeout ?? .infinity, query.giveUpAt - now)
            }
            if session.wantsCursorReport && cursorQuery == nil {
                // The terminal's size changed and where the fading cells are depends on how it
                // reflowed its rows: ask where the cursor is (not while another query waits), once
                // no other resize has come for `resizeQuietTime`, so the terminal has finished it
                // (tmux 3.3a sets the new size before it reflows, and answered a query in between
                // from the old rows) and a later resize tmux holds back has been signalled.
                if now < cursorQueryFrom {
                    timeout = min(timeout ?? .infinity, cursorQueryFrom - now)
                } else {
                    cursorQuery = colorQuery == nil ? TerminalQuery.start(Self.cursorPositionRequest, giveUp: Self.cursorReportWait, output: setup.output) : nil
                    if cursorQuery == nil { session.cursorReport(column: nil, into: &out) }
                    continue
                }
            }
            if let query = cursorQuery {
                if now >= query.giveUpAt {
                    cursorQuery?.abandon()
                    exec?.forward(TerminalQuery.typedKeys(in: query.reply), at: now)
                    cursorQuery = nil
                    session.cursorReport(column: nil, into: &out)
                    continue
                }
                timeout = min(timeout ?? .infinity, query.giveUpAt - now)
            }
            if let reading, !session.isAnimated, timeout == nil, setup.signals == nil {
                // Plain mode with nothing else to wait for: read at once, as cat does.
                if let failure = read(reading, into: buffer, limit: readLimit, &session, at: now, out: &out) { return failure }
                continue
            }

            var fds: [(fd: Int32, events: Int16)] = []
            let signalIndex = setup.signals.map { fds.append(($0, System.pollIn)); return fds.count - 1 }
            let inputIndex = reading.map { fds.append(($0.file.descriptor, System.pollIn)); return fds.count - 1 }
            let keyIndex: Int? = session.awaitsKeys && keyMode != nil ? setup.keyboard.map { fds.append(($0, System.pollIn)); return fds.count - 1 } : nil
            let queryIndex = colorQuery.map { fds.append(($0.descriptor, System.pollIn)); return fds.count - 1 }
            let cursorIndex = cursorQuery.map { fds.append(($0.descriptor, System.pollIn)); return fds.count - 1 }
            let outputIndex: Int? = watchReader ? { fds.append((setup.output, 0)); return fds.count - 1 }() : nil
            let execIndices = execPollEntries(at: now, into: &fds)
            let events = System.poll(fds, timeout: timeout)
            now = System.monotonicNow()

            if let i = signalIndex, events[i] & System.pollIn != 0 {
                if let response = handleSignals(fds[i].fd, &session, at: now, out: &out) { return response }
            }
            if let i = outputIndex, events[i] & (System.pollError | System.pollHangUp) != 0 {
                return .brokenPipe  // the reader left: quiet, like cat (status 141)
            }
            if let i = queryIndex, events[i] != 0, colorQuery?.read() == true { finishColorQuery(&session) }
            if let i = cursorIndex, events[i] != 0, cursorQuery?.read() == true, let reply = cursorQuery?.reply {
                cursorQuery = nil
                exec?.forward(TerminalQuery.typedKeys(in: reply), at: now)
                let column = TerminalQuery.cursorColumn(in: reply)
                // One past the last column is tmux's pending wrap; further is from before a resize.
                let width = System.terminalColumns(setup.output)
                if cursorQueryIsStale || (column.map { $0 > (width ?? .max) } ?? false) || width != toldColumns,
                   now - resizedAt < Self.resizeSignalLatency, cursorQueries < 20 {
                    // Another resize came after the question (its signal may still be on its way:
                    // the width is not the one the session knows), or the answer is past the new
                    // width (from before the resize, or from a size whose signal has not come: tmux
                    // 3.3a resizes its rows at once but tells the pty of a second resize within
                    // 250 ms only when that time has passed): ask again.
                    cursorQueries += 1
                    cursorQueryIsStale = false
                    cursorQueryFrom = now + Self.cursorQueryDelay
                } else {
                    cursorQueryIsStale = false
                    cursorQueries = 0
                    session.cursorReport(column: column, into: &out)
                    // Still wanted: the answer fit no kind of terminal; ask again in a moment.
                    cursorQueryFrom = now + Self.cursorQueryDelay
                }
            }
            if let reading, let i = inputIndex, events[i] != 0 || endSeen {
                if let failure = read(reading, into: buffer, limit: session.readSize(limit: readLimit), &session, at: now, out: &out) {
                    return failure
                }
            }
            if let indices = execIndices, let failure = execEvents(indices, events, &session, at: now, into: &out) {
                return failure
            }
            if let i = keyIndex, let keyboard = setup.keyboard, events[i] != 0 {
                readKeys(keyboard, events[i], &session, at: now, into: &out)
            }
            if let script = demo, now >= script.due {
                let burst = script.script.bursts[script.next]
                session.receive(burst.bytes, at: now, decoded: true, into: &out)
                if script.next + 1 < script.script.bursts.count {
                    demo = (script.script, script.next + 1, script.due + script.script.bursts[script.next + 1].delay)
                } else {
                    demo = nil
                    current = nil
                    openNextInput(&session, at: now, into: &out)
                }
            }
        }
    }

    // MARK: Input

    /// Opens the next input; one that cannot be opened is reported (after the text before it has
    /// settled), and the loop carries on with the next, like cat. No inputs left: end of input.
    private mutating func openNextInput(_ session: inout Session, at now: Seconds, into out: inout SessionOutput) {
        guard nextInput < setup.inputs.count else {
            session.endOfInput(at: now, into: &out)
            return
        }
        let source = setup.inputs[nextInput]
        nextInput += 1
        switch source {
        case .demo(let script):
            demo = (script, 0, now + (script.bursts.first?.delay ?? 0))
            if script.bursts.isEmpty { demo = nil; openNextInput(&session, at: now, into: &out) }
        case .pseudoTerminal(let master, let name):
            current = (InputFile.pseudoTerminal(master, name: name), name)
            copiesInKernel = false
        case .file(let name):
            do {
                let file = try InputFile.open(name)
                current = (file, name)
                copiesInKernel = session.passesInputThrough && System.isRegularFile(file.descriptor)
                    && !System.isTerminal(setup.output) && setup.tee == nil
            } catch {
                session.report(.unreadableInput(name: name, error), into: &out)
            }
        }
    }

    private mutating func read(_ input: (file: InputFile, name: String), into buffer: UnsafeMutableRawBufferPointer, limit: Int,
                               _ session: inout Session, at now: Seconds, out: inout SessionOutput) -> Outcome? {
        if copiesInKernel && session.passesInputThrough {
            if let failure = emit(&out) { return failure }
            do throws(SystemError) {
                if let n = try System.copyInKernel(from: input.file.descriptor, to: setup.output, count: Self.kernelCopySize) {
                    if n == 0 { current = nil }
                    return nil
                }
            } catch {
                return Self.outcome(of: error)
            }
            copiesInKernel = false  // not between these two: read and write from here on
        }
        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(limit, buffer.count)])
        var count = 0
        // When the bytes arrived: `now` was read before a plain-mode read(2) that may have waited
        // for them (a line's --timestamps prefix is the time its first byte arrived).
        var arrival = now
        do throws(SystemError) {
            if endSeen {
                endSeen = false
            } else if session.isAnimated {
                guard let burst = try Self.readBurst(input.file.descriptor, into: room) else { return nil }
                count = burst.count
                endSeen = burst.ended && count > 0
            } else {
                guard let n = try System.read(input.file.descriptor, into: room) else {
                    // The producer left our stdin non-blocking: wait for data without spinning.
                    _ = System.poll([(input.file.descriptor, System.pollIn)], timeout: nil)
                    return nil
                }
                count = n
                arrival = max(now, System.monotonicNow())
            }
        } catch {
            // A pty's master reads EIO once every program on it has closed it: its end.
            if !(exec != nil && error.code == EIO) { session.report(.unreadableInput(name: input.name, error), into: &out) }
            current = nil
            return nil
        }
        if count == 0 {
            current = nil
            return nil
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        if session.passesInputThrough {
            if let failure = emit(&out) { return failure }
            writeCopy(bytes)
            do { try System.writeAll(setup.output, bytes) } catch { return Self.outcome(of: error) }
            session.passedThrough(endingWith: bytes[bytes.count - 1])
        } else {
            session.receive(bytes, at: arrival, into: &out)
        }
        if exec?.output(bytes, at: now) == true { session.settleNow(at: now, into: &out) }  // a key's echo
        if exec != nil { lastPieceSize = count }
        if session.inputEnded { current = nil }  // the stream reported an error: read no further
        return nil
    }

    /// Reads a burst: everything available now, up to `buffer.count` bytes, in as many `read(2)`
    /// calls as it takes, so a large burst is paced from its arrival rather than from its last
    /// piece. Returns nil when nothing was available, and whether end of input was seen after
    /// the bytes.
    static func readBurst(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> (count: Int, ended: Bool)? {
        guard var total = try System.read(fd, into: buffer) else { return nil }
        while total > 0 && total < buffer.count,
              System.poll([(fd, System.pollIn)], timeout: 0)[0] & System.pollIn != 0 {
            // An error after some bytes (EIO: a pty's end) is the next call's to report.
            guard let n = try? System.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...])) else { break }
            if n == 0 { return (total, true) }
            total += n
        }
        return (total, total == 0)
    }

    // MARK: Signals and keys

    /// Whether `fd` has something to read now (the signals' self-pipe).
    private static func isReadable(_ fd: Int32) -> Bool {
        System.poll([(fd, System.pollIn)], timeout: 0)[0] & System.pollIn != 0
    }

    /// Handles every signal waiting on the self-pipe `fd`, in order; the run's outcome when one
    /// ends it.
    private mutating func handleSignals(_ fd: Int32, _ session: inout Session, at now: Seconds,
                                        out: inout SessionOutput) -> Outcome? {
        for (signo, fromTerminal) in System.drainSignals(fd) {
            if let response = handleSignal(signo, fromTerminal: fromTerminal, &session, at: now, out: &out) { return response }
        }
        return nil
    }

    private mutating func handleSignal(_ signo: Int32, fromTerminal: Bool, _ session: inout Session, at now: Seconds,
                                       out: inout SessionOutput) -> Outcome? {
        if signo == SIGWINCH {
            exec?.followWindowSize()
            toldColumns = System.terminalColumns(setup.output)
            session.resize(columns: toldColumns, rows: System.terminalRows(setup.output), at: now, into: &out)
            cursorQueryFrom = now + Self.resizeQuietTime
            resizedAt = now
            if cursorQuery != nil { cursorQueryIsStale = true }
            return nil
        }
        guard let signal = SessionSignal(posixNumber: signo) else { return nil }
        if signal == .resume {
            resumeExec()
            keepQueues(session)
        }
        if signal == .resume, session.awaitsKeys, keyMode != nil, let keyboard = setup.keyboard {
            // Stopped without our knowing (SIGSTOP): the shell may have reset the terminal.
            let stillOurs = System.isForegroundProcessGroup(keyboard) && (try? System.enterKeyMode(keyboard)) != nil
            if !stillOurs { session.keyboardLost(at: now, into: &out) }
        }
        // A key sent it: the tty echoed it at the cursor (read before typewrite's own modes are
        // put back), or would have. A few milliseconds let the echo, which the line discipline
        // writes right after it sends the signal, reach the terminal before typewrite writes.
        var echo: KeyEcho?
        if fromTerminal && session.isAnimated {
            echo = System.keyEcho(for: signo, terminal: setup.output, userMode: keptQueues?.user ?? colorQuery?.savedMode ?? cursorQuery?.savedMode ?? keyMode)
            if echo?.landed == true { _ = System.poll([], timeout: Self.echoWait) }
        }
        var discarded = false, column: Int?
        if fromTerminal && session.isAnimated && (signal == .interrupt || signal == .quit),
           !System.keepsQueuesOnSignalKeys(setup.output) {
            // NOFLSH was clear (another program of the job put its own modes back): the tty discarded
            // what the terminal had not read. Where the cursor is tells whether that was anything.
            column = colorQuery == nil && cursorQuery == nil
                ? TerminalQuery.cursorColumnNow(Self.cursorPositionRequest, wait: Self.discardCheckWait, output: setup.output) : nil
            discarded = !session.outputReached(cursorColumn: column, echo: echo, held: !held.isEmpty)
            if discarded { held.removeAll(); out.removeAll() }
        }
        if !held.isEmpty {
            // Output made before the signal and not written: the echo landed before it, where the
            // cursor rested. Erase it there, write the output, then handle the signal with the
            // echo as not landed (it is written after the text).
            var before = SessionOutput()
            if let landed = echo, landed.landed, let erase = session.eraseEcho(landed) {
                before.bytes = erase
                echo = KeyEcho(landed.bytes, landed: false)
            }
            before.append(held)
            held.removeAll()
            before.append(out)
            out = before
        }
        switch discarded ? session.abandon(echo: echo, cursorColumn: column, at: now, into: &out) : session.handle(signal, echo: echo, at: now, into: &out) {
        case .carryOn:
            return nil
        case .terminate:
            endedByKey = fromTerminal
            leaveKeyMode()
            // The queries' modes stay until `run` has read their replies (or waited long enough):
            // put back now, a reply still on its way would be echoed onto the screen.
            if signal == .hangUp {
                colorQuery?.restore()
                cursorQuery?.restore()
            } else {
                try? writeTerminal(out)
            }
            return .signal(signal)
        case .suspend:
            return stop(&session, discardTypedAhead: fromTerminal, out: &out)
        }
    }

    /// Stops the process after the session has settled what it shows (SIGTSTP, or the `--exec`
    /// command stopped by Control-Z): every terminal mode typewrite holds is put back first, and
    /// taken again when it continues. - Returns: how the output failed, if it did.
    mutating func stop(_ session: inout Session, discardTypedAhead: Bool, out: inout SessionOutput) -> Outcome? {
        leaveKeyMode()
        colorQuery?.restore()
        cursorQuery?.restore()
        releaseQueues(discardTypedAhead: discardTypedAhead)
        exec?.leaveRawMode()
        if let failure = emit(&out) { return failure }
        setup.suspend()  // stops here until SIGCONT
        resumeExec()  // before the queries, which save the mode they find
        keepQueues(session)
        colorQuery?.reenter()
        cursorQuery?.reenter()
        session.resumed(at: System.monotonicNow(), into: &out)
        return nil
    }

    private mutating func beginPrompt(_ session: inout Session, at now: Seconds, into out: inout SessionOutput) {
        // The prompt reads keys from the same terminal: the colour query ends first, or it would
        // take the keys for replies.
        finishColorQuery(&session)
        if let keyboard = setup.keyboard, System.isForegroundProcessGroup(keyboard) {
            keyMode = try? System.enterKeyMode(keyboard)
        }
        session.beginPrompt(keyboard: keyMode != nil, screenRows: System.terminalRows(setup.output), at: now, into: &out)
    }

    private mutating func readKeys(_ keyboard: Int32, _ events: Int16, _ session: inout Session, at now: Seconds, into out: inout SessionOutput) {
        guard events & System.pollIn != 0 else {
            session.keyboardLost(at: now, into: &out)  // hang-up or error on the terminal
            return
        }
        var bytes = [UInt8](repeating: 0, count: 256)
        let n: Int?? = bytes.withUnsafeMutableBytes { try? System.read(keyboard, into: $0) }
        switch n {
        case .some(.some(let count)) where count > 0: session.keys(bytes[0..<count], at: now, into: &out)
        case .some(.none): break  // EAGAIN: nothing after all
        default: session.keyboardLost(at: now, into: &out)
        }
    }

    private mutating func leaveKeyMode() {
        if let saved = keyMode, let keyboard = setup.keyboard { System.restoreTerminalMode(saved, on: keyboard) }
        keyMode = nil
    }

    /// DSR, device status report: `CSI 6 n` asks for the cursor position; DA1 after it ends the
    /// query.
    static let cursorPositionRequest = Array("\u{1B}[6n".utf8) + TerminalQuery.deviceAttributesRequest
    /// Longest wait for a cursor position report, in seconds: the session's own wait (it gives
    /// up first, counting from the resize); the query stays open until then, so a late reply is
    /// read here and not left for the shell.
    static let cursorReportWait: Seconds = Session.cursorReportWait
    /// Longest wait for the cursor report that tells whether a key's signal discarded output, in
    /// seconds.
    static let discardCheckWait: Seconds = 1
    /// How long after a resize with no other the cursor's position is asked, in seconds: longer
    /// than tmux 3.3a holds back the signal of a resize that follows another within 250 ms
    /// (its rows already have the later size, which a report asked meanwhile would answer from).
    static let resizeQuietTime: Seconds = 0.3
    /// How long after a report that did not fit the cursor's position is asked again, in seconds.
    static let cursorQueryDelay: Seconds = 0.03
    /// How long after a resize a cursor report that does not fit the size told may still be from
    /// a size whose signal is on its way, in seconds (tmux 3.3a delays it by up to 250 ms).
    static let resizeSignalLatency: Seconds = 0.4

    /// Waits for the colour query's reply (briefly, at exit) and gives the colours to the session.
    private mutating func finishColorQuery(_ session: inout Session) {
        guard var query = colorQuery else { return }
        colorQuery = nil
        if !query.isDone { query.finish() }
        if query.isAnswered { session.useTerminalColors(TerminalColors.parse(query.reply)) }
        exec?.forward(TerminalQuery.typedKeys(in: query.reply), at: System.monotonicNow())
    }

    // MARK: Output

    /// Writes what the session produced, in order; nil, or how the output failed.
    private mutating func emit(_ out: inout SessionOutput) -> Outcome? {
        defer { out.removeAll() }
        do { try writeTerminal(out) } catch { return Self.outcome(of: error) }
        return nil
    }

    /// Writes `bytes` to the `--tee` file; a failure is said once, and the run goes on.
    private mutating func writeCopy(_ bytes: UnsafeRawBufferPointer) {
        guard let tee = setup.tee, !teeFailed, !bytes.isEmpty else { return }
        do throws(SystemError) { try System.writeAll(tee.descriptor, bytes) } catch {
            teeFailed = true
            printDiagnostic("typewrite: \(tee.name): write error: \(error)")
        }
    }

    private mutating func writeTerminal(_ out: SessionOutput) throws(SystemError) {
        if !out.copy.isEmpty { out.copy.withUnsafeBytes { writeCopy($0) } }
        guard !out.isEmpty else { return }
        var failure: SystemError?
        out.visit(terminal: { bytes in
            guard failure == nil else { return }
            failure = bytes.withUnsafeBytes { raw -> SystemError? in
                do throws(SystemError) { try System.writeAll(setup.output, raw); return nil } catch { return error }
            }
        }, diagnosticAfter: { error, afterPartialLine in
            // On the terminal the text is on, a message starts on a line of its own.
            printDiagnostic(error.line, newLineFirst: afterPartialLine && errorsShareTerminal)
        })
        if let failure { throw failure }
    }

    /// Writes a message line to stderr; while `--exec` holds the terminal in raw mode, which does
    /// not return the carriage at a line feed, its line ends are CR LF.
    private func printDiagnostic(_ line: String, newLineFirst: Bool = false) {
        let raw = exec?.holdsRawMode == true && System.isTerminal(System.standardError)
        System.printError((newLineFirst ? (raw ? "\r\n" : "\n") : "") + line + (raw ? "\r" : ""))
    }

    private static func outcome(of error: SystemError) -> Outcome {
        error == .brokenPipe ? .brokenPipe : .outputFailed(error)
    }
}

extension SessionSignal {
    /// The session's name for POSIX signal `number`; nil for one it does not react to.
    public init?(posixNumber number: Int32) {
        switch number {
        case SIGINT: self = .interrupt
        case SIGTERM: self = .terminate
        case SIGQUIT: self = .quit
        case SIGHUP: self = .hangUp
        case SIGTSTP: self = .suspend
        case SIGCONT: self = .resume
        default: return nil
        }
    }

    /// The POSIX signal number.
    public var posixNumber: Int32 {
        switch self {
        case .interrupt: return SIGINT
        case .terminate: return SIGTERM
        case .quit: return SIGQUIT
        case .hangUp: return SIGHUP
        case .suspend: return SIGTSTP
        case .resume: return SIGCONT
        }
    }
}
