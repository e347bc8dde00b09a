// The code scanner's dialects that are not a programming language's token stream: markup and
// the code it embeds, CSS, and the line-based ones (diff, console sessions, Dockerfiles, YAML,
// TOML). See CodeScanner.swift.

extension CodeScanner {
    // MARK: - Markup

    /// Markup text outside tags: plain, up to a tag, a comment or an entity.
    mutating func markupText(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        let b = s[i]
        if b == UInt8(ascii: "<") {
            if Self.matches(s, i, end, "<!--") {
                Self.fill(r, i..<(i + 4), .comment)
                mode = .markupComment
                return i + 4
            }
            if Self.matches(s, i, end, "<![CDATA[") {
                Self.fill(r, i..<(i + 9), .keyword)
                mode = .markupCDATA
                return i + 9
            }
            if i + 1 < end && s[i + 1] == UInt8(ascii: "!") {
                Self.fill(r, i..<(i + 2), .keyword)
                mode = .markupDeclaration
                return i + 2
            }
            if i + 1 < end && s[i + 1] == UInt8(ascii: "?") {
                Self.fill(r, i..<(i + 2), .keyword)
                mode = .markupInstruction
                return i + 2
            }
            var j = i + 1
            if j < end && s[j] == UInt8(ascii: "/") { j += 1 }
            let nameStart = j
            while j < end && (Self.isNameStart(s[j]) || Self.isDigit(s[j]) || s[j] == UInt8(ascii: "-") || s[j] == UInt8(ascii: ":") || s[j] == UInt8(ascii: ".")) { j += 1 }
            if j > nameStart || (j == end && !complete) {
                Self.fill(r, i..<j, .tag)
                if nameStart == i + 1 {
                    if Self.matchesIgnoringCase(s, nameStart, j, "script") && j - nameStart == 6, let js = language.embedded.first(where: { $0.name == "javascript" }) {
                        markupEmbed = js
                        embedEnd = Array("script".utf8)
                    } else if Self.matchesIgnoringCase(s, nameStart, j, "style") && j - nameStart == 5, let css = language.embedded.first(where: { $0.name == "css" }) {
                        markupEmbed = css
                        embedEnd = Array("style".utf8)
                    } else {
                        markupEmbed = nil
                    }
                } else {
                    markupEmbed = nil
                }
                mode = .markupTag
                return j
            }
        }
        // Text up to the next `<`.
        var j = i + 1
        while j < end && s[j] != UInt8(ascii: "<") { j += 1 }
        Self.fill(r, i..<j, .plain)
        return j
    }

