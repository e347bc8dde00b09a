// CodeScanner+Literals.swift: strings (with interpolation, raw and hash forms), character and
// regex literals, numbers, words, and the C preprocessor's and Rust's attribute lines. See
// CodeScanner.swift.

extension CodeScanner {
    // MARK: Strings

    /// A string literal opening at `i` (its prefix, if any, from `prefixStart`).
    mutating func stringStart(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int,
                                      prefixStart: Int, interpolates: Bool = true) -> Int? {
        for (k, form) in current.strings.enumerated() where Self.matches(s, i, end, form.open) {
            // A triple quote still arriving is read as the shorter form it so far is.
            Self.fill(r, prefixStart..<(i + form.open.count), form.role)
            stringOpened = prefixStart
            let interpolation = interpolates ? form.interpolation : .none
            mode = .string(form: k, interpolation: interpolation)
            continued = false
            return i + form.open.count
        }
        if current.stringPrefixes == .rust || current.cocoa, s[i] == UInt8(ascii: "#") {
            // `#"…"#` (Swift), the `#`s of Rust's `r#"…"#` after its `r`.
            var j = i
            while j < end && s[j] == UInt8(ascii: "#") { j += 1 }
            if j < end && s[j] == UInt8(ascii: "\"") && (current.cocoa || prefixStart < i) {
                Self.fill(r, prefixStart..<(j + 1), .string)
                mode = .hashString(hashes: j - i)
                return j + 1
            }
        }
        return nil
    }

    mutating func stringBody(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool,
                                     form k: Int, interpolation: CodeLanguage.Interpolation) -> Int {
        let form = current.strings[k]
        // JSON: a string where an object expects a key is read as one until proven otherwise.
        let role = current.dialect == .json && keyExpected ? .key : form.role
        var j = i
        let close = form.close
        let first = close[0]
        let interpolates = interpolation.rawValue != 0
        let escapes = form.escapes
        while j < end {
            let b = s[j]
            if b == first && Self.matches(s, j, end, close) {
                if form.doubledCloseEscapes && Self.matches(s, j + close.count, end, close) {
                    j += 2 * close.count
                    continue
                }
                j += close.count
                Self.fill(r, i..<j, role)
                mode = .code
                previous = .value
                continued = false
                if current.dialect == .json { jsonStringEnded(s, r, j, end, complete) }
                return j
            }
            if b == UInt8(ascii: "\\") && escapes {
                if interpolation == .backslashParen && j + 1 < end && s[j + 1] == UInt8(ascii: "(") {
                    Self.fill(r, i..<(j + 2), role)
                    enterInterpolation(Frame(resume: mode, close: UInt8(ascii: ")"), open: UInt8(ascii: "("), role: role))
                    previous = .op
                    return j + 2
                }
                if j + 1 >= end { continued = true }
                j += 2
                continue
            }
            if interpolates, let opened = interpolationStart(s, r, i, j, end, role: role, interpolation: interpolation) {
                return opened
            }
            j += 1
        }
        let stop = min(j, end)
        Self.fill(r, i..<stop, role)
        return end
    }

