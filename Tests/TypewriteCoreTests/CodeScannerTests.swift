import Foundation
import Testing
@testable import TypewriteCore
import TerminalJudge

/// The code scanner: each language's roles on small samples (the classes of Pygments 2.x, the
/// oracle `Scripts/check/code-colors-check.py` judges by), the rules of their own some languages have,
/// and the streaming promises: a guess for the token still arriving, state across lines, the same
/// settled roles whatever the pieces.
@Suite("Code scanner")
struct CodeScannerTests {
    /// A probe: in `code` (a block in `language`), the role of the `occurrence`th `probe`.
    struct Probe: CustomTestStringConvertible, Sendable {
        let language: String
        let code: String
        let probe: String
        let role: CodeRole
        var occurrence = 1
        init(_ language: String, _ code: String, _ probe: String, _ role: CodeRole, occurrence: Int = 1) {
            self.language = language
            self.code = code
            self.probe = probe
            self.role = role
            self.occurrence = occurrence
        }
        var testDescription: String { "\(language): \(probe) in \(code.debugDescription)" }
    }

    static func roles(_ code: String, _ language: String) -> [CodeRole] {
        CodeScanner.roles(of: Array(code.utf8), language: CodeLanguage.named(language)!)
    }

    /// Every byte of the probe's occurrence must have the role.
    static func check(_ p: Probe) -> (Bool, String) {
        let bytes = Array(p.code.utf8)
        let needle = Array(p.probe.utf8)
        var found = 0
        var at = -1
        for i in 0...(bytes.count - needle.count) where Array(bytes[i..<(i + needle.count)]) == needle {
            found += 1
            if found == p.occurrence { at = i; break }
        }
        guard at >= 0 else { return (false, "probe not found") }
        let roles = Self.roles(p.code, p.language)[at..<(at + needle.count)]
        return (roles.allSatisfy { $0 == p.role }, roles.map(\.description).joined(separator: ","))
    }

