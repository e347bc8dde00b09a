// The code scanner's rules for Ruby, the shell and JSON (see CodeScanner.swift).

extension CodeScanner {
    // MARK: Ruby

    /// After `def`: the method's name (`self.` before it is a builtin), with a trailing `=`, `?` or
    /// `!`, or an operator (`[]`, `[]=`, `==`, `+`).
    mutating func rubyDefinition(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ from: Int, _ end: Int) -> Int {
        var i = from
        while i < end && Self.isBlank(s[i]) { r[i] = .plain; i += 1 }
        if Self.matches(s, i, end, "self.") {
            Self.fill(r, i..<(i + 4), .builtin)
            r[i + 4] = .plain
            i += 5
        }
        var j = i
        if j < end && Self.isNameStart(s[j]) {
            while j < end && isNameByte(s[j]) { j += 1 }
            if j < end && (s[j] == UInt8(ascii: "?") || s[j] == UInt8(ascii: "!") || s[j] == UInt8(ascii: "=")) && !(j + 1 < end && (s[j + 1] == UInt8(ascii: "=") || s[j + 1] == UInt8(ascii: "~"))) { j += 1 }
        } else {
            while j < end && "[]=<>+-*/%!~^&|".utf8.contains(s[j]) { j += 1 }
        }
        Self.fill(r, i..<j, .definition)
        previous = .name
        return j
    }

    /// `:symbol`, `%w[…]`, `@ivar`, `$global`, `=begin`, `__END__`, heredocs.
    mutating func rubySigil(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int) -> Int? {
        let b = s[i]
        if b == UInt8(ascii: ":") && i + 1 < end && !(i > 0 && (isNameByte(s[i - 1]) || s[i - 1] == UInt8(ascii: ":") || s[i - 1] == UInt8(ascii: ")") || s[i - 1] == UInt8(ascii: "]"))) {
            let c = s[i + 1]
            if Self.isNameStart(c) {
                var j = i + 2
                while j < end && isNameByte(s[j]) { j += 1 }
                if j < end && (s[j] == UInt8(ascii: "?") || s[j] == UInt8(ascii: "!") || s[j] == UInt8(ascii: "=")) && !(j + 1 < end && s[j + 1] == UInt8(ascii: "=")) && s[j] != UInt8(ascii: "=") { j += 1 }
                Self.fill(r, i..<j, .string)
                previous = .value
                return j
            }
            if c == UInt8(ascii: "\"") {
                r[i] = .string
                if let j = stringStart(s, r, i + 1, end, prefixStart: i) { return j }
            }
        }
        if b == UInt8(ascii: "%") && i + 2 < end && regexMayStart {
            var k = i + 1
            if Self.isNameStart(s[k]) && "qQwWiIrsx".utf8.contains(s[k]) { k += 1 }
            let open = s[k]
            let pairs: [(UInt8, UInt8)] = [(0x28, 0x29), (0x5B, 0x5D), (0x7B, 0x7D), (0x3C, 0x3E)]
            if let pair = pairs.first(where: { $0.0 == open }) {
                Self.fill(r, i..<(k + 1), .string)
                mode = .percentLiteral(open: pair.0, close: pair.1, depth: 0)
                return k + 1
            }
            if open == UInt8(ascii: "|") || open == UInt8(ascii: "!") || open == UInt8(ascii: "/") {
                Self.fill(r, i..<(k + 1), .string)
                mode = .percentLiteral(open: open, close: open, depth: 0)
                return k + 1
            }
        }
        if b == UInt8(ascii: "@") || b == 0x24 {
            var j = i + 1
            if j < end && s[j] == UInt8(ascii: "@") { j += 1 }
            guard j < end, Self.isNameStart(s[j]) else { return nil }
            while j < end && isNameByte(s[j]) { j += 1 }
            Self.fill(r, i..<j, .plain)
            previous = .name
            return j
        }
        if b == UInt8(ascii: "=") && i == 0 && Self.matches(s, 0, end, "=begin") && (end == 6 || Self.isBlank(s[6])) {
            Self.fill(r, 0..<end, .comment)
            mode = .embeddedDocument
            return end
        }
        if b == UInt8(ascii: "_") && i == 0 && end == 7 && Self.matches(s, 0, end, "__END__") {
            Self.fill(r, 0..<end, .keyword)
            mode = .rest(.keyword)
            return end
        }
        if b == UInt8(ascii: "<") && i + 2 < end && s[i + 1] == UInt8(ascii: "<") && (previous == .op || previous == .start || previous == .keyword || previous == .name) {
            var k = i + 2
            var indented = false
            if s[k] == UInt8(ascii: "~") || s[k] == UInt8(ascii: "-") { indented = true; k += 1 }
            var quote: UInt8 = 0
            if k < end && (s[k] == UInt8(ascii: "'") || s[k] == UInt8(ascii: "\"")) { quote = s[k]; k += 1 }
            let start = k
            while k < end && (s[k] >= 0x41 && s[k] <= 0x5A || s[k] == 0x5F || Self.isDigit(s[k])) { k += 1 }
            guard k > start, s[start] >= 0x41 && s[start] <= 0x5A else { return nil }
            let word = Array(UnsafeBufferPointer(rebasing: s[start..<k]))
            if quote != 0 { if k < end && s[k] == quote { k += 1 } else { return nil } }
            Self.fill(r, i..<k, .string)
            pendingHeredoc = (word, indented, quote == UInt8(ascii: "'") ? .none : .hashBrace)
            previous = .value
            return k
        }
        return nil
    }

