import Foundation
import Testing
@testable import TypewriteCore
@testable import TypewriteCLI

/// `OptionSpec.all` is the one definition of the command line: `--help`, the shell
/// completions and the man page's OPTIONS must name exactly its options. The help text and the
/// completions are generated from it; the man page is written by hand, so these tests catch an
/// option added, renamed or removed in one place and not the other.
@Suite("Documentation agrees with OptionSpec.all")
struct DocumentationAgreementTests {
    /// Every long option, without its dashes ("cps", "max-lag", …), in table order.
    static let longOptions = OptionSpec.all.map(\.long)

    // MARK: Files

    /// The package root, found from this file's path (Tests/TypewriteCoreTests/<this file>).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TypewriteCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func manPage() throws -> String {
        let url = packageRoot.appendingPathComponent("man/typewrite.1")
        return try String(contentsOf: url, encoding: .utf8)
    }

    // MARK: man(7) helpers

    /// `name` as the man page spells it: `\-\-max\-lag`.
    static func manSpelling(_ name: String) -> String {
        "\\-\\-" + name.replacingOccurrences(of: "-", with: "\\-")
    }

    /// The lines of the section that starts with `.SH <name>`, up to the next `.SH`.
    static func section(_ name: String, of page: String) -> [Substring] {
        var lines: [Substring] = []
        var inside = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".SH") {
                let title = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                inside = title == name
                continue
            }
            if inside { lines.append(line) }
        }
        return lines
    }

    /// The tag lines of the `.TP` paragraphs in `lines` (the line after each `.TP`).
    static func tags(_ lines: [Substring]) -> [Substring] {
        zip(lines, lines.dropFirst()).compactMap { $0.0.hasPrefix(".TP") ? $0.1 : nil }
    }

    /// Every long option named in `text` as `\-\-name` (the man page's escaped dashes), unescaped.
    static func escapedLongOptions(in text: some StringProtocol) -> [String] {
        let pattern = #"\\-\\-([A-Za-z0-9]+(?:\\-[A-Za-z0-9]+)*)"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let string = String(text)
        let range = NSRange(string.startIndex..., in: string)
        return regex.matches(in: string, range: range).map {
            String(string[Range($0.range(at: 1), in: string)!]).replacingOccurrences(of: "\\-", with: "-")
        }
    }

    /// Whether `text` holds `token` not followed by more of a name (so `--color` is not found in
    /// `--colorful`).
    static func mentions(_ text: String, _ token: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: token, range: searchRange) {
            let next = text[found.upperBound...].first
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) ?? true { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }

    // MARK: man page

    @Test("the man page has an OPTIONS section with .TP entries")
    func manPageHasOptions() throws {
        let page = try Self.manPage()
        #expect(!Self.tags(Self.section("OPTIONS", of: page)).isEmpty)
    }

    @Test("each option has a .TP entry in the man page's OPTIONS, with its short name and value name",
          arguments: OptionSpec.all.map(\.long))
    func manPageDocumentsOption(_ long: String) throws {
        let spec = try #require(OptionSpec.all.first { $0.long == long })
        let page = try Self.manPage()
        let named = page.contains(Self.manSpelling(long))  // outside #expect: a failure should not print the page
        #expect(named, "man/typewrite.1 never names \(Self.manSpelling(long))")
        let tags = Self.tags(Self.section("OPTIONS", of: page))
        let tag = try #require(tags.first { Self.escapedLongOptions(in: $0).contains(long) },
                               "no .TP tag in OPTIONS of man/typewrite.1 names \(Self.manSpelling(long))")
        if let short = spec.short {
            #expect(tag.contains("\\fB\\-\(short)\\fR"), "the tag of --\(long) lacks -\(short): \(tag)")
        }
        if let value = spec.valueName {
            #expect(tag.contains("\\fI\(value)\\fR"), "the tag of --\(long) lacks its value name \(value): \(tag)")
            if case .optional = spec.value {
                #expect(tag.contains("[\\fB=\\fR"), "the tag of --\(long) should show [=\(value)]: \(tag)")
            }
        }
        let entry = Self.entry(of: long, in: Self.section("OPTIONS", of: page))
        for choice in spec.choices {
            let choiceNamed = entry.contains(choice)
            #expect(choiceNamed, "the man entry of --\(long) does not name its value \(choice)")
        }
    }

    @Test("every option the man page's OPTIONS section names exists in OptionSpec.all")
    func manPageNamesOnlyRealOptions() throws {
        let page = try Self.manPage()
        let named = Set(Self.section("OPTIONS", of: page).flatMap { Self.escapedLongOptions(in: $0) })
        #expect(!named.isEmpty)
        let unknown = named.subtracting(Self.longOptions).sorted()
        #expect(unknown.isEmpty, "man/typewrite.1 OPTIONS names options typewrite does not have: \(unknown)")
    }

    /// The lines of the `.TP` entry whose tag names `long`, up to the next `.TP`.
    static func entry(of long: String, in lines: [Substring]) -> String {
        var result: [Substring] = []
        var inside = false
        var i = 0
        while i < lines.count {
            if lines[i].hasPrefix(".TP") {
                if inside { break }
                if i + 1 < lines.count, escapedLongOptions(in: lines[i + 1]).contains(long) {
                    inside = true
                }
            } else if inside {
                result.append(lines[i])
            }
            i += 1
        }
        return result.joined(separator: "\n")
    }

    // MARK: --help

    @Test("--help lists each option with its short name and value name",
          arguments: OptionSpec.all.map(\.long))
    func helpListsOption(_ long: String) throws {
        let spec = try #require(OptionSpec.all.first { $0.long == long })
        let help = Options.helpText()
        #expect(Self.mentions(help, "--\(long)"), "--help does not list --\(long)")
        if let short = spec.short {
            #expect(help.contains("-\(short), --\(long)"), "--help does not pair -\(short) with --\(long)")
        }
        if let value = spec.valueName {
            #expect(help.contains("--\(long) \(value)") || help.contains("--\(long)[=\(value)]"),
                    "--help does not show the value \(value) of --\(long)")
        }
    }

    @Test("the README's Options block is the option lines of --help, verbatim")
    func readmeQuotesHelp() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let help = Options.helpText().split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(help.firstIndex(of: "Options:"))
        let optionLines = Array(help[(start + 1)...].prefix { !$0.isEmpty })  // wrapped summaries included
        #expect(optionLines.filter { $0.prefix { $0 == " " }.count < Options.summaryColumn }.count == OptionSpec.all.count)
        // The block as one run of lines, in order, so a wrapped summary continues where it should.
        let block = optionLines.joined(separator: "\n")
        let quoted = readme.contains("```\n" + block + "\n```")  // outside #expect: a failure should not print the README
        #expect(quoted, "README.md's Options block is not the option lines of --help (copy the block again)")
    }

    @Test("the README and the man page name the version --version prints")
    func versionAgrees() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let page = try Self.manPage()
        #expect(page.contains("\"typewrite \(Typewrite.version)\""), "the man page's .TH names another version")
        // "version 0.3.0", `from: "0.3.0"`, "typewrite 0.3.0": the README's mentions of its own version.
        let versions = readme.matches(of: #/(?:version|from:|typewrite) "?(\d+\.\d+\.\d+)/#).map { String($0.output.1) }
        #expect(!versions.isEmpty && versions.allSatisfy { $0 == Typewrite.version },
                "README.md names versions \(Set(versions).sorted()), --version prints \(Typewrite.version)")
    }

    // MARK: completions

    @Test("the bash, zsh and fish completions each offer every option and its values",
          arguments: ["bash", "zsh", "fish"])
    func completionsOfferEveryOption(_ shell: String) {
        let script = Completions.script(for: shell)
        #expect(!script.isEmpty, "no completion script for \(shell)")
        for spec in OptionSpec.all {
            // fish names long options as `-l name`; bash and zsh spell them out.
            let token = shell == "fish" ? "-l \(spec.long)" : "--\(spec.long)"
            let offersLong = Self.mentions(script, token)  // outside #expect: a failure should not print the script
            #expect(offersLong, "the \(shell) completion does not offer --\(spec.long)")
            if let short = spec.short {
                let offersShort = Self.mentions(script, shell == "fish" ? "-s \(short)" : "-\(short)")
                #expect(offersShort, "the \(shell) completion does not offer -\(short)")
            }
            for choice in spec.choices {
                let offersChoice = script.contains(choice)
                #expect(offersChoice, "the \(shell) completion does not offer \(choice) for --\(spec.long)")
            }
        }
    }
}
