/// What the tty's line discipline writes by itself when a key sends a signal: with ECHO and ECHOCTL
/// set (termios(3)), the key's control character shown as `^` and a letter (`^C` for SIGINT, `^\`
/// for SIGQUIT, `^Z` for SIGTSTP), written where the cursor is when the key is pressed — before
/// any handler runs (`docs/terminals.md#the-ttys-echo`).
package struct KeyEcho: Sendable, Equatable {
    /// The echo's bytes, printable ASCII (`^C`).
    package var bytes: [UInt8]
    /// Whether the tty wrote them at the cursor: false when its echo was off at that moment (a
    /// mode typewrite itself had set to read the terminal's replies), so they are only written
    /// after the text, where `cat` would show them.
    package var landed: Bool

    /// - Parameters:
    ///   - bytes: the echo, printable ASCII.
    ///   - landed: whether the tty wrote it at the cursor.
    package init(_ bytes: [UInt8], landed: Bool) {
        self.bytes = bytes
        self.landed = landed
    }

    /// The echo of control character `key` with ECHOCTL: `^` and the character 0x40 above it
    /// (`^?` for DEL); nil for a key that is not a control character (echoed as itself, or not at
    /// all), or `_POSIX_VDISABLE` (0).
    package static func ofControl(_ key: UInt8, landed: Bool) -> KeyEcho? {
        switch key {
        case 0x01...0x1F: return KeyEcho([0x5E, key ^ 0x40], landed: landed)
        case 0x7F: return KeyEcho([0x5E, 0x3F], landed: landed)
        default: return nil
        }
    }

    /// Cells the echo takes.
    package var width: Int { bytes.count }
}
