/// Animated mode: one thread, one `poll` loop over the input, a self-pipe for signals and (for a
/// pipe on stdout) the reader's end. The only timer is the next frame, and only while something
/// is fading: idle, typewrite sleeps in `poll` with no timeout (zero system calls).
/// The writer is the fade renderer, or the --collapse view built on it.
struct AnimatedSession<Writer: AnimatedWriter> {
    var renderer: Writer
    let inputs: [String]
    let demo: DemoScript?
    var pipeline: InputPipeline

    /// Time between frames, in seconds: at most 60 frames per second.
    static var framePeriod: Seconds { 1.0 / 60 }
    /// Reading pauses while more than this many input bytes wait to be shown (issue 4: 16 MiB).
    static var pendingLimit: Int { 16 * 1024 * 1024 }
    /// Reading also pauses while the memory held for them (bytes and tokens, `pendingBytes`) is
    /// above this, in bytes: a flood of short lines costs far more in tokens than in bytes. Sized
    /// so that a 10 MiB burst of prose is taken in at once (issue 5: settled within 1.6 s) while the
    /// peak RSS stays under issue 5's 64 MiB (`Scripts/bench.sh --only=5,7`: 1.57 s, 41.7 MiB).
    static var memoryLimit: Int { 22 * 1024 * 1024 }
    /// Most bytes taken in as one burst, in bytes.
    static var readSize: Int { 1024 * 1024 }