    static let probes: [Probe] = [
        // Python: keywords, definitions, builtins, f-strings, decorators, dunder methods.
        .init("python", "def greet(name):\n    return f\"hi {name}\"\n", "def", .keyword),
        .init("python", "def greet(name):\n    return f\"hi {name}\"\n", "greet", .definition),
        .init("python", "def greet(name):\n    return f\"hi {name}\"\n", "f\"hi {", .string),
        .init("python", "def greet(name):\n    return f\"hi {name}\"\n", "name", .plain, occurrence: 2),
        .init("python", "class Foo(Base):\n    pass\n", "Foo", .definition),
        .init("python", "print(len(x), None, self.y)\n", "print", .builtin),
        .init("python", "print(len(x), None, self.y)\n", "None", .builtin),
        .init("python", "print(len(x), None, self.y)\n", "self", .builtin),
        .init("python", "if x is not None and y in z:\n", "not", .keyword),
        .init("python", "@app.route('/')\ndef index(): pass\n", "@app", .definition),
        .init("python", "x = 0x1F + 1_000.5e3  # note\n", "1_000.5e3", .number),
        .init("python", "x = 0x1F + 1_000.5e3  # note\n", "# note", .comment),
        .init("python", "s = \"\"\"one\ntwo\"\"\"\nx = 1\n", "two", .string),
        .init("python", "s = \"\"\"one\ntwo\"\"\"\nx = 1\n", "x", .plain),
        .init("python", "obj.print(1)\n", "print", .plain),
        .init("python", "def __init__(self): pass\nsuper().__init__()\n", "__init__", .definition, occurrence: 2),
        // Shells: builtins, expansions, heredocs, comments only at a word's start.
        .init("bash", "echo \"$HOME\" # home\n", "echo", .builtin),
        .init("bash", "echo \"$HOME\" # home\n", "# home", .comment),
        .init("bash", "curl#notcomment\n", "#notcomment", .plain),
        .init("bash", "x=$(date +%s)\n", "$(", .keyword),
        .init("bash", "cat <<EOF > out\nline $x\nEOF\necho done\n", "line $x", .string),
        .init("bash", "cat <<EOF > out\nline $x\nEOF\necho done\n", "echo", .builtin),
        .init("bash", "for f in *.txt; do rm \"$f\"; done\n", "done", .keyword),
        .init("bash", "exit 1\n", "1", .number),
        // JavaScript and TypeScript: template literals, regular expressions, declarations.
        .init("javascript", "const s = `a ${b + 1} c`;\n", "${", .string),
        .init("javascript", "const s = `a ${b + 1} c`;\n", "b", .plain),
        .init("javascript", "const s = `a ${b + 1} c`;\n", "1", .number),
        .init("javascript", "let r = x.replace(/\\s+/g, '');\n", "/\\s+/g", .string),
        .init("javascript", "let r = a / b / 2;\n", "b", .plain),
        .init("javascript", "function foo() { return this; }\n", "foo", .plain),
        .init("javascript", "function foo() { return this; }\n", "this", .builtin),
        .init("javascript", "const t = `one\ntwo ${x}\nthree`;\n", "three", .string),
        .init("typescript", "function f(a: string, b?: Options): void {}\n", "Options", .keyword),
        .init("typescript", "interface A { x: number }\n", "interface", .keyword),
        // JSON: keys and values.
        .init("json", "{\"name\": \"x\", \"ok\": true, \"n\": 1.5}\n", "\"name\"", .key),
        .init("json", "{\"name\": \"x\", \"ok\": true, \"n\": 1.5}\n", "\"x\"", .string),
        .init("json", "{\"name\": \"x\", \"ok\": true, \"n\": 1.5}\n", "true", .builtin),
        .init("json", "{\"name\": \"x\", \"ok\": true, \"n\": 1.5}\n", "1.5", .number),
        // C and C++: the preprocessor, function definitions, types.
        .init("c", "#include <stdio.h>\nint main(void) {\n  return printf(\"x\");\n}\n", "#include", .keyword),
        .init("c", "#include <stdio.h>\nint main(void) {\n  return printf(\"x\");\n}\n", "<stdio.h>", .string),
        .init("c", "#include <stdio.h>\nint main(void) {\n  return printf(\"x\");\n}\n", "main", .definition),
        .init("c", "#include <stdio.h>\nint main(void) {\n  return printf(\"x\");\n}\n", "printf", .plain),
        .init("c", "#define MAX 10\nint x = MAX;\n", "MAX 10", .keyword),
        .init("c", "struct point { int x; };\n", "point", .definition),
        .init("c", "/* a\n   b */ int y;\n", "b */", .comment),
        .init("cpp", "std::vector<int> v; auto p = nullptr;\n", "nullptr", .builtin),
        .init("cpp", "class Water {\n public:\n  void Drink(int n) const;\n};\n", "Drink", .definition),
        .init("cpp", "auto s = R\"(a \"quoted\" b)\";\n", "\"quoted\"", .string),
        // Java, Kotlin, Go, Rust, Swift.
        .init("java", "public static void main(String[] args) { System.out.println(1); }\n", "main", .definition),
        .init("java", "public static void main(String[] args) { System.out.println(1); }\n", "println", .plain),
        .init("java", "@Override\npublic String toString() { return null; }\n", "@Override", .definition),
        .init("kotlin", "data class User(val name: String)\n", "data", .keyword),
        .init("kotlin", "val data = listOf(1)\n", "data", .plain),
        .init("kotlin", "fun <T> swap(a: T): T = a\n", "swap", .definition),
        .init("kotlin", "fun String.shout() = uppercase()\n", "shout", .definition),
        .init("kotlin", "println(\"Hi $name and ${user.id}\")\n", "name", .plain),
        .init("go", "func main() { fmt.Println(len(xs), nil) }\n", "main", .plain),
        .init("go", "func main() { fmt.Println(len(xs), nil) }\n", "len", .builtin),
        .init("go", "s := `raw\nstring`\n", "string", .string),
        .init("rust", "fn main() { println!(\"{}\", x); }\n", "main", .definition),
        .init("rust", "fn main() { println!(\"{}\", x); }\n", "println!", .definition),
        .init("rust", "fn f(p: Point) -> Option<u8> { None }\n", "Point", .definition),
        .init("rust", "fn f(p: Point) -> Option<u8> { None }\n", "Option", .builtin),
        .init("rust", "/* outer /* inner */ still */ let x = 1;\n", "still */", .comment),
        .init("rust", "let s = r#\"a \"b\" c\"#;\n", "\"b\"", .string),
        .init("rust", "fn f<'a>(x: &'a str) {}\n", "a", .plain, occurrence: 2),
        .init("rust", "#[derive(Debug)]\nstruct S;\n", "#[derive(Debug)]", .keyword),
        .init("swift", "import Foundation\nlet x = \"a \\(y) b\"\n", "Foundation", .definition),
        .init("swift", "import Foundation\nlet x = \"a \\(y) b\"\n", "y", .plain),
        .init("swift", "func run() { print(count) }\n", "print", .builtin),
        .init("swift", "let sorted = 1\n", "sorted", .plain),
        // SQL, YAML, TOML.
        .init("sql", "SELECT name FROM users WHERE id = 1; -- all\n", "SELECT", .keyword),
        .init("sql", "select name from users where id = 1; -- all\n", "where", .keyword),
        .init("sql", "CREATE TABLE t (id INT, s VARCHAR(10));\n", "VARCHAR", .builtin),
        .init("sql", "SELECT 'it''s' AS s;\n", "'it''s'", .string),
        .init("yaml", "name: app\nitems:\n  - a # one\nrun: |\n  echo hi\n", "name", .key),
        .init("yaml", "name: app\nitems:\n  - a # one\nrun: |\n  echo hi\n", "# one", .comment),
        .init("yaml", "name: app\nitems:\n  - a # one\nrun: |\n  echo hi\n", "echo hi", .builtin),
        .init("yml", "key: 'value'\n", "'value'", .string),
        .init("toml", "[package]\nname = \"x\" # c\nok = true\n", "[package]", .keyword),
        .init("toml", "[package]\nname = \"x\" # c\nok = true\n", "true", .builtin),
        // Markup and CSS, with the languages they embed.
        .init("html", "<div class=\"a\">text</div>\n<script>let x = 1;</script>\n", "div", .tag),
        .init("html", "<div class=\"a\">text</div>\n<script>let x = 1;</script>\n", "class", .attribute),
        .init("html", "<div class=\"a\">text</div>\n<script>let x = 1;</script>\n", "\"a\"", .string),
        .init("html", "<div class=\"a\">text</div>\n<script>let x = 1;</script>\n", "let", .keyword),
        .init("html", "<!-- note -->\n<p>x</p>\n", "note", .comment),
        .init("xml", "<?xml version=\"1.0\"?>\n<a b=\"c\"/>\n", "<?xml version=\"1.0\"?>", .keyword),
        .init("css", ".box { color: red; margin: 0 10px !important; }\n", "color", .keyword),
        .init("css", ".box { color: red; margin: 0 10px !important; }\n", "red", .builtin),
        .init("css", ".box { color: red; margin: 0 10px !important; }\n", "10", .number),
        .init("css", ".box { color: red; margin: 0 10px !important; }\n", "10px", .number),
        // A unit is part of its number, in a css fence and in html's <style>.
        .init("css", "p { margin: 1.5em auto; width: 140%; }\n", "1.5em", .number),
        .init("css", "p { margin: 1.5em auto; width: 140%; }\n", "140%", .number),
        .init("css", "p { margin: 1.5em auto; width: 140%; }\n", "auto", .builtin),
        .init("html", "<style>\n  p { padding: 5px; }\n</style>\n<p>5px</p>\n", "5px", .number),
        .init("html", "<style>\n  p { padding: 5px; }\n</style>\n<p>5px</p>\n", "5px", .plain, occurrence: 2),
        .init("css", ".box { color: red; margin: 0 10px !important; }\n", "!important", .keyword),
        .init("css", ".box { color: red; margin: 0 10px !important; }\n", "box", .tag),
        // Ruby and PHP.
        .init("ruby", "def self.build(x) = new(x)\nputs :sym, key: 1\n", "build", .definition),
        .init("ruby", "def self.build(x) = new(x)\nputs :sym, key: 1\n", ":sym", .string),
        .init("ruby", "def self.build(x) = new(x)\nputs :sym, key: 1\n", "puts", .builtin),
        .init("ruby", "=begin\nnote\n=end\nx = Foo::Bar\n", "note", .comment),
        .init("ruby", "=begin\nnote\n=end\nx = Foo::Bar\n", "Bar", .builtin),
        .init("php", "<?php\nfunction hi($name) { echo \"Hi $name\"; }\n", "<?php", .keyword),
        .init("php", "<?php\nfunction hi($name) { echo \"Hi $name\"; }\n", "hi", .definition),
        .init("php", "<?php\nfunction hi($name) { echo \"Hi $name\"; }\n", "\"Hi $name\"", .string),
        .init("php", "no code here\n", "code", .plain),
        // PHP without `<?php` (a snippet) is code from its first line; markup first is a template.
        .init("php", phpSnippet, "// Users by id", .comment),
        .init("php", phpSnippet, "class", .keyword),
        .init("php", phpSnippet, "Users", .definition, occurrence: 2),
        .init("php", phpSnippet, "function", .keyword),
        .init("php", phpSnippet, "find", .definition),
        .init("php", phpSnippet, "return", .keyword),
        .init("php", phpSnippet, "'SELECT'", .string),
        .init("php", phpSnippet, "count", .plain),
        .init("php", "\n  $total = 0; // none yet\n", "// none yet", .comment),
        .init("php", "<ul>\n<?php foreach ($items as $item): ?>\n  <li>for each</li>\n<?php endforeach; ?>\n</ul>\n", "foreach", .keyword),
        .init("php", "<ul>\n<?php foreach ($items as $item): ?>\n  <li>for each</li>\n<?php endforeach; ?>\n</ul>\n", "for each", .plain),
        // After `->`: a return annotation's names in Python, Rust, Swift and Kotlin (a member only
        // in C, C++ and PHP); TypeScript's annotations after `name:`.
        .init("python", "def f(x: int) -> None:\n    pass\n", "None", .builtin),
        .init("python", "def f(x: int) -> str:\n    pass\n", "str", .builtin),
        .init("python", "def f(x: int) -> str:\n    pass\n", "int", .builtin),
        .init("python", "def f() -> dict[str, int]:\n    pass\n", "dict", .builtin),
        .init("rust", "fn f(x: i32) -> Option<String> { None }\n", "Option", .builtin),
        .init("rust", "fn f(x: i32) -> Option<String> { None }\n", "i32", .keyword),
        .init("swift", "func f(x: Int) -> Bool { false }\n", "Bool", .builtin),
        .init("kotlin", "val g: (Int) -> Unit = { }\n", "Unit", .keyword),
        .init("typescript", "function f(x: number): Promise<void> { return null; }\n", "number", .keyword),
        .init("typescript", "function f(x: number): Promise<void> { return null; }\n", "Promise", .builtin),
        .init("typescript", "const m: Map<string, Date> = new Map();\n", "Map", .keyword),
        .init("typescript", "const m: Map<string, Date> = new Map();\n", "Map", .builtin, occurrence: 2),
        .init("c", "n = p->size + sizeof(int);\n", "size", .plain),
        // `<?=` is PHP's tag and an operator; Swift's compiler-control lines; YAML flow collections.
        .init("php", "<p><?= $this->e($name) ?></p>\n", "<?", .keyword),
        .init("php", "<p><?= $this->e($name) ?></p>\n", "=", .plain),
        .init("swift", "#if canImport(Darwin) && !os(Linux) // why\nimport Darwin\n#endif\n", "canImport", .keyword),
        .init("swift", "#if canImport(Darwin) && !os(Linux) // why\nimport Darwin\n#endif\n", "Linux", .keyword),
        .init("swift", "#if canImport(Darwin) && !os(Linux) // why\nimport Darwin\n#endif\n", "// why", .comment),
        .init("swift", "#if canImport(Darwin) && !os(Linux) // why\nimport Darwin\n#endif\n", "#endif", .keyword),
        .init("swift", "#if canImport(Darwin) && !os(Linux) // why\nimport Darwin\n#endif\n", "Darwin", .definition, occurrence: 2),
        .init("yaml", "- {name: Linux, python: '3.14', os: [a, b]}\n", "'3.14'", .string),
        .init("yaml", "- {name: Linux, python: '3.14', os: [a, b]}\n", "python", .key),
        .init("yaml", "- {name: Linux, python: '3.14', os: [a, b]}\n", "Linux", .plain),
        // A hashbang opening a JavaScript or TypeScript block is a comment; `#` later is not.
        .init("javascript", "#!/usr/bin/env node\nclass A { #n = 1 }\n", "#!/usr/bin/env node", .comment),
        .init("typescript", "#!/usr/bin/env node\nclass A { #n = 1 }\n", "#!/usr/bin/env node", .comment),
        .init("javascript", "#!/usr/bin/env node\nclass A { #n = 1 }\n", "#n", .plain),
        // SQL's keywords are Pygments' list whole (ISO/IEC 9075 and PostgreSQL).
        .init("sql", "CREATE AGGREGATE avg (float8) (SFUNC = f, STYPE = float8[]);\nGRANT SELECT ON t TO u;\n", "AGGREGATE", .keyword),
        .init("sql", "CREATE AGGREGATE avg (float8) (SFUNC = f, STYPE = float8[]);\nGRANT SELECT ON t TO u;\n", "GRANT", .keyword),
        // Diff, Dockerfile, console.
        .init("diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n", "-old", .deleted),
        .init("diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n", "+new", .inserted),
        .init("diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n", "@@ -1 +1 @@", .heading),
        .init("dockerfile", "FROM python:3.12 AS base\nRUN pip install x && \\\n    echo done\n", "python:3.12", .string),
        .init("dockerfile", "FROM python:3.12 AS base\nRUN pip install x && \\\n    echo done\n", "RUN", .keyword),
        .init("dockerfile", "FROM python:3.12 AS base\nRUN pip install x && \\\n    echo done\n", "echo", .builtin),
        .init("console", "$ ls -la\ntotal 0\n", "$ ", .prompt),
        .init("console", "$ ls -la\ntotal 0\n", "total 0", .output),
    ]

