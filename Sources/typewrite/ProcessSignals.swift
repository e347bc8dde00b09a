// The process-wide half of signal handling, which only the executable may do: handlers that
// forward signals into a self-pipe the poll driver reads (poll returns EINTR regardless of
// SA_RESTART, so a byte on a pipe is the reliable wake-up), and dying by a signal so the parent
// sees 128 + N, as with cat.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the self-pipe the handlers write to. Set once in `ProcessSignals.install`
/// before any handler is installed and never changed afterwards; handlers only read it, which is
/// async-signal-safe, so the unsynchronized access is sound.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Writes the signal's number and whether the kernel sent it — a key on the terminal, through the
/// tty's line discipline (`si_code` SI_KERNEL on Linux; no sending process on Darwin) — rather than
/// `kill`: only a key was echoed by the tty. Two bytes, so one `write` to a pipe, atomic.
private let forwardSignal: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signo, info, _ in
    #if os(Linux)
    let fromKernel = info?.pointee.si_code == 0x80  // SI_KERNEL
    #else
    let fromKernel = info?.pointee.si_pid == 0
    #endif
    var record: (UInt8, UInt8) = (UInt8(truncatingIfNeeded: signo), fromKernel ? 1 : 0)
    let saved = errno
    _ = withUnsafeBytes(of: &record) { write(signalPipeWriteEnd, $0.baseAddress, 2) }
    errno = saved
}

enum ProcessSignals {
    /// The signals the animated session reacts to.
    static let routed: [Int32] = [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]

    /// Signals that were ignored when typewrite started (`nohup`, `cmd &` in a script): those stay
    /// ignored, as they do for cat. Written only by `route`, which runs on the main thread outside
    /// signal handlers; never read by a handler.
    nonisolated(unsafe) private static var ignoredAtStart: Set<Int32> = []

    /// Creates the self-pipe and routes `routed` to it; SIGPIPE is ignored so that writes report
    /// EPIPE. - Returns: the read end, or nil when no pipe could be made.
    static func install() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for i in 0..<2 {
            // Keep clear of 0–2: with stdin closed, pipe() would hand out descriptor 0 and the
            // loop would wait on its own signal pipe as if it were the input.
            if ends[i] < 3 {
                let moved = fcntl(ends[i], F_DUPFD_CLOEXEC, 3)
                if moved >= 0 { close(ends[i]); ends[i] = moved }
            }
            _ = fcntl(ends[i], F_SETFL, fcntl(ends[i], F_GETFL) | O_NONBLOCK)  // our own pipe, not a shared one
            _ = fcntl(ends[i], F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = ends[1]
        _ = signal(SIGPIPE, SIG_IGN)
        for s in routed { route(s) }
        return ends[0]
    }

    /// Sends `signo` to the self-pipe (again, after it was reset to its default action), unless it
    /// was ignored when typewrite started.
    static func route(_ signo: Int32) {
        var action = sigaction()
        #if os(Linux)
        action.__sigaction_handler.sa_sigaction = forwardSignal
        #else
        action.__sigaction_u.__sa_sigaction = forwardSignal
        #endif
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        _ = sigaction(signo, &action, &previous)
        #if os(Linux)
        let wasIgnored = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #else
        let wasIgnored = unsafeBitCast(previous.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #endif
        if (wasIgnored && previous.sa_flags & SA_SIGINFO == 0) || ignoredAtStart.contains(signo) {
            ignoredAtStart.insert(signo)
            _ = signal(signo, SIG_IGN)
        }
    }

    /// Runs `signo`'s default action (default handler, unblock, raise); SIGTSTP returns after SIGCONT.
    static func raiseDefault(_ signo: Int32) {
        _ = signal(signo, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signo)
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
        _ = raise(signo)
    }

    /// Stops the process (SIGTSTP's default action) and routes SIGTSTP again once it continues.
    static func suspend() {
        raiseDefault(SIGTSTP)
        route(SIGTSTP)
    }

    /// Dies by `signo`; falls back to exiting with 128 + signo.
    static func die(by signo: Int32) -> Never {
        raiseDefault(signo)
        exit(128 + signo)
    }
}
