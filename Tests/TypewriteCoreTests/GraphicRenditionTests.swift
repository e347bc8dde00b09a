import Testing
@testable import TypewriteCore

/// Extended colours as ITU T.416 and xterm define them; what terminals read differently is ambiguous.
/// The forms and what tmux 3.3a does with them were measured in a pane (`capture-pane -e`).
@Suite("GraphicRendition")
struct GraphicRenditionTests {
    static let wellFormedForms: [(String, TerminalColor)] = [
        ("38;5;208", .indexed(208)), ("38:5:208", .indexed(208)), ("38;2;1;2;3", .rgb(RGB(1, 2, 3))),
        ("38:2:1:2:3", .rgb(RGB(1, 2, 3))), ("38:2::1:2:3", .rgb(RGB(1, 2, 3))), ("38:2:0:1:2:3", .rgb(RGB(1, 2, 3))),
        ("38;2;0;0;0", .rgb(RGB(0, 0, 0))), ("31", .indexed(1)), ("97", .indexed(15)),
    ]

    @Test("well-formed colours set the pen", arguments: wellFormedForms)
    func wellFormed(_ parameters: String, _ color: TerminalColor) {
        var pen = GraphicRendition()
        let outcome = pen.apply(parameters: Array(parameters.utf8))
        #expect(!outcome.ambiguous)
        #expect(pen.foreground == color)
    }

    /// tmux ignores the first four, reads `38;2;1;;3` as bold, reset, italic, `38;5;` and `38:5:300`
    /// as the default colour, and takes `38:2::1:2:3:` as (1, 2, 3); xterm reads empty values as 0.
    static let malformedForms = ["38:2::2002:::", "38:2::1::3", "38:2::1:2:3::", "38::2:1:2:3", "38:2::1:2:3:", "38:5:", "38;5;",
                            "38;5", "38;2;1;;3", "38;2;1;2", "38;2;300;1;1", "38:5:300", "38;6;1", "48:2::1:2", "38;2;300;0;1;31",
                            "38;2;1;2;3;0;38;5;"]

    @Test("malformed colours are ambiguous", arguments: malformedForms)
    func malformed(_ parameters: String) {
        var pen = GraphicRendition()
        pen.apply(parameters: Array("31".utf8))
        #expect(pen.apply(parameters: Array(parameters.utf8)).ambiguous, "\(parameters)")
    }

    /// Terminals disagree on how many parameters a malformed semicolon form takes with it, so a 0
    /// after it may be a colour value in one and a reset in another.
    @Test("a 0 after a malformed semicolon colour does not make the pen known",
          arguments: ["38;2;300;0;1;31", "38;2;1;;3;0", "38;5;300;0", "38;2;1;2;3;0;38;5;;0"])
    func zeroAfterMalformedSemicolonForm(_ parameters: String) {
        var pen = GraphicRendition()
        #expect(pen.apply(parameters: Array(parameters.utf8)).ambiguous, "\(parameters)")
    }

    @Test("a reset after an unrelated ambiguous parameter makes the pen known again")
    func resetAfterUnknownParameter() {
        var pen = GraphicRendition()
        #expect(!pen.apply(parameters: Array("4:7;0;32".utf8)).ambiguous)
        #expect(pen.foreground == .indexed(2))
    }

    @Test("24-bit pens are told apart", arguments: [("38;2;1;2;3", true), ("48:2::1:2:3", true), ("58:2::1:2:3", true),
                                                     ("38;5;1", false), ("1;31", false)])
    func usesTrueColor(_ parameters: String, _ expected: Bool) {
        var pen = GraphicRendition()
        pen.apply(parameters: Array(parameters.utf8))
        #expect(pen.usesTrueColor == expected)
    }
}
