// The platform seam: the only file that calls libc. Each wrapper names the C call it makes, retries
// EINTR in one place, and reports errors as `SystemError` values (after apple/swift-system).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An `errno` value from a failed system call.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32
    /// The error for `errno` value `code`.
    public init(_ code: Int32) { self.code = code }
    static var current: SystemError { SystemError(errno) }
    package static let brokenPipe = SystemError(EPIPE)
    package static let isDirectory = SystemError(EISDIR)
    /// The C library's message for this error (`strerror`), e.g. "No such file or directory".
    public var description: String { String(cString: strerror(code)) }
}

/// File descriptor operations typewrite needs.
@usableFromInline package enum System {
    package static let standardInput: Int32 = 0
    package static let standardOutput: Int32 = 1
    package static let standardError: Int32 = 2
    /// SIGPIPE's number: a host dies by it when the reader of its output has gone.
    package static let brokenPipeSignal: Int32 = SIGPIPE

    /// The process environment, read once from `environ` (cheaper at start-up than Foundation's
    /// `ProcessInfo`, which the benchmark found at 17 % of typewrite's start-up instructions).
    @usableFromInline package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") {
                result[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
            }
            entry += 1
        }
        return result
    }

    /// Seconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`).
    package static func monotonicNow() -> Seconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Reads what is available, up to `buffer.count` bytes (`read`). Retries EINTR.
    /// - Returns: the byte count (0 at end of file), or nil when the descriptor is non-blocking and
    ///   nothing is available (EAGAIN).
    /// - Throws: `SystemError` for any other failure (EISDIR, EIO, …).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        while true {
            let n = Glibc_read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return nil }
            throw SystemError(e)
        }
    }

    /// What one `read` of a descriptor gave (`readChunk`).
    package enum ReadChunk: Equatable {
        /// Bytes, 1 to the maximum asked for.
        case data([UInt8])
        /// Nothing available on a non-blocking descriptor (EAGAIN).
        case nothingYet
        /// End of file, or a failure that ends the stream (EIO from a pty whose other side closed).
        case ended
    }

    /// Reads what is available, up to `maxCount` bytes, for a caller that treats every failure
    /// as the stream's end (a pipe of reports, a keyboard). Retries EINTR.
    package static func readChunk(_ fd: Int32, maxCount: Int) -> ReadChunk {
        var buffer = [UInt8](repeating: 0, count: maxCount)
        let n = buffer.withUnsafeMutableBytes { raw -> Int?? in try? read(fd, into: raw) }
        guard let result = n else { return .ended }
        guard let count = result else { return .nothingYet }
        if count == 0 { return .ended }
        buffer.removeSubrange(count...)
        return .data(buffer)
    }

    /// Blocks until `fd` can take more output (POLLOUT): after EAGAIN on a descriptor someone else
    /// made non-blocking. One `poll`, not a loop; the caller retries its write.
    private static func waitUntilWritable(_ fd: Int32) {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = Glibc_poll(&p, 1, -1)
    }

    /// Writes all of `bytes` (`write` in a loop): partial writes continue, EINTR retries, EAGAIN
    /// (someone else made the descriptor non-blocking) waits with `poll` for POLLOUT and retries.
    /// - Throws: `SystemError.brokenPipe` when the reader has gone (SIGPIPE must be ignored), or the
    ///   error of the failed `write`.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc_write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n >= 0 { offset += n; continue }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK {
                waitUntilWritable(fd)
                continue
            }
            throw SystemError(e)
        }
    }

    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        guard !bytes.isEmpty else { return }
        let result: Result<Void, SystemError> = bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try writeAll(fd, raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// Writes a line to stderr, ignoring failures (stderr may be closed).
    package static func printError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        try? writeAll(standardError, bytes)
    }

    /// Waits for events on descriptors (`poll`), up to `timeout` seconds (nil: forever).
    /// - Returns: the `revents` of each entry; all zero on timeout or EINTR (a signal arrived).
    package static func poll(_ fds: [(fd: Int32, events: Int16)], timeout: Seconds?) -> [Int16] {
        var entries = fds.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let ms: Int32 = timeout.map { Int32(max(0, min(($0 * 1000).rounded(.up), 3_600_000))) } ?? -1
        let n = Glibc_poll(&entries, nfds_t(entries.count), ms)
        if n <= 0 { return Array(repeating: 0, count: entries.count) }
        return entries.map { $0.revents }
    }

    package static let pollIn = Int16(POLLIN)
    package static let pollHangUp = Int16(POLLHUP)
    package static let pollError = Int16(POLLERR)

    /// Whether `fd` is a terminal (`isatty`).
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Copies up to `count` bytes from `input`'s file position to `output` inside the kernel, with
    /// no copy through user memory (`sendfile` on Linux), advancing the position as `read` does:
    /// twice cat's `read`/`write` into a pipe, several times to a file or `/dev/null`. Retries EINTR;
    /// EAGAIN (someone else made `output` non-blocking) waits with `poll` for POLLOUT.
    /// - Returns: the bytes copied (0 at end of file), or nil when the kernel does not copy between
    ///   these two descriptors (EINVAL, ENOSYS…, and always on other systems): read and write
    ///   instead, which also report any real error.
    /// - Throws: `SystemError.brokenPipe` when the reader has gone (SIGPIPE must be ignored).
    package static func copyInKernel(from input: Int32, to output: Int32, count: Int) throws(SystemError) -> Int? {
        #if os(Linux)
        while true {
            let n = sendfile(output, input, nil, count)
            if n >= 0 { return n }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK {
                waitUntilWritable(output)
                continue
            }
            if e == EPIPE { throw .brokenPipe }
            return nil
        }
        #else
        return nil
        #endif
    }

    /// Whether `a` and `b` are the same terminal (both `isatty`, and `fstat` gives the same
    /// device): what one writes lands among what the other writes.
    package static func sameTerminal(_ a: Int32, _ b: Int32) -> Bool {
        guard isatty(a) == 1, isatty(b) == 1 else { return false }
        var sa = stat(), sb = stat()
        guard fstat(a, &sa) == 0, fstat(b, &sb) == 0 else { return false }
        return sa.st_rdev == sb.st_rdev && sa.st_dev == sb.st_dev
    }

    /// Whether `fd` is a regular file (`fstat`).
    package static func isRegularFile(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFREG
    }

    /// Opens `path` for writing a copy of the output (`open(path, O_WRONLY | O_CREAT | O_TRUNC |
    /// O_CLOEXEC, 0666)`, so the umask applies). - Throws: `SystemError`.
    package static func createFile(_ path: String) throws(SystemError) -> Int32 {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw SystemError.current
        }
    }

    /// Whether the paths name one existing file (`stat`: the same device and inode).
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Whether `fd` is a pipe or FIFO (`fstat`).
    package static func isPipe(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFIFO
    }

    /// Whether `fd` is this process's controlling terminal (`tcgetsid(fd)` is this session; a
    /// descriptor opened from `/dev/tty` reports that device, not the terminal behind it, so
    /// device numbers cannot tell).
    package static func isControllingTerminal(_ fd: Int32) -> Bool {
        let session = tcgetsid(fd)
        return session >= 0 && session == getsid(0)
    }

    /// The terminal's width in cells (`ioctl(TIOCGWINSZ)`), nil when unknown or 0.
    package static func terminalColumns(_ fd: Int32) -> Int? {
        windowSize(fd).flatMap { $0.columns > 0 ? Int($0.columns) : nil }
    }

    /// Whether the tty turns LF into CR LF on output (termios OPOST and ONLCR).
    package static func translatesNewline(_ fd: Int32) -> Bool {
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { return true }
        return t.c_oflag & tcflag_t(OPOST) != 0 && t.c_oflag & tcflag_t(ONLCR) != 0
    }

    /// Opens a file for reading (`open(O_RDONLY | O_CLOEXEC)`); a directory is refused with EISDIR,
    /// as cat does.
    package static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.current }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw SystemError.isDirectory
        }
        return fd
    }

    package static func closeDescriptor(_ fd: Int32) { _ = close(fd) }

    /// Replaces the file at `path` with `bytes` (created with mode 0644 when new).
    package static func writeFile(_ path: String, _ bytes: [UInt8]) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError.current }
        defer { close(fd) }
        try writeAll(fd, bytes)
    }
}