    mutating func markupToken(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        switch mode {
        case .markupComment:
            var j = i
            while j < end && !Self.matches(s, j, end, "-->") { j += 1 }
            if j < end {
                Self.fill(r, i..<(j + 3), .comment)
                mode = .code
                return j + 3
            }
            Self.fill(r, i..<end, .comment)
            return end
        case .markupCDATA:
            var j = i
            while j < end && !Self.matches(s, j, end, "]]>") { j += 1 }
            if j < end {
                Self.fill(r, i..<j, .plain)
                Self.fill(r, j..<(j + 3), .keyword)
                mode = .code
                return j + 3
            }
            Self.fill(r, i..<end, .plain)
            return end
        case .markupDeclaration, .markupInstruction:
            let close: [UInt8] = mode == .markupInstruction ? Array("?>".utf8) : [UInt8(ascii: ">")]
            var j = i
            while j < end && !Self.matches(s, j, end, close) { j += 1 }
            if j < end {
                Self.fill(r, i..<(j + close.count), .keyword)
                mode = .code
                return j + close.count
            }
            Self.fill(r, i..<end, .keyword)
            return end
        case .markupValue(let quote):
            var j = i
            while j < end && s[j] != quote { j += 1 }
            if j < end {
                Self.fill(r, i..<(j + 1), .string)
                mode = .markupTag
                return j + 1
            }
            Self.fill(r, i..<end, .string)
            return end
        default:
            break
        }
        // In a tag: attributes, values, the end.
        let b = s[i]
        if Self.isBlank(b) {
            r[i] = .plain
            return i + 1
        }
        if b == UInt8(ascii: ">") || (b == UInt8(ascii: "/") && i + 1 < end && s[i + 1] == UInt8(ascii: ">")) {
            let n = b == UInt8(ascii: ">") ? 1 : 2
            Self.fill(r, i..<(i + n), .tag)
            if let embed = markupEmbed, n == 1 {
                // The element's content is code of its own, to `</script>` or `</style>`.
                current = embed
                mode = .code
                previous = .start
                frames = []
            } else {
                mode = .code
            }
            markupEmbed = nil
            return i + n
        }
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
            r[i] = .string
            mode = .markupValue(quote: b)
            return i + 1
        }
        if b == UInt8(ascii: "=") {
            r[i] = .plain
            return i + 1
        }
        var j = i + 1
        while j < end && !Self.isBlank(s[j]) && s[j] != UInt8(ascii: "=") && s[j] != UInt8(ascii: ">") && s[j] != UInt8(ascii: "/") && s[j] != UInt8(ascii: "\"") && s[j] != UInt8(ascii: "'") { j += 1 }
        // An unquoted value after `=` is a string, a name an attribute.
        var k = i - 1
        while k >= 0 && Self.isBlank(s[k]) { k -= 1 }
        let isValue = k >= 0 && s[k] == UInt8(ascii: "=")
        Self.fill(r, i..<max(j, i + 1), isValue ? .string : .attribute)
        return max(j, i + 1)
    }

    /// Code embedded in markup (`<script>`, `<style>`) ends at its closing tag.
    mutating func leaveEmbedded(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Bool {
        guard current.name != language.name, language.dialect == .markup, s[i] == UInt8(ascii: "<"), i + 1 < end, s[i + 1] == UInt8(ascii: "/") else { return false }
        guard Self.matchesIgnoringCase(s, i + 2, end, String(decoding: embedEnd, as: UTF8.self)) else { return false }
        current = language
        mode = .code
        frames = []
        return true
    }

    /// PHP: text before `<?php`.
    mutating func templateText(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int) -> Int {
        var j = i
        while j < end {
            if s[j] == UInt8(ascii: "<") && j + 1 < end && s[j + 1] == UInt8(ascii: "?") {
                Self.fill(r, i..<j, .plain)
                var k = j + 2
                // (`<?=` is the tag and an operator: the `=` is plain.)
                if Self.matchesIgnoringCase(s, k, end, "php") { k += 3 }
                Self.fill(r, j..<k, .keyword)
                mode = .code
                previous = .start
                return k
            }
            j += 1
        }
        Self.fill(r, i..<end, .plain)
        return end
    }

    // MARK: - CSS

    /// CSS: outside a rule's braces a selector (names are tags, `.`, `#`, `:` plain; `@media` a
    /// keyword); inside, a property name (a keyword when CSS defines it) and after `:` its value
    /// (constants, numbers with their units as one number, colours, functions, strings, `!important`).
    mutating func cssToken(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ i: Int, _ end: Int, _ complete: Bool) -> Int {
        let b = s[i]
        if Self.matches(s, i, end, "/*") {
            mode = .blockComment(index: 0, depth: 1)
            Self.fill(r, i..<(i + 2), .comment)
            return i + 2
        }
        if !complete && i + 1 == end && b == UInt8(ascii: "/") {
            r[i] = .comment
            return end
        }
        if let j = stringStart(s, r, i, end, prefixStart: i) { return j }
        let inRule = objects.last == true
        switch b {
        case UInt8(ascii: "{"):
            objects.append(!atRule)
            atRule = false
            cssValue = false
            r[i] = .plain
            return i + 1
        case UInt8(ascii: "}"):
            if !objects.isEmpty { objects.removeLast() }
            cssValue = false
            r[i] = .plain
            return i + 1
        case UInt8(ascii: ";"):
            cssValue = false
            atRule = false
            r[i] = .plain
            return i + 1
        default:
            break
        }
        var nameEnd = i
        while nameEnd < end && isNameByte(s[nameEnd]) { nameEnd += 1 }
        if inRule && !cssValue {
            if b == UInt8(ascii: "@") {
                // An at-rule inside a rule (`@apply …`): a directive at a line's very start,
                // else words CSS does not define, plain.
                if i == 0 {
                    Self.fill(r, i..<end, .keyword)
                    return end
                }
                var j = i
                while j < end && s[j] != UInt8(ascii: ";") && s[j] != UInt8(ascii: "}") { j += 1 }
                Self.fill(r, i..<j, .plain)
                return j
            }
            // A vendor prefix, then a property name up to `:`.
            var k = i
            if b == UInt8(ascii: "-"), let p = vendorPrefix(s, i, end) {
                Self.fill(r, i..<p, .keyword)
                k = p
                nameEnd = k
                while nameEnd < end && isNameByte(s[nameEnd]) { nameEnd += 1 }
            }
            if nameEnd > k {
                var c = nameEnd
                while c < end && Self.isBlank(s[c]) { c += 1 }
                let known = current.words.lookup(s, k..<nameEnd) != nil && s[k] != UInt8(ascii: "-")
                if c < end && s[c] == UInt8(ascii: ":") {
                    Self.fill(r, k..<nameEnd, known ? .keyword : .plain)
                    Self.fill(r, nameEnd..<(c + 1), .plain)
                    cssValue = true
                    return c + 1
                }
                // Before its `:` arrives, a name in a rule is taken for a property.
                Self.fill(r, k..<nameEnd, c == end && !complete ? .keyword : .plain)
                return nameEnd
            }
            r[i] = .plain
            return i + 1
        }
        if inRule {
            // A value.
            if b == UInt8(ascii: "!") {
                var j = i + 1
                while j < end && Self.isBlank(s[j]) { j += 1 }
                if Self.matchesIgnoringCase(s, j, end, "important") {
                    Self.fill(r, i..<(j + 9), .keyword)
                    return j + 9
                }
            }
            if b == UInt8(ascii: "#") {
                var j = i + 1
                while j < end && j - i <= 6 && (Self.isDigit(s[j]) || (s[j] | 0x20 >= 0x61 && s[j] | 0x20 <= 0x7A)) { j += 1 }
                if j > i + 1 {
                    Self.fill(r, i..<j, .number)
                    return j
                }
            }
            if Self.isDigit(b) || ((b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")) && i + 1 < end
                                   && (Self.isDigit(s[i + 1]) || (s[i + 1] == UInt8(ascii: ".") && i + 2 < end && Self.isDigit(s[i + 2])))) {
                var j = i + 1
                while j < end && (Self.isDigit(s[j]) || s[j] == UInt8(ascii: ".")) { j += 1 }
                Self.fill(r, i..<j, .number)
                var k = j
                if k < end && s[k] == UInt8(ascii: "%") { k += 1 } else {
                    while k < end && Self.isNameStart(s[k]) && s[k] < 0x80 { k += 1 }
                    if !Self.cssUnits.contains(String(decoding: UnsafeBufferPointer(rebasing: s[j..<k]), as: UTF8.self).lowercased()) { k = j }
                }
                Self.fill(r, j..<k, .number)
                return k
            }
            if b == UInt8(ascii: "-"), let p = vendorPrefix(s, i, end) {
                Self.fill(r, i..<p, .builtin)
                return p
            }
            if nameEnd > i && (Self.isNameStart(b) || b == UInt8(ascii: "-")) {
                if nameEnd < end && s[nameEnd] == UInt8(ascii: "(") {
                    let builtin = current.macroNames?.lookup(s, i..<nameEnd) != nil
                    Self.fill(r, i..<nameEnd, builtin ? .builtin : (b == UInt8(ascii: "-") ? .plain : .definition))
                    return nameEnd
                }
                let role = b == UInt8(ascii: "-") ? .plain : (current.words.lookup(s, i..<nameEnd)?.role ?? .plain)
                Self.fill(r, i..<nameEnd, role)
                return nameEnd
            }
            r[i] = .plain
            return i + 1
        }
        // A selector, or an at-rule's prelude.
        if b == UInt8(ascii: "@") && nameEnd == i && i + 1 < end {
            var j = i + 1
            while j < end && isNameByte(s[j]) { j += 1 }
            r[i] = .plain
            Self.fill(r, (i + 1)..<j, .keyword)
            atRule = true
            return j
        }
        if nameEnd > i {
            Self.fill(r, i..<nameEnd, .tag)
            return nameEnd
        }
        r[i] = .plain
        return i + 1
    }

    /// CSS's units (CSS Values and Units Level 4).
    static let cssUnits: Set<String> = [
        "px", "em", "rem", "ex", "ch", "vw", "vh", "vmin", "vmax", "cm", "mm", "q", "in", "pt", "pc", "deg", "grad", "rad",
        "turn", "s", "ms", "hz", "khz", "dpi", "dpcm", "dppx", "fr", "x", "lh", "rlh", "vb", "vi", "svh", "lvh", "dvh",
    ]

    /// The end of a vendor prefix (`-webkit-`, `-moz-`, `-ms-`, `-o-`) at `i`, if there is one.
    func vendorPrefix(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        for p in ["-webkit-", "-moz-", "-ms-", "-o-"] where Self.matches(s, i, end, Array(p.utf8)) { return i + p.utf8.count }
        return nil
    }

    // MARK: - Line-based dialects

    /// A unified diff's line: its first byte decides.
    mutating func diffLine(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>) {
        let n = s.count
        guard n > 0 else { return }
        let role: CodeRole
        switch s[0] {
        case UInt8(ascii: "+"): role = Self.matches(s, 0, n, "+++ ") ? .heading : .inserted
        case UInt8(ascii: "-"): role = Self.matches(s, 0, n, "--- ") ? .heading : .deleted
        case UInt8(ascii: "@"): role = .heading
        case UInt8(ascii: " "): role = .unchanged
        case UInt8(ascii: "!"): role = .deleted
        case UInt8(ascii: ">"): role = .inserted
        case UInt8(ascii: "<"): role = .deleted
        default:
            role = Self.matches(s, 0, n, "diff ") || Self.matches(s, 0, n, "index ")
                || Self.matches(s, 0, n, "***") ? .heading : .unchanged
        }
        Self.fill(r, 0..<n, role)
    }

    /// A console session's line: a prompt and a shell command, or output. A command whose line
    /// ends in `\` (or inside an open quote) continues on the next line.
    mutating func consoleLine(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ complete: Bool) {
        let n = s.count
        guard let shell = language.embedded.first else { return }
        var start = 0
        if !embeddedContinues {
            var k = 0
            // An optional `[user@host dir]` or `user@host:dir` before the prompt character.
            if k < n && s[k] == UInt8(ascii: "[") {
                while k < n && s[k] != UInt8(ascii: "]") { k += 1 }
                k += 1
            } else {
                var j = 0
                while j < n && !Self.isBlank(s[j]) && s[j] != UInt8(ascii: "$") && s[j] != UInt8(ascii: "#") && s[j] != UInt8(ascii: "%") && s[j] != UInt8(ascii: ">") { j += 1 }
                if j < n && j > 0 && s[j] != UInt8(ascii: ">") && (0..<j).contains(where: { s[$0] == UInt8(ascii: "@") || s[$0] == UInt8(ascii: ":") }) { k = j }
            }
            if k < n && (s[k] == UInt8(ascii: "$") || s[k] == UInt8(ascii: "#") || s[k] == UInt8(ascii: "%") || s[k] == UInt8(ascii: ">"))
                && (k + 1 == n || Self.isBlank(s[k + 1])) {
                k += 1
                if k < n { k += 1 }
                Self.fill(r, 0..<k, .prompt)
                start = k
                current = shell
                mode = .code
                frames = []
                previous = .start
            } else {
                Self.fill(r, 0..<n, .output)
                return
            }
        }
        scan(s, r, from: start, to: n, complete: complete)
        if complete {
            endLine(s)
            var e = n
            while e > start && Self.isBlank(s[e - 1]) { e -= 1 }
            embeddedContinues = (e > start && s[e - 1] == UInt8(ascii: "\\")) || mode != .code || !frames.isEmpty
        }
    }

    /// A Dockerfile's line: an instruction and its arguments, a comment, or a continuation.
    /// Instructions that take one argument (`FROM`, `WORKDIR`, `USER`, `EXPOSE`…) take a string;
    /// the others shell words (`RUN`, `ENV`, `COPY`…), read with the shell's rules up to the end
    /// of their last continued line (a line that ends in `\`); a comment inside them must be
    /// followed by a continued line, and a quote closes within them or is not one.
    mutating func dockerfileLine(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ complete: Bool) {
        let n = s.count
        var start = 0
        var e = n
        while e > 0 && Self.isBlank(s[e - 1]) { e -= 1 }
        let continues = !complete || (e > 0 && s[e - 1] == UInt8(ascii: "\\"))
        if !embeddedContinues {
            if n > 0 && s[0] == UInt8(ascii: "#") {
                Self.fill(r, 0..<n, .comment)
                return
            }
            var k = 0
            while k < n && Self.isBlank(s[k]) { k += 1 }
            var j = k
            while j < n && Self.isNameStart(s[j]) { j += 1 }
            current = language.embedded.first ?? language
            mode = .code
            frames = []
            previous = .start
            if j > k, let info = language.words.lookup(s, k..<j), j == n || Self.isBlank(s[j]) {
                Self.fill(r, k..<j, info.role)
                start = j
                var a = j
                while a < n && Self.isBlank(s[a]) { a += 1 }
                if info.definer && !(a < n && s[a] == UInt8(ascii: "[")) {
                    // FROM, WORKDIR, USER, EXPOSE…: one argument, a string (`AS` a keyword).
                    while a < n {
                        if Self.isBlank(s[a]) { r[a] = .plain; a += 1; continue }
                        var b = a
                        while b < n && !Self.isBlank(s[b]) { b += 1 }
                        let isAs = b - a == 2 && Self.matchesIgnoringCase(s, a, b, "as")
                        Self.fill(r, a..<b, isAs ? .keyword : .string)
                        a = b
                    }
                    return
                }
            } else if j == n && !complete && j > k {
                Self.fill(r, k..<j, .keyword)
                return
            }
        }
        embeddedContinues = continues
        let opened = mode == .code
        scan(s, r, from: start, to: n, complete: complete)
        if complete {
            if !continues, case .string = mode, opened {
                // A quote that does not close before the command ends is not one.
                Self.fill(r, min(stringOpened, n)..<n, .plain)
            }
            endLine(s)
            if !continues {
                mode = .code
                frames = []
            }
        }
    }

    /// A YAML line: `key: value`, `- item`, a comment, a quoted or plain scalar, a block scalar's
    /// line.
    mutating func yamlLine(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ complete: Bool) {
        let n = s.count
        var k = 0
        while k < n && s[k] == 0x20 { k += 1 }
        if case .yamlBlock(let indent) = mode {
            if k >= n || k > indent {
                Self.fill(r, 0..<n, .builtin)
                return
            }
            mode = .code
        }
        if case .string = mode {
            scan(s, r, from: 0, to: n, complete: complete)
            if case .string = mode { return }
            k = n
            for i in 0..<n where r[i] != .string { k = i; break }
            if k >= n { return }
            return yamlRest(s, r, k, n, complete, indent: 0)
        }
        yamlRest(s, r, k, n, complete, indent: k)
    }

    mutating func yamlRest(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ from: Int, _ n: Int, _ complete: Bool, indent: Int) {
        var i = from
        var keyDone = false
        // Flow collections open on this line (`{a: 1, b: '2'}`, `[x, y]`): there a plain scalar
        // ends at `,`, `]` or `}`, and a key may follow each `,`.
        var flow = 0
        while i < n {
            let b = s[i]
            if Self.isBlank(b) { r[i] = .plain; i += 1; continue }
            if b == UInt8(ascii: "#") && (i == 0 || Self.isBlank(s[i - 1])) {
                Self.fill(r, i..<n, .comment)
                return
            }
            if b == UInt8(ascii: "-") && (i + 1 == n || s[i + 1] == 0x20) {
                r[i] = .plain
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                if let j = stringStart(s, r, i, n, prefixStart: i) {
                    i = j
                    scan(s, r, from: i, to: n, complete: complete)
                    if case .string = mode { return }
                    // A quoted key.
                    var e = n
                    for q in j..<n where r[q] != .string { e = q; break }
                    if e < n && s[e] == UInt8(ascii: ":") { for q in i..<e where r[q] == .string { r[q] = .key } }
                    i = e
                    continue
                }
            }
            if b == UInt8(ascii: "|") || b == UInt8(ascii: ">") {
                var j = i + 1
                while j < n && !Self.isBlank(s[j]) && s[j] != UInt8(ascii: "#") { j += 1 }
                Self.fill(r, i..<j, .plain)
                if complete { mode = .yamlBlock(indent: indent) }
                i = j
                continue
            }
            if b == UInt8(ascii: "!") {
                var j = i + 1
                while j < n && !Self.isBlank(s[j]) { j += 1 }
                Self.fill(r, i..<j, .keyword)
                i = j
                continue
            }
            if (b == UInt8(ascii: "&") || b == UInt8(ascii: "*")) && i + 1 < n && !Self.isBlank(s[i + 1]) {
                var j = i + 1
                while j < n && !Self.isBlank(s[j]) { j += 1 }
                Self.fill(r, i..<j, .plain)
                i = j
                continue
            }
            if "{}[],".utf8.contains(b) {
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { flow += 1 } else if b != UInt8(ascii: ",") { flow = max(0, flow - 1) }
                if flow > 0 && (b == UInt8(ascii: ",") || b == UInt8(ascii: "{")) { keyDone = false }
                r[i] = .plain
                i += 1
                continue
            }
            // A plain scalar, or a key up to `: `.
            var j = i
            var keyEnd: Int?
            while j < n {
                if !keyDone && s[j] == UInt8(ascii: ":") && (j + 1 == n || Self.isBlank(s[j + 1])) { keyEnd = j; break }
                if s[j] == UInt8(ascii: "#") && Self.isBlank(s[j - 1]) { break }
                if flow > 0 && (s[j] == UInt8(ascii: ",") || s[j] == UInt8(ascii: "]") || s[j] == UInt8(ascii: "}")) { break }
                j += 1
            }
            if let e = keyEnd {
                Self.fill(r, i..<e, .key)
                r[e] = .plain
                keyDone = true
                i = e + 1
                continue
            }
            var e = j
            while e > i && Self.isBlank(s[e - 1]) { e -= 1 }
            // Before `: ` arrives, a word at a line's start is a key.
            Self.fill(r, i..<e, !complete && j == n && !keyDone && i == indent ? .key : .plain)
            i = j
        }
    }

    /// A TOML line: a `[table]` header, `key = value`, a comment, or the rest of a multi-line value.
    mutating func tomlLine(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, _ complete: Bool) {
        let n = s.count
        var i = 0
        if mode != .code {
            scan(s, r, from: 0, to: n, complete: complete)
            if complete { endLine(s) }
            return
        }
        while i < n && Self.isBlank(s[i]) { i += 1 }
        guard i < n else { return }
        if s[i] == UInt8(ascii: "[") && objects.isEmpty {
            var j = i
            while j < n && s[j] != UInt8(ascii: "#") { j += 1 }
            var e = j
            while e > i && Self.isBlank(s[e - 1]) { e -= 1 }
            Self.fill(r, i..<e, .keyword)
            // A quoted key in the header is a string.
            var q = i
            while q < e {
                let c = s[q]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    var k = q + 1
                    while k < e && s[k] != c { k += c == UInt8(ascii: "\"") && s[k] == UInt8(ascii: "\\") ? 2 : 1 }
                    let stop = min(e, k + 1)
                    Self.fill(r, q..<stop, .string)
                    q = stop
                } else {
                    q += 1
                }
            }
            Self.fill(r, j..<n, .comment)
            return
        }
        // Keys up to `=` are plain; the value is scanned as code.
        if objects.isEmpty {
            var j = i
            while j < n && s[j] != UInt8(ascii: "=") && s[j] != UInt8(ascii: "#") {
                if s[j] == UInt8(ascii: "\"") || s[j] == UInt8(ascii: "'") { break }
                j += 1
            }
            if j < n && s[j] == UInt8(ascii: "=") {
                Self.fill(r, i..<(j + 1), .plain)
                i = j + 1
            } else if j == n && !complete {
                Self.fill(r, i..<n, .plain)
                return
            }
        }
        scan(s, r, from: i, to: n, complete: complete)
        // Inline tables and arrays may span lines.
        for k in i..<n where r[k] == .plain {
            if s[k] == UInt8(ascii: "[") || s[k] == UInt8(ascii: "{") { objects.append(true) } else if (s[k] == UInt8(ascii: "]") || s[k] == UInt8(ascii: "}")) && !objects.isEmpty { objects.removeLast() }
        }
        if !complete { return }
        endLine(s)
    }
}