    /// An interpolation opening at `j` inside a string whose body began at `start`: writes the
    /// string so far and returns where code resumes, or nil when none opens at `j`.
    mutating func interpolationStart(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ start: Int, _ j: Int, _ end: Int,
                                             role: CodeRole, interpolation: CodeLanguage.Interpolation) -> Int? {
        let b = s[j]
        switch interpolation {
        case .brace:
            guard b == UInt8(ascii: "{") else { return nil }
            if j + 1 < end && s[j + 1] == UInt8(ascii: "{") { return nil }
            Self.fill(r, start..<(j + 1), role)
            enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: role))
            previous = .op
            return j + 1
        case .dollarBrace:
            guard b == 0x24, j + 1 < end else { return nil }
            if s[j + 1] == UInt8(ascii: "{") {
                Self.fill(r, start..<(j + 2), role)
                enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: role))
                previous = .op
                return j + 2
            }
            if current.receivers && Self.isNameStart(s[j + 1]) {
                // `$name` in a Kotlin string: the name is code.
                Self.fill(r, start..<(j + 1), role)
                var e = j + 1
                while e < end && isNameByte(s[e]) { e += 1 }
                Self.fill(r, (j + 1)..<e, .plain)
                // Resume the string after the name.
                let resume = mode
                mode = resume
                return e
            }
            return nil
        case .hashBrace:
            guard b == UInt8(ascii: "#"), j + 1 < end, s[j + 1] == UInt8(ascii: "{") else { return nil }
            Self.fill(r, start..<(j + 2), role)
            enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: role))
            previous = .op
            return j + 2
        case .shell:
            if b == 0x24, j + 1 < end {
                let c = s[j + 1]
                if c == UInt8(ascii: "(") {
                    Self.fill(r, start..<j, role)
                    let double = j + 2 < end && s[j + 2] == UInt8(ascii: "(")
                    let n = double ? 3 : 2
                    Self.fill(r, j..<(j + n), .keyword)
                    enterInterpolation(Frame(resume: mode, close: UInt8(ascii: ")"), open: UInt8(ascii: "("), role: .keyword, depth: double ? 1 : 0))
                    previous = .start
                    return j + n
                }
                if c == UInt8(ascii: "{") {
                    Self.fill(r, start..<(j + 2), role)
                    enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: .string))
                    previous = .op
                    return j + 2
                }
                if Self.isNameStart(c) || Self.isDigit(c) || "@*#?$!-".utf8.contains(c) {
                    Self.fill(r, start..<j, role)
                    var e = j + 2
                    if Self.isNameStart(c) { while e < end && isNameByte(s[e]) { e += 1 } }
                    Self.fill(r, j..<e, .plain)
                    return e
                }
            }
            if b == UInt8(ascii: "`") {
                Self.fill(r, start..<(j + 1), role)
                enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "`"), open: 0, role: .string))
                previous = .start
                return j + 1
            }
            return nil
        case .php:
            // `$name` is part of the string; `{$expr}` and `${expr}` hold code.
            if b == 0x24, j + 1 < end, s[j + 1] == UInt8(ascii: "{") {
                Self.fill(r, start..<(j + 2), role)
                enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: role))
                previous = .op
                return j + 2
            }
            if b == UInt8(ascii: "{"), j + 1 < end, s[j + 1] == 0x24 {
                Self.fill(r, start..<(j + 1), role)
                enterInterpolation(Frame(resume: mode, close: UInt8(ascii: "}"), open: UInt8(ascii: "{"), role: role))
                previous = .op
                return j + 1
            }
            return nil
        default:
            return nil
        }
    }

    mutating func hashStringBody(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, hashes: Int) -> Int {
        var j = i
        while j < end {
            if s[j] == UInt8(ascii: "\"") {
                var k = j + 1
                while k < end && k - j - 1 < hashes && s[k] == UInt8(ascii: "#") { k += 1 }
                if k - j - 1 == hashes {
                    Self.fill(r, i..<k, .string)
                    mode = .code
                    previous = .value
                    return k
                }
            }
            j += 1
        }
        Self.fill(r, i..<end, .string)
        return end
    }

    /// `'x'`, `'\n'`, `'\u{1F600}'`; in Rust, `'a` without a closing quote is a lifetime (plain).
    mutating func characterLiteral(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        var j = i + 1
        if j < end && s[j] == UInt8(ascii: "\\") {
            j += 2
            while j < end && j - i < 12 && s[j] != UInt8(ascii: "'") { j += 1 }
        } else if j < end {
            // One character (a UTF-8 sequence).
            j += 1
            while j < end && s[j] & 0xC0 == 0x80 { j += 1 }
        }
        if j < end && s[j] == UInt8(ascii: "'") {
            Self.fill(r, i..<(j + 1), .string)
            previous = .value
            return j + 1
        }
        if current.lifetimes && i + 1 < end && Self.isNameStart(s[i + 1]) {
            var e = i + 1
            while e < end && isNameByte(s[e]) { e += 1 }
            if e < end || complete {
                r[i] = .plain
                let builtin = (e - i == 7 && Self.matches(s, i + 1, e, "static")) || (e - i == 2 && s[i + 1] == UInt8(ascii: "_"))
                Self.fill(r, (i + 1)..<e, builtin ? .builtin : .plain)
                previous = .name
                return e
            }
        }
        if !complete && j >= end {
            Self.fill(r, i..<end, .string)
            return end
        }
        r[i] = .plain
        previous = .op
        return i + 1
    }

    /// `/…/flags` where a value may start; nil when no closing `/` is on the line.
    mutating func regexLiteral(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int? {
        if i + 1 < end && (s[i + 1] == UInt8(ascii: "/") || s[i + 1] == UInt8(ascii: "*")) { return nil }
        var j = i + 1
        var inClass = false
        while j < end {
            let b = s[j]
            if b == UInt8(ascii: "\\") { j += 2; continue }
            if b == UInt8(ascii: "[") { inClass = true } else if b == UInt8(ascii: "]") { inClass = false } else if b == UInt8(ascii: "/") && !inClass { break }
            j += 1
        }
        if j >= end {
            guard !complete else { return nil }
            Self.fill(r, i..<end, .string)
            return end
        }
        j += 1
        while j < end && Self.isNameStart(s[j]) { j += 1 }
        Self.fill(r, i..<j, .string)
        previous = .value
        return j
    }

    // MARK: Numbers and words

    /// The end of a number starting at `i`.
    func number(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var j = i
        if s[j] == UInt8(ascii: "0") && j + 1 < end && "xXbBoO".utf8.contains(s[j + 1]) {
            j += 2
            while j < end && (Self.isDigit(s[j]) || (s[j] | 0x20 >= 0x61 && s[j] | 0x20 <= 0x66) || s[j] == 0x5F) { j += 1 }
        } else {
            while j < end {
                let b = s[j]
                if Self.isDigit(b) || b == 0x5F || b == UInt8(ascii: "'") && current.stringPrefixes == .cpp && j + 1 < end && Self.isDigit(s[j + 1]) {
                    j += 1
                } else if b == UInt8(ascii: ".") {
                    let next = j + 1 < end ? s[j + 1] : 0
                    if Self.isDigit(next) || !(next == UInt8(ascii: ".") || Self.isNameStart(next) || next == 0) || (next | 0x20 == 0x65 && j + 2 < end && Self.isDigit(s[j + 2])) {
                        j += 1
                    } else {
                        break
                    }
                } else if b | 0x20 == 0x65, j + 1 < end, Self.isDigit(s[j + 1]) || ((s[j + 1] == 0x2B || s[j + 1] == 0x2D) && j + 2 < end && Self.isDigit(s[j + 2])) {
                    j += 2
                } else {
                    break
                }
            }
        }
        // A suffix: `u32`, `L`, `f`, `n`.
        if current.name != "python" {
            while j < end && (Self.isNameStart(s[j]) || Self.isDigit(s[j])) && s[j] < 0x80 { j += 1 }
        }
        return j
    }

    /// A name or word at `i`: its role from the language's table and the rules that look around it.
    mutating func word(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        var j = i + 1
        while j < end && isNameByte(s[j]) { j += 1 }
        if current.bangInNames && j < end && (s[j] == UInt8(ascii: "?") || s[j] == UInt8(ascii: "!"))
            && !(j + 1 < end && s[j + 1] == UInt8(ascii: "=")) { j += 1 }
        let partial = j == end && !complete
        // A string's prefix.
        if j < end, current.stringPrefixes != .none, s[j] == UInt8(ascii: "\"") || s[j] == UInt8(ascii: "'") || s[j] == UInt8(ascii: "#"), let opened = prefixedString(s, r, i, j, end) { return opened }
        // Rust's standard macros: `name!`.
        if current.macros && j < end && s[j] == UInt8(ascii: "!") && !(j + 1 < end && s[j + 1] == UInt8(ascii: "="))
            && current.macroNames?.lookup(s, i..<j) != nil {
            Self.fill(r, i..<(j + 1), .definition)
            previous = .name
            return j + 1
        }
        // Ruby's `name:` hash key (not `name::`), a symbol.
        if current.symbols && j < end && s[j] == UInt8(ascii: ":") && !(j + 1 < end && s[j + 1] == UInt8(ascii: ":"))
            && previous != .dot && previous != .colon {
            Self.fill(r, i..<j, .string)
            r[j] = .plain
            previous = .op
            return j + 1
        }
        var info = current.words.lookup(s, i..<j)
        if previous == .dot {
            switch current.afterDot {
            case .sameRole: break
            case .keywordsOnly: if info?.role == .builtin { info = nil }
            case .plain: info = nil
            }
        }
        if let modifier = info, modifier.modifier, !modifierDeclares(s, j, end) { info = nil }
        var role = info?.role ?? .plain
        if current.ruby && role == .plain && s[i] >= 0x41 && s[i] <= 0x5A && previous != .dot && !namesNamespace {
            role = .builtin  // a constant
        }
        if current.cocoa && role == .plain && j - i > 3 && (s[i] == UInt8(ascii: "U") && s[i + 1] == UInt8(ascii: "I") || s[i] == UInt8(ascii: "N") && s[i + 1] == UInt8(ascii: "S"))
            && s[i + 2] >= 0x41 && s[i + 2] <= 0x5A {
            role = .builtin  // UIKit's and Foundation's classes
        }
        namesNamespace = current.ruby && role == .keyword && j - i == 6 && Self.matches(s, i, end, "module")
        var definedByCall = false
        if expectsPlainName || expectsConstant {
            role = expectsConstant ? .builtin : .plain
            expectsPlainName = false
            expectsConstant = false
        } else if expectsType {
            // Rust: a type's name is a definition unless it is a builtin type or trait.
            expectsType = false
            if info?.declarator != true { role = .definition }
        } else if expectsDefinition && role != .keyword {
            if current.receivers && j < end && s[j] == UInt8(ascii: ".") {
                role = .plain  // `fun Receiver.name`: the name after the dot is defined
            } else {
                role = .definition
                expectsDefinition = false
            }
        } else if let info, info.definer && !info.binder {
            expectsDefinition = true
        }
        if role == .plain && current.callDefinitions != .none && declarationWords > 0 && previous != .dot
            && (current.callDefinitions == .anywhere || (functionBody == nil && parentheses == 0)) {
            if let k = Self.nextNonBlank(s, j, end), s[k] == UInt8(ascii: "(") {
                role = .definition
                definedByCall = true
            }
        }
        if role == .plain && inCaseLabel { role = .builtin }
        if role == .plain && inImport { role = .definition }
        if inDirective { role = .keyword }
        if (role == .plain || role == .builtin) && current.typeAnnotations && previous == .colon {
            // TypeScript: a (dotted) name after `name:` is read as a type annotation, a builtin's
            // too (`x: Date`, `s: Map<…>`), as the language's highlighters read it.
            role = .keyword
            while j + 1 < end && s[j] == UInt8(ascii: ".") && Self.isNameStart(s[j + 1]) {
                j += 2
                while j < end && isNameByte(s[j]) { j += 1 }
            }
        }
        if role == .keyword && current.receivers && j < end && s[j] == UInt8(ascii: "?") && info?.declarator == true
            && !(j + 1 < end && (s[j + 1] == UInt8(ascii: ".") || s[j + 1] == UInt8(ascii: ":"))) {
            j += 1  // Kotlin's nullable type, `Int?`
        }
        Self.fill(r, i..<j, role)
        if partial { return j }
        // What the word makes of what follows.
        if definedByCall && current.callDefinitions == .topLevel { bodyMayFollow = true }
        switch role {
        case .keyword:
            previous = info?.declarator == true ? .name : .keyword
            if info?.declarator == true { declarationWords += 1 } else { declarationWords = 0 }
        default:
            previous = .name
            declarationWords += 1
        }
        if let info, info.binder {
            if info.definer { expectsConstant = true } else { expectsPlainName = true }
        }
        if current.caseConstants && role == .keyword && j - i == 4 && Self.matches(s, i, end, "case") { inCaseLabel = true }
        if current.importDefinitions && role == .keyword && j - i == 6 && Self.matches(s, i, end, "import") { inImport = true }
        if current.ruby && role == .keyword && j - i == 3 && Self.matches(s, i, end, "def") {
            return rubyDefinition(s, r, j, end)
        }
        if expectsDefinition && current.receivers, let k = Self.nextNonBlank(s, j, end), s[k] == UInt8(ascii: "<") {
            return typeParameters(s, r, j, end)
        }
        return j
    }

    /// Kotlin: whether the modifier before `from` precedes a declaration (`data class`, `private
    /// fun`, `override val`), looking past other modifiers on the line; a line still arriving that
    /// ends with modifiers is taken to.
    func modifierDeclares(_ s: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        var k = from
        while true {
            while k < end && Self.isBlank(s[k]) { k += 1 }
            if k >= end { return true }
            guard Self.isNameStart(s[k]) else { return false }
            var e = k + 1
            while e < end && isNameByte(s[e]) { e += 1 }
            guard let info = current.words.lookup(s, k..<e) else { return false }
            if info.modifier { k = e; continue }
            return info.definer || info.binder
        }
    }

    /// Kotlin's `fun <T : Comparable<T>> name`: the type parameters are plain (`reified`, `out`
    /// and `in` keywords); the definition is the name after them.
    mutating func typeParameters(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ from: Int, _ end: Int) -> Int {
        var depth = 0
        var k = from
        while k < end {
            let b = s[k]
            if b == UInt8(ascii: "<") { depth += 1 } else if b == UInt8(ascii: ">") {
                depth -= 1
                if depth == 0 { r[k] = .plain; k += 1; break }
            }
            if Self.isNameStart(b) {
                var e = k + 1
                while e < end && isNameByte(s[e]) { e += 1 }
                let role = current.words.lookup(s, k..<e)?.role
                Self.fill(r, k..<e, role == .keyword ? .keyword : .plain)
                k = e
                continue
            }
            r[k] = .plain
            k += 1
        }
        previous = .op
        return k
    }

    /// A string whose prefix is the name `s[i..<j]` (`f"…"`, `r#"…"#`, `u8"…"`), if it is one.
    mutating func prefixedString(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ j: Int, _ end: Int) -> Int? {
        let n = j - i
        let q = s[j]
        switch current.stringPrefixes {
        case .python:
            guard n <= 2, q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else { return nil }
            var fString = false
            for k in i..<j {
                switch s[k] | 0x20 {
                case UInt8(ascii: "f"): fString = true
                case UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "u"): break
                default: return nil
                }
            }
            guard let opened = stringStart(s, r, j, end, prefixStart: i, interpolates: false) else { return nil }
            if fString, case .string(let form, _) = mode { mode = .string(form: form, interpolation: .brace) }
            return opened
        case .rust:
            if n == 1 && s[i] == UInt8(ascii: "b") && (q == UInt8(ascii: "\"") || q == UInt8(ascii: "'")) {
                if q == UInt8(ascii: "'") {
                    let e = characterLiteral(s, r, j, end, true)
                    Self.fill(r, i..<j, r[j])
                    return e
                }
                return stringStart(s, r, j, end, prefixStart: i)
            }
            let raw = (n == 1 && s[i] == UInt8(ascii: "r")) || (n == 2 && s[i] == UInt8(ascii: "b") && s[i + 1] == UInt8(ascii: "r"))
            guard raw else { return nil }
            if q == UInt8(ascii: "\"") {
                Self.fill(r, i..<(j + 1), .string)
                mode = .hashString(hashes: 0)
                return j + 1
            }
            if q == UInt8(ascii: "#") { return stringStart(s, r, j, end, prefixStart: i) }
            return nil
        case .cpp:
            guard q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else { return nil }
            var word = ""
            for k in i..<j { word.unicodeScalars.append(Unicode.Scalar(s[k])) }
            if q == UInt8(ascii: "\""), word.hasSuffix("R"), ["R", "LR", "uR", "UR", "u8R"].contains(word) {
                // `R"delim(`: the closing is `)delim"`.
                var k = j + 1
                while k < end && s[k] != UInt8(ascii: "(") && k - j <= 17 { k += 1 }
                guard k < end && s[k] == UInt8(ascii: "(") else { return nil }
                terminator = [UInt8(ascii: ")")] + Array(UnsafeBufferPointer(rebasing: s[(j + 1)..<k])) + [UInt8(ascii: "\"")]
                Self.fill(r, i..<(k + 1), .string)
                mode = .cppRawString
                return k + 1
            }
            guard ["L", "u", "U", "u8"].contains(word) else { return nil }
            if q == UInt8(ascii: "'") {
                let e = characterLiteral(s, r, j, end, true)
                if r[j] == .string { Self.fill(r, i..<j, .string) }
                return e
            }
            return stringStart(s, r, j, end, prefixStart: i)
        case .none:
            return nil
        }
    }

    // MARK: The C preprocessor and Rust attributes

    mutating func preprocessorStart(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int) -> Int {
        var j = i + 1
        while j < end && Self.isBlank(s[j]) { j += 1 }
        let wordStart = j
        while j < end && Self.isNameStart(s[j]) { j += 1 }
        Self.fill(r, i..<j, .keyword)
        mode = .preprocessor
        let directive = j - wordStart
        if (directive == 7 && Self.matches(s, wordStart, end, "include"))
            || (directive == 6 && Self.matches(s, wordStart, end, "import")) {
            var k = j
            while k < end && Self.isBlank(s[k]) { k += 1 }
            Self.fill(r, j..<k, .keyword)
            if k < end && (s[k] == UInt8(ascii: "<") || s[k] == UInt8(ascii: "\"")) {
                let close = s[k] == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "\"")
                var e = k + 1
                while e < end && s[e] != close { e += 1 }
                let stop = min(end, e + 1)
                Self.fill(r, k..<stop, .string)
                return stop
            }
            return k
        }
        return j
    }

    mutating func preprocessorBody(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        var j = i
        while j < end {
            if s[j] == UInt8(ascii: "/") && j + 1 < end {
                if s[j + 1] == UInt8(ascii: "/") {
                    Self.fill(r, i..<j, .keyword)
                    Self.fill(r, j..<end, .comment)
                    return end
                }
                if s[j + 1] == UInt8(ascii: "*") {
                    Self.fill(r, i..<j, .keyword)
                    var e = j + 2
                    while e < end && !(s[e] == UInt8(ascii: "*") && e + 1 < end && s[e + 1] == UInt8(ascii: "/")) { e += 1 }
                    let stop = min(end, e + 2)
                    Self.fill(r, j..<stop, .comment)
                    if e >= end, let k = current.blockComments.firstIndex(where: { $0.open == Array("/*".utf8) }) {
                        // The comment continues past the line: the directive ends here.
                        mode = .blockComment(index: k, depth: 1)
                    }
                    return stop
                }
            }
            j += 1
        }
        Self.fill(r, i..<end, .keyword)
        return end
    }

    mutating func attributeBody(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, depth: Int) -> Int {
        var d = depth
        var j = i
        while j < end {
            let b = s[j]
            if b == UInt8(ascii: "\"") {
                // A string inside an attribute.
                Self.fill(r, i..<j, .keyword)
                var e = j + 1
                while e < end && s[e] != UInt8(ascii: "\"") { e += s[e] == UInt8(ascii: "\\") ? 2 : 1 }
                let stop = min(end, e + 1)
                Self.fill(r, j..<stop, .string)
                mode = .attribute(depth: d)
                return stop
            }
            if b == UInt8(ascii: "[") { d += 1 } else if b == UInt8(ascii: "]") {
                d -= 1
                if d == 0 {
                    Self.fill(r, i..<(j + 1), .keyword)
                    mode = .code
                    previous = .start
                    return j + 1
                }
            }
            j += 1
        }
        Self.fill(r, i..<end, .keyword)
        mode = .attribute(depth: d)
        return end
    }
}
