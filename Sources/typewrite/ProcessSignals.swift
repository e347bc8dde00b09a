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

private let forwardSignal: @convention(c) (Int32) -> Void = { signo in
    var byte = UInt8(truncatingIfNeeded: signo)
    let saved = errno
    _ = write(signalPipeWriteEnd, &byte, 1)
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
        let previous = signal(signo, forwardSignal)
        if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) || ignoredAtStart.contains(signo) {
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