// MARK: - Signals

extension System {
    /// Drains a signal self-pipe (`read` until EAGAIN): two bytes per signal, its number and 1 when
    /// the kernel sent it (a key on the terminal: `si_code` `SI_KERNEL`), else 0, written by the
    /// host's handlers. - Returns: the signals received, in order, without repeats.
    package static func drainSignals(_ fd: Int32) -> [(signal: Int32, fromTerminal: Bool)] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var seen: [(signal: Int32, fromTerminal: Bool)] = []
        var pending: UInt8?
        while true {
            let n = Glibc_read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            for b in buffer[0..<n] {
                // Records of two bytes: the signal number, then 1 when the kernel sent it (a key).
                guard let signo = pending else { pending = b; continue }
                pending = nil
                if let i = seen.firstIndex(where: { $0.signal == Int32(signo) }) {
                    seen[i].fromTerminal = seen[i].fromTerminal || b == 1
                } else {
                    seen.append((Int32(signo), b == 1))
                }
            }
        }
        return seen
    }
}

// Unambiguous names for the C functions that Swift's Glibc and Darwin modules both export.
@inline(__always) private func Glibc_read(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ n: Int) -> Int { read(fd, buf, n) }
@inline(__always) private func Glibc_write(_ fd: Int32, _ buf: UnsafeRawPointer?, _ n: Int) -> Int { write(fd, buf, n) }
@inline(__always) private func Glibc_poll(_ fds: UnsafeMutablePointer<pollfd>, _ n: nfds_t, _ ms: Int32) -> Int32 { poll(fds, n, ms) }