    static let phpSnippet = """
        // Users by id
        class Users {
            public function find($id) {
                return $this->count() ? 'SELECT' : null;
            }
        }

        """

    @Test("each language's roles", arguments: probes)
    func probe(_ p: Probe) {
        let (ok, got) = Self.check(p)
        #expect(ok, "\(got)")
    }

    @Test("fence names: Pygments' aliases and yml; kt and untagged are unknown")
    func names() {
        #expect(CodeLanguage.named("Python")?.name == "python")
        #expect(CodeLanguage.named("c++")?.name == "cpp")
        #expect(CodeLanguage.named("yml")?.name == "yaml")
        #expect(CodeLanguage.named("shell-session")?.name == "console")
        #expect(CodeLanguage.named("kt") == nil)
        #expect(CodeLanguage.named("") == nil)
        #expect(CodeLanguage.named("text") == nil)
        for language in CodeLanguage.all {
            for alias in language.aliases { #expect(CodeLanguage.named(alias) == language, "\(alias)") }
        }
    }

    // MARK: Streaming

    /// A line still arriving: the last token's role is the guess of a whole token.
    @Test("a token is styled as soon as it is whole, and only as what has arrived", arguments: [
        ("def", CodeRole.keyword), ("de", .plain), ("def gr", .definition), ("x = \"ab", .string), ("# no", .comment),
        ("print", .builtin), ("prin", .plain), ("x = 12", .number),
    ])
    func guesses(prefix: String, role: CodeRole) {
        var scanner = CodeScanner(language: CodeLanguage.named("python")!)
        let roles = scanner.roles(ofLine: Array(prefix.utf8), lineIsComplete: false)
        #expect(roles.last == role, "\(roles)")
    }

    @Test("a `/` still arriving is a comment at a line's start and an operator after a value")
    func slashGuess() {
        var scanner = CodeScanner(language: CodeLanguage.named("c")!)
        #expect(scanner.roles(ofLine: Array("  /".utf8), lineIsComplete: false).last == .comment)
        #expect(scanner.roles(ofLine: Array("x = a /".utf8), lineIsComplete: false).last == .plain)
        #expect(scanner.roles(ofLine: Array("x = a // b".utf8), lineIsComplete: true).last == .comment)
    }

    @Test("interpolations nest boundedly: a thousand `${` open and the block still ends")
    func boundedNesting() {
        let code = "const s = `" + String(repeating: "${`", count: 1000) + "\nlet x = 1\n"
        let roles = Self.roles(code, "javascript")
        #expect(roles.count == code.utf8.count)
    }

    /// The fixtures' code in a fence, fed to the markdown highlighter whole, in random pieces and
    /// byte by byte: the same settled styles, code roles included.
    @Test("the settled roles are the same whatever the pieces", arguments: 0..<4)
    func samePiecesSameRoles(part: Int) throws {
        let files = try Self.fixtureFiles()
        for (k, file) in files.enumerated() where k % 4 == part {
            // (A documentation page is fed as it stands, its fences tagged by the page.)
            let text = file.tag == "markdown" ? file.code
                : "```\(file.tag)\n" + file.code + (file.code.hasSuffix("\n") ? "" : "\n") + "```\n"
            let bytes = Array(text.utf8)
            let whole = MarkdownHighlighter.styles(of: bytes)
            var rng = SplitMix64(seed: UInt64(k) &+ 77)
            for pieces in 0..<2 {
                var highlighter = MarkdownHighlighter()
                var map = MarkdownStyleMap()
                var at = 0
                while at < bytes.count {
                    let n = pieces == 0 ? 1 : min(bytes.count - at, 1 + Int(rng.next() % 40))
                    map.apply(highlighter.feed(bytes[at..<(at + n)]))
                    at += n
                }
                map.apply(highlighter.finish())
                #expect(map.runs == whole, "\(file.name) \(pieces == 0 ? "byte by byte" : "random pieces")")
            }
            // Every code role the block has is there once settled.
            #expect(whole.contains { $0.style.codeRole != .plain }, "\(file.name)")
        }
    }

    /// Hostile code, made of the pieces the rules turn on (quotes, comment openers, interpolations,
    /// heredocs, brackets, escapes, CR, tabs, non-ASCII), in every language, in random pieces: no
    /// trap, and the settled roles of the whole.
    @Test("hostile code in every language settles the same whatever the pieces", arguments: CodeLanguage.all.map(\.name))
    func hostile(language: String) {
        let alphabet = ["\"", "'", "`", "\"\"\"", "'''", "/*", "*/", "//", "#", "--", "<!--", "-->", "${", "#{", "\\(", "}", ")",
                        "{", "(", "[", "]", "<<EOF", "EOF", "<<-X", "\\", "\n", "\r\n", "\t", " ", "def", "class", "fn", "x", "1.5e3",
                        "0x1F", "r#\"", "\"#", "R\"(", ")\"", "$x", "$(", "@d", "%w[", "=begin", "=end", "<?php", "?>", "<script>",
                        "</script>", "<style>", "</style>", ":", "|", "-", "+", "@@", "é", "日本", "\u{1F600}"]
        var rng = SplitMix64(seed: UInt64(language.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        for round in 0..<40 {
            var code = ""
            for _ in 0..<(20 + Int(rng.next() % 200)) { code += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let text = "```\(language)\n" + code + "\n```\nafter\n"
            let bytes = Array(text.utf8)
            let whole = MarkdownHighlighter.styles(of: bytes)
            var highlighter = MarkdownHighlighter()
            var map = MarkdownStyleMap()
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, 1 + Int(rng.next() % 9))
                map.apply(highlighter.feed(bytes[at..<(at + n)]))
                at += n
            }
            map.apply(highlighter.finish())
            #expect(map.runs == whole, "round \(round)")
            #expect(map.count == bytes.count)
        }
    }

    struct Fixture { var name: String; var tag: String; var code: String }

    static func fixtureFiles() throws -> [Fixture] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("code")
        let data = try Data(contentsOf: root.appendingPathComponent("files.json"))
        let list = try JSONSerialization.jsonObject(with: data) as! [[String: String]]
        return try list.map { entry in
            let path = entry["file"]!
            let code = try String(contentsOf: root.appendingPathComponent("files").appendingPathComponent(path), encoding: .utf8)
            return Fixture(name: path, tag: entry["tag"]!, code: code)
        }
    }
}

/// Code in the fade renderer: a keyword takes its look while its line is still arriving.
@Suite("Code rendering")
struct CodeRenderingTests {
    @Test("`def` is in the keyword look during a pause before the newline")
    func keywordDuringPause() {
        var harness = RenderHarness(columns: 80)
        harness.configuration.rows = 24
        harness.configuration.highlightsMarkdown = true
        let chunks = [RenderHarness.Chunk(delay: 0, bytes: Array("```python\n".utf8)),
                      RenderHarness.Chunk(delay: 0.2, bytes: Array("def greet(name):".utf8)),
                      RenderHarness.Chunk(delay: 1.5, bytes: Array("\n    pass\n```\n".utf8))]
        var terminal = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        for frame in harness.frames(chunks) where frame.time < 1.6 { terminal.feed(frame.bytes) }
        let screen = terminal.snapshot()
        let row = screen.lines.firstIndex { VirtualTerminal.lineText($0).hasPrefix("def greet") }
        #expect(row != nil, "\(screen.text)")
        guard let row else { return }
        let keyword = VirtualTerminal.Color.indexed(UInt8(MarkdownAppearance.color(of: .keyword) - 30))
        let definition = VirtualTerminal.Color.indexed(UInt8(MarkdownAppearance.color(of: .definition) - 90 + 8))
        for column in 0..<3 { #expect(screen.lines[row][column].style.fg == keyword, "\(screen.lines[row][column])") }
        #expect(screen.lines[row][4].style.fg == definition, "\(screen.lines[row][4])")
    }

    @Test("untagged and unknown fences keep the one base code style")
    func untaggedKeepBase() {
        for info in ["", "kt", "text"] {
            let text = "```\(info)\ndef f(): return \"x\"  # c\n```\n"
            let styles = MarkdownHighlighter.styles(of: Array(text.utf8)).filter { $0.style.isCodeBlock }
            #expect(styles.allSatisfy { $0.style.codeRole == .plain }, "\(info)")
            #expect(Set(styles.map { MarkdownAppearance.parameters(for: $0.style) }) == ["32"], "\(info)")
        }
    }

    @Test("code looks: palette colours only, at most eight, every judged role apart from plain")
    func looks() {
        let looks = Set(CodeRole.allCases.map { MarkdownAppearance.parameters(for: MarkdownStyle(isCodeBlock: true, codeRole: $0)) })
        #expect(looks.count <= 8)
        for look in looks {
            let n = Int(look)!
            #expect((30...37).contains(n) || (90...97).contains(n), "\(look)")
        }
        let plain = MarkdownAppearance.color(of: .plain)
        for role in [CodeRole.keyword, .string, .comment, .number, .definition, .builtin] {
            #expect(MarkdownAppearance.color(of: role) != plain, "\(role)")
        }
        // The fades end on the palette entries the terminal is asked for.
        for role in CodeRole.allCases {
            let n = MarkdownAppearance.color(of: role)
            let index = UInt8(n >= 90 ? n - 90 + 8 : n - 30)
            #expect(MarkdownAppearance.paletteIndices.contains(index), "\(role)")
        }
        // Without colours, code is in reverse video whatever its role.
        #expect(MarkdownAppearance.parameters(for: MarkdownStyle(isCodeBlock: true, codeRole: .keyword), colors: false) == "7")
    }
}
