// The platform seam for `--exec`: pseudo-terminals, their settings and window size, spawning
// processes and waiting for them. Like System.swift, the only code that calls libc for these; each
// wrapper names the C call it makes and reports errors as `SystemError` values.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal's size in cells and pixels (`struct winsize`).
package struct WindowSize: Equatable, Sendable {
    package var rows: UInt16
    package var columns: UInt16
    package var pixelWidth: UInt16 = 0
    package var pixelHeight: UInt16 = 0

    package init(rows: UInt16, columns: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0) {
        self.rows = rows
        self.columns = columns
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// How a child process changed state (`waitpid` with `WUNTRACED | WCONTINUED`).
package enum ChildStatus: Equatable, Sendable {
    /// It exited with this status (0–255).
    case exited(Int32)
    /// A signal killed it.
    case killed(signal: Int32)
    /// A signal stopped it (SIGTSTP, SIGSTOP, SIGTTIN, SIGTTOU).
    case stopped(signal: Int32)
    /// It continued after a stop.
    case continued

    /// The status a shell reports for it: the exit status, or 128 + N for signal N; nil while it
    /// has not ended.
    package var shellStatus: Int32? {
        switch self {
        case .exited(let code): return code
        case .killed(let signal): return 128 + signal
        case .stopped, .continued: return nil
        }
    }
}

/// Where a command named on the command line is, as `execvp(3)` would look for it.
package enum CommandLookup: Equatable, Sendable {
    /// An executable file at this path.
    case found(String)
    /// No such file in `PATH` (or at the path given): a shell says "command not found", status 127.
    case notFound
    /// The file exists but cannot be executed (no execute permission, a directory): status 126.
    case notExecutable(String, SystemError)
}

extension SavedTerminalMode {
    /// Whether the line discipline edits lines itself (`c_lflag` ICANON): a program that edits its
    /// own line (readline, libedit, linenoise, prompt_toolkit) or draws the screen turns it off
    /// while it reads keys.
    package var isCanonical: Bool { settings.c_lflag & tcflag_t(ICANON) != 0 }

    /// The end-of-file character (`c_cc[VEOF]`, usually Control-D); nil when disabled.
    package var endOfFileCharacter: UInt8? {
        let key = withUnsafeBytes(of: settings.c_cc) { $0[Int(VEOF)] }
        return key == 0 || key == 0xFF ? nil : key
    }

    /// The characters that send a signal (`c_cc` VINTR, VQUIT, VSUSP) while the mode has ISIG;
    /// empty otherwise.
    package var signalCharacters: [UInt8] {
        guard settings.c_lflag & tcflag_t(ISIG) != 0 else { return [] }
        return withUnsafeBytes(of: settings.c_cc) { cc in
            [VINTR, VQUIT, VSUSP].map { cc[Int($0)] }.filter { $0 != 0 && $0 != 0xFF }
        }
    }
}

extension System {
    // MARK: Pseudo-terminals

    /// A new pseudo-terminal pair (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname`; on Linux
    /// `open("/dev/ptmx")` with `TIOCSPTLCK` and `TIOCGPTN`, which glibc's own functions call): the
    /// master, and the slave opened without becoming anyone's controlling terminal. Both
    /// close-on-exec; the master non-blocking (reads answer EAGAIN, writes never block typewrite).
    /// - Throws: `SystemError` from the call that failed.
    package static func openPseudoTerminal() throws(SystemError) -> (master: Int32, slave: Int32) {
        #if os(Linux)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard master >= 0 else { throw SystemError.current }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned int)
        guard ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            let error = SystemError.current
            close(master)
            throw error
        }
        let name = "/dev/pts/\(number)"
        #else
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw SystemError.current }
        guard grantpt(master) == 0, unlockpt(master) == 0, let cName = ptsname(master) else {
            let error = SystemError.current
            close(master)
            throw error
        }
        let name = String(cString: cName)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        #endif
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = SystemError.current
            close(master)
            throw error
        }
        return (master, slave)
    }

    /// The terminal settings of `fd` (`tcgetattr`); nil when `fd` is not a terminal. On a pty's
    /// master they are the slave's: what the program on it set (`isCanonical`,
    /// `endOfFileCharacter`, `signalCharacters` read them).
    package static func terminalSettings(_ fd: Int32) -> SavedTerminalMode? {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return nil }
        return SavedTerminalMode(settings: settings)
    }

    /// Gives `fd` the settings `mode` (`tcsetattr(TCSANOW)`); failures are ignored.
    package static func applyTerminalSettings(_ mode: SavedTerminalMode, to fd: Int32) {
        restoreTerminalMode(mode, on: fd)
    }

    /// Puts the terminal in raw mode for relaying keys to another terminal (`cfmakeraw`'s
    /// settings, `tcsetattr(TCSANOW)`, as util-linux `script` does): no line editing, echo, signals
    /// from keys, flow control, input or output processing; 8-bit bytes; one byte per read. Keys
    /// typed ahead stay to be read.
    /// - Returns: the settings before, for `restoreTerminalMode`.
    /// - Throws: `SystemError` when the settings cannot be read or changed.
    package static func enterRawMode(_ fd: Int32) throws(SystemError) -> SavedTerminalMode {
        try changeMode(fd, when: TCSANOW) { raw in
            cfmakeraw(&raw)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
    }

    /// The window size of terminal `fd` (`ioctl(TIOCGWINSZ)`); nil when unknown.
    package static func windowSize(_ fd: Int32) -> WindowSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return WindowSize(rows: size.ws_row, columns: size.ws_col, pixelWidth: size.ws_xpixel, pixelHeight: size.ws_ypixel)
    }

    /// Sets the window size of terminal `fd` (`ioctl(TIOCSWINSZ)`): on a pty's master, the kernel
    /// signals SIGWINCH to the slave's foreground process group when it changed.
    package static func setWindowSize(_ fd: Int32, _ size: WindowSize) {
        var value = winsize(ws_row: size.rows, ws_col: size.columns, ws_xpixel: size.pixelWidth, ws_ypixel: size.pixelHeight)
        _ = ioctl(fd, UInt(TIOCSWINSZ), &value)
    }

    /// Makes terminal `fd` the calling process's controlling terminal (`ioctl(TIOCSCTTY)`); the
    /// process must be a session leader without one.
    /// - Throws: `SystemError` (EPERM when not a session leader).
    package static func takeControllingTerminal(_ fd: Int32) throws(SystemError) {
        guard ioctl(fd, UInt(TIOCSCTTY), 0) == 0 else { throw SystemError.current }
    }

    /// Makes process group `group` the foreground process group of terminal `fd` (`tcsetpgrp`).
    /// - Throws: `SystemError`.
    package static func setForegroundProcessGroup(_ fd: Int32, _ group: Int32) throws(SystemError) {
        while tcsetpgrp(fd, group) != 0 {
            if errno != EINTR { throw SystemError.current }
        }
    }

    /// The foreground process group of terminal `fd` (`tcgetpgrp`; on a pty's master, the slave's,
    /// on Linux and the BSDs); nil when it has none or cannot tell.
    package static func foregroundProcessGroup(_ fd: Int32) -> Int32? {
        let group = tcgetpgrp(fd)
        return group > 0 ? group : nil
    }

    // MARK: Processes

    /// Looks `command` up as `execvp(3)` does: a name with a slash is a path; otherwise each
    /// directory of `path` (default `/usr/bin:/bin`) in turn, the first executable regular file
    /// winning, and a file found without execute permission reported only when no executable one
    /// follows (`access(X_OK)`, `stat`).
    package static func lookUpCommand(_ command: String, path: String?) -> CommandLookup {
        func check(_ candidate: String) -> CommandLookup {
            var st = stat()
            guard stat(candidate, &st) == 0 else { return .notFound }
            if (st.st_mode & S_IFMT) == S_IFDIR { return .notExecutable(candidate, SystemError(EACCES)) }
            guard access(candidate, X_OK) == 0 else { return .notExecutable(candidate, SystemError.current) }
            return .found(candidate)
        }
        guard !command.isEmpty else { return .notFound }
        if command.contains("/") { return check(command) }
        var denied: CommandLookup?
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let dir = directory.isEmpty ? "." : String(directory)
            switch check(dir + "/" + command) {
            case .found(let p): return .found(p)
            case .notExecutable(let p, let e): if denied == nil { denied = .notExecutable(p, e) }
            case .notFound: continue
            }
        }
        return denied ?? .notFound
    }

    /// This program's own executable, to start again in a helper mode (`/proc/self/exe` on Linux,
    /// `_NSGetExecutablePath` on Darwin); nil when it cannot be found.
    package static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(cString: buffer)
        #endif
    }

    /// Starts `path` with `arguments` (the first is its name) in a new process (`posix_spawn`), with
    /// the environment unchanged, every signal at its default action and none blocked
    /// (`POSIX_SPAWN_SETSIGDEF`, `POSIX_SPAWN_SETSIGMASK`: what typewrite ignores or catches is not
    /// the program's business).
    /// - Parameters:
    ///   - descriptors: `(from, to)` pairs: `from` is duplicated onto `to` in the new process
    ///     (`posix_spawn_file_actions_adddup2`); every other descriptor is close-on-exec.
    ///   - newSession: start it as the leader of a new session (`POSIX_SPAWN_SETSID`) with no
    ///     controlling terminal.
    ///   - newProcessGroup: start it in a process group of its own (`POSIX_SPAWN_SETPGROUP`).
    /// - Returns: the new process's ID.
    /// - Throws: `SystemError` when it could not be started.
    package static func spawn(_ path: String, arguments: [String], descriptors: [(from: Int32, to: Int32)] = [],
                              newSession: Bool = false, newProcessGroup: Bool = false) throws(SystemError) -> Int32 {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for pair in descriptors { posix_spawn_file_actions_adddup2(&actions, pair.from, pair.to) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if newSession { flags |= spawnNewSession }
        if newProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in cArguments { free(a) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, &cArguments, environ)
        guard result == 0 else { throw SystemError(result) }
        return pid
    }

    /// POSIX_SPAWN_SETSID (glibc 2.26, macOS 10.15), which the C headers declare only for
    /// `_GNU_SOURCE` and so Swift does not import on Linux.
    #if os(Linux)
    private static let spawnNewSession: Int32 = 0x80
    #else
    private static let spawnNewSession: Int32 = 0x400
    #endif

    /// Replaces this process's program with `path` (`execv`), the environment unchanged.
    /// - Returns: only when it failed, with the error.
    package static func execute(_ path: String, arguments: [String]) -> SystemError {
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        _ = execv(path, &cArguments)
        let error = SystemError.current
        for a in cArguments { free(a) }
        return error
    }

    /// Waits for child `pid` to end, stop or continue (`waitpid` with `WUNTRACED | WCONTINUED`);
    /// with `blocking` false, returns nil at once when it has not changed (`WNOHANG`). Retries EINTR.
    /// - Returns: the change, or nil (not blocking and nothing yet, or no such child: ECHILD).
    package static func waitForChild(_ pid: Int32, blocking: Bool) -> ChildStatus? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WUNTRACED | WCONTINUED | (blocking ? 0 : WNOHANG))
            if r == pid { break }
            if r < 0 && errno == EINTR { continue }
            return nil
        }
        // The <sys/wait.h> macros, which Swift does not import: the low 7 bits hold the signal
        // (0: exited; 0x7F: stopped), the next 8 the exit status or the stopping signal.
        if status == 0xFFFF { return .continued }
        let low = status & 0x7F
        if low == 0 { return .exited((status >> 8) & 0xFF) }
        if low == 0x7F { return .stopped(signal: (status >> 8) & 0xFF) }
        return .killed(signal: low)
    }

    /// Sends `signal` to process `pid`, or to process group `-pid` when `pid` is negative (`kill`);
    /// failures (the process has gone) are ignored.
    package static func sendSignal(_ signal: Int32, to pid: Int32) {
        _ = kill(pid, signal)
    }

    /// This process's ID (`getpid`).
    package static var processID: Int32 { getpid() }

    /// A pipe (`pipe`), both ends close-on-exec.
    /// - Throws: `SystemError`.
    package static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemError.current }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Makes `fd` non-blocking (`fcntl(F_SETFL, O_NONBLOCK)`): only for descriptors typewrite made
    /// itself, never one it shares with the shell.
    package static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Writes what `fd` takes now of `bytes` (`write`, retrying EINTR), for a non-blocking
    /// descriptor. - Returns: the bytes written (0 when it takes nothing now: EAGAIN).
    /// - Throws: `SystemError` for any other failure (EIO when the other side has gone).
    package static func writeSome(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return 0 }
            throw SystemError(e)
        }
    }

    package static let pollOut = Int16(POLLOUT)
}
