/// A language the code scanner knows: a table of its words and the forms of its comments,
/// strings and numbers (`CodeLanguages.swift` holds one per language). One scanner reads every
/// language from its table; the few forms a table cannot say have rules of their own in
/// `CodeScanner`, each named by a field here. A value: a scanner keeps the language it reads in
/// itself, so reading its tables costs no reference counting.
public struct CodeLanguage: Sendable, CustomStringConvertible, Equatable {
    /// How the scanner reads the language: from its table alone (`generic`), or with the rules of a
    /// kind of text that is not a programming language's token stream.
    enum Dialect: Sendable {
        /// Words, comments, strings, numbers and punctuation, from the table.
        case generic
        /// A Unix shell: words are runs of anything but blanks and operators (`apt-get`,
        /// `./run.sh`), `#` starts a comment only at a word's start, a word of digits is a number,
        /// `$x`, `${…}` and `$(…)` are expansions, `<<EOF` starts a heredoc (POSIX.1-2017, XCU 2).
        case shell
        /// HTML or XML: tags, attributes and their values, comments, `<!DOCTYPE>` and `<?xml ?>`;
        /// the content of `<script>` and `<style>` is JavaScript and CSS (HTML Living Standard, 13.2).
        case markup
        /// CSS: selectors outside braces; inside, property names, values, units and `!important`
        /// (CSS Syntax Level 3).
        case css
        /// JSON: a string followed by `:` is a key (RFC 8259).
        case json
        /// YAML: `key:` mappings, `- ` items, quoted and block scalars, anchors and tags (YAML 1.2).
        case yaml
        /// TOML: `[table]` headers, `key = value`, its four kinds of string (TOML 1.0).
        case toml
        /// A unified diff: each line's first character says what it is (POSIX.1-2017, `diff -u`).
        case diff
        /// A Dockerfile: an instruction starts a line; `RUN`, `CMD` and `ENTRYPOINT` take shell
        /// commands (Dockerfile reference).
        case dockerfile
        /// A console session: a line that starts with a prompt (`$ `, `# `, `% `, `> `) is a shell
        /// command, the other lines are its output.
        case console
    }

    /// How an identifier may be joined to a quote to make one string (`f"…"`, `r#"…"#`, `u8"…"`).
    enum StringPrefixes: Sendable {
        case none
        /// Python's `r`, `b`, `u`, `f` and their pairs; `f` interpolates `{…}`, `r` keeps backslashes.
        case python
        /// Rust's `b"…"`, `r"…"`, `r#"…"#`, `br"…"`, `b'x'`.
        case rust
        /// C and C++: `L`, `u`, `U`, `u8`, and raw strings `R"delim(…)delim"`.
        case cpp
    }

    /// Whether a name that is followed by `(` declares a function when it follows a type: C and
    /// C++ outside function bodies (ISO C 6.9.1; a class body's member functions too), Java
    /// anywhere (a method declaration, JLS 8.4).
    enum CallDefinitions: Sendable { case none, topLevel, anywhere }

    /// What a word right after `.` is: whatever it is elsewhere, or plain.
    enum AfterDot: Sendable {
        case sameRole
        /// Builtins lose their role (`x.print`); keywords and definitions keep theirs
        /// (`super().__init__`).
        case keywordsOnly
        /// Every word is a plain name (`x.this`, `x.class`).
        case plain
    }

    /// The interpolation a string form allows.
    enum Interpolation: UInt8, Sendable {
        case none
        /// `${expr}` (JavaScript template literals, Kotlin `"…${x}"`, also `$name` in Kotlin).
        case dollarBrace
        /// `{expr}` with `{{` as a literal brace (Python f-strings).
        case brace
        /// `\(expr)` (Swift).
        case backslashParen
        /// `#{expr}` (Ruby).
        case hashBrace
        /// `$name`, `${…}`, `$(…)` and backquotes (shell double quotes).
        case shell
        /// `$name`, `{$expr}` (PHP double quotes and heredocs).
        case php
    }

    /// A kind of string literal: its delimiters and what may happen inside.
    struct StringForm: Sendable {
        var open: [UInt8]
        var close: [UInt8]
        /// A backslash escapes the next byte.
        var escapes = true
        /// The string may continue on the next line (else it ends with its line).
        var multiline = false
        var interpolation = Interpolation.none
        /// The role of the whole literal (JSON and YAML keys are strings until proven keys).
        var role = CodeRole.string
        /// A doubled closing delimiter is part of the string (`'it''s'` in SQL).
        var doubledCloseEscapes = false
    }