    // MARK: - The shell

    /// Swift: a compiler-control statement at `i` (`#if`, `#elseif`, `#else`, `#endif`; The Swift
    /// Programming Language, "Compiler Control Statements"): the directive is a keyword, and so is
    /// every name of its condition (`os`, `Linux`, `canImport`, `DEBUG`), as Pygments reads them;
    /// operators, numbers and comments keep their roles. Nil when no such directive is at `i`.
    mutating func swiftDirective(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int) -> Int? {
        var j = i + 1
        while j < end && isNameByte(s[j]) { j += 1 }
        let n = j - i - 1
        guard n >= 2 && n <= 6, Self.matches(s, i + 1, j, "if") && n == 2 || Self.matches(s, i + 1, j, "elseif") && n == 6
                || Self.matches(s, i + 1, j, "else") && n == 4 || Self.matches(s, i + 1, j, "endif") && n == 5 else { return nil }
        Self.fill(r, i..<j, .keyword)
        inDirective = true
        previous = .start
        return j
    }

    static func isShellWordByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x20, 0x09, 0x0D, UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "("), UInt8(ascii: ")"), 0x24, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "="), UInt8(ascii: "\\"):
            return false
        default:
            return true
        }
    }

    mutating func shellToken(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        let b = s[i]
        if var frame = frames.last {
            if b == frame.close {
                if frame.depth == 0 {
                    frames.removeLast()
                    r[i] = frame.role
                    mode = frame.resume
                    previous = .name
                    return i + 1
                }
                frame.depth -= 1
                frames[frames.count - 1] = frame
                if frame.depth == 0 && frame.role == .keyword && b == UInt8(ascii: ")") && i + 1 < end && s[i + 1] == UInt8(ascii: ")") {
                    // `))` closing `$((`.
                    frames.removeLast()
                    Self.fill(r, i..<(i + 2), .keyword)
                    mode = frame.resume
                    previous = .name
                    return i + 2
                }
            } else if b == frame.open {
                frame.depth += 1
                frames[frames.count - 1] = frame
            }
        }
        if b == UInt8(ascii: "#") && (i == 0 || Self.isBlank(s[i - 1]) || s[i - 1] == UInt8(ascii: ";"))
            && (language.dialect != .dockerfile || embeddedContinues) {
            // (In a Dockerfile a command's comment needs a continued line after it.)
            Self.fill(r, i..<end, .comment)
            return end
        }
        if b == UInt8(ascii: ":"), let frame = frames.last, frame.close == UInt8(ascii: "}"), frame.role == .string,
           i + 1 < end, "-=+?".utf8.contains(s[i + 1]) {
            // `${name:-default}`: the operator is a keyword.
            Self.fill(r, i..<(i + 2), .keyword)
            return i + 2
        }
        if b == 0x24 {
            guard i + 1 < end else {
                r[i] = .plain
                return end
            }
            let c = s[i + 1]
            if c == UInt8(ascii: "(") {
                let double = i + 2 < end && s[i + 2] == UInt8(ascii: "(")
                let n = double ? 3 : 2
                Self.fill(r, i..<(i + n), .keyword)
                pushFrame(Frame(resume: .code, close: UInt8(ascii: ")"), open: UInt8(ascii: "("), role: .keyword, depth: double ? 1 : 0))
                previous = .start
                return i + n
            }
            if c == UInt8(ascii: "{") {
                Self.fill(r, i..<(i + 2), .string)
                pushFrame(Frame(resume: .code, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: .string))
                previous = .op
                return i + 2
            }
            if c == UInt8(ascii: "'") {
                r[i] = .string
                if let j = stringStart(s, r, i + 1, end, prefixStart: i, interpolates: false) { return j }
            }
            var j = i + 2
            if Self.isNameStart(c) { while j < end && isNameByte(s[j]) { j += 1 } }
            Self.fill(r, i..<min(j, end), .plain)
            previous = .name
            return min(j, end)
        }
        if b == UInt8(ascii: "<") && i + 1 < end && s[i + 1] == UInt8(ascii: "<") && !(i + 2 < end && s[i + 2] == UInt8(ascii: "<")) {
            // A heredoc: `<<WORD`, `<<-WORD`, `<<'WORD'`, `<<"WORD"`; the rest of the line and the
            // heredoc's lines up to WORD are its text.
            var k = i + 2
            var indented = false
            if k < end && s[k] == UInt8(ascii: "-") { indented = true; k += 1 }
            while k < end && Self.isBlank(s[k]) { k += 1 }
            var quote: UInt8 = 0
            if k < end && (s[k] == UInt8(ascii: "'") || s[k] == UInt8(ascii: "\"")) { quote = s[k]; k += 1 }
            if k < end && s[k] == UInt8(ascii: "\\") { k += 1 }
            let start = k
            while k < end && (Self.isNameStart(s[k]) || Self.isDigit(s[k])) { k += 1 }
            if k > start {
                pendingHeredoc = (Array(UnsafeBufferPointer(rebasing: s[start..<k])), indented, quote == 0 ? .shell : .none)
                Self.fill(r, i..<end, .string)
                return end
            }
        }
        if b == UInt8(ascii: "`") {
            r[i] = .string
            pushFrame(Frame(resume: .code, close: UInt8(ascii: "`"), open: 0, role: .string))
            previous = .start
            return i + 1
        }
        if let j = stringStart(s, r, i, end, prefixStart: i) { return j }
        if b == UInt8(ascii: "\\") {
            // An escaped character (a line's last `\\` escapes its newline): a string.
            let stop = min(end, i + 2)
            Self.fill(r, i..<stop, .string)
            return stop
        }
        if Self.isShellWordByte(b) {
            var j = i + 1
            while j < end && Self.isShellWordByte(s[j]) { j += 1 }
            var role = CodeRole.plain
            if Self.isDigit(b) {
                // Digits that end at a word boundary are a number (`2>&1`, the `3` of `3.13`).
                var d = i + 1
                while d < j && Self.isDigit(s[d]) { d += 1 }
                if d == j || !(Self.isNameStart(s[d]) && s[d] < 0x80) {
                    Self.fill(r, i..<d, .number)
                    Self.fill(r, d..<j, .plain)
                    previous = .name
                    return j
                }
            } else if let info = current.words.lookup(s, i..<j) {
                // Keywords only where a command may start; builtins where a command is.
                let next: UInt8 = j < end ? s[j] : 0x20
                if info.role == .keyword {
                    role = .keyword
                } else if next == 0x20 || next == 0x09 || next == UInt8(ascii: ")") || next == UInt8(ascii: ";") || next == UInt8(ascii: "`") || (j == end) {
                    role = info.role
                }
            }
            Self.fill(r, i..<j, role)
            previous = role == .keyword ? .start : .name
            return j
        }
        r[i] = .plain
        previous = b == UInt8(ascii: ";") || b == UInt8(ascii: "|") || b == UInt8(ascii: "&") ? .start : .op
        return i + 1
    }

    // MARK: - JSON

    /// A JSON string just closed at `j`: a key when `:` follows.
    mutating func jsonStringEnded(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ j: Int, _ end: Int, _ complete: Bool) {
        var k = j
        while k < end && Self.isBlank(s[k]) { k += 1 }
        // Where nothing follows yet, a key where an object expects one.
        let isKey = k < end ? s[k] == UInt8(ascii: ":") : keyExpected
        Self.fill(r, min(stringOpened, j)..<j, isKey ? .key : .string)
        keyExpected = false
    }
}