    /// Reads a burst: everything available now, up to `buffer.count` bytes, in as many `read(2)`
    /// calls as it takes (a pipe gives at most 64 KiB a call), so a large burst is paced from its
    /// arrival rather than from its last piece. Returns nil when nothing was available, and
    /// whether end of input was seen after the bytes (a terminal's Control-D is reported only once,
    /// so it must not be lost behind the data read before it).
    static func readBurst(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> (count: Int, ended: Bool)? {
        guard var total = try System.read(fd, into: buffer) else { return nil }
        while total > 0 && total < buffer.count,
              System.poll([(fd, System.pollIn)], timeout: 0)[0] & System.pollIn != 0 {
            guard let n = try System.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...])) else { break }
            if n == 0 { return (total, true) }
            total += n
        }
        return (total, total == 0)
    }

    /// End of input seen behind the last burst's bytes: the next turn takes it.
    private var endSeen = false

    private var status: Int32 = 0
    private var nextInput = 0
    private var input: InputFile?
    private var inputEnded = false
    private var nextFrame: Seconds?
    private var demoIndex = 0
    private var demoDue: Seconds = 0
    /// The read end of the signal self-pipe, once `run` has installed it (the --collapse prompt
    /// goes on listening to it after the session).
    private(set) var signalDescriptor: Int32 = -1

    init(renderer: Writer, inputs: [String], demo: DemoScript?, pipeline: InputPipeline) {
        self.renderer = renderer
        self.inputs = inputs
        self.demo = demo
        self.pipeline = pipeline
        self.pipeline.defersMessages = true
    }

    /// Messages (a file that cannot be read, a stream error) waiting until the text before them
    /// has been shown and settled, as cat prints them between files. Reading waits with them.
    private var messages: [String] = []

    /// Prints the waiting messages once everything received so far is on screen and settled.
    private mutating func printMessagesWhenSettled() {
        messages += pipeline.takeMessages()
        guard !messages.isEmpty, !renderer.isAnimating, renderer.pendingBytes == 0 else { return }
        for message in messages { System.printError(message) }
        messages.removeAll()
        // stderr is the same terminal: the cursor moved without the renderer knowing.
        var out: [UInt8] = []
        renderer.forgetCursor(into: &out)
        emit(out)
    }

    mutating func run() -> Int32 {
        let signalFD = Signals.install([Signals.interrupt, Signals.terminate, Signals.quit, Signals.hangUp, Signals.stop,
                                        Signals.resume, Signals.windowChange])
        signalDescriptor = signalFD
        let watchReader = System.isPipe(System.standardOutput)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { buffer.deallocate() }
        demoDue = System.monotonicNow()
        if demo == nil { openNextInput() }

        while true {
            var now = System.monotonicNow()
            printMessagesWhenSettled()
            if input == nil && !inputEnded && demo == nil && messages.isEmpty {
                // After a file that could not be opened (its message is out): the next one.
                openNextInput()
                if inputEnded { endInput(at: now) }
            }
            if inputEnded && renderer.isFinished && messages.isEmpty { break }
            if let due = nextFrame, now >= due {
                var out: [UInt8] = []
                renderer.frame(at: now, into: &out)
                emit(out)
                if renderer.isAnimating {
                    let next = due + Self.framePeriod
                    nextFrame = next > now ? next : now + Self.framePeriod
                } else {
                    nextFrame = nil
                }
                continue
            }
            var fds: [(fd: Int32, events: Int16)] = [(signalFD, System.pollIn)]
            let reading = input != nil && messages.isEmpty && renderer.pendingInputBytes <= Self.pendingLimit
                && renderer.pendingBytes <= Self.memoryLimit
            if reading, let input { fds.append((input.descriptor, System.pollIn)) }
            if watchReader { fds.append((System.standardOutput, 0)) }
            var timeout = endSeen && reading ? 0 : nextFrame.map { $0 - now }
            if demo != nil && !inputEnded { timeout = min(timeout ?? .infinity, demoDue - now) }
            let events = System.poll(fds, timeout: timeout)
            now = System.monotonicNow()
            if events[0] & System.pollIn != 0 { handleSignals(signalFD) }
            if watchReader, let last = events.last, last & (System.pollError | System.pollHangUp) != 0 {
                Signals.die(by: Signals.brokenPipe)  // the reader left: quiet, like cat (status 141)
            }
            if reading, let input, events[1] != 0 || endSeen {
                do throws(SystemError) {
                    // A burst fits in the memory left below the limit, at the last burst's cost per byte.
                    let room = min(Double(Self.pendingLimit - renderer.pendingInputBytes),
                                   Double(Self.memoryLimit - renderer.pendingBytes) / renderer.bytesOfMemoryPerInputByte)
                    let size = min(buffer.count, max(4096, Int(room)))
                    var n = 0
                    if endSeen {
                        endSeen = false
                    } else {
                        guard let burst = try Self.readBurst(input.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size])) else { continue }
                        n = burst.count
                        endSeen = burst.ended && n > 0
                    }
                    if n == 0 {
                        self.input = nil
                        openNextInput()
                    } else if pipeline.isPassthrough {
                        renderer.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), at: now)
                    } else {
                        renderer.receive(pipeline.process(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), at: now), at: now)
                        if pipeline.stopped {
                            // An error event: keep what came before it, read no further.
                            self.input = nil
                            inputEnded = true
                        }
                    }
                } catch {
                    messages.append("typewrite: \(input.name == "-" ? "standard input" : input.name): \(error)")
                    status = 1
                    self.input = nil
                }
                if inputEnded { endInput(at: now) }
                if nextFrame == nil && renderer.isAnimating { nextFrame = now }
            }
            if let demo, !inputEnded, now >= demoDue {
                renderer.receive(pipeline.decorate(demo.bursts[demoIndex].bytes, at: now), at: now)
                demoIndex += 1
                if demoIndex < demo.bursts.count {
                    demoDue += demo.bursts[demoIndex].delay
                } else {
                    inputEnded = true
                    renderer.endInput(at: now)
                }
                if nextFrame == nil && renderer.isAnimating { nextFrame = now }
            }
        }
        return max(status, pipeline.status)
    }

    private mutating func endInput(at now: Seconds) {
        renderer.receive(pipeline.finish(at: now), at: now)
        renderer.endInput(at: now)
    }

    /// Opens the next input; one that cannot be opened leaves a message to print when the text
    /// before it has settled, then the loop carries on with the next, like cat.
    private mutating func openNextInput() {
        while nextInput < inputs.count {
            let name = inputs[nextInput]
            nextInput += 1
            do {
                input = try InputFile.open(name)
                return
            } catch {
                messages.append("typewrite: \(name == "-" ? "standard input" : name): \(error)")
                status = 1
                return
            }
        }
        inputEnded = true
    }

    private mutating func handleSignals(_ fd: Int32) {
        for signo in Signals.drain(fd) {
            switch signo {
            case Signals.interrupt, Signals.terminate, Signals.quit:
                // Everything received so far, settled; the terminal as cat would leave it, reset.
                var out: [UInt8] = []
                renderer.endInput(at: System.monotonicNow())
                renderer.flushSettled(into: &out)
                if renderer.hyperlinkOpen { out += Array("\u{1B}]8;;\u{1B}\\".utf8) }
                out += Array("\u{1B}[0m".utf8)
                try? System.writeAll(System.standardOutput, out)
                Signals.die(by: signo)
            case Signals.hangUp:
                Signals.die(by: signo)  // the terminal is gone: nothing to write to
            case Signals.stop:
                var out: [UInt8] = []
                renderer.flushSettled(into: &out)
                renderer.resetPen(into: &out)
                emit(out)
                Signals.raiseDefault(Signals.stop)  // stops here until SIGCONT
                Signals.route(Signals.stop)
                var after: [UInt8] = []
                renderer.forgetCursor(into: &after)
                emit(after)
            case Signals.resume:
                var out: [UInt8] = []
                renderer.forgetCursor(into: &out)
                emit(out)
            case Signals.windowChange:
                var out: [UInt8] = []
                renderer.resize(columns: System.terminalColumns(System.standardOutput),
                                rows: System.terminalRows(System.standardOutput), into: &out)
                emit(out)
            default:
                break
            }
        }
    }

    /// Writes one frame with one `write(2)` (more only if the kernel takes it in parts).
    private func emit(_ bytes: [UInt8]) {
        Runner.writeOrDie(bytes)
    }
}
