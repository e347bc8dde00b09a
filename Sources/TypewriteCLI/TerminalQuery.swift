import TypewriteCore

/// Asking the terminal something while the text streams (xterm ctlseqs): its colours (`OSC 10 ; ?`,
/// `OSC 11 ; ?`, `OSC 4 ; n ; ?`) or where the cursor is (DSR, `CSI 6 n`), then DA1 (`CSI c`) as a
/// sentinel every terminal answers, on `/dev/tty`. The terminal is put in non-canonical mode
/// without echo (TCSANOW, never flushing) until the DA1 reply arrives; the query is not made when
/// the user has typed anything ahead, so no key is lost (`docs/terminals.md#asking-the-terminal`).
struct TerminalQuery {
    /// Longest wait for an outstanding reply at exit, in seconds, so no reply is left for the shell.
    static let exitWait: Seconds = 0.5

    let descriptor: Int32
    private var saved: SavedTerminalMode?
    /// What the terminal sent so far.
    private(set) var reply: [UInt8] = []
    /// Whether the terminal's mode is back and the descriptor closed.
    private(set) var isDone = false
    /// Whether the DA1 reply arrived (every reply before it is in `reply`).
    private(set) var isAnswered = false
    /// When the query was sent (monotonic seconds).
    let sentAt = System.monotonicNow()
    /// A terminal that has not answered DA1 this long after the query, in seconds, is taken to be
    /// one that never answers: its mode is put back so a producer reading the terminal is not left
    /// without line editing and echo.
    let giveUp: Seconds

    /// Sends `request`, which ends with DA1 (`deviceAttributesRequest`, as `TerminalColors.request`
    /// does: one only, since the query ends at the first answer and a second would come after the
    /// modes are back, onto the screen), or returns nil when it may not be made (no terminal, the
    /// text goes to another terminal than the controlling one (`output`), not the foreground
    /// process group, keys waiting to be read, or the mode cannot be changed).
    static func start(_ request: [UInt8], giveUp: Seconds, output: Int32) -> TerminalQuery? {
        guard System.isControllingTerminal(output), let fd = try? System.openControllingTerminal() else { return nil }
        // Keys typed ahead must stay for whoever reads next. A whole line is counted in canonical
        // mode; half a line only becomes readable (and countable) once canonical mode is off.
        guard System.isForegroundProcessGroup(fd), System.bytesWaiting(fd) == 0,
              let saved = try? System.enterReplyMode(fd) else {
            System.closeDescriptor(fd)
            return nil
        }
        guard System.bytesWaiting(fd) == 0 else {
            System.restoreTerminalMode(saved, on: fd)
            System.closeDescriptor(fd)
            return nil
        }
        var query = TerminalQuery(descriptor: fd, saved: saved, giveUp: giveUp)
        guard (try? System.writeAll(fd, request)) != nil else {
            query.close()
            return nil
        }
        return query
    }

    /// DA1, primary device attributes: `CSI c`.
    static let deviceAttributesRequest = Array("\u{1B}[c".utf8)

    private init(descriptor: Int32, saved: SavedTerminalMode, giveUp: Seconds) {
        self.descriptor = descriptor
        self.saved = saved
        self.giveUp = giveUp
    }

    /// Reads what the terminal sent; once the DA1 reply is in (or the terminal is gone, or far
    /// too much came), puts the terminal back. - Returns: whether the query just ended.
    mutating func read() -> Bool {
        guard !isDone else { return false }
        var bytes = [UInt8](repeating: 0, count: 512)
        let n: Int? = bytes.withUnsafeMutableBytes { (try? System.read(descriptor, into: $0)) ?? 0 }
        guard let n else { return false }
        if n <= 0 { close(); return true }
        reply += bytes[0..<n]
        if TerminalColors.hasDeviceAttributes(reply) {
            isAnswered = true
            close()
            return true
        }
        if reply.count > 4096 { close(); return true }
        return false
    }