    public let name: String
    let dialect: Dialect
    let words: CodeWordTable
    /// Openers of comments that run to the end of the line, longest first.
    let lineComments: [[UInt8]]
    /// Block comments (open, close), and whether they nest (Rust, Swift, Kotlin).
    let blockComments: [(open: [UInt8], close: [UInt8])]
    let commentsNest: Bool
    /// String forms, longer openers first.
    let strings: [StringForm]
    let stringPrefixes: StringPrefixes
    /// `$` may be part of an identifier (JavaScript, Java).
    let dollarInNames: Bool
    /// `-` may be part of a name (CSS properties and selectors).
    let dashInNames: Bool
    /// A name may end in `?` or `!` (Ruby methods).
    let bangInNames: Bool
    /// `@name` is a decorator or annotation (a definition); `dotted`: `@a.b.c` all of it.
    let decorators: Bool
    let dottedDecorators: Bool
    let callDefinitions: CallDefinitions
    /// `/…/flags` is a regular expression where a value may start (ECMA-262 12.9.5).
    let regexLiterals: Bool
    /// `#` at a line's start begins a preprocessor line (ISO C 6.10), all of it a keyword
    /// (except its comments and an `#include`'s file, a string); `\` at the end continues it.
    let preprocessor: Bool
    /// `$name` is a variable (PHP).
    let dollarVariables: Bool
    /// `name!` is a macro (Rust): a definition.
    let macros: Bool
    /// `#[…]` and `#![…]` are attributes (Rust): keywords.
    let hashAttributes: Bool
    /// `'x'` is a character literal (a string); with lifetimes, `'a` without a closing quote is
    /// a label (Rust).
    let characterLiterals: Bool
    let lifetimes: Bool
    /// A name after `: ` is a type (TypeScript's annotations): a keyword.
    let typeAnnotations: Bool
    let afterDot: AfterDot
    /// `:name` is a symbol, `name:` a hash key (Ruby): strings.
    let symbols: Bool
    /// `%w[…]`, `=begin…=end`, `__END__` and other Ruby forms.
    let ruby: Bool
    /// PHP's tags: a block whose first byte (after blanks) is `<` is a template, whose text is
    /// plain up to `<?php` (and again after `?>`); any other block is code from its first line,
    /// as a snippet without `<?php` is read (Pygments' `startinline`, editors).
    let phpTags: Bool
    /// The names that are macros when followed by `!` (Rust's standard macros): definitions.
    let macroNames: CodeWordTable?
    /// A name after `:` or `->` (not `::`) is a type (Rust): a definition unless a builtin or
    /// keyword type; a `&` before it is a keyword.
    let typeAfterColon: Bool
    /// `-` right before a digit belongs to the number (C and C++: `return -1`).
    let signedNumbers: Bool
    /// `->` reaches a member (C, C++, PHP): the name after it is read as after `.`. Elsewhere
    /// `->` comes before a value or a type (Python's, Swift's and Rust's return annotations,
    /// lambdas), read by the language's words.
    let arrowMembers: Bool
    /// `#!` at the very start of a block is a comment to its line's end (JavaScript's and
    /// TypeScript's hashbang, ECMA-262 "Hashbang Comments"; elsewhere `#` starts a private name).
    let hashbang: Bool
    /// `case NAME:` names a constant (C and C++): a builtin.
    let caseConstants: Bool
    /// The names after `import` on its line are definitions (Swift's module names).
    let importDefinitions: Bool
    /// `fun Receiver.name` and `fun <T> name` (Kotlin): the definition is the name after them.
    let receivers: Bool
    /// Swift: Cocoa's class names (`UIButton`, `NSObject`) are builtins, `$0` a plain name, and
    /// `@name` a keyword when the table has it (`@objc`, `@IBAction`), else plain.
    let cocoa: Bool
    /// The language inside `<script>` and `<style>` (markup), or of `RUN` lines and commands
    /// (Dockerfile, console).
    let embedded: [CodeLanguage]
    /// The names a fence's info string may give it (lowercase; `named` finds it by any).
    public let aliases: [String]
    /// The bytes that continue a name, and those that may start something other than a name, a
    /// number, a blank or plain punctuation (a comment, a string, a sigil): the scanner's fast
    /// paths.
    let nameBytes: ByteSet
    let starters: ByteSet

