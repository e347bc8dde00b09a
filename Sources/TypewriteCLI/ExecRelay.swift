import TypewriteCore

/// The keys' side of `--exec` (`docs/exec.md#keys`): typewrite's standard input goes to the
/// command's terminal byte for byte — from a terminal held in raw mode, so Control-C, Control-\,
/// Control-Z, Control-D and line editing act in the command's terminal, not typewrite's; from a
/// pipe or file, with its end sent as the command's end-of-file character once the command has
/// read what came before and waits. It also keeps the signs that the command waits for keys
/// (`KeyWait`) and when the pty has gone quiet after the command ended.
struct ExecRelay {
    /// The command and its pty.
    var child: ExecChild
    /// typewrite's standard input, while it has not ended.
    private(set) var keys: Int32?
    /// Whether standard input is a terminal (the user types) rather than a pipe or file.
    let keysAreTerminal: Bool
    /// The terminal whose window size the pty follows (typewrite's own), if any.
    let terminal: Int32?
    /// The user's mode of the keys' terminal while typewrite holds it in raw mode (nil when not).
    private(set) var userMode: SavedTerminalMode?
    /// When output quiet after the command ended counts as the pty's end, in seconds: a program it
    /// left in the background may hold the pty open for ever.
    static let drainQuiet: Seconds = 0.5
    /// How often an end-of-file character owed to a command that has not read its input yet is
    /// tried again, in seconds.
    static let endOfFileRetry: Seconds = 0.02

    /// The signs that the command waits for keys.
    private(set) var keyWait = KeyWait()
    /// Bytes from standard input the pty has not taken yet.
    private var toChild: [UInt8] = []
    /// Whether `due` has found the pty drained after the command ended (it does so once).
    private var drainReported = false
    /// Until when they wait after a key that sends a signal (seconds).
    private var heldUntil: Seconds = -.infinity
    /// How long the keys after one that sends a signal (Control-C) wait, in seconds: the line
    /// discipline discards its input queue with the signal, and keys that reach it in the same
    /// write are lost with it; a person's next key comes later anyway.
    static let afterSignalKey: Seconds = 0.01
    /// When the command started, in seconds.
    private let startedAt: Seconds
    /// Standard input (a pipe or file) ended: its end goes to the command when it waits.
    private var inputEnded = false
    /// The command waits and its end-of-file character is owed to it.
    private var endOfFileOwed = false
    /// When the command last wrote, in seconds.
    private(set) var lastOutputAt: Seconds?
    /// When an end-of-file character is owed to a quiet command that shows no prompt.
    private var quietEnd = QuietEndOfFile()

    init(child: ExecChild, keys: Int32, keysAreTerminal: Bool, terminal: Int32?, at time: Seconds) {
        self.child = child
        self.keys = keys
        self.keysAreTerminal = keysAreTerminal
        self.terminal = terminal
        startedAt = time
    }

    // MARK: The terminal's mode

    /// Puts the keys' terminal in raw mode, when it is a terminal, typewrite is in its foreground
    /// (in the background, changing it would stop typewrite with SIGTTOU, and reading it with
    /// SIGTTIN) and it is not raw already. - Returns: whether the mode is typewrite's now.
    @discardableResult
    mutating func enterRawMode() -> Bool {
        guard keysAreTerminal, let keys, userMode == nil else { return userMode != nil }
        guard System.isForegroundProcessGroup(keys) else { return false }
        userMode = try? System.enterRawMode(keys)
        return userMode != nil
    }

    /// After SIGCONT. A stop typewrite did not see (SIGSTOP from `kill`) gave the terminal back to
    /// the shell, which set its own mode: in the background that mode is the shell's (its line
    /// editor's) and typewrite neither reads nor restores it (either would stop typewrite with
    /// SIGTTIN or SIGTTOU); brought forward, the shell has put the user's mode back (canonical
    /// again), which is saved anew as raw mode is taken. - Returns: whether the mode is
    /// typewrite's now.
    @discardableResult
    mutating func reclaimRawMode() -> Bool {
        if userMode != nil, let keys,
           !System.isForegroundProcessGroup(keys) || System.terminalSettings(keys)?.isCanonical == true { userMode = nil }
        return enterRawMode()
    }

    /// Puts the user's mode back (on every way out, and before a stop).
    mutating func leaveRawMode() {
        if let saved = userMode, let keys { System.restoreTerminalMode(saved, on: keys) }
        userMode = nil
    }

    /// Whether typewrite holds the keys' terminal in raw mode.
    var holdsRawMode: Bool { userMode != nil }

    // MARK: Keys

    /// Whether standard input should be read now: it is open, and a terminal only while it is
    /// typewrite's in raw mode.
    var wantsKeys: Bool { keys != nil && (!keysAreTerminal || userMode != nil) }

    /// Whether the pty should be polled for room for typed bytes at `time`.
    func wantsRoom(at time: Seconds) -> Bool { !toChild.isEmpty && time >= heldUntil }

