#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TypewriteCore

// The poll driver's part in `--exec` (`docs/exec.md`): the command's pty is one more input (read
// like any other, in `read`), and the relay adds the keys, the room in the pty for them, the
// session leader's reports and the signs that the command waits for keys. See ExecRelay.swift.

extension PollDriver {
    /// Where the relay's descriptors stand in a poll set.
    struct ExecIndices {
        var keys: Int?
        var room: Int?
        var reports: Int?
    }

    /// Adds the relay's descriptors to `fds`: standard input while keys are read (not while a
    /// query waits for the terminal's reply, which the query reads itself, keys and all), the
    /// pty's room while typed bytes wait, the leader's reports.
    func execPollEntries(at now: Seconds, into fds: inout [(fd: Int32, events: Int16)]) -> ExecIndices? {
        guard let relay = exec else { return nil }
        var indices = ExecIndices()
        let queryWaits = relay.keysAreTerminal && (colorQuery != nil || cursorQuery != nil)
        if relay.wantsKeys, !queryWaits, let keys = relay.keys {
            fds.append((keys, System.pollIn))
            indices.keys = fds.count - 1
        }
        if relay.wantsRoom(at: now) {
            fds.append((relay.child.master, System.pollOut))
            indices.room = fds.count - 1
        }
        if let reports = relay.child.reports {
            fds.append((reports, System.pollIn))
            indices.reports = fds.count - 1
        }
        return indices
    }

    /// Handles what `poll` said of the relay's descriptors. - Returns: how the run ends, if it does.
    mutating func execEvents(_ indices: ExecIndices, _ events: [Int16], _ session: inout Session,
                             at now: Seconds, into out: inout SessionOutput) -> Outcome? {
        if let i = indices.room, events[i] != 0 { exec?.flushToChild(at: now) }
        if let i = indices.keys, events[i] != 0 {
            switch exec?.readKeys(at: now) {
            case .typed?:
                // The user has moved on: the rest of what the command wrote is shown at once.
                session.settleNow(at: now, into: &out)
                session.beginAnswer(at: now, typed: true)
            case .terminalGone?:
                return .signal(.hangUp)
            default:
                break
            }
        }
        if let i = indices.reports, events[i] != 0, let reports = exec?.child.readReports() {
            if reports.contains(.stopped), exec?.child.stopped == true {
                // Control-Z stopped the command: so does the job typewrite is, as a shell shows it,
                // after what it wrote (the tty's `^Z` echo comes a moment after the signal).
                takeLastOutput(&session, at: now, into: &out)
                session.settleNow(at: now, into: &out)
                _ = session.handle(.suspend, at: now, into: &out)
                if let failure = stop(&session, discardTypedAhead: false, out: &out) { return failure }
            }
        }
        return nil
    }

    /// Reads what the command's pty has for typewrite now, waiting up to `echoWait` for it to
    /// come: before a stop, so the tty's echo of the key is shown before the shell's lines.
    private mutating func takeLastOutput(_ session: inout Session, at now: Seconds, into out: inout SessionOutput) {
        guard let master = exec?.child.master else { return }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var wait = Self.stopEchoWait
        while System.poll([(master, System.pollIn)], timeout: wait)[0] & System.pollIn != 0 {
            wait = 0
            let n = buffer.withUnsafeMutableBytes { try? System.read(master, into: $0) }
            guard let count = n, count > 0 else { break }
            session.receive(buffer[0..<count], at: now, into: &out)
            _ = exec?.output(buffer[0..<count], at: now)
        }
    }

    /// Longest wait for the tty's echo of the key that stopped the command, in seconds.
    static let stopEchoWait: Seconds = 0.01

    /// How long after a small read of the pty it is read again at the earliest, in seconds: a
    /// program writing line by line to a terminal (stdio's line buffering) would otherwise wake
    /// typewrite for every line, and each wake-up costs both processes more than the line; in
    /// this time its lines gather in the pty, at most a frame late on the screen.
    static let ptyReadInterval: Seconds = 0.008
    /// A read of fewer bytes than this is small: the pty gives at most 4095 bytes a read.
    static let smallPiece = 1024

    /// Until when the pty is not read (nil: read it now): a moment after a small read, except
    /// while a key's echo is due.
    func execInputRestsUntil(at now: Seconds) -> Seconds? {
        guard let relay = exec, lastPieceSize < Self.smallPiece, let last = relay.lastOutputAt,
              !relay.keyWait.isEcho(at: now) else { return nil }
        let until = last + Self.ptyReadInterval
        return now < until ? until : nil
    }

    /// Does what the relay has due (a wait found: everything shown at once; the pty drained after
    /// the command ended: the input ends). - Returns: whether the loop should look again at once.
    mutating func execDue(_ session: inout Session, at now: Seconds, into out: inout SessionOutput) -> Bool {
        guard let due = exec?.due(at: now) else { return false }
        if due.waits {
            session.settleNow(at: now, into: &out)
            session.completeAnswer(at: now, into: &out)
        }
        if due.drained, current != nil {
            current = nil  // a program the command left behind holds the pty: its output is over
            return true
        }
        return false
    }

    /// After SIGCONT: the keys' terminal in raw mode again when typewrite is in its foreground
    /// (not after `bg`), the pty at the terminal's size, and the command continued.
    mutating func resumeExec() {
        guard exec != nil else { return }
        exec?.reclaimRawMode()
        exec?.followWindowSize()
        if exec?.child.stopped == true { exec?.child.resume() }
    }

    /// On every way out of the loop: the user's terminal mode back; unless the command ended by
    /// itself, it gets SIGHUP, as from a terminal that closed.
    mutating func endExec(_ outcome: Outcome) {
        exec?.leaveRawMode()
        if case .finished = outcome { return }
        exec?.child.hangUp()
    }
}