    init(name: String, aliases: [String], dialect: Dialect = .generic, words: CodeWordTable,
         lineComments: [String] = [], blockComments: [(String, String)] = [], commentsNest: Bool = false,
         strings: [StringForm] = [], stringPrefixes: StringPrefixes = .none,
         dollarInNames: Bool = false, dashInNames: Bool = false, bangInNames: Bool = false,
         decorators: Bool = false, dottedDecorators: Bool = false, callDefinitions: CallDefinitions = .none,
         regexLiterals: Bool = false, preprocessor: Bool = false, dollarVariables: Bool = false,
         macros: Bool = false, hashAttributes: Bool = false, characterLiterals: Bool = false, lifetimes: Bool = false,
         typeAnnotations: Bool = false, afterDot: AfterDot = .sameRole, symbols: Bool = false, ruby: Bool = false,
         phpTags: Bool = false, macroNames: CodeWordTable? = nil, typeAfterColon: Bool = false,
         signedNumbers: Bool = false, arrowMembers: Bool = false, hashbang: Bool = false, caseConstants: Bool = false, importDefinitions: Bool = false,
         receivers: Bool = false, cocoa: Bool = false, embedded: [CodeLanguage] = []) {
        self.name = name
        self.aliases = aliases
        self.dialect = dialect
        self.words = words
        self.lineComments = lineComments.map { Array($0.utf8) }.sorted { $0.count > $1.count }
        self.blockComments = blockComments.map { (Array($0.0.utf8), Array($0.1.utf8)) }
        self.commentsNest = commentsNest
        self.strings = strings.sorted { $0.open.count > $1.open.count }
        self.stringPrefixes = stringPrefixes
        self.dollarInNames = dollarInNames
        self.dashInNames = dashInNames
        self.bangInNames = bangInNames
        self.decorators = decorators
        self.dottedDecorators = dottedDecorators
        self.callDefinitions = callDefinitions
        self.regexLiterals = regexLiterals
        self.preprocessor = preprocessor
        self.dollarVariables = dollarVariables
        self.macros = macros
        self.hashAttributes = hashAttributes
        self.characterLiterals = characterLiterals
        self.lifetimes = lifetimes
        self.typeAnnotations = typeAnnotations
        self.afterDot = afterDot
        self.symbols = symbols
        self.ruby = ruby
        self.phpTags = phpTags
        self.macroNames = macroNames
        self.typeAfterColon = typeAfterColon
        self.signedNumbers = signedNumbers
        self.arrowMembers = arrowMembers
        self.hashbang = hashbang
        self.caseConstants = caseConstants
        self.importDefinitions = importDefinitions
        self.receivers = receivers
        self.cocoa = cocoa
        var names = ByteSet()
        for b in 0...255 {
            let c = UInt8(b)
            if (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == 0x5F || c >= 0x80 || (c >= 0x30 && c <= 0x39)
                || (c == 0x24 && dollarInNames) || (c == 0x2D && dashInNames) { names.insert(c) }
        }
        nameBytes = names
        var starts = ByteSet()
        for opener in self.lineComments { starts.insert(opener[0]) }
        for comment in self.blockComments { starts.insert(comment.open[0]) }
        for form in self.strings { starts.insert(form.open[0]) }
        for c in "#$@'/-.:%<=_?`\\".utf8 { starts.insert(c) }
        starters = starts
        self.embedded = embedded
    }

    public var description: String { name }

    /// Languages are equal when they are the same language.
    public static func == (a: CodeLanguage, b: CodeLanguage) -> Bool { a.name == b.name }

    /// The language a fence's info string names, by its first word (`"python"`, `"py"`, `"c++"`,
    /// case ignored); nil for an empty or unknown name — such a block keeps the base code style.
    /// The names are Pygments 2.x's lexer aliases for the languages, and `yml`.
    public static func named(_ infoWord: some StringProtocol) -> CodeLanguage? {
        var key = ""
        for scalar in infoWord.unicodeScalars {
            guard scalar.isASCII else { return nil }
            key.unicodeScalars.append(scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar)
        }
        return CodeLanguages.named(key)
    }

    /// Every language known, in the order of `CodeLanguages`.
    public static var all: [CodeLanguage] { CodeLanguages.all }
}
