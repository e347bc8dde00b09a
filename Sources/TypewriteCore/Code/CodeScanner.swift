/// A streaming scanner for code: feed it a block's lines in order, each as it stands (a line
/// still arriving can be scanned again when it grows), and it gives every byte a `CodeRole`.
///
/// One scanner reads every language from the language's table (`CodeLanguage`): its words, the
/// forms of its comments, strings and numbers. State carries from line to line (block comments,
/// multi-line strings, heredocs, interpolations, a preprocessor line's continuation), so a block
/// is read as a whole, whatever its lines' lengths. The rules a table cannot say are written out
/// here, each named by the field of `CodeLanguage` that turns it on: string prefixes, heredocs,
/// template literals and interpolation, raw strings, nested block comments, regular expression
/// literals, the C preprocessor, Rust's attributes, macros and lifetimes, Ruby's symbols and `%`
/// literals, and the dialects that are not a programming language's token stream (markup, CSS,
/// JSON, YAML, TOML, diff, Dockerfile, console sessions).
///
/// A role is decided from what has arrived: on a line that has not ended, the last token's role
/// is a guess made as if it ended there (`def` is a keyword at once; `de` is plain until it grows;
/// a string is a string from its opening quote). Scanning the line again once it has grown gives
/// each earlier byte its role again, and only a token whose role the new bytes changed differs.
///
/// Cost: each byte is looked at a bounded number of times (a word is hashed once, and looking for
/// what follows a name skips only blanks), so a line costs time in proportion to its length;
/// the state is a few words and the stack of open interpolations.
///
/// ```swift
/// var scanner = CodeScanner(language: CodeLanguage.named("python")!)
/// let roles = scanner.roles(ofLine: Array("def greet(name):".utf8), lineIsComplete: true)
/// ```
public struct CodeScanner: Sendable {
    /// The language of the block.
    public let language: CodeLanguage
    /// The language being read: the block's, or one embedded in it (`<script>`, a `RUN` line).
    var current: CodeLanguage

    enum Mode: Equatable, Sendable {
        case code
        case blockComment(index: Int, depth: Int)
        case string(form: Int, interpolation: CodeLanguage.Interpolation)
        /// Python's format specification inside an f-string's braces, to its `}`.
        case formatSpec(form: Int)
        /// A raw string that ends at `"` followed by `hashes` `#` (Rust `r#"…"#`, Swift `#"…"#`).
        case hashString(hashes: Int)
        /// C++ `R"delim(…)delim"`: the closing `)delim"` is in `terminator`.
        case cppRawString
        /// A heredoc's lines, up to the line that is `terminator` (leading tabs or blanks
        /// stripped when `indented`).
        case heredoc(indented: Bool, interpolation: CodeLanguage.Interpolation)
        /// The rest of a C preprocessor line (after `#` and the directive).
        case preprocessor
        /// A Rust attribute, `#[…]`, at bracket depth `depth`.
        case attribute(depth: Int)
        /// A Ruby `%w[…]` literal: its closing and opening bytes and the nesting depth.
        case percentLiteral(open: UInt8, close: UInt8, depth: Int)
        /// A Ruby `=begin` … `=end` comment.
        case embeddedDocument
        /// Everything from here on has one role (Ruby's `__END__` data).
        case rest(CodeRole)
        /// Markup: inside a tag (after its name), in its attributes.
        case markupTag
        /// Markup: a comment `<!-- … -->`, a declaration `<!…>`, a CDATA section, `<?…?>`.
        case markupComment
        case markupDeclaration
        case markupCDATA
        case markupInstruction
        /// Markup: an attribute's quoted value, closed by `quote`.
        case markupValue(quote: UInt8)
        /// Template text before `<?php` (PHP): plain.
        case template
        /// YAML: a block scalar's lines, indented more than `indent`.
        case yamlBlock(indent: Int)
    }

    /// Where an interpolation returns: the mode to resume at its closing byte.
    struct Frame: Sendable, Equatable {
        var resume: Mode
        /// The byte that closes the interpolation at depth 0, its opener, and the role of both.
        var close: UInt8
        var open: UInt8
        var role: CodeRole
        var depth = 0
    }

    /// What the last significant token was, for the rules that look back.
    enum Previous: Equatable, Sendable {
        case start      // a line or statement start, or nothing yet
        case keyword    // a keyword: a value may follow (`return /re/`)
        case name       // a name or a value-like word: an operator may follow (`a / b`)
        case value      // a literal or a closing bracket
        case op         // an operator or an opening bracket: a value may follow
        case dot        // `.`, `->`, `::`: a member name follows
        case colon      // `:` (TypeScript's annotations)
    }