    /// Waits for the reply until `exitWait` after the query was sent (a terminal that never
    /// answers delays no exit that comes later), then puts the terminal back.
    mutating func finish() {
        let deadline = sentAt + Self.exitWait
        while !isDone {
            let left = deadline - System.monotonicNow()
            guard left > 0, System.poll([(descriptor, System.pollIn)], timeout: left)[0] != 0 else { break }
            _ = read()
        }
        close()
    }

    /// When to stop waiting for the reply while the run goes on (monotonic seconds).
    var giveUpAt: Seconds { sentAt + giveUp }

    /// Stops waiting: the terminal's mode is put back, and a reply that still comes is left.
    mutating func abandon() { close() }

    /// The mode the query changed, to put back (nil once put back).
    var savedMode: SavedTerminalMode? { isDone ? nil : saved }

    /// Puts the terminal's mode back (before a stop or death); `reenter` sets it again.
    mutating func restore() {
        if let saved { System.restoreTerminalMode(saved, on: descriptor) }
    }

    mutating func reenter() {
        guard !isDone, System.isForegroundProcessGroup(descriptor) else { return }
        saved = try? System.enterReplyMode(descriptor)
    }

    private mutating func close() {
        guard !isDone else { return }
        restore()
        saved = nil
        System.closeDescriptor(descriptor)
        isDone = true
    }
}

extension TerminalQuery {
    /// Longest the first frames wait for the colours, in seconds: a local terminal answers within a
    /// few milliseconds; past this the fade starts from its assumption and switches when the reply
    /// comes.
    static let firstFrameWait: Seconds = 0.15

    /// When frames may start (monotonic seconds), for the colour query: at once once it ended.
    var firstFrameAt: Seconds { isDone ? 0 : sentAt + Self.firstFrameWait }

    /// The cursor's column (0-based) in a cursor position report (`CSI row ; column R`) in `reply`.
    static func cursorColumn(in reply: [UInt8]) -> Int? {
        // The last CSI … R that holds two numbers.
        var i = reply.count - 1
        while i > 1 {
            if reply[i] == 0x52, let esc = reply[..<i].lastIndex(of: 0x1B), esc + 1 < i, reply[esc + 1] == 0x5B {
                let fields = String(decoding: reply[(esc + 2)..<i], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
                if fields.count == 2, let column = Int(fields[1]), Int(fields[0]) != nil, column >= 1 { return column - 1 }
            }
            i -= 1
        }
        return nil
    }

    /// What is left of `reply` without the terminal's answers in it — OSC strings (the colours'
    /// replies, ended by BEL or ST), DA1's reply (`CSI ? … c`) and cursor position reports
    /// (`CSI row ; column R`): the keys the user typed while the query waited, which under
    /// `--exec` go on to the command.
    static func typedKeys(in reply: [UInt8]) -> [UInt8] {
        var keys: [UInt8] = []
        var i = 0
        while i < reply.count {
            if reply[i] == 0x1B, i + 1 < reply.count, let end = answerEnd(in: reply, from: i) {
                i = end
                continue
            }
            keys.append(reply[i])
            i += 1
        }
        return keys
    }

    /// Where an answer that starts with the ESC at `start` ends (one past its last byte); nil when
    /// what starts there is no answer.
    private static func answerEnd(in bytes: [UInt8], from start: Int) -> Int? {
        switch bytes[start + 1] {
        case 0x5D:  // OSC … BEL or ESC \
            var j = start + 2
            while j < bytes.count {
                if bytes[j] == 0x07 { return j + 1 }
                if bytes[j] == 0x1B { return j + 1 < bytes.count && bytes[j + 1] == 0x5C ? j + 2 : nil }
                j += 1
            }
            return nil
        case 0x5B:  // CSI ? digits ; … c, or CSI digits ; digits R
            var j = start + 2
            let private_ = j < bytes.count && bytes[j] == 0x3F
            if private_ { j += 1 }
            var semicolons = 0
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) || bytes[j] == 0x3B {
                if bytes[j] == 0x3B { semicolons += 1 }
                j += 1
            }
            guard j < bytes.count else { return nil }
            if private_ && bytes[j] == 0x63 { return j + 1 }
            if !private_ && semicolons == 1 && bytes[j] == 0x52 { return j + 1 }
            return nil
        default:
            return nil
        }
    }
}
