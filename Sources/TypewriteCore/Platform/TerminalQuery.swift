// Asking the terminal for its colours (--query-colors). Opt-in, because the producer may be reading
// the same terminal, a late reply would leak into the shell, and changing termios during someone
// else's password prompt could turn echo back on (TERMINAL-NOTES §3).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's default colours, as reported to OSC 10 / OSC 11 queries (xterm ctlseqs).
public struct TerminalColors: Equatable, Sendable {
    public var foreground: RGB?
    public var background: RGB?

    /// Sends `OSC 10 ; ? BEL`, `OSC 11 ; ? BEL` and DA1 (`CSI c`) to /dev/tty and reads the replies
    /// for at most `timeout` seconds. DA1 is a sentinel: every terminal answers it, so a DA1 reply
    /// before a colour reply means the terminal does not support the query.
    /// Only when /dev/tty is in the foreground process group; nil otherwise or on any failure.
    public static func query(timeout: Seconds = 0.2) -> TerminalColors? {
        // Ctrl-C during the wait must not leave echo off: signals wait until termios is restored.
        Signals.withTerminatingSignalsBlocked { queryBlocked(timeout: timeout) }
    }

    private static func queryBlocked(timeout: Seconds) -> TerminalColors? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard tcgetpgrp(fd) == getpgrp() else { return nil }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(fd, TCSANOW, &saved) }
        let request = Array("\u{1B}]10;?\u{7}\u{1B}]11;?\u{7}\u{1B}[c".utf8)
        guard request.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == request.count else { return nil }
        var reply: [UInt8] = []
        let deadline = System.monotonicNow() + timeout
        var buffer = [UInt8](repeating: 0, count: 256)
        while !Self.hasDeviceAttributes(reply) {
            let left = deadline - System.monotonicNow()
            guard left > 0 else { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32((left * 1000).rounded(.up))) > 0 else { break }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            reply += buffer[0..<n]
        }
        return parse(reply)
    }

    static func hasDeviceAttributes(_ reply: [UInt8]) -> Bool {
        // CSI ? … c
        guard let esc = reply.lastIndex(of: 0x1B), esc + 2 < reply.count, reply[esc + 1] == 0x5B, reply[esc + 2] == 0x3F else { return false }
        return reply[esc...].contains(0x63)
    }

    /// Parses `OSC 10|11 ; rgb:RRRR/GGGG/BBBB (BEL|ST)` replies (1–4 hex digits per channel).
    static func parse(_ reply: [UInt8]) -> TerminalColors {
        let text = String(decoding: reply, as: UTF8.self)
        var colors = TerminalColors()
        for (code, keyPath) in [("10", \TerminalColors.foreground), ("11", \TerminalColors.background)] {
            guard let r = text.range(of: "\u{1B}]\(code);rgb:") else { continue }
            let body = text[r.upperBound...].prefix { $0 != "\u{7}" && $0 != "\u{1B}" }
            let parts = body.split(separator: "/")
            guard parts.count == 3 else { continue }
            let channels = parts.compactMap { part -> UInt8? in
                guard (1...4).contains(part.count), let v = UInt32(part, radix: 16) else { return nil }
                let max = (UInt32(1) << (4 * UInt32(part.count))) - 1
                return UInt8((v * 255 + max / 2) / max)
            }
            if channels.count == 3 { colors[keyPath: keyPath] = RGB(channels[0], channels[1], channels[2]) }
        }
        return colors
    }
}

#if canImport(Foundation)
import Foundation  // String.range(of:)
#endif
