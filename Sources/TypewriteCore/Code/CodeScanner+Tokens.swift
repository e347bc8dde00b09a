// CodeScanner+Tokens.swift: one token of code at a time: punctuation and operators, line and
// block comments, dispatching strings, numbers and words. See CodeScanner.swift.

extension CodeScanner {
    // MARK: - Code tokens

    /// Reads one token of code at `i` (not in a comment or string); returns where it ends.
    mutating func codeToken(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        let b = s[i]
        if Self.isBlank(b) {
            var j = i + 1
            while j < end && Self.isBlank(s[j]) { j += 1 }
            Self.fill(r, i..<j, .plain)
            return j
        }
        if language.dialect == .markup && current.name != language.name && b == UInt8(ascii: "<") && leaveEmbedded(s, i, end) {
            return markupText(s, r, i, end, complete)
        }
        switch current.dialect {
        case .markup:
            return markupText(s, r, i, end, complete)
        case .css:
            return cssToken(s, r, i, end, complete)
        case .shell:
            return shellToken(s, r, i, end, complete)
        default:
            break
        }
        // Most tokens are names and numbers: no other construct starts with a letter or a digit.
        if frames.isEmpty && !current.phpTags {
            if (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b >= 0x80 {
                return word(s, r, i, end, complete)
            }
            if Self.isDigit(b) {
                let j = number(s, i, end)
                Self.fill(r, i..<j, .number)
                previous = .value
                declarationWords = 0
                return j
            }
        }
        // Punctuation that starts nothing else.
        if frames.isEmpty && !current.starters.contains(b) && !Self.isNameStart(b) && !Self.isDigit(b) {
            return punctuation(s, r, i, end)
        }
        // An interpolation's closing byte returns to its string.
        if !frames.isEmpty, var frame = frames.last {
            if b == frame.close {
                if frame.depth == 0 {
                    frames.removeLast()
                    r[i] = frame.role
                    mode = frame.resume
                    previous = .value
                    return i + 1
                }
                frame.depth -= 1
                frames[frames.count - 1] = frame
            } else if b == frame.open {
                frame.depth += 1
                frames[frames.count - 1] = frame
            } else if frame.depth == 0, frame.close == UInt8(ascii: "}"), case .string(let form, .brace) = frame.resume,
                      b == UInt8(ascii: ":") || (b == UInt8(ascii: "!") && !(i + 1 < end && s[i + 1] == UInt8(ascii: "="))) {
                // An f-string's conversion or format specification runs to the closing brace.
                frames.removeLast()
                r[i] = .string
                mode = .formatSpec(form: form)
                return i + 1
            }
        }
        if current.phpTags, b == UInt8(ascii: "?"), i + 1 < end, s[i + 1] == UInt8(ascii: ">") {
            Self.fill(r, i..<(i + 2), .keyword)
            mode = .template
            return i + 2
        }
        // Comments.
        if let j = lineComment(s, r, i, end, complete) { return j }
        for (k, comment) in current.blockComments.enumerated() where Self.matches(s, i, end, comment.open) {
            mode = .blockComment(index: k, depth: 1)
            Self.fill(r, i..<(i + comment.open.count), .comment)
            return i + comment.open.count
        }
        if !complete, current.blockComments.contains(where: { Self.startsPattern(s, i, end, $0.open) }), current.lineComments.isEmpty {
            Self.fill(r, i..<end, Self.atLineStart(s, i) ? .comment : .plain)
            return end
        }
        // The C preprocessor, Rust attributes.
        if b == UInt8(ascii: "#") {
            if current.preprocessor && frames.isEmpty && Self.atLineStart(s, i) {
                return preprocessorStart(s, r, i, end)
            }
            if current.cocoa && frames.isEmpty && Self.atLineStart(s, i), let j = swiftDirective(s, r, i, end) { return j }
            if current.hashbang && onFirstLine && i == 0 && i + 1 < end && s[i + 1] == UInt8(ascii: "!") {
                Self.fill(r, i..<end, .comment)
                return end
            }
            if current.hashAttributes, i + 1 < end, s[i + 1] == UInt8(ascii: "[") || (s[i + 1] == UInt8(ascii: "!") && i + 2 < end && s[i + 2] == UInt8(ascii: "[")) {
                let open = s[i + 1] == UInt8(ascii: "[") ? i + 2 : i + 3
                Self.fill(r, i..<open, .keyword)
                mode = .attribute(depth: 1)
                return open
            }
        }
        // Strings.
        if let j = stringStart(s, r, i, end, prefixStart: i) { return j }
        if current.characterLiterals && b == UInt8(ascii: "'") { return characterLiteral(s, r, i, end, complete) }
        // Numbers.
        if Self.isDigit(b) || (b == UInt8(ascii: ".") && i + 1 < end && Self.isDigit(s[i + 1]) && previous != .name && previous != .value
                                  && !(i > 0 && s[i - 1] == UInt8(ascii: ".")))
            || (b == UInt8(ascii: "-") && current.signedNumbers && i + 1 < end && Self.isDigit(s[i + 1])) {
            let j = b == UInt8(ascii: "-") ? number(s, i + 1, end) : number(s, i, end)
            Self.fill(r, i..<j, .number)
            previous = .value
            declarationWords = 0
            return j
        }
        if current.symbols, b == UInt8(ascii: "_") || b == UInt8(ascii: "="), i == 0, let j = rubySigil(s, r, i, end) { return j }
        // Names and words.
        if Self.isNameStart(b) || (b == 0x24 && current.dollarInNames) {
            return word(s, r, i, end, complete)
        }
        if b == 0x24 && current.dollarVariables && i + 1 < end && (Self.isNameStart(s[i + 1]) || s[i + 1] == 0x24) {
            var j = i + 1
            while j < end && (isNameByte(s[j]) || s[j] == 0x24) { j += 1 }
            Self.fill(r, i..<j, .plain)
            previous = .name
            return j
        }
        if current.cocoa && (b == UInt8(ascii: "@") || b == 0x24) && i + 1 < end && (Self.isNameStart(s[i + 1]) || Self.isDigit(s[i + 1])) {
            var j = i + 1
            while j < end && isNameByte(s[j]) { j += 1 }
            Self.fill(r, i..<j, b == UInt8(ascii: "@") && current.words.lookup(s, i..<j)?.role == .keyword ? .keyword : .plain)
            previous = .name
            return j
        }
        if b == UInt8(ascii: "@") && current.decorators && i + 1 < end && Self.isNameStart(s[i + 1]) && previous != .name && previous != .value {
            var j = i + 1
            while j < end && (isNameByte(s[j]) || (current.dottedDecorators && s[j] == UInt8(ascii: ".") && j + 1 < end && Self.isNameStart(s[j + 1]))) { j += 1 }
            Self.fill(r, i..<j, .definition)
            previous = .name
            return j
        }
        if current.symbols {
            if let j = rubySigil(s, r, i, end) { return j }
        }
        if current.regexLiterals && b == UInt8(ascii: "/") && regexMayStart {
            if let j = regexLiteral(s, r, i, end, complete) { return j }
        }
        return punctuation(s, r, i, end)
    }

    /// Whether a value may start here (so `/` opens a regular expression).
    var regexMayStart: Bool {
        previous == .start || previous == .keyword || previous == .op || previous == .colon
    }

    /// Punctuation and operators: plain; they decide what may follow.
    mutating func punctuation(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int) -> Int {
        let b = s[i]
        r[i] = .plain
        if current.dialect == .json {
            switch b {
            case UInt8(ascii: "{"): objects.append(true); keyExpected = true
            case UInt8(ascii: "["): objects.append(false); keyExpected = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !objects.isEmpty { objects.removeLast() }; keyExpected = false
            case UInt8(ascii: ","): keyExpected = objects.last == true
            default: keyExpected = false
            }
        }
        if expectsType && b != UInt8(ascii: "&") && b != UInt8(ascii: "'") { expectsType = false }
        switch b {
        case UInt8(ascii: "("):
            parentheses += 1
            previous = .op
            declarationWords = 0
        case UInt8(ascii: ")"):
            parentheses = max(0, parentheses - 1)
            previous = .value
            declarationWords = 0
        case UInt8(ascii: "]"):
            previous = .value
            if current.callDefinitions == .anywhere { return i + 1 }
            declarationWords = 0
        case UInt8(ascii: "{"):
            if bodyMayFollow && functionBody == nil { functionBody = braces }
            bodyMayFollow = false
            braces += 1
            previous = .op
            declarationWords = 0
            expectsDefinition = false
        case UInt8(ascii: "}"):
            braces = max(0, braces - 1)
            if let body = functionBody, braces <= body { functionBody = nil }
            previous = .start
            declarationWords = 0
        case UInt8(ascii: ";"):
            previous = .start
            declarationWords = 0
            expectsDefinition = false
            bodyMayFollow = false
        case UInt8(ascii: "."):
            previous = .dot
            if current.callDefinitions == .anywhere { return i + 1 }
            declarationWords = 0
        case UInt8(ascii: ":"):
            if i + 1 < end && s[i + 1] == UInt8(ascii: ":") {
                r[i + 1] = .plain
                previous = current.ruby ? .op : .dot
                declarationWords = 0
                return i + 2
            }
            // (TypeScript reads a name after `name:` or `name?:` as a type.)
            var k = i - 1
            while k >= 0 && Self.isBlank(s[k]) { k -= 1 }
            if k >= 0 && s[k] == UInt8(ascii: "?") { k -= 1 }
            previous = k >= 0 && (isNameByte(s[k]) || s[k] == UInt8(ascii: ".")) ? .colon : .op
            declarationWords = 0
            inCaseLabel = false
            if current.typeAfterColon { expectsType = true }
        case UInt8(ascii: "-"):
            if i + 1 < end && s[i + 1] == UInt8(ascii: ">") {
                r[i + 1] = .plain
                previous = current.arrowMembers ? .dot : .op
                declarationWords = 0
                if current.typeAfterColon { expectsType = true }
                return i + 2
            }
            previous = .op
            declarationWords = 0
        case UInt8(ascii: "*"), UInt8(ascii: "&"):
            previous = .op
            if b == UInt8(ascii: "&") && expectsType {
                r[i] = .keyword  // Rust: `&` before a type
                return i + 1
            }
            // `char *name(`: a pointer's star keeps the declaration going.
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["):
            previous = .op
            if current.callDefinitions != .anywhere { declarationWords = 0 }
        case UInt8(ascii: ","):
            previous = .op
            declarationWords = 0
        default:
            previous = .op
            declarationWords = 0
        }
        return i + 1
    }

    /// A line comment at `i`, if one starts there: it takes the rest of the line.
    mutating func lineComment(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int? {
        for opener in current.lineComments {
            if Self.matches(s, i, end, opener) {
                if current.dialect == .shell && i > 0 && !Self.isBlank(s[i - 1]) && s[i - 1] != UInt8(ascii: ";") { continue }
                Self.fill(r, i..<end, .comment)
                return end
            }
            if !complete && opener.count > 1 && Self.startsPattern(s, i, end, opener) {
                // `/` still arriving: a comment if it starts the line, else an operator.
                Self.fill(r, i..<end, Self.atLineStart(s, i) ? .comment : .plain)
                return end
            }
        }
        return nil
    }

    mutating func blockComment(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, index: Int, depth: Int) -> Int {
        let comment = current.blockComments[index]
        var d = depth
        var j = i
        while j < end {
            if Self.matches(s, j, end, comment.close) {
                j += comment.close.count
                d -= 1
                if d == 0 {
                    Self.fill(r, i..<j, .comment)
                    mode = .code
                    return j
                }
                continue
            }
            if current.commentsNest && Self.matches(s, j, end, comment.open) {
                j += comment.open.count
                d += 1
                continue
            }
            j += 1
        }
        Self.fill(r, i..<end, .comment)
        mode = .blockComment(index: index, depth: d)
        return end
    }
}
