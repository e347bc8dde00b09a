/// --collapse on a terminal: the animated session with a `CollapsedView` as its writer, then —
/// only after the input has ended, so never while the producer may still be using the terminal —
/// keys read from /dev/tty in a raw mode that is restored on every way out (normal end, q, a
/// signal, a write error). Only when typewrite's process group is the terminal's foreground group;
/// otherwise, the view expands by itself, as it does when the terminal cannot be set up.
enum CollapsePrompt {
    static let framePeriod: Seconds = 1.0 / 60

    /// The controlling terminal, opened for keys, when --collapse can work on this terminal: it
    /// understands cursor movement (TERM set and not `dumb`) and /dev/tty opens.
    static func openKeyboard(environment: [String: String]) -> Int32? {
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return nil }
        return try? System.openControllingTerminal()
    }

    /// Runs the session and then the prompt. - Returns: the session's exit status.
    static func run(_ view: CollapsedView, keyboard: Int32, inputs: [String], demo: DemoScript?,
                    pipeline: InputPipeline) -> Int32 {
        var session = AnimatedSession(renderer: view, inputs: inputs, demo: demo, pipeline: pipeline)
        let status = session.run()
        if session.renderer.phase == .collapsed {
            ask(&session.renderer, keyboard: keyboard, signals: session.signalDescriptor)
        }
        System.closeDescriptor(keyboard)
        return status
    }

    /// Reads keys and drives the view until it is done.
    static func ask(_ view: inout CollapsedView, keyboard: Int32, signals: Int32) {
        var saved: SavedTerminalMode?
        if System.isForegroundProcessGroup(keyboard) { saved = try? System.enterKeyMode(keyboard) }
        var inKeyMode = saved != nil
        func restore() {
            if inKeyMode, let saved { System.restoreTerminalMode(saved, on: keyboard) }
            inKeyMode = false
        }
        func emit(_ bytes: [UInt8]) {
            do {
                try System.writeAll(System.standardOutput, bytes)
            } catch {
                restore()
                if error == .brokenPipe { Signals.die(by: Signals.brokenPipe) }
                Report.error("write error: \(error)")
                System.exit(1)
            }
        }

        var out: [UInt8] = []
        if inKeyMode {
            view.beginPrompt(screenRows: System.terminalRows(System.standardOutput), into: &out)
        } else {
            view.expandWithoutAsking(at: System.monotonicNow(), into: &out)
        }
        emit(out)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
        defer { buffer.deallocate() }
        var nextFrame: Seconds? = view.isAnimating ? System.monotonicNow() : nil

        while view.awaitsKey {
            var now = System.monotonicNow()
            if let due = nextFrame, now >= due {
                var frame: [UInt8] = []
                view.frame(at: now, into: &frame)
                emit(frame)
                nextFrame = view.isAnimating ? max(due + framePeriod, now) : nil
                continue
            }
            var fds: [(fd: Int32, events: Int16)] = [(signals, System.pollIn)]
            if inKeyMode { fds.append((keyboard, System.pollIn)) }
            let events = System.poll(fds, timeout: nextFrame.map { $0 - now })
            now = System.monotonicNow()
            var out: [UInt8] = []
            if events[0] & System.pollIn != 0 {
                for signo in Signals.drain(signals) {
                    switch signo {
                    case Signals.interrupt, Signals.terminate:
                        // Leave the view as it is, the terminal as it was; then die by the signal.
                        view.press(.quit, at: now, into: &out)
                        out += CollapsedView.resetPen
                        restore()
                        try? System.writeAll(System.standardOutput, out)
                        Signals.die(by: signo)
                    case Signals.hangUp:
                        restore()
                        Signals.die(by: signo)
                    case Signals.stop:
                        // Stopped from outside (Ctrl-Z is a key here): end the prompt, then stop.
                        view.press(.quit, at: now, into: &out)
                        restore()
                        emit(out)
                        out.removeAll()
                        Signals.raiseDefault(Signals.stop)
                        Signals.route(Signals.stop)
                    case Signals.resume:
                        // Stopped without our knowing (SIGSTOP): the shell may have reset the terminal.
                        let stillOurs = System.isForegroundProcessGroup(keyboard) && (try? System.enterKeyMode(keyboard)) != nil
                        if inKeyMode && !stillOurs { view.press(.quit, at: now, into: &out) }
                    case Signals.windowChange:
                        // Rows reflow on a resize: the view can no longer be folded, so it expands by
                        // itself (the rest of the text follows) rather than losing the rest.
                        view.resize(columns: System.terminalColumns(System.standardOutput),
                                    rows: System.terminalRows(System.standardOutput), into: &out)
                    default:
                        break
                    }
                }
            }
            if inKeyMode, events.count > 1, events[1] != 0 {
                var keys: [CollapsedView.Key] = [.quit]  // hang-up or error on the terminal
                if events[1] & System.pollIn != 0, let n = try? System.read(keyboard, into: buffer) {
                    keys = n > 0 ? CollapsedView.Key.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) : [.quit]
                } else if events[1] & System.pollIn != 0 {
                    keys = []  // EAGAIN: nothing after all
                }
                for key in keys where view.awaitsKey { view.press(key, at: now, into: &out) }
            }
            emit(out)
            if nextFrame == nil && view.isAnimating { nextFrame = now }
        }
        restore()
        if !view.isFinished {
            // The view gave up folding (a resize): the rest of the text, at once.
            var rest: [UInt8] = []
            view.flushSettled(into: &rest)
            emit(rest)
        }
    }
}
