/// How a terminal is asked to tell the desktop something (`--notify`), decided once from the
/// environment (`docs/exec.md#notifications`).
///
/// - kitty: OSC 99 (kitty's desktop-notification protocol: a title, then a body with `p=body`).
/// - foot, WezTerm and urxvt (its `notify` extension): OSC 777 `notify ; title ; body`.
/// - iTerm2: OSC 9 (Growl-style: one message).
/// - everywhere else, and always inside tmux or GNU screen, which drop the others unless passthrough
///   is set up: BEL, which terminals turn into an urgency hint, a bell or a notification.
package enum DesktopNotification: Equatable, Sendable {
    case kitty
    case osc777
    case osc9
    case bell

    /// The kind `environment` calls for (`TERM`, `TERM_PROGRAM`, `TMUX`, `STY`, `KITTY_WINDOW_ID`).
    package init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["TMUX"] != nil || environment["STY"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            self = .bell
        } else if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil {
            self = .kitty
        } else if program == "WezTerm" || term.hasPrefix("foot") || term.hasPrefix("rxvt-unicode") {
            self = .osc777
        } else if program == "iTerm.app" {
            self = .osc9
        } else {
            self = .bell
        }
    }

    /// Longest body, in characters: a notification shows a line, not a paragraph.
    package static let bodyLimit = 100

    /// The bytes that ask for a notification titled `title` saying `body` (the answer's first
    /// line: control characters are dropped and it is cut to `bodyLimit` characters here).
    package func sequence(title: String, body: String) -> [UInt8] {
        let text = Self.clean(body)
        let name = Self.clean(title)
        switch self {
        case .kitty:
            return Array("\u{1B}]99;i=typewrite:d=0;\(name)\u{1B}\\\u{1B}]99;i=typewrite:d=1:p=body;\(text)\u{1B}\\".utf8)
        case .osc777:
            return Array("\u{1B}]777;notify;\(name);\(text)\u{1B}\\".utf8)
        case .osc9:
            // A message that starts with a number and `;` is ConEmu's command form to some
            // terminals (Windows Terminal's progress `9;4`, Ghostty): the title goes first then.
            let message = text.isEmpty ? name : (Self.looksLikeCommand(text) ? "\(name): \(text)" : text)
            return Array("\u{1B}]9;\(message)\u{07}".utf8)
        case .bell:
            return [0x07]
        }
    }

    /// Whether `text` starts with digits and `;`, the shape of a ConEmu OSC 9 command.
    static func looksLikeCommand(_ text: String) -> Bool {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && text.dropFirst(digits.count).first == ";"
    }

    /// `text` without control characters (C0, DEL, C1; a tab becomes a space), cut to `bodyLimit` characters with an
    /// ellipsis.
    static func clean(_ text: String) -> String {
        let scalars = text.unicodeScalars.compactMap { c -> Unicode.Scalar? in
            c == "\t" ? " " : (c.value < 0x20 || (0x7F...0x9F).contains(c.value) ? nil : c)
        }
        let kept = String(String.UnicodeScalarView(scalars)).trimmingWhitespace()
        guard kept.count > bodyLimit else { return kept }
        return String(kept.prefix(bodyLimit - 1)) + "…"
    }
}

/// When an answer is complete and took long enough to be worth a notification (`--notify`), and
/// its first line: a pure value on the session's clock.
///
/// An answer begins when the input starts, and again with each key the user types (under
/// `--exec`, a question); it is complete when the input ends or the program waits for keys again.
/// Its first line is the first non-blank line of the text after the answer began — after a key,
/// past the end of the line the key was typed on (the tty's echo of the question).
package struct AnswerNotifier: Sendable {
    /// How long an answer must have taken, in seconds.
    package let threshold: Seconds
    package let kind: DesktopNotification
    private var began: Seconds?
    private var firstLine: [UInt8] = []
    private var lineDone = false
    private var skippingEcho = false

    package init(threshold: Seconds, kind: DesktopNotification) {
        self.threshold = threshold
        self.kind = kind
    }

    /// Text of the answer arrived at `time` (the bytes shown: a decoded stream's text).
    package mutating func text(_ bytes: some Collection<UInt8>, at time: Seconds) {
        if began == nil { began = time }
        guard !lineDone else { return }
        var inEscape = false
        for b in bytes {
            if skippingEcho {
                if b == 0x0A { skippingEcho = false }
                continue
            }
            if b == 0x1B { inEscape = true; continue }
            if inEscape {
                // The final byte of a CSI, or the character after ESC: good enough to keep
                // colours out of a one-line summary.
                if (0x40...0x7E).contains(b) && b != 0x5B { inEscape = false }
                continue
            }
            if b == 0x0A || b == 0x0D {
                if firstLine.contains(where: { $0 > 0x20 }) { lineDone = true; return }
                firstLine.removeAll()
                continue
            }
            if firstLine.count < 4 * DesktopNotification.bodyLimit { firstLine.append(b) }
        }
    }

    /// Whether an answer has begun (text came, or `keys` was called) and is not complete yet.
    package var hasBegun: Bool { began != nil }

    /// An answer begins at `time`: with `typed`, the user typed it, and the program's first line
    /// (the tty's echo of what was typed) is not part of it.
    package mutating func begin(at time: Seconds, typed: Bool) {
        began = time
        firstLine.removeAll()
        lineDone = false
        skippingEcho = typed
    }

    /// The answer is complete at `time`: the notification's bytes when it took at least
    /// `threshold`, else nil. The next answer begins with the next text or key.
    package mutating func complete(at time: Seconds) -> [UInt8]? {
        defer {
            began = nil
            firstLine.removeAll()
            lineDone = false
            skippingEcho = false
        }
        guard let began, time - began >= threshold else { return nil }
        let body = String(decoding: firstLine, as: UTF8.self)
        return kind.sequence(title: "typewrite", body: body)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
