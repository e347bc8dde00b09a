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
    /// Swift: the rest of an `import` line; the rest of a compiler-control line (`#if os(Linux)`).
    var inImport = false
    var inDirective = false
    /// PHP: no byte but blanks has been read yet; the first one decides between a template and
    /// code (`CodeLanguage.phpTags`).
    var awaitsFirstByte = false
    /// No line of the block has ended yet (a hashbang is only on the first).
    var onFirstLine = true

    /// A scanner at the start of a block in `language`.
    public init(language: CodeLanguage) {
        self.language = language
        self.current = language
        awaitsFirstByte = language.phpTags
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
        if awaitsFirstByte, let first = Self.nextNonBlank(s, 0, n) {
            awaitsFirstByte = false
            if s[first] == UInt8(ascii: "<") { mode = .template }
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
        inDirective = false
        onFirstLine = false
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
}