    var mode = Mode.code
    var frames: [Frame] = []
    var previous = Previous.start
    /// The next name is a definition (after `def`, `class`, `fn`…).
    var expectsDefinition = false
    /// Words since the statement started that can make the next name before `(` a function's
    /// declaration (types, modifiers, names), 0 when something else came between.
    var declarationWords = 0
    /// Brace and parenthesis depth of the code read (for the rules of the top level).
    var braces = 0
    var parentheses = 0
    /// A heredoc's or raw string's closing text.
    var terminator: [UInt8] = []
    /// Heredocs announced on the line being read, started when it ends.
    var pendingHeredoc: (terminator: [UInt8], indented: Bool, interpolation: CodeLanguage.Interpolation)?
    /// The string ended with a backslash at the end of its line (a continuation).
    var continued = false
    /// Markup: the tag being read is `<script` or `<style`; its content is embedded code.
    var markupEmbed: CodeLanguage?
    /// Markup: the name of the element whose content is embedded (`script`, `style`).
    var embedEnd: [UInt8] = []
    /// JSON: whether each open bracket is an object (`true`) or an array; CSS: inside a rule.
    var objects: [Bool] = []
    /// CSS: inside a declaration's value (after `:`) rather than at a property name; in an
    /// at-rule's prelude (`@media …`), whose block holds rules.
    var cssValue = false
    var atRule = false
    /// Dockerfile and console: the embedded shell line continues on the next line.
    var embeddedContinues = false
    /// Where the string being read opened on this line (0 when it opened on an earlier line).
    var stringOpened = 0
    /// JSON: whether the next string would be a key (after `{` or `,` in an object).
    var keyExpected = false
    /// Ruby: the last word was `module` (the name after it is a namespace's, plain).
    var namesNamespace = false
    /// The next name is a variable's or a namespace's (after `let`, `val`, `mod`): plain; a
    /// constant's (after PHP's `const`): a builtin.
    var expectsPlainName = false
    var expectsConstant = false
    /// Rust: a type follows (after `:` or `->`).
    var expectsType = false
    /// C and C++: the brace depth at which the body of a function definition opened (nil outside
    /// one), and whether a function's declaration was just read (its body may follow).
    var functionBody: Int?
    var bodyMayFollow = false
    /// C and C++: between `case` and its `:`.
    var inCaseLabel = false
    /// Swift: the rest of an `import` line.
    var inImport = false

    /// A scanner at the start of a block in `language`.
    public init(language: CodeLanguage) {
        self.language = language
        self.current = language
        if language.phpTags { mode = .template }
    }

    /// The roles of one line's bytes (without its line ending).
    ///
    /// - Parameters:
    ///   - line: the line's bytes, as much of it as has arrived.
    ///   - lineIsComplete: true when the line has ended; the scanner then moves on to the next
    ///     line. When false the last token's role is a guess, and the state stays at the line's
    ///     start (scan a copy of the scanner, or the line again once it has grown).
    /// - Returns: one role per byte of `line`.
    public mutating func roles(ofLine line: [UInt8], lineIsComplete: Bool) -> [CodeRole] {
        var roles = [CodeRole](repeating: .plain, count: line.count)
        line.withUnsafeBufferPointer { s in
            roles.withUnsafeMutableBufferPointer { r in
                scanLine(s, into: r, lineIsComplete: lineIsComplete)
            }
        }
        return roles
    }