    /// What one read of standard input brought.
    enum KeysRead: Equatable {
        /// Keys typed on the terminal (forwarded): the user is interacting.
        case typed
        /// Bytes from a pipe or file (forwarded), nothing, or its end.
        case other
        /// The keys' terminal has gone (hang-up or error): typewrite ends as by SIGHUP.
        case terminalGone
    }

    /// Reads standard input (it was readable) and forwards what came.
    mutating func readKeys(at time: Seconds) -> KeysRead {
        guard let fd = keys else { return .other }
        switch System.readChunk(fd, maxCount: 4096) {
        case .nothingYet:
            return .other
        case .data(let bytes):
            forward(bytes, at: time)
            return keysAreTerminal ? .typed : .other
        case .ended:
            keys = nil
            if keysAreTerminal { leaveRawMode(); return .terminalGone }
            inputEnded = true
            quietEnd.inputEnded(at: time)
            return .other
        }
    }

    /// Forwards `bytes` to the command's terminal: what it does not take now waits.
    mutating func forward(_ bytes: some Collection<UInt8>, at time: Seconds) {
        guard !bytes.isEmpty else { return }
        if keysAreTerminal { keyWait.key(at: time) }
        toChild += bytes
        flushToChild(at: time)
    }

    /// Writes what waits for the pty, as much as it takes now: up to and including a key that
    /// sends a signal, the rest `afterSignalKey` later.
    mutating func flushToChild(at time: Seconds) {
        guard !toChild.isEmpty, time >= heldUntil else { return }
        let signalKeys = keysAreTerminal ? System.terminalSettings(child.master)?.signalCharacters ?? [] : []
        let cut = toChild.firstIndex { signalKeys.contains($0) }.map { $0 + 1 } ?? toChild.count
        do throws(SystemError) {
            let n = try System.writeSome(child.master, toChild[..<cut])
            toChild.removeFirst(n)
            if n == cut && !toChild.isEmpty { heldUntil = time + Self.afterSignalKey }
        } catch {
            toChild.removeAll()  // EIO: nobody reads the pty any more
        }
    }

    // MARK: Output and waiting

    /// The command wrote `bytes` at `time`. - Returns: whether to show them at once (the echo of
    /// a key).
    mutating func output(_ bytes: some Collection<UInt8>, at time: Seconds) -> Bool {
        guard !bytes.isEmpty else { return false }
        lastOutputAt = time
        keyWait.output(bytes, at: time)
        quietEnd.output(at: time)
        endOfFileOwed = false
        return keyWait.isEcho(at: time)
    }

    /// When `due` should next be called, in seconds; nil while only events matter.
    private var deadline: Seconds? {
        var times: [Seconds] = []
        if let t = keyWait.deadline { times.append(t) }
        if child.exitStatus != nil, !drainReported { times.append((lastOutputAt ?? startedAt) + Self.drainQuiet) }
        if !keysAreTerminal, child.exitStatus == nil, let t = quietEnd.deadline { times.append(t) }
        return times.min()
    }

    /// Whether `due` should be called at `time`.
    func isDue(at time: Seconds) -> Bool { endOfFileOwed || deadline.map { time >= $0 } ?? false }

    /// What `due` found.
    struct Due: Equatable {
        /// The command now waits for keys: show everything it wrote, settled.
        var waits = false
        /// The command has ended and the pty is quiet: its output is over.
        var drained = false
    }

    /// Does what is due at `time`: finds a wait, sends an owed end-of-file character.
    mutating func due(at time: Seconds) -> Due {
        var result = Due()
        if keyWait.check(at: time, canonical: System.terminalSettings(child.master)?.isCanonical) {
            result.waits = true
            if inputEnded && !keysAreTerminal { endOfFileOwed = true }
        }
        if !keysAreTerminal, child.exitStatus == nil, quietEnd.check(at: time) {
            endOfFileOwed = true  // no prompt, yet quiet: `echo hi | typewrite --exec cat`
        }
        if endOfFileOwed && toChild.isEmpty && child.unreadInput == 0 {
            // The command has read everything before it and waits: the end now reaches it as an
            // end of file (sent right behind the data, readline would read it as a NUL byte).
            endOfFileOwed = false
            if let eof = System.terminalSettings(child.master)?.endOfFileCharacter { toChild = [eof]; flushToChild(at: time) }
        }
        if !drainReported, child.exitStatus != nil, time - (lastOutputAt ?? startedAt) >= Self.drainQuiet {
            drainReported = true  // once: the pty is not read after it, and its deadline is gone
            result.drained = true
        }
        return result
    }

    /// The poll timeout `due` needs from `time`, in seconds (an owed end of file is tried again
    /// every `endOfFileRetry`).
    func timeout(from time: Seconds) -> Seconds? {
        if endOfFileOwed { return Self.endOfFileRetry }
        var wait = deadline.map { max(0, $0 - time) }
        if !toChild.isEmpty, time < heldUntil { wait = min(wait ?? .infinity, heldUntil - time) }
        return wait
    }

    // MARK: Window size

    /// Gives the pty the size of typewrite's terminal (after SIGWINCH, or a stop).
    func followWindowSize() {
        guard let terminal, let size = System.windowSize(terminal), size.columns > 0 else { return }
        child.resize(to: size)
    }
}