// MARK: - Local time (timestamps)

extension System {
    /// Seconds since the epoch on the wall clock (`clock_gettime(CLOCK_REALTIME)`).
    package static func wallClockNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Formats `epochSecond` (seconds since the epoch) in the local time zone (`tzset`,
    /// `localtime_r`, `strftime`; TZ is honoured, the locale is C).
    /// - Returns: the formatted text; empty when the format produces nothing or more than 4 KiB.
    @Sendable package static func formatLocalTime(_ format: String, _ epochSecond: Int) -> String {
        tzset()
        var seconds = time_t(epochSecond)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        var size = 128
        while size <= 4096 {
            var buffer = [CChar](repeating: 0, count: size)
            let n = strftime(&buffer, size, format, &parts)
            if n > 0 {
                return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            size *= 4
        }
        return ""
    }
}

// MARK: - Terminal input (collapse)

/// A terminal's settings saved before typewrite changed them, to put back on every exit path.
package struct SavedTerminalMode: Sendable {
    var settings: termios
}

extension System {
    /// Opens the controlling terminal for reading keys (`open("/dev/tty", O_RDWR | O_NOCTTY |
    /// O_CLOEXEC)`).
    /// - Throws: `SystemError` (ENXIO when the process has no controlling terminal).
    package static func openControllingTerminal() throws(SystemError) -> Int32 {
        while true {
            let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw SystemError.current
        }
    }

    /// Whether this process's group is the terminal's foreground process group (`tcgetpgrp`,
    /// `getpgrp`): only then may it change the terminal's settings and read from it.
    package static func isForegroundProcessGroup(_ fd: Int32) -> Bool {
        let group = tcgetpgrp(fd)
        return group >= 0 && group == getpgrp()
    }

    /// What the tty `fd` echoed, or would have, for the key that sent `signal` (SIGINT, SIGQUIT,
    /// SIGTSTP): the key (`c_cc` VINTR, VQUIT, VSUSP) shown by ECHOCTL, when the user's mode has
    /// ISIG, ECHO and ECHOCTL set (termios(3)); `landed` when the mode in effect now echoed it
    /// (`userMode` is the mode to restore, when typewrite changed it). Nil when `fd` is not this
    /// process's controlling terminal (`tcgetpgrp` fails), or nothing is echoed.
    package static func keyEcho(for signal: Int32, terminal fd: Int32, userMode: SavedTerminalMode?) -> KeyEcho? {
        let index: Int32
        switch signal {
        case SIGINT: index = VINTR
        case SIGQUIT: index = VQUIT
        case SIGTSTP: index = VSUSP
        default: return nil
        }
        var now = termios()
        guard tcgetpgrp(fd) >= 0, tcgetattr(fd, &now) == 0 else { return nil }
        let user = userMode?.settings ?? now
        let echoes = tcflag_t(ISIG | ECHO | ECHOCTL)
        guard user.c_lflag & echoes == echoes else { return nil }
        let key = withUnsafeBytes(of: user.c_cc) { $0[Int(index)] }
        return KeyEcho.ofControl(key, landed: now.c_lflag & echoes == echoes)
    }

    /// The terminal's height in rows (`ioctl(TIOCGWINSZ)`), nil when unknown or 0.
    package static func terminalRows(_ fd: Int32) -> Int? {
        windowSize(fd).flatMap { $0.rows > 0 ? Int($0.rows) : nil }
    }

    /// Puts the terminal in a mode for reading single keys (`tcgetattr`, `tcsetattr(TCSAFLUSH)`):
    /// no line editing, no echo, no signals from keys (Ctrl-C arrives as byte 3), no flow control,
    /// CR not turned into LF, one byte per read. Output processing (OPOST, ONLCR) is left alone.
    /// Keys typed before this call are discarded.
    /// - Returns: the settings before, for `restoreTerminalMode`.
    /// - Throws: `SystemError` when the settings cannot be read or changed.
    package static func enterKeyMode(_ fd: Int32) throws(SystemError) -> SavedTerminalMode {
        try changeMode(fd, when: TCSAFLUSH) { raw in
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | ISIG | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
    }

    /// Changes the settings of terminal `fd` by `change` (`tcgetattr`, `tcsetattr(when)`, EINTR
    /// retried). - Returns: the settings before. - Throws: `SystemError`.
    static func changeMode(_ fd: Int32, when: Int32, _ change: (inout termios) -> Void) throws(SystemError) -> SavedTerminalMode {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { throw SystemError.current }
        var changed = saved
        change(&changed)
        while tcsetattr(fd, when, &changed) != 0 {
            if errno != EINTR { throw SystemError.current }
        }
        return SavedTerminalMode(settings: saved)
    }

    /// Puts the terminal in a mode for reading a reply to a query (`tcgetattr`, `tcsetattr(TCSANOW)`):
    /// no line editing and no echo, nothing else changed. TCSANOW, not TCSAFLUSH: keys typed ahead
    /// stay where they are.
    /// - Returns: the settings before, for `restoreTerminalMode`.
    /// - Throws: `SystemError` when the settings cannot be read or changed.
    package static func enterReplyMode(_ fd: Int32) throws(SystemError) -> SavedTerminalMode {
        try changeMode(fd, when: TCSANOW) { $0.c_lflag &= ~tcflag_t(ICANON | ECHO) }
    }

    /// What `keepQueuesOnSignalKeys` changed in the tty's local modes, for
    /// `releaseQueuesOnSignalKeys` to put back, and the user's settings before it.
    package struct KeptQueues: Sendable {
        /// The `c_lflag` bits changed.
        fileprivate var changed: tcflag_t
        /// The settings before: the mode a key's echo is judged by (`keyEcho`).
        package var user: SavedTerminalMode
    }

    /// Keeps the tty from discarding its queues when a key sends a signal: sets NOFLSH
    /// (`tcsetattr(TCSANOW)`, termios(3)). Without it the line discipline, as it sends SIGINT,
    /// SIGQUIT or SIGTSTP for a key, throws away the output written but not yet read by the
    /// terminal, so the screen loses text the writer believes shown
    /// (`docs/terminals.md#the-ttys-echo`). With `quietEcho` it also clears ECHO and ECHONL, as
    /// less does: a key typed while cells fade would otherwise be echoed into the text, where the
    /// next repaint, which counts only its own cells, garbles it. The keys stay in the input
    /// queue, typed ahead for whatever reads the terminal next (`docs/terminals.md#typed-keys`).
    /// - Returns: what was changed, or nil when nothing was (NOFLSH already set and no echo to
    ///   quiet) or the settings cannot be read or changed.
    package static func keepQueuesOnSignalKeys(_ fd: Int32, quietEcho: Bool) -> KeptQueues? {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return nil }
        let user = settings
        settings.c_lflag |= tcflag_t(NOFLSH)
        if quietEcho { settings.c_lflag &= ~tcflag_t(ECHO | ECHONL) }
        let changed = settings.c_lflag ^ user.c_lflag
        guard changed != 0 else { return nil }
        while tcsetattr(fd, TCSANOW, &settings) != 0 {
            if errno != EINTR { return nil }
        }
        return KeptQueues(changed: changed, user: SavedTerminalMode(settings: user))
    }

    /// After a stop typewrite did not see, or a move to the foreground (SIGCONT): `kept` while
    /// the bits it changed still read as it left them, else (the shell put its own mode back)
    /// `keepQueuesOnSignalKeys` again, from the mode now in effect.
    package static func keepQueuesAgain(_ fd: Int32, _ kept: KeptQueues, quietEcho: Bool) -> KeptQueues? {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return kept }
        let ours = kept.user.settings.c_lflag ^ kept.changed
        if settings.c_lflag & kept.changed == ours & kept.changed { return kept }
        return keepQueuesOnSignalKeys(fd, quietEcho: quietEcho)
    }

    /// Puts back what `keepQueuesOnSignalKeys` changed (`kept`), leaving every other setting as
    /// it is now; with `discardTypedAhead`, first discards the keys typed and not read
    /// (`tcflush(TCIFLUSH)`), as the tty would have when the key came. Failures are ignored (the
    /// terminal may be gone).
    package static func releaseQueuesOnSignalKeys(_ fd: Int32, _ kept: KeptQueues, discardTypedAhead: Bool) {
        if discardTypedAhead { _ = tcflush(fd, TCIFLUSH) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        settings.c_lflag = (settings.c_lflag & ~kept.changed) | (kept.user.settings.c_lflag & kept.changed)
        while tcsetattr(fd, TCSANOW, &settings) != 0 && errno == EINTR {}
    }

    /// Whether the tty `fd` keeps its queues when a key sends a signal now (NOFLSH set,
    /// `tcgetattr`). Read right after a key's signal, it tells whether the tty discarded what the
    /// terminal had not read (another program of the job may have put its own modes back since
    /// `keepQueuesOnSignalKeys`). A pty cannot tell how much that was: `TIOCOUTQ` on its slave side
    /// is 0 (measured, Linux 6.x). True when the settings cannot be read.
    package static func keepsQueuesOnSignalKeys(_ fd: Int32) -> Bool {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return true }
        return settings.c_lflag & tcflag_t(NOFLSH) != 0
    }

    /// Bytes waiting to be read on `fd` (`ioctl(FIONREAD)`); 0 when it cannot tell.
    package static func bytesWaiting(_ fd: Int32) -> Int {
        var count: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &count) == 0 else { return 0 }
        return Int(count)
    }

    /// Puts back the settings `enterKeyMode` saved (`tcsetattr(TCSANOW)`); failures are ignored
    /// (the terminal may be gone).
    package static func restoreTerminalMode(_ mode: SavedTerminalMode, on fd: Int32) {
        var settings = mode.settings
        while tcsetattr(fd, TCSANOW, &settings) != 0 && errno == EINTR {}
    }
}