    /// The roles of a whole block of code (lines joined by `\n`): the newline bytes are plain.
    public static func roles(of code: some Collection<UInt8>, language: CodeLanguage) -> [CodeRole] {
        let bytes = Array(code)
        var scanner = CodeScanner(language: language)
        var out: [CodeRole] = []
        out.reserveCapacity(bytes.count)
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            out.append(contentsOf: scanner.roles(ofLine: Array(bytes[start..<lineEnd]), lineIsComplete: true))
            out.append(contentsOf: repeatElement(.plain, count: end - lineEnd))
            if end < bytes.count { out.append(.plain) }
            start = end + 1
        }
        return out
    }

    /// The role the next byte would take if it continued the text scanned: a string's, a
    /// comment's, or plain (used for bytes not yet scanned).
    var continuationRole: CodeRole {
        switch mode {
        case .blockComment, .embeddedDocument: return .comment
        case .string(let form, _): return current.strings[form].role
        case .formatSpec, .hashString, .cppRawString, .heredoc, .markupValue: return .string
        case .preprocessor, .attribute: return .keyword
        case .percentLiteral: return .string
        case .rest(let role): return role
        case .markupComment: return .comment
        default: return .plain
        }
    }

    /// Scans one line, `s` (without its line ending), writing a role for each byte into `r`
    /// (of the same count).
    mutating func scanLine(_ s: UnsafeBufferPointer<UInt8>, into r: UnsafeMutableBufferPointer<CodeRole>, lineIsComplete complete: Bool) {
        let n = s.count
        switch language.dialect {
        case .diff:
            diffLine(s, r)
            return
        case .console:
            consoleLine(s, r, complete)
            return
        case .dockerfile:
            dockerfileLine(s, r, complete)
            return
        case .yaml:
            yamlLine(s, r, complete)
            return
        case .toml:
            tomlLine(s, r, complete)
            return
        default:
            break
        }
        scan(s, r, from: 0, to: n, complete: complete)
        if complete { endLine(s) }
    }

    /// Interpolations nest at most this deep; deeper openers are read as their string's text
    /// (memory stays bounded on `${`${`${…` without end).
    static let maximumNesting = 64

    /// Opens an interpolation inside a string (code until its closing byte), unless too many are
    /// open already: then the string goes on.
    mutating func enterInterpolation(_ frame: Frame) {
        guard frames.count < Self.maximumNesting else { return }
        frames.append(frame)
        mode = .code
    }

    /// Opens a nested construct in code (`$(`, `${`, a backquote in a shell), unless too many are
    /// open: then it is read as plain text.
    mutating func pushFrame(_ frame: Frame) {
        if frames.count < Self.maximumNesting { frames.append(frame) }
    }

    /// What happens at a line's end: line-bound constructs close, heredocs start.
    mutating func endLine(_ s: UnsafeBufferPointer<UInt8>) {
        switch mode {
        case .string(let form, _):
            if !current.strings[form].multiline && !continued { mode = .code; previous = .value }
        case .formatSpec(let form):
            if !current.strings[form].multiline { mode = .code }
        case .preprocessor:
            var e = s.count
            while e > 0 && (s[e - 1] == 0x20 || s[e - 1] == 0x09) { e -= 1 }
            if !(e > 0 && s[e - 1] == UInt8(ascii: "\\")) { mode = .code; previous = .start; declarationWords = 0 }
        case .code:
            if frames.isEmpty { previous = .start }
            // Interpolations of strings that end with their line end with it.
            while let last = frames.last, case .string(let form, _) = last.resume, !current.strings[form].multiline {
                frames.removeLast()
            }
        default:
            break
        }
        continued = false
        stringOpened = 0
        inImport = false
        if let heredoc = pendingHeredoc, mode == .code {
            terminator = heredoc.terminator
            mode = .heredoc(indented: heredoc.indented, interpolation: heredoc.interpolation)
        }
        pendingHeredoc = nil
        if current.dialect == .generic && current.callDefinitions == .none { declarationWords = 0 }
    }

    // MARK: - Helpers

    @inline(__always) static func isNameStart(_ b: UInt8) -> Bool {
        (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b >= 0x80
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0C }

    @inline(__always) func isNameByte(_ b: UInt8) -> Bool {
        current.nameBytes.contains(b)
    }

    @inline(__always) static func fill(_ r: UnsafeMutableBufferPointer<CodeRole>, _ range: Range<Int>, _ role: CodeRole) {
        var i = range.lowerBound
        while i < range.upperBound { r[i] = role; i += 1 }
    }

    /// Whether `pattern` is at `i` in `s[..<end]`.
    @inline(__always) static func matches(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int, _ pattern: [UInt8]) -> Bool {
        guard i + pattern.count <= end else { return false }
        for k in 0..<pattern.count where s[i + k] != pattern[k] { return false }
        return true
    }

    /// Whether the literal `pattern` is at `i` in `s[..<end]` (no array is made for it).
    @inline(__always) static func matches(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int, _ pattern: StaticString) -> Bool {
        let n = pattern.utf8CodeUnitCount
        guard i + n <= end else { return false }
        let p = pattern.utf8Start
        for k in 0..<n where s[i + k] != p[k] { return false }
        return true
    }

    /// Whether `s[i..<end]` is a proper start of `pattern` (the rest may still arrive).
    @inline(__always) static func startsPattern(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int, _ pattern: [UInt8]) -> Bool {
        guard end - i < pattern.count else { return false }
        for k in 0..<(end - i) where s[i + k] != pattern[k] { return false }
        return true
    }

    static func matchesIgnoringCase(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int, _ pattern: String) -> Bool {
        let p = Array(pattern.utf8)
        guard i + p.count <= end else { return false }
        for k in 0..<p.count {
            let b = s[i + k]
            let folded = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            if folded != p[k] { return false }
        }
        return true
    }

    /// The first byte at or after `i` that is not blank, or nil at the end.
    @inline(__always) static func nextNonBlank(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        var j = i
        while j < end && isBlank(s[j]) { j += 1 }
        return j < end ? j : nil
    }

    /// Whether only blanks precede `i` on the line.
    @inline(__always) static func atLineStart(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var j = i - 1
        while j >= 0 { if !isBlank(s[j]) { return false }; j -= 1 }
        return true
    }

    // MARK: - The scanning loop

    /// Scans `s[from..<end]` in the current mode; `complete`: `end` is the line's end and the line
    /// has ended.
    mutating func scan(_ s: UnsafeBufferPointer<UInt8>, _ r: UnsafeMutableBufferPointer<CodeRole>, from: Int, to end: Int, complete: Bool) {
        var i = from
        while i < end {
            switch mode {
            case .code:
                i = codeToken(s, r, i, end, complete)
            case .blockComment(let index, let depth):
                i = blockComment(s, r, i, end, index: index, depth: depth)
            case .string(let form, let interpolation):
                i = stringBody(s, r, i, end, complete, form: form, interpolation: interpolation)
            case .formatSpec(let form):
                var j = i
                while j < end && s[j] != UInt8(ascii: "}") { j += 1 }
                if j < end {
                    Self.fill(r, i..<(j + 1), .string)
                    mode = .string(form: form, interpolation: .brace)
                    i = j + 1
                } else {
                    Self.fill(r, i..<end, .string)
                    i = end
                }
            case .hashString(let hashes):
                i = hashStringBody(s, r, i, end, hashes: hashes)
            case .cppRawString:
                var j = i
                while j < end && !Self.matches(s, j, end, terminator) { j += 1 }
                if j < end {
                    Self.fill(r, i..<(j + terminator.count), .string)
                    i = j + terminator.count
                    mode = .code
                    previous = .value
                } else {
                    Self.fill(r, i..<end, .string)
                    i = end
                }
            case .heredoc(let indented, _):
                // A whole line: the terminator line ends it (and is part of it).
                var a = i
                if indented { while a < end && Self.isBlank(s[a]) { a += 1 } }
                var e = end
                while e > a && s[e - 1] == 0x0D { e -= 1 }
                Self.fill(r, i..<end, .string)
                if complete && e - a == terminator.count && Self.matches(s, a, e, terminator) {
                    mode = .code
                    previous = .start
                }
                i = end
            case .preprocessor:
                i = preprocessorBody(s, r, i, end, complete)
            case .attribute(let depth):
                i = attributeBody(s, r, i, end, depth: depth)
            case .percentLiteral(let open, let close, let depth):
                var d = depth
                var j = i
                while j < end {
                    let b = s[j]
                    if b == UInt8(ascii: "\\") { j += 2; continue }
                    if b == open && open != close { d += 1 } else if b == close {
                        if d == 0 { break }
                        d -= 1
                    }
                    j += 1
                }
                if j < end {
                    Self.fill(r, i..<(j + 1), .string)
                    mode = .code
                    previous = .value
                    i = j + 1
                } else {
                    Self.fill(r, i..<end, .string)
                    mode = .percentLiteral(open: open, close: close, depth: d)
                    i = end
                }
            case .embeddedDocument:
                Self.fill(r, i..<end, .comment)
                if complete && i == 0 && Self.matches(s, 0, end, "=end") && (end == 4 || Self.isBlank(s[4])) {
                    mode = .code
                }
                i = end
            case .rest(let role):
                Self.fill(r, i..<end, role)
                i = end
            case .template:
                i = templateText(s, r, i, end)
            case .markupTag, .markupComment, .markupDeclaration, .markupCDATA, .markupInstruction, .markupValue:
                i = markupToken(s, r, i, end, complete)
            case .yamlBlock:
                Self.fill(r, i..<end, .builtin)
                i = end
            }
        }
    }

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
                previous = .dot
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
        if role == .plain && current.typeAnnotations && previous == .colon {
            // TypeScript: a (dotted) name after `:` is read as a type annotation.
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
